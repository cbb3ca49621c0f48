"""Players who do not peek (issue 25): the heuristic player decides from what a person sees,
is deterministic, plays every game, and wins clearly more than a random player and one who
always plays the first legal move."""

from __future__ import annotations

import copy
import json
import random
import sys
from pathlib import Path

import pytest

import solitaire_nb as sn
from solitaire_nb.atlas.executors import InProcessExecutor
from solitaire_nb.atlas.intervals import wilson
from solitaire_nb.atlas.studyfile import read_records
from solitaire_nb.atlas.winrate import win_rate
from solitaire_nb.players import player as pl

ROOT = Path(__file__).resolve().parents[1]


# ---------------------------------------------------------------------- helpers
def hidden_cards(game) -> list[tuple[str, int]]:
    """(pile, index) of every face-down card: tableau, stock and reserve."""
    return [(p, i) for p in game.pile_ids for i in range(game.face_down(p))]


def permuted(game, rng: random.Random):
    """The same position with its face-down cards shuffled among their places: every
    face-up card where it was, the same face-down counts."""
    pos = game.position()
    slots = hidden_cards(game)
    cards = [pos["piles"][p][i] for p, i in slots]
    rng.shuffle(cards)
    piles = {p: list(c) for p, c in pos["piles"].items()}
    for (p, i), c in zip(slots, cards, strict=True):
        piles[p][i] = c
    return sn.Game.from_position(game.name, piles, pos["face_down"], **game.variant)


class SeenOnly:
    """A game seen through what a person at the table knows: the player's view, the legal
    moves and the rules as data; any other attribute (the piles, the deal…) is refused."""

    ALLOWED = frozenset(
        {"player_view", "legal_moves", "rules", "definition", "pile_kind", "tableau_ids", "foundation_ids",
         "pile_ids", "name", "variant", "is_won"}
    )

    def __init__(self, game):
        self._game = game

    def __getattr__(self, name):
        if name not in SeenOnly.ALLOWED:
            raise AssertionError(f"the player read game.{name}")
        return getattr(self._game, name)


def twin(player):
    """The same player with a memory of its own (cheaper than a deep copy)."""
    other = copy.copy(player)
    other.__dict__ = {k: set(v) if isinstance(v, set) else v for k, v in player.__dict__.items()}
    return other


def positions_in_play(name: str, deals, every: int, **variant):
    """(game, player with its memory) at every `every`-th move of the heuristic player's games."""
    for deal in deals:
        game = sn.new_game(name, seed=deal, **variant)
        player = pl.Heuristic()
        player.reset(game)
        for n in range(600):
            if n % every == 0:
                yield game.copy(), twin(player)
            move = player.choose(game)
            if move is None or game.is_won():
                break
            game.move(move)


def history(game, player, max_moves: int = pl.MAX_MOVES) -> list[str]:
    g = game.copy()
    player.reset(g)
    out = []
    while len(out) < max_moves and not g.is_won():
        move = player.choose(g)
        if move is None:
            break
        g.move(move)
        out.append(str(move))
    return out


# ---------------------------------------------------------------------- no peeking
@pytest.mark.parametrize(
    ("name", "variant", "deals", "every", "least"),
    [("moving_left", {}, range(1, 5), 9, 40), ("moving_left", {"shift_left": True}, range(20, 23), 9, 30),
     ("chequers", {}, range(1, 9), 1, 30)],
    ids=["moving_left", "moving_left_desplazar", "chequers"],
)
def test_permuting_the_unseen_cards_never_changes_the_choice(name, variant, deals, every, least):
    """Positions reached in play, early and late (Chequers hides only its reserve, which the
    first holes use up): the same choice with the face-down cards shuffled, three times."""
    rng = random.Random(25)
    checked = 0
    for game, player in positions_in_play(name, deals, every, **variant):
        if not hidden_cards(game):
            continue
        mine = twin(player).choose(game)
        for _ in range(3):
            other = permuted(game, rng)
            assert other.player_view() == game.player_view()
            assert other.legal_moves() == game.legal_moves()
            assert twin(player).choose(other) == mine, (name, game.history)
        checked += 1
    assert checked >= least


@pytest.mark.parametrize("deal", [4, 9])
def test_a_varied_player_does_not_peek_either(deal):
    """`Varied` (the solver's rollouts): its noise is drawn per visible move, so with the
    face-down cards shuffled it makes the same choice (same seed, same draws so far)."""
    rng = random.Random(deal)
    game = sn.new_game("moving_left", seed=deal)
    player = pl.Varied(seed=deal, sigma=300.0)
    player.reset(game)
    checked = 0
    for n in range(200):
        if n % 4 == 0 and hidden_cards(game):
            mine = copy.deepcopy(player).choose(game)
            for _ in range(2):
                assert copy.deepcopy(player).choose(permuted(game, rng)) == mine, game.history
            checked += 1
        move = player.choose(game)
        if move is None or game.is_won():
            break
        game.move(move)
    assert checked >= 8


@pytest.mark.parametrize("name", list(sn.GAMES))
def test_the_player_reads_only_what_a_person_sees(name):
    """Through a wrapper that refuses the piles, the deal and every other attribute, each
    player chooses exactly what it chooses with the whole game in hand."""
    game = sn.new_game(name, seed=3)
    for maker in pl.PLAYERS.values():
        a, b = maker(), maker()
        a.reset(game)
        b.reset(game)
        g = game.copy()
        for _ in range(40):
            move = a.choose(g)
            assert b.choose(SeenOnly(g)) == move
            if move is None:
                break
            g.move(move)


# ---------------------------------------------------------------------- strength
def test_heuristic_wins_clearly_more_than_random_and_first_legal():
    """Moving Left deals 1-100, the same move cap for every player (300 moves, twice what the
    heuristic player makes in a game): the 95 % intervals do not overlap."""
    deals = range(1, 101)
    wins = {}
    for who in ("heuristic", "random", "first"):
        wins[who] = sum(pl.play_out(sn.new_game("moving_left", seed=d), pl.make_player(who), 300) for d in deals)
    low = wilson(wins["heuristic"], len(deals))[0]
    for baseline in ("random", "first"):
        assert wilson(wins[baseline], len(deals))[1] < low, wins


# ---------------------------------------------------------------------- determinism and every game
def test_same_deal_same_game():
    for name in ("moving_left", "chequers"):
        game = sn.new_game(name, seed=11)
        first = history(game, pl.Heuristic())
        assert first and history(game, pl.Heuristic()) == first
        assert history(game, pl.make_player("random"), 200) == history(game, pl.make_player("random"), 200)
        assert history(game, pl.FirstLegal(), 50) == history(game, pl.FirstLegal(), 50)
    # the random player is seeded by the deal's number: another deal, another game
    assert history(sn.new_game("scotch", seed=1), pl.RandomPlayer(), 30) != history(
        sn.new_game("scotch", seed=1), pl.RandomPlayer(seed=2), 30
    )


@pytest.mark.parametrize("name", list(sn.GAMES))
def test_every_game_can_be_played_out(name):
    definition = sn.GAMES[name]
    variants = [{}] + [{flag: not v.default} for flag, v in definition.variants.items()]
    for variant in variants:
        game = sn.new_game(name, seed=5, **variant)
        before = game.position()
        for who in pl.PLAYERS:
            won, made = pl.play_game(game, pl.make_player(who), 150)
            assert isinstance(won, bool) and 0 < made <= 150
        assert pl.play_out(game, pl.FirstLegal(), 150) == pl.play_game(game, pl.FirstLegal(), 150)[0]
        assert game.position() == before and not game.history  # played on a copy


def test_a_won_game_is_won_and_play_deal_says_so():
    # Chequers is almost entirely face up: the heuristic player wins most deals
    won = [d for d in range(1, 6) if pl.play_out(sn.new_game("chequers", seed=d), pl.Heuristic())]
    assert won
    deal, status, made, seconds, moves = pl.play_deal("chequers", won[0], {}, "heuristic")
    assert (deal, status) == (won[0], "won") and made == moves > 0 and seconds >= 0
    g = sn.new_game("chequers", seed=won[0])
    for move in history(g, pl.Heuristic()):
        g.move(move)
    assert g.is_won()


def test_unknown_player_is_refused_in_spanish():
    with pytest.raises(ValueError, match="No hay ningún jugador llamado 'nadie'"):
        pl.make_player("nadie")
    with pytest.raises(ValueError, match="Un jugador no usa time_limit ni max_states"):
        win_rate("moving_left", [1], player="heuristic", max_states=10, progress=False)


# ---------------------------------------------------------------------- win_rate and the atlas
def test_win_rate_with_a_player_is_resumable_and_keeps_studies_apart(tmp_path):
    out = tmp_path / "jugador.csv"
    first = win_rate("moving_left", range(1, 4), player="heuristic", executor=InProcessExecutor(),
                     progress=False, out=out)
    assert first.total == 3 and first.unknown == 0 and first.player == "heuristic"
    assert "gana" in first.texto() and "prudente" in first.texto()
    params, records = read_records(out)
    assert params["player"] == "heuristic" and params["player_version"] == pl.PLAYER_VERSION
    assert [r.deal for r in records] == [1, 2, 3]
    for r in records:
        assert pl.play_deal("moving_left", r.deal, {}, "heuristic")[1:3] == (r.status, r.states)
    again = win_rate("moving_left", range(1, 5), player="heuristic", executor=InProcessExecutor(),
                     progress=False, out=out)
    assert [r.deal for r in again.records] == [1, 2, 3, 4]
    assert [r.same_verdict() for r in again.records[:3]] == [r.same_verdict() for r in first.records]
    with pytest.raises(ValueError, match="es de otro estudio: del jugador 'heuristic'"):
        win_rate("moving_left", [5], player="random", executor=InProcessExecutor(), progress=False, out=out)
    with pytest.raises(ValueError, match="este es del resolvedor"):
        win_rate("moving_left", [5], max_states=100, executor=InProcessExecutor(), progress=False, out=out)


def test_win_rate_with_a_player_on_a_process_pool():
    result = win_rate("moving_left", range(1, 5), player="first", workers=2, progress=False)
    assert [r.deal for r in result.records] == [1, 2, 3, 4]
    for r in result.records:
        assert pl.play_deal("moving_left", r.deal, {}, "first")[1:3] == (r.status, r.states)


def load_atlas_script():
    import importlib.util

    spec = importlib.util.spec_from_file_location("atlas_players_script", ROOT / "benchmarks" / "atlas.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_atlas_player_entries_run_resume_and_summarise(tmp_path, monkeypatch):
    atlas = load_atlas_script()
    monkeypatch.setattr(atlas, "CSV_DIR", tmp_path / "atlas")
    monkeypatch.setattr(atlas, "SUMMARY", tmp_path / "atlas.json")
    monkeypatch.setattr(atlas, "PACKAGED", tmp_path / "paquete" / "atlas.json")
    monkeypatch.setattr(atlas, "REPO", tmp_path)
    entries = [atlas.Entry("moving_left_jugador", "moving_left", {}, 1, 4, None, "", "heuristic"),
               atlas.Entry("moving_left_primera", "moving_left", {}, 1, 4, None, "", "first")]
    monkeypatch.setattr(atlas, "ENTRIES", [])
    monkeypatch.setattr(atlas, "PLAYER_ENTRIES", entries)
    monkeypatch.setattr(atlas, "BY_KEY", {e.key: e for e in entries})
    monkeypatch.setattr(atlas, "PAIRS", [])
    monkeypatch.setattr(atlas, "blake_gent_summary", lambda: {})
    monkeypatch.setattr(atlas, "print_table", lambda doc: None)  # its Blake & Gent line needs that entry
    atlas.main(["--workers", "1", "--players", "--max-deals", "2"])
    doc = json.loads((tmp_path / "atlas.json").read_text(encoding="utf-8"))
    assert doc["entries"] == [] and [p["computed_deals"] for p in doc["players"]] == [2, 2]
    atlas.main(["--workers", "1", "--entries", "moving_left_jugador"])
    doc = json.loads((tmp_path / "atlas.json").read_text(encoding="utf-8"))
    s = doc["players"][0]
    assert s["complete"] and s["player"] == "heuristic" and s["player_name"] == "prudente"
    assert s["won"] + s["lost"] == 4 and s["unknown"] == 0 and s["seconds_per_deal"] > 0
    assert "| prudente | Moving Left | reglas de la página | 4 (n.º 1–4) |" in atlas.players_markdown(doc)


def test_committed_player_entries_match_their_files():
    doc = json.loads((ROOT / "data" / "atlas.json").read_text(encoding="utf-8"))
    assert doc["players"]
    for s in doc["players"]:
        params, records = read_records(ROOT / s["csv"])
        assert params["player"] == s["player"] in pl.PLAYERS and params["variant"] == s["variant"]
        assert s["computed_deals"] == len([r for r in records if s["planned_first"] <= r.deal <= s["planned_last"]])
        assert s["won"] == sum(r.status == "won" for r in records) and s["unknown"] == 0
        if s["computed_deals"]:
            assert (s["interval_low"], s["interval_high"]) == pytest.approx(wilson(s["won"], s["computed_deals"]))


def test_players_list_the_engines_moves_in_a_fixed_order():
    for name in sn.GAMES:
        game = sn.new_game(name, seed=4)
        for _ in range(30):
            moves = pl.legal_moves(game)
            assert sorted(moves) == sorted(game.legal_moves()) and moves == pl.legal_moves(game.copy())
            move = pl.FirstLegal().choose(game)
            if move is None:
                break
            game.move(move)


@pytest.mark.parametrize("key", ["moving_left_jugador", "moving_left_desplazar_jugador", "chequers_jugador",
                                 "moving_left_azar", "moving_left_primera"])
def test_players_reproduce_committed_atlas_records(key):
    """Today's players, on a sample of the atlas's deals, make the same number of moves with
    the same result: a change to a player (or to the order it reads the moves in) must bump
    `PLAYER_VERSION` rather than mix two players in one study."""
    params, records = read_records(ROOT / "data" / "atlas" / f"{key}.csv")
    assert params["player_version"] == pl.PLAYER_VERSION
    sample = records[:: max(1, len(records) // 4)][:4]
    for r in sample:
        got = pl.play_deal(params["game"], r.deal, params["variant"], params["player"])
        assert (got[1], got[2], got[4]) == (r.status, r.states, r.moves), r.deal
