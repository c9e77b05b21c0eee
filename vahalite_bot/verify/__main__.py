"""``python -m vahalite_bot.verify FILE``: check every die of an exported game log.

Exit status: 0 every die verified; 1 something is wrong (each problem is printed);
2 the seed is not revealed yet (only the order of the dice was checked) or the file is not
an exported log.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from vahalite_bot.i18n import LANGUAGES, translate
from vahalite_bot.verify.check import check_text
from vahalite_bot.verify.logfile import MAX_BYTES, LogFileError
from vahalite_bot.verify.text import report_lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m vahalite_bot.verify",
        description="Check every die of an exported Vaha-Lite game log (docs/dice.md).",
    )
    parser.add_argument("file", type=Path, help="the exported log (JSON lines)")
    parser.add_argument("--seed", help="the revealed seed in hex, if the file lacks it")
    parser.add_argument("--lang", choices=LANGUAGES, default="en")
    parser.add_argument("--dice", action="store_true", help="print every die, one a line")
    args = parser.parse_args(argv)
    lang: str = args.lang
    try:
        seed = None if args.seed is None else bytes.fromhex(args.seed)
    except ValueError:
        parser.error("--seed: not hex")
    try:
        with args.file.open("rb") as handle:
            data = handle.read(MAX_BYTES + 1)
        if len(data) > MAX_BYTES:
            raise LogFileError("verify-too-big")
        report = check_text(data.decode("utf-8", errors="replace"), seed)
    except OSError as error:
        print(translate(lang, "verify-unreadable", error=str(error)), file=sys.stderr)
        return 2
    except LogFileError as error:
        print(translate(lang, error.code, **error.args_), file=sys.stderr)
        return 2
    for line in report_lines(report, lang, every_die=args.dice):
        print(line)
    if report.problems:
        return 1
    return 0 if report.seed is not None else 2


if __name__ == "__main__":
    sys.exit(main())
