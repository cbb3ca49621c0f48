"""The streamliners: restricted games searched for a win, whose wins are wins of the game and
whose "lost" proves nothing.

- Where take-backs are allowed on the generic state (`_Spec.streamlined`,
  `portfolio.STREAMLINERS`): take-backs forbidden and every card that can go home, or only the
  Aces, the twos and the cards whose twin is home, sent home at once; searched first.
- Where the castles forbid take-backs (`_Spec.castle_streamline`, `streamline`): suit symmetry
  (a table that forgets what the tableau rule cannot tell apart), then suit symmetry with
  auto-foundations; one turn in the castles' portfolio, after the probe's.
"""

from __future__ import annotations

import csv
import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from successors import won_reachable
from test_solver import STUCK_CASTLE

import solitaire_nb as sn
from solitaire_nb.solver import portfolio, solve
from solitaire_nb.solver.fast import _Fast
from solitaire_nb.solver.lines import _described_moves
from solitaire_nb.solver.portfolio import CASTLE_ALONE, _search
from solitaire_nb.solver.search import _advance, _fast_best_first
from solitaire_nb.solver.state import _Spec, _State
from solitaire_nb.solver.streamline import _fast_streamliner, blind_table

# Scotch: the two red-Ace chains home, F0 (black Aces) up to 7♠, F3 up to 5♣
_HOME = {
    "F0": ["AS", "2H", "3S", "4H", "5S", "6H", "7S"],
    "F1": ["AH", "2S", "3H", "4S", "5H", "6S", "7H", "8S", "9H", "TS", "JH", "QS", "KH"],
    "F2": ["AD", "2C", "3D", "4C", "5D", "6C", "7D", "8C", "9D", "TC", "JD", "QC", "KD"],
    "F3": ["AC", "2D", "3C", "4D", "5C"],
}
# 7♣ covers 6♦, which F3 needs next; its only free parent is 8♥ (8♦ lies under K♣).  Sending
# 8♥ home at once (to F0, the only foundation taking it) leaves 7♣ stuck: the streamliner's
# game is lost.  Keeping 8♥ out wins: 7♣ on 8♥, then 6♦, 7♣, 8♥, 9♣, 10♦, J♣, Q♦ and K♣ to F3,
# which frees 8♦ for F0, then 9♠, 10♥, J♠, Q♥ and K♠.
TRAP = {
    **_HOME,
    "T0": ["8H"], "T1": ["6D", "7C"], "T2": ["8D", "KC"], "T3": ["9S"], "T4": ["TH"], "T5": ["JS"],
    "T6": ["QH"], "T7": ["KS"], "T8": ["9C"], "T9": ["TD"], "T10": ["JC"], "T11": ["QD"],
}  # fmt: skip


def test_streamliner_selected_by_rules_data():
    """On the generic state where take-backs are allowed (Scotch), not elsewhere."""
    assert _Spec(sn.new_game("scotch", seed=1)).streamline
    assert not _Spec(sn.new_game("scotch+takeback=false", seed=1)).streamline
    assert not _Spec(sn.new_game("beleaguered_castle", seed=1, takeback=True)).streamline
    assert not _Spec(sn.new_game("moving_left", seed=1)).streamline
    restricted = _Spec(sn.new_game("scotch", seed=1)).streamlined()
    assert restricted.auto_home == "all" and not restricted.takeback
    assert _Spec(sn.new_game("scotch", seed=1)).streamlined("twin").auto_home == "twin"


def test_streamliner_sends_every_card_home_that_can_go():
    g = sn.Game.from_position("scotch", TRAP)
    st = _State(_Spec(g).streamlined(), g)
    si, di, n = st.safe_move()
    assert (g.pile_ids[si], g.pile_ids[di], n) == ("T0", "F0", 1)
    assert _State(_Spec(g), g).safe_move() is None  # the full game forces nothing
    # the other streamliner waits: 8♥'s twin 8♦ is not home
    assert _State(_Spec(g).streamlined("twin"), g).safe_move() is None


def test_twin_streamliner_sends_aces_twos_and_cards_whose_twin_is_home():
    piles = {**_HOME, **{k: v for k, v in TRAP.items() if k[0] == "T"}}
    piles["T1"] = ["7C", "6D"]  # 6♦ on top now: F3 takes it, and its twin 6♥ is home
    g = sn.Game.from_position("scotch", piles)
    si, di, n = _State(_Spec(g).streamlined("twin"), g).safe_move()
    assert (g.pile_ids[si], g.pile_ids[di], n) == ("T1", "F3", 1)


@pytest.mark.parametrize("max_states", [None, 50])
def test_streamliner_lost_proves_nothing(max_states):
    """The trap is lost in the first streamliner's game and won in the game (and in the second
    streamliner's): `solve` goes on after the first and finds the win, whose line replays
    through the engine."""
    g = sn.Game.from_position("scotch", TRAP)
    status, _, _ = _search(g, _Spec(g).streamlined(), None, -1, 10**6)
    assert status == "lost"
    assert _search(g, _Spec(g).streamlined("twin"), None, -1, 10**6)[0] == "won"
    result = solve(g, max_states=max_states)
    assert result.status == "won"
    h = g.copy()
    for m in result.moves:
        h.move(m)
    assert h.is_won()


def test_streamliner_wins_are_wins():
    """Deal 191 of Scotch, undecided at 20,000 states before the streamliner, is won in its
    game within a few dozen states; the line replays through the engine."""
    g = sn.new_game("scotch", seed=191)
    result = solve(g, max_states=20_000)
    assert result.status == "won" and result.states < 100
    h = g.copy()
    for m in result.moves:
        h.move(m)
    assert h.is_won()


# ---------------------------------------------------------------------- the castles' streamliners
@pytest.mark.parametrize(
    ("name", "variant", "selected"),
    [
        ("beleaguered_castle", {"takeback": False}, True),
        ("citadel", {"takeback": False}, True),  # with its autoplay too
        ("citadel", {"takeback": False, "autoplay": False}, True),
        ("beleaguered_castle", {"takeback": True}, False),  # the game allows take-backs
        ("citadel", {"takeback": True}, False),
        ("bakers_dozen", {}, False),  # holes take no card: not the castles' portfolio
        ("scotch+takeback=false", {}, False),
    ],
)
def test_castle_streamliner_selected_by_rules_data(name, variant, selected):
    spec = _Spec(sn.new_game(name, seed=1, **variant))
    assert spec.castle_streamline is selected
    # the first phase of a game with take-backs forbids them, but the game does not
    assert not spec.without_takebacks().castle_streamline or selected


def test_suit_symmetry_forgets_what_the_tableau_rule_cannot_tell_apart():
    """By rank where the tableau never looks at suits, by rank and colour where it builds in
    alternate colours, nothing where it builds by suit (then no streamliner runs)."""
    castle = blind_table(_Spec(sn.new_game("beleaguered_castle", seed=1, takeback=False)))
    assert castle is not None and list(castle[:52]) == [c % 13 for c in range(52)]
    alt = blind_table(_Spec(sn.new_game("beleaguered_castle+takeback=false+suits=alt", seed=1)))
    assert alt is not None
    # ids: spades 0-12, hearts 13-25, diamonds 26-38, clubs 39-51
    assert [alt[c] for c in (5, 18, 31, 44)] == [5, 18, 18, 5]
    assert blind_table(_Spec(sn.new_game("beleaguered_castle+takeback=false+suits=same", seed=1))) is None


def _streamliner(g: sn.Game, limit: int = 10**6) -> tuple[str, list, int]:
    spec = _Spec(g)
    table = blind_table(spec)
    assert table is not None
    search = _fast_streamliner(spec, g, table, None, limit, 10**6)
    next(search)
    states, verdict = _advance(search, limit)
    return verdict if verdict is not None else ("unknown", [], states)


def _replays_to_a_win(g: sn.Game, moves) -> bool:
    h = g.copy()
    for m in moves:
        h.move(m)
    return h.is_won()


def test_castle_streamliner_never_says_lost():
    """On a lost position it gives up with "unknown"; only the complete search says "lost"."""
    g = sn.Game.from_position("beleaguered_castle", STUCK_CASTLE, takeback=False)
    assert _streamliner(g)[0] == "unknown"
    assert solve(g).status == "lost"


def test_castle_streamliner_wins_an_undecided_deal():
    """Deal 274, which the atlas leaves undecided at 1,000,000 states, is won by the
    streamliners in a few thousand states, and by `solve` within 60,000: a real line."""
    g = sn.new_game("beleaguered_castle", seed=274, takeback=False)
    status, line, states = _streamliner(g)
    assert status == "won" and states < 5000
    assert _replays_to_a_win(g, _described_moves(g, _Spec(g), line))
    result = solve(g, max_states=60_000)
    assert result.status == "won" and _replays_to_a_win(g, result.moves)


def test_deals_keep_their_verdicts_and_the_lead_turn_wins_early(monkeypatch):
    """By default (no opening turn) deals keep the atlas's verdicts and state counts.  With the
    streamliners opening the portfolio (`CASTLE_STREAM_FIRST` 5,000 states, `CASTLE_JOIN`
    60,000) the verdicts stay, and deals 7 and 11, which the atlas records as won by the probe
    after the usual order's first `CASTLE_ALONE` states, are won within that turn."""
    atlas = Path(__file__).resolve().parents[1] / "data" / "atlas" / "beleaguered_castle_sin_devolver.csv"
    with atlas.open(encoding="utf-8") as f:
        rows = {int(r[0]): r for r in csv.reader(f) if r and r[0].isdigit()}
    deals = (1, 2, 3, 5, 6, 7, 11, 19)
    for deal in deals:
        _, status, states, _, _ = rows[deal]
        r = solve(sn.new_game("beleaguered_castle", seed=deal, takeback=False), max_states=1_000_000)
        assert (r.status, r.states) == (status, int(states))
    monkeypatch.setattr(portfolio, "CASTLE_STREAM_FIRST", 5_000)
    monkeypatch.setattr(portfolio, "CASTLE_JOIN", 60_000)
    for deal in deals:
        _, status, states, _, _ = rows[deal]
        r = solve(sn.new_game("beleaguered_castle", seed=deal, takeback=False), max_states=1_000_000)
        assert r.status == status
        if deal in (7, 11):
            assert int(states) > CASTLE_ALONE and r.states <= 5_000


def test_a_lost_deal_costs_at_most_one_search_and_the_streamliners_turn(monkeypatch):
    """Citadel deal 1044 (autoplay, no take-backs) is lost.  The streamliners' states count in
    the portfolio's ledger like the others', and they are not all states the complete
    searches examine, so proving it lost may cost more than the usual order alone needs:
    at most their one turn (1/CASTLE_STREAM_SHARE of the budget) more."""
    monkeypatch.setattr(portfolio, "CASTLE_ALONE", 1000)
    g = sn.new_game("citadel", seed=1044, takeback=False, autoplay=True)
    status, _, alone = _fast_best_first(_Fast(_Spec(g), g), None, -1, 10**6)
    assert status == "lost"
    budget = alone * portfolio.CASTLE_STREAM_SHARE // (portfolio.CASTLE_STREAM_SHARE - 1) + 1
    r = solve(g, max_states=budget)
    assert r.status == "lost" and alone <= r.states <= alone + budget // portfolio.CASTLE_STREAM_SHARE


_RANKS = "A23456789TJQK"


def _small_castle(rng: random.Random) -> sn.Game:
    """A Beleaguered Castle position without take-backs with 10 to 14 cards left in play, no
    pile empty (many are lost then)."""
    while True:
        h = [rng.randint(6, 13) for _ in range(4)]
        left = [_RANKS[r] + s for s, top in zip("SHDC", h, strict=True) for r in range(top, 13)]
        if 10 <= len(left) <= 14:
            break
    rng.shuffle(left)
    piles: dict[str, list[str]] = {f"T{i}": [] for i in range(8)}
    for i, c in enumerate(left):
        piles[f"T{i if i < 8 else rng.randrange(8)}"].append(c)
    for k, (s, top) in enumerate(zip("SHDC", h, strict=True)):
        piles[f"F{k}"] = [_RANKS[r] + s for r in range(top)]
    return sn.Game.from_position("beleaguered_castle", piles, takeback=False)


@given(seed=st.integers(0, 2**32))
def test_castle_streamliner_only_wins_what_is_won(seed):
    """Its verdict is "won" or "unknown"; a "won" line replays through the engine to a win,
    and a position that a plain search over the engine's moves proves lost is never won."""
    g = _small_castle(random.Random(seed))
    status, line, _ = _streamliner(g)
    assert status in ("won", "unknown")
    truth = won_reachable(g, 200_000)
    if status == "won":
        assert _replays_to_a_win(g, _described_moves(g, _Spec(g), line))
    assert truth is not False or status == "unknown"
