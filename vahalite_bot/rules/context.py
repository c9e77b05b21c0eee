"""What one ``apply`` works with: the state copy it changes, the dice, the events so far."""

from __future__ import annotations

from dataclasses import dataclass, field

from vahalite_bot.rules.dice import DiceStream, Die
from vahalite_bot.rules.events import Event
from vahalite_bot.rules.state import GameState


@dataclass
class Context:
    state: GameState
    dice: DiceStream
    events: list[Event] = field(default_factory=list)

    def roll(self, purpose: str) -> Die:
        position = self.state.dice_position
        value = self.dice.roll(position, purpose)
        if not 1 <= value <= 6:
            raise ValueError(f"dice stream gave {value} for a d6")
        self.state.dice_position = position + 1
        return Die(position, purpose, value)

    def roll_many(self, count: int, purpose: str) -> tuple[Die, ...]:
        return tuple(self.roll(purpose) for _ in range(count))

    def emit(self, event: Event) -> None:
        self.events.append(event)
