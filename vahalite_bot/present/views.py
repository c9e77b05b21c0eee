"""Answers to the questions a player may ask at the prompt: status, army, odds."""

from __future__ import annotations

from fractions import Fraction

from vahalite_bot.present.paint import Paint
from vahalite_bot.present.text import say, side_name, unit_label
from vahalite_bot.rules import combat, victory
from vahalite_bot.rules.scenario import Side
from vahalite_bot.rules.state import GameState, Phase, UnitState


# -- status and army -------------------------------------------------------------------------
def status_text(state: GameState, lang: str, paint: Paint) -> str:
    lines: list[str] = []
    if state.phase in (Phase.PLAYING, Phase.ENDED):
        for side in Side:
            score = victory.score(state, side)
            lines.append(
                say(
                    lang,
                    "score-detail",
                    side=side_name(lang, side, paint),
                    sp=score.sp,
                    kills=score.kills,
                    hq=score.hq_kills,
                    vp=score.vp,
                )
            )
    for side in Side:
        lines.append(paint(side_name(lang, side, paint), "title") + ":")
        lines.extend(
            "  " + unit_line(state, u, lang, paint) for u in state.units.values() if u.side is side
        )
    return "\n".join(lines)


def unit_line(state: GameState, unit: UnitState, lang: str, paint: Paint) -> str:
    label = unit_label(state, unit.id, lang, paint, named=True)
    if unit.destroyed:
        return say(lang, "unit-destroyed", unit=label)
    if unit.embarked_in is not None:
        where = say(lang, "where-embarked", transport=unit.embarked_in)
    elif unit.cell is not None:
        where = unit.cell.name
    else:
        where = say(lang, "where-undeployed")
    done = []
    if state.phase is Phase.PLAYING and state.active is unit.side:
        if unit.moved:
            done.append(say(lang, "unit-moved"))
        if unit.attacked:
            done.append(say(lang, "unit-attacked"))
    return say(
        lang,
        "unit-line",
        unit=label,
        where=where,
        hp=unit.hp,
        max=unit.sheet.max_hp,
        models=unit.models,
        done=", ".join(done) or "none",
    )


def army_text(state: GameState, side: Side, lang: str, paint: Paint) -> str:
    lines = [paint(side_name(lang, side, paint), "title") + ":"]
    for unit in state.units.values():
        if unit.side is not side:
            continue
        lines.append(unit_line(state, unit, lang, paint))
        sheet = unit.sheet
        lines.append(
            "    "
            + say(
                lang,
                "unit-profile",
                type=say(lang, f"type-{sheet.type.value}"),
                defense=sheet.defense,
                m=sheet.maneuverability,
                morale=_morale(unit, lang),
                wounds=sheet.wounds,
            )
        )
        for number, weapon in enumerate(unit.weapons, start=1):
            lines.append(
                "    "
                + say(
                    lang,
                    "weapon-line",
                    number=number,
                    weapon=weapon.name.get(lang),
                    kind=weapon.kind.value,
                    strength=f"+{weapon.strength}"
                    if weapon.strength >= 0
                    else str(weapon.strength),
                    dice=weapon.dice,
                    per_model="yes" if weapon.per_model else "no",
                    reach=_reach(weapon.minimum_range, weapon.max_range),
                )
            )
    return "\n".join(lines)


def _reach(low: int, high: int) -> str:
    return str(high) if low >= high else f"{low}–{high}"


def _morale(unit: UnitState, lang: str) -> str:
    """G2/G3: the Morale value, or why the unit never tests."""
    sheet = unit.sheet
    if sheet.has_damaged_profile or sheet.is_flyer:
        return say(lang, "morale-none")
    if sheet.is_fearless:
        return say(lang, "morale-fearless")
    return str(sheet.morale)


# -- odds -------------------------------------------------------------------------------------
def odds_text(
    state: GameState,
    unit_id: str,
    target_id: str,
    weapons: tuple[int, ...],
    lang: str,
    paint: Paint,
) -> str:
    unit, target = state.unit(unit_id), state.unit(target_id)
    lines = [
        say(
            lang,
            "odds-header",
            unit=unit_label(state, unit.id, lang, paint, named=True),
            target=unit_label(state, target.id, lang, paint, named=True),
            hp=target.hp,
        )
    ]
    for index in weapons:
        weapon = unit.weapons[index]
        needed = combat.die_rule(state, unit, weapon=weapon, target=target).needed  # M1/M3/M9
        cover = combat.cover_value(state, weapon, target)
        lines.append(
            "  "
            + say(
                lang,
                "odds-weapon",
                weapon=weapon.name.get(lang),
                count=combat.dice_count(unit, weapon),
                needed=needed,
                possible="yes" if needed <= 6 else "no",
                cover=cover if cover is not None else 0,
            )
        )
    dist = combat.damage_distribution(state, unit, target, weapons)
    chances = ", ".join(
        say(lang, "odds-chance", damage=k, percent=_percent(p)) for k, p in enumerate(dist) if p
    )
    mean = sum((k * p for k, p in enumerate(dist)), Fraction(0))
    lines.append("  " + say(lang, "odds-distribution", chances=chances))
    lines.append(
        "  "
        + say(
            lang,
            "odds-summary",
            mean=f"{float(mean):.1f}",
            kill=_percent(dist[-1]) if dist else "0",
        )
    )
    return "\n".join(lines)


def _percent(p: Fraction) -> str:
    value = float(p) * 100
    if 0 < value < 1:
        return "<1"
    return f"{value:.0f}"
