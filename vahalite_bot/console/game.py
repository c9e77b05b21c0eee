"""The console game: the same GameService and order language as Discord, from a terminal.

One game lives in the console's channel of the database; starting again resumes it (``--new``
closes it first). Each side is a person at the keyboard (hot-seat: the prompt names the side
whose orders come next) or the built-in automatic player, which acts through the service
like anyone else. After every change the terminal shows what happened with all the dice, the
board as text, and the path of the board image written.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from vahalite_bot.app import (
    GameService,
    NotAllowed,
    NotFound,
    Outcome,
    ServiceError,
)
from vahalite_bot.app.results import LOBBY
from vahalite_bot.codex.loader import Faction
from vahalite_bot.console.house import ask_house_rules, ask_scenario
from vahalite_bot.console.keys import KEYS
from vahalite_bot.console.lobby import Lobby
from vahalite_bot.console.options import ConsoleOptions, auto_rng, in_language
from vahalite_bot.console.pictures import board_file, boards_dir, database_tag, write_board
from vahalite_bot.console.seats import CHANNEL, OWNER, Seats, make_player
from vahalite_bot.console.terminal import Terminal
from vahalite_bot.console.words import Quit, is_quit
from vahalite_bot.i18n import LANGUAGES, translate
from vahalite_bot.orders import (
    ArmyRequest,
    BoardRequest,
    Examples,
    HelpRequest,
    HintRequest,
    LogRequest,
    OddsRequest,
    OrderError,
    Request,
    RuleRequest,
    StatusRequest,
    Step,
    UndoRequest,
    VerifyRequest,
    declines_advance,
    describe_refusal,
    examples_for,
    help_text,
    report_line,
    resolve,
    run_orders_async,
)
from vahalite_bot.orders.lexicon import YES_WORDS, fold
from vahalite_bot.present.advice import hint_text as advice_text
from vahalite_bot.present.board import board_text
from vahalite_bot.present.hints import hint_text
from vahalite_bot.present.moments import state_at_turn_end
from vahalite_bot.present.narrate import Narrator, is_moot
from vahalite_bot.present.recap import recap_for, recap_text
from vahalite_bot.present.rules import rule_reply
from vahalite_bot.present.summary import game_summary, scenario_name
from vahalite_bot.present.text import say
from vahalite_bot.present.views import army_text, odds_text, status_text
from vahalite_bot.render import render_turn
from vahalite_bot.rules.actions import Advance, Resign
from vahalite_bot.rules.dice import draw_word
from vahalite_bot.rules.engine import acting_side
from vahalite_bot.rules.errors import IllegalAction
from vahalite_bot.rules.events import AdvanceOffered, GameEnded, PlacementRequired, TurnEnded
from vahalite_bot.rules.scenario import Side
from vahalite_bot.rules.state import GameState, Phase
from vahalite_bot.selfplay.levels import level_of
from vahalite_bot.selfplay.players import Player
from vahalite_bot.verify import check_text
from vahalite_bot.verify.export import export_to
from vahalite_bot.verify.text import report_lines

REFUSALS: tuple[type[Exception], ...] = (OrderError, IllegalAction, ServiceError)
LOG_LINES = 10  # entries shown by a bare "log"


class ConsoleGame:
    def __init__(
        self,
        service: GameService,
        terminal: Terminal,
        options: ConsoleOptions,
        factions: Mapping[str, Faction],
    ) -> None:
        self.service = service
        self.terminal = terminal
        self.options = options
        self.factions = factions
        self.lang = options.lang
        self.paint = terminal.paint
        self.narrator = Narrator(self.lang, self.paint)
        self.seats = Seats.new(options.vs)
        self.players: dict[Side, Player] = {}
        self.folder = options.boards or boards_dir(options.database_url)
        self.board_tag = database_tag(options.database_url)
        self.game_id = 0
        self.version = 0
        self.state: GameState | None = None
        self._hinted: Any = None  # what the last hint was about, so it is not repeated
        self._turns_seen: set[Side] = set()
        self._legend_shown = False
        self._result: list[str] = []  # the game's result, told after the last board
        self._changed: tuple[Outcome, GameState | None] | None = None  # a board to show
        self._last_board: GameState | None = None
        self._last_side: Side | None = None  # whose orders were asked for last (hot-seat)
        # The log entry each side's last recap started from: each recap is shown once.
        self._recapped: dict[Side, int] = {}

    # == the whole session ======================================================================
    async def run(self) -> int:
        try:
            game_id = await self._unfinished()
            if game_id is not None and self.options.new:
                await self._abandon(game_id)
                game_id = None
            if game_id is None:
                await self._create()
            else:
                await self._resume(game_id)
            await self._lobby()
            await self._play()
        except (Quit, KeyboardInterrupt):
            self.say()
            if self.game_id:
                self.say(say(self.lang, "saved", game=self.game_id))
        return 0

    def say(self, text: str = "") -> None:
        self.terminal.say(text)

    def ask(self, prompt: str) -> str:
        line = self.terminal.ask(prompt)
        if line is None or is_quit(line):
            raise Quit
        return line

    # == starting, resuming, the lobby ==========================================================
    async def _unfinished(self) -> int | None:
        try:
            return await self.service.game_in_channel(CHANNEL)
        except NotFound:
            return None

    async def _abandon(self, game_id: int) -> None:
        await self.service.ref_decide(game_id, OWNER, None, key=KEYS.next())
        self.say(say(self.lang, "abandoned", game=game_id))

    async def _create(self) -> None:
        lang = self.lang
        self.say(self.paint(say(lang, "welcome"), "title"))
        self.say(self._lang_hint())
        if self.seats.vs is None:
            self.say(say(lang, "mode-hotseat"))
        else:
            self.say(say(lang, "mode-vs", player=_player_name(lang, self.seats.vs)))
        self.say(say(lang, "quit-hint"))
        scenarios = self.service.scenarios
        scenario = ask_scenario(self.terminal, lang, scenarios)
        house = ask_house_rules(self.terminal, lang)
        limit = self._lobby_view().ask_points(scenarios[scenario].points_limits)
        # K2: each side's word for the dice, drawn by the bot (docs/dice.md); a fixed
        # --seed keeps its dice as they were, for the tests that replay a game from it.
        words = {side: None if self.options.seed is not None else draw_word() for side in Side}
        created = await self.service.create_game(
            self.seats.actor(Side.SOUTH),
            CHANNEL,
            scenario=scenario,
            house_rules=house,
            points_limit=limit,
            language=lang,
            deadline_hours=self.options.deadline_hours,
            entropy=words[Side.SOUTH],
            key=KEYS.next(),
        )
        self.game_id = created.game_id
        await self.service.join(
            self.game_id, self.seats.actor(Side.NORTH), entropy=words[Side.NORTH], key=KEYS.next()
        )
        self.say(
            say(lang, "created", game=self.game_id, points=limit, commitment=created.commitment)
        )
        self.say(game_summary(lang, scenario_name(scenarios, scenario, lang), house))
        if words[Side.SOUTH] is not None:
            self.say(say(lang, "words", south=words[Side.SOUTH], north=words[Side.NORTH]))

    async def _resume(self, game_id: int) -> None:
        self.game_id = game_id
        status = await self.service.status(game_id)
        self.seats = Seats.of_users({p.side: p.user for p in status.players})
        lang = self.lang
        self.say(self.paint(say(lang, "resumed", game=game_id), "title"))
        name = scenario_name(self.service.scenarios, status.scenario, lang)
        self.say(game_summary(lang, name, status.house))
        self.say(self._lang_hint())
        if self.seats.vs != self.options.vs:
            player = _player_name(lang, self.seats.vs)
            self.say(say(lang, "resumed-mode", player=player))
        self.say(say(lang, "quit-hint"))
        if Side.NORTH not in {p.side for p in status.players}:
            await self.service.join(game_id, self.seats.actor(Side.NORTH), key=KEYS.next())

    def _lang_hint(self) -> str:
        other = next(lang for lang in LANGUAGES if lang != self.lang)
        return say(self.lang, "lang-hint", command=in_language(self.options.started_as, other))

    def _lobby_view(self) -> Lobby:
        return Lobby(self.service, self.terminal, self.lang, self.factions, self.seats)

    async def _lobby(self) -> None:
        status = await self.service.status(self.game_id)
        if status.status == LOBBY:
            lobby = self._lobby_view()
            submitted = {p.side for p in status.players if p.army_submitted}
            outcome: Outcome | None = None
            scenario = self.service.scenarios[status.scenario]
            for side in (Side.SOUTH, Side.NORTH):
                if side not in submitted:
                    limit = scenario.points_for(side, status.points_limit)
                    outcome = await lobby.choose_army(
                        self.game_id, side, limit, scenario.organisation()
                    )
            assert outcome is not None
            self.say()
            self._show(outcome, None)
            self._flush_board()
            return
        assert status.state is not None
        self.state, self.version = status.state, status.version
        self.say(board_text(status.state, self.lang, self.paint))
        self._legend_shown = True
        self._last_board = status.state

    # == play ==================================================================================
    async def _play(self) -> None:
        while True:
            state = self.state
            assert state is not None
            if state.phase is Phase.ENDED:
                await self._ended()
                return
            side = acting_side(state)
            assert side is not None, "the service makes the roll-off itself"
            if self.seats.is_auto(side):
                await self._auto(side)
                # What the automatic player did, in one picture: its moves were just told
                # as they happened, so the recap's text only sums them up (issue 19).
                await self._recap(side.other, retell=False)
                continue
            if self._hand_over(state, side):
                await self._recap(side)
                if self._last_board is not state:
                    self.say(board_text(state, self.lang, self.paint, legend=False))
                    self._last_board = state
            self._hint(state, side)
            line = self.ask(self._prompt(state, side))
            if line:
                await self._orders(line, side)

    def _hand_over(self, state: GameState, side: Side) -> bool:
        """Hot-seat: when the other person takes the keyboard, say so; True if they did (the
        caller then shows the recap of their opponent's turn and the board)."""
        previous, self._last_side = self._last_side, side
        if self.seats.vs is not None or state.phase is not Phase.PLAYING:
            return False
        if previous is None or previous is side:
            return False
        self.say(self.paint(say(self.lang, "handover", side=side.value), "title"))
        return True

    async def _recap(self, side: Side, *, retell: bool = True) -> None:
        """Issue 11: at the start of ``side``'s turn, everything since its last turn ended,
        as text and as one image of the whole turn, read from the game's log as the Discord
        bot reads it. Once per turn: not again in the middle of it (a passenger placed in
        the opponent's turn hands the keyboard over and back)."""
        state = self.state
        if state is None or state.phase is not Phase.PLAYING or state.active is not side:
            return
        recap = recap_for(await self.service.game_log(self.game_id), side)
        if recap is None or self._recapped.get(side) == recap.since_seq:
            return
        self._recapped[side] = recap.since_seq
        before, events = recap.before, recap.events
        for line in recap_text(before, state, events, self.lang, self.paint, retell=retell):
            self.say(line)
        png = render_turn(before, state, events, names=self._names(), lang=self.lang)
        path = board_file(self.folder, self.board_tag, self.game_id, self.version)
        path = path.with_name(f"{path.stem}-turn.png")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(png)
        self.say(self.paint(say(self.lang, "recap-picture", path=str(_shown_path(path))), "dim"))

    def _prompt(self, state: GameState, side: Side) -> str:
        name = translate(self.lang, f"side-{side.value}")
        if state.phase is Phase.PLAYING:
            return say(
                self.lang, "prompt-play", side=name, round=state.round, rounds=state.scenario.rounds
            )
        return say(
            self.lang,
            "prompt-setup",
            side=name,
            phase=translate(self.lang, f"phase-{state.phase.value}"),
        )

    def _hint(self, state: GameState, side: Side) -> None:
        key: Any = (state.round, side) if state.phase is Phase.PLAYING else self.version
        if key == self._hinted:
            return
        self._hinted = key
        full = state.phase is not Phase.PLAYING or side not in self._turns_seen
        if state.phase is Phase.PLAYING:
            self._turns_seen.add(side)
        text = hint_text(state, side, self.lang, self.paint, full=full)
        if text is not None:
            self.say(self.paint(text, "dim"))

    async def _orders(self, line: str, side: Side) -> None:
        assert self.state is not None

        async def step(state: GameState, step: Step) -> tuple[GameState, Outcome | None]:
            resolved = step.resolved
            if isinstance(resolved, UndoRequest):
                outcome = await self._undo(side, resolved.count)
                return (state if outcome is None else self._state_of(outcome)), outcome
            if isinstance(resolved, Request):
                await self._answer(resolved, state)
                return state, None
            if isinstance(resolved, Resign) and not self._confirm_resign(side):
                self.say(say(self.lang, "resign-kept"))
                return state, None
            if declines_advance(state, side, resolved):
                state = await self._stay(state, side)
                again = resolve(step.order, state, side)
                assert not isinstance(again, Request)  # the same order, a newer state
                resolved = again
            outcome = await self.service.act(
                self.game_id, self.seats.actor(side), resolved, key=KEYS.next()
            )
            self._show(outcome, state)
            return self._state_of(outcome), outcome

        report = await run_orders_async(self.state, side, line.replace(";", "\n"), step, REFUSALS)
        self._flush_board()  # once for the whole message, however many lines changed it
        for refused in report.refused:
            reason = describe_refusal(
                refused.error, self.lang, _describe_service_error, self._examples(report.state)
            )
            self.say(self.paint(report_line(self.lang, "refused", refused.line, reason), "bad"))
        for skipped in report.skipped:
            self.say(report_line(self.lang, "skipped", skipped))

    def _examples(self, state: GameState) -> Examples:
        """Examples in help and refusals name this game's units, the acting side's own."""
        side = acting_side(state) or Side.SOUTH
        return examples_for(state, side)

    def _confirm_resign(self, side: Side) -> bool:
        """J4 ends the game at once: a typo or a joke must not, so the player confirms."""
        answer = self.ask(say(self.lang, "resign-confirm", side=side.value))
        return fold(answer) in YES_WORDS

    async def _stay(self, state: GameState, side: Side) -> GameState:
        """E10 declined: the player went on to another order instead of "advance"."""
        pending = state.pending[0]
        self.say(self.paint(say(self.lang, "advance-declined", unit=pending.unit), "dim"))
        stay = Advance(side, pending.unit, False)
        outcome = await self.service.act(
            self.game_id, self.seats.actor(side), stay, key=KEYS.next()
        )
        self._show(outcome, state)
        return self._state_of(outcome)

    def _state_of(self, outcome: Outcome) -> GameState:
        assert outcome.state is not None
        return outcome.state

    async def _auto(self, side: Side) -> None:
        player = self.players.get(side)
        if player is None:
            name = self.seats.auto[side]
            player = self.players[side] = make_player(name, self.options.think_ms)
        while self.state is not None and self.state.phase is not Phase.ENDED:
            if acting_side(self.state) is not side:
                break
            before = self.state
            action = player.choose(before, auto_rng(self.options.seed, self.version))
            outcome = await self.service.act(
                self.game_id, self.seats.actor(side), action, key=KEYS.next()
            )
            self._show(outcome, before)
        self._flush_board()

    async def _undo(self, side: Side, count: int) -> Outcome | None:
        """Take back this turn's own actions; with dice rolled, the opponent must agree."""
        try:
            outcome = await self.service.undo(
                self.game_id, self.seats.actor(side), count, key=KEYS.next()
            )
        except NotAllowed as error:
            if error.code != "undo_needs_consent":
                raise
            other = side.other
            if self.seats.is_auto(other):
                self.say(say(self.lang, "auto-declines-undo"))
                return None
            await self.service.request_undo(
                self.game_id, self.seats.actor(side), count, key=KEYS.next()
            )
            question = say(self.lang, "undo-consent", side=other.value, asker=side.value)
            answer = self.ask(question)
            accept = fold(answer) in YES_WORDS
            outcome = await self.service.answer_undo(
                self.game_id, self.seats.actor(other), accept, key=KEYS.next()
            )
        self._show(outcome, self.state)
        return outcome

    async def _answer(self, request: Request, state: GameState) -> None:
        lang, paint = self.lang, self.paint
        match request:
            case BoardRequest():
                self.say(board_text(state, lang, paint))
            case StatusRequest():
                self.say(board_text(state, lang, paint, legend=False))
                name = scenario_name(self.service.scenarios, state.scenario.id, lang)
                self.say(game_summary(lang, name, state.house))
                self.say(status_text(state, lang, paint))
            case ArmyRequest(side):
                self.say(army_text(state, side, lang, paint))
            case OddsRequest(unit, target, weapons):
                self.say(odds_text(state, unit, target, weapons, lang, paint))
            case LogRequest(count):
                await self._log(count or LOG_LINES, state)
            case VerifyRequest():
                await self._verify()
            case RuleRequest(rule_id):
                self.say(rule_reply(lang, rule_id))
            case HintRequest():
                self.say(self._advice(state))
            case HelpRequest(topic):
                self.say(help_text(lang, topic, self._examples(state)))
                if topic is None:
                    self.say(say(lang, "help-extra"))

    def _advice(self, state: GameState) -> str:
        """Issue 22: the search's best actions, only against the automatic player."""
        if not self.seats.auto:
            return translate(self.lang, "hint-hotseat")
        seed = auto_rng(self.options.seed, self.version).getrandbits(32)
        return advice_text(state, self.lang, self.options.think_ms, seed)

    async def _log(self, count: int, state: GameState) -> None:
        lines = [line for line in await self.service.game_log(self.game_id) if line.events]
        for line in lines[-count:]:
            told = self.narrator.tell(line.events, state)
            if not told:
                continue
            mark = say(self.lang, "log-undone") if line.undone else ""
            self.say(self.paint(f"#{line.seq}{mark}", "dim"))
            for text in told:
                if text:
                    self.say("  " + text)
            if line.dice:  # K2: each die by its position, to check one by hand (docs/dice.md)
                dice = " ".join(f"#{d.position}={d.value}" for d in line.dice)
                self.say(self.paint("  " + say(self.lang, "log-dice", dice=dice), "dim"))

    async def _verify(self) -> None:
        """K2: the game's log written to a file and checked as anyone can check it."""
        path = self.folder.parent / "logs" / f"game-{self.game_id}.jsonl"
        await export_to(self.service, self.game_id, path)
        report = check_text(path.read_text(encoding="utf-8"))
        for line in report_lines(report, self.lang):
            self.say(line)
        self.say(self.paint(say(self.lang, "verify-file", path=str(_shown_path(path))), "dim"))

    # == showing what happened ==================================================================
    def _show(self, outcome: Outcome, before: GameState | None) -> None:
        """What a command did. The board waits for ``_flush_board`` (the end of the player's
        message, of the automatic player's run, or of a turn), the game's result for the last
        board."""
        self.version = outcome.version
        state = outcome.state
        if state is None:
            return
        self.state = state
        for event in outcome.events:
            if isinstance(event, AdvanceOffered | PlacementRequired) and self.seats.is_auto(
                state.units[event.unit].side
            ):
                continue  # the automatic player decides at once; what it chose is told
            if is_moot(event, outcome.events):
                continue  # the game ended with this command: there is nothing to decide
            if isinstance(event, TurnEnded) and before is not None:
                # The turn's last picture, before the next begins, with the SPs it took.
                self._flush_board(state_at_turn_end(before, outcome.events))
            told = self.narrator.event(event, state)
            if isinstance(event, GameEnded):
                self._result = told
            else:
                for text in told:
                    self.say(text)
        if outcome.board_changed:
            self._changed = (outcome, before)

    def _flush_board(self, state: GameState | None = None) -> None:
        """Show the board if it changed since last shown: ``state`` (by default, the current
        one) with the last change marked on its image."""
        if self._changed is None:
            return
        outcome, before = self._changed
        self._changed = None
        shown = self.state if state is None else state
        assert shown is not None
        self._board(shown, outcome.version, outcome.events, before)

    def _board(
        self, state: GameState, number: int, events: Sequence[Any], before: GameState | None
    ) -> None:
        # The legend once a session (and with "board"): after that it is only noise.
        self.say(board_text(state, self.lang, self.paint, legend=not self._legend_shown))
        self._legend_shown = True
        self._last_board = state
        names = self._names()
        path = write_board(
            self.folder,
            self.game_id,
            number,
            state,
            events,
            before,
            names,
            self.lang,
            tag=self.board_tag,
        )
        self.say(self.paint(say(self.lang, "picture", path=str(_shown_path(path))), "dim"))

    def _names(self) -> dict[Side, str]:
        names = {}
        for side in Side:
            name = translate(self.lang, f"side-{side.value}")
            if self.seats.is_auto(side):
                name = say(self.lang, "side-auto", side=name)
            names[side] = name
        return names

    async def _ended(self) -> None:
        """The final board, the result, and (K2) the seed behind every die."""
        last = self._last_board
        if self.state is not None and (last is None or last.phase is not Phase.ENDED):
            self._board(self.state, self.version, (), None)
        for text in self._result:
            self.say(text)
        reveal = await self.service.reveal_seed(self.game_id, self.seats.actor(Side.SOUTH))
        self.say(say(self.lang, "seed", seed=reveal.seed.hex(), commitment=reveal.commitment))
        # Issue 19: the log written again now that it holds the seed, and checked, so every
        # die of the finished game can be checked from the file.
        await self._verify()
        self.say(say(self.lang, "play-again"))


def _describe_service_error(error: Exception, lang: str) -> str:
    if isinstance(error, ServiceError):
        return error.describe(lang)
    return str(error)


def _shown_path(path: Path) -> Path:
    """Relative to the current folder when it is inside it: shorter to read and to copy."""
    try:
        return path.resolve().relative_to(Path.cwd())
    except ValueError:
        return path.resolve()


def _player_name(lang: str, name: str | None) -> str:
    """The automatic player as the welcome names it: its level, or "none" (hot-seat)."""
    if name is None:
        return say(lang, "player-name", name="none")
    return translate(lang, "opponent-level", level=level_of(name))
