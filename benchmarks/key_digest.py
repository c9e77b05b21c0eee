"""Cost of an idempotency key's argument digest: ``python -m benchmarks.key_digest [--runs N]``.

Every command sent with a key hashes its checked arguments (``keys.digest_of``) before it
touches the database. For a few kinds of command this times ``--count`` digests, ``--runs``
times, and prints the median wall and CPU (``time.process_time``) microseconds per digest;
CPU time is what a shared, noisy machine blurs least. The last line is
``move_cpu_us=X act_cpu_us=Y submit_army_cpu_us=Z create_game_cpu_us=W``.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable, Sequence

from vahalite_bot.app import autoplay, schemas
from vahalite_bot.app.commands import call_fields
from vahalite_bot.app.house import checked_house_rules
from vahalite_bot.app.keys import digest_of
from vahalite_bot.rules.actions import Move
from vahalite_bot.rules.geometry import Cell
from vahalite_bot.rules.scenario import Side


def _cases() -> dict[str, Callable[[], str | None]]:
    envelope = call_fields(7, autoplay.SOUTH, 3, "1234567890123456789")
    move = schemas.check(schemas.UnitToCell, **envelope, unit="sco1", cell=Cell(0, 3))
    path = tuple(Cell(0, row) for row in range(6))
    act = schemas.check(schemas.Act, **envelope, action=Move(Side.SOUTH, "sco1", path))
    roster = autoplay.standard_armies()[Side.SOUTH]
    army = schemas.check(schemas.SubmitArmy, **envelope, roster=roster)
    create = schemas.check(
        schemas.Create, actor=autoplay.SOUTH, channel="c", house_rules="M2 M7", key="k"
    )
    house = checked_house_rules(create.house_rules)
    return {
        "move": lambda: digest_of(move),
        "act": lambda: digest_of(act),
        "submit_army": lambda: digest_of(army),
        "create_game": lambda: digest_of(create, house_rules=house),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--count", type=int, default=20_000)
    args = parser.parse_args(argv)
    cpu_medians: dict[str, float] = {}
    for name, digest in _cases().items():
        wall: list[float] = []
        cpu: list[float] = []
        for _ in range(args.runs):
            started, started_cpu = time.perf_counter(), time.process_time()
            for _ in range(args.count):
                digest()
            wall.append((time.perf_counter() - started) / args.count * 1e6)
            cpu.append((time.process_time() - started_cpu) / args.count * 1e6)
        cpu_medians[name] = statistics.median(cpu)
        print(f"{name}: wall {statistics.median(wall):.1f} us, CPU {cpu_medians[name]:.1f} us")
    print(" ".join(f"{name}_cpu_us={value:.1f}" for name, value in cpu_medians.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
