"""The demo armies self-play fields on a scenario with other points limits (rulebook L).

The demo factions ship one ready-made list ("500"). A scenario of more points (Fortress's
north, Big battle) gets that list grown: its entries are bought again, in the list's order,
while the roster stays legal under the scenario's points and slot maxima (A1-A3). A list
named for the exact limit, where a faction has one, is fielded as it is.
"""

from __future__ import annotations

from collections.abc import Mapping

from vahalite_bot.codex.army import grown
from vahalite_bot.codex.loader import Faction
from vahalite_bot.rules.roster import Organisation, Roster
from vahalite_bot.rules.sheets import UnitSheet


def army_for(
    faction: Faction,
    sheets: Mapping[str, UnitSheet],
    limit: int,
    organisation: Organisation,
    base: str,
) -> Roster:
    """``faction``'s list named ``limit``, or its ``base`` list grown up to ``limit``."""
    named = faction.lists.get(str(limit))
    if named is not None:
        return named
    return grown(faction.lists[base], sheets, limit, organisation)
