"""A message of several orders, one per line, applied in order through a callback.

The callback (``apply_fn``) is the caller's: the service in the bot, ``engine.apply`` with
dice in tests. It gets the state the runner holds and each ``Step`` (the line, its order
and what it resolved to in that state), and returns the state afterwards and whatever the
caller wants to show for it. The service may resolve ``step.order`` again inside its own
transaction (``resolve`` is a pure function) when the state it loads is newer.

Decisions:

* The whole message is read first: if any line does not parse, nothing is applied and
  every such line is reported (as A7 lists every problem of a roster at once): a typo in
  the third line should not leave the first two done and the rest not.
* Then the lines are resolved and applied in order against the state each one leaves; the
  first refusal (``OrderError``, ``IllegalAction`` or any type in ``refusals``) stops the
  run: the report lists what applied, the refused line with its reason, and the lines not
  tried. Any other exception is a bug and propagates.
* A message with text but no line that carries a word (``>``, ``→``, an emoji) is answered
  with a refusal, ``no_order``: silence would look like the bot did not hear it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from vahalite_bot.orders.model import Order, OrderError, OrderSyntaxError
from vahalite_bot.orders.parser import parse_line, split_lines
from vahalite_bot.orders.phase_fit import fit_to_phase
from vahalite_bot.orders.requests import Request, Resolved
from vahalite_bot.orders.resolver import resolve
from vahalite_bot.rules.actions import Advance, Resign
from vahalite_bot.rules.dice import DiceStream
from vahalite_bot.rules.engine import apply
from vahalite_bot.rules.errors import IllegalAction
from vahalite_bot.rules.events import Event
from vahalite_bot.rules.scenario import Side
from vahalite_bot.rules.state import GameState, PendingAdvance

T = TypeVar("T")

REFUSALS: tuple[type[Exception], ...] = (OrderError, IllegalAction)


@dataclass(frozen=True)
class Step:
    line: str
    order: Order
    resolved: Resolved


@dataclass(frozen=True)
class Applied(Generic[T]):
    step: Step
    result: T

    @property
    def line(self) -> str:
        return self.step.line


@dataclass(frozen=True)
class Refused:
    line: str
    error: Exception  # OrderSyntaxError, OrderError, IllegalAction or a caller's refusal


@dataclass(frozen=True)
class Report(Generic[T]):
    applied: tuple[Applied[T], ...]
    refused: tuple[Refused, ...]  # several only when lines did not parse
    skipped: tuple[str, ...]  # not tried
    state: GameState  # after the applied lines

    @property
    def ok(self) -> bool:
        return not self.refused


def run_orders(
    state: GameState,
    side: Side,
    message: str | Sequence[str],
    apply_fn: Callable[[GameState, Step], tuple[GameState, T]],
    refusals: tuple[type[Exception], ...] = REFUSALS,
) -> Report[T]:
    """``run_orders_async`` for a plain callback: one loop serves both."""

    async def apply_now(current: GameState, step: Step) -> tuple[GameState, T]:
        return apply_fn(current, step)

    # apply_now never suspends, so the coroutine runs to its end on the first send.
    running = run_orders_async(state, side, message, apply_now, refusals)
    try:
        running.send(None)
    except StopIteration as finished:
        report: Report[T] = finished.value
        return report
    running.close()
    raise RuntimeError("run_orders: the callback suspended")


async def run_orders_async(
    state: GameState,
    side: Side,
    message: str | Sequence[str],
    apply_fn: Callable[[GameState, Step], Awaitable[tuple[GameState, T]]],
    refusals: tuple[type[Exception], ...] = REFUSALS,
) -> Report[T]:
    """``run_orders`` for an asynchronous callback (the service's commands)."""
    lines, orders, unreadable = _read(message)
    if unreadable is not None:
        fitted = tuple(_fitted(refused, state) for refused in unreadable)
        return Report((), fitted, _rest(lines, unreadable), state)
    done: list[Applied[T]] = []
    for index, (line, order) in enumerate(zip(lines, orders, strict=True)):
        try:
            step = Step(line, order, resolve(order, state, side))
            state, result = await apply_fn(state, step)
        except refusals as error:
            return Report(tuple(done), (Refused(line, error),), tuple(lines[index + 1 :]), state)
        done.append(Applied(step, result))
    return Report(tuple(done), (), (), state)


def engine_step(
    dice: DiceStream,
) -> Callable[[GameState, Step], tuple[GameState, list[Event] | Request]]:
    """A callback straight to the engine (no service): actions are applied with ``dice``,
    requests come back unanswered for the caller, the state unchanged."""

    def step(state: GameState, step: Step) -> tuple[GameState, list[Event] | Request]:
        resolved = step.resolved
        if isinstance(resolved, Request):
            return state, resolved
        return apply(state, resolved, dice)

    return step


def _read(
    message: str | Sequence[str],
) -> tuple[list[str], list[Order], tuple[Refused, ...] | None]:
    text = message if isinstance(message, str) else "\n".join(message)
    lines = split_lines(text)
    if not lines and text.strip():
        said = " ".join(text.split())
        return [], [], (Refused(said, OrderSyntaxError("no_order", line=said)),)
    parsed = [parse_line(line) for line in lines]
    unreadable = tuple(
        Refused(line, p)
        for line, p in zip(lines, parsed, strict=True)
        if isinstance(p, OrderSyntaxError)
    )
    orders = [p for p in parsed if not isinstance(p, OrderSyntaxError)]
    return lines, orders, unreadable or None


def _fitted(refused: Refused, state: GameState) -> Refused:
    error = refused.error
    if isinstance(error, OrderSyntaxError):
        return Refused(refused.line, fit_to_phase(error, state))
    return refused


def _rest(lines: list[str], refused: tuple[Refused, ...]) -> tuple[str, ...]:
    bad = {r.line for r in refused}
    return tuple(line for line in lines if line not in bad)


def declines_advance(state: GameState, side: Side, action: object) -> bool:
    """An order other than the E10 decision while ``side``'s own advance is offered: every
    adapter reads it as "stay", then gives the order."""
    if not state.pending or not isinstance(state.pending[0], PendingAdvance):
        return False
    if state.pending[0].side is not side:
        return False
    return not isinstance(action, Advance | Resign)
