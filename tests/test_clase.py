"""The class launcher (solitaire_nb/classroom/launcher.py) and the solver's fairness under load.

Fast checks of the launcher's pieces (notebook choice, student copy, pool size, addresses), of
the solver's "busy" verdict and class budget, and one slow check that starts the launcher on a
free port with a small lesson and asks it over HTTP for the student page, the teacher's files
and anything fetched from outside the machine.
"""

from __future__ import annotations

import asyncio
import json
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from parallel import free_port  # one free port per server, whatever xdist worker

import solitaire_nb as sn
from solitaire_nb.classroom import args as clase_args
from solitaire_nb.classroom import launcher as clase
from solitaire_nb.classroom import machine, pages
from solitaire_nb.solver import CLASS_BUDGET_ENV, Hint, SolveResult, _class_budget, hint, solve, verdict_text

REPO = Path(__file__).resolve().parents[1]


def _nb(cells: list[dict]) -> dict:
    return {
        "cells": cells,
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def _code(source: str, tags: list[str] | None = None) -> dict:
    meta = {"tags": tags} if tags else {}
    return {"cell_type": "code", "source": source, "metadata": meta, "outputs": [], "execution_count": None}


def _md(source: str, tags: list[str] | None = None) -> dict:
    return {"cell_type": "markdown", "source": source, "metadata": {"tags": tags} if tags else {}}


# ---------------------------------------------------------------------- launcher pieces
def test_notebook_found_by_its_number() -> None:
    assert pages.find_notebook("05").name == "05_citadel_y_beleaguered_castle.ipynb"
    assert pages.find_notebook("03_scotch.ipynb").name == "03_scotch.ipynb"


def test_unknown_notebook_is_a_spanish_error() -> None:
    with pytest.raises(ValueError, match="No encuentro un único cuaderno «99»"):
        pages.find_notebook("99")
    with pytest.raises(ValueError, match="único"):
        pages.find_notebook("0")  # every lesson starts with 0: ambiguous


def test_student_copy_has_no_teacher_cells(tmp_path: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()
    nb = _nb([_md("# Lección"), _code("print('alumno')"), _code("print('solución')", ["docente"]), _md("R", ["docente"])])
    nb["cells"][1]["outputs"] = [{"output_type": "stream", "name": "stdout", "text": "viejo\n"}]
    (src / "01_x.ipynb").write_text(json.dumps(nb))
    out = tmp_path / "out"
    out.mkdir()
    copy = json.loads(pages.student_copy(src / "01_x.ipynb", out).read_text())
    assert [c["source"] for c in copy["cells"]] == ["# Lección", "print('alumno')"]
    assert copy["cells"][1]["outputs"] == []


def test_pool_has_a_reserve() -> None:
    assert machine.pool_size(1) == 3
    assert machine.pool_size(30) == 33
    with pytest.raises(ValueError, match="al menos 1"):
        machine.pool_size(0)


def test_lan_addresses_are_ipv4_and_never_loopback() -> None:
    for address in machine.lan_addresses():
        assert re.fullmatch(r"\d+\.\d+\.\d+\.\d+", address)
        assert not address.startswith("127.")


def test_configuration_holds_a_class() -> None:
    pytest.importorskip("traitlets")  # Voila's configuration (the clase extra)
    from solitaire_nb.classroom.server import voila_config

    c = voila_config(30, cull_minutes=10)
    assert c.VoilaConfiguration.preheat_kernel is True
    assert c.VoilaConfiguration.default_pool_size == 33
    assert c.TagRemovePreprocessor.remove_cell_tags == {"docente"}
    assert c.VoilaExecutor.iopub_timeout >= 60
    assert c.MappingKernelManager.cull_idle_timeout == 600
    assert c.VoilaConfiguration.template == "alumno"
    progressive = voila_config(30, cull_minutes=10, preheat=False)
    assert progressive.VoilaConfiguration.progressive_rendering is True


def test_template_links_nothing_outside() -> None:
    text = (pages.TEMPLATES / "voila" / "templates" / "alumno" / "index.html.j2").read_text()
    assert "fontawesome" in text  # the links it removes are named…
    assert re.search(r"<link[^>]+https?://", text.replace("replace('<link", "")) is None  # …never added


def _student_page(monkeypatch, name: str) -> str:
    """The HTML the alumno template sends before the cells (Voila's exporter, no kernel)."""
    nbformat = pytest.importorskip("nbformat")
    exporter = pytest.importorskip("voila.exporter")
    from voila.paths import collect_template_paths

    monkeypatch.setenv("JUPYTER_PATH", str(pages.TEMPLATES))  # as the hub gives it to Voila
    paths = collect_template_paths(["voila", "nbconvert"], "alumno")
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("Hola")])
    voila = exporter.VoilaExporter(template_paths=paths, template_name="alumno")

    async def kernel_start(nb):
        return "kernel"

    async def cells(nb, kernel_id):
        for cell in nb.cells:
            yield cell

    async def render() -> str:
        parts = []
        context = {"frontend": "voila", "main_js": "voila.js", "kernel_start": kernel_start,
                   "cell_generator": cells, "progressive_rendering": False}
        resources = {"metadata": {"name": name}, "base_url": "/", "theme": "light"}
        async for part in voila.generate_from_notebook_node(nb, resources, context, page_config={}):
            parts.append(part[0] if isinstance(part, tuple) else part)
        return "".join(parts)

    # its own thread: an earlier test may have left an event loop running in this one
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, render()).result()


def test_student_page_waits_in_spanish_without_the_file_name(monkeypatch) -> None:
    html = _student_page(monkeypatch, "05_citadel_y_beleaguered_castle")
    assert re.findall(r'<h2 id="loading_text">(.*?)</h2>', html) == ["Preparando la lección…"]
    # Voila's own progress function (English) is replaced after it is defined, before any cell
    ours = html.index('"Preparando la lección: parte " + cell_index + " de " + cell_count')
    assert html.index("Executing ${cell_index}") < ours < html.index("voila_process(1, 1)")
    assert "window.voila_process = window.update_loading_text;" in html[ours:]
    assert "Running" not in html


# ---------------------------------------------------------------------- solver under load
def test_busy_search_says_so_in_spanish() -> None:
    g = sn.new_game("citadel", seed=1234)
    busy = SolveResult("unknown", [], 1000, 5.0, 1.2)
    assert busy.busy
    text = verdict_text(busy, g)
    assert "ocupado" in text and "1,2 de los 5,0 segundos" in text and "prueba otra vez" in text.lower()


def test_undecided_search_that_had_the_processor_is_not_busy() -> None:
    g = sn.new_game("citadel", seed=1234)
    alone = SolveResult("unknown", [], 1000, 5.0, 4.9)
    assert not alone.busy
    assert "ocupado" not in verdict_text(alone, g)
    assert not SolveResult("won", [], 10, 5.0, 0.1).busy  # a verdict is never "busy"
    assert not SolveResult("unknown", [], 10, 5.0).busy  # no measure, no claim


def test_solve_reports_its_processor_time() -> None:
    r = solve(sn.new_game("citadel", seed=1234), max_states=2000)
    assert r.cpu_seconds is not None and 0 <= r.cpu_seconds


def test_hint_carries_the_busy_flag() -> None:
    h = hint(sn.new_game("citadel", seed=1234), time_limit=0.5)
    assert isinstance(h, Hint) and h.busy in (False, True)
    assert Hint(None, False, "unknown").busy is False


def test_class_budget_lowers_timed_searches_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CLASS_BUDGET_ENV, "2")
    assert _class_budget(5.0) == 2.0
    assert _class_budget(1.0) == 1.0
    assert _class_budget(None) is None  # untimed searches (studies) are not cut
    monkeypatch.setenv(CLASS_BUDGET_ENV, "no")
    assert _class_budget(5.0) == 5.0
    monkeypatch.delenv(CLASS_BUDGET_ENV)
    assert _class_budget(5.0) == 5.0


# ---------------------------------------------------------------------- the launcher, served
def _get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=120) as r:
            return r.status, r.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode("utf-8", "replace")


#: what a page fetches: scripts, styles, images, frames (links a reader may click are not fetched).
RESOURCE = re.compile(r"<(?:script|link|img|iframe|source)\b[^>]*?\b(?:src|href)\s*=\s*[\"']([^\"']+)", re.I)


def external_resources(html: str) -> list[str]:
    """Resources of a page that would be fetched from another machine."""
    return [
        u for u in RESOURCE.findall(html) if urlsplit(u).scheme in ("http", "https") and urlsplit(u).hostname not in ("127.0.0.1", "localhost")
    ]  # fmt: skip


def test_external_resources_are_found() -> None:
    html = '<link rel="stylesheet" href="https://cdn.example/x.css"><a href="https://es.wikipedia.org">w</a><script src="/voila/a.js"></script>'
    assert external_resources(html) == ["https://cdn.example/x.css"]


@pytest.fixture(scope="module")
def launched(tmp_path_factory: pytest.TempPathFactory):
    """The launcher serving a small lesson (with a teacher cell, the guide and a MyST source
    beside it) on 127.0.0.1 and a free port, for one student."""
    pytest.importorskip("voila")  # the clase extra
    folder = tmp_path_factory.mktemp("lecciones")
    nb = _nb(
        [
            _md("# Lección de prueba"),
            _code("import solitaire_nb as sn\nprint('PAGINA-' + 'ALUMNO')"),
            _code("print('SOLO-' + 'DOCENTE')", ["docente"]),
            _md("RESPUESTA-SECRETA", ["docente"]),
            _code("sn.play('citadel', seed=1234)"),
        ]
    )
    (folder / "01_prueba.ipynb").write_text(json.dumps(nb))
    (folder / "guia_docente.md").write_text("# Guía\nSOLUCIONES-GUIA\n")
    (folder / "01_prueba.md").write_text("---\njupytext: {}\n---\nFUENTE-MYST\n")
    port = free_port()
    log = folder / "clase.log"
    cmd = [sys.executable, "-m", "solitaire_nb.classroom", "01", "--alumnos", "1", "--puerto", str(port),
           "--ip", "127.0.0.1", "--carpeta", str(folder)]  # fmt: skip
    with open(log, "w") as out:
        proc = subprocess.Popen(cmd, cwd=REPO, stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 300
        while "Listo" not in log.read_text() and time.monotonic() < deadline:
            assert proc.poll() is None, log.read_text()
            time.sleep(0.5)
        assert "Listo" in log.read_text(), log.read_text()
        yield f"http://127.0.0.1:{port}", log
    finally:
        proc.terminate()  # the launcher this fixture started, by its own handle
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)


@pytest.mark.slow
def test_launcher_serves_the_student_page(launched) -> None:
    base, log = launched
    text = log.read_text()
    assert f"{base}/" in text and "Preparando 3 páginas" in text
    listo = re.search(r"Listo: 3 páginas preparadas; ya se abren al momento\. La clase usa unos (\d+,\d) GB de memoria "
                      r"\((\d+) MB por alumno, con las páginas abiertas y la reserva\)\.", text)  # fmt: skip
    assert listo, text
    assert 20 < int(listo[2]) < 600  # measured: kernels with their lesson run, the server, the pages
    status, html = _get(base + "/")
    assert status == 200
    assert "PAGINA-ALUMNO" in html
    assert "application/vnd.jupyter.widget-view+json" in html  # the board's widget
    assert "SOLO-DOCENTE" not in html and "RESPUESTA-SECRETA" not in html
    assert "Traceback" not in html
    assert external_resources(html) == []


@pytest.mark.slow
def test_launcher_serves_no_teacher_material(launched) -> None:
    base, log = launched
    for path in ("/guia_docente.md", "/voila/files/guia_docente.md", "/voila/files/01_prueba.md",
                 "/voila/files/01_prueba.ipynb", "/01_prueba.ipynb", "/voila/api/contents/",
                 "/voila/api/contents/01_prueba.ipynb", "/voila/tree", "/api/contents/01_prueba.ipynb",
                 "/voila/files/../guia_docente.md"):  # fmt: skip
        status, body = _get(base + path)
        for secret in ("SOLUCIONES-GUIA", "FUENTE-MYST", "SOLO-DOCENTE", "RESPUESTA-SECRETA"):
            assert secret not in body, f"{path} ({status}) shows {secret}"
    time.sleep(1)
    text = log.read_text()
    for english in ("WARNING", "GET /", "Forbidden", "Traceback"):  # the teacher's terminal stays Spanish
        assert english not in text, text[-2000:]


def test_taken_port_is_a_spanish_error() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        with pytest.raises(ValueError, match=f"El puerto {port} está ocupado"):
            machine.port_free("127.0.0.1", port)


def test_launcher_without_voila_says_what_to_install(monkeypatch, capsys) -> None:
    real = clase.importlib.util.find_spec
    monkeypatch.setattr(clase.importlib.util, "find_spec", lambda name: None if name == "voila" else real(name))
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(SystemExit):
        clase.main(["05", "--alumnos", "1", "--ip", "127.0.0.1", "--puerto", str(port)])
    assert 'falta Voila; instálalo con el extra «clase»: pip install -e ".[clase]"' in capsys.readouterr().err


def test_hint_says_when_the_computer_was_busy(monkeypatch: pytest.MonkeyPatch) -> None:
    """«Pista» on a busy computer: a heuristic move, and the sentence says why it is not proven."""
    from solitaire_nb import solver
    pytest.importorskip("anywidget")  # the notebook extra: the board
    from solitaire_nb.board import Board

    g = sn.new_game("citadel", seed=2026)
    legal = g.legal_moves()[0]
    monkeypatch.setattr(solver, "hint", lambda game, time_limit=1.0: Hint(legal, False, "unknown", True))
    board = Board(g)
    board.buttons.hint({})
    assert "(una idea, sin comprobar)" in board.message and "muy ocupado" in board.message


# ---------------------------------------------------------------------- the command line
BAD_ARGUMENTS = [
    (["--puerto", "70000"], "--puerto: el puerto tiene que estar entre 1024 y 65535, no 70000"),
    (["--puerto", "-1"], "--puerto: el puerto tiene que estar entre 1024 y 65535, no -1"),
    (["--puerto", "80"], "entre 1024 y 65535"),
    (["--puerto", "ocho"], "«ocho» no es un número entero (puerto)"),
    (["--cierre", "nan"], "--cierre: «nan» no es un número finito"),
    (["--cierre", "inf"], "--cierre: «inf» no es un número finito"),
    (["--cierre", "-5"], "los minutos tienen que estar entre 1 y 1440"),
    (["--cierre", "0"], "los minutos tienen que estar entre 1 y 1440"),
    (["--segundos", "nan"], "--segundos: «nan» no es un número finito"),
    (["--segundos", "-1"], "los segundos tienen que ser más de 0"),
    (["--segundos", "0"], "los segundos tienen que ser más de 0"),
    (["--segundos", "inf"], "--segundos: «inf» no es un número finito"),
    (["--segundos", "1e400"], "no es un número finito"),
    (["--alumnos", "abc"], "--alumnos: «abc» no es un número entero (alumnos de la clase)"),
    (["--alumnos", "1000000"], "la clase tiene que tener de 1 a 100 alumnos, no 1000000"),
    (["--alumnos", "0"], "de 1 a 100 alumnos, no 0"),
    (["--alumnos", "2.5"], "«2.5» no es un número entero"),
    (["--alumnos", "١٢"], "«١٢» no es un número entero"),
    (["--segundos", "٣"], "«٣» no es un número"),
    (["--alumnos", "9" * 5000], "no es un número entero"),
    (["--ip", "abc"], "--ip: «abc» no es una dirección IP"),
    (["--ip", "8.8.8.8"], "La dirección 8.8.8.8 no es de este ordenador"),
    (["--ip", "x" * 5000], "no es una dirección IP"),
    (["--alumnos"], "--alumnos necesita un valor"),
    (["--progresivo=1"], "--progresivo no lleva valor"),
    (["--nada"], "no conozco estos argumentos: --nada"),
    (["--carpeta", "/no/existe"], "La carpeta «/no/existe» no existe"),
]


@pytest.mark.parametrize(("extra", "message"), BAD_ARGUMENTS, ids=[" ".join(a)[:30] for a, _ in BAD_ARGUMENTS])
def test_every_bad_argument_is_refused_in_spanish(extra, message, capsys) -> None:
    """Exit status 2 and one Spanish line, echoing at most 60 characters of what was typed;
    nothing is started."""
    with pytest.raises(SystemExit) as stop:
        clase.main(["05", "--ip", "127.0.0.1", *extra] if "--ip" not in extra else ["05", *extra])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert message in err, err
    assert err.startswith("uso: python -m solitaire_nb.classroom")
    assert len(err) < 800 and "Traceback" not in err
    for english in ("usage", "error: argument", "invalid", "expected", "required", "unrecognized", "está ocupado"):
        assert english not in err, err


def test_missing_notebook_is_refused_in_spanish(capsys) -> None:
    with pytest.raises(SystemExit) as stop:
        clase.main([])
    assert stop.value.code == 2
    assert "error: falta el cuaderno (por ejemplo 05) o --reto CÓDIGO." in capsys.readouterr().err


def test_help_is_spanish(capsys) -> None:
    with pytest.raises(SystemExit) as stop:
        clase.main(["--help"])
    assert stop.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("uso: python -m solitaire_nb.classroom")
    assert "\nargumentos:\n" in out and "\nopciones:\n" in out and "muestra esta ayuda y termina" in out
    for english in ("usage:", "options:", "positional arguments", "show this help", "exit"):
        assert english not in out


def test_parser_is_reusable_for_new_arguments(capsys) -> None:
    """The class challenge's arguments (--reto, --registro, --borrar) are added to the same
    parser with the same converters and messages."""
    p = clase.parser()
    with pytest.raises(SystemExit) as stop:
        p.parse_args(["--reto", "nan"])
    assert stop.value.code == 2 and "--reto: «nan» no es un reparto para el reto" in capsys.readouterr().err
    with pytest.raises(SystemExit) as stop:
        p.parse_args(["--reto", "citadel/1", "--registro", "x" * 300 + "/r.sqlite"])
    assert stop.value.code == 2 and "--registro: la carpeta de «xxx" in capsys.readouterr().err


def test_spanish_errors_translate_argparse() -> None:
    assert clase_args.spanish_error("the following arguments are required: cuaderno") == "falta el argumento cuaderno."
    assert clase_args.spanish_error("unrecognized arguments: " + "y" * 500).endswith("y…")
    assert clase_args.spanish_error("something else in English, invalid") == "la orden no es válida."


def test_memory_of_the_pool_is_checked_before_it_starts() -> None:
    machine.check_memory(30, 24 * 1024)  # a class of 30 on a 24 GB machine
    machine.check_memory(200, None)  # unknown memory: no refusal on a guess
    with pytest.raises(ValueError, match=r"Para 30 alumnos harían falta unos 2,\d GB de memoria \(33 páginas") as info:
        machine.check_memory(30, 1024)
    message = str(info.value)
    assert "este ordenador tiene libres 1,0 GB: usa --alumnos " in message
    fits = int(re.search(r"--alumnos (\d+)", message)[1])
    machine.check_memory(fits, 1024)
    with pytest.raises(ValueError):
        machine.check_memory(fits + 1, 1024)
    with pytest.raises(ValueError, match="cierra otros programas"):
        machine.check_memory(1, 100)


def test_main_refuses_a_class_that_does_not_fit(monkeypatch, capsys) -> None:
    monkeypatch.setattr(machine, "available_memory_mb", lambda: 500.0)
    with pytest.raises(SystemExit) as stop:
        clase.main(["05", "--alumnos", "30", "--ip", "127.0.0.1", "--puerto", str(free_port())])
    assert stop.value.code == 2
    assert "harían falta unos" in capsys.readouterr().err


def test_links_to_files_not_served_become_text() -> None:
    md = ("Sigue en [06 · Estudio](06_estudio.ipynb), la [guía](guia_docente.md), "
          "[aquí](05_x.ipynb#Parte), [arriba](#Arriba), [fuera](https://es.wikipedia.org/wiki/Solitario), "
          "![dibujo](img.png) y <a href=\"07_p.ipynb\">la 07</a>.")  # fmt: skip
    out = pages.unlink_files(md, "05_x.ipynb")
    assert out == ("Sigue en 06 · Estudio, la guía, [aquí](#Parte), [arriba](#Arriba), "
                   "[fuera](https://es.wikipedia.org/wiki/Solitario), ![dibujo](img.png) y la 07.")  # fmt: skip


def test_student_copy_unlinks_other_lessons(tmp_path: Path) -> None:
    nb = _nb([_md("Ve a [07 · Probabilidades](07_probabilidades.ipynb).")])
    (tmp_path / "05_x.ipynb").write_text(json.dumps(nb))
    out = tmp_path / "out"
    out.mkdir()
    copy = json.loads(pages.student_copy(tmp_path / "05_x.ipynb", out).read_text())
    assert copy["cells"][0]["source"] == "Ve a 07 · Probabilidades."


def test_ready_means_every_page_has_run_its_notebook() -> None:
    """«Listo» waits for the notebooks, not only for the kernels (pool_state)."""
    from solitaire_nb.classroom.server import pool_state

    loop = asyncio.new_event_loop()
    try:
        def done(value=None, error=None):
            f = loop.create_future()
            f.set_exception(error) if error else f.set_result(value)
            return f

        running_render = loop.create_future()
        km = type("KM", (), {})()
        km._pools = {"x": [done({"task": done("html")}), done({"task": running_render}), loop.create_future()]}
        assert pool_state(km) == (1, 0, 2)
        running_render.set_result("html")
        km._pools["x"][2] = done(error=RuntimeError("no arranca"))
        assert pool_state(km) == (2, 1, 0)
    finally:
        loop.close()


@pytest.mark.parametrize("lesson", sorted(p.name for p in (REPO / "notebooks").glob("[0-9][0-9]_*.ipynb")))
def test_no_lesson_page_links_to_a_file_the_launcher_does_not_serve(lesson: str, tmp_path: Path) -> None:
    """Each lesson as the launcher serves it: every link left opens a place in the page or
    another site (the browser test clicks them on a served page)."""
    copy = json.loads(pages.student_copy(REPO / "notebooks" / lesson, tmp_path).read_text())
    for cell in copy["cells"]:
        if cell["cell_type"] != "markdown":
            continue
        text = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
        for target in re.findall(r"(?<!!)\]\(\s*<?([^)\s>]*)", text) + re.findall(r"href\s*=\s*[\"']([^\"']*)", text):
            assert target.startswith("#") or re.match(r"https?:", target), f"{lesson}: enlace a {target}"


# ---------------------------------------------------------------------- a board's game kept by the browser
def test_board_comes_back_from_the_code_the_browser_kept() -> None:
    pytest.importorskip("anywidget")  # the notebook extra: the board
    first = sn.play("citadel", seed=4321)
    first.type_move(_first_move_text(first))
    kept = first.view["code"]
    again = sn.play("citadel", seed=4321)  # the same page, run again in a new kernel
    assert again.view["keep"].startswith("citadel/4321#")
    again.handle({"event": "restore", "code": kept})
    assert again.game.moves_played == 1 and again.view["code"] == kept
    assert again.message == "Tu partida ha vuelto tal como la dejaste: 1 movimiento."
    assert again.game.can_undo  # the moves are replayed, not just the position


@pytest.mark.parametrize("code", [None, 5, "", "basura", "citadel/4321/T9-T9", "x" * 100_000])
def test_a_kept_code_that_does_not_load_leaves_the_board_as_dealt(code) -> None:
    pytest.importorskip("anywidget")
    board = sn.play("citadel", seed=4321)
    before = board.view["code"]
    board.handle({"event": "restore", "code": code})
    assert board.view["code"] == before and board.kind != "error"


def test_boards_dealt_alike_are_kept_apart() -> None:
    pytest.importorskip("anywidget")
    a, b = sn.play("citadel", seed=999), sn.play("citadel", seed=999)
    assert a.view["keep"] != b.view["keep"]


def _first_move_text(board) -> str:
    from solitaire_nb.games.notation import format_move

    return format_move(board.game, board.game.legal_moves()[0])


def test_kept_game_of_a_practice_position_keeps_its_face_down_cards() -> None:
    """A practice position's board replays the kept moves on its own start (a share code does
    not carry face-down cards)."""
    pytest.importorskip("anywidget")
    from solitaire_nb.board import Board

    start = sn.Game.from_position("moving_left", {"S": ["AS", "2S", "3S"]}, {"S": 1})
    first = Board(start)
    move = first.game.legal_moves()[0]
    first.game.move(move)
    first.refresh()
    again = Board(sn.Game.from_position("moving_left", {"S": ["AS", "2S", "3S"]}, {"S": 1}))
    again.handle({"event": "restore", "code": first.view["code"]})
    assert again.game.moves_played == 1
    assert again.game.to_json() == first.game.to_json()
    assert again.view["svg"] == first.view["svg"]  # the same cards face down


CONVERTERS = {
    "alumnos": (clase_args.check_students, lambda v: isinstance(v, int) and 1 <= v <= clase_args.MAX_STUDENTS),
    "puerto": (clase_args.check_port, lambda v: isinstance(v, int) and 1024 <= v <= 65535),
    "cierre": (clase_args.check_minutes, lambda v: 1 <= v <= clase_args.MAX_CULL_MINUTES),
    "segundos": (clase_args.check_seconds, lambda v: 0 < v <= clase_args.MAX_SOLVER_SECONDS),
    "ip": (clase_args.check_ip, lambda v: isinstance(v, str)),
    "reto": (clase_args.check_share_code, lambda v: isinstance(v, str) and "/" in v),
    "registro": (clase_args.check_record_path, lambda v: isinstance(v, str)),
    "borrar": (clase_args.check_existing_record, lambda v: False),  # no text here names a record
}


@pytest.mark.parametrize("name", sorted(CONVERTERS))
def test_any_text_is_a_value_in_range_or_a_short_spanish_refusal(name) -> None:
    import argparse

    from hypothesis import given
    from hypothesis import strategies as st

    convert, in_range = CONVERTERS[name]
    texts = st.one_of(
        st.text(max_size=300),
        st.from_regex(r"[+-]?\d{1,8}(\.\d{1,3})?", fullmatch=True),
        st.sampled_from(["nan", "inf", "-inf", "1e400", "0", "-0", "65536", "1023", "0.0.0.0", "::1", "١٢"]),
    )

    @given(texts)
    def check(text: str) -> None:
        try:
            value = convert(text)
        except argparse.ArgumentTypeError as exc:
            message = str(exc)
            assert len(message) < 500
            assert text[:61] not in message or len(text) <= 60  # echoes at most 60 characters
            assert clase_args.spanish_error(f"argument --{name}: {message}") == f"--{name}: {message}"
        else:
            assert in_range(value), (text, value)

    check()
