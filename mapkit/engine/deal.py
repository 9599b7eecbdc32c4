"""The seeded dealer: which card a round reveals, from the seed alone.

A counter-based hash (splitmix64 of seed and round) instead of a generator, so a
state clones without copying generator state and a state rebuilt from a record
deals the same future. ``deal()``, ``upcoming_cards()`` and the kernel
(which compiles :func:`mix`) all draw through it.
"""

from __future__ import annotations

M64 = (1 << 64) - 1


def mix(x: int) -> int:
    """splitmix64 finaliser."""
    x = (x + 0x9E3779B97F4A7C15) & M64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & M64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & M64
    return x ^ (x >> 31)


def seed_key(seed: int) -> int:
    """The per-state hash of the seed, computed once."""
    return mix(seed & M64)


def pick(key: int, rnd: int, total: int) -> int:
    """Index (0 <= i < total) of the card round ``rnd`` reveals among the cards left."""
    return mix(key ^ rnd) % total
