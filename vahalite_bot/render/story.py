"""What the last action (or a whole turn) did, read from its events: the marks to draw and a
one-line caption.

Events name units, not cells, and a destroyed unit has left the board; ``before`` (the state
the events began from) tells where such a unit stood, and the reader follows every unit the
events move, so over a whole turn an arrow starts where its attacker stood when it struck.
Without ``before`` the cross of a unit that did not move is left out.

``fates`` then puts each unit's fate on the unit as the board stands after the events
(issue 19): the fallen where they fell, the damage on the living where they stand now.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from vahalite_bot.render.labels import label
from vahalite_bot.rules.events import (
    Advanced,
    AttackResolved,
    Charged,
    DeployOrderChosen,
    Event,
    GameEnded,
    MoraleTested,
    Moved,
    PassengerPlaced,
    PassengersHit,
    ReservePlaced,
    RolledOff,
    SPCaptured,
    SPPlaced,
    TerrainPlaced,
    TurnEnded,
    UnitDeployed,
    UnitDestroyed,
)
from vahalite_bot.rules.geometry import Cell
from vahalite_bot.rules.scenario import Side
from vahalite_bot.rules.state import GameState, UnitState


@dataclass(frozen=True)
class Path:
    """A move (or an E10 advance): the start cell, then every cell entered."""

    side: Side
    cells: tuple[Cell, ...]


@dataclass(frozen=True)
class Strike:
    side: Side
    source: Cell
    target: Cell
    damage: int


@dataclass(frozen=True)
class Fallen:
    unit: UnitState  # as it was before the action
    cell: Cell


@dataclass
class Story:
    paths: list[Path] = field(default_factory=list)
    strikes: list[Strike] = field(default_factory=list)
    fallen: list[Fallen] = field(default_factory=list)
    touched: set[Cell] = field(default_factory=set)  # cells to highlight
    captured: set[Cell] = field(default_factory=set)
    caption: list[str] = field(default_factory=list)
    wounds: dict[str, int] = field(default_factory=dict)  # damage taken, by unit, summed


def side_name(side: Side, names: Mapping[Side, str], lang: str) -> str:
    return names.get(side) or label(lang, f"side.{side.value}")


class _Reader:
    def __init__(
        self,
        state: GameState,
        before: GameState | None,
        names: Mapping[Side, str],
        lang: str,
    ) -> None:
        self.state, self.before, self.names, self.lang = state, before, names, lang
        self.story = Story()
        self.mentioned: set[str] = set()
        # Where each unit went during the events read so far: over a whole turn a unit
        # moves and is then shot, so ``before`` alone would draw the arrow from its old cell.
        self.moved_to: dict[str, Cell] = {}

    def say(self, key: str, **params: object) -> None:
        self.story.caption.append(label(self.lang, key, **params))

    def unit(self, handle: str) -> str:
        """A unit's handle, with its name the first time the caption mentions it."""
        if handle in self.mentioned or handle not in self.state.units:
            return handle
        self.mentioned.add(handle)
        name = self.state.units[handle].sheet.name.get(self.lang)
        return label(self.lang, "unit", handle=handle, name=name)

    def side(self, side: Side) -> str:
        return side_name(side, self.names, self.lang)

    def where(self, handle: str) -> Cell | None:
        """Where the unit stands at this point of the events: where they last moved it, else
        where it stood when they began (its transport's cell if embarked)."""
        if handle in self.moved_to:
            return self.moved_to[handle]
        for state in (self.before, self.state):
            if state is not None and handle in state.units:
                unit = state.units[handle]
                if not unit.destroyed:
                    cell = state.position(unit)
                    if cell is not None:
                        return cell
        return None

    def read(self, event: Event) -> None:
        story = self.story
        match event:
            case RolledOff(die=die, winner=winner):
                self.say("event.rolled_off", value=die.value, name=self.side(winner))
            case DeployOrderChosen(side=side, first_deployer=first):
                order = label(self.lang, "order.first" if first is side else "order.second")
                self.say("event.deploy_order", name=self.side(side), order=order)
            case TerrainPlaced(kind=kind, cell=cell):
                story.touched.add(cell)
                self.say(
                    "event.terrain",
                    kind=label(self.lang, f"terrain.{kind.value}", value=3),
                    cell=cell.name,
                )
            case SPPlaced(cell=cell):
                story.touched.add(cell)
                self.say("event.sp_placed", cell=cell.name)
            case UnitDeployed(unit=unit, cell=cell, embarked_in=transport):
                story.touched.add(cell)
                self.moved_to[unit] = cell
                if transport is None:
                    self.say("event.deployed", unit=self.unit(unit), cell=cell.name)
                else:
                    self.say("event.deployed_in", unit=self.unit(unit), transport=transport)
            case Moved():
                self._moved(event)
            case Charged(made=True):
                self._charged(event)
            case ReservePlaced(unit=unit, cell=cell, passenger=passenger):
                story.touched.add(cell)
                for handle in (unit, passenger):
                    if handle is not None:
                        self.moved_to[handle] = cell
            case MoraleTested(unit=unit, models_lost=lost) if lost > 0:
                self.say("event.morale", unit=self.unit(unit), lost=lost)
            case AttackResolved():
                self._attack(event)
            case PassengersHit(unit=unit, damage=damage):
                self.say("event.passengers_hit", unit=self.unit(unit), damage=damage)
            case UnitDestroyed(unit=unit):
                cell = self.where(unit)
                gone = (self.before or self.state).units.get(unit)
                if cell is not None and gone is not None:
                    story.fallen.append(Fallen(gone, cell))
                self.say("event.destroyed", unit=self.unit(unit))
            case PassengerPlaced(unit=unit, cell=cell):
                story.touched.add(cell)
                self.moved_to[unit] = cell
                self.say("event.placed", unit=self.unit(unit), cell=cell.name)
            case Advanced(unit=unit, start=start, cell=cell) if cell is not None:
                side = self.state.units[unit].side
                story.paths.append(Path(side, (start, cell)))
                story.touched.update((start, cell))
                self.moved_to[unit] = cell
                self.say("event.advanced", unit=self.unit(unit), cell=cell.name)
            case SPCaptured(cell=cell, side=side):
                story.captured.add(cell)
                self.say("event.captured", cell=cell.name, name=self.side(side))
            case TurnEnded(side=side):
                self.say("event.turn_ended", name=self.side(side))
            case GameEnded(reason="resignation", winner=winner) if winner is not None:
                self.say("event.resigned", name=self.side(winner.other))
            case _:
                pass

    def _moved(self, event: Moved) -> None:
        story = self.story
        side = self.state.units[event.unit].side
        cells = (event.start, *event.path)
        story.paths.append(Path(side, cells))
        story.touched.update((cells[0], cells[-1]))
        self.moved_to[event.unit] = cells[-1]
        if event.passenger is not None:
            self.moved_to[event.passenger] = cells[-1]
        end = cells[-1].name
        if event.embarked_in is not None:
            self.say("event.embarked", unit=self.unit(event.unit), transport=event.embarked_in)
        elif event.disembarked_from is not None:
            self.say("event.disembarked", unit=self.unit(event.unit), end=end)
        else:
            self.say("event.moved", unit=self.unit(event.unit), start=event.start.name, end=end)

    def _charged(self, event: Charged) -> None:
        """M8: the charge move, drawn as a move; Overwatch and the blow strike from there."""
        side = self.state.units[event.unit].side
        cells = (event.start, *event.path)
        self.story.paths.append(Path(side, cells))
        self.story.touched.update((event.start, event.cell))
        self.moved_to[event.unit] = event.cell
        unit, target = self.unit(event.unit), self.unit(event.target)
        self.say("event.charged", unit=unit, target=target, end=event.cell.name)

    def _attack(self, event: AttackResolved) -> None:
        wounds = self.story.wounds
        wounds[event.target] = wounds.get(event.target, 0) + event.damage
        source, target = self.where(event.attacker), self.where(event.target)
        side = self.state.units[event.attacker].side
        if source is not None and target is not None:
            self.story.strikes.append(Strike(side, source, target, event.damage))
            self.story.touched.update((source, target))
        attacker, victim = self.unit(event.attacker), self.unit(event.target)
        if event.damage > 0:
            self.say("event.attack", unit=attacker, target=victim, damage=event.damage)
        else:
            self.say("event.miss", unit=attacker, target=victim)


def read_story(
    state: GameState,
    events: Sequence[Event],
    before: GameState | None = None,
    names: Mapping[Side, str] | None = None,
    lang: str = "ru",
) -> Story:
    reader = _Reader(state, before, names or {}, lang)
    for event in events:
        reader.read(event)
    return reader.story


@dataclass(frozen=True)
class FallenTag:
    """A unit that fell on a cell where a living unit stands now: its faded token and
    cross would cross the living one out, so a tag in the cell names it instead."""

    cell: Cell
    fallen: Fallen
    damage: int  # what it took in the events (0: none, or it fled)


@dataclass(frozen=True)
class Fates:
    """What a board image draws of each unit the events touched."""

    ghosts: list[Fallen]  # fallen on cells free now: a faded token and a cross
    tags: list[FallenTag]
    damage: dict[Cell, int]  # the damage plates: on a ghost, or a living unit where it stands


def fates(state: GameState, story: Story) -> Fates:
    """Each unit's fate on the unit itself, ``state`` being the board after the events: a
    unit hit and then moved (a charger shot by Overwatch, a killer advancing) carries its
    damage to where it stands, and the damage of a fallen unit stays with it."""
    standing = {
        unit.cell for unit in state.units.values() if not unit.destroyed and unit.cell is not None
    }
    ghosts: list[Fallen] = []
    tags: list[FallenTag] = []
    damage: dict[Cell, int] = {}
    fell = {fallen.unit.id for fallen in story.fallen}
    for fallen in story.fallen:
        taken = story.wounds.get(fallen.unit.id)
        if fallen.cell in standing:
            tags.append(FallenTag(fallen.cell, fallen, taken or 0))
            continue
        ghosts.append(fallen)
        if taken is not None:
            damage[fallen.cell] = damage.get(fallen.cell, 0) + taken
    for handle, taken in story.wounds.items():
        unit = state.units.get(handle)
        if handle in fell or unit is None or unit.destroyed or unit.cell is None:
            continue  # a unit inside a transport: its plate would read as the transport's
        damage[unit.cell] = damage.get(unit.cell, 0) + taken
    return Fates(ghosts, tags, damage)
