"""The teacher's guide states notebook 06's and 08's figures as the notebooks compute them.

The guide is static Markdown: each figure it gives for 06 and 08 is rebuilt here with the
functions and data the notebook uses (06's N and SEMILLA read from its source), written as the
notebook writes it (`numbers_es.interval`: ends rounded outward), and must appear in the
guide's section; and every decimal figure in 06's section and in 08's answers must be one of
them, or one of the few worked examples named below, so that a figure typed by hand cannot drift
from the page.  The plans, last, leave the class time to reach the page.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pytest

from solitaire_nb import GAMES, study
from solitaire_nb.atlas import lab_measures
from solitaire_nb.atlas.intervals import wilson
from solitaire_nb.core.numbers_es import (
    decimal,
    decimal_down,
    decimal_up,
    interval,
    measured,
    parse_number,
    percent,
    thousands,
)
from solitaire_nb.games.custom import custom
from solitaire_nb.lessons import study_exercises

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
GUIDE = NOTEBOOKS / "guia_docente.md"
DECIMAL = re.compile(r"(?<![\d,])\d+,\d+")
# Decimals the 06 section gives that are not measures: 1,96 of the interval's formula, the 1/16 of
# Ejercicio 3 written as the checker accepts it, and two five-deal means (checked below to lie in
# the range the section calls normal).
WORKED_06 = {"1,96", "6,25", "0,0625"}
NORMAL_MEANS_06 = ("5,8", "8")  # the notebook's own examples


def _section(text: str, heading: str) -> str:
    """The text under a heading, up to the next one of its level or higher, on one line (the
    guide wraps its lines anywhere, also inside a figure and its interval)."""
    start = text.index(heading + "\n") + len(heading) + 1
    level = len(heading) - len(heading.lstrip("#"))
    nxt = re.search(rf"^#{{1,{level}}} ", text[start:], flags=re.M)
    return " ".join((text[start: start + nxt.start()] if nxt else text[start:]).split())


def _constant(source: str, name: str) -> int:
    found = re.search(rf"^{name} = ([\d_]+)", source, flags=re.M)
    assert found, f"06 no define {name}"
    return int(found.group(1).replace("_", ""))


@pytest.fixture(scope="module")
def guide() -> str:
    return GUIDE.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def figures_06() -> dict[str, str]:
    """Notebook 06's figures, computed and written as its cells do."""
    source = (NOTEBOOKS / "06_citadel_vs_beleaguered_castle.md").read_text(encoding="utf-8")
    results = study.simulate(_constant(source, "N"), seed=_constant(source, "SEMILLA"))
    summary = study.summary(results)
    after_deal, after_autoplay = study.column_shortening(results.after_deal), study.column_shortening(results.citadel)
    gap_deal, gap_autoplay = study.column_gap(results.after_deal), study.column_gap(results.citadel)
    exact_lengths = study.expected_column_lengths(exact=True)
    mean, sd = study.cards_home_moments()
    nothing = int((results.autoplay_moved == 0).sum())
    five, klass = 1.96 * sd / math.sqrt(5), 1.96 * sd / math.sqrt(150)
    one_deal = np.array([float(p) for p in study.cards_home_distribution(exact=True)])

    def within(deals: int, margin: float) -> float:
        """The exact chance that the mean of `deals` deals lies within `margin` of the true mean."""
        law = np.array([1.0])
        for _ in range(deals):
            law = np.convolve(law, one_deal)
        return float(law[np.abs(np.arange(len(law)) / deals - mean) < margin].sum())

    return {
        "exact mean": decimal(float(study.expected_cards_home(exact=True)), 3),
        "simulated mean": interval(summary["home_in_deal"], 3),
        "autoplay": interval(summary["autoplay_moved"], 3),
        "fewer on the table": interval(summary["fewer_on_table"], 3),
        "column difference, exact": decimal(float(exact_lengths[0] - exact_lengths[-1]), 3),
        "column difference, after the deal": interval(gap_deal.difference, 3),
        "column difference, after the autoplay": interval(gap_autoplay.difference, 3),
        "columns shortened, after the deal": interval(after_deal["columns_shortened"], 3),
        "columns shortened, after the autoplay": interval(after_autoplay["columns_shortened"], 3),
        "one card, after the deal": interval(after_deal["share_losing_one"], as_percent=True),
        "one card, after the autoplay": interval(after_autoplay["share_losing_one"], as_percent=True),
        "sigma": decimal(sd),
        "five deals, rounded": decimal(five, 1),
        "five deals": decimal(five),
        "five deals, deviation": decimal(sd / math.sqrt(5)),
        "five deals, share": f"en el {percent(within(5, round(five, 1)), 1)} de los casos",
        "class, share": f"en el {percent(within(150, round(klass, 2)), 1)} de los casos",
        "class": decimal(klass),
        "mean, two decimals": decimal(mean),
        "class low": decimal_down(mean - klass),
        "class high": decimal_up(mean + klass),
        "ten-column decks": f"{thousands(study_exercises.ten_columns().n)} repartos",
        "Aces dealt": (f"{thousands(study_exercises.aces_dealt().n)} barajas da "
                       f"{interval(study_exercises.aces_dealt().a.figures['home_in_deal'], 3)} con la regla nueva"),
        "most cards home": (f"en los {thousands(results.n)} repartos, {int(results.home_in_deal.max())} como mucho, "
                            f"en {int((results.home_in_deal == results.home_in_deal.max()).sum())} repartos"),
        "empty after the deal": "tras el reparto, en ninguno" if results.after_deal.shortest.min() > 0 else "?",
        "empty after the autoplay": f"tras el juego automático, en {int((results.citadel.shortest == 0).sum())};",
        "autoplay lifts nothing": interval((nothing / results.n, *wilson(nothing, results.n)), 1, as_percent=True),
        "Spanish deck": f"nueve términos: {decimal(float(study.expected_cards_home(exact=True, ranks=10)), 3)}",
    }


@pytest.fixture(scope="module")
def figures_08() -> dict[str, str]:
    """Notebook 08's figures, from the lab's comparison and stored samples as its cells read them."""

    def counts(game) -> str:
        s = lab_measures.solve_sample(game, lab_measures.SAMPLE, lab_measures.MAX_STATES)
        return f"{s.won} con solución, {s.lost} sin ella y {s.unknown} sin decidir"

    six = lab_measures.solve_sample(custom("beleaguered_castle", columns=6), lab_measures.SAMPLE, lab_measures.MAX_STATES)
    assert six.won == 0  # the guide says «ninguna»
    any_card = lab_measures.solve_sample(custom("bakers_dozen", empty="any"), lab_measures.SAMPLE, lab_measures.MAX_STATES)
    thirteen = lab_measures.comparison(GAMES["citadel"], custom("citadel", columns=13), n=lab_measures.STATS_DEALS)
    difference = thirteen.difference("on_table")

    def share(count) -> str:
        return interval((count / thirteen.n, *wilson(int(count), thirteen.n)), 1, as_percent=True)

    thirteen_won = lab_measures.solve_sample(custom("citadel", columns=13), lab_measures.SAMPLE, lab_measures.MAX_STATES)
    assert thirteen_won.won == thirteen_won.total  # the guide says «en las 100 partidas»
    bakers = lab_measures.comparison(GAMES["bakers_dozen"], custom("bakers_dozen", empty="any"), n=lab_measures.STATS_DEALS)
    stay = lab_measures.comparison(GAMES["bakers_dozen"], custom("bakers_dozen", kings_to_bottom=False), n=lab_measures.STATS_DEALS)
    four = lab_measures.solve_sample(custom("citadel", columns=4), lab_measures.SAMPLE, lab_measures.MAX_STATES)
    eight = lab_measures.solve_sample(GAMES["citadel"], lab_measures.SAMPLE, lab_measures.MAX_STATES)
    alternate = lab_measures.solve_sample(custom("bakers_dozen", suits="alt"), lab_measures.SAMPLE, lab_measures.MAX_STATES)
    bd = lab_measures.solve_sample(GAMES["bakers_dozen"], lab_measures.SAMPLE, lab_measures.MAX_STATES)
    won_later = [n for n, (b, a) in enumerate(zip(bd.verdicts, alternate.verdicts, strict=True), 1) if b == "unknown" and a == "won"]

    def no_move(game) -> int:
        return sum(1 for seed in range(1, 2001) if not lab_measures.new_game(game, seed).legal_moves())

    column = 52 // len(stay.a.columns)  # Baker's Dozen's four cards a column
    return {
        "no move at the start": (f"{no_move(custom('beleaguered_castle', columns=6))} sin ningún movimiento con seis "
                                 f"columnas, {no_move(GAMES['beleaguered_castle'])} con ocho"),
        "Kings that stay": (f"{measured(stay.b.figures['under_king'])} con los Reyes donde caen, frente a "
                            f"{measured(stay.a.figures['under_king'])}"),
        "a King's mean in its column": f"de media {decimal(sum(range(column)) / column, 1)}",
        "alternate colours": counts(custom("bakers_dozen", suits="alt")).replace(" sin decidir", " sin decidir en colores alternos"),
        "undecided, then won": f"la partida n.º {won_later[0]} queda sin decidir en Baker's Dozen y tiene solución en colores alternos",
        "four columns, undecided": f"{four.unknown} sin decidir con 4 columnas ({four.won} / {four.lost} / {four.unknown}) frente a {eight.unknown} con ocho",
        "Beleaguered Castle": counts(GAMES["beleaguered_castle"]),
        "six columns": f"{six.lost} no la tienen y {six.unknown} quedan sin decidir",
        "Baker's Dozen": counts(GAMES["bakers_dozen"]),
        "any card in holes": f"{any_card.won} frente a",
        "thirteen columns, in the deal": measured(thirteen.a.figures["home_in_deal"]),
        "six columns, at most": f"menos del {decimal_up(100 * wilson(six.won + six.unknown, six.total)[1], 0)} %",
        "thirteen columns, same": f"las mismas cartas en el {share((difference == 0).sum())}",
        "thirteen columns, fewer": f"en el {share((difference > 0).sum())} y más",
        "thirteen columns, more": f"más en el {share((difference < 0).sum())}",
        "thirteen columns, all won": f"al menos el {decimal_down(100 * wilson(thirteen_won.won, thirteen_won.total)[0], 0)} %",
        "Kings under Kings": measured(bakers.a.figures["under_king"]),
    }


def _stray_decimals(text: str, figures: dict[str, str], worked: set[str]) -> list[str]:
    known = {n for f in figures.values() for n in DECIMAL.findall(f)} | worked
    return sorted({n for n in DECIMAL.findall(text) if n not in known})


def test_the_guide_gives_notebook_06s_figures_as_the_notebook_computes_them(guide, figures_06):
    section = _section(guide, "### 06 · Citadel frente a Beleaguered Castle")
    pool = _section(guide, "## La clase en común (cuaderno 06)")
    missing = [f"{k}: {v}" for k, v in figures_06.items() if v not in section]
    assert not missing, "la guía (06) no da estas cifras como el cuaderno:\n" + "\n".join(missing)
    for key in ("sigma", "class", "mean, two decimals", "five deals, rounded"):
        assert figures_06[key] in pool, f"«La clase en común»: falta {key} ({figures_06[key]})"
    stray = _stray_decimals(section + pool, figures_06, WORKED_06 | set(NORMAL_MEANS_06))
    assert not stray, f"la guía (06) da cifras que el cuaderno no calcula: {stray}"
    low = parse_number(figures_06["mean, two decimals"]) - parse_number(figures_06["five deals"])
    high = parse_number(figures_06["mean, two decimals"]) + parse_number(figures_06["five deals"])
    for example in NORMAL_MEANS_06:
        assert low <= parse_number(example) <= high, f"{example} no es una media normal de cinco repartos"


def test_the_guide_gives_notebook_08s_figures_as_the_notebook_computes_them(guide, figures_08):
    section = _section(guide, "### 08 · Laboratorio de reglas")
    missing = [f"{k}: {v}" for k, v in figures_08.items() if v not in section]
    assert not missing, "la guía (08) no da estas cifras como el cuaderno:\n" + "\n".join(missing)
    answers = section.split("**Respuestas.**")[1].split("**Hoja de «Inventa tu juego»")[0]  # not the timings
    stray = _stray_decimals(answers, figures_08, set())
    assert not stray, f"la guía (08) da cifras que el cuaderno no calcula: {stray}"


def test_the_guide_gives_exercise_1_of_06_as_the_engine_deals_it(guide):
    """estudio-2 and estudio-4: the deal's number and the two counts, from the engine."""
    from solitaire_nb.study.tally import count_deal

    section = _section(guide, "### 06 · Citadel frente a Beleaguered Castle")
    counts = count_deal(study_exercises.DEAL_SEED)
    assert f"partida n.º {study_exercises.DEAL_SEED}, tras el reparto (`estudio-2`) | `{counts.shortened_after_deal}` |" in section
    assert f"(`estudio-4`) | `{counts.shortened_after_autoplay}` |" in section
    assert f"Van {counts.home_in_deal} cartas a la base y se acortan {counts.shortened_after_deal} columnas" in section
    assert f"El juego automático sube {counts.autoplay} cartas" in section


def test_a_figure_typed_by_hand_is_caught(figures_06):
    """The check can fail: the old guide's simulated mean, rounded to the nearest end."""
    old = "la simulación da 6,866, de 6,851 a 6,881"
    assert _stray_decimals(old, figures_06, WORKED_06) == ["6,851", "6,881"]
    assert figures_06["simulated mean"] not in old


def test_every_lesson_plan_gives_the_class_time_to_reach_the_page(guide):
    """Each 50-minute plan starts with the minutes a class takes to have the page in front of it
    (00's plan opens the index in its first row), and the guide says what the first load takes."""
    part = _section(guide, "## Cuaderno por cuaderno")
    assert "Llegar a la página." in part and "«Listo»" in part
    plans = re.findall(r"\*\*Plan de 50 minutos\.\*\* \| minutos \| qué se hace \| \|---\|---\| \| (\d+) \| ([^|]+)\|", part)
    assert len(plans) == 9
    for minutes, what in plans:
        assert what.startswith(("Llegar a la página", "Abrir el índice")), what
        assert int(minutes) >= 3, what


def test_the_guides_five_deal_examples_are_the_notebooks(guide):
    """The guide's «media de 5,8 o de 8» are the examples notebook 06 gives its students."""
    source = (NOTEBOOKS / "06_citadel_vs_beleaguered_castle.md").read_text(encoding="utf-8")
    assert f"da {NORMAL_MEANS_06[0]} o {NORMAL_MEANS_06[1]}, no lo has hecho mal" in source
    assert f"una media de {NORMAL_MEANS_06[0]} o de {NORMAL_MEANS_06[1]} es normal" in _section(
        guide, "### 06 · Citadel frente a Beleaguered Castle"
    )


RESULTS = NOTEBOOKS.parent / "benchmarks" / "RESULTS.md"


def _table(heading: str) -> list[list[str]]:
    """The rows of the first table under a heading of benchmarks/RESULTS.md, cells stripped."""
    lines = RESULTS.read_text(encoding="utf-8").splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.startswith("|") and i > lines.index(heading))
    end = next(i for i in range(start, len(lines)) if not lines[i].startswith("|"))
    return [[c.strip() for c in ln.strip("|").split("|")] for ln in lines[start + 2: end]]


def test_the_guides_class_page_times_are_the_benchmarks(guide):
    """«Llegar a la página»: «Listo» and every page of 05–08 with 30 students, and the slowest,
    as measured (05: three runs, given as a range; it once said 15 s, a run from before «Listo»
    waited for the pages)."""
    rows = {r[0]: r for r in _table("#### 06, 07 and 08 with 30 students, one address per student "
                                    "(second review of 2026-12-06, A3)")}  # fmt: skip
    runs_05 = _table("#### 05 with 30 students after the new «Listo» (issue 44, second review of 00–05)")
    assert set(rows) == {"06", "07", "08"} and len(runs_05) == 3
    assert all(r[1] == "30" and r[4] == r[5] == r[6] == "0" for r in [*rows.values(), *runs_05])  # every page complete
    part = _section(guide, "## Cuaderno por cuaderno")
    ready_05 = sorted(int(r[2]) for r in runs_05)
    assert (f"«Listo»**, que con 30 alumnos y el cuaderno 05 llegó entre los {ready_05[0]} y los {ready_05[-1]} "
            f"segundos (tres medidas); con 30 alumnos y el 06, a los {rows['06'][2]} segundos; con el 07, a los "
            f"{rows['07'][2]}, y con el 08, a los {rows['08'][2]}.") in part  # fmt: skip
    assert "15 segundos" not in part
    lessons = {r[0]: r for r in _table("#### 00 to 04 with 30 students (issue 44, third review of 00–05, 2026-12-07)")}
    assert set(lessons) == {"00", "01", "02", "03", "04"}
    assert all(r[1] == "30" and r[4] == r[5] == r[6] == "0" for r in lessons.values())  # every page complete
    assert (f"el 00 a los {lessons['00'][2]} segundos, el 01 a los {lessons['01'][2]}, el 02 a los {lessons['02'][2]}, "
            f"el 03 a los {lessons['03'][2]} y el 04 a los {lessons['04'][2]}.") in part  # fmt: skip
    assert "sin medir" not in part.split("Llegar a la página")[1][:1500]
    served = _section(guide, "### Páginas servidas desde tu ordenador")
    ready_study = sorted(int(r[2]) for r in rows.values())
    assert (f"tardó en prepararlas de {ready_05[0]} a {ready_05[-1]} segundos con el cuaderno 05 y de "
            f"{ready_study[0]} a {ready_study[-1]} segundos con el 06, el 07 o el 08") in served  # fmt: skip
    slowest = {nb: decimal_up(float(r[8]), 1) for nb, r in rows.items()}
    slowest["05"] = decimal_up(max(float(r[8]) for r in runs_05), 1)
    assert "las 30 páginas llegaron completas" in part
    assert (f"como mucho {slowest['05']} s con el 05, {slowest['06']} s con el 06, {slowest['07']} s con el 07 y "
            f"{slowest['08']} s con el 08") in part  # fmt: skip


def test_the_guides_lab_with_a_class_is_the_benchmark(guide):
    """08: 30 labs changing a rule at once, median and slowest, as `bench_lab.py --a-la-vez 30` printed."""
    (row,) = _table("#### A class changing a rule at once (second review of 2026-12-06, M14)")
    assert row[0] == "30"
    section = _section(guide, "### 08 · Laboratorio de reglas")
    assert (f"recalculado en {decimal(float(row[1]), 1)} segundos de mediana y, el más lento, en "
            f"{decimal_up(float(row[2]), 1)}") in section  # fmt: skip


def test_the_guides_count_in_the_browser_is_the_benchmark(guide):
    """08 in the app without a server: a composition's 100 deals solved in the browser, from the
    fastest to the slowest run, as `bench_student_site.py --lab-count` printed."""
    rows = _table("#### «¿Cuántas se pueden ganar?» in the static app (four runs)")
    seconds = [float(r[4]) for r in rows]
    section = _section(guide, "### 08 · Laboratorio de reglas")
    assert f"tardaron de {math.floor(min(seconds))} a {math.ceil(max(seconds))} segundos" in section



def test_the_guides_ranking_of_07_is_the_notebooks(guide):
    """Every «N.º Juego (a % – b %)» the guide's 07 section gives is the place and interval 07's
    ranking table computes from the atlas, and the section says whether adjacent places touch as
    the table does (a recomputed atlas must change the guide's prose too, not only its table)."""
    import json

    from solitaire_nb.atlas.ranking import ranking_text

    data = json.loads((NOTEBOOKS.parent / "data" / "atlas.json").read_text(encoding="utf-8"))
    table = ranking_text(data)
    rows = {m.group(2): (m.group(1), m.group(3)) for m in re.finditer(
        r"^\| (\d)\.º \| ([^|*]+?) \| [^|]+ \| ([^|]+?) \|", table, flags=re.M)}
    section = _section(guide, "### 07 · Probabilidades")
    given = re.findall(r"(\d)\.º ([A-Z][\w' ]+?) \((?:intervalo )?([\d,]+ % – [\d,]+ %)", section)
    assert len(given) >= 4, given
    for place, game, interval_given in given:
        assert rows.get(game) == (place, interval_given), (game, rows.get(game), place, interval_given)
    touching = "se tocan, así que se comparan directamente" in table
    assert ("no se tocan (el de abajo queda entero por debajo)" in section) != touching
