"""Issue 45, the requests: text from the network checked before it touches state, refusal
reasons from the move itself, the teacher's API's numbers and switches, and the limits."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solitaire_nb.classroom import inbound
from solitaire_nb.classroom.challenge_state import Challenge, Closed
from solitaire_nb.classroom.summary import summary_from_codes

DEAL = "citadel/2026"
BAD_TEXT = st.one_of(
    st.text(min_size=1, max_size=5).map(lambda t: t + "\ud800"),  # a lone surrogate
    st.sampled_from(["\x00", "\x07", "a\x1bb", "\x7f"]),  # control characters
    st.text(min_size=1000, max_size=1200),  # huge
)


@pytest.fixture
def class_(tmp_path: Path):
    c = Challenge(DEAL, tmp_path / "r.sqlite", say=lambda _: None)
    _, secret = c.new_seat()
    return c, secret


JARGON = ("bytes", "niveles", "UTF-8", "comillas", "JSON", "petición")


def test_a_refusal_a_page_shows_is_plain_spanish_and_the_teacher_keeps_the_detail() -> None:
    """Issue 44: «N bytes», «más de 8 niveles», «UTF-8», «sin comillas» reached a student's screen."""
    for body, limit in ((b"x" * 5000, 4096), (b"[" * 4000, 4096)):
        with pytest.raises(inbound.BadRequest) as info:
            inbound.parse_body(body, limit)
        assert "recárgala" in str(info.value) and not any(w in str(info.value) for w in JARGON), info.value
        assert info.value.detail in ("5.000 bytes; como mucho 4.096", "más de 8 niveles")
    with pytest.raises(inbound.BadRequest) as info:
        inbound.deal_number("12")
    assert not any(w in str(info.value) for w in JARGON) and "12" in info.value.detail


def test_no_classroom_refusal_message_has_jargon() -> None:
    """Every `BadRequest` message written in the classroom's sources, read from the code."""
    import ast

    import solitaire_nb.classroom as classroom

    found = 0
    for path in Path(classroom.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) == "BadRequest":
                message = node.args[0]
                text = ast.unparse(message)
                found += 1
                assert not any(w in text for w in JARGON), f"{path.name}: {text}"
    assert found > 10


def test_deep_json_under_the_cap_is_a_bad_request() -> None:
    with pytest.raises(inbound.BadRequest, match="forma esperada"):
        inbound.parse_body(b"[" * 4000, 4096)
    with pytest.raises(inbound.BadRequest, match="caracteres que no se pueden leer"):
        inbound.parse_body(json.dumps({"nombre": "\ud800"}).encode(), 4096)
    with pytest.raises(inbound.BadRequest):
        inbound.parse_body(b'{"a": NaN}', 4096)


@settings(max_examples=60, deadline=None)
@given(BAD_TEXT)
def test_a_bad_name_changes_nothing(tmp_path_factory, text) -> None:
    c = Challenge(DEAL, tmp_path_factory.mktemp("n") / "r.sqlite", say=lambda _: None)
    _, secret = c.new_seat()
    before = (c.view(), c.record.seats())
    with pytest.raises(ValueError):
        c.set_name(secret, text)
    assert (c.view(), c.record.seats()) == before


def test_bidi_characters_are_removed_from_names(class_) -> None:
    c, secret = class_
    assert c.set_name(secret, "\u202eAna\u200b  María") == "Ana María"


def test_names_are_frozen_after_the_end(class_) -> None:
    c, secret = class_
    c.command("terminar")
    with pytest.raises(Closed):
        c.set_name(secret, "Otro")


def test_a_refusal_takes_its_reason_from_the_move(class_) -> None:
    c, secret = class_
    c.event(secret, "refusal", "T1-T2")
    e = c.record.events()[-1]
    assert e["rule"] == "CB-4" and e["reason"].startswith("La Q de diamantes") and len(e["reason"]) > 150
    assert c.rows()[0]["rechazo"].endswith(e["reason"])  # the whole sentence, as in the record
    with pytest.raises(ValueError, match="está permitido"):
        legal = c.seats[1].game.legal_moves()[0]
        from solitaire_nb.games.notation import format_move

        c.event(secret, "refusal", format_move(c.seats[1].game, legal, sep="-"))


@pytest.mark.parametrize("text", ["٣", "１", "1_0", " 1", "9" * 5000, "-1"])
def test_numbers_are_ascii_digits(text) -> None:
    with pytest.raises(inbound.BadRequest, match="cifras"):
        inbound.ascii_number(text, "el número de asiento")


@pytest.mark.parametrize("value", ["false", "true", 0, 1, [], {}])
def test_switches_are_json_booleans(class_, value) -> None:
    c, _ = class_
    with pytest.raises(inbound.BadRequest):
        c.command("pistas", value)
    assert c.state["hints"] is False


@pytest.mark.parametrize("order", [True, 7, None, ["pausar"]])
def test_an_order_that_is_not_text_is_named_in_spanish(class_, order) -> None:
    c, _ = class_
    with pytest.raises(inbound.BadRequest) as e:
        c.command(order)
    assert str(e.value) == "La orden debe ser un texto, como «pausar»." and not c.state["paused"]


def test_idle_seats_per_address(class_) -> None:
    c, secret = class_
    for _ in range(3):
        c.new_seat("10.0.0.9")
    assert c.idle_seats("10.0.0.9") == 3


def test_pasted_code_problems_are_capped() -> None:
    text = summary_from_codes(DEAL, "\n".join(["basura"] * 500), solver_seconds=0.1)
    assert "Y 480 códigos más que no se pueden leer" in text and len(text) < 20_000


# ---------------------------------------------------------------------- class 11: exercise checkers
def _any_array():
    hnp = pytest.importorskip("hypothesis.extra.numpy")
    dtypes = st.one_of(hnp.integer_dtypes(), hnp.floating_dtypes(), hnp.boolean_dtypes(), hnp.unicode_string_dtypes())
    return hnp.arrays(dtypes, hnp.array_shapes(min_dims=0, max_dims=2, max_side=3))


@settings(max_examples=100, deadline=None)
@given(answer=st.one_of(st.deferred(_any_array), st.integers(1900, 2100).map(lambda n: 10**n),
                        st.integers(1900, 2100).map(lambda n: "9" * n)))  # fmt: skip
def test_checkers_take_any_array_and_echo_little(answer) -> None:
    from solitaire_nb.lessons import exercises

    for ident in exercises.EJERCICIOS:
        ok, message = exercises._verdict(ident, answer)
        assert isinstance(ok, bool) and message and len(message) < 600, (ident, message)
        assert "9" * 100 not in message and "Error" not in message
