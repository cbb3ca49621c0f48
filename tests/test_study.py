"""The Citadel versus Beleaguered Castle study (issue 5): the vectorised deal agrees with the
rules engine deck by deck, the exact results agree with brute force and with simulation, and
every recorded deal keeps its 52 cards.

Statistical tests use fixed seeds, so they are deterministic; each states its test and level."""

from __future__ import annotations

import itertools
import math
import subprocess
import sys
from collections import Counter
from fractions import Fraction

import pytest

np = pytest.importorskip("numpy")  # the study needs the notebook extra

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as hst  # noqa: E402

import solitaire_nb as sn  # noqa: E402
from solitaire_nb import study  # noqa: E402

ALPHA = 0.001  # significance level of every statistical test below
Z_CRIT = 3.2905  # two-sided normal quantile for ALPHA

LAYOUTS = ("beleaguered", "after_deal", "citadel")


def assert_same_records(a: study.StudyResults, b: study.StudyResults) -> None:
    for name in LAYOUTS:
        np.testing.assert_array_equal(getattr(a, name).lengths, getattr(b, name).lengths, err_msg=name)
    np.testing.assert_array_equal(a.home_in_deal, b.home_in_deal)
    np.testing.assert_array_equal(a.autoplay_moved, b.autoplay_moved)


# ----------------------------------------------------------------------------- cross-check
@pytest.fixture(scope="module")
def sample_decks() -> np.ndarray:
    """300 random decks plus orders that stress the deal: new-deck order (every card goes home
    in turn), its reverse (only the 2s go home), and ranks dealt in rounds."""
    new_deck = np.arange(52, dtype=np.uint8)
    by_rank = np.array([s * 13 + r for r in range(13) for s in range(4)], dtype=np.uint8)
    special = np.stack([new_deck, new_deck[::-1], by_rank, by_rank[::-1]])
    return np.concatenate([special, study.draw_decks(300, seed=2024)])


@pytest.fixture(scope="module")
def engine_records(sample_decks) -> study.StudyResults:
    return study.simulate_engine(sample_decks)


@pytest.mark.rule("CB-2")
@pytest.mark.rule("CB-7")
def test_vectorised_and_engine_agree_deal_by_deal(sample_decks, engine_records):
    assert_same_records(study.deal_decks(sample_decks), engine_records)
    np.testing.assert_array_equal(engine_records.decks, sample_decks)


def test_simulate_deals_the_decks_it_reports():
    res = study.simulate(700, seed=11, keep_decks=300, chunk=256)
    decks = study.draw_decks(700, seed=11)
    np.testing.assert_array_equal(res.decks, decks[:300])
    assert_same_records(res, study.deal_decks(decks))


def test_chunk_size_does_not_change_the_decks():
    a = study.simulate(1000, seed=5, chunk=1000)
    b = study.simulate(1000, seed=5, chunk=97)
    assert_same_records(a, b)
    np.testing.assert_array_equal(a.decks, b.decks)
    assert not np.array_equal(study.draw_decks(50, seed=6), study.draw_decks(50, seed=5))


def test_decks_are_permutations_and_codes_round_trip():
    decks = study.draw_decks(200, seed=3)
    assert decks.shape == (200, 52)
    assert (np.sort(decks, axis=1) == np.arange(52)).all()
    codes = study.deck_codes(decks[0])
    assert [sn.Card.parse(c).id for c in codes] == decks[0].tolist()
    np.testing.assert_array_equal(study.deck_ids(codes), decks[0])
    assert study.CARD_CODES[0] == "AS" and study.CARD_CODES[12] == "KS" and study.CARD_CODES[51] == "KC"


@settings(max_examples=60, deadline=None)
@given(hst.permutations(range(52)))
def test_any_deck_agrees_with_the_engine(order):
    deck = np.array([order], dtype=np.uint8)
    assert_same_records(study.deal_decks(deck), study.simulate_engine(deck))


# ----------------------------------------------------------------------------- invariants
@pytest.mark.rule("CB-8")
def test_beleaguered_castle_columns_are_always_six(engine_records):
    assert (engine_records.beleaguered.lengths == 6).all()  # dealt by the engine
    assert (study.simulate(2000, seed=1).beleaguered.lengths == 6).all()


@pytest.mark.rule("CB-1")
def test_every_recorded_deal_keeps_52_cards(sample_decks, engine_records):
    for res in (engine_records, study.simulate(5000, seed=8)):
        assert (res.beleaguered.on_table + 4 == 52).all()
        assert (res.after_deal.on_table + 4 + res.home_in_deal == 52).all()
        assert (res.citadel.on_table + res.foundation_cards == 52).all()
        assert (res.fewer_on_table == res.home_in_deal + res.autoplay_moved).all()
        assert (res.citadel.lengths <= res.after_deal.lengths).all()
        assert (res.citadel.length_counts.sum(axis=1) == 8).all()
        assert (res.citadel.longest >= res.citadel.shortest).all()
    for codes in map(study.deck_codes, sample_decks[:40]):  # the engine's own piles
        for game in study.deal_games(codes).values():
            piles = game.piles
            assert Counter(c.code for p in piles.values() for c in p) == Counter(codes)


def test_home_counts_are_possible():
    res = study.simulate(20_000, seed=4)
    assert res.home_in_deal.min() >= 4  # each suit's 2 goes home
    assert res.home_in_deal.max() <= 48


# ----------------------------------------------------------------------------- exact results
def brute_force(suits: int, ranks: int, columns: int):
    """Every order of a reduced deck's non-Aces, dealt by a direct reading of CB-1/CB-2."""
    cards = [(s, r) for s in range(suits) for r in range(2, ranks + 1)]
    home_counts: Counter = Counter()
    column_sum = [0] * columns
    position_home = [0] * len(cards)
    total = 0
    for order in itertools.permutations(cards):
        nxt = [2] * suits
        home = 0
        for i, (s, r) in enumerate(order):
            if nxt[s] == r:
                nxt[s] += 1
                home += 1
                position_home[i] += 1
            else:
                column_sum[i % columns] += 1
        home_counts[home] += 1
        total += 1
    dist = [Fraction(home_counts[k], total) for k in range(len(cards) + 1)]
    return dist, [Fraction(c, total) for c in column_sum], [Fraction(p, total) for p in position_home]


@pytest.mark.parametrize("suits, ranks, columns", [(2, 5, 3), (3, 3, 2), (1, 8, 3), (4, 2, 3)])
def test_exact_formulas_match_brute_force(suits, ranks, columns):
    dist, column_means, position_probs = brute_force(suits, ranks, columns)
    kw = {"suits": suits, "ranks": ranks}
    assert study.cards_home_distribution(True, **kw) == dist
    assert study.expected_cards_home(True, **kw) == sum(k * p for k, p in enumerate(dist))
    assert study.home_probability_by_position(True, **kw) == position_probs
    assert study.expected_column_lengths(True, columns=columns, **kw) == column_means


def test_exact_results_for_citadel():
    dist = study.cards_home_distribution(True)
    assert len(dist) == 49 and sum(dist) == 1
    assert dist[:4] == [0, 0, 0, 0] and dist[4] == Fraction(1, 16)  # only the four 2s: 3 before 2 in each suit
    assert dist[48] == Fraction(1, math.factorial(12) ** 4)
    mean = study.expected_cards_home(True)
    assert mean == 4 * sum(Fraction(1, math.factorial(m)) for m in range(1, 13))
    assert mean == sum(k * p for k, p in enumerate(dist))
    assert abs(study.expected_cards_home() - 4 * (math.e - 1)) < 1e-8
    lengths = study.expected_column_lengths(True)
    assert len(lengths) == 8 and sum(lengths) == 48 - mean
    assert all(a > b for a, b in itertools.pairwise(lengths))  # later positions lose more cards
    assert study.home_probability_by_position(True)[0] == Fraction(1, 12)  # a 2 is dealt first
    floats = study.expected_column_lengths()
    assert isinstance(floats, np.ndarray) and floats.shape == (8,)
    np.testing.assert_allclose(floats, [float(x) for x in lengths])
    assert study.cards_home_distribution().shape == (49,)


@pytest.fixture(scope="module")
def big_run() -> study.StudyResults:
    return study.simulate(200_000, seed=20261130)


def test_cards_home_distribution_chi_square(big_run):
    """Chi-square goodness of fit, bins with fewer than 5 expected deals pooled, level 0.001."""
    observed = np.bincount(big_run.home_in_deal, minlength=49)
    test = study.chi_square_test(observed, study.cards_home_distribution())
    assert test.df >= 10
    assert test.p_value > ALPHA, test


def test_expected_cards_home_z_test(big_run):
    """z-test of the simulated mean against the exact mean, with the exact standard deviation."""
    mean, sd = study.cards_home_moments()
    assert mean == pytest.approx(study.expected_cards_home())
    z = (big_run.home_in_deal.mean() - mean) / (sd / math.sqrt(big_run.n))
    assert abs(z) < Z_CRIT, z


def test_expected_column_lengths_z_tests(big_run):
    """One z-test per column (sample standard deviation), Bonferroni level 0.001 / 8."""
    z_crit = 3.8906  # two-sided normal quantile for 0.001 / 8
    lengths = big_run.after_deal.lengths.astype(float)
    se = lengths.std(axis=0, ddof=1) / math.sqrt(big_run.n)
    z = (lengths.mean(axis=0) - study.expected_column_lengths()) / se
    assert (np.abs(z) < z_crit).all(), z


def test_exact_mean_by_an_independent_engine_monte_carlo():
    """Numbered engine deals (the package's SplitMix64 shuffle, not NumPy): z-test, level 0.001."""
    n = 1500
    homes = [len(sn.new_game("citadel", seed=s, autoplay=False).deal_report.to_foundations) for s in range(1, n + 1)]
    mean, sd = study.cards_home_moments()
    z = (np.mean(homes) - mean) / (sd / math.sqrt(n))
    assert abs(z) < Z_CRIT, z


# ----------------------------------------------------------------------------- statistics helpers
@pytest.mark.parametrize(
    "stat, df, p",
    [(3.841458820694124, 1, 0.05), (18.307038053275146, 10, 0.05), (6.634896601021214, 1, 0.01), (50.0, 40, 0.1335748340856504), (100.0, 60, 0.0009168288614560842)],
)
def test_chi2_survival_function(stat, df, p):
    """Reference p-values: the usual table values, and scipy.stats.chi2.sf for the last two."""
    assert study.chi2_sf(stat, df) == pytest.approx(p, rel=1e-6)


def test_pooling_keeps_every_bin_and_enough_expected():
    probs = study.cards_home_distribution()
    test = study.chi_square_test(np.round(probs * 10_000).astype(int), probs)
    covered = [i for a, b in test.bins for i in range(a, b + 1)]
    assert covered == list(range(49))
    expected = probs * np.round(probs * 10_000).sum()
    assert all(expected[a : b + 1].sum() >= 5 for a, b in test.bins)
    assert test.p_value > 0.99  # observed is the expectation itself (rounded)


def test_mean_ci_covers_the_mean():
    mean, low, high = study.mean_ci(np.array([1.0, 2.0, 3.0, 4.0]))
    assert low < mean == 2.5 < high
    half = 1.959963984540054 * np.std([1, 2, 3, 4], ddof=1) / 2
    assert high - mean == pytest.approx(half)


def test_summary_headline(big_run):
    s = study.summary(big_run)
    mean, low, high = s["fewer_on_table"]
    assert low < mean < high
    assert s["on_table_bc"][0] == 48
    assert mean == pytest.approx(s["home_in_deal"][0] + s["autoplay_moved"][0])


# ----------------------------------------------------------------------------- progress, imports
def test_progress_callback_and_silence(capsys):
    calls = []
    study.simulate(250, seed=1, chunk=100, progress=lambda done, total: calls.append((done, total)))
    assert calls == [(100, 250), (200, 250), (250, 250)]
    study.simulate(250, seed=1)  # silent by default
    study.simulate(250, seed=1, progress=False)
    assert capsys.readouterr() == ("", "")
    with pytest.raises(ValueError, match="progress debe ser None o una función.*no True.*progress_bar"):
        study.simulate(250, seed=1, progress=True)  # a computation shows no widget itself


def test_progress_bar_in_a_kernel(monkeypatch):
    """Inside a kernel (faked here) the board's bar, passed as ``progress``, shows an
    ipywidgets bar that ends full; outside one it shows nothing."""
    IPython = pytest.importorskip("IPython")
    widgets = pytest.importorskip("ipywidgets")
    from solitaire_nb.board import progress_bar

    shown = []
    monkeypatch.setattr(IPython.display, "display", shown.append)
    study.simulate(300, seed=1, chunk=128, progress=progress_bar("Repartos"))  # no kernel: nothing
    assert shown == []
    monkeypatch.setattr(IPython, "get_ipython", lambda: type("Shell", (), {"kernel": object()})())
    study.simulate(300, seed=1, chunk=128, progress=progress_bar("Repartos"))
    (box,) = shown
    bar, label = box.children
    assert isinstance(bar, widgets.IntProgress)
    assert (bar.value, bar.max, bar.bar_style) == (300, 300, "success")
    assert label.value == "300 de 300"


def test_bad_arguments():
    with pytest.raises(ValueError):
        study.simulate(0)
    with pytest.raises(ValueError):
        study.simulate(10, keep_decks=0).typical_deal()


def test_typical_deal_is_a_median_deal():
    res = study.simulate(3000, seed=9, keep_decks=500)
    i = res.typical_deal()
    assert 0 <= i < 500
    assert abs(res.citadel.on_table[i] - np.median(res.citadel.on_table)) <= 1


def test_imports_stay_light():
    code = (
        "import sys, solitaire_nb as sn; assert 'numpy' not in sys.modules; "
        "sn.study.simulate; assert 'numpy' in sys.modules; assert 'matplotlib' not in sys.modules"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


# ----------------------------------------------------------------------------- how the columns shrink
def test_ratio_ci_is_the_ratio_of_sums_with_a_delta_method_interval():
    y = np.array([2, 1, 3, 0, 2])
    x = np.array([1, 1, 2, 1, 2])
    r, low, high = study.ratio_ci(y, x)
    assert r == pytest.approx(8 / 7)
    resid = y - r * x
    half = study.Z95 * math.sqrt((resid**2).sum() / (5 * 4)) / x.mean()
    assert (low, high) == pytest.approx((r - half, r + half))
    assert study.ratio_ci(2 * x, x)[1:] == pytest.approx((2, 2))  # a constant ratio is exact
    with pytest.raises(ValueError):
        study.ratio_ci(y, np.zeros(5))
    with pytest.raises(ValueError):
        study.ratio_ci(y, x[:3])


def test_column_shortening_counts_columns_and_cards_lost():
    lengths = np.array([
        [6, 6, 6, 6, 6, 6, 6, 6],  # nothing lost
        [5, 6, 4, 6, 6, 6, 6, 6],  # two columns: one card and two cards
        [5, 5, 5, 5, 6, 6, 6, 3],  # five columns: four lose one, one loses three
    ], dtype=np.uint8)
    s = study.column_shortening(study.Layout(lengths))
    assert s["columns_shortened"][0] == pytest.approx(7 / 3)
    assert s["cards_per_shortened_column"][0] == pytest.approx((3 + 7) / 7)
    assert s["share_losing_one"][0] == pytest.approx(5 / 7)
    assert s["columns_with_six"][0] == pytest.approx((8 + 6 + 3) / 3)
    assert s["longest_keeps_six"][0] == 1.0
    for value, low, high in s.values():
        assert low <= value <= high


def test_column_gap_names_the_columns_and_pairs_the_difference():
    rng = np.random.default_rng(1)
    lengths = np.full((400, 8), 6, dtype=np.uint8)
    lengths[:, 7] -= rng.integers(0, 2, 400).astype(np.uint8)  # Tablero 8 loses half a card
    lengths[:, 2] -= (rng.random(400) < 0.1).astype(np.uint8)
    gap = study.column_gap(study.Layout(lengths))
    assert gap.shortest == 7 and gap.longest in (0, 1, 3, 4, 5, 6)
    mean, low, high = gap.difference
    assert mean == pytest.approx(lengths[:, 7].mean() * -1 + 6)
    assert low < mean < high
    assert len(gap.lengths) == 8 and gap.lengths[0] == (6.0, 6.0, 6.0)


def test_the_deal_shortens_several_columns_by_little(big_run):
    """What notebook 06 says, checked on the large run: about five columns lose cards, most of
    them only one, and the columns differ by a small fraction of a card."""
    s = study.column_shortening(big_run.citadel)
    assert 4.5 < s["columns_shortened"][1] < s["columns_shortened"][2] < 5.5
    assert 1.3 < s["cards_per_shortened_column"][0] < 1.6
    assert s["share_losing_one"][1] > 0.5
    gap = study.column_gap(big_run.citadel)
    assert gap.longest == 0 and gap.shortest == 7
    assert 0 < gap.difference[1] and gap.difference[2] < 0.25


def test_mean_within_is_the_exact_law_of_a_mean_of_deals():
    """`mean_within` combines one deal's exact law: with one deal and a margin wider than any
    count it is 1; for two deals of a reduced deck it is the sum over pairs of one-deal counts."""
    from itertools import product

    from solitaire_nb import study

    assert study.mean_within(1, 100) == pytest.approx(1.0)
    one = [float(p) for p in study.cards_home_distribution(True, suits=2, ranks=4)]
    mean = float(study.expected_cards_home(True, suits=2, ranks=4))
    pairs = sum(one[a] * one[b] for a, b in product(range(len(one)), repeat=2) if abs((a + b) / 2 - mean) < 0.6)
    assert study.mean_within(2, 0.6, suits=2, ranks=4) == pytest.approx(pairs)
    assert 0.94 < study.mean_within(5, 1.5) < 0.95  # 06 says «94,5 %»
