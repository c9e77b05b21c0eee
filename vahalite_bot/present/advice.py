"""The search player's view in words: the best actions now as orders to type (``hint``),
and why the bot did what it did (one short line per action of its turn).

The orders are spelled in the player's own order language, so a hint can be copied as it
stands; the values are the search's (``HardPlayer.rank``), in HP of damage, and an attack
also shows what the engine's exact odds expect of it.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from vahalite_bot.i18n import translate
from vahalite_bot.orders.lexicon import ATTACK_KIND_WORD, VERB_WORD
from vahalite_bot.orders.model import Verb
from vahalite_bot.rules import combat
from vahalite_bot.rules.actions import Action, Attack, Charge, EndTurn, Move
from vahalite_bot.rules.engine import acting_side
from vahalite_bot.rules.state import GameState, Phase
from vahalite_bot.selfplay.evaluation import WIN
from vahalite_bot.selfplay.hard import Considered, HardPlayer

SHOWN = 3  # the best actions a hint shows


def spell(action: Action, lang: str) -> str | None:
    """``action`` as the order a player would type for it, or None if no order says it."""
    verbs = VERB_WORD[lang]
    match action:
        case Move(_, unit, path, fall_back) if path:
            verb = verbs[Verb.FALL_BACK if fall_back else Verb.MOVE]
            return f"{verb} {unit} {'-'.join(cell.name for cell in path)}"
        case Attack(_, unit, target, weapons, melee):
            words = [verbs[Verb.ATTACK], unit, target]
            words += [str(w + 1) for w in weapons or ()]
            if melee is not None:
                words.append(ATTACK_KIND_WORD[lang][melee])
            return " ".join(words)
        case Charge(_, unit, target, cell):
            return f"{verbs[Verb.CHARGE]} {unit} {target} {cell.name}"
        case EndTurn():
            return verbs[Verb.END]
    return None


def can_hint(state: GameState) -> bool:
    """Is there a decision for the search to rank: a turn under way, nothing pending?"""
    return state.phase is Phase.PLAYING and not state.pending


def hint_text(state: GameState, lang: str, think_ms: float, seed: int) -> str:
    """The whole answer to ``hint`` for the side whose turn it is (the caller has checked
    that its opponent is the automatic player): the search's best actions, or why not now.
    Costs up to ``think_ms`` of CPU: the bot calls it in its worker pool."""
    return advise(state, lang, HardPlayer(think_ms), seed)


def advise(state: GameState, lang: str, player: HardPlayer, seed: int) -> str:
    side = acting_side(state)
    if side is None or not can_hint(state):
        return translate(lang, "hint-not-now")
    considered = [c for c in player.rank(state, side, seed) if spell(c.action, lang) is not None]
    return "\n".join(hint_lines(state, considered, lang))


def hint_lines(state: GameState, considered: Sequence[Considered], lang: str) -> list[str]:
    """The best ``SHOWN`` actions: the order to type, its value against the search's own
    choice (the first) and, for an attack, what the dice promise. Values are compared, not
    shown bare: the evaluation's absolute figure means nothing to a player."""
    lines = [translate(lang, "hint-intro", count=min(SHOWN, len(considered)))]
    for place, choice in enumerate(considered[:SHOWN], start=1):
        order = spell(choice.action, lang)
        assert order is not None  # ``advise`` keeps only what an order says
        if place == 1:
            value = _value(choice.value, 0.0, lang, "hint-first")
        else:
            value = _value(choice.value, choice.value - considered[0].value, lang, "hint-value")
        line = translate(lang, "hint-line", place=place, order=order, value=value)
        odds = _odds(state, choice.action, lang)
        lines.append(f"{line} {odds}" if odds else line)
    return lines


def explain(player: object, state: GameState, action: Action, lang: str) -> str | None:
    """Why ``player`` just chose ``action`` in ``state``: only the search player can say."""
    if not isinstance(player, HardPlayer):
        return None
    return why_line(state, action, player.last, lang)


def why_line(
    state: GameState, action: Action, considered: Sequence[Considered], lang: str
) -> str | None:
    """One line on why the bot took ``action``: how far ahead of the next best the search
    saw it (or that it kept the plain choice, seeing no clear gain), and an attack's odds."""
    order = spell(action, lang)
    if order is None or len(considered) < 2 or considered[0].action != action:
        return None
    ahead = considered[0].value - max(c.value for c in considered[1:])
    key = "hint-ahead" if ahead >= 0 else "hint-kept"
    value = _value(considered[0].value, ahead, lang, key)
    line = translate(lang, "hint-why", order=order, value=value)
    odds = _odds(state, action, lang, short=True)
    return f"{line}{odds}" if odds else line


def _value(value: float, shown: float, lang: str, key: str) -> str:
    """``shown`` by message ``key``, unless ``value`` means the game is won or lost."""
    if value >= WIN / 2:
        return translate(lang, "hint-value-win")
    if value <= -WIN / 2:
        return translate(lang, "hint-value-loss")
    return translate(lang, key, value=f"{shown:+.1f}")


def _odds(state: GameState, action: Action, lang: str, *, short: bool = False) -> str | None:
    """An attack's expected damage and its chance of at least one, by the exact odds."""
    if not isinstance(action, Attack):
        return None
    unit, target = state.units[action.unit], state.units[action.target]
    weapons = combat.choose_weapons(state, unit, target, action.weapons, action.melee)
    dist = combat.damage_distribution(state, unit, target, weapons)
    mean = sum((k * p for k, p in enumerate(dist)), Fraction(0))
    return translate(
        lang,
        "hint-why-odds" if short else "hint-odds",
        damage=f"{float(mean):.1f}",
        chance=f"{float(1 - dist[0]) * 100:.0f}",
        kill=f"{float(dist[-1]) * 100:.0f}",
    )
