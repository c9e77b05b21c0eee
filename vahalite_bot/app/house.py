"""House rules (rulebook M): chosen when a game is created, changed only in the lobby.

The set lives in the game's row (``house_rules``) while the game waits for players; at B1
it is copied into the setup, which replay reads, so from then on it cannot change. Who may
change it: the creator while nobody has joined (the opponent joins knowing the rules), or
the referee until the roll-off.
"""

from __future__ import annotations

from collections.abc import Iterable

from vahalite_bot.app import records, schemas
from vahalite_bot.app.book import Book, house_of_column
from vahalite_bot.app.commands import PLAYER, REFEREE, Commands, call_fields, command_of
from vahalite_bot.app.errors import InvalidRequest, NotAllowed
from vahalite_bot.app.results import LOBBY, Actor, Outcome
from vahalite_bot.app.schemas import check
from vahalite_bot.rules.house import HouseRule, house_rules_label

# Every id, as a refusal lists them.
ALL_IDS = ", ".join(rule.value for rule in HouseRule)


def checked_house_rules(ids: Iterable[str]) -> frozenset[HouseRule]:
    """The set ``ids`` names, or InvalidRequest naming the first unknown id and every id
    (an empty or blank id names no rule: refused alike, never skipped)."""
    chosen: set[HouseRule] = set()
    for raw in ids:
        try:
            chosen.add(HouseRule(raw.strip().upper()))
        except ValueError:
            raise InvalidRequest("unknown_house_rule", rule=raw, allowed=ALL_IDS) from None
    return frozenset(chosen)


def house_column(house: Iterable[HouseRule]) -> str:
    """The set as the game's row keeps it: ``M2,M7``, empty for none."""
    return house_rules_label(house).replace(" ", "")


class HouseRules(Commands):
    """M: the one command that changes a game's house rules after its creation."""

    async def set_house_rules(
        self,
        game_id: int,
        actor: Actor,
        house_rules: str | Iterable[str],
        *,
        expected_version: int | None = None,
        key: str | None = None,
    ) -> Outcome:
        """Replace the set (an empty one switches every rule off); logged with who did it."""
        call = check(
            schemas.SetHouseRules,
            **call_fields(game_id, actor, expected_version, key),
            house_rules=house_rules,
        )
        house = checked_house_rules(call.house_rules)

        async def body(book: Book) -> None:
            role = await self._house_authority(book, actor)
            before = house_of_column(book.row.house_rules)
            book.row_changes["house_rules"] = house_column(house)
            book.note(
                records.HouseRulesSet(house, before),
                actor=actor.user,
                role=role,
                side=book.side_of(actor.user),
            )

        return await self._write(command_of(call, "set_house_rules", house_rules=house), body)

    async def _house_authority(self, book: Book, actor: Actor) -> str:
        """The role the caller changes the set in, or NotAllowed saying why not."""
        if book.status != LOBBY:
            raise NotAllowed("house_rules_fixed")
        creator = book.row.creator_id == actor.user
        if creator and len(book.players) < 2:
            return PLAYER
        try:
            await self._require_referee(book, actor)
        except NotAllowed:
            if creator:
                raise NotAllowed("house_rules_joined") from None
            raise
        return REFEREE
