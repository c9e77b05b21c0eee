"""Vaha-Lite bot entry point."""

from __future__ import annotations

import argparse
import sys

from vahalite_bot import selfplay


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="Run the Vaha-Lite bot.")
    parser.add_argument(
        "--console",
        action="store_true",
        help="play in the terminal instead of on Discord",
    )
    parser.add_argument(
        "--lang",
        choices=("en", "ru"),
        default=None,
        help="message language (default: from config)",
    )
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    parse_args(argv)
    # The console and Discord adapters come in later issues; until then the bot plays
    # one demo self-play game so that `make run` shows the rules engine at work.
    return selfplay.main(["--games", "1", "--seed", "1", "--verbose"])


if __name__ == "__main__":
    sys.exit(main())
