"""Issue 45, classes 1, 2, 3, 10 and 13 through the server: a Hypothesis property per class over
every field of every route.

Each property starts from a request the route accepts (`BASE`) and spoils one field at a time,
so every field of every route meets each kind of hostile text; `check_request` (the route fuzz's
own check) asserts no status ≥ 500, a Spanish error, nothing changed by a refusal, the teacher's
view still answering and no traceback in the log.
"""

from __future__ import annotations

import csv
import io
import json
import unicodedata
import urllib.parse

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reto_server import DEAL, PAGE, InProcessServer
from test_reto_fuzz import FIELDS, check_request

from solitaire_nb.classroom import inbound, summary
from solitaire_nb.classroom.summary import FORMULA_STARTS
from solitaire_nb.engine.share import load_share
from solitaire_nb.games.notation import format_move

SECRET, TOKEN = "<secreto>", "<token>"
#: a request each route accepts: (method, body or query, fields).
BASE: dict[str, tuple[str, str, dict]] = {
    "/reto/api/evento": ("POST", "body", {"asiento": SECRET, "suceso": "refusal", "movimiento": "T1-T1"}),
    "/reto/api/estado": ("GET", "query", {"asiento": SECRET}),
    "/reto/api/nombre": ("POST", "body", {"asiento": SECRET, "nombre": "Ana"}),
    "/docente": ("GET", "query", {"token": TOKEN}),
    "/docente/api/clase": ("GET", "query", {"token": TOKEN}),
    "/docente/api/orden": ("POST", "body", {"orden": "pistas", "valor": False}),
    "/docente/api/paso": ("GET", "query", {"asiento": "1", "paso": "1", "nombres": "1"}),
    "/docente/api/csv": ("GET", "query", {"nombres": "1"}),
    "/docente/api/resumen": ("GET", "query", {}),
    "/docente/api/codigos": ("POST", "body", {"codigos": DEAL}),
    PAGE: ("GET", "query", {"asiento": SECRET}),
}
PAIRS = sorted((path, field) for path in BASE for field in {*FIELDS[path], *BASE[path][2]})
FEW = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with pytest.MonkeyPatch.context() as mp:  # «Resumen» without ten seconds of solver per request
        mp.setattr(summary, "_solver_line", lambda deal, seconds: ("Sin comprobar en esta prueba.", []))
        s = InProcessServer(tmp_path_factory.mktemp("campos"))
        _, s.secret = s.on_server(s.challenge.new_seat)
        s.on_server(lambda: s.challenge.page_state(s.secret))
        move = format_move(load_share(DEAL), load_share(DEAL).legal_moves()[0], sep="-")
        s.on_server(lambda: s.challenge.event(s.secret, "move", move))
        try:
            yield s
        finally:
            s.close()


@pytest.fixture(autouse=True)
def open_class(server):
    """Each property starts on a class that is going (not paused nor ended), hints off."""
    for order, value in (("seguir", True), ("reabrir", True), ("pistas", False), ("solucion", False)):
        server.on_server(lambda o=order, v=value: server.challenge.command(o, v))


def build(server, path: str, spoiled: dict, raw: bool = False) -> tuple:
    """(method, target, body, headers) of `path`'s accepted request with the fields in `spoiled`
    replaced; `raw`: texts sent as their UTF-8 bytes (a lone surrogate as three bytes that are no
    UTF-8) rather than JSON escapes."""
    method, where, fields = BASE[path]
    real = {SECRET: server.secret, TOKEN: server.token}
    values = {k: real.get(v, v) if isinstance(v, str) else v for k, v in fields.items()} | spoiled
    headers = []
    if path.startswith("/docente") and "token" not in values:
        headers.append(("X-Token", server.token.encode()))
    body = None
    if where == "body":
        text = json.dumps(values, ensure_ascii=not raw)
        body = text.encode("utf-8", "surrogatepass")
        query = ""
    else:

        def enc(v) -> str:
            v = v if isinstance(v, str) else json.dumps(v)
            return urllib.parse.quote_from_bytes(v.encode("utf-8", "surrogatepass"))

        query = "&".join(f"{k}={enc(v)}" for k, v in values.items())
    return method, path + (f"?{query}" if query else ""), body, headers


def test_every_base_request_is_accepted(server) -> None:
    assert set(BASE) == set(FIELDS)
    for path in BASE:
        status, _ = check_request(server, *build(server, path, {}))
        assert 200 <= status < 300, path


def _clean(value) -> bool:
    """Every text in `value` is valid Unicode without control characters."""
    text = json.dumps(value, ensure_ascii=False)
    return "\\u00" not in text.replace("\\u00e", "") and not any(0xD800 <= ord(c) <= 0xDFFF for c in text)


# ---------------------------------------------------------------------- class 1: text checked first
ODD = st.one_of(
    st.integers(0xD800, 0xDFFF).map(chr),  # a lone surrogate («\ud800» in JSON)
    st.characters(categories=["Cc"]),  # control characters
    st.characters(categories=["Cf"]),  # bidirectional overrides, zero-width marks
)
SPOILT = st.tuples(st.text(max_size=6), ODD, st.text(max_size=6)).map("".join)


@FEW
@given(pair=st.sampled_from(PAIRS), text=SPOILT, raw=st.booleans())
def test_class_1_no_field_keeps_text_that_is_not_valid(server, pair, text, raw) -> None:
    path, field = pair
    status, _ = check_request(server, *build(server, path, {field: text}, raw))
    if 200 <= status < 300:  # accepted: what it kept is clean (names lose format characters)
        seats = server.on_server(lambda: [s.name for s in server.challenge.seats.values()])
        assert all(not any(unicodedata.category(c) in ("Cc", "Cf", "Cs") for c in name) for name in seats)
        assert _clean(server.snapshot())


# ---------------------------------------------------------------------- class 2: deep JSON
POSTS = sorted(path for path, (method, _, _) in BASE.items() if method == "POST")


@FEW
@given(path=st.sampled_from(POSTS), depth=st.integers(inbound.DEPTH_MAX + 1, 4000),
       shape=st.sampled_from(["[", "{", "[ unclosed"]), where=st.sampled_from(["whole", "field"]))  # fmt: skip
def test_class_2_deep_json_is_refused_at_every_json_route(server, path, depth, shape, where) -> None:
    nest = {"[": "[" * depth + "]" * depth, "{": '{"a":' * depth + "1" + "}" * depth, "[ unclosed": "[" * depth}[shape]
    method, target, body, headers = build(server, path, {})
    if where == "field":
        assert body is not None
        body = body[:-1] + b', "x": ' + nest.encode() + b"}"
    else:
        body = nest.encode()
    cap = {p: handler.body_max for p, handler, _ in server.routes}[path]
    status, data = check_request(server, method, target, body, headers)
    assert status == 400 and ("forma esperada" if len(body) <= cap else "demasiado grande") in data["error"], data


# ---------------------------------------------------------------------- class 3: CSV cells
@FEW
@given(start=st.sampled_from([*FORMULA_STARTS, " =", "\u200b="]), rest=st.text(max_size=20))
def test_class_3_a_name_reaches_the_download_as_text(server, start, rest) -> None:
    check_request(server, *build(server, "/reto/api/nombre", {"nombre": start + rest}))
    _, head, answer = server.request("GET", "/docente/api/csv?nombres=1", headers=[("X-Token", server.token.encode())])
    rows = list(csv.reader(io.StringIO(answer.decode("utf-8"))))
    assert head["content-type"].startswith("text/csv") and len(rows) > 1
    assert not [cell for row in rows[1:] for cell in row if cell.startswith(FORMULA_STARTS)]


# ---------------------------------------------------------------------- class 10: the teacher's numbers and switches
NOT_DIGITS = st.characters(categories=["Nd"]).filter(lambda c: c not in "0123456789")
BAD_NUMBER = st.one_of(
    st.text(NOT_DIGITS, min_size=1, max_size=4),
    st.integers(inbound.DIGITS_MAX + 1, 6000).map(lambda n: "9" * n),
    st.sampled_from(["false", "true", "no", "sí", "1.0", "1e3", " 1", "+1", "-1", "0x1", "1_0", "², ", "Ⅻ"]),
)
NUMBER_FIELDS = [("/docente/api/paso", "asiento"), ("/docente/api/paso", "paso"), ("/docente/api/paso", "nombres"),
                 ("/docente/api/csv", "nombres")]  # fmt: skip
ENGLISH = ("invalid literal", "Exceeds", "int()", "Traceback", "object", "Error")


@FEW
@given(pair=st.sampled_from(NUMBER_FIELDS), text=BAD_NUMBER)
def test_class_10_numbers_are_ascii_digits_or_refused_in_spanish(server, pair, text) -> None:
    status, data = check_request(server, *build(server, pair[0], {pair[1]: text}))
    assert status == 400 and not any(word in data["error"] for word in ENGLISH), data


@FEW
@given(value=st.one_of(st.text(max_size=8), st.integers(), st.floats(), st.lists(st.booleans(), max_size=2)),
       order=st.sampled_from(["pistas", "solucion"]), was=st.booleans())  # fmt: skip
def test_class_10_a_switch_is_only_json_true_or_false(server, value, order, was) -> None:
    server.on_server(lambda: server.challenge.command(order, was))
    key = "hints" if order == "pistas" else "solution"
    status, data = check_request(server, *build(server, "/docente/api/orden", {"orden": order, "valor": value}))
    assert status == 400 and ("un sí o un no" in data["error"] or "número que no se puede leer" in data["error"]), data
    assert server.on_server(lambda: server.challenge.state[key]) is was


# ---------------------------------------------------------------------- class 13: limits
@FEW
@given(name=st.text(max_size=50))
def test_class_13_names_are_frozen_after_the_end(server, name) -> None:
    server.on_server(lambda: server.challenge.command("terminar"))
    before = server.on_server(lambda: server.challenge.seats[1].name)
    status, data = check_request(server, *build(server, "/reto/api/nombre", {"nombre": name}))
    assert status in (400, 409) and server.on_server(lambda: server.challenge.seats[1].name) == before


@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
@given(n=st.integers(summary.PROBLEMS_SHOWN + 1, 3000), junk=st.text(min_size=1, max_size=30))
def test_class_13_the_summary_of_pasted_codes_caps_its_problems(server, n, junk) -> None:
    codes = "\n".join(f"{junk.strip() or 'x'}{k}" for k in range(n))
    status, data = check_request(server, *build(server, "/docente/api/codigos", {"codigos": codes}))
    if status == 200:  # (a junk with a control character is refused whole)
        assert len(data["resumen"]) < 25_000 and "más que no se" in data["resumen"]


@FEW
@given(n=st.integers(1, 12))
def test_class_13_plain_requests_fill_no_seats(server, n) -> None:
    for _ in range(n):
        check_request(server, "GET", PAGE, None, [])
    idle = server.on_server(lambda: server.challenge.idle_seats("127.0.0.1"))
    assert idle <= 3 and len(server.on_server(lambda: list(server.challenge.seats))) <= server.hooks.max_seats
