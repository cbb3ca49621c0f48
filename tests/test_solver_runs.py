"""Rule 10: a natural run carried through the holes as one step of the fast searches
(`_Fast.run_moves`), expanded back into single moves (`_run_steps`) that the engine replays.

- the capacity is exact: with h holes besides the destination, 2**h cards and no more, in
  the fewest single moves (`_fewest`), against a plain search of the one-card puzzle;
- every run move is a real sub-run within that capacity, every one is listed, and its
  expansion is a line of legal engine moves ending where the search says (with Citadel's
  autoplay too, where an autoplay on the way may break it: then it is not played);
- the complete searches with runs give the verdict of a plain search over the engine's moves
  on small positions with holes, as they do without them, and their lines replay to a win;
- a won line with its detours cut (`lines._shortcut`) still replays to a win.
"""

from __future__ import annotations

import random
from collections import deque

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

import solitaire_nb as sn
from solitaire_nb.solver import portfolio, solve
from solitaire_nb.solver.depth import _fast_dfs
from solitaire_nb.solver.fast import _Fast, _fewest, _run_steps
from solitaire_nb.solver.lines import _described_moves, _shortcut
from solitaire_nb.solver.portfolio import _fast_portfolio
from solitaire_nb.solver.search import _advance, _fast_search
from solitaire_nb.solver.state import _Spec

RANKS = "A23456789TJQK"
# Beleaguered Castle and Citadel, with and without take-backs and Citadel's autoplay
CASTLES = [
    ("beleaguered_castle", {"takeback": False}),
    ("beleaguered_castle", {"takeback": True}),
    ("citadel", {"takeback": False, "autoplay": False}),
    ("citadel", {"takeback": False, "autoplay": True}),
    ("citadel", {"takeback": True, "autoplay": True}),
]


def _suit(s: str, top: int) -> list[str]:
    """The cards of suit `s` from the Ace up to rank `top`."""
    return [RANKS[r] + s for r in range(top)]


# ---------------------------------------------------------------------- the capacity
def _fewest_by_search(k: int, holes: int) -> int | None:
    """The fewest single moves carrying a natural run of k cards from pile A onto pile B
    through `holes` holes and nowhere else (A's bottom takes no card of the run, B's top takes
    only its bottom card, card i + 1 lies only on card i), by breadth-first search; None when
    no line exists."""
    start = (tuple(range(k)), ()) + ((),) * holes
    goal = ((), tuple(range(k))) + ((),) * holes
    depth = {start: 0}
    todo = deque([start])
    while todo:
        s = todo.popleft()
        if s == goal:
            return depth[s]
        for i, src in enumerate(s):
            if not src:
                continue
            c = src[-1]
            for j, dst in enumerate(s):
                # onto its own predecessor; else A's bottom takes nothing, B's only card 0
                fits = dst[-1] == c - 1 if dst else j >= 2 or (j == 1 and c == 0)
                if j == i or not fits:
                    continue
                t = list(s)
                t[i], t[j] = src[:-1], dst + (c,)
                nxt = tuple(t)
                if nxt not in depth:
                    depth[nxt] = depth[s] + 1
                    todo.append(nxt)
    return None


@pytest.mark.parametrize("holes", [0, 1, 2, 3])
def test_capacity_is_two_to_the_holes_and_the_plan_is_shortest(holes):
    """With h holes and nowhere else to park, 2**h cards can travel and 2**h + 1 cannot; the
    plan `_run_steps` follows takes the fewest single moves (2k - 1 when there are k - 1
    holes)."""
    for k in range(1, (1 << holes) + 2):
        truth = _fewest_by_search(k, holes)
        moves, _ = _fewest(k, holes)
        assert (truth is not None) == (k <= 1 << holes)
        if truth is not None:
            assert moves == truth
            if k - 1 <= holes:
                assert moves == 2 * k - 1


# ---------------------------------------------------------------------- small positions
def _small(rng: random.Random, game: str | sn.GameDef, variant: dict, lo: int = 9, hi: int = 12) -> sn.Game:
    """A position of `game` with lo..hi cards left in play and up to two holes; a third of the
    other piles sorted by falling rank (natural runs show up), a third by rising rank (low
    cards buried: often lost)."""
    while True:
        h = [rng.randint(3, 13) for _ in range(4)]
        left = [RANKS[r] + s for s, top in zip("SHDC", h, strict=True) for r in range(top, 13)]
        if lo <= len(left) <= hi:
            break
    rng.shuffle(left)
    g0 = sn.Game.from_position(game, {}, **variant)
    tab = [p for p in g0.pile_ids if p[0] == "T"]
    used = len(tab) - rng.randint(0, 2) * rng.randint(0, 1)
    piles: dict[str, list[str]] = {p: [] for p in tab}
    for i, c in enumerate(left):
        piles[tab[i if i < used else rng.randrange(used)]].append(c)
    for i in range(used):
        way = rng.randrange(3)
        if way:
            piles[tab[i]].sort(key=lambda c: RANKS.index(c[0]), reverse=way == 1)
    for k, (s, top) in enumerate(zip("SHDC", h, strict=True)):
        piles[f"F{k}"] = [RANKS[r] + s for r in range(top)]
    return sn.Game.from_position(game, piles, **variant)


def _exhaustive(g: sn.Game, limit: int) -> bool | None:
    """Whether a won position is reachable, by a plain depth-first search over the engine's own
    `legal_moves`, merging positions equal up to the order of the tableau piles (none of these
    games' rules, Citadel's autoplay included, depends on it); None past `limit` positions."""

    def key(x: sn.Game) -> tuple:
        return tuple(sorted(tuple(c.id for c in x.pile(p)) for p in x.pile_ids if p[0] == "T")) + tuple(
            len(x.pile(p)) for p in x.pile_ids if p[0] == "F")

    seen = {key(g)}
    stack = [g]
    while stack:
        x = stack.pop()
        if x.is_won():
            return True
        for m in x.legal_moves():
            y = x.copy()
            y.move(m)
            k = key(y)
            if k not in seen:
                if len(seen) >= limit:
                    return None
                seen.add(k)
                stack.append(y)
    return False


def _all_runs(st: _Fast) -> set[tuple[int, int, int]]:
    """Every run move by brute force: the top n >= 2 cards of a pile, each on a card it may lie
    on, onto another pile whose top takes the bottom one (within 2**h cards, h the holes), or
    into a hole (within 2**(h - 1), not a whole pile), the first hole standing for all."""
    t, T = st.t, st.T
    holes = [j for j in range(T) if not t[j]]
    out = set()
    for i in range(T):
        q = t[i]
        for n in range(2, len(q) + 1):
            run = q[-n:]
            if not all(st.parent_bits[run[j + 1]] >> run[j] & 1 for j in range(n - 1)):
                break
            for j in range(T):
                if j != i and t[j] and st.parent_bits[run[0]] >> t[j][-1] & 1 and n <= 1 << len(holes):
                    out.add((i, j, n))
            if holes and n < len(q) and n <= 1 << (len(holes) - 1):
                out.add((i, holes[0], n))
    return out


def _same(st: _Fast, g: sn.Game) -> bool:
    """The fast state's lists and heights are the engine position `g`."""
    probe = _Fast(st.sp, g)
    return probe.t == st.t and probe.h == st.h


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), which=st.integers(0, len(CASTLES) - 1))
def test_run_moves_are_every_run_and_replay_in_the_engine(seed, which):
    """`run_moves` lists exactly the brute-force runs; each one played (`_Fast.enter`) is a line
    of legal engine moves that ends in the same position, or, only where an autoplay broke its
    way, not played at all; taking it back (`_Fast.leave`) restores the state."""
    name, variant = CASTLES[which]
    g = _small(random.Random(seed), name, variant)
    spec = _Spec(g)
    assert spec.macro
    st = _Fast(spec, g)
    runs = st.run_moves()
    assert set(runs) == _all_runs(st) and len(runs) == len(set(runs))
    ids = [spec.pile_ids[i] for i in spec.tab]
    before = ([list(q) for q in st.t], list(st.h))
    for m in runs:
        entered = st.enter(m)
        if entered is None:  # only an autoplay can break a run's way
            assert st.autoplay and ([list(q) for q in st.t], st.h) == before
            continue
        engine = g.copy()
        for a, b in _run_steps(before[0], *m):
            assert engine.can_move(ids[a], ids[b])
            engine.move(sn.Move(ids[a], ids[b], 1))
        assert _same(st, engine)
        st.leave(entered)
        assert ([list(q) for q in st.t], st.h) == before


def test_an_autoplay_on_the_way_keeps_a_run_from_playing():
    """Citadel's autoplay: carrying Q♣ J♠ 10♦ onto K♥ through two holes uncovers 9♦ halfway,
    and the autoplay sends 9♦ home, then 10♦ (parked in a hole), J♦ and Q♦: the run's last
    step is gone, so the run move is not played (the search keeps its single moves)."""
    piles = {
        "T0": ["KC", "9D", "QC", "JS", "TD"], "T1": ["KH"], "T2": [], "T3": [], "T4": ["KS"],
        "T5": ["KD", "QS"], "T6": ["QD"], "T7": ["JD"],
        "F0": _suit("S", 10), "F1": _suit("H", 12), "F2": _suit("D", 8), "F3": _suit("C", 11),
    }  # fmt: skip
    g = sn.Game.from_position("citadel", piles, takeback=False, autoplay=True)
    st = _Fast(_Spec(g), g)
    assert (0, 1, 3) in st.run_moves()
    before = [list(q) for q in st.t]
    assert st.enter((0, 1, 3)) is None and st.t == before
    truth = _exhaustive(g, 200_000)
    assert truth is not None and solve(g).status == ("won" if truth else "lost")


# ---------------------------------------------------------------------- verdicts
@st.composite
def small_castles(draw, takeback: bool = False) -> sn.Game:
    """A small position of Beleaguered Castle or Citadel as composed in the lab (4, 5 or 8
    columns; building down or either way, by any suit, alternate colours or suit; Citadel's
    autoplay on or off): few columns and low foundations, so that many are lost with holes
    on the way."""
    like = draw(st.sampled_from(["beleaguered_castle", "citadel"]))
    columns = draw(st.sampled_from([4, 4, 4, 5, 8]))
    changes = {"columns": columns, "takeback": takeback}
    changes["suits"] = draw(st.sampled_from(["any", "any", "alt", "same"]))
    changes["build"] = draw(st.sampled_from(["down", "down", "updown"]))
    if like == "citadel":
        changes["autoplay"] = draw(st.booleans())
    lo = {4: 14, 5: 15, 8: 16}[columns]
    rng = random.Random(draw(st.integers(0, 2**32)))
    return _small(rng, sn.custom(like, **changes), {}, lo, lo + 4)


class _Counted(_Fast):
    """The fast state, counting the run moves its searches are offered."""

    offered = 0

    def run_moves(self) -> list[tuple[int, int, int]]:
        out = super().run_moves()
        _Counted.offered += len(out)
        return out


def _complete(kind: str, g: sn.Game, macro: bool, cap: int = 10**9) -> tuple[str, list]:
    """One complete search alone, to its end or `cap` states: its verdict and its engine line."""
    spec = _Spec(g)
    st = _Counted(spec, g)
    st.macro = macro
    search = _fast_search(st, None, 10**6) if kind == "best" else _fast_dfs(st, None, 10**6, kind)
    next(search)
    states, verdict = _advance(search, cap)
    if verdict is None:
        search.close()
        return "unknown", []
    status, line, _ = verdict
    return status, _described_moves(g, spec, line) if status == "won" else []


def _replays(g: sn.Game, moves) -> bool:
    h = g.copy()
    for m in moves:
        h.move(m)
    return h.is_won()


@settings(max_examples=40, deadline=None)
@given(g=small_castles())
def test_complete_searches_with_runs_give_the_exhaustive_verdict(g):
    """The best-first search and both depth-first ones, with runs as one step and without,
    answer what a plain search over the engine's moves finds (runs add edges between the same
    states: no "lost" is lost), and every won line replays to a win."""
    truth = _exhaustive(g, 15_000)
    if truth is None:
        event("too big for the exhaustive search")
        return
    _Counted.offered = 0
    for kind in ("best", "key", "fc"):
        for macro in (False, True):
            status, moves = _complete(kind, g, macro)
            assert status == ("won" if truth else "lost"), (kind, macro, g.definition.name, g.to_json())
            assert status != "won" or _replays(g, moves)
    event(("won" if truth else "lost") + (", runs offered" if _Counted.offered else ""))


def test_a_lost_position_with_runs_on_the_way_stays_lost():
    """Beleaguered Castle on four columns (from the lab), spades home to the 4 and hearts to
    the Jack: 5♠ lies under Q♥ Q♠, and no way of moving cards, runs through the holes
    included, frees it (the exhaustive search); each complete search is offered runs on the
    way and still answers "lost"."""
    piles = {
        "T0": ["KH", "JS", "8S"], "T1": ["6S", "7S", "9S", "KS"], "T2": ["5S", "QH", "QS"], "T3": ["TS"],
        "F0": _suit("S", 4), "F1": _suit("H", 11), "F2": _suit("D", 13), "F3": _suit("C", 13),
    }  # fmt: skip
    g = sn.Game.from_position(sn.custom("beleaguered_castle", columns=4, takeback=False), piles)
    assert _exhaustive(g, 100_000) is False
    for kind in ("best", "key", "fc"):
        _Counted.offered = 0
        assert _complete(kind, g, True)[0] == "lost" and _Counted.offered
    assert solve(g).status == "lost"


@settings(max_examples=30, deadline=None)
@given(g=small_castles(takeback=True))
def test_runs_with_take_backs_agree_and_replay(g):
    """With take-backs (the searches play on lists, not bytes, and cards come back from the
    foundations) each search, capped, gives the same verdict with runs as without when both
    decide; a "lost" is the exhaustive one, and a won line replays."""
    for kind in ("best", "fc"):
        on, moves = _complete(kind, g, True, 3000)
        off, _ = _complete(kind, g, False, 3000)
        assert "unknown" in (on, off) or on == off
        assert on != "won" or _replays(g, moves)
        if "lost" in (on, off):
            event("lost")
            assert _exhaustive(g, 30_000) is not True


@settings(max_examples=30, deadline=None)
@given(g=small_castles())
def test_solve_gives_the_same_verdict_with_and_without_runs(g):
    """`solve`, with the castles' portfolio: the same verdict with its runs on and off, the
    exhaustive one, and a line that replays."""
    truth = _exhaustive(g, 30_000)
    on = solve(g)
    saved = portfolio.CASTLE_MACRO
    portfolio.CASTLE_MACRO = frozenset()
    try:
        off = solve(g)
    finally:
        portfolio.CASTLE_MACRO = saved
    assert on.status == off.status
    if truth is not None:
        assert on.status == ("won" if truth else "lost")
    assert on.status != "won" or _replays(g, on.moves)


def test_a_hard_deal_is_won_with_runs_in_its_line():
    """Beleaguered Castle deal 274 (undecided in the atlas at 1,000,000 states without runs as
    one step): its line replays to a win through the engine."""
    g = sn.new_game("beleaguered_castle", seed=274, takeback=False)
    r = solve(g, max_states=60_000)
    assert r.status == "won" and _replays(g, r.moves)


@pytest.mark.parametrize(("name", "variant", "seed"), [
    ("beleaguered_castle", {"takeback": False}, 26),
    ("beleaguered_castle", {"takeback": True}, 3),
    ("citadel", {"takeback": False, "autoplay": True}, 4),
])
def test_detours_cut_from_a_line_keep_it_winning(name, variant, seed):
    """`_shortcut` on a fast search's won line: never longer, every move legal where it is
    played (the engine replays it) and still a win; a move that reaches a later position of
    the line in one step replaces the stretch in between."""
    g = sn.new_game(name, seed=seed, **variant)
    spec = _Spec(g)
    status, line, _ = _fast_portfolio(spec, g, None, 200_000, 10**6)
    assert status == "won"
    short = _shortcut(g, spec, line)
    assert len(short) <= len(line)
    assert _replays(g, _described_moves(g, spec, short))
    assert _shortcut(g, spec, short) == short  # nothing left to cut
