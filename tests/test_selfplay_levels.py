"""The three levels of the automatic player: easy, normal (greedy) and the search player."""

from __future__ import annotations

import gc
import random
import re
import time
from itertools import product

import pytest

from vahalite_bot.codex.loader import codex_factions
from vahalite_bot.rules import combat
from vahalite_bot.rules.actions import Action, Attack, EndTurn
from vahalite_bot.rules.dice import FairDice
from vahalite_bot.rules.engine import acting_side, apply
from vahalite_bot.rules.events import AttackResolved, Event
from vahalite_bot.rules.house import HouseRule
from vahalite_bot.rules.queries import is_legal
from vahalite_bot.rules.scenario import Side
from vahalite_bot.rules.state import GameState, Phase
from vahalite_bot.scenarios import shipped
from vahalite_bot.selfplay import chance, cli
from vahalite_bot.selfplay.easy import EasyPlayer
from vahalite_bot.selfplay.evaluation import Evaluator
from vahalite_bot.selfplay.game import GameRecord, game_seed, play_game
from vahalite_bot.selfplay.greedy import GreedyPlayer
from vahalite_bot.selfplay.hard import MARGIN, HardPlayer, Search
from vahalite_bot.selfplay.levels import level_of, make_player
from vahalite_bot.selfplay.pace import Pace
from vahalite_bot.selfplay.players import Player
from vahalite_bot.selfplay.stats import wilson

S, N = Side.SOUTH, Side.NORTH
FACTIONS = codex_factions()
PAIRS = list(product(sorted(FACTIONS), repeat=2))


def duel(first: Player, second: Player, seed: int, deal: int, **kwargs: object) -> GameRecord:
    """One deal of the eight factions in turn: ``first`` plays South, ``second`` North."""
    south, north = PAIRS[deal % len(PAIRS)]
    return play_game(
        {S: first, N: second},
        game_seed(seed, deal),
        deal,
        factions=FACTIONS,
        matchup={S: south, N: north},
        **kwargs,  # type: ignore[arg-type]
    )


def test_levels_have_their_players_and_greedy_is_normal() -> None:
    assert level_of("greedy") == "normal"
    assert isinstance(make_player("normal"), GreedyPlayer)
    assert isinstance(make_player("greedy"), GreedyPlayer)
    assert isinstance(make_player("easy"), EasyPlayer)
    hard = make_player("hard", 250)
    assert isinstance(hard, HardPlayer) and hard.budget_ms == 250
    with pytest.raises(ValueError, match="clever"):
        make_player("clever")


def test_an_attack_s_outcomes_are_the_engine_s_exact_distribution() -> None:
    """Every damage the distribution allows (but the negligible), weighted by it, each made
    by the engine itself."""
    record = duel(GreedyPlayer(), GreedyPlayer(), 3, 5)
    state = record.initial
    checked = 0
    for action in record.actions:
        if isinstance(action, Attack) and checked < 5:
            target = state.units[action.target]
            exact = combat.damage_distribution(
                state, state.units[action.unit], target, action.weapons or ()
            )
            outcomes = chance.outcomes(state, action, seed=1)
            kept = {d: float(p) for d, p in enumerate(exact) if p >= chance.NEGLIGIBLE}
            # The attack's own damage (a morale test after it may take more HP).
            dealt = {resolved(o.events).damage: o.probability for o in outcomes}
            assert dealt.keys() == kept.keys()
            for damage, p in dealt.items():
                assert p == pytest.approx(kept[damage] / sum(kept.values()))
            checked += 1
        state, _ = apply(state, action, FairDice(record.seed))  # the game's own dice
    assert checked == 5


def resolved(events: tuple[Event, ...]) -> AttackResolved:
    return next(e for e in events if isinstance(e, AttackResolved))


def test_ending_the_turn_is_not_worth_the_next_turn_m4_may_give_the_same_side() -> None:
    """With M4 the side that ends a round may win the next one's first turn too. The search
    judges the end of its turn the same whoever takes the next: counting the fresh turn's
    attacks made ending the turn look better than attacking whenever the sampled
    initiative roll was won."""
    record = duel(GreedyPlayer(), GreedyPlayer(), 5, 2, house=frozenset(HouseRule))
    state, checked = record.initial, 0
    evaluator = Evaluator()
    for action in record.actions:
        me = state.active
        if isinstance(action, EndTurn) and me is not None:
            for seed in range(8):  # the initiative rolls the search would draw
                after = chance.outcomes(state, action, seed)[0].state
                if after.phase is Phase.PLAYING and (after.round, after.active) == (
                    state.round + 1,
                    me,
                ):
                    search = Search(me, seed, evaluator, lambda: False, (state.round, me))
                    judged = search.action_value(state, action, 3)
                    assert judged == evaluator.value(after, me, turn_over=True)
                    checked += judged < evaluator.value(after, me)  # its attacks not counted
        state, _ = apply(state, action, FairDice(record.seed))
    assert checked > 0


def test_hard_is_deterministic_for_a_seed_and_a_node_limit() -> None:
    def game() -> tuple[Action, ...]:
        return duel(HardPlayer(node_limit=60), GreedyPlayer(), 8, 3).actions

    assert game() == game()


def test_hard_plays_only_legal_actions_on_every_scenario_with_every_house_rule() -> None:
    """Each choice is checked before the engine applies it (which would also refuse it)."""
    checked: list[Action] = []

    class Checked(HardPlayer):
        def choose(self, state: GameState, rng: random.Random) -> Action:
            action = super().choose(state, rng)
            assert is_legal(state, action), action
            checked.append(action)
            return action

    for deal, scenario in enumerate(("standard", "river-crossing", "fortress", "big-battle")):
        record = duel(
            Checked(node_limit=40),
            GreedyPlayer(),
            11,
            deal * 9,
            scenario=shipped(scenario),
            house=frozenset(HouseRule),
        )
        assert record.finished
    assert len(checked) > 100


def test_hard_honours_its_budget_within_ten_percent() -> None:
    """Measured on this process's CPU time, which other programs on the machine do not eat
    into, over every decision: the setup's play-outs as well as the search. A first game
    fills the exact-odds caches (a long-lived bot worker has them warm; a cold one may take
    longer on its first decisions), the second is timed."""
    budget = 40.0
    spent: list[float] = []

    class Timed(HardPlayer):
        def choose(self, state: GameState, rng: random.Random) -> Action:
            started = time.process_time()
            action = super().choose(state, rng)
            if acting_side(state) is not None:  # the setup's simulations too
                spent.append(1000 * (time.process_time() - started))
            return action

    player = Timed(budget, clock=time.process_time)
    duel(player, GreedyPlayer(), 4, 12)
    spent.clear()
    duel(GreedyPlayer(), player, 4, 20)
    assert len(spent) > 10
    assert max(spent) <= 1.1 * budget, sorted(spent)[-5:]
    assert sum(s > budget / 2 for s in spent) > len(spent) / 4, "it uses the time it has"


def test_no_garbage_collection_runs_inside_a_decision_of_any_phase() -> None:
    """A full collection took up to 80 ms in a self-play process: inside a 50 ms budget it
    broke the issue's 10 %. The second mover's terrain and deployment are decided by
    play-outs that evaluate boards too."""
    seen: dict[Phase, set[bool]] = {}  # the decision's phase: gc on while evaluating?
    deciding: list[Phase] = []

    class Watching(Evaluator):
        def value(self, state: GameState, me: Side, *, turn_over: bool = False) -> float:
            seen.setdefault(deciding[-1], set()).add(gc.isenabled())
            return super().value(state, me, turn_over=turn_over)

    class Watched(HardPlayer):
        def choose(self, state: GameState, rng: random.Random) -> Action:
            deciding.append(state.phase)
            return super().choose(state, rng)

    player = Watched(node_limit=40)
    player.evaluator = Watching()
    assert gc.isenabled()
    duel(player, GreedyPlayer(), 4, 20)  # hard is South and moves second
    assert gc.isenabled(), "collection is back on between decisions"
    assert set(seen) >= {Phase.PLAYING, Phase.TERRAIN, Phase.DEPLOYMENT}
    assert all(flags == {False} for flags in seen.values()), seen


def test_a_decision_ends_without_leaving_the_collector_a_pass_to_make() -> None:
    """The collector counts the objects made while it is off: switched back on with the
    count past its threshold, it collected on the decision's way out and cascaded into a
    full pass (15-60 ms past a 50 ms budget, a few decisions in a thousand). Here the
    decision makes far more than the young generation's threshold and the older
    generations are due: the only pass inside it, or at the caller's next objects, may be
    the young generation's, which never cascades."""
    state = duel(GreedyPlayer(), GreedyPlayer(), 4, 3, max_actions=40).final
    assert state.phase is Phase.PLAYING and acting_side(state) is not None
    HardPlayer(node_limit=200).choose(state, random.Random(7))  # the caches it fills
    player, rng = HardPlayer(node_limit=200), random.Random(7)
    passes: list[int] = []

    def watch(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            passes.append(info["generation"])

    thresholds = gc.get_threshold()
    gc.collect()
    gc.set_threshold(10, 1, 1)  # each pass past the young one cascades to the next
    try:
        gc.collect(0), gc.collect(0)  # the young generation at 0, the middle one due
        gc.callbacks.append(watch)
        try:
            player.choose(state, rng)
            caller = [[]]  # what the caller makes next: no pass is due for it either
        finally:
            gc.callbacks.remove(watch)
    finally:
        gc.set_threshold(*thresholds)
    assert passes == [0], passes
    assert caller == [[]]


def test_the_search_stops_when_the_longest_step_yet_would_not_fit() -> None:
    times = iter([0.0, 1.0, 2.0, 8.0, 10.0])  # steps of 1, 1, 6, 2 ms
    pace = Pace(lambda: (15 - next(times)) / 1000)
    assert [pace.fits() for _ in range(5)] == [True, True, True, True, False]


def test_the_score_line_gives_a_95_percent_interval(capsys: pytest.CaptureFixture[str]) -> None:
    low, high = wilson(70, 100)
    assert 0.60 < low < 0.61 and 0.78 < high < 0.79  # the textbook Wilson interval
    code = cli.main(["--games", "2", "--players", "easy,normal", "--codex", "--seed", "2"])
    lines = capsys.readouterr().out.splitlines()
    assert code == 0
    assert lines[0] == "players: south=easy north=normal (seats swapped every game)"
    assert any(line.startswith("wins by player: easy=") for line in lines)
    assert any(line.startswith("score of easy: ") and "95% interval" in line for line in lines)


def test_hard_holds_its_own_against_normal_on_a_fixed_sample() -> None:
    """Eight deals of the codex lists, each played from both seats (the first turn decides
    most games, so only both seats compare the players); a node limit instead of a clock
    makes every game the same on any machine. The hard player beats the normal one by less
    than the issue asks (docs/opponent.md): this guards against a search or a setup that
    plays worse than the greedy choices they start from (it scored 9 of 16 here, 7 before
    its own setup when it moves second; a broken search scores far less)."""
    score = 0.0
    for index in range(16):
        deal, swap = divmod(index, 2)
        hard, normal = HardPlayer(node_limit=150), GreedyPlayer()
        players = (normal, hard) if swap else (hard, normal)
        record = duel(*players, 31, deal * 8 + 3)
        hard_side = N if swap else S
        winner = record.final.winner
        score += 1.0 if winner is hard_side else 0.5 if winner is None else 0.0
    assert score >= 7, score


def test_the_terminal_takes_a_level_and_the_thinking_time_from_the_config() -> None:
    import bot

    args = bot.parse_args(["--vs", "hard"])
    chosen = bot.settings({"game": {"bot_think_ms": 250}}, {}, args)
    assert args.vs == "hard" and chosen.think_ms == 250
    assert bot.discord_options(chosen, args).think_ms == 250
    assert bot.settings({}, {}, bot.parse_args(["--vs", "greedy"])).think_ms == 1000
    with pytest.raises(SystemExit):
        bot.parse_args(["--vs", "clever"])


def test_a_run_splits_the_score_by_seat_and_reports_the_search(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """One deal from both seats: the same dice give the first turn to the same side, so the
    hard player takes it in one game of the two; its searches are counted and timed."""
    argv = ["--games", "2", "--players", "hard,normal", "--codex", "--seed", "2"]
    assert cli.main([*argv, "--budget-ms", "20", "--budget-clock", "cpu"]) == 0
    lines = capsys.readouterr().out.splitlines()
    seat = next(line for line in lines if line.startswith("score of hard by seat: "))
    assert "moving first" in seat and " of 1 (" in seat.split(", ")[0]
    assert " of 1 (" in seat.split(", ")[1]
    searched = next(line for line in lines if line.startswith("hard decisions: "))
    found = re.search(r"(\d+) searches: mean depth ([\d.]+) plies", searched)
    assert found is not None, searched
    assert int(found[1]) > 10 and float(found[2]) >= 1.0
    assert re.search(r"over 22 ms: \d+$", searched), searched


def test_a_one_ply_look_does_not_overrule_the_greedy_choice() -> None:
    """On big-battle (8 x 8) the budget often lets the search finish only its first ply,
    which is the evaluation's guess against the greedy player's: such overrulings lost games
    there (docs/opponent.md). Past the first ply, or with the turn's tree ended at it, the
    search may overrule. The node limit stops these searches after the first ply."""
    record = duel(GreedyPlayer(), GreedyPlayer(), 22, 3, scenario=shipped("big-battle"))
    state = record.initial
    shallow = overruling = 0
    for action in record.actions:
        side = acting_side(state)
        if state.phase is Phase.PLAYING and not state.pending and side is not None:
            player = HardPlayer(node_limit=60)
            ranked = player.rank(state, side, seed=7)
            first_ply = {c.action: c.value for c in ranked if c.depth == 1}
            greedy = player.greedy.choose(state, random.Random(0))
            if player.last_depth == 1 and any(not u.attacked for u in state.living(side)):
                shallow += 1
                assert ranked[0].action == greedy, state.round
                best = max(first_ply.values())
                overruling += greedy in first_ply and best - first_ply[greedy] >= MARGIN
        state, _ = apply(state, action, FairDice(record.seed))
    assert shallow > 10 and overruling > 0, (shallow, overruling)
