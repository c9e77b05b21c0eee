"""The search player's evaluation: what it remembers of an attack's odds must not outlive
what the odds depend on."""

from __future__ import annotations

from vahalite_bot.codex.loader import codex_factions
from vahalite_bot.rules.geometry import Cell, distance
from vahalite_bot.rules.scenario import Side
from vahalite_bot.rules.sheets import COVER_PROTECTS, WeaponKind
from vahalite_bot.rules.state import Phase
from vahalite_bot.scenarios import shipped
from vahalite_bot.selfplay.evaluation import Evaluator
from vahalite_bot.selfplay.game import game_seed, play_game
from vahalite_bot.selfplay.greedy import GreedyPlayer

S, N = Side.SOUTH, Side.NORTH
PLAIN, IMPROVED = Cell.parse("B3"), Cell.parse("C2")  # fortress: cover 3+ and 4+ (L)
SPAN = 2  # steps from the shooter: out of melee's reach


def test_a_fortifications_improvement_changes_the_value_of_an_attack_on_it() -> None:
    """Fortress's C2 (one improvement, cover 4+) and B3 (plain, 3+) are both Fortifications:
    an attack on infantry in C2 is worth less than on B3, whichever was asked first."""
    scenario = shipped("fortress")
    assert scenario.preplaced[IMPROVED].cover_value > scenario.preplaced[PLAIN].cover_value
    record = play_game(
        {S: GreedyPlayer(), N: GreedyPlayer()},
        game_seed(3, 0),
        factions=codex_factions(),
        scenario=scenario,
        matchup={S: "space_marines", N: "space_marines"},
        max_actions=60,
    )
    state = record.final.copy()
    assert state.phase is Phase.PLAYING
    target = next(u for u in state.living(S) if u.type in COVER_PROTECTS and u.embarked_in is None)
    shooter = next(
        u
        for u in state.living(N)
        if u.cell is not None
        and any(w.kind is WeaponKind.SHOOTING and w.max_range >= SPAN for w in u.weapons)
        and not any(w.kind is WeaponKind.MELEE and w.max_range >= SPAN for w in u.weapons)
    )
    values: dict[Cell, list[float]] = {}
    shared = Evaluator()
    for cell in (PLAIN, IMPROVED, PLAIN):
        for other in state.living(S):
            if other.cell == cell and other is not target:
                other.cell = None  # out of the way: only the target stands there
        target.cell = cell
        # The odds do not depend on the distance; SPAN keeps to the shooting weapons.
        values.setdefault(cell, []).append(shared.attack(state, shooter, target, SPAN, 0))
        values[cell].append(Evaluator().attack(state, shooter, target, SPAN, 0))
    assert values[IMPROVED][0] == values[IMPROVED][1]  # the shared cache and a fresh one
    assert values[PLAIN][2] == values[PLAIN][3]
    assert 0 < values[IMPROVED][0] < values[PLAIN][0]


def test_with_its_last_unit_and_the_lead_it_keeps_out_of_the_enemys_reach() -> None:
    """J3: a side whose last unit falls loses at once, so with one unit left and more VP
    the searching side counts the enemy's reply on it: out of the enemy's reach is worth
    more than one step from it, though the step is nearer the action."""
    record = play_game(
        {S: GreedyPlayer(), N: GreedyPlayer()},
        game_seed(3, 1),
        factions=codex_factions(),
        matchup={S: "space_marines", N: "orks"},
        max_actions=45,
    )
    state = record.final.copy()
    assert state.phase is Phase.PLAYING and state.round == 1
    evaluator = Evaluator()
    last = next(
        u
        for u in state.living(S)
        if not u.is_flyer and not u.sheet.is_transport and u.embarked_in is None
    )
    foe = min(
        (u for u in state.living(N) if u.cell is not None),
        key=lambda u: u.sheet.maneuverability + max(w.max_range for w in u.weapons),
    )
    for unit in [*state.living(S), *state.living(N)]:
        if unit is not last and unit is not foe:
            unit.destroyed, unit.cell, unit.embarked_in = True, None, None
    for sp in state.sps.values():
        sp.holder = S  # the lead: every SP
    near, far = Cell.parse("C3"), Cell.parse("F1")
    foe.cell, state.active = Cell.parse("C4"), S
    for cell in (near, far, foe.cell):
        state.terrain.pop(cell, None)
    reach = foe.sheet.maneuverability
    assert evaluator.attack(state, foe, last, distance(foe.cell, far), reach) == 0
    values: dict[Cell, float] = {}
    for cell in (near, far):
        last.cell = cell
        assert evaluator.attack(state, foe, last, distance(foe.cell, cell), reach) > 0 or (
            cell == far
        )
        values[cell] = evaluator.value(state, S, turn_over=True)
    assert values[far] > values[near]
