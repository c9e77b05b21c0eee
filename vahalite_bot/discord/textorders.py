"""Orders posted as messages in a game's thread, forum style: the order language of the
console (several lines, Russian or English), applied line by line through the service, and
answered in one reply with what applied, what was refused and why, and the board.

Chat is left alone: a message is taken for orders only when one of its lines starts like an
order (a verb, one of the game's unit handles, or a cell). Messages of non-players and bots
never get here.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any

import discord

from vahalite_bot.app import Outcome
from vahalite_bot.discord import buttons, playing
from vahalite_bot.discord.identity import actor_of
from vahalite_bot.discord.tree import REFUSALS, describe
from vahalite_bot.discord.words import MESSAGE_LIMIT, fit, say
from vahalite_bot.i18n import translate
from vahalite_bot.orders import (
    ArmyRequest,
    BoardRequest,
    HelpRequest,
    LogRequest,
    OddsRequest,
    Request,
    StatusRequest,
    Step,
    UndoRequest,
    help_text,
    run_orders_async,
)
from vahalite_bot.orders.lexicon import VERBS, fold
from vahalite_bot.orders.requests import HintRequest, RuleRequest, VerifyRequest
from vahalite_bot.orders.tokens import read_cell
from vahalite_bot.present.narrate import Narrator
from vahalite_bot.present.paint import plain
from vahalite_bot.present.rules import rule_reply
from vahalite_bot.present.views import army_text, odds_text, status_text
from vahalite_bot.rules.actions import Resign
from vahalite_bot.rules.state import GameState
from vahalite_bot.verify import check_text
from vahalite_bot.verify.export import export_log
from vahalite_bot.verify.text import report_lines

if TYPE_CHECKING:
    from vahalite_bot.discord.client import VahaBot

LOG_LINES = 10
# What a log answer may take of a message, leaving room for the note of what was left out.
LOG_BUDGET = MESSAGE_LIMIT - 100
_FIRST_VERB_WORDS = frozenset(phrase.split()[0] for phrase in VERBS)


def looks_like_orders(message: str, state: GameState) -> bool:
    """Whether any line starts with a verb, a unit handle of this game, or a cell."""
    handles = {fold(h) for h in state.units}
    for line in message.splitlines():
        words = line.strip().lstrip("/!").split()
        if not words:
            continue
        first = fold(words[0].rstrip(":;,."))
        if first in _FIRST_VERB_WORDS or first in handles or read_cell(first) is not None:
            return True
    return False


async def run_text_orders(bot: VahaBot, game: int, message: discord.Message) -> None:
    status, side = await bot.games.side_of(game, str(message.author.id))
    state = status.state
    if side is None or state is None or not looks_like_orders(message.content, state):
        return
    lang = status.language
    bot.room.remember(message.author)
    actor = actor_of(message.author, message.guild)
    outcomes: list[Outcome] = []
    answers: list[str] = []
    show_board = False
    confirm_resign = False
    counter = iter(range(1_000_000))

    async def step(current: GameState, step: Step) -> tuple[GameState, Outcome | None]:
        nonlocal show_board, confirm_resign
        key = f"{message.id}:{next(counter)}"
        resolved = step.resolved
        if isinstance(resolved, UndoRequest):
            outcome = await bot.games.undo(game, actor, resolved.count, key)
            outcomes.append(outcome)
            return _state(outcome, current), outcome
        if isinstance(resolved, Request):
            if isinstance(resolved, BoardRequest):
                show_board = True
            else:
                answers.append(await _answer(bot, game, resolved, current, lang))
            return current, None
        if isinstance(resolved, Resign):
            confirm_resign = True  # asked with buttons below: a typed word is easy to regret
            return current, None
        applied = await playing.apply(bot, game, actor, side, current, step.order, resolved, key)
        outcomes.extend(applied)
        for outcome in applied:
            current = _state(outcome, current)
        return current, applied[-1]

    report = await run_orders_async(state, side, message.content, step, REFUSALS)
    lines = [
        say(lang, "orders-refused", line=r.line[:200], reason=describe(r.error, lang))
        for r in report.refused
    ]
    lines += [say(lang, "orders-skipped", line=s[:200]) for s in report.skipped]
    lines += answers
    if outcomes:
        await bot.games.after(outcomes, state, by=actor.user, lines=lines, reply_to=message)
    elif lines or show_board:
        await _reply(bot, game, message, lines, show_board)
    if confirm_resign:
        latest = await bot.service.status(game)
        # A reply to a message is public: the buttons answer the asker alone.
        view = buttons.view_of(["ry", "rn"], game, latest.version, lang, user=message.author.id)
        assert view is not None
        await message.reply(say(lang, "resign-question"), view=view, mention_author=False)


async def _reply(
    bot: VahaBot, game: int, message: discord.Message, lines: list[str], board: bool
) -> None:
    """Nothing changed: the refusals and answers, and the board if it was asked for."""
    status = await bot.service.status(game)
    kwargs: dict[str, Any] = {
        "mention_author": False,
        "allowed_mentions": discord.AllowedMentions.none(),
    }
    if board and status.state is not None:
        png = await bot.room.board_png(status.state, (), None, status)
        kwargs["file"] = discord.File(io.BytesIO(png), filename="board.png")
    await message.reply(fit("\n".join(lines) or "\u200b"), **kwargs)
    bot.opponent.kick(status)


async def _answer(bot: VahaBot, game: int, request: Request, state: GameState, lang: str) -> str:
    match request:
        case StatusRequest():
            return status_text(state, lang, plain)
        case ArmyRequest(side):
            return army_text(state, side, lang, plain)
        case OddsRequest(unit, target, weapons):
            return odds_text(state, unit, target, weapons, lang, plain)
        case HelpRequest(topic):
            return help_text(lang, topic)
        case RuleRequest(rule_id):
            return rule_reply(lang, rule_id)
        case LogRequest(count):
            return "\n".join(await log_lines(bot, game, count or LOG_LINES, state, lang))
        case VerifyRequest():
            report = check_text(await export_log(bot.service, game))
            return "\n".join(report_lines(report, lang))
        case HintRequest():  # the search runs in the workers, behind the slash command
            return translate(lang, "hint-in-discord")
    return ""


async def log_lines(
    bot: VahaBot, game: int, count: int, state: GameState, lang: str, limit: int = LOG_BUDGET
) -> list[str]:
    """The last ``count`` entries, as many of the newest as fit in ``limit`` characters, and
    how many older ones were left out to fit."""
    narrator = Narrator(lang, plain)
    lines = [line for line in await bot.service.game_log(game) if line.events][-count:]
    kept: list[list[str]] = []
    size = 0
    for line in reversed(lines):  # newest first: they are what a player asks the log for
        mark = " " + say(lang, "log-undone") if line.undone else ""
        told = [f"#{line.seq}{mark}", *("  " + t for t in narrator.tell(line.events, state) if t)]
        size += sum(len(t) + 1 for t in told)
        if size > limit and kept:
            break
        kept.append(told)
    left_out = len(lines) - len(kept)
    head = [say(lang, "log-left-out", count=left_out)] if left_out else []
    return head + [t for told in reversed(kept) for t in told]


def _state(outcome: Outcome, current: GameState) -> GameState:
    return outcome.state if outcome.state is not None else current
