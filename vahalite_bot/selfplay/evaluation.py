"""The search player's evaluation: how good a state is for one side, in HP of damage.

It counts what the game will be decided by (J2 VP, the SPs the end of a turn will give,
HP left), each own unit's best legal attack still to make this turn (sight lines and all,
by the engine's exact dice odds) and the distance to the action. Optional terms (weights 0
by default, see ``Weights``) guess the next turns: every unit's best attack within its move
and its weapons' reach (sight lines ignored), the SPs a unit can step onto, each side's
firepower.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache

from vahalite_bot.rules import combat
from vahalite_bot.rules.geometry import Cell, distance
from vahalite_bot.rules.scenario import Side
from vahalite_bot.rules.sheets import Weapon, WeaponKind
from vahalite_bot.rules.state import GameState, Phase, UnitState
from vahalite_bot.rules.victory import score
from vahalite_bot.selfplay.chance import distribution

# Values are in HP of damage, the greedy player's unit, so the two can be compared.
WIN = 10000.0  # a won game outweighs any material
VP = 3.0  # one victory point, in HP (the greedy player's kill bonus)
SP_VP, KILL_VP, HQ_BY_HQ_VP = 2.0, 1.0, 2.0  # J2
PER_HP = 1.0  # keeping one HP of a unit
HQ_PER_HP = 0.5  # ... of an HQ, which hits hard and whose death by an HQ swings 2 VP more
# How much of a threat counts: the searching side's rest of turn, the opponent's reply, the
# searching side's turn after that. Self-play against the greedy player chose these (see
# docs/opponent.md): on this small board the side that strikes first wins most games, and
# every weight on the reply made the search shy of the fight and lose more.
NOW, NEXT, AFTER = 1.0, 0.0, 0.0
SP_CONTEST = 0.0  # an SP a unit can step onto is that much taken
APPROACH = 0.3  # per step toward the nearest objective
FIREPOWER = 0.0  # a unit's best attack, wherever it stands: killing the biggest guns first
# J3: a side that loses its last unit loses at once, whatever the score. With this few units
# left and the score not against it, the searching side counts the opponent's reply on them.
LAST_UNITS = 2
LAST_STAND = 1.0


@dataclass(frozen=True)
class Weights:
    """The evaluation's tunable weights (one object so tests and tuning can vary them)."""

    per_hp: float = PER_HP
    vp: float = VP
    now: float = NOW
    next: float = NEXT
    after: float = AFTER
    sp_contest: float = SP_CONTEST
    approach: float = APPROACH
    firepower: float = FIREPOWER
    last_stand: float = LAST_STAND


_ThreatKey = tuple[object, ...]


class Evaluator:
    def __init__(self, weights: Weights | None = None) -> None:
        self.weights = weights or Weights()
        # (attacker, target, weapons that reach, ...) -> the attack's value; the sheets are
        # in the key by id and kept alive by the value, so an id is never reused.
        self._cache: dict[_ThreatKey, tuple[float, object, object]] = {}

    def value(self, state: GameState, me: Side, *, turn_over: bool = False) -> float:
        """The state for ``me``, the side searching, seen from the end of its turn: what it
        may still do this turn, what the opponent threatens in its reply, what ``me``
        threatens after that. ``turn_over``: the searched turn has ended, though ``me`` may
        be on turn again (M4's initiative): its fresh turn's attacks are not counted, as
        they are not when the opponent's turn follows, or ending the turn would be worth
        a lucky initiative roll."""
        if state.phase is Phase.ENDED:
            return 0.0 if state.winner is None else (WIN if state.winner is me else -WIN)
        w = self.weights
        total = self._held(state, me) - self._held(state, me.other)
        total -= w.approach * (_approach(state, me) - _approach(state, me.other))
        if state.phase is not Phase.PLAYING or state.active is None:
            return total
        left = _turns_left(state)
        if w.firepower:
            # Each side's remaining punch, wherever its units stand: the turns left to use it.
            share = min(1.0, left / 4)
            total += (
                w.firepower
                * share
                * (self._firepower(state, me) - self._firepower(state, me.other))
            )
        mine_now = state.active is me and not turn_over
        if mine_now and w.now:
            total += w.now * self._threat(state, me, on_turn=True)
        reply = w.next + (w.last_stand if w.last_stand and _last_stand(state, me) else 0.0)
        if left >= (2 if mine_now else 1) and reply:
            total -= reply * self._threat(state, me.other, on_turn=not mine_now)
        if left >= (3 if mine_now else 2) and w.after:
            total += w.after * self._threat(state, me, on_turn=False)
        return total

    def _firepower(self, state: GameState, side: Side) -> float:
        """The sum of every unit's best attack on any enemy, as if all were in reach."""
        enemies = [u for u in state.living(side.other) if u.cell is not None and not u.falling]
        total = 0.0
        for unit in state.living(side):
            if unit.falling:
                continue
            total += max((self.attack(state, unit, t, 0, 0) for t in enemies), default=0.0)
        return total

    def _held(self, state: GameState, side: Side) -> float:
        """VP (with the SPs the turn under way will give) and the worth of the units left."""
        return self.weights.vp * _projected_vp(state, side) + sum(
            self.worth(u) for u in state.living(side)
        )

    def worth(self, unit: UnitState) -> float:
        """What keeping ``unit`` alive is worth now, by its HP left."""
        return unit.hp * (self.weights.per_hp + (HQ_PER_HP if unit.is_hq else 0.0))

    # -- threats -----------------------------------------------------------------------
    def _threat(self, state: GameState, side: Side, *, on_turn: bool) -> float:
        """The value of ``side``'s best attacks and SP steps: in the rest of the turn under
        way (``on_turn``), else in a fresh turn."""
        enemies = [
            (u, u.cell) for u in state.living(side.other) if u.cell is not None and not u.falling
        ]
        total = 0.0
        reach_sps: set[Cell] = set()
        for unit, reach in _actors(state, side, on_turn):
            here = state.position(unit)
            assert here is not None
            if reach == 0 and state.active is side:
                total += self.best_attack(state, unit)  # where it stands: sight lines count
                continue
            best = 0.0
            for target, there in enemies:
                value = self.attack(state, unit, target, distance(here, there), reach)
                if value > best:
                    best = value
            total += best
            if not unit.is_flyer and unit.embarked_in is None and state.sps:
                reach_sps.update(c for c in state.sps if distance(here, c) <= reach)
        if reach_sps:
            total += self._sp_steps(state, side, reach_sps)
        return total

    def spot(self, state: GameState, unit: UnitState, here: Cell) -> float:
        """A quick look at ``unit`` standing on ``here`` for the rest of the turn: what it
        can attack from there, what can reach it there (with ``Weights.next``), the SP under
        it, how far it is from the action. It ranks a unit's destinations for the search."""
        w = self.weights
        enemies = [u for u in state.living(unit.side.other) if u.cell is not None]
        value = 0.0
        if not (unit.attacked or unit.fell_back or unit.disembarked):
            value = w.now * self.best_attack(state, unit)
        for enemy in enemies if w.next else ():
            assert enemy.cell is not None
            hit = self.attack(
                state, enemy, unit, distance(enemy.cell, here), enemy.sheet.maneuverability
            )
            value -= w.next * hit / 2  # an enemy has other targets too
        sp = state.sps.get(here)
        if sp is not None and sp.holder is not unit.side and not unit.is_flyer:
            value += w.vp * SP_VP * (2 if sp.holder is not None else 1)
        cells = [t.cell for t in enemies if t.cell is not None]
        if not unit.is_flyer:
            cells += [c for c, s in state.sps.items() if s.holder is not unit.side]
        return value - w.approach * min((distance(here, c) for c in cells), default=0)

    def best_attack(self, state: GameState, unit: UnitState) -> float:
        """The value of ``unit``'s best legal attack now (E1-E13, sight lines included)."""
        best = 0.0
        for option in combat.attack_options(state, unit):
            target = state.units[option.target]
            if not target.falling:
                best = max(best, self._attack_value(state, unit, target, option.weapons))
        return best

    def _sp_steps(self, state: GameState, side: Side, cells: set[Cell]) -> float:
        total = 0.0
        occupied = state.occupied()
        for cell in cells:
            holder = state.sps[cell].holder
            if holder is side:
                continue
            blocker = occupied.get(cell)
            if blocker is None or blocker.side is side:
                swing = SP_VP * (2 if holder is not None else 1)
                total += self.weights.sp_contest * self.weights.vp * swing
        return total

    def attack(
        self, state: GameState, unit: UnitState, target: UnitState, span: int, reach: int
    ) -> float:
        """The best attack of ``unit`` on ``target`` ``span`` steps away after a move of up
        to ``reach`` steps (sight lines aside)."""
        profile = _profile(unit.weapons)
        gap = span - reach if span > reach else 0
        bonus = 0 if unit.is_flyer else 1  # E3: a Height may be in reach
        if gap > profile.longest + bonus:
            return 0.0
        best = 0.0
        melee = tuple(i for i, r in profile.melee if gap <= r)
        if melee:
            best = self._attack_value(state, unit, target, melee)
        ranged = tuple(
            i
            for i, r, artillery in profile.ranged
            if gap <= r + bonus and not (artillery and reach)
        )
        if ranged:
            best = max(best, self._attack_value(state, unit, target, ranged))
        return best

    def _attack_value(
        self, state: GameState, unit: UnitState, target: UnitState, weapons: tuple[int, ...]
    ) -> float:
        """Expected HP worth removed plus the kill's VP times its chance, by exact odds."""
        key = (
            id(unit.weapons),
            unit.attack_models,
            unit.order,
            id(target.sheet),
            target.hp,
            # The piece, not its kind: a Fortification's improvements raise its cover (E8).
            state.terrain.get(target.cell) if target.cell is not None else None,
            weapons,
            unit.is_hq,
            state.house,
        )
        cached = self._cache.get(key)
        if cached is not None:
            return cached[0]
        odds = tuple(combat.dice_odds(state, unit, target, weapons))
        dist = distribution(odds, target.hp)
        expected = sum(k * p for k, p in enumerate(dist))
        kill = KILL_VP + (HQ_BY_HQ_VP if unit.is_hq and target.is_hq else 0.0)
        value = (
            self.worth(target) * expected / max(1, target.hp) + dist[-1] * kill * self.weights.vp
        )
        self._cache[key] = (value, unit.weapons, target.sheet)
        return value


@dataclass(frozen=True)
class _Profile:
    """A weapon list by kind: (index, range) for melee, (index, range, artillery) else."""

    melee: tuple[tuple[int, int], ...]
    ranged: tuple[tuple[int, int, bool], ...]
    longest: int


@cache
def _profile(weapons: tuple[Weapon, ...]) -> _Profile:
    melee = tuple((i, w.max_range) for i, w in enumerate(weapons) if w.kind is WeaponKind.MELEE)
    ranged = tuple(
        (i, w.max_range, w.kind is WeaponKind.ARTILLERY)
        for i, w in enumerate(weapons)
        if w.kind is not WeaponKind.MELEE
    )
    return _Profile(melee, ranged, max((w.max_range for w in weapons), default=0))


def _actors(state: GameState, side: Side, on_turn: bool) -> Iterator[tuple[UnitState, int]]:
    """The units of ``side`` that may still attack, with how far they may first move.

    On its own turn a unit counts what it can attack from where it stands, moved or not:
    a guess of what a move might add would make every real move look like a loss next to
    it, and the search itself tries the moves."""
    for unit in state.living(side):
        if unit.falling or unit.in_reserve or state.position(unit) is None:
            continue
        if on_turn and state.active is side:
            if unit.attacked or unit.fell_back or unit.disembarked:
                continue
            yield unit, 0
        else:
            yield unit, unit.sheet.maneuverability


def _turns_left(state: GameState) -> int:
    """Turns still to play, the one under way included."""
    first = state.round_first or state.first_player
    return 2 * (state.scenario.rounds - state.round) + (2 if state.active is first else 1)


def _holders(state: GameState) -> dict[Cell, Side | None]:
    return {cell: sp.holder for cell, sp in state.sps.items()}


def _projected_sps(state: GameState, side: Side) -> int:
    """SPs ``side`` holds once the turn under way ends (J1: the side on turn takes the SPs
    its ground units stand on)."""
    count = 0
    active = state.active if state.phase is Phase.PLAYING else None
    for cell, sp in state.sps.items():
        holder = sp.holder
        if active is not None:
            unit = state.unit_at(cell)
            if unit is not None and unit.side is active and not unit.is_flyer:
                holder = active
        count += holder is side
    return count


def _approach(state: GameState, side: Side) -> int:
    """Steps from each unit of ``side`` to its nearest objective: an enemy, an SP not held."""
    targets = [u.cell for u in state.living(side.other) if u.cell is not None]
    sps = [c for c, sp in state.sps.items() if sp.holder is not side]
    total = 0
    for unit in state.living(side):
        here = state.position(unit)
        if here is None:
            continue
        cells = targets if unit.is_flyer else targets + sps
        total += min((distance(here, c) for c in cells), default=0)
    return total


def _last_stand(state: GameState, side: Side) -> bool:
    """``side`` is down to its last few units and the score (the SPs as the turn under way
    leaves them) is not against it: losing them would turn a win or a draw into a loss."""
    if sum(1 for u in state.living(side) if not u.falling) > LAST_UNITS:
        return False
    return _projected_vp(state, side) >= _projected_vp(state, side.other)


def _projected_vp(state: GameState, side: Side) -> float:
    """J2's VP of ``side`` with the SPs the turn under way will give."""
    points = score(state, side)
    # M2: a unit at 0 HP leaves only in the round's damage step, but it is as good as
    # destroyed for whoever brought it down.
    falling = sum(1 for u in state.living(side.other) if u.falling)
    total = SP_VP * _projected_sps(state, side) + KILL_VP * (points.kills + falling)
    return total + HQ_BY_HQ_VP * points.hq_kills
