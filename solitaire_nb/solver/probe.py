"""A quick, *incomplete* probe for a win (`_fast_probe`), for the fast state without
automatic actions or take-backs (the castles' portfolio gives it one turn, see `portfolio`).
It parks cards in holes only where holes take any card.

It plays coarser moves (`_jumps`): a card sent home, a buried card its foundation takes dug
out (each card above it onto a top it may lie on, or into a hole) and sent home, a whole
natural run carried onto a top it may lie on or into a hole through the other holes.  It
never splits a run, so it sees far fewer positions than the game has, which is what makes
it quick; several depth-first walks in random orders of their own (the package's SplitMix64
draws, so the same on every machine) take turns and share one table.  Since its moves are
not all the game's, it may answer "won" (its line, as every line, is replayed through the
engine) but never "lost": it simply stops after its budget, or when every walk has nothing
left to try.  Freecell Solver's own fast presets (``-l cookie-monster``) win such deals the
same way, with many randomised depth-first scans over multi-card moves.
"""

from __future__ import annotations

import time

from ..core.shuffle import splitmix64
from ..engine import Game
from .fast import _Fast, _play_safe_moves, _replay_described
from .search import _leave, _Ledger
from .state import _Spec

CASTLE_PROBE = 40_000
CASTLE_PROBE_WALKS = 8
CASTLE_PROBE_QUOTA = 500
"""The probe's budget: at most CASTLE_PROBE states in all, CASTLE_PROBE_WALKS depth-first
walks taking turns of CASTLE_PROBE_QUOTA states (how they were chosen: benchmarks/RESULTS.md,
"Solver tuning history")."""


def _run_length(q: list[int], parent_bits: list[int]) -> int:
    """How many cards at the top of pile `q` form a natural run (each on a card it may lie on)."""
    n = 1
    while n < len(q) and parent_bits[q[-n]] >> q[-n - 1] & 1:
        n += 1
    return n


def _through_holes(k: int, a: int, b: int, holes: list[int]) -> list[tuple[int, int]]:
    """Single moves that carry the top `k` cards of pile `a` (a natural run) onto pile `b`,
    parking half of them in the first hole on the way and the rest recursively, so that
    ``k <= 2 ** len(holes)`` cards can travel (`b` may be a hole itself)."""
    if k == 1:
        return [(a, b)]
    park, rest = holes[0], holes[1:]
    half = k // 2
    return (
        _through_holes(half, a, park, rest)
        + _through_holes(k - half, a, b, rest)
        + _through_holes(half, park, b, rest)
    )


def _dig_out(st: _Fast, a: int, depth: int) -> list[tuple[int, int]] | None:
    """Single moves that clear the `depth` cards lying above a buried card of pile `a`, each
    onto a top it may lie on in another pile (the first such pile), or else into the first
    hole; None when some card finds no place.  `st` is left as it was."""
    t, T, parent_bits = st.t, st.T, st.parent_bits
    played: list[tuple[int, int]] = []
    for _ in range(depth):
        y = t[a][-1]
        dest = hole = -1
        for j in range(T):
            if j != a:
                if t[j]:
                    if parent_bits[y] >> t[j][-1] & 1:
                        dest = j
                        break
                elif hole < 0:
                    hole = j
        if dest < 0 and st.empty_any:
            dest = hole
        if dest < 0:
            break
        st._raw(a, dest)
        played.append((a, dest))
    for x, y in reversed(played):
        st._raw(y, x)
    return played if len(played) == depth else None


def _jumps(st: _Fast) -> tuple[list[list[tuple[int, int]]], list[list[tuple[int, int]]]]:
    """The probe's moves (`_fast_probe`), each a list of single moves, in two groups: those
    that send a card home (a top, or a buried card its foundation takes, dug out with
    `_dig_out`), and the others: a whole natural run onto a top it may lie on, or, when it
    is not the whole pile, into a hole (`_through_holes`).  A run is never split, nor a
    card taken off a card it may lie on except with its whole run: far fewer moves than the
    game allows, which is what makes the probe quick, and incomplete."""
    t, h, T, parent_bits = st.t, st.h, st.T, st.parent_bits
    holes = [j for j in range(T) if not t[j]] if st.empty_any else []  # only holes that take any card
    room = 1 << len(holes)  # the longest run that can travel through the holes
    home: list[list[tuple[int, int]]] = []
    other: list[list[tuple[int, int]]] = []
    for i in range(T):
        q = t[i]
        for depth in range(len(q)):
            c = q[-1 - depth]
            if h[c // 13] == c % 13:
                cleared = _dig_out(st, i, depth) if depth else []
                if cleared is not None:
                    home.append(cleared + [(i, T + c // 13)])
    for i in range(T):
        q = t[i]
        if not q:
            continue
        n = _run_length(q, parent_bits)
        if n <= room:
            head = q[-n]
            for j in range(T):
                if j != i and t[j] and parent_bits[head] >> t[j][-1] & 1:
                    other.append(_through_holes(n, i, j, holes))
        if holes and n < len(q) and n <= room >> 1:
            other.append(_through_holes(n, i, holes[0], holes[1:]))
    return home, other


def _permute(items: list, draws) -> None:
    """Shuffle `items` in place with the package's SplitMix64 draws (the same on every
    platform and Python version, see `shuffle`)."""
    for i in range(len(items) - 1, 0, -1):
        j = next(draws) % (i + 1)
        items[i], items[j] = items[j], items[i]


def _probe_thread(st: _Fast, seen: set[bytes], draws):
    """One depth-first walk of the probe (`_fast_probe`) over `_jumps`, each group in a
    random order of its own (`draws`), skipping every state that any walk has entered
    (`seen`, shared).  It yields each state it enters (its key) and returns the winning line
    (described, `_describe`) or None when it has nothing left to try.  Rule 3's safe moves
    follow each jump, as in the complete searches."""
    rules = st.sp.rule3
    root_undo = _play_safe_moves(st) if rules else []
    if st.won():
        return _replay_described(st, root_undo)
    seen.add(st.key())

    def options() -> list[list[tuple[int, int]]]:
        home, other = _jumps(st)
        _permute(home, draws)
        _permute(other, draws)
        return home + other

    # one level per state on the current path: its jumps, the next one to try, and the
    # undo records of the single moves that led into it
    path: list[list] = [[options(), 0, []]]
    while path:
        level = path[-1]
        jumps, i, undo = level
        if i == len(jumps):
            path.pop()
            _leave(st, undo, None)
            continue
        level[1] = i + 1
        entered = [((a, b), st.play(a, b)) for a, b in jumps[i]]
        if rules:
            entered += _play_safe_moves(st)
        key = st.key()
        if key in seen:
            _leave(st, entered, None)
            continue
        if st.won():
            return _replay_described(st, root_undo + [r for lv in path[1:] for r in lv[2]] + entered)
        seen.add(key)
        if st.hole_dead_ends and st.stuck():  # rule 8b: nothing from here wins; not entered
            _leave(st, entered, None)
            continue
        yield key
        path.append([options(), 0, entered])
    return None


def _sorted_fast(spec: _Spec, game: Game) -> _Fast:
    """The fast state with its piles in a canonical order (by their cards), so that the
    walks, which list jumps pile by pile, do not depend on how the game numbers its piles
    (their lines name cards, not piles)."""
    st = _Fast(spec, game)
    st.t.sort()
    return st


def _fast_probe(spec: _Spec, game: Game, deadline, max_table: int, ledger: _Ledger | None = None):
    """A quick, incomplete search for a win (Beleaguered Castle and Citadel without automatic
    actions or take-backs), with the protocol of `_fast_search` so that it can take its turn
    in `_castle_portfolio`: `CASTLE_PROBE_WALKS` depth-first walks over `_jumps` (whole runs
    carried through the holes, buried cards dug out for their foundation), each in its own
    random order, take turns of `CASTLE_PROBE_QUOTA` states and share one table, so that
    each explores where the others have not been.  It answers "won" or "unknown", never
    "lost" (its moves are not all the game's): "unknown" when every walk has nothing left
    to try, or after `CASTLE_PROBE` states.  With a `ledger` (`search._Ledger`), a state counts
    only if no search of the portfolio had examined it."""
    allowed = yield 0
    seen: set[bytes] = set()
    walks = [_probe_thread(_sorted_fast(spec, game), seen, splitmix64(k)) for k in range(CASTLE_PROBE_WALKS)]
    states = 0
    examined = 0  # with a ledger, states another search had examined too
    while walks:
        for walk in list(walks):
            for _ in range(CASTLE_PROBE_QUOTA):
                while states >= allowed:
                    allowed = yield states
                if examined >= CASTLE_PROBE or len(seen) >= max_table or (ledger is not None and ledger.over()):
                    return "unknown", [], states
                if deadline is not None and not examined & 255 and time.perf_counter() > deadline:
                    return "unknown", [], states
                try:
                    key = next(walk)
                except StopIteration as end:
                    if end.value is not None:
                        return "won", end.value, states
                    walks.remove(walk)
                    break
                examined += 1
                states += 1 if ledger is None else ledger.count(key)
    return "unknown", [], states

