"""Composed games travel wherever a game does: `new_game`, `Game.from_position`, `load_game`
(the spec in `to_json`), share codes, `win_rate` (workers and resumable files), `solve`, the
board and `study.compare`."""

from __future__ import annotations

import concurrent.futures as cf
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from successors import walk

import solitaire_nb as sn
from solitaire_nb.atlas.executors import InProcessExecutor
from solitaire_nb.atlas.records import HEADER_PREFIX
from solitaire_nb.atlas.winrate import win_rate
from solitaire_nb.core.cards import CARDS
from solitaire_nb.engine import game_definition
from solitaire_nb.engine.share import load_share, share_code
from solitaire_nb.games import GAMES
from solitaire_nb.games import custom as lab
from solitaire_nb.games.notation import format_move
from solitaire_nb.solver import solve

BC10_KING = lab.custom("beleaguered_castle", columns=10, empty="king")

COMPOSED = [
    BC10_KING,
    lab.custom("bakers_dozen", suits="any", columns=9),
    lab.custom("scotch", foundation="same", runs=True, build="updown"),
    lab.custom("citadel", aces_out=False, empty="none", takeback=False),
]


def played(game, n: int, seed: int = 0):
    """`game` after up to `n` random legal moves drawn from `random.Random(seed)`."""
    return walk(game, random.Random(seed), n)


def same_game(a, b) -> None:
    assert a.name == b.name  # custom(x) without changes comes back from a share code as x itself
    assert a.rules == b.rules
    assert a.piles == b.piles
    assert a.position() == b.position()
    assert a.history == b.history
    assert set(a.legal_moves()) == set(b.legal_moves())
    assert a.seed == b.seed


# ---------------------------------------------------------------- names and definitions


def test_the_engine_resolves_a_definition_a_composed_name_or_a_registered_name():
    assert game_definition(BC10_KING) is BC10_KING
    assert game_definition(BC10_KING.name) is BC10_KING
    assert game_definition("citadel") is GAMES["citadel"]
    with pytest.raises(ValueError, match="No existe el juego 'klondike'"):
        game_definition("klondike")
    with pytest.raises(ValueError, match="columns debe ser un entero entre 4 y 20, no 30"):
        game_definition("beleaguered_castle+columns=30")


@pytest.mark.parametrize("mine", COMPOSED, ids=lambda d: d.name)
def test_new_game_takes_a_definition_or_its_name_and_deals_alike(mine):
    by_def, by_name = sn.new_game(mine, seed=12), sn.new_game(mine.name, seed=12)
    assert by_def.definition is mine and by_name.definition is mine
    assert by_def.name == mine.name
    assert by_def.piles == by_name.piles
    assert by_def.deal_report == by_name.deal_report


def test_from_position_takes_a_definition_or_its_name():
    piles = {"T0": ["2S", "3H"], "T9": ["KD"], "F0": ["AS"]}
    for game in (BC10_KING, BC10_KING.name):
        g = sn.Game.from_position(game, piles)
        assert g.definition is BC10_KING and g.is_practice
        assert [c.code for c in g.piles["T9"]] == ["KD"]
    with pytest.raises(ValueError, match="no tiene la pila 'T10'"):
        sn.Game.from_position(BC10_KING, {"T10": ["2S"]})


def test_a_composed_game_has_no_variant_flags():
    with pytest.raises(ValueError, match="no tiene la variante 'any_suit'"):
        sn.new_game(lab.custom("bakers_dozen", columns=9), seed=1, any_suit=True)


# ---------------------------------------------------------------- JSON


@pytest.mark.parametrize("mine", COMPOSED, ids=lambda d: d.name)
def test_json_round_trip_of_a_composed_game_with_moves(mine):
    g = played(sn.new_game(mine, seed=5), 25, seed=5)
    if g.moves_played > 1:
        g.undo()
    doc = json.loads(g.to_json())
    assert doc["game"] == mine.name and doc["spec"] == mine.spec
    back = sn.load_game(g.to_json())
    same_game(back, g)
    assert back.definition is mine


def test_json_round_trip_of_an_explicit_deal_and_of_a_practice_position():
    deck = [c.code for c in random.Random(3).sample(list(CARDS), 52)]
    g = played(sn.new_game(BC10_KING, deck=deck), 10, seed=1)
    back = sn.load_game(g.to_json())
    same_game(back, g)
    assert back.deal == g.deal
    p = sn.Game.from_position(BC10_KING, {"T0": ["3H", "2S"], "T9": ["KD"], "F0": ["AS"]})
    p.move("T0", "F0")
    same_game(sn.load_game(p.to_json()), p)


def test_built_in_games_write_no_spec_and_custom_without_changes_loads_as_itself():
    assert "spec" not in json.loads(sn.new_game("citadel", seed=1).to_json())
    plain = lab.custom("scotch")
    doc = json.loads(sn.new_game(plain, seed=4).to_json())
    assert doc["game"] == "scotch" and doc["spec"] == {"like": "scotch", "changes": {}}
    assert sn.load_game(json.dumps(doc)).definition is plain


def test_a_document_without_the_spec_loads_by_its_composed_name():
    g = played(sn.new_game(BC10_KING, seed=8), 6)
    doc = json.loads(g.to_json())
    del doc["spec"]
    same_game(sn.load_game(json.dumps(doc)), g)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"game": "beleaguered_castle"}, "el juego es 'beleaguered_castle', pero su descripción es la de"),
        ({"spec": {"like": "beleaguered_castle", "changes": {"columns": 11, "empty": "king"}}}, "pero su descripción"),
        ({"spec": {"like": "beleaguered_castle", "changes": {"columns": 99}}}, "columns debe ser un entero entre 4 y 20"),
        ({"spec": {"like": "klondike", "changes": {}}}, "like debe ser uno de estos juegos"),
        ({"spec": []}, "no es válido"),
        ({"spec": {"like": "citadel", "changes": {"columns": [10]}}}, "columns debe ser un entero"),
        ({"spec": {"like": ["citadel"], "changes": {}}}, "like debe ser uno de estos juegos"),
        ({"spec": None}, "no es válido"),
    ],
)
def test_a_bad_spec_is_refused_in_spanish(change, message):
    doc = json.loads(sn.new_game(BC10_KING, seed=2).to_json())
    doc.update(change)
    with pytest.raises(ValueError, match=message):
        sn.load_game(json.dumps(doc))


# ---------------------------------------------------------------- share codes


@pytest.mark.parametrize("mine", COMPOSED, ids=lambda d: d.name)
def test_share_code_round_trip_of_a_numbered_deal_with_moves(mine):
    g = played(sn.new_game(mine, seed=31), 20, seed=2)
    code = share_code(g)
    assert code.startswith(mine.name + "/31/")
    back = load_share(code)
    same_game(back, g)
    assert back.definition is mine


def test_share_code_round_trip_of_an_explicit_deal_and_a_practice_position():
    deck = [c.code for c in random.Random(9).sample(list(CARDS), 52)]
    g = played(sn.new_game(BC10_KING, deck=deck), 8, seed=3)
    code = share_code(g)
    assert code.startswith(BC10_KING.name + "/d.")
    back = load_share(code)
    same_game(back, g)
    assert back.deal == g.deal
    p = sn.Game.from_position(BC10_KING, {"T0": ["3H", "2S"], "T9": ["KD"], "F0": ["AS"]})
    p.move("T0", "F0")
    code = share_code(p)
    assert code.startswith(BC10_KING.name + "/p.")
    same_game(load_share(code), p)


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("beleaguered_castle+columns=30/1/", "columns debe ser un entero entre 4 y 20, no 30"),
        ("beleaguered_castle+columns/1/", "cada cambio se escribe cambio=valor"),
        ("beleaguered_castle+empty=kings/1/", "empty debe ser 'any', 'king' o 'none', no 'kings'"),
        ("beleaguered_castle+runs=1/1/", "runs debe ser True o False, no 1"),
        ("beleaguered_castle+wrap=true/1/", "custom no tiene el cambio 'wrap'"),
        ("klondike+columns=10/1/", "like debe ser uno de estos juegos"),
        ("beleaguered_castle+columns=10;takeback=0/1/", "no tiene la variante 'takeback'"),
        ("beleaguered_castle+columns=10/x/", "no es un número de partida"),
    ],
)
def test_bad_composed_share_codes_are_refused_in_spanish(code, message):
    with pytest.raises(ValueError, match=message):
        load_share(code)


@settings(max_examples=150, deadline=None)
@given(
    st.one_of(
        st.text(max_size=60),
        st.from_regex(
            r"(citadel|scotch|bakers_dozen|beleaguered_castle|x)(\+[a-z_]{0,12}=?[a-z0-9]{0,12}){1,3}(;[a-z]+=[01])?"
            r"/[0-9]{0,3}/(T[0-9]{1,2}-[TB][0-9]{1,2})?",
            fullmatch=True,
        ),
    )
)
def test_any_text_as_a_composed_share_code_loads_or_is_refused_in_spanish(text):
    try:
        load_share(text)
    except ValueError as exc:
        assert "Traceback" not in str(exc) and "Exceeds" not in str(exc)


def test_a_huge_number_in_a_composed_name_is_refused_as_a_value():
    with pytest.raises(ValueError, match="columns debe ser un entero entre 4 y 20"):
        load_share("citadel+columns=" + "9" * 5000 + "/1/")


@st.composite
def compositions(draw):
    like = draw(st.sampled_from(lab.LIKES))
    keys = draw(st.sets(st.sampled_from(lab.CHANGES), max_size=4))
    values = {
        "columns": st.integers(4, 20),
        **{k: st.sampled_from(v) for k, v in lab.CHOICES.items()},
        **{k: st.booleans() for k in lab.FLAGS},
    }
    return lab.custom(like, **{k: draw(values[k]) for k in keys})


@settings(max_examples=30, deadline=None)
@given(compositions(), st.integers(0, 10**6), st.integers(0, 30))
def test_any_composed_game_survives_json_and_share_code(mine, seed, moves):
    g = played(sn.new_game(mine, seed=seed), moves, seed=seed)
    same_game(sn.load_game(g.to_json()), g)
    same_game(load_share(share_code(g)), g)


# ---------------------------------------------------------------- win_rate


class CountingExecutor(InProcessExecutor):
    """In-process, remembering the arguments of every call (what a worker receives)."""

    def __init__(self):
        self.calls: list[tuple] = []

    def submit(self, fn, /, *args, **kwargs):
        self.calls.append(args)
        return super().submit(fn, *args, **kwargs)


def test_win_rate_on_a_composed_game_with_an_executor_resumes_from_its_file(tmp_path):
    mine = lab.custom("beleaguered_castle", columns=10)
    out = tmp_path / "bc10.csv"
    first = CountingExecutor()
    result = win_rate(mine, deals=range(1, 4), max_states=2000, executor=first, progress=False, out=out)
    assert [r.deal for r in result.records] == [1, 2, 3]
    assert result.name == mine.name and "Beleaguered Castle con 10 columnas" in result.texto()
    assert all(isinstance(args[0], str) and args[0] == mine.name for args in first.calls)  # picklable
    header = json.loads(out.read_text(encoding="utf-8").splitlines()[0].removeprefix(HEADER_PREFIX))
    assert header["game"] == mine.name and header["spec"] == mine.spec
    again = CountingExecutor()
    resumed = win_rate(mine.name, deals=range(1, 5), max_states=2000, executor=again, progress=False, out=out)
    assert [args[1] for args in again.calls] == [4]  # deals 1–3 come from the file
    assert resumed.by_deal()[2].states == result.by_deal()[2].states
    assert resumed.by_deal()[2].status == result.by_deal()[2].status
    with pytest.raises(ValueError, match="es de otro estudio"):
        win_rate("beleaguered_castle", deals=range(1, 3), max_states=2000, progress=False, out=out)


def test_win_rate_sends_a_composed_game_to_worker_processes():
    mine = lab.custom("bakers_dozen", suits="any")
    with cf.ProcessPoolExecutor(max_workers=1) as pool:
        result = win_rate(mine, deals=[1, 4], max_states=500, executor=pool, progress=False)
    inline = win_rate(
        "bakers_dozen", deals=[1, 4], max_states=500, executor=InProcessExecutor(), progress=False, any_suit=True
    )
    assert [(r.deal, r.status, r.states) for r in result.records] == [
        (r.deal, r.status, r.states) for r in inline.records
    ]


def test_win_rate_refuses_a_definition_no_name_rebuilds():
    import dataclasses

    odd = dataclasses.replace(GAMES["citadel"], name="mi_citadel")
    with pytest.raises(ValueError, match="solo estudia juegos que se pueden rehacer por su nombre"):
        win_rate(odd, deals=[1], max_states=10, progress=False)
    with pytest.raises(ValueError, match="columns debe ser un entero"):
        win_rate("citadel+columns=2", deals=[1], max_states=10, progress=False)


# ---------------------------------------------------------------- solve


def exhaustively_lost(game, cap: int = 20_000) -> bool | None:
    """True if no play from `game` wins (every position reached through the engine), False
    if one does, None if there are more than `cap` positions."""
    seen: set[str] = set()
    stack = [game.copy()]
    while stack:
        g = stack.pop()
        key = json.dumps(g.position(), sort_keys=True)
        if key in seen:
            continue
        seen.add(key)
        if g.is_won():
            return False
        if len(seen) > cap:
            return None
        for move in g.legal_moves():
            nxt = g.copy()
            nxt.move(move)
            stack.append(nxt)
    return True


SOLVED = [
    lab.custom("beleaguered_castle", columns=10),
    lab.custom("bakers_dozen", suits="any"),
    lab.custom("scotch", foundation="same"),
    lab.custom("beleaguered_castle", empty="king"),
]


@pytest.mark.parametrize("mine", SOLVED, ids=lambda d: d.name)
def test_every_won_line_on_a_composed_game_replays_and_lost_is_complete(mine):
    verdicts = set()
    for seed in range(1, 7):
        game = sn.new_game(mine, seed=seed)
        result = solve(game.copy(), max_states=3000)
        verdicts.add(result.status)
        if result.status == "won":
            for move in result.moves:
                game.move(move)
            assert game.is_won()
        elif result.status == "lost":
            assert exhaustively_lost(game) in (True, None)
    assert verdicts & {"won", "lost"}


@pytest.mark.parametrize(
    ("mine", "name", "flags"),
    [
        (lab.custom("beleaguered_castle", deal_to_foundations=True, autoplay=True), "citadel", {}),
        (lab.custom("bakers_dozen", suits="any"), "bakers_dozen", {"any_suit": True}),
    ],
    ids=["citadel", "bakers_dozen_any_suit"],
)
def test_a_composed_game_equal_to_a_built_in_gets_its_verdicts_and_state_counts(mine, name, flags):
    for seed in range(1, 11):
        a = solve(sn.new_game(mine, seed=seed), max_states=1500)
        b = solve(sn.new_game(name, seed=seed, **flags), max_states=1500)
        assert (a.status, a.states, a.moves) == (b.status, b.states, b.moves), seed


# ---------------------------------------------------------------- the package front


def test_the_package_exports_custom_and_from_spec():
    assert sn.custom("beleaguered_castle", columns=10, empty="king") is BC10_KING
    assert sn.from_spec(BC10_KING.spec) is BC10_KING
    assert sn.custom.LIKES == lab.LIKES  # still the module too
    assert "custom" in sn.__all__ and "from_spec" in sn.__all__
    assert {"custom", "from_spec", "play", "study"} <= set(dir(sn))  # the lazy names too


def test_study_compare_is_the_paired_comparison():
    from solitaire_nb.study.comparison import compare

    a = sn.study.compare(GAMES["beleaguered_castle"], BC10_KING, n=200, seed=1)
    b = compare(GAMES["beleaguered_castle"], BC10_KING, n=200, seed=1)
    assert a.differences == b.differences
    c = sn.study.compare("beleaguered_castle", BC10_KING.name, n=200, seed=1)
    assert c.differences == a.differences


# ---------------------------------------------------------------- the board


def test_the_board_plays_a_composed_game_and_keeps_it_on_a_new_deal():
    pytest.importorskip("anywidget")
    board = sn.play(BC10_KING, seed=3)
    assert board.game.definition is BC10_KING
    view = board.view
    assert view["game"] == BC10_KING.name
    assert view["games"][-1] == [BC10_KING.name, BC10_KING.display_name]
    assert [k for k, _ in view["games"][:-1]] == list(GAMES)
    board.press("new", game=view["game"], seed="8")
    assert board.game.definition is BC10_KING and board.game.seed == 8
    assert board.message == f"Nueva partida: {BC10_KING.display_name}, partida n.º 8."
    board.press("new", seed="9")  # no game chosen: the current one
    assert board.game.definition is BC10_KING and board.game.seed == 9
    move = board.game.legal_moves()[0]
    board.type_move(format_move(board.game, move))
    assert board.game.moves_played == 1 and board.kind != "error"
    board.press("new", game="citadel", seed="9")
    assert board.game.definition is GAMES["citadel"]
    assert [k for k, _ in board.view["games"]] == list(GAMES)  # the composed game leaves the list
    board.press("new", game="citadel+columns=99", seed="9")
    assert board.kind == "error" and "No existe el juego" in board.message
    assert board.game.definition is GAMES["citadel"]


def test_a_board_built_from_a_composed_game_and_loading_one():
    pytest.importorskip("anywidget")
    from solitaire_nb.board import Board

    g = played(sn.new_game(COMPOSED[2], seed=4), 5)
    board = Board(g)
    assert board.view["display_name"] == COMPOSED[2].display_name
    other = Board(sn.new_game("citadel", seed=1))
    other.press("load", text=share_code(g))
    assert other.game.definition is COMPOSED[2] and other.game.history == g.history
    assert other.view["games"][-1] == [COMPOSED[2].name, COMPOSED[2].display_name]
