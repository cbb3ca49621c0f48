"""Move ordering and best-first scores: they decide only the order in which the searches look
at positions, never what is explored, so they change speed and capped verdicts, never the
soundness of "lost".

- `_score` (fast state): cards not yet home, plus the cards lying above each card the
  foundations need soon, weighted by how soon (`_urgent`, with the state's `urgency`), plus,
  with the state's `disorder` weight, the cards lying above a lower card (`_disorder`).
- `_generic_score` (generic state): cards not yet home, face-down cards, cards lying on a
  card the tableau rule would not let them go on; with alternate-colour foundations, the
  cards lying above each card those foundations take now or next.
- `_dfs_moves`: the depth-first searches' move order (Freecell Solver's proof mode).
- `_order`: the heuristic hint's preference among legal moves.
"""

from __future__ import annotations

from .fast import _Fast
from .state import _State
from .tables import _ALT_NEXT, _FC_BYTES, _RANK_BYTES


def _urgent(h: list[int], weights: tuple[int, ...]) -> list[int]:
    """Per card id, how urgently the foundations need it, given the heights `h`:
    ``weights[i]`` for the card i ranks above its foundation's top, else 0."""
    out = [0] * 52
    for s in range(4):
        for i, w in enumerate(weights):
            r = h[s] + i
            if r < 13:
                out[s * 13 + r] = w
    return out


def _column_bad(q: list[int], urgent: list[int]) -> int:
    """For one tableau pile: the cards lying above each urgent card it holds, weighted by
    that card's urgency."""
    bad = 0
    above = len(q)
    for x in q:
        above -= 1  # the cards lying above x
        u = urgent[x]
        if u:
            bad += u * above
    return bad


def _disorder(q) -> int:
    """For one tableau pile (a list or bytes of card ids): how many of its cards lie above a
    card of lower rank (each of them must move again before that card can go home)."""
    ranks = bytes(q).translate(_RANK_BYTES)
    bad = 0
    low = 99
    for r in ranks:
        if r > low:
            bad += 1
        elif r < low:
            low = r
    return bad


def _disorder_change(src: bytes, dst: bytes) -> int:
    """How `_disorder` changes, summed over both piles, when the top card of `src` moves onto
    `dst` (the piles' bytes before the move): only the moved card's own count can change."""
    r = src[-1] % 13
    below_src = src[:-1].translate(_RANK_BYTES)
    below_dst = dst.translate(_RANK_BYTES)
    return (bool(below_dst) and min(below_dst) < r) - (bool(below_src) and min(below_src) < r)


def _score(st: _Fast) -> int:
    """Best-first priority (lower first): cards not yet home (weight 8), plus, for each card
    the foundations need soon, the number of cards lying above it, times its urgency
    (`_Fast.urgency`: by default now or next with weight 1; each of the portfolio's searches
    may set its own weights for the next ranks of each suit, `portfolio.BAKERS_PORTFOLIO`),
    plus `_Fast.disorder` (0 by default) times the cards lying above a lower card."""
    h = st.h
    urgent = _urgent(h, st.urgency)
    score = 8 * (52 - sum(h)) + sum([_column_bad(q, urgent) for q in st.t])
    if st.disorder:
        score += st.disorder * sum([_disorder(q) for q in st.t])
    return score


def _generic_score(st: _State) -> int:
    """Best-first priority (lower first): cards not yet home (weight 8), face-down cards
    (weight 2), and cards lying on a card the tableau rule would not let them go on.  With
    alternate-colour foundations (Scotch), cards home weigh 4 and the cards lying above each
    card those foundations take now or next count too (`_alt_urgent`)."""
    sp = st.sp
    ok = sp.tab_ok
    p, fd = st.p, st.fd
    urgent = _alt_urgent(st) if sp.alt_fnd else None
    bad = 0
    for t in sp.tab:
        q = p[t]
        f = fd[t]
        bad += 2 * f
        top = len(q) - 1
        for d in range(f, top):
            if not ok[q[d] * 52 + q[d + 1]]:
                bad += 1
            if urgent and q[d] in urgent:
                bad += top - d
    return (4 if urgent is not None else 8) * (sp.total - st.foundation_count()) + bad


def _alt_urgent(st: _State) -> set[int]:
    """The cards alternate-colour foundations take now or next: on an empty one the Aces;
    on a top of rank r, the two cards of rank r+1 in the other colour and the two of rank
    r+2 in the top's colour."""
    out: set[int] = set()
    for fi in st.sp.fnd:
        q = st.p[fi]
        out.update(_ALT_NEXT[q[-1]] if q else _ALT_NEXT[52])
    return out


def _dfs_moves(st: _Fast, order: str, piles: list[bytes]) -> list[tuple[int, ...]]:
    """`_Fast.moves` in a depth-first search's order (the one Freecell Solver's proof mode,
    ``-to 0AB``, tries): moves home, then into a hole, then onto another card, take-backs
    last; within each kind by source pile, then destination pile.  The piles are taken
    sorted by their cards from the bottom up: with `order` ``"key"`` as the state's key
    sorts them (card ids), with ``"fc"`` as Freecell Solver numbers cards (rank first, then
    the suit, ♥ ♣ ♦ ♠: `_FC_VALUE`).  `piles` holds each tableau pile's bytes.  With
    `_Fast.macro` the runs of `run_moves` (a, b, n) join their kind, the longest run
    first for the same two piles.  Only the order changes: the set of moves is
    `moves()`'s (and `run_moves()`'s)."""
    t, T = st.t, st.T
    if order == "key":
        ranked = sorted(range(T), key=piles.__getitem__)
    else:
        fc = [q.translate(_FC_BYTES) for q in piles]
        ranked = sorted(range(T), key=fc.__getitem__)
    pos = [0] * T
    for k, i in enumerate(ranked):
        pos[i] = k
    pos += range(T, T + 4)
    # one integer per move sorts as (kind, source rank, destination rank, source, destination)
    codes = [
        ((((3 if a >= T else 0 if b >= T else 1 if not t[b] else 2) << 6 | pos[a]) << 6 | pos[b]) << 12)
        | a << 6
        | b
        for a, b in st.moves()
    ]
    if not st.macro or all(piles):
        codes.sort()
        return [(x >> 6 & 63, x & 63) for x in codes]
    # with runs, each code also holds 63 - n after the two ranks (the longest run first for
    # the same two piles) and the run's length n last
    codes = [((x >> 12) << 6 | 62) << 18 | (x & 4095) << 6 | 1 for x in codes]
    codes += [
        (((((1 if not t[b] else 2) << 6 | pos[a]) << 6 | pos[b]) << 6 | 63 - n) << 12 | a << 6 | b) << 6 | n
        for a, b, n in st.run_moves()
    ]
    codes.sort()
    return [(x >> 12 & 63, x >> 6 & 63) if x & 63 == 1 else (x >> 12 & 63, x >> 6 & 63, x & 63) for x in codes]


def _order(state: _State, moves: list[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    """Sort moves so the likely useful ones come first (speed only)."""
    sp = state.sp
    p, fd = state.p, state.fd
    kind = sp.kind

    def score(m: tuple[int, int, int]) -> int:
        si, di, n = m
        ks, kd = kind[si], kind[di]
        if ks == "F":
            return 90
        if kd == "F":
            return 0
        if ks == "S":
            return 60
        src = p[si]
        s = 30
        if ks == "T":
            left = len(src) - n
            if left == 0:
                s = 10
            elif fd[si] >= left:
                s = 12  # uncovers a face-down card
            else:
                s = 20 + min(left, 9)
        if kd == "T" and not p[di]:
            s += 30
        return s

    return sorted(moves, key=score)
