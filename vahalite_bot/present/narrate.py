"""What happened, told in the player's language: every event of the engine and the service,
with all its dice (rulebook E14): the weapon, how many dice, the number needed and why, each
die, each cover re-roll, the damage, and what followed (morale, deaths)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from vahalite_bot.app import records
from vahalite_bot.i18n import translate
from vahalite_bot.present.paint import Paint
from vahalite_bot.present.round_events import round_lines
from vahalite_bot.present.text import cells_text, dice_values, say, side_name, signed, unit_label
from vahalite_bot.rules import events as ev
from vahalite_bot.rules import unit_orders
from vahalite_bot.rules.die_rule import DieRule
from vahalite_bot.rules.scenario import Side
from vahalite_bot.rules.state import GameState

# Events that ask the player to decide something: moot once the game has ended.
QUESTIONS = (ev.AdvanceOffered, ev.PlacementRequired, ev.OrdersRequired)


def is_moot(event: Any, events: Iterable[Any]) -> bool:
    """A question (advance? place the passenger?) in a batch that also ends the game: the
    game is over, so asking it would only mislead (issue 12)."""
    return isinstance(event, QUESTIONS) and any(isinstance(e, ev.GameEnded) for e in events)


def _one_would_do(w: ev.WeaponRolled) -> bool:
    """M1 is worth a word only where a 1 would otherwise have succeeded."""
    plain = DieRule(w.strength, w.defense, w.modifier, natural_six_only=w.natural_six_only)
    return plain.succeeds(1)


class Narrator:
    """Turns events into lines; ``state`` (after the events) names the units in them."""

    def __init__(self, lang: str, paint: Paint) -> None:
        self.lang = lang
        self.paint = paint

    def tell(self, events: Iterable[Any], state: GameState) -> list[str]:
        batch = list(events)
        lines: list[str] = []
        for event in batch:
            if not is_moot(event, batch):
                lines.extend(self.event(event, state))
        return lines

    def event(self, event: Any, state: GameState) -> list[str]:
        lang, paint = self.lang, self.paint

        def unit(handle: str, *, named: bool = False) -> str:
            return unit_label(state, handle, lang, paint, named=named)

        def side(value: Side) -> str:
            return side_name(lang, value, paint)

        match event:
            case ev.RolledOff(die, winner):
                return [
                    say(lang, "ev-rolled-off", die=paint(str(die.value), "dice"), side=side(winner))
                ]
            case ev.DeployOrderChosen(chooser, first):
                return [say(lang, "ev-deploy-order", side=side(chooser), first=side(first))]
            case ev.TerrainPlaced(who, kind, cell):
                name = translate(lang, f"terrain-{kind.value}")
                return [
                    say(
                        lang,
                        "ev-terrain",
                        side=side(who),
                        kind=paint(name, kind.value),
                        cell=cell.name,
                    )
                ]
            case ev.SPPlaced(who, cell):
                return [say(lang, "ev-sp", side=side(who), cell=cell.name)]
            case ev.UnitDeployed(who, handle, cell, transport):
                if transport is not None:
                    return [
                        say(
                            lang,
                            "ev-deployed-in",
                            unit=unit(handle, named=True),
                            transport=unit(transport),
                            cell=cell.name,
                        )
                    ]
                return [say(lang, "ev-deployed", unit=unit(handle, named=True), cell=cell.name)]
            case ev.SetupStep(step, who):
                if who is None:
                    return []
                phase = translate(lang, f"phase-{step}")
                return [paint(say(lang, "ev-setup-step", phase=phase, side=who.value), "title")]
            case ev.TurnStarted(number, who):
                rounds = state.scenario.rounds
                text = say(lang, "ev-turn-started", round=number, rounds=rounds, side=who.value)
                return ["", paint(text, "title")]
            case ev.Moved():
                return [self._moved(event, unit)]
            case ev.AttackResolved():
                return self._attack(event, unit)
            case ev.MoraleTested(move=move) if move:
                # Issue 19: a unit that flees has no move to tell, so say where it set out
                cells = " → ".join(cell.name for cell in move)
                leaving = say(lang, "leaving-melee-move", unit=unit(event.unit), path=cells)
                return [leaving, self._morale(event, unit)]
            case ev.MoraleTested():
                return [self._morale(event, unit)]
            case ev.PassengersHit():
                return [
                    say(
                        lang,
                        "ev-passengers",
                        unit=unit(event.unit),
                        transport=unit(event.transport),
                        count=len(event.dice),
                        needed=event.needed,
                        defense=event.defense,
                        strength=signed(event.strength),
                        dice=dice_values(event.dice, paint),
                        damage=event.damage,
                        hp=event.hp_after,
                    )
                ]
            case ev.UnitDestroyed(handle, _, _, "reserve"):
                text = say(lang, "ev-reserve-expired", unit=unit(handle, named=True))
                return [paint(text, "bad")]  # M5
            case ev.UnitDestroyed(handle, _, by, cause):
                text = say(
                    lang,
                    "ev-destroyed",
                    unit=unit(handle, named=True),
                    cause=cause,
                    by=unit(by) if by else "-",
                )
                return [paint(text, "bad")]
            case ev.PlacementRequired(handle, owner, cells):
                return [
                    say(
                        lang,
                        "ev-placement",
                        unit=unit(handle),
                        side=owner.value,
                        cells=cells_text(cells),
                        handle=handle,
                        cell=cells[0].name,
                    )
                ]
            case ev.PassengerPlaced(handle, cell):
                return [say(lang, "ev-placed", unit=unit(handle), cell=cell.name)]
            case ev.AdvanceOffered(handle, cell):
                return [say(lang, "ev-advance-offered", unit=unit(handle), cell=cell.name)]
            case ev.Advanced(handle, start, cell):
                if cell is None:
                    return [say(lang, "ev-stayed", unit=unit(handle), cell=start.name)]
                return [say(lang, "ev-advanced", unit=unit(handle), cell=cell.name)]
            case ev.FellBack(handle):
                return [say(lang, "ev-fell-back", unit=unit(handle))]
            case ev.Charged():
                return [self._charged(event, unit)]
            case ev.OrdersRequired(who):
                example = unit_orders.example_unit(state, who)
                return [say(lang, "ev-orders-required", side=who.value, unit=example)]
            case ev.OrdersGiven():
                return [self._orders_given(event, unit, side)]
            case (
                ev.UnitFalling()
                | ev.AdvanceChosen()
                | ev.DamageStep()
                | ev.InitiativeRolled()
                | ev.ReserveHeld()
                | ev.ReservesOffered()
                | ev.ReservePlaced()
                | ev.ReservesDone()
            ):
                return round_lines(event, state, lang, paint)  # M2, M4, M5
            case ev.SPCaptured(cell, who, handle):
                return [say(lang, "ev-captured", cell=cell.name, side=who.value, unit=unit(handle))]
            case ev.TurnEnded(_, who):
                return [say(lang, "ev-turn-ended", side=side(who))]
            case ev.GameEnded():
                return self._ended(event)
            case records.GameStarted(south, north):
                return [say(lang, "ev-game-started", south=south, north=north)]
            case records.Undone(seqs):
                return [say(lang, "ev-undone", count=len(seqs), seqs=", ".join(map(str, seqs)))]
            case records.UndoRequested(who, seqs):
                return [say(lang, "ev-undo-requested", side=who.value, count=len(seqs))]
            case records.UndoDeclined(who, _):
                return [say(lang, "ev-undo-declined", side=who.value)]
            case records.PauseAsked(who, pause):
                return [say(lang, "ev-pause-asked", side=side(who), pause="yes" if pause else "no")]
            case records.Paused():
                return [say(lang, "ev-paused")]
            case records.Resumed():
                return [say(lang, "ev-resumed")]
            case records.TurnMissed(who, count):
                return [say(lang, "ev-turn-missed", side=side(who), count=count)]
            case records.UnitPlaced(handle, _, cell):
                return [say(lang, "ev-unit-placed", unit=unit(handle), cell=cell.name)]
            case records.UnitRemoved(handle, _):
                return [say(lang, "ev-unit-removed", unit=unit(handle))]
            case records.HPSet(handle, before, after):
                return [say(lang, "ev-hp-set", unit=unit(handle), before=before, after=after)]
            case records.SeedRevealed(seed, commitment):
                return [say(lang, "seed", seed=seed, commitment=commitment)]
        # Lobby records and the rest are told by the console itself, where they happen.
        return []

    # -- the long ones ---------------------------------------------------------------------
    def _moved(self, event: ev.Moved, unit: Any) -> str:
        lang = self.lang
        path = " → ".join(c.name for c in (event.start, *event.path))
        if event.embarked_in is not None:
            return say(
                lang,
                "ev-embarked",
                unit=unit(event.unit),
                transport=unit(event.embarked_in),
                path=path,
            )
        if event.disembarked_from is not None:
            return say(
                lang,
                "ev-disembarked",
                unit=unit(event.unit),
                transport=unit(event.disembarked_from),
                cell=event.path[-1].name,
            )
        if event.passenger is not None:
            return say(
                lang,
                "ev-moved-carrying",
                unit=unit(event.unit),
                path=path,
                passenger=unit(event.passenger),
            )
        return say(lang, "ev-moved", unit=unit(event.unit), path=path)

    def _attack(self, event: ev.AttackResolved, unit: Any) -> list[str]:
        lang, paint = self.lang, self.paint
        lines = [
            say(
                lang,
                "ev-overwatch" if event.overwatch else "ev-attack",  # M7: fired unasked
                unit=unit(event.attacker, named=True),
                target=unit(event.target, named=True),
                kind=event.kind.value,
                damaged="yes" if event.damaged_profile else "no",
            )
        ]
        for weapon in event.weapons:
            lines.append("  " + self._weapon(weapon))
        total = say(
            lang,
            "ev-attack-total",
            target=unit(event.target),
            damage=event.damage,
            before=event.hp_before,
            after=event.hp_after,
        )
        lines.append("  " + paint(total, "title"))
        return lines

    def _weapon(self, w: ev.WeaponRolled) -> str:
        lang, paint = self.lang, self.paint
        text = say(
            lang,
            "ev-weapon",
            weapon=w.weapon.get(lang),
            models=w.models if w.models is not None else 0,
            count=w.dice_count,
            needed=w.needed,
            possible="yes" if w.needed <= 6 else "no",
            defense=w.defense,
            strength=signed(w.strength),
            dice=dice_values(w.dice, paint),
            successes=w.successes,
        )
        if w.modifier:  # M3, M9: the face moves before strength is added
            text += say(lang, "ev-weapon-modifier", modifier=signed(w.modifier))
        if w.natural_one_fails and any(d.value == 1 for d in w.dice) and _one_would_do(w):
            text += say(lang, "ev-weapon-natural-one")
        if w.charge_dice:  # M8: the extra dice are among those shown
            text += say(lang, "ev-weapon-charge", count=w.charge_dice)
        if w.cover_value is not None and w.successes:  # else each success is damage (E9)
            text += say(
                lang,
                "ev-weapon-cover",
                cover=w.cover_value,
                dice=dice_values(w.rerolls, paint),
                damage=w.damage,
            )
        return text

    def _charged(self, event: ev.Charged, unit: Any) -> str:
        """M8: the 2D6 and the reach they give, and whether the charge arrives."""
        return say(
            self.lang,
            "ev-charge",
            unit=unit(event.unit),
            target=unit(event.target),
            cell=event.cell.name,
            length=event.length,
            rolled="yes" if event.dice else "no",
            dice=dice_values(event.dice, self.paint),
            reach=event.reach or 0,
            made="yes" if event.made else "no",
        )

    def _orders_given(self, event: ev.OrdersGiven, unit: Any, side: Any) -> str:
        """M3: the orders other than Advance, which every other unit has."""
        lang = self.lang
        items = [
            say(
                lang,
                "ev-order-item",
                unit=unit(o.unit),
                order=translate(lang, f"turn-order-{o.order.value}"),
            )
            for o in event.orders
        ]
        return say(
            lang,
            "ev-orders-given",
            side=side(event.side),
            orders=", ".join(items),
            count=len(items),
        )

    def _morale(self, event: ev.MoraleTested, unit: Any) -> str:
        return say(
            self.lang,
            "ev-morale",
            unit=unit(event.unit),
            reason=event.reason,
            count=len(event.dice),
            threshold=event.threshold,
            dice=dice_values(event.dice, self.paint),
            lost=event.models_lost,
            hp=event.hp_after,
        )

    def _ended(self, event: ev.GameEnded) -> list[str]:
        lang, paint = self.lang, self.paint
        if event.winner is None:
            result = say(lang, "result-draw", reason=event.reason)
        else:
            result = say(lang, "result-win", side=event.winner.value, reason=event.reason)
        lines = ["", paint(say(lang, "ev-game-ended", result=result), "title")]
        for who, score in ((Side.SOUTH, event.south), (Side.NORTH, event.north)):
            lines.append(
                say(
                    lang,
                    "score-detail",
                    side=side_name(lang, who, paint),
                    sp=score.sp,
                    kills=score.kills,
                    hq=score.hq_kills,
                    vp=score.vp,
                )
            )
        lines.append(
            paint(say(lang, "final-score", south=event.south.vp, north=event.north.vp), "title")
        )
        return lines
