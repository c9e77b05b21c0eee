"""Adapter-neutral presentation: the texts every adapter (terminal, Discord) shows.

Nothing here reads input or writes output; adapters pass a ``Paint`` for their styling.

- ``narrate``: events with all their dice; ``board``: the board as Unicode text;
- ``views``: status, army, odds; ``hints``: what to type next; ``rules``: a rule's text;
- ``text``: the small pieces they share (a side's name, a unit's label, dice).
"""
