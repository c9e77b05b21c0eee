"""Maximum bipartite matching (Kuhn's algorithm): small sets, exact answers."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import TypeVar

L = TypeVar("L", bound=Hashable)
R = TypeVar("R", bound=Hashable)


def max_matching(edges: Mapping[L, Sequence[R]]) -> dict[L, R]:
    """A largest set of (left, right) pairs, each side used at most once."""
    owner: dict[R, L] = {}

    def augment(left: L, seen: set[R]) -> bool:
        for right in edges[left]:
            if right in seen:
                continue
            seen.add(right)
            if right not in owner or augment(owner[right], seen):
                owner[right] = left
                return True
        return False

    for left in edges:
        augment(left, set())
    return {left: right for right, left in owner.items()}
