"""Before the first roll: the points limit, then each side's army, a faction's ready-made list
or a pasted army list, submitted through the service (which checks A1-A7)."""

from __future__ import annotations

from collections.abc import Mapping

from vahalite_bot.app import GameService, Outcome, RosterRejected, ServiceError
from vahalite_bot.codex.army import Army
from vahalite_bot.codex.armylist import ArmyListError, format_army, parse_army
from vahalite_bot.codex.loader import Faction, all_sheets
from vahalite_bot.codex.messages import roster_problem
from vahalite_bot.codex.schema import fold
from vahalite_bot.console.keys import KEYS
from vahalite_bot.console.seats import Seats
from vahalite_bot.console.terminal import Terminal
from vahalite_bot.console.words import Quit, is_quit
from vahalite_bot.orders.lexicon import YES_WORDS
from vahalite_bot.present.text import say, side_name
from vahalite_bot.rules.roster import Organisation, Roster
from vahalite_bot.rules.scenario import Side

# Words that ask to paste an army list instead of picking a faction.
PASTE_WORDS = frozenset({"список", "свой", "вставить", "list", "paste", "own"})


class Lobby:
    def __init__(
        self,
        service: GameService,
        terminal: Terminal,
        lang: str,
        factions: Mapping[str, Faction],
        seats: Seats,
    ) -> None:
        self.service = service
        self.terminal = terminal
        self.lang = lang
        self.factions = dict(sorted(factions.items(), key=lambda f: f[1].name.get(lang)))
        self.sheets = all_sheets(factions)
        self.seats = seats

    def ask(self, prompt: str) -> str:
        line = self.terminal.ask(prompt)
        if line is None or is_quit(line):
            raise Quit
        return line

    def ask_points(self, limits: tuple[int, ...]) -> int:
        choices = ", ".join(map(str, limits))
        self.terminal.say(say(self.lang, "points-question", choices=choices, default=limits[0]))
        while True:
            line = self.ask(say(self.lang, "prompt-points"))
            if not line:
                return limits[0]
            if line.isdigit() and int(line) in limits:
                return int(line)
            self.terminal.say(say(self.lang, "points-bad", choices=choices))

    async def choose_army(
        self, game_id: int, side: Side, limit: int, organisation: Organisation
    ) -> Outcome:
        """Ask until the service accepts an army for ``side`` (``limit`` and
        ``organisation``: that side's, A1-A2); what accepting it did."""
        lang, paint = self.lang, self.terminal.paint
        auto = self.seats.is_auto(side)
        self.terminal.say()
        self.terminal.say(
            paint(say(lang, "army-title", side=side.value, auto="yes" if auto else "no"), "title")
        )
        names = [f.name.get(lang) for f in self.factions.values()]
        for number, name in enumerate(names, start=1):
            self.terminal.say(f"  {number}. {name}")
        self.terminal.say(say(lang, "army-how", points=limit))
        while True:
            line = self.ask(say(lang, "prompt-army", side=side_name(lang, side, paint)))
            if not line:
                continue
            if fold(line) in PASTE_WORDS:
                army = self._pasted()
                if army is None:
                    continue
                self.terminal.say(format_army(army.with_limit(limit), self.factions, lang))
            else:
                army = self._ready_made(line, limit, organisation)
                if army is None or not self._confirmed(army):
                    continue
            outcome = await self._submit(game_id, side, army.roster, limit)
            if outcome is not None:
                return outcome

    def _ready_made(self, line: str, limit: int, organisation: Organisation) -> Army | None:
        faction = self._faction(line)
        if faction is None:
            self.terminal.say(say(self.lang, "army-unknown", text=line, count=len(self.factions)))
            return None
        army = Army.ready_for(faction, limit, self.sheets, organisation)
        if army is None:
            self.terminal.say(
                say(self.lang, "army-no-ready", faction=faction.name.get(self.lang), points=limit)
            )
        return army

    def _confirmed(self, army: Army) -> bool:
        """A ready-made list is shown before it is taken: the player has not seen it yet."""
        self.terminal.say(format_army(army, self.factions, self.lang))
        answer = fold(self.ask(say(self.lang, "army-confirm")))
        return not answer or answer in YES_WORDS

    def _faction(self, line: str) -> Faction | None:
        chosen = list(self.factions.values())
        if line.isdigit():
            number = int(line)
            return chosen[number - 1] if 1 <= number <= len(chosen) else None
        key = fold(line)
        exact = [f for f in chosen if key in {*_names_of(f), f.id}]
        if exact:
            return exact[0]
        starts = [f for f in chosen if any(name.startswith(key) for name in _names_of(f))]
        return starts[0] if len(starts) == 1 else None

    def _pasted(self) -> Army | None:
        self.terminal.say(say(self.lang, "paste-intro"))
        lines: list[str] = []
        while True:
            line = self.terminal.ask(say(self.lang, "prompt-paste"))
            if line is None:
                raise Quit
            if not line:
                break
            lines.append(line)
        try:
            return parse_army("\n".join(lines), self.factions)
        except ArmyListError as error:
            self.terminal.say(say(self.lang, "paste-bad"))
            for message in error.messages(self.lang):
                self.terminal.say("  " + message)
            return None

    async def _submit(self, game_id: int, side: Side, roster: Roster, limit: int) -> Outcome | None:
        lang = self.lang
        try:
            outcome = await self.service.submit_army(
                game_id, self.seats.actor(side), roster, key=KEYS.next()
            )
        except RosterRejected as error:
            self.terminal.say(say(lang, "army-rejected"))
            names = {f.id: f.name.get(lang) for f in self.factions.values()}
            for problem in error.problems:
                self.terminal.say("  " + roster_problem(problem, lang, self.sheets, names))
            return None
        except ServiceError as error:
            self.terminal.say(error.describe(lang))
            return None
        army = Army(roster.faction, limit, roster)
        faction = (
            self.factions[roster.faction].name.get(lang)
            if roster.faction in self.factions
            else roster.faction
        )
        self.terminal.say(
            say(
                lang,
                "army-accepted",
                side=side.value,
                faction=faction,
                points=army.points(self.sheets),
                limit=limit,
            )
        )
        return outcome


def _names_of(faction: Faction) -> set[str]:
    """Every name a player may choose the faction by, folded: both languages' and the
    nicknames the codex gives (``гвардия``)."""
    return {fold(name) for name in (faction.name.ru, faction.name.en, *faction.nicknames)}
