"""Invariants over thousands of random games (hypothesis chooses seeds, maps and player counts)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mapkit.engine import CARD_NAMES, Game
from mapkit.engine.cards import FREE
from mapkit.engine.record import record_from_history, replay
from mapkit.engine.seats import seat_seed
from mapkit.engine.testing import tiny_map
from mapkit.mapfile import load_map

ROOT = Path(__file__).resolve().parent.parent
METRO = ROOT / "benchmarks" / "maps" / "metro-city.json"

MAPS = [
    tiny_map(
        {
            "A": {"stops": ["a1", "x", "a3", "m", "a5"], "windows": 3},
            "L": {"stops": ["l1", "m", "l3", "l4", "y"], "loop": True, "windows": 2},
            "B": {"stops": ["b1", "l3", "x", "b4"], "windows": 2},
        },
        special=("x", "y"),
        map_id="props",
    ),
    load_map(ROOT / "examples" / "games" / "maps" / "ring.json"),
    load_map(ROOT / "examples" / "games" / "maps" / "spark.json"),
]
if METRO.exists():
    MAPS.append(load_map(METRO))

GAMES = {}


def game_for(i: int, players: int, special: bool) -> Game:
    key = (i, players, special)
    if key not in GAMES:
        GAMES[key] = Game(MAPS[i], players=players, special_stations=special)
    return GAMES[key]


def play(game: Game, seed: int, check=None):
    """A random game dealt by the seed; ``check(before, after)`` after every action."""
    rng = random.Random(seed)
    s = game.new_initial_state(seed)
    while not s.is_terminal():
        before = s.clone()
        if s.is_chance_node():
            s.deal()
        else:
            s.apply_action(rng.choice(s.legal_actions()))
        if check:
            check(before, s)
    return s


games = st.tuples(
    st.integers(0, len(MAPS) - 1), st.integers(1, 6), st.booleans(), st.integers(0, 2**32)
)


def cards_of(game: Game, history: list[int]) -> list[int]:
    s = game.new_initial_state(0)
    out = []
    for a in history:
        if s.is_chance_node():
            out.append(a)
        s.apply_action(a)
    return out


@settings(max_examples=150, deadline=None)
@given(games)
def test_windows_filled_equals_rounds_minus_free_rides(g):
    i, n, _, seed = g
    game = game_for(i, n, False)
    s = play(game, seed)
    frees = cards_of(game, s.history()).count(FREE)
    total = sum(game.tables.windows)
    for p in range(n):
        assert total - s.windows_left(p) == s.round() - frees


@settings(max_examples=100, deadline=None)
@given(games)
def test_marks_never_disappear(g):
    i, n, special, seed = g

    def check(before, after):
        for p in range(n):
            assert before.marked(p) & ~after.marked(p) == 0
            assert before.boxed(p) & ~after.boxed(p) == 0
            assert before.completed(p) & ~after.completed(p) == 0

    play(game_for(i, n, special), seed, check)


def rescore(game: Game, history: list[int]) -> list[int]:
    """Scores recomputed from the sheets alone, round by round, without the engine's race."""
    t = game.tables
    n = game.num_players()
    s = game.new_initial_state(0)
    points = [0] * n
    done = [set() for _ in range(n)]
    taken: set[int] = set()
    for a in history:
        s.apply_action(a)
        if s.is_chance_node() or s.is_terminal():
            if s.round() == 0:
                continue
            now = set()
            for p in range(n):
                for li, stops in enumerate(t.stops):
                    if li in done[p] or not all(s.marked(p) >> x & 1 for x in stops):
                        continue
                    done[p].add(li)
                    now.add(li)
                    points[p] += t.first[li] if n == 1 or li not in taken else t.others[li]
            taken |= now
    out = []
    for p in range(n):
        empty = sum(1 for x in range(t.n_stations) if not s.marked(p) >> x & 1)
        inter = sum(t.intersections[x] for x in range(t.n_stations) if s.boxed(p) >> x & 1)
        out.append(points[p] + 2 * inter - game.ruleset.penalty(empty, n))
    return out


@settings(max_examples=100, deadline=None)
@given(games)
def test_score_recomputed_from_sheet_equals_engine(g):
    i, n, special, seed = g
    game = game_for(i, n, special)
    s = play(game, seed)
    assert rescore(game, s.history()) == s.scores()


@settings(max_examples=100, deadline=None)
@given(games)
def test_replaying_record_reproduces_game(g):
    i, n, special, seed = g
    game = game_for(i, n, special)
    s = play(game, seed)
    names = [f"p{k}" for k in range(n)]
    doc = record_from_history(game, s.history(), names, seed)
    rep = replay(game.city, doc)
    assert rep.state.history() == s.history()
    assert rep.state.scores() == s.scores()
    assert [rep.state.marked(p) for p in range(n)] == [s.marked(p) for p in range(n)]
    # The rebuilt state deals the same future: the dealer depends on seed and cards only.
    assert rep.state.upcoming_cards(5) == s.upcoming_cards(5)


@settings(max_examples=150, deadline=None)
@given(games)
def test_every_card_sequence_is_one_the_deck_can_produce(g):
    i, n, special, seed = g
    game = game_for(i, n, special)
    s = game.new_initial_state(seed).random_playout(random.Random(seed))
    rules = game.ruleset  # Metro City's is metro-x, the others' voll-verplant
    counts = list(rules.counts)
    for c in cards_of(game, s.history()):
        assert counts[c] > 0, CARD_NAMES[c]
        counts[c] -= 1
        if c == rules.reshuffle:
            counts = list(rules.counts)


@settings(max_examples=150, deadline=None)
@given(games)
def test_random_playout_is_legal_and_replays_exactly(g):
    i, n, special, seed = g
    game = game_for(i, n, special)
    s = game.new_initial_state(seed).random_playout(random.Random(seed))
    r = game.new_initial_state(seed)
    for a in s.history():
        assert a in r.legal_actions()
        r.apply_action(a)
    assert r.is_terminal()
    assert r.scores() == s.scores()
    assert [r.breakdown(p) for p in range(n)] == [s.breakdown(p) for p in range(n)]


@settings(max_examples=60, deadline=None)
@given(games)
def test_clone_is_independent_and_action_moves_round_trip(g):
    i, n, special, seed = g
    game = game_for(i, n, special)
    rng = random.Random(seed)
    s = game.new_initial_state(seed)
    while not s.is_terminal():
        if s.is_chance_node():
            s.deal()
            continue
        for a in s.legal_actions():
            assert s.move_to_action(s.action_to_move(a)) == a
        c = s.clone()
        c.random_playout(rng)
        assert not s.is_terminal() and c.is_terminal()
        s.apply_action(rng.choice(s.legal_actions()))


def test_legal_actions_unique_and_nonempty_on_metro():
    game = game_for(len(MAPS) - 1, 2, False)
    s = game.new_initial_state(3)
    rng = random.Random(3)
    while not s.is_terminal():
        acts = s.legal_actions()
        assert acts and len(acts) == len(set(acts))
        if s.is_chance_node():
            s.deal()
        else:
            s.apply_action(rng.choice(acts))


# ------------------------------------------------ fast paths == the checked path


def checked_random_game(game: Game, seed: int):
    """The random bots' game through the checked API: deal, random_action, apply_action."""
    rngs = [random.Random(seat_seed(seed, p)) for p in range(game.num_players())]
    s = game.new_initial_state(seed)
    while not s.is_terminal():
        if s.is_chance_node():
            s.deal()
            continue
        a = s.random_action(rngs[s.current_player()].random)
        assert a in s.legal_actions()
        s.apply_action(a)
    return s


@settings(max_examples=150, deadline=None)
@given(games)
def test_seeded_playout_is_the_checked_game(g):
    i, n, special, seed = g
    game = game_for(i, n, special)
    fast = game.new_initial_state(seed).seeded_playout(
        [random.Random(seat_seed(seed, p)) for p in range(n)]
    )
    slow = checked_random_game(game, seed)
    assert fast.history() == slow.history()
    assert fast.scores() == slow.scores()
    for p in range(n):
        assert fast.breakdown(p) == slow.breakdown(p)
        assert fast.marked(p) == slow.marked(p) and fast.boxed(p) == slow.boxed(p)
        assert [fast.completion_round(p, li) for li in range(game.tables.n_lines)] == [
            slow.completion_round(p, li) for li in range(game.tables.n_lines)
        ]


def _slots(s) -> dict:
    return {k: getattr(s, k) for k in type(s).__slots__ if k not in ("_game", "_t")}


@settings(max_examples=80, deadline=None)
@given(games, st.integers(0, 40))
def test_seeded_playout_leaves_the_checked_state(g, cut):
    """Every field, line-local masks and completion bookkeeping included, from any point."""
    i, n, special, seed = g
    game = game_for(i, n, special)
    rngs = [random.Random(seat_seed(seed, p)) for p in range(n)]
    slow = game.new_initial_state(seed)
    for _ in range(cut):
        if slow.is_terminal():
            break
        if slow.is_chance_node():
            slow.deal()
        else:
            slow.apply_action(slow.random_action(rngs[slow.current_player()].random))
    fast = slow.clone()
    frngs = [random.Random() for _ in range(n)]
    for a, b in zip(frngs, rngs, strict=True):
        a.setstate(b.getstate())
    fast.seeded_playout(frngs)
    while not slow.is_terminal():
        if slow.is_chance_node():
            slow.deal()
        else:
            slow.apply_action(slow.random_action(rngs[slow.current_player()].random))
    assert _slots(fast) == _slots(slow)
    assert [r.getstate() for r in frngs] == [r.getstate() for r in rngs]


@settings(max_examples=60, deadline=None)
@given(games)
def test_apply_legal_equals_apply_action(g):
    i, n, special, seed = g
    game = game_for(i, n, special)
    rng = random.Random(seed)
    a, b = game.new_initial_state(seed), game.new_initial_state(seed)
    while not a.is_terminal():
        if a.is_chance_node():
            a.deal()
            b.deal()
            continue
        act = rng.choice(a.legal_actions())
        a.apply_action(act)
        b.apply_legal(act)
        assert a.history() == b.history()
        p = a.current_player()
        if p >= 0:
            assert b.windows_row(p) == [a.windows_left(p, li) for li in range(game.tables.n_lines)]
    assert a.scores() == b.scores() and b.is_terminal()


class Grid:
    """A stand-in for ``rng.random``: scripted values, then a seeded generator; counts calls."""

    def __init__(self, values: list[float]) -> None:
        self.values = values
        self.calls = 0
        self.rest = random.Random(0).random

    def __call__(self) -> float:
        self.calls += 1
        return self.values.pop(0) if self.values else self.rest()


def decision_states(game: Game, seed: int, every: int = 3):
    """Decision states of a random game (every ``every``-th decision)."""
    rng = random.Random(seed)
    s = game.new_initial_state(seed)
    k = 0
    while not s.is_terminal():
        if s.is_chance_node():
            s.deal()
            continue
        if k % every == 0:
            yield s.clone()
        k += 1
        s.apply_action(rng.choice(s.legal_actions()))


@pytest.mark.parametrize("i", range(3))
@pytest.mark.parametrize("n", [1, 2])
def test_random_action_is_uniform_over_legal_actions(i, n):
    """Each legal action is reached by exactly one first draw (free ride: one draw each),
    and every other first draw is rejected and drawn again: a uniform choice."""
    game = game_for(i, n, False)
    t = game.tables
    for seed in range(4):
        for s in decision_states(game, seed):
            legal = s.legal_actions()
            if s.card() == FREE:
                m = len(legal)
                got = [s.random_action(Grid([(j + 0.5) / m])) for j in range(m)]
                assert got == legal
                continue
            width = t.slots[s.card()]
            open_lines = sum(1 for li in range(t.n_lines) if s.windows_left(s.current_player(), li))
            span = open_lines * width
            reached = []
            for j in range(span):
                draws = Grid([(j + 0.5) / span])
                a = s.random_action(draws)
                if draws.calls == 1:  # accepted at once; otherwise rejected and drawn again
                    reached.append(a)
            assert sorted(reached) == sorted(legal)


def test_random_action_matches_rng_choice_frequencies():
    """On small states, random_action and rng.choice(legal_actions()) agree in distribution."""
    game = game_for(0, 1, False)
    for seed in range(6):
        for s in decision_states(game, seed, every=2):
            legal = s.legal_actions()
            draws = 300 * len(legal)
            rng1, rng2 = random.Random(seed), random.Random(seed + 100)
            a = [0] * len(legal)
            b = [0] * len(legal)
            pos = {x: j for j, x in enumerate(legal)}
            for _ in range(draws):
                a[pos[s.random_action(rng1.random)]] += 1
                b[pos[rng2.choice(legal)]] += 1
            # chi-square of the two samples against the uniform expectation
            exp = draws / len(legal)
            for counts in (a, b):
                chi2 = sum((c - exp) ** 2 / exp for c in counts)
                assert chi2 < 3 * len(legal) + 30
