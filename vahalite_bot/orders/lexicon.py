"""The words of the order language, Russian and English, as plain tables.

Every word is compared folded: lower case, ``ё`` read as ``е``. A verb is the first word
(or words: ``в атаку``, ``конец хода``, ``end turn``) of a line. Adding a synonym means
adding it here; the tests check that no word means two things.

Cells: a letter and a row number, any case. Russian players type on a Russian keyboard,
so a Cyrillic letter is read as the Latin one it looks like (А В Е К М Н О Р С Т Х, and
the lower-case а в е к м н о р с т х у), and Б, Д, Ф, Г, which look like no Latin letter,
as the Latin letter they sound like (B, D, F, G). ``В`` is read as ``B`` by its look, not
as ``V`` by its sound: the look is what a player copies from the board's labels.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping

from vahalite_bot.orders.model import Verb
from vahalite_bot.rules.order import Order as TurnOrder
from vahalite_bot.rules.scenario import TerrainKind


def fold(word: str) -> str:
    return word.casefold().replace("ё", "е")


# -- verbs -------------------------------------------------------------------------------
# A verb with the attack mode it implies: None lets the engine choose melee when a melee
# weapon reaches (E5), False is ranged only ("shoot"), True melee only ("fight").
VerbWord = tuple[Verb, bool | None]


def _words(*groups: str) -> tuple[str, ...]:
    """Comma-separated words (a "word" may be two: ``get in``), English then Russian."""
    return tuple(word.strip() for group in groups for word in group.split(","))


_VERBS: dict[Verb, tuple[str, ...]] = {
    Verb.MOVE: _words(
        "move, mv, go, walk, run",
        "ход, ходи, иди, идти, двигай, двигайся, двигаться, движение, перемести, переместить, марш",
    ),
    Verb.ATTACK: _words(
        "attack, att, atk, hit, strike",
        "атака, атакуй, атаковать, бей, бить, удар, ударь, в атаку",
    ),
    Verb.EMBARK: _words(
        "embark, mount, load, get in, enter",
        "посадка, сесть, садись, сядь, погрузка, погрузись, грузись",
    ),
    Verb.DISEMBARK: _words(
        "disembark, dismount, unload, get out, exit",
        "высадка, высадись, высадиться, выйти, выйди, выгрузка, выгрузись",
    ),
    Verb.END: _words(
        "end, end turn, endturn, done, pass, next",
        "конец, конец хода, ход окончен, готово, все, пас, завершить, закончить, закончить ход,"
        " завершить ход",
    ),
    Verb.UNDO: _words("undo, back, takeback, oops", "отмена, отменить, отмени, назад"),
    Verb.BOARD: _words("board, map, show", "карта, поле, доска"),
    Verb.STATUS: _words("status, state, info", "статус, состояние, инфо"),
    Verb.ODDS: _words("odds, chance, chances, prob", "шансы, шанс, вероятность, прогноз"),
    Verb.ARMY: _words("army, units, roster", "армия, войска, отряды, ростер"),
    Verb.LOG: _words("log, history, journal", "лог, журнал, история"),
    Verb.HELP: _words("help, ?, commands", "помощь, справка, команды, помоги, хелп"),
    Verb.ROLL: _words("roll, roll off, rolloff", "бросок, жребий, кинуть, кидай, бросай, брось"),
    Verb.TERRAIN: _words("terrain", "местность, рельеф, ландшафт, террейн"),
    Verb.SP: _words("sp, objective, obj, point", "сп, точка, позиция"),
    Verb.DEPLOY: _words(
        "deploy, dep, place, put, set",
        "расстановка, расставить, расставь, выставить, выставь, поставить, поставь, разместить,"
        " размести, деплой",
    ),
    Verb.ADVANCE: _words("advance", "вперед, занять, займи, продвинуться, продвинься"),
    Verb.RESIGN: _words("resign, surrender, concede, gg", "сдаюсь, сдаться, сдача"),
    Verb.RULE: _words("rule, rules", "правило, правила"),
    Verb.VERIFY: _words("verify, proof", "проверка, проверить, проверь"),
    Verb.HINT: _words("hint, tip, suggest", "подсказка, подскажи, совет"),
    Verb.FALL_BACK: _words(
        "fall back, fallback, retreat, withdraw",
        "отступить, отступи, отступай, отступление, отход, отходи, отойти",
    ),
    Verb.CHARGE: _words("charge, chg", "натиск, рывок, чардж, чарж"),
    Verb.ORDERS: _words("orders, order", "приказ, приказы, приказываю"),
    Verb.RESERVE: _words("reserve, reserves", "резерв, резервом, придержать, придержи"),
    Verb.ARRIVE: _words("arrive, arrival, bring in", "прибыть, прибытие, прибывай, прибывает"),
}

# Words that are a verb with a fixed mode or argument.
_SHOOT = _words("shoot, fire", "стреляй, стрелять, стрельба, огонь, пли")
_FIGHT = _words("fight, melee", "рукопашная, руби, рубить, в рукопашную, врукопашную")
_STAY = _words("stay, hold", "остаться, остаюсь, стоять, стой")
_FIRST = _words("first", "первым, первый, первая, первыми")
_SECOND = _words("second", "вторым, второй, вторая, вторыми")


def _verb_entries() -> list[tuple[str, VerbWord]]:
    entries: list[tuple[str, VerbWord]] = [
        (word, (verb, None)) for verb, words in _VERBS.items() for word in words
    ]
    entries += [(word, (Verb.ATTACK, False)) for word in _SHOOT]
    entries += [(word, (Verb.ATTACK, True)) for word in _FIGHT]
    entries += [(word, (Verb.ADVANCE, False)) for word in _STAY]
    entries += [(word, (Verb.DEPLOY_ORDER, None)) for word in (*_FIRST, *_SECOND)]
    return entries


# Every verb word as listed; a word listed twice would silently mean the last (tested).
VERB_ENTRIES: tuple[tuple[str, VerbWord], ...] = tuple(_verb_entries())
VERBS: Mapping[str, VerbWord] = dict(VERB_ENTRIES)
LONGEST_VERB = max(len(phrase.split()) for phrase in VERBS)

# The word shown in help and in examples, per language.
VERB_WORD: Mapping[str, Mapping[Verb, str]] = {
    "en": {verb: words[0] for verb, words in _VERBS.items()} | {Verb.DEPLOY_ORDER: "first"},
    "ru": {
        Verb.MOVE: "ход",
        Verb.ATTACK: "атака",
        Verb.EMBARK: "посадка",
        Verb.DISEMBARK: "высадка",
        Verb.END: "конец",
        Verb.UNDO: "отмена",
        Verb.BOARD: "карта",
        Verb.STATUS: "статус",
        Verb.ODDS: "шансы",
        Verb.ARMY: "армия",
        Verb.LOG: "лог",
        Verb.HELP: "помощь",
        Verb.ROLL: "бросок",
        Verb.DEPLOY_ORDER: "первым",
        Verb.TERRAIN: "местность",
        Verb.SP: "сп",
        Verb.DEPLOY: "расстановка",
        Verb.ADVANCE: "вперед",
        Verb.RESIGN: "сдаюсь",
        Verb.RULE: "правило",
        Verb.VERIFY: "проверка",
        Verb.HINT: "подсказка",
        Verb.FALL_BACK: "отступить",
        Verb.CHARGE: "натиск",
        Verb.ORDERS: "приказ",
        Verb.RESERVE: "резерв",
        Verb.ARRIVE: "прибыть",
    },
}

# -- words inside an order ---------------------------------------------------------------
FIRST_WORDS = frozenset(_FIRST)
SECOND_WORDS = frozenset(_SECOND)

# Attack modifiers, anywhere after the verb: "атака tac1 kab1 рукопашная".
MELEE_WORDS = frozenset(_words("melee", "рукопашная, рукопашную, врукопашную, ближний"))
RANGED_WORDS = frozenset(_words("ranged, shooting, shoot", "стрельба, стрельбой, дальний"))
# The modifier written when an order is spelled for the player (a hint): melee, ranged.
ATTACK_KIND_WORD: Mapping[str, Mapping[bool, str]] = {
    "en": {True: "melee", False: "ranged"},
    "ru": {True: "рукопашная", False: "стрельбой"},
}

YES_WORDS = frozenset(_words("yes, y, ok", "да, ок, ага"))
NO_WORDS = frozenset(_words("no, n", "нет, не"))

ENEMY_WORDS = frozenset(
    _words(
        "enemy, opponent, their, theirs, foe",
        "противник, противника, врага, враг, чужая, чужие, вражеская",
    )
)
OWN_WORDS = frozenset(_words("my, mine, own", "моя, мои, мой, свои, своя, наша"))

# Words that only link the parts of an order ("move tac1 to C4", "стреляй tac1 по kab1").
# Between two unit names they mark where the first ends.
LINK_WORDS = frozenset(
    _words(
        "to, at, on, in, into, onto, with, the, from, weapon, weapons, by",
        "в, во, на, к, ко, по, с, со, из, оружие, оружием, оружия",
    )
)

# M3: the orders an ``orders`` line gives (``orders war1 assault, dev aimed``).
TURN_ORDER_WORDS: Mapping[str, TurnOrder] = {
    word: order
    for order, words in {
        TurnOrder.ADVANCE: _words("advance, adv", "продвижение, продвигаться, вперед"),
        TurnOrder.ASSAULT: _words("assault", "нападение, штурм, штурмовой"),
        TurnOrder.AIMED_FIRE: _words(
            "aimed, aimed fire, aim",
            "прицельная, прицельная стрельба, прицельный огонь, прицельный, прицел",
        ),
    }.items()
    for word in words
}
LONGEST_TURN_ORDER = max(len(phrase.split()) for phrase in TURN_ORDER_WORDS)

# Words an ``end`` order may carry ("end turn", "конец хода").
TURN_WORDS = frozenset(_words("turn", "ход, хода, ходу"))

# -- terrain -----------------------------------------------------------------------------
TERRAIN_WORDS: Mapping[str, TerrainKind] = {
    word: kind
    for kind, words in {
        TerrainKind.OBSTACLE: _words(
            "obstacle, rock, rocks", "препятствие, преграда, скала, скалы"
        ),
        TerrainKind.WATER: _words("water, lake, river", "вода, водоем, озеро, река, болото"),
        TerrainKind.HEIGHT: _words("height, hill", "высота, холм, возвышенность"),
        TerrainKind.COVER: _words("cover, woods, forest, ruins", "укрытие, лес, руины"),
        TerrainKind.FORTIFICATION: _words(
            "fortification, fort, bunker", "укрепление, форт, бункер"
        ),
    }.items()
    for word in words
}
# A terrain word may be shortened to a unique prefix of this many letters or more ("выс").
TERRAIN_PREFIX = 3


def terrain_words(word: str) -> list[str]:
    """The terrain words ``word`` names: itself, or those it is a long enough prefix of."""
    if word in TERRAIN_WORDS:
        return [word]
    if len(word) < TERRAIN_PREFIX:
        return []
    return [name for name in TERRAIN_WORDS if name.startswith(word)]


def terrain_kind(word: str) -> TerrainKind | None:
    """The one kind a terrain word (or a unique prefix of one) names, else None."""
    kinds = {TERRAIN_WORDS[name] for name in terrain_words(word)}
    return kinds.pop() if len(kinds) == 1 else None


# -- near misses -------------------------------------------------------------------------
# How alike a typo and a word must be (difflib's ratio) to be offered back.
NEAR = 0.75


def near_words(typed: str, *, terrain: bool) -> list[str]:
    """The order words (and, with ``terrain``, the terrain words) ``typed`` nearly is."""
    words = [w for w in VERBS if " " not in w and len(w) > 1]
    if terrain:
        words += list(TERRAIN_WORDS)
    return difflib.get_close_matches(typed, words, n=3, cutoff=NEAR)


# -- cells -------------------------------------------------------------------------------
# Cyrillic letters read as Latin column letters (see the module docstring).
CELL_LETTERS: Mapping[str, str] = {
    "а": "a", "в": "b", "е": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p",
    "с": "c", "т": "t", "х": "x", "у": "y",
    "б": "b", "д": "d", "ф": "f", "г": "g",
}  # fmt: skip


def latin_letters(text: str) -> str:
    """``text`` (folded) with Cyrillic look-alike letters written in Latin: for handles."""
    return "".join(CELL_LETTERS.get(ch, ch) for ch in text)
