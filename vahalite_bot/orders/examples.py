"""The units an example names: the player's own and the opponent's in their game.

Help and refusals show orders to type ("move tac1 C4"). A new player copies them, so they
name units of the player's game (issue 12 met ``rhi1`` and ``kab1`` in games without them);
without a game they fall back to the catalogue's training units.
"""

from __future__ import annotations

from dataclasses import dataclass

from vahalite_bot.i18n import translate
from vahalite_bot.orders.lexicon import fold
from vahalite_bot.rules.scenario import Side
from vahalite_bot.rules.sheets import Names
from vahalite_bot.rules.state import GameState, UnitState

PREFIX_LETTERS = 4  # "the start of its name": tact, такт


@dataclass(frozen=True)
class Examples:
    """Handles and names for examples; None takes the catalogue's training unit."""

    unit: str | None = None
    target: str | None = None
    transport: str | None = None
    unit_name: Names | None = None
    target_name: Names | None = None
    # A game without any transport: the embark example says "transport" instead of a handle.
    no_transport: bool = False

    def args(self, lang: str) -> dict[str, str]:
        """The ``$ex_*`` variables of the catalogue's examples."""
        unit_name = self._name(self.unit_name, lang, "unit")
        first_word = fold(unit_name).split()[0] if unit_name.split() else unit_name
        return {
            "ex_unit": self.unit or translate(lang, "orders-example-default-unit"),
            "ex_target": self.target or translate(lang, "orders-example-default-target"),
            "ex_transport": self.transport or translate(lang, self._transport_key()),
            "ex_unit_name": unit_name,
            "ex_target_name": self._name(self.target_name, lang, "target"),
            "ex_prefix": first_word[:PREFIX_LETTERS],
        }

    def _transport_key(self) -> str:
        if self.no_transport:
            return "orders-example-any-transport"
        return "orders-example-default-transport"

    @staticmethod
    def _name(names: Names | None, lang: str, which: str) -> str:
        if names is not None:
            return names.get(lang)
        return translate(lang, f"orders-example-default-{which}-name")


def examples_for(state: GameState, side: Side) -> Examples:
    """Examples from ``side``'s game: its first unit that is no transport, the opponent's
    first unit, and a transport (its own if it has one)."""
    own = _living(state, side)
    enemy = _living(state, side.other)
    unit = next((u for u in own if not u.sheet.is_transport), own[0] if own else None)
    target = enemy[0] if enemy else None
    transports = [u for u in own if u.sheet.is_transport] + [
        u for u in enemy if u.sheet.is_transport
    ]
    return Examples(
        unit=unit.id if unit else None,
        target=target.id if target else None,
        transport=transports[0].id if transports else None,
        unit_name=unit.sheet.name if unit else None,
        target_name=target.sheet.name if target else None,
        no_transport=not transports,
    )


def _living(state: GameState, side: Side) -> list[UnitState]:
    return sorted((u for u in state.living(side)), key=lambda u: u.id)
