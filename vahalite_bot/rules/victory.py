"""Turn ends, SP control and victory (RULES.md C1, C3, J1-J4)."""

from __future__ import annotations

from vahalite_bot.rules.context import Context
from vahalite_bot.rules.events import GameEnded, Score, SPCaptured, TurnEnded
from vahalite_bot.rules.scenario import Side
from vahalite_bot.rules.state import GameState, Phase
from vahalite_bot.rules.turns import begin_turn


def score(state: GameState, side: Side) -> Score:
    """J2: SP held, enemy units destroyed, enemy HQs destroyed by an attack of one's HQ."""
    enemy_dead = [u for u in state.units.values() if u.side is not side and u.destroyed]
    hq_kills = sum(
        1
        for u in enemy_dead
        if u.is_hq and u.destroyed_by is not None and state.units[u.destroyed_by].is_hq
    )
    held = sum(1 for sp in state.sps.values() if sp.holder is side)
    return Score(sp=held, kills=len(enemy_dead), hq_kills=hq_kills)


def end_turn(ctx: Context) -> None:
    """C3 and J1: SPs change hands, the next turn (or round, or the end) begins."""
    state = ctx.state
    side = state.active
    assert side is not None and state.first_player is not None
    _capture_sps(ctx)
    for unit in state.living(side):
        unit.moved = unit.attacked = unit.embarked = unit.disembarked = False
    state.attack_step = False
    ctx.emit(TurnEnded(state.round, side))
    if side is state.first_player:
        begin_turn(ctx, state.round, side.other)
    elif state.round >= state.scenario.rounds:
        finish(ctx, winner_by_score(state), "score")  # C1: after the last turn of the last round
    else:
        begin_turn(ctx, state.round + 1, state.first_player)


def winner_by_score(state: GameState) -> Side | None:
    """J4: more VP wins; equal VP is a draw."""
    south, north = score(state, Side.SOUTH).vp, score(state, Side.NORTH).vp
    if south == north:
        return None
    return Side.SOUTH if south > north else Side.NORTH


def check_annihilation(ctx: Context) -> None:
    """J3: a player who has destroyed all the opponent's units wins at once."""
    state = ctx.state
    if state.phase is not Phase.PLAYING:
        return
    wiped = [side for side in Side if not any(state.living(side))]
    if wiped:
        finish(ctx, None if len(wiped) == 2 else wiped[0].other, "annihilation")


def resign(ctx: Context, side: Side) -> None:
    """J4: a player may resign at any time."""
    ctx.state.resigned = side
    finish(ctx, side.other, "resignation")


def finish(ctx: Context, winner: Side | None, reason: str) -> None:
    state = ctx.state
    state.phase = Phase.ENDED
    state.winner = winner
    state.active = None
    state.pending = ()
    ctx.emit(GameEnded(winner, reason, score(state, Side.SOUTH), score(state, Side.NORTH)))


def _capture_sps(ctx: Context) -> None:
    """J1: a ground unit (a transport counts, a flyer doesn't) ending a turn on an SP takes it."""
    state = ctx.state
    for cell, sp in state.sps.items():
        unit = state.unit_at(cell)
        if unit is None or unit.is_flyer or sp.holder is unit.side:
            continue
        sp.holder = unit.side
        ctx.emit(SPCaptured(cell, unit.side, unit.id))
