"""Deciding more with the same budget: rule 3c (safe moves home one step further) and the
portfolio's shared ledger (a state counts once, however many searches examine it)."""

from __future__ import annotations

import solitaire_nb as sn
from solitaire_nb.core.cards import Card
from solitaire_nb.solver import portfolio, solve
from solitaire_nb.solver.fast import _Fast
from solitaire_nb.solver.search import _fast_best_first
from solitaire_nb.solver.state import _Spec

RANKS = "A23456789TJQK"


def _run(suit: str, lo: int, hi: int) -> list[str]:
    return [RANKS[r - 1] + suit for r in range(lo, hi + 1)]


def _castle(clubs_home: int) -> dict[str, list[str]]:
    """♠ home up to 3, ♥ and ♦ up to 2, ♣ up to `clubs_home`; 4♠ on top of the first pile,
    the 3s of the other suits buried (rule 3 alone sends nothing home)."""
    piles = {
        "F0": _run("S", 1, 3),
        "F1": _run("H", 1, 2),
        "F2": _run("D", 1, 2),
        "F3": _run("C", 1, clubs_home),
        "T0": ["3H", "4S"],
        "T1": ["3D", "KH"],
        "T2": _run("C", clubs_home + 1, 3) + ["KD"],
    }
    rest = _run("S", 5, 13) + _run("H", 4, 12) + _run("D", 4, 12) + _run("C", 4, 13)
    for i, k in enumerate(range(3, 8)):
        piles[f"T{k}"] = rest[i::5]
    return piles


def test_rule_3c_sends_home_a_card_whose_children_go_home_as_soon_as_free():
    """4♠ may take 3♥, 3♦ and 3♣, none home; but each is next on its foundation and nothing
    can lie on it (every 2 is home), so 4♠ goes home without branching (rule 3c).  With ♣
    home only to the Ace, 3♣ is not next: 4♠ may be needed to hold it, and stays."""
    g = sn.Game.from_position("beleaguered_castle", _castle(2), takeback=False)
    fast = _Fast(_Spec(g), g)
    m = fast.safe_move()
    assert m is not None and m[1] >= fast.T
    assert fast.t[m[0]][-1] == Card.parse("4S").id
    g1 = sn.Game.from_position("beleaguered_castle", _castle(1), takeback=False)
    assert _Fast(_Spec(g1), g1).safe_move() is None
    # with take-backs no safe move is played at all (rule 4)
    g2 = sn.Game.from_position("beleaguered_castle", _castle(2), takeback=True)
    assert _Fast(_Spec(g2), g2).safe_move() is None


def test_rule_3c_keeps_verdicts_on_positions_it_shortcuts():
    """The position where rule 3c fires is won, and so is the one where it does not."""
    for clubs in (1, 2):
        g = sn.Game.from_position("beleaguered_castle", _castle(clubs), takeback=False)
        assert solve(g, max_states=50_000).status == "won"


def test_ledger_a_lost_deal_costs_what_one_search_needs(monkeypatch):
    """Citadel deal 1044 (autoplay, no take-backs) is lost: the usual order alone examines
    every reachable state.  The portfolio's four searches take turns after CASTLE_ALONE
    states (here 1,000), but each state counts once in their shared ledger, so the portfolio
    proves it lost with exactly that many states, and not with one fewer.  (The streamliners,
    switched off here, add at most their one turn: `test_solver_streamliner`.)"""
    monkeypatch.setattr(portfolio, "CASTLE_ALONE", 1000)
    monkeypatch.setattr(portfolio, "CASTLE_STREAM", 0)
    g = sn.new_game("citadel", seed=1044, takeback=False, autoplay=True)
    status, _, alone = _fast_best_first(_Fast(_Spec(g), g), None, -1, 10**6)
    assert status == "lost" and alone > 1000
    r = solve(g, max_states=alone)
    assert (r.status, r.states) == ("lost", alone)
    assert solve(g, max_states=alone - 1).status == "unknown"


def test_ledger_keeps_rule_8s_verdict_by_key():
    """Rule 8 depends only on the position: the ledger works it out once per key and gives the
    same answer to every later search, whatever state object asks."""
    from solitaire_nb.solver.search import _Ledger

    class Probe:
        def __init__(self, verdict: bool) -> None:
            self.verdict, self.calls = verdict, 0

        def stuck(self) -> bool:
            self.calls += 1
            return self.verdict

    ledger = _Ledger()
    dead, alive = Probe(True), Probe(False)
    assert ledger.stuck(b"a", dead) and ledger.stuck(b"a", alive)  # first answer kept for "a"
    assert not ledger.stuck(b"b", alive) and not ledger.stuck(b"b", dead)
    assert (dead.calls, alive.calls) == (1, 1)
    g = sn.new_game("bakers_dozen", seed=18)
    fast = _Fast(_Spec(g), g)
    assert ledger.stuck(fast.key(), fast) is fast.stuck() is False  # a real deal's answer, stored
