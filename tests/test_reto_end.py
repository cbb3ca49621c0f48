"""Issue 44, the class challenge's end and its deal: what an ended challenge shows, «Reabrir»,
refusal reasons kept whole, the challenge page read without an English warning, and ``--reto``
refusing a deal the solver has proved lost (with the nearest won one)."""

from __future__ import annotations

import io
import json
import warnings
from pathlib import Path

import pytest

from solitaire_nb.classroom import challenge as reto
from solitaire_nb.classroom import launcher as clase
from solitaire_nb.classroom import machine
from solitaire_nb.classroom.challenge_state import Challenge
from solitaire_nb.classroom.summary import write_csv
from solitaire_nb.engine.share import load_share
from solitaire_nb.games.notation import format_move

WON = "citadel/1234"  # stored as won in the atlas records


def _play_to_the_end(c: Challenge, secret: str) -> None:
    """Play a winning line on the seat of `secret` (the solver's)."""
    from solitaire_nb.solver import solve

    game = load_share(c.deal)
    result = solve(game.copy(), max_states=200_000)
    assert result.status == "won"
    for m in result.moves:
        c.event(secret, "move", format_move(game, m, sep="-"))
        game.move(m)


def test_an_ended_challenge_says_who_won_and_reopens(tmp_path: Path) -> None:
    c = Challenge(WON, tmp_path / "r.sqlite", say=lambda _: None)
    _, winner = c.new_seat()
    _, other = c.new_seat()
    _play_to_the_end(c, winner)
    c.event(other, "move", format_move(load_share(WON), load_share(WON).legal_moves()[0], sep="-"))
    assert [r["estado"] for r in c.rows()] == ["¡Ganada!", "Jugando"]
    c.command("terminar")
    assert [r["estado"] for r in c.rows()] == ["Ganó", "Sin terminar"]
    assert c.view()["estado"]["ended"] is True
    c.command("reabrir")
    assert [r["estado"] for r in c.rows()] == ["¡Ganada!", "Jugando"]
    c.event(other, "undo")  # the class plays on
    assert c.record is not None and c.record.state()["ended"] is False


def test_a_reopened_challenge_tells_the_student(tmp_path: Path) -> None:
    from solitaire_nb.board.challenge import REOPENED, ChallengeBoard

    board = ChallengeBoard(WON)
    board._apply_state({"ended": True, "resumen": "Reto terminado. Resumen."})
    board.refresh()  # as the page's poll does
    assert "Reto terminado" in board.view["message"]
    board._apply_state({"ended": False})
    board.refresh()
    assert board.view["message"] == REOPENED


def test_the_student_board_of_a_challenge_offers_no_other_deal() -> None:
    """The front end hides the game selector, «Nueva partida» and «Cargar» when the view says
    ``reto`` (board.js); a crafted message is still answered in Spanish."""
    from solitaire_nb.board.challenge import SAME_DEAL, ChallengeBoard

    board = ChallengeBoard(WON)
    assert board.view["reto"] is True
    js = (Path(reto.__file__).parents[1] / "board" / "board.js").read_text(encoding="utf-8")
    assert "newGroup.hidden = loadButton.hidden = !!(v.reto || v.fixed);" in js
    board.handle({"event": "button", "name": "new", "game": "scotch", "seed": 7})
    assert board.view["message"] == SAME_DEAL and board.game.name == "citadel"


def test_refusal_reasons_are_whole_in_the_table_and_the_csv(tmp_path: Path) -> None:
    c = Challenge("beleaguered_castle/2000", tmp_path / "r.sqlite", say=lambda _: None)
    _, secret = c.new_seat()
    c.event(secret, "refusal", "B2-T8")
    reason = c.record.events()[-1]["reason"]  # type: ignore[union-attr]
    assert len(reason) > 200 and reason.endswith("solo puede ir un 9 de cualquier palo.")
    assert c.rows()[0]["rechazo"] == f"B2-T8: {reason}"
    assert reason.rstrip(".") in c.common_refusals()[0]
    out = io.StringIO()
    write_csv(c.record.events(), {}, out, False)  # type: ignore[union-attr]
    assert reason in out.getvalue()


def test_the_challenge_page_has_cell_ids() -> None:
    """nbformat warns in English (MissingIDFieldWarning) on a 4.5 notebook without cell ids;
    the launcher's own page must not make it."""
    import nbformat

    text = json.dumps(reto.challenge_notebook(WON))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        nb = nbformat.reads(text, as_version=4)
        nbformat.validate(nb)
    assert all(cell.get("id") for cell in nb.cells)


# ---------------------------------------------------------------------- --reto and the deal's verdict
def test_a_lost_deal_is_refused_with_the_nearest_won_one() -> None:
    said: list[str] = []
    with pytest.raises(reto.LostDeal) as refused:
        reto.check_deal("scotch/1234", said.append)  # stored as lost: nothing solved
    assert str(refused.value) == ("el reparto scotch/1234 no tiene solución (el resolvedor lo ha demostrado): nadie "
                                  "podría ganar el reto; prueba con --reto scotch/1233, que sí la tiene.")  # fmt: skip
    assert said == []
    with pytest.raises(reto.LostDeal, match=r"beleaguered_castle/2026 no tiene solución.*--reto beleaguered_castle/2000"):
        reto.check_deal("beleaguered_castle/2026", said.append)  # not stored: a bounded solve
    assert said == ["Comprobando con el resolvedor si el reparto beleaguered_castle/2026 tiene solución…"]
    with pytest.raises(reto.LostDeal, match=r"--reto 'beleaguered_castle;takeback=0/2027'"):
        reto.check_deal("beleaguered_castle;takeback=0/2026", said.append)  # quoted for the shell


def test_won_and_undecided_deals_are_allowed(monkeypatch: pytest.MonkeyPatch) -> None:
    said: list[str] = []
    reto.check_deal(WON, said.append)
    assert said == []
    import solitaire_nb.atlas.won_deals as w

    monkeypatch.setattr(w, "deal_verdict", lambda *a, **k: w.DealVerdict("unknown", "solved"))
    reto.check_deal("citadel/2026", said.append)
    assert said[-1].startswith("Aviso: el resolvedor no ha podido decidir en 100.000 estados si el reparto citadel/2026")


def test_the_launcher_refuses_a_lost_deal_in_one_line(capsys, monkeypatch) -> None:
    monkeypatch.setattr(machine, "port_free", lambda *a: None)
    with pytest.raises(SystemExit) as exit_:
        clase.main(["--reto", "scotch/1234", "--progresivo"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.splitlines() == ["python -m solitaire_nb.classroom: error: el reparto scotch/1234 no tiene solución (el "
                                "resolvedor lo ha demostrado): nadie podría ganar el reto; prueba con --reto scotch/1233, "
                                "que sí la tiene."]  # fmt: skip


def test_a_class_under_way_keeps_its_deal(tmp_path: Path, monkeypatch) -> None:
    """A restart with the record of a class (its deal) is not refused: the class goes on."""
    from solitaire_nb.classroom.record import Record

    monkeypatch.setattr(machine, "port_free", lambda *a: None)
    path = tmp_path / "r.sqlite"
    Record(path, "scotch/1234").close()
    args = clase.parser().parse_args(["--reto", "scotch/1234", "--registro", str(path), "--progresivo"])
    assert clase.check_args(args) is None
