"""The plain-text army list: what players paste into a message and the bot reads back.

    Space Marines — 750 pts
    Captain [60]
    Tactical Squad + Plasma gun [95] > Rhino [35]
    Tactical Squad [85]
    Total: 275

One unit a line: its name, `` + `` each option, its cost in brackets, then ``>`` and its
transport the same way. Either language (even mixed), any case, any spacing; bullets,
numbering, Discord emphasis and code fences are ignored; the header (faction, limit), the
points and the total are optional, but when given they must be right. ``format_army`` and
``parse_army`` round-trip exactly. A line that cannot be read is named with the reason;
every such line is reported at once. Rules problems (A1-A7) are not this module's business:
``Army.problems`` reports them.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from vahalite_bot.codex.army import Army
from vahalite_bot.codex.loader import Faction, all_sheets
from vahalite_bot.codex.messages import list_line, list_word
from vahalite_bot.codex.schema import fold
from vahalite_bot.rules.roster import Roster, RosterEntry, roster_points
from vahalite_bot.rules.sheets import Names, UnitSheet

HEADER_DASH = "—"
_IGNORED_CHARS = str.maketrans("", "", "*_`~|")
_BULLET = re.compile(r"^(?:[-•·]\s+|\d+\s*[.)]\s*)")
_POINTS_WORD = r"(?:pts?\.?|points?|очк\w*\.?|оч\.?|о\.)"
_HEADER_REST = re.compile(rf"^[\s,:;—–\-(]*(?:(\d+)\s*{_POINTS_WORD}?\s*\)?)?\s*$")
_TOTAL = re.compile(rf"^(?:total|итого|всего)\s*[:=\-—–]?\s*(\d+)\s*{_POINTS_WORD}?\s*$")
_SHOWN = re.compile(rf"\[\s*(\d+)\s*{_POINTS_WORD}?\s*\]\s*$")
_ARROWS = re.compile(r"->|=>|→")


@dataclass(frozen=True)
class ListProblem:
    """A line that cannot be read: its number (1-based; 0 for the list as a whole)."""

    line: int
    text: str
    code: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def message(self, lang: str) -> str:
        params = {k: _localised(v, lang) for k, v in self.params.items()}
        hint = params.pop("suggestion", None)
        params["hint"] = (
            list_line(lang, "no_hint") if hint is None else list_line(lang, "hint", suggestion=hint)
        )
        reason = list_line(lang, self.code, **params)
        if self.line == 0:
            return reason
        return list_line(lang, "line", line=self.line, text=self.text, reason=reason)


def _localised(value: Any, lang: str) -> Any:
    """A name (or a tuple of names, joined) in ``lang``; anything else as is."""
    if isinstance(value, Names):
        return value.get(lang)
    if isinstance(value, tuple) and all(isinstance(v, Names) for v in value):
        return ", ".join(v.get(lang) for v in value)
    return value


class ArmyListError(ValueError):
    def __init__(self, problems: Sequence[ListProblem]) -> None:
        self.problems = list(problems)
        super().__init__("; ".join(p.message("en") for p in self.problems))

    def messages(self, lang: str) -> list[str]:
        return [p.message(lang) for p in self.problems]


# -- writing -------------------------------------------------------------------------------
def format_army(army: Army, factions: Mapping[str, Faction], lang: str) -> str:
    sheets = all_sheets(factions)
    faction = factions.get(army.faction)
    title = faction.name.get(lang) if faction is not None else army.faction
    header = (
        title
        if army.limit is None
        else f"{title} {HEADER_DASH} {army.limit} {list_word(lang, 'points')}"
    )
    lines = [header]
    for entry in army.entries:
        text = _part(entry.sheet, entry.options, sheets, lang)
        if entry.transport is not None:
            text += " > " + _part(entry.transport, entry.transport_options, sheets, lang)
        lines.append(text)
    lines.append(f"{list_word(lang, 'total')}: {roster_points(army.roster, sheets)}")
    return "\n".join(lines)


def _part(sheet_id: str, options: Sequence[str], sheets: Mapping[str, UnitSheet], lang: str) -> str:
    sheet = sheets.get(sheet_id)
    if sheet is None:
        return " + ".join((sheet_id, *options))
    names = [sheet.name.get(lang)]
    cost = sheet.points
    for option_id in options:
        option = sheet.option(option_id)
        names.append(option_id if option is None else option.name.get(lang))
        cost += 0 if option is None else option.points
    return f"{' + '.join(names)} [{cost}]"


# -- reading -------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Name:
    key: str  # folded, to compare
    text: str  # as the player wrote it, to quote back


@dataclass(frozen=True)
class _Part:
    name: _Name
    options: tuple[_Name, ...]
    shown: int | None


@dataclass(frozen=True)
class _Line:
    number: int
    text: str
    unit: _Part
    transport: _Part | None


def parse_army(text: str, factions: Mapping[str, Faction]) -> Army:
    """Read an army list; raises ArmyListError naming every line it cannot read."""
    problems: list[ListProblem] = []
    faction_id: str | None = None
    limit: int | None = None
    total: tuple[int, str, int] | None = None  # line number, text, points shown
    lines: list[_Line] = []
    first = True
    for number, raw in enumerate(text.splitlines(), start=1):
        shown_text = raw.strip()
        line = _clean(raw)
        if not line:
            continue
        if first:
            first = False
            header = _header(line, factions)
            if header is not None:
                faction_id, limit = header
                continue
        match = _TOTAL.match(fold(line))
        if match:
            total = (number, shown_text, int(match.group(1)))
            continue
        parsed = _unit_line(number, shown_text, line)
        if isinstance(parsed, ListProblem):
            problems.append(parsed)
        else:
            lines.append(parsed)
    if not lines and not problems:
        raise ArmyListError([ListProblem(0, "", "no_units")])
    if faction_id is None:
        faction_id = _guess_faction(lines, factions, problems)
    if faction_id is None:
        raise ArmyListError(problems)
    entries = []
    for unit_line in lines:
        entry = _entry(unit_line, faction_id, factions, problems)
        if entry is not None:
            entries.append(entry)
    roster = Roster(faction_id, tuple(entries))
    if total is not None and not problems:
        actual = roster_points(roster, all_sheets(factions))
        if actual != total[2]:
            problems.append(
                ListProblem(
                    total[0], total[1], "total_mismatch", {"shown": total[2], "actual": actual}
                )
            )
    if problems:
        raise ArmyListError(sorted(problems, key=lambda p: p.line))
    return Army(faction_id, limit, roster)


def _clean(raw: str) -> str:
    line = raw.translate(_IGNORED_CHARS).strip()
    if line.startswith(("#", "//")):
        return ""
    return _BULLET.sub("", line).strip()


def _header(line: str, factions: Mapping[str, Faction]) -> tuple[str, int | None] | None:
    """The faction (and the limit, if given) when ``line`` names a faction."""
    folded = fold(line)
    best: tuple[int, str, int | None] | None = None
    for faction in factions.values():
        for name in (faction.name.ru, faction.name.en, faction.id):
            key = fold(name)
            if not folded.startswith(key):
                continue
            rest = _HEADER_REST.match(folded[len(key) :])
            if rest is None:
                continue
            limit = int(rest.group(1)) if rest.group(1) else None
            if best is None or len(key) > best[0]:
                best = (len(key), faction.id, limit)
    return None if best is None else (best[1], best[2])


def _unit_line(number: int, text: str, line: str) -> _Line | ListProblem:
    parts = _ARROWS.sub(">", line).split(">")
    if len(parts) > 2:
        return ListProblem(number, text, "several_transports")
    parsed = [_part_of(p) for p in parts]
    for part in parsed:
        if isinstance(part, str):
            return ListProblem(number, text, part)
    unit = parsed[0]
    transport = parsed[1] if len(parsed) == 2 else None
    assert isinstance(unit, _Part) and not isinstance(transport, str)
    return _Line(number, text, unit, transport)


def _part_of(text: str) -> _Part | str:
    """One side of ``>``: name, options, shown points; or a problem code."""
    shown = None
    match = _SHOWN.search(text)
    if match:
        shown = int(match.group(1))
        text = text[: match.start()]
    if "[" in text or "]" in text:
        return "bad_points"
    names = [_Name(fold(piece), " ".join(piece.split())) for piece in text.split("+")]
    if any(not name.key for name in names):
        return "empty_name"
    return _Part(names[0], tuple(names[1:]), shown)


def _guess_faction(
    lines: Sequence[_Line], factions: Mapping[str, Faction], problems: list[ListProblem]
) -> str | None:
    """Without a header: the faction whose sheets name the most lines."""
    votes: Counter[str] = Counter()
    for line in lines:
        for faction in factions.values():
            if _find_sheet(faction, line.unit.name.key) is not None:
                votes[faction.id] += 1
    if not votes:
        example = next(iter(factions.values())).name if factions else "Orks"
        problems.append(ListProblem(0, "", "unknown_faction", {"example": example}))
        return None
    ranked = votes.most_common()
    tied = [f for f, n in ranked if n == ranked[0][1]]
    if len(tied) > 1:
        line = lines[0]
        names = tuple(factions[f].name for f in sorted(tied))
        problems.append(
            ListProblem(
                line.number,
                line.text,
                "ambiguous_unit",
                {"name": line.unit.name.text, "factions": names},
            )
        )
        return None
    return tied[0]


def _entry(
    line: _Line, faction_id: str, factions: Mapping[str, Faction], problems: list[ListProblem]
) -> RosterEntry | None:
    resolved: list[tuple[str, tuple[str, ...]] | None] = []
    for part in (line.unit, line.transport):
        if part is None:
            resolved.append(None)
            continue
        found = _resolve(line, part, faction_id, factions, problems)
        if found is None:
            return None
        resolved.append(found)
    unit, transport = resolved
    assert unit is not None
    return RosterEntry(
        unit[0],
        unit[1],
        None if transport is None else transport[0],
        () if transport is None else transport[1],
    )


def _resolve(
    line: _Line,
    part: _Part,
    faction_id: str,
    factions: Mapping[str, Faction],
    problems: list[ListProblem],
) -> tuple[str, tuple[str, ...]] | None:
    home = factions[faction_id]
    sheet = _find_sheet(home, part.name.key)
    if sheet is None:
        # A unit of another codex still reads: A6 then says it does not belong.
        elsewhere = [
            found
            for other in factions.values()
            if other is not home and (found := _find_sheet(other, part.name.key)) is not None
        ]
        sheet = elsewhere[0] if len(elsewhere) == 1 else None
    if sheet is None:
        candidates = [n for s in home.sheets.values() for n in (s.name.ru, s.name.en)]
        problems.append(
            ListProblem(
                line.number,
                line.text,
                "unknown_unit",
                {"name": part.name.text, **_hint(part.name.key, candidates)},
            )
        )
        return None
    options: list[str] = []
    cost = sheet.points
    for name in part.options:
        option = next(
            (o for o in sheet.options if name.key in {fold(o.name.ru), fold(o.name.en), o.id}),
            None,
        )
        if option is None:
            candidates = [n for o in sheet.options for n in (o.name.ru, o.name.en)]
            params = {"unit": sheet.name, "option": name.text, **_hint(name.key, candidates)}
            problems.append(ListProblem(line.number, line.text, "unknown_option", params))
            return None
        options.append(option.id)
        cost += option.points
    if part.shown is not None and part.shown != cost:
        problems.append(
            ListProblem(
                line.number, line.text, "points_mismatch", {"shown": part.shown, "actual": cost}
            )
        )
        return None
    return sheet.id, tuple(options)


def _find_sheet(faction: Faction, name: str) -> UnitSheet | None:
    for sheet in faction.sheets.values():
        if name in {fold(sheet.name.ru), fold(sheet.name.en), sheet.id}:
            return sheet
    return None


def _hint(name: str, candidates: Sequence[str]) -> dict[str, str]:
    by_fold = {fold(c): c for c in candidates}
    close = difflib.get_close_matches(name, list(by_fold), n=1, cutoff=0.6)
    return {"suggestion": by_fold[close[0]]} if close else {}
