"""One routing for an order: a slash command and a typed line mean the same thing (issue 17).

Both become an ``Order`` of the order language; ``orders.resolve`` turns it into the engine
action in one place (a move, an H5 placement, an M5 arrival, an M6 fall back, an M8 charge,
the end of the turn or of the reserves...), and ``apply`` here sends it to the service the
same way for both adapters. The cogs only put a command's options into an order: they hold
no rule knowledge.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from vahalite_bot.app import Actor, NotAllowed, Outcome, StaleState
from vahalite_bot.orders import Order, Request, declines_advance, resolve
from vahalite_bot.rules.actions import Action, Advance
from vahalite_bot.rules.scenario import Side
from vahalite_bot.rules.state import GameState

if TYPE_CHECKING:
    from vahalite_bot.discord.client import VahaBot


async def play(bot: VahaBot, game: int, actor: Actor, order: Order, key: str) -> list[Outcome]:
    """A slash command's order, resolved in the game as the caller's view shows it (a newer
    game refuses it as stale rather than apply what was meant for another position).

    The view is the game as this process last saw it (its last post read it): no read
    before the command. If the game has moved on since, the caller is not in that view or
    the order is refused in it, it is read again and the order resolved anew."""
    for fresh in (False, True):
        status, side = await bot.games.side_of(game, actor.user, max_age=0.0 if fresh else None)
        if side is None or status.state is None:
            if not fresh:
                continue
            raise NotAllowed("not_a_player" if side is None else "game_not_started")
        try:
            resolved = resolve(order, status.state, side)
        except Exception:
            if fresh:
                raise
            continue  # refused in that view: perhaps not in the game as it is now
        assert not isinstance(resolved, Request), f"a command built a question: {order}"
        try:
            return await apply(
                bot,
                game,
                actor,
                side,
                status.state,
                order,
                resolved,
                key,
                expected_version=status.version,
            )
        except StaleState as error:
            if fresh or error.code != "stale":
                raise
    raise AssertionError("unreachable")


async def apply(
    bot: VahaBot,
    game: int,
    actor: Actor,
    side: Side,
    state: GameState,
    order: Order,
    resolved: Action,
    key: str,
    *,
    expected_version: int | None = None,
) -> list[Outcome]:
    """Apply ``order`` (resolved in ``state`` to ``resolved``). While the caller's own E10
    advance is offered, any other order first declines it, then is read again in the game
    that leaves."""
    outcomes: list[Outcome] = []
    if declines_advance(state, side, resolved):
        stay = Advance(side, state.pending[0].unit, False)
        declined = await bot.service.act(
            game, actor, stay, expected_version=expected_version, key=key + ":stay"
        )
        outcomes.append(declined)
        if declined.state is not None:
            state = declined.state
        if expected_version is not None:
            expected_version = declined.version
        again = resolve(order, state, side)
        assert not isinstance(again, Request)
        resolved = again
    outcomes.append(
        await bot.service.act(game, actor, resolved, expected_version=expected_version, key=key)
    )
    return outcomes
