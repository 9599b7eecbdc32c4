"""Rulesets as data: the deck, how an interchange is written, the empty-station penalty, the
tie-break and the player counts of each published edition.

The one place these facts live. The game kernel builds its deck and penalty arrays from a
:class:`Ruleset`, the checked engine and the bots read the same object, and the back page's
rules text and the card sheet are written from it, so a ruleset is added here and nowhere
else. Card *kinds* (what a card does: a number, an express, an interchange, a free ride) are
the card table of :mod:`mapkit.cards`; a ruleset says how many of each are in its deck.

A map names its ruleset (``"ruleset"``: a name here, or an object that derives one from a
base, see :func:`ruleset_from_doc`); ``--ruleset`` overrides it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from mapkit.cards import CARD_BY_NAME, CARD_NAMES, FREE, N6, PLUS

INTERCHANGE_MODES = ("doubled", "written-twice")
"""How an interchange is written: the line count, doubled at scoring (Voll verplant), or twice
the line count at once (Metro X's transfer). Both score twice the line count."""

TIE_BREAKS = ("fewer-empty", "shared")
"""Equal scores split by fewer empty stations (the rulebook), or shared outright."""

PENALTY_KINDS = ("halved", "table")

WEIGHT_SPAN = 20
"""The bots weigh an empty station by the penalty's mean cost over its first twenty."""


class RulesetError(ValueError):
    """A ruleset that cannot be played: an unknown name, an empty deck, no reshuffle card."""


@dataclass(frozen=True)
class Penalty:
    """What empty stations cost at the end.

    ``halved``: every empty station costs a point solo and half a point (rounded down) with
    several players (Voll verplant), or a point always when ``solo_halved`` is set.
    ``table``: ``steps`` are ``(empty stations from, points)`` in ascending order, the cost of
    the highest step reached, solo and multiplayer alike (Metro X).
    """

    kind: str = "halved"
    steps: tuple[tuple[int, int], ...] = ()
    solo_halved: bool = False

    def __call__(self, empty: int, players: int) -> int:
        if self.kind == "halved":
            return empty // 2 if players > 1 or self.solo_halved else empty
        cost = 0
        for start, points in self.steps:
            if empty < start:
                break
            cost = points
        return cost

    def describe(self, solo: bool) -> str:
        """The penalty in words, for the back page and ``mapkit rules``."""
        if self.kind == "halved":
            return (
                "1 point per empty station"
                if solo and not self.solo_halved
                else "1 point per 2 empty stations (rounded down)"
            )
        parts = [f"0-{self.steps[0][0] - 1}: 0"] if self.steps[0][0] > 0 else []
        for i, (start, points) in enumerate(self.steps):
            end = self.steps[i + 1][0] - 1 if i + 1 < len(self.steps) else None
            span = (
                f"{start}+" if end is None else (str(start) if end == start else f"{start}-{end}")
            )
            parts.append(f"{span}: -{points}")
        return "empty stations cost " + ", ".join(parts)


@dataclass(frozen=True)
class Ruleset:
    """One edition's rules as data (the kernel, engine, bots, checks and renderer read it)."""

    id: str
    name: str
    counts: tuple[int, ...]
    game: str = "Voll verplant"
    """The game's title, as the card backs print it."""
    """Copies of each card kind in the deck, in :data:`mapkit.cards.CARD_NAMES` order."""
    reshuffle: int = N6
    """The card kind after whose round every card returns to the pile."""
    interchange: str = "doubled"
    penalty: Penalty = field(default_factory=Penalty)
    tie_break: str = "fewer-empty"
    min_players: int = 1
    max_players: int = 6
    labels: tuple[tuple[int, str], ...] = ()
    """``(card kind, printed name)`` where the edition prints another name than the record's."""
    source: str = ""
    """Where the facts come from (shown by ``mapkit rules --rulesets``)."""

    @property
    def deck(self) -> tuple[int, ...]:
        """Every card of a full pile, kind by kind."""
        return tuple(k for k, n in enumerate(self.counts) for _ in range(n))

    @property
    def deck_size(self) -> int:
        return sum(self.counts)

    @property
    def kinds(self) -> tuple[int, ...]:
        """The card kinds in this deck, in kind order."""
        return tuple(k for k, n in enumerate(self.counts) if n)

    @property
    def card_names(self) -> tuple[str, ...]:
        """The record names of the cards in this deck, in kind order."""
        return tuple(CARD_NAMES[k] for k in self.kinds)

    def label(self, kind: int) -> str:
        """A card kind as this edition prints it."""
        return dict(self.labels).get(kind, CARD_NAMES[kind])

    def written(self, count: int) -> int:
        """The number an interchange writes at a station on ``count`` lines."""
        return 2 * count if self.interchange == "written-twice" else count

    def interchange_points(self, counts: tuple[int, ...]) -> int:
        """What interchanges score: twice the line counts in every edition."""
        return 2 * sum(counts)

    def empty_weight(self, players: int) -> float:
        """The bots' weight of one empty station: the penalty's mean cost per station over the
        first :data:`WEIGHT_SPAN` (1 solo and 0.5 with several players in Voll verplant)."""
        return self.penalty(WEIGHT_SPAN, players) / WEIGHT_SPAN

    def to_doc(self) -> str | dict[str, Any]:
        """The map's ``"ruleset"`` that :func:`ruleset_from_doc` reads back as this ruleset."""
        if self.id in RULESETS:
            return self.id
        p = self.penalty
        penalty: str | list[list[int]] = (
            [list(step) for step in p.steps]
            if p.kind == "table"
            else ("halved-always" if p.solo_halved else "halved")
        )
        return {
            "base": self.id.split("+")[0],
            "name": self.name,
            "deck": {CARD_NAMES[k]: n for k, n in enumerate(self.counts) if n},
            "reshuffle": CARD_NAMES[self.reshuffle],
            "interchange": self.interchange,
            "penalty": penalty,
            "tie_break": self.tie_break,
            "players": [self.min_players, self.max_players],
        }

    def players_ok(self, n: int) -> bool:
        return self.min_players <= n <= self.max_players

    def check_players(self, n: int) -> None:
        """ValueError unless this ruleset is played by ``n`` players: the one check of a
        table's size (a game, a replay, the commands' ``--players`` and ``--bots``)."""
        if not self.players_ok(n):
            raise ValueError(
                f"{self.id} is played by {self.min_players} to {self.max_players} players, not {n}"
            )

    def problems(self) -> list[str]:
        """Why this ruleset cannot be played (empty: it can)."""
        out = []
        if len(self.counts) != len(CARD_NAMES) or any(n < 0 for n in self.counts):
            out.append(f"the deck needs a count of 0 or more for each of {len(CARD_NAMES)} kinds")
        elif not any(n for k, n in enumerate(self.counts) if k not in (PLUS, FREE)):
            out.append("the deck has no number or express card: no line could ever be crossed")
        if not 0 <= self.reshuffle < len(CARD_NAMES) or not self.counts[self.reshuffle]:
            out.append("the deck has no reshuffle card: the pile would run out")
        if self.interchange not in INTERCHANGE_MODES:
            out.append(f"interchange must be one of {', '.join(INTERCHANGE_MODES)}")
        if self.tie_break not in TIE_BREAKS:
            out.append(f"tie_break must be one of {', '.join(TIE_BREAKS)}")
        if not 1 <= self.min_players <= self.max_players <= 6:
            out.append("players must be a range within 1 to 6")
        p = self.penalty
        if p.kind not in PENALTY_KINDS:
            out.append(f"penalty must be one of {', '.join(PENALTY_KINDS)}")
        elif p.kind == "table" and (
            not p.steps or [s for s, _ in p.steps] != sorted({s for s, _ in p.steps})
        ):
            out.append("a penalty table needs steps in ascending order of empty stations")
        return out


def _counts(**by_name: int) -> tuple[int, ...]:
    names = {"n2": "2", "n3": "3", "n4": "4", "n5": "5", "n6": "6", "plus": "+"}
    counts = [0] * len(CARD_NAMES)
    for key, n in by_name.items():
        counts[CARD_BY_NAME[names.get(key, key)]] = n
    return tuple(counts)


VOLL_VERPLANT = Ruleset(
    id="voll-verplant",
    name="Voll verplant (Schmidt Spiele, 2021)",
    counts=_counts(n3=2, n4=3, n5=2, n6=1, x2=2, x3=1, plus=2, free=1),
    source="the rulebook (14 cards; rules-notes 14-15)",
)
METRO_X = Ruleset(
    id="metro-x",
    name="Metro X (Gamewright, 2020)",
    game="Metro X",
    counts=_counts(n3=3, n4=3, n5=2, n6=1, x2=2, x3=1, plus=2, free=1),
    interchange="written-twice",
    penalty=Penalty(
        "table",
        ((5, 1), (6, 2), (7, 3), (8, 4), (10, 5), (12, 6), (14, 7), (16, 8), (18, 9), (20, 10)),
    ),
    labels=((CARD_BY_NAME["x2"], "Skip 2"), (CARD_BY_NAME["x3"], "Skip 3"), (PLUS, "Transfer")),
    source="Gamewright's English edition, as fan projects transcribe it (15 cards)",
)
METRO_X_OKAZU = replace(
    METRO_X,
    id="metro-x-okazu",
    name="Metro X (OKAZU Brand, 2018)",
    counts=_counts(n2=2, n3=4, n4=5, n5=2, n6=1, x2=2, x3=1, plus=3, free=1),
    labels=((CARD_BY_NAME["x2"], "②"), (CARD_BY_NAME["x3"], "③"), (PLUS, "☆")),
    source="the Japanese original, from two independent fan codings (21 cards)",
)

RULESETS: dict[str, Ruleset] = {r.id: r for r in (VOLL_VERPLANT, METRO_X, METRO_X_OKAZU)}
DEFAULT_RULESET = VOLL_VERPLANT.id


def summary(r: Ruleset) -> list[tuple[str, str]]:
    """A ruleset's facts as (what, value) rows, for ``mapkit rules --rulesets`` and the docs."""
    deck = ", ".join(
        f"{n} × {r.label(k)}" + (f" ({CARD_NAMES[k]})" if r.label(k) != CARD_NAMES[k] else "")
        for k, n in enumerate(r.counts)
        if n
    )
    interchange = (
        "writes twice the line count" if r.interchange == "written-twice"
        else "writes the line count, doubled at scoring"
    )  # fmt: skip
    tie = "fewer empty stations" if r.tie_break == "fewer-empty" else "shared place"
    return [
        ("edition", r.name),
        ("deck", f"{r.deck_size} cards: {deck}"),
        ("reshuffle", f"after the round of the {r.label(r.reshuffle)}"),
        ("interchange", interchange),
        ("penalty solo", r.penalty.describe(solo=True)),
        ("penalty 2+", r.penalty.describe(solo=False)),
        ("tie-break", tie),
        ("players", f"{r.min_players} to {r.max_players}"),
        ("source", r.source),
    ]


def rulesets_text() -> str:
    """Every published ruleset, as ``mapkit rules --rulesets`` prints it."""
    out = []
    for r in RULESETS.values():
        out.append(r.id + (" (default)" if r.id == DEFAULT_RULESET else ""))
        out.extend(f"  {what:<13}{value}" for what, value in summary(r))
        out.append("")
    return "\n".join(out)


def rulesets_markdown() -> str:
    """The rulesets page (docs/rulesets.md), generated from the registry."""
    out = [
        "# Rulesets",
        "",
        "Generated by `mapkit rules --rulesets --markdown` from `mapkit/rulesets.py`; a test",
        'fails when this page is stale. A map names its ruleset (`"ruleset": "metro-x"`,',
        "or an object that changes a base, see [map-format.md](map-format.md)); `--ruleset`",
        "overrides it in `simulate`, `report`, `compare`, `replay` and `render`.",
        "",
    ]
    for r in RULESETS.values():
        out += [f"## {r.id}", "", "| | |", "|---|---|"]
        out += [f"| {what} | {value} |" for what, value in summary(r)]
        out.append("")
    return "\n".join(out)


def get_ruleset(name: str) -> Ruleset:
    """The ruleset of that name; :class:`RulesetError` naming the known ones otherwise."""
    try:
        return RULESETS[name]
    except KeyError:
        known = ", ".join(RULESETS)
        raise RulesetError(f"unknown ruleset {name!r}: the rulesets are {known}") from None


def ruleset_from_doc(value: str | Mapping[str, Any] | None) -> Ruleset:
    """A map's ``"ruleset"``: a name, or ``{"base": NAME, "deck": {card: count}, "reshuffle":
    card, "interchange": ..., "penalty": "halved" | [[from, points], ...], "tie_break": ...,
    "players": [min, max], "name": ...}`` (every key but ``base`` optional).
    :class:`RulesetError` for a ruleset that cannot be played."""
    if value is None:
        return VOLL_VERPLANT
    if isinstance(value, str):
        return get_ruleset(value)
    base = get_ruleset(value.get("base", DEFAULT_RULESET))
    changes: dict[str, Any] = {"name": value.get("name", base.name)}
    if "deck" in value:
        counts = [0] * len(CARD_NAMES)
        for card, n in value["deck"].items():
            if card not in CARD_BY_NAME:
                raise RulesetError(f"unknown card {card!r}: the cards are {', '.join(CARD_NAMES)}")
            counts[CARD_BY_NAME[card]] = n
        changes["counts"] = tuple(counts)
    if "reshuffle" in value:
        card = value["reshuffle"]
        if card not in CARD_BY_NAME:
            raise RulesetError(f"unknown reshuffle card {card!r}")
        changes["reshuffle"] = CARD_BY_NAME[card]
    for key in ("interchange", "tie_break"):
        if key in value:
            changes[key] = value[key]
    if "penalty" in value:
        p = value["penalty"]
        changes["penalty"] = (
            Penalty("halved", solo_halved=p == "halved-always")
            if isinstance(p, str)
            else Penalty("table", tuple((int(a), int(b)) for a, b in p))
        )
    if "players" in value:
        changes["min_players"], changes["max_players"] = value["players"]
    ruleset = replace(base, **changes)
    problems = ruleset.problems()
    if problems:
        raise RulesetError("; ".join(problems))
    return replace(ruleset, id=f"{base.id}+{_digest(ruleset)}")


def _digest(r: Ruleset) -> str:
    """8 hex digits of what a game played under ``r`` depends on (its records name it)."""
    import hashlib

    facts = (r.counts, r.reshuffle, r.interchange, r.penalty, r.tie_break, r.min_players,
             r.max_players)  # fmt: skip
    return hashlib.sha256(repr(facts).encode()).hexdigest()[:8]
