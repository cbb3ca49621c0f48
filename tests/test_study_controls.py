"""The study's controls (notebook 06): a slider, a button that runs the study at the chosen
size, and a static picture for pages that do not run."""

from __future__ import annotations

import pytest

pytest.importorskip("ipywidgets")
pytest.importorskip("anywidget")

from solitaire_nb.board import study_controls  # noqa: E402


def _bundle(widget) -> dict:
    bundle = widget._repr_mimebundle_()
    return bundle[0] if isinstance(bundle, tuple) else bundle


def test_the_button_runs_the_study_at_the_chosen_size():
    asked = []
    box = study_controls(asked.append)
    slider, button = box.children[0].children
    assert slider.value == 10_000 and [label for label, _ in slider.options][-1] == "1.000.000"
    button.click()
    slider.value = 1_000
    button.click()
    assert asked == [10_000, 1_000]


def test_a_failing_run_says_so_in_spanish(capsys):
    def run(n):
        raise ValueError("memoria agotada")

    box = study_controls(run, sizes=(100, 200), value=100)
    box.children[0].children[1].click()  # no exception escapes
    assert "No se ha podido completar la simulación: memoria agotada" in capsys.readouterr().out


def test_static_picture_and_bad_initial_value():
    data = _bundle(study_controls(print))
    assert "Repartos:" in data["text/html"] and "1.000.000" in data["text/html"] and "Simular" in data["text/html"]
    assert "VBox" not in data["text/plain"]
    with pytest.raises(ValueError, match="123"):
        study_controls(print, value=123)
