"""Issue 21: a turn's recap reads the log from the side's last turn end, not from the start.

The bot builds a recap at every turn start; read and folded from the game's first entry it
cost more with every turn. ``recap_log`` starts from the snapshot taken when the side's turn
ended, and the recap folds only the entries since, yet it must be the very recap the whole
log gives.
"""

from __future__ import annotations

import pickle
import random
from dataclasses import replace
from multiprocessing.reduction import ForkingPickler
from typing import Any

import pytest

from tests.conftest import Games
from vahalite_bot.app import GameService, autoplay, records, replay
from vahalite_bot.app.errors import NotFound
from vahalite_bot.app.replay import Entry
from vahalite_bot.discord.workers import register_pickling
from vahalite_bot.present.recap import ShortLog, recap_for, recap_from
from vahalite_bot.rules import codec
from vahalite_bot.rules.events import TurnStarted
from vahalite_bot.rules.scenario import Side
from vahalite_bot.rules.state import GameState


async def test_a_turns_recap_folds_only_the_entries_since_the_sides_last_turn(
    games: Games, service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    folded: list[int] = []
    fold_one = replay.apply_entry

    def counted(state: GameState | None, entry: Entry, dice: object) -> GameState | None:
        folded.append(entry.seq)
        return fold_one(state, entry, None)

    monkeypatch.setattr(replay, "apply_entry", counted)
    outcome = await games.playing(seed=3, scenario="standard")
    rng = random.Random(11)
    turn, starts, longest = outcome.turn_side, 0, 0
    while outcome.status != "ended":
        outcome = await autoplay.play(service, outcome, rng, max_commands=1)
        side = outcome.turn_side
        if side is None or side is turn:
            continue
        turn, starts = side, starts + 1
        whole = await service.game_log(outcome.game_id)
        tail = await service.recap_log(outcome.game_id, side)
        folded.clear()
        recap = recap_from(tail, side)
        tail_folds = list(folded)
        assert recap == recap_for(whole, side)
        assert recap is not None
        if tail.state is not None:
            # Read from the entry that ended the side's turn, folded from its snapshot.
            assert tail.since == recap.since_seq == tail.lines[0].seq
            assert tail_folds == [line.seq for line in tail.lines[1:] if not line.undone]
            longest = len(whole)
    assert starts >= 6
    assert longest > 3 * len(tail.lines), "the game grew longer than a turn's tail"


async def test_the_bots_loop_reads_the_recaps_log_and_its_worker_decodes_it(
    games: Games, service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 21: the bot awaits recap_log in its event loop, and a long turn's log decodes
    # for milliseconds: the loop reads the rows and sends them; the worker decodes them.
    decoded: list[Any] = []
    for module in (codec, records):  # every action, record and event decodes through these
        original = module.decode

        def spy(data: Any, _original: Any = original) -> Any:
            decoded.append(data)
            return _original(data)

        monkeypatch.setattr(module, "decode", spy)
    outcome = await games.playing(seed=3, scenario="standard")
    rng = random.Random(11)
    turn, tails = outcome.turn_side, 0
    register_pickling()  # as the pool pickles
    while outcome.status != "ended":
        outcome = await autoplay.play(service, outcome, rng, max_commands=1)
        side = outcome.turn_side
        if side is None or side is turn:
            continue
        turn = side
        decoded.clear()
        tail = await service.recap_log(outcome.game_id, side)
        sent = bytes(ForkingPickler.dumps(tail))  # as the pool sends it to work.recap
        assert decoded == [], "the loop decoded the log"
        recap = recap_from(pickle.loads(sent), side)  # the worker's side
        assert recap == recap_for(await service.game_log(outcome.game_id), side)
        if tail.state is not None and recap is not None and recap.events:
            assert decoded, "the worker decoded the log it was sent"
            tails += 1
    assert tails >= 6


async def test_a_tail_without_the_sides_turn_end_asks_for_the_whole_log(
    games: Games, service: GameService
) -> None:
    outcome = await games.playing(seed=3)
    rng = random.Random(11)
    side = outcome.turn_side
    assert side is not None
    while True:
        outcome = await autoplay.play(service, outcome, rng, max_commands=1)
        tail = await service.recap_log(outcome.game_id, side)
        if tail.state is not None:
            break
    clipped = replace(tail, since=tail.since + 1, rows=tail.rows[1:])
    with pytest.raises(ShortLog):
        recap_from(clipped, side)
    whole = await service.recap_log(outcome.game_id, side, whole=True)
    assert (whole.since, whole.state) == (0, None)
    assert whole.lines == tuple(await service.game_log(outcome.game_id))


async def test_a_side_yet_to_end_a_turn_is_recapped_from_the_snapshot_where_play_began(
    games: Games, service: GameService
) -> None:
    # Each side's first recap was the whole log: the setup decoded and replayed in full.
    outcome = await games.playing(seed=3, scenario="standard")
    whole = await service.game_log(outcome.game_id)
    began = next(line.seq for line in whole if any(isinstance(e, TurnStarted) for e in line.events))
    first = outcome.turn_side
    assert first is not None
    rng = random.Random(11)
    recapped: list[Side] = []
    while len(recapped) < 2:
        side = outcome.turn_side
        assert side is not None
        if side not in recapped:
            tail = await service.recap_log(outcome.game_id, side)
            assert (tail.play_began, tail.since) == (True, began)
            assert tail.state is not None and tail.lines[0].seq == began
            whole = await service.game_log(outcome.game_id)
            assert recap_from(tail, side) == recap_for(whole, side)
            recapped.append(side)
        outcome = await autoplay.play(service, outcome, rng, max_commands=1)
    # Once the first side's turn has ended, its tail starts there, not where play began.
    tail = await service.recap_log(outcome.game_id, first)
    assert not tail.play_began and tail.since > began
    # Without the entry that began play, the tail holds no start: the whole log is asked for.
    opening = await service.recap_log(outcome.game_id, recapped[1])
    assert opening.play_began
    clipped = replace(opening, since=opening.since + 1, rows=opening.rows[1:])
    with pytest.raises(ShortLog):
        recap_from(clipped, recapped[1])
    # Nor is a tail from a turn end read as play's start.
    with pytest.raises(ShortLog):
        recap_from(replace(opening, play_began=False), recapped[1])


async def test_no_recap_log_for_a_game_that_does_not_exist(service: GameService) -> None:
    for whole in (False, True):
        with pytest.raises(NotFound):
            await service.recap_log(987_654, Side.SOUTH, whole=whole)
