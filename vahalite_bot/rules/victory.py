"""Turn ends, SP control and victory (rulebook C1, C3, J1-J4)."""

from __future__ import annotations

from vahalite_bot.rules import damage_step, reserve
from vahalite_bot.rules.context import Context
from vahalite_bot.rules.events import GameEnded, Score, SPCaptured, TurnEnded
from vahalite_bot.rules.house import HouseRule
from vahalite_bot.rules.initiative import first_of_round
from vahalite_bot.rules.scenario import Side
from vahalite_bot.rules.state import GameState, Phase
from vahalite_bot.rules.turns import begin_turn

SIDES = tuple(Side)  # iterating the enum itself is slow, and J3 asks after every action
# Asked after every action too: module names, not enum members named through their class,
# which cost a metaclass hook call each on Python 3.11 (see rules/engine.py).
_PLAYING, _DAMAGE_AT_ROUND_END = Phase.PLAYING, HouseRule.DAMAGE_AT_ROUND_END


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
        unit.fell_back = False
    state.attack_step = False
    ctx.emit(TurnEnded(state.round, side))
    if side is (state.round_first or state.first_player):
        begin_turn(ctx, state.round, side.other)
    else:
        _end_round(ctx)


def _end_round(ctx: Context) -> None:
    """After the round's second turn: M2's damage step or M5's late reserves, then on."""
    state = ctx.state
    if state.has(HouseRule.DAMAGE_AT_ROUND_END):
        if not damage_step.start(ctx):
            return  # a decision is pending; the engine calls resume_damage_step after it
    elif reserve.expires_now(state):
        reserve.expire(ctx)
    _next_round(ctx)


def resume_damage_step(ctx: Context) -> None:
    """M2: a decision asked in the damage step was made; finish the step and the round."""
    if damage_step.run(ctx):
        _next_round(ctx)


def _next_round(ctx: Context) -> None:
    """M2 (5) J3, then the score after the last round (C1), else the next round (M4)."""
    state = ctx.state
    _annihilation(ctx)
    if state.phase is Phase.ENDED:
        return
    if state.round >= state.scenario.rounds:
        finish(ctx, winner_by_score(state), "score")  # C1: after the last turn of the last round
        return
    begin_turn(ctx, state.round + 1, first_of_round(ctx, state.round + 1))


def winner_by_score(state: GameState) -> Side | None:
    """J4: more VP wins; equal VP is a draw."""
    south, north = score(state, Side.SOUTH).vp, score(state, Side.NORTH).vp
    if south == north:
        return None
    return Side.SOUTH if south > north else Side.NORTH


def check_annihilation(ctx: Context) -> None:
    """J3: a player who has destroyed all the opponent's units wins at once.

    With M2 units leave only in the damage step, whose step (5) checks J3 itself.
    """
    if not ctx.state.has(_DAMAGE_AT_ROUND_END):
        _annihilation(ctx)


def _annihilation(ctx: Context) -> None:
    state = ctx.state
    if state.phase is not _PLAYING:
        return
    # Asked after every action: one pass over the units rather than a search per side.
    standing = {unit.side for unit in state.units.values() if not unit.destroyed}
    wiped = [side for side in SIDES if side not in standing]
    if len(wiped) == 2 and state.has(HouseRule.DAMAGE_AT_ROUND_END):
        finish(ctx, winner_by_score(state), "score")  # M2 (5): both gone at once, J2/J4
    elif wiped:
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
    state.damage_stage = 0  # M2: a resignation may come while the damage step waits
    ctx.emit(GameEnded(winner, reason, score(state, Side.SOUTH), score(state, Side.NORTH)))


def _capture_sps(ctx: Context) -> None:
    """J1: a ground unit (a transport counts, a flyer doesn't) ending a turn on an SP takes it."""
    state = ctx.state
    standing = state.occupied()  # unit_at for every SP at once
    for cell, sp in state.sps.items():
        unit = standing.get(cell)
        if unit is None or unit.is_flyer or sp.holder is unit.side:
            continue
        sp.holder = unit.side
        ctx.emit(SPCaptured(cell, unit.side, unit.id))
