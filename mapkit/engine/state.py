"""The game state in the OpenSpiel shape: chance nodes for cards, one decision at a time.

A round is sequentialised: the card is revealed (a chance node), then each
player who still has empty windows decides in seat order; extra special-station
actions are further decisions of the same player; the completion race is
resolved after the last decision of the round. Sheets are ints and flat int
lists so that ``clone()`` copies a handful of lists.

Actions (ints) of a player:

* line moves and free rides, laid out by :mod:`mapkit.engine.actions` (the hot loops here read
  its constants).

Chance actions are card kinds 0..7 (``cards.CARD_NAMES``).
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from mapkit.engine.actions import (
    CHOICE_MASK,
    CROSSES_MASK,
    LINE_SHIFT,
    ROUTE_FIELD,
    ROUTE_MASK,
    ROUTE_SHIFT,
    decode,
)
from mapkit.engine.cards import CARD_NAMES, CHANCE, FREE, PLUS, TERMINAL
from mapkit.engine.errors import IllegalMove
from mapkit.engine.kernel import (
    all_lines_met,
    completion_points,
    lines_of,
    nth_card,
    owed_extras,
    pick,
    race_firsts,
    seed_key,
)
from mapkit.engine.scoring import Breakdown, paying_units, ranks
from mapkit.engine.tables import KIND_BITS

if TYPE_CHECKING:
    from mapkit.engine.game import Game


class State:
    """One point of a game. Build it with ``Game.new_initial_state(seed)``."""

    __slots__ = (
        "_bonus",
        "_bonus_taken",
        "_boxed",
        "_card",
        "_counts",
        "_cur",
        "_done",
        "_earned",
        "_firsts",
        "_game",
        "_history",
        "_inter",
        "_is_extra",
        "_local",
        "_lpts",
        "_marked",
        "_n",
        "_newly",
        "_paid",
        "_pending",
        "_round",
        "_seed",
        "_smix",
        "_t",
        "_taken",
        "_total",
        "_unfinished",
        "_when",
        "_win",
        "_wleft",
    )

    def __init__(self, game: Game, seed: int) -> None:
        t = game.tables
        n = game.num_players()
        self._game = game
        self._t = t
        self._n = n
        self._seed = seed
        self._smix = seed_key(seed)
        self._counts = array("q", game.ruleset.counts)
        self._total = game.ruleset.deck_size
        self._cur = CHANCE
        self._card = -1
        self._round = 0
        self._marked = [0] * n
        self._local = [0] * (n * t.n_lines)
        self._win = list(t.windows) * n
        self._wleft = [sum(t.windows)] * n
        self._unfinished = n
        self._inter: list[tuple[int, ...]] = [()] * n
        self._boxed = [0] * n
        self._done = [0] * n
        self._firsts = [0] * n
        self._lpts = [0] * n
        self._newly = [0] * n
        self._paid = [array("q", bytes(8 * t.n_lines)) for _ in range(n)]
        self._when = [0] * (n * t.n_units)
        self._taken = 0
        self._bonus = [-1] * n  # the all-lines bonus scored, -1 while not met
        self._bonus_taken = 0
        self._pending = 0
        self._is_extra = False
        self._earned = 0
        self._history: list[int] = []

    # ----------------------------------------------------------------- copying
    def clone(self) -> State:
        """An independent copy: a few list copies, no deep copy."""
        s = State.__new__(State)
        s._game = self._game
        s._t = self._t
        s._n = self._n
        s._seed = self._seed
        s._smix = self._smix
        s._counts = self._counts[:]
        s._total = self._total
        s._cur = self._cur
        s._card = self._card
        s._round = self._round
        s._marked = self._marked[:]
        s._local = self._local[:]
        s._win = self._win[:]
        s._wleft = self._wleft[:]
        s._unfinished = self._unfinished
        s._inter = self._inter[:]
        s._boxed = self._boxed[:]
        s._done = self._done[:]
        s._firsts = self._firsts[:]
        s._lpts = self._lpts[:]
        s._newly = self._newly[:]
        s._paid = [a[:] for a in self._paid]
        s._when = self._when[:]
        s._taken = self._taken
        s._bonus = self._bonus[:]
        s._bonus_taken = self._bonus_taken
        s._pending = self._pending
        s._is_extra = self._is_extra
        s._earned = self._earned
        s._history = self._history[:]
        return s

    __copy__ = clone

    # ------------------------------------------------------------ observation
    @property
    def game(self) -> Game:
        return self._game

    @property
    def seed(self) -> int:
        return self._seed

    def current_player(self) -> int:
        """``CHANCE`` (-1) before a card is revealed, ``TERMINAL`` (-4) at the end, else a seat."""
        return self._cur

    def is_chance_node(self) -> bool:
        return self._cur == CHANCE

    def is_terminal(self) -> bool:
        return self._cur == TERMINAL

    def num_players(self) -> int:
        return self._n

    def card(self) -> int:
        """The card kind revealed this round, or -1 before the reveal."""
        return self._card

    def card_name(self) -> str | None:
        return CARD_NAMES[self._card] if self._card >= 0 else None

    def round(self) -> int:
        """Rounds completed so far (the round being played is ``round() + 1``)."""
        return self._round

    def history(self) -> list[int]:
        """Every action so far, chance (card kinds) and player actions interleaved."""
        return self._history[:]

    def is_extra_action(self) -> bool:
        """True when the current decision is an extra special-station action."""
        return self._is_extra

    def pending_extras(self) -> int:
        """Extra actions still owed to the current player after this decision."""
        return self._pending

    def last_earned(self) -> int:
        """Extra actions the last applied move earned (special stations it marked)."""
        return self._earned

    def draw_pile(self) -> dict[str, int]:
        """Cards still in the draw pile, by name (the unseen cards a bot may reason about)."""
        return {CARD_NAMES[k]: c for k, c in enumerate(self._counts) if c}

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``(card kind, probability)`` for each card still in the draw pile."""
        tot = self._total
        return [(k, c / tot) for k, c in enumerate(self._counts) if c]

    def marked(self, player: int) -> int:
        """The player's marked stations as a bitmask over station indices."""
        return self._marked[player]

    def line_mask(self, player: int, line: int) -> int:
        """Marked stops of a line as a bitmask over its stop positions."""
        return self._local[player * self._t.n_lines + line]

    def windows_left(self, player: int, line: int | None = None) -> int:
        if line is None:
            return self._wleft[player]
        return self._win[player * self._t.n_lines + line]

    def windows_row(self, player: int) -> list[int]:
        """Windows left on every line of a player, in line order, in one call (a new list)."""
        L = self._t.n_lines
        return self._win[player * L : player * L + L]

    def completion_round(self, player: int, unit: int) -> int:
        """The round (1-based) whose resolution completed scoring unit ``unit`` (on a plain
        map: line ``unit``) for the player, or 0."""
        return self._when[player * self._t.n_units + unit]

    def boxed(self, player: int) -> int:
        """Stations carrying an interchange number, as a bitmask."""
        return self._boxed[player]

    def interchanges(self, player: int) -> tuple[int, ...]:
        """Interchange numbers written, in the order they were written."""
        return self._inter[player]

    def completed(self, player: int) -> int:
        """Scoring units completed (as of the last resolved round), as a bitmask over unit
        indices (``Tables.units``; line indices on a map with no branching line)."""
        return self._done[player]

    def completed_first(self, player: int) -> int:
        return self._firsts[player]

    def taken(self) -> int:
        """Scoring units someone has completed in a resolved round (their ``first`` is gone)."""
        return self._taken

    def line_points(self, player: int) -> int:
        return self._lpts[player]

    # ---------------------------------------------------------------- scoring
    def empty_stations(self, player: int) -> int:
        return self._t.n_stations - self._marked[player].bit_count()

    def score(self, player: int) -> int:
        return (
            self._lpts[player]
            + self._game.ruleset.interchange_points(self._inter[player])
            - self._game.ruleset.penalty(self.empty_stations(player), self._n)
        )

    def scores(self) -> list[int]:
        return [self.score(p) for p in range(self._n)]

    def returns(self) -> list[float]:
        """Final scores (the current totals if the game is not over)."""
        return [float(self.score(p)) for p in range(self._n)]

    def breakdown(self, player: int) -> Breakdown:
        t = self._t
        done, firsts = self._done[player], self._firsts[player]
        completed = paying_units(
            t.city,
            {
                unit.label: (unit.first if firsts >> u & 1 else unit.others)
                for u, unit in enumerate(t.units)
                if done >> u & 1
            },
        )
        return Breakdown(
            completed, self._inter[player], self.empty_stations(player), self._n,
            self._game.ruleset, self.all_lines_bonus(player),
        )  # fmt: skip

    def ranks(self) -> list[int]:
        empty = [self.empty_stations(p) for p in range(self._n)]
        return ranks(self.scores(), empty, self._game.ruleset.tie_break)

    # ------------------------------------------------------------ legality
    def legal_actions(self, player: int | None = None) -> list[int]:
        """The actions of the player to decide (or the card kinds at a chance node)."""
        cur = self._cur
        if cur == CHANCE:
            return [k for k, c in enumerate(self._counts) if c]
        if cur < 0 or (player is not None and player != cur):
            return []
        t = self._t
        c = self._card
        if c == FREE:
            m = self._marked[cur]
            fb = t.free_base
            return [fb + s for s in range(t.n_stations) if not m >> s & 1] + [fb + t.n_stations]
        acts: list[int] = []
        L = t.n_lines
        base = cur * L
        win = self._win
        local = self._local
        multi = t.multi_route
        cmemo = t.choice_memo
        choices = t.choices
        for li in range(L):
            if not win[base + li]:
                continue
            lm = local[base + li]
            x = cmemo[li].get(lm << KIND_BITS | c) or choices(li, lm, c)
            a0 = li << LINE_SHIFT
            if multi[li]:
                acts.extend([a0 | y for y in x])
            else:
                acts.extend(range(a0, a0 + len(x)))
        return acts

    def is_legal(self, action: int) -> bool:
        try:
            self.check(action)
        except IllegalMove:
            return False
        return True

    def is_listed(self, action: int) -> bool:
        """``action in legal_actions()``, read from the rule table without building the list.

        Listed actions are legal; a backward loop move equal to a forward one is legal
        but listed as the forward move (``canonical``), so this is stricter than ``is_legal``.
        """
        cur = self._cur
        if cur < 0:
            return action in self.legal_actions()
        t = self._t
        c = self._card
        if c == FREE:
            s = action - t.free_base
            if s == t.n_stations:
                return True
            return 0 <= s < t.n_stations and not self._marked[cur] >> s & 1
        if not 0 <= action < t.free_base:
            return False
        li = action >> LINE_SHIFT
        i = cur * t.n_lines + li
        return bool(self._win[i]) and (action & CHOICE_MASK) in t.choices(li, self._local[i], c)

    def check(self, a: int) -> None:
        """Raise IllegalMove naming the rule when ``a`` is not legal here."""
        cur = self._cur
        t = self._t
        if cur == TERMINAL:
            raise IllegalMove("the game is over")
        if cur == CHANCE:
            if not 0 <= a < len(CARD_NAMES):
                raise IllegalMove(f"{a} is not a card")
            if not self._counts[a]:
                raise IllegalMove(
                    f"card {CARD_NAMES[a]!r} cannot be revealed: no copy of it is left"
                    " in the draw pile"
                )
            return
        c = self._card
        fb = t.free_base
        if c == FREE:
            s = a - fb
            if not 0 <= s <= t.n_stations:
                raise IllegalMove("a free ride marks one station or none; it fills no window")
            if s < t.n_stations and self._marked[cur] >> s & 1:
                raise IllegalMove(
                    f"station {t.station_ids[s]} is already marked: a free ride needs an"
                    " empty station"
                )
            return
        if not 0 <= a < fb:
            raise IllegalMove(f"a {CARD_NAMES[c]} card is played on a line, not a station")
        li, d, k = decode(a)
        lid = t.line_ids[li]
        if not self._win[cur * t.n_lines + li]:
            raise IllegalMove(f"line {lid} has no empty window")
        branches = len(t.city.lines[li].branches)
        if d >= len(t.routes[li]):
            raise IllegalMove(
                f"line {lid} has branches 1 to {branches}, not {d + 1}"
                if branches
                else f"line {lid} is travelled one way only (not a loop, not two-ended): it has"
                " no direction"
            )
        lm = self._local[cur * t.n_lines + li]
        if c == PLUS:
            if k:
                raise IllegalMove("an interchange places no crosses")
            return
        e = t.entry(li, d, lm)
        m = e.most_crosses(c)
        if k > m:
            raise IllegalMove(
                f"more crosses than possible: {k} crosses on line {lid}"
                f"{f' branch {d + 1}' if branches else ' backward' if d else ''}, but the"
                f" {CARD_NAMES[c]} card allows at most {m}"
            )

    def canonical(self, a: int) -> int:
        """The listed legal action equal to a legal ``a``.

        A move on a later route (a loop's backward, a two-ended line's far end, a branch past
        the first) that marks exactly what an earlier route's move marks is listed once, as
        the earliest route's (``kernel.canonical_move``).
        """
        if self._cur < 0 or self._card == FREE or not a & ROUTE_FIELD:
            return a
        t = self._t
        li, d, k = decode(a)
        lm = self._local[self._cur * t.n_lines + li]
        return t.canonical(li, lm, d, k, self._card)

    # ---------------------------------------------------------------- moving
    def apply_action(self, action: int) -> None:
        """Reveal a card (at a chance node) or play the current player's action; checked."""
        self.check(action)
        if self._cur == CHANCE:
            self._counts[action] -= 1
            self._total -= 1
            self._reveal(action)
        else:
            self._do(self.canonical(action))

    def apply_legal(self, action: int) -> None:
        """``apply_action`` without the check, for an action known to be legal here.

        For actions listed by ``legal_actions()``, returned by ``random_action`` or
        confirmed by ``is_legal`` (the bots' loop in ``mapkit simulate``). Anything else
        goes through ``apply_action``: an illegal action here corrupts the state.
        """
        if self._cur == CHANCE:
            self._counts[action] -= 1
            self._total -= 1
            self._reveal(action)
        else:
            self._do(self.canonical(action) if action & ROUTE_FIELD else action)

    def random_action(self, rand: Callable[[], float]) -> int:
        """A uniformly random legal action, drawing uniform floats in [0, 1) from ``rand``.

        The random bot's choice: the same distribution as ``rng.choice(legal_actions())``,
        without building the list. A line card draws (open line, slot) pairs uniformly
        and accepts slot ``j`` when the line's rule table (``Tables.choices``, what
        ``legal_actions`` lists) has a ``j``-th move: each legal action is exactly one
        accepted pair. A free ride picks among the empty stations and "none" at once.
        """
        cur = self._cur
        if cur < 0:
            acts = self.legal_actions()
            if not acts:
                raise IllegalMove("the game is over")
            return acts[int(rand() * len(acts))]
        t = self._t
        c = self._card
        if c == FREE:
            z = ~self._marked[cur] & t.all_mask
            for _ in range(int(rand() * (z.bit_count() + 1))):
                z &= z - 1
            return t.free_base + ((z & -z).bit_length() - 1 if z else t.n_stations)
        L = t.n_lines
        base = cur * L
        win = self._win
        local = self._local
        cmemo = t.choice_memo
        ol = [li for li in range(L) if win[base + li]]
        width = t.slots[c]
        span = len(ol) * width
        while True:
            j = int(rand() * span)
            li = ol[j // width]
            lm = local[base + li]
            x = cmemo[li].get(lm << KIND_BITS | c) or t.choices(li, lm, c)
            j %= width
            if j < len(x):
                return li << LINE_SHIFT | x[j]

    def deal(self) -> int:
        """Reveal the next card of this game's seeded deck and return its kind.

        The card depends only on the seed, the round and the cards left, so a
        state rebuilt from a record deals the same future as the original.
        """
        if self._cur != CHANCE:
            raise IllegalMove("no card is to be revealed now")
        counts = self._counts
        k = nth_card(counts, pick(self._smix, self._round, self._total))
        counts[k] -= 1
        self._total -= 1
        self._reveal(k)
        return k

    def upcoming_cards(self, n: int) -> list[int]:
        """The next ``n`` cards ``deal()`` will reveal (the seeded order: for clairvoyant bots).

        The order depends only on the seed and the cards, never on the moves.
        """
        counts = self._counts[:]
        total = self._total
        rnd = self._round
        last = self._card
        out: list[int] = []
        rules = self._game.ruleset
        if last >= 0:
            rnd += 1
            if last == rules.reshuffle:
                counts, total = array("q", rules.counts), rules.deck_size
        for _ in range(n):
            k = nth_card(counts, pick(self._smix, rnd, total))
            counts[k] -= 1
            total -= 1
            out.append(k)
            rnd += 1
            if k == rules.reshuffle:
                counts, total = array("q", rules.counts), rules.deck_size
        return out

    def _reveal(self, c: int) -> None:
        self._card = c
        self._history.append(c)
        wleft = self._wleft
        q = 0
        while not wleft[q]:
            q += 1
        self._cur = q

    def _do(self, a: int) -> None:
        """Play a legal action for the current player (no checks)."""
        p = self._cur
        t = self._t
        c = self._card
        self._history.append(a)
        nsp = 0
        upd: Any = ()
        if c == FREE:
            s = a - t.free_base
            if s < t.n_stations:
                self._marked[p] |= 1 << s
                upd = t.station_upd[s]
        else:
            L = t.n_lines
            li = a >> LINE_SHIFT
            i = p * L + li
            self._win[i] -= 1
            self._wleft[p] -= 1
            if not self._wleft[p]:
                self._unfinished -= 1
            k = a & CROSSES_MASK
            d = a >> ROUTE_SHIFT & ROUTE_MASK
            if c == PLUS:
                e = t.entry(li, d, self._local[i])
                if e.entry >= 0:
                    g, upd, nsp = e.outcomes[1]
                    self._marked[p] |= g
                    self._boxed[p] |= g
                    self._inter[p] = (*self._inter[p], t.intersections[e.entry])
            elif k:
                lm = self._local[i]
                e = t.memo[li][d].get(lm) or t.entry(li, d, lm)
                g, upd, nsp = e.outcomes[k]
                self._marked[p] |= g
        if upd:
            self._set_lines(p, upd)
        if self._game.special_stations:
            self._earned = 0 if c == FREE else nsp
            owed = owed_extras(c, self._pending, nsp, self._wleft[p])
            if owed >= 0:
                self._pending = owed
                self._is_extra = True
                return
            self._pending = 0
            self._is_extra = False
        wleft = self._wleft
        q = p + 1
        n = self._n
        while q < n and not wleft[q]:
            q += 1
        if q < n:
            self._cur = q
        else:
            self._end_round()

    def _set_lines(self, p: int, upd: Any) -> None:
        """Set ``(line, line-local bits)`` of ``upd`` on seat ``p``'s sheet; the scoring units
        this completes are raced at the end of the round."""
        local = self._local
        base = p * self._t.n_lines
        unit_masks = self._t.unit_masks
        nw = 0
        for lj, b in upd:
            was = local[base + lj]
            x = was | b
            local[base + lj] = x
            for u, m in unit_masks[lj]:
                if x & m == m and was & m != m:
                    nw |= 1 << u
        if nw:
            self._newly[p] |= nw

    def _end_round(self) -> None:
        newly = self._newly
        n = self._n
        if any(newly):
            t = self._t
            taken = self._taken
            now = 0
            for p in range(n):
                nw = newly[p]
                if not nw:
                    continue
                now |= nw
                self._done[p] |= nw
                first = race_firsts(n, nw, taken)
                self._firsts[p] |= first
                self._lpts[p] += completion_points(t.kernel, nw, first, self._paid[p])
                base = p * t.n_units
                rnd = self._round + 1
                for li in range(t.n_units):
                    if nw >> li & 1:
                        self._when[base + li] = rnd
                newly[p] = 0
            self._taken = taken | now
        if self._t.all_lines[0]:
            self._all_lines_race()
        rules = self._game.ruleset
        if self._card == rules.reshuffle:
            self._counts = array("q", rules.counts)
            self._total = rules.deck_size
        self._round += 1
        self._card = -1
        self._cur = TERMINAL if not self._unfinished else CHANCE

    def _all_lines_race(self) -> None:
        """Rules-notes 22 (``kernel.all_lines_met``, ``kernel.race_firsts``)."""
        t = self._t
        cond, first, others = t.all_lines
        L, n = t.n_lines, self._n
        now = 0
        for p in range(n):
            if self._bonus[p] >= 0:
                continue
            local = self._local[p * L : (p + 1) * L]
            lines = sum(1 << li for li, lm in enumerate(local) if lm)
            if all_lines_met(cond, L, lines_of(t.kernel, self._done[p]), lines):
                now = 1
                self._bonus[p] = first if race_firsts(n, 1, self._bonus_taken) else others
                self._lpts[p] += self._bonus[p]
        self._bonus_taken |= now

    def all_lines_open(self, player: int) -> int:
        """The all-lines bonus points ``player`` can still score: ``first``, ``others`` once
        someone met it in an earlier round (``kernel.race_firsts``), 0 once met or without
        one (what the bots aim for)."""
        cond, first, others = self._t.all_lines
        if not cond or self._bonus[player] >= 0:
            return 0
        return first if race_firsts(self._n, 1, self._bonus_taken) else others

    def all_lines_bonus(self, player: int) -> int:
        """The all-lines bonus points ``player`` has scored (0 while not met, or without one)."""
        return max(self._bonus[player], 0)

    # --------------------------------------------------------------- playouts
    def random_playout(self, rng: Any) -> State:
        """Play to the end: cards drawn from the pile with ``rng``, uniformly random legal
        actions (``random_action``), through the one game loop (``engine.playout``). Returns
        ``self``. Whole games at speed: the kernel (``mapkit.engine.kernel``)."""
        from mapkit.engine.playout import RandomSeat, play_out

        rand = rng.random

        def deal(state: State) -> None:
            state.apply_legal(nth_card(state._counts, int(rand() * state._total)))

        return play_out(self, [RandomSeat(rand)] * self._game.num_players(), deal)

    def seeded_playout(self, rngs: Sequence[Any]) -> State:
        """Play to the end with the seeded deck (``deal()``), seat ``p`` choosing
        ``random_action(rngs[p].random)``: the random bots' game, through the one game loop
        (``engine.playout``). Returns ``self``."""
        from mapkit.engine.playout import RandomSeat, play_out

        return play_out(self, [RandomSeat(r.random) for r in rngs])

    # ------------------------------------------------------------ moves/text
    def action_to_move(self, action: int) -> dict[str, Any]:
        """The record's move dict for an action of the current card."""
        return self._game.action_to_move(action, self._card)

    def move_to_action(self, move: dict[str, Any]) -> int:
        """The legal action for a record move dict (``then`` is ignored); IllegalMove if none."""
        return self._game.move_to_action(move, self)

    def action_to_string(self, action: int) -> str:
        if self._cur == CHANCE:
            return f"card {CARD_NAMES[action]}"
        return self._game.move_to_string(self.action_to_move(action))

    def __str__(self) -> str:
        from mapkit.engine.text import state_text

        return state_text(self)

    def __repr__(self) -> str:
        return (
            f"<State {self._game.city.id} round={self._round + (self._card >= 0)}"
            f" card={self.card_name()} player={self._cur}>"
        )
