"""Issue 45: every route of the class challenge's server, fuzzed in this process.

The routes are read from `challenge_server.handlers` (and the launcher's page route, where seats
are given), so a route added there joins the fuzz by itself; `FIELDS` says which fields each
route reads, and `test_every_route_is_listed` fails until a new route is listed there.
Hypothesis sends bodies, query strings and headers holding lone surrogates, deep JSON, huge and
non-ASCII numbers, control and bidirectional characters and oversize bodies, and asserts: no
status ≥ 500, a Spanish error for every refusal, a refused request changes neither the record
nor the teacher's view, the view still answers, and no traceback reaches the launcher's log.
"""

from __future__ import annotations

import json
import urllib.parse

import pytest
import tornado.web
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reto_server import DEAL, PAGE, InProcessServer
from test_fuzz import spanish

from solitaire_nb.classroom import challenge_server, pool_server, summary
from solitaire_nb.classroom.challenge_state import Challenge
from solitaire_nb.classroom.pool_state import Pool
from solitaire_nb.engine.share import load_share
from solitaire_nb.games.notation import format_move

#: the fields each route reads (body or query); a route missing here fails
#: `test_every_route_is_listed` and is fuzzed over every field meanwhile.
FIELDS: dict[str, tuple[str, ...]] = {
    "/reto/api/evento": ("asiento", "suceso", "movimiento", "regla", "motivo"),
    "/reto/api/estado": ("asiento",),
    "/reto/api/nombre": ("asiento", "nombre"),
    "/docente": ("token",),
    "/docente/api/clase": ("token",),
    "/docente/api/orden": ("orden", "valor"),
    "/docente/api/paso": ("asiento", "paso", "nombres"),
    "/docente/api/csv": ("nombres",),
    "/docente/api/resumen": (),
    "/docente/api/codigos": ("codigos",),
    PAGE: ("asiento",),
}
#: the same for a lesson's class pool (06, 07, 08): its routes, read from `pool_server.handlers`.
POOL_FIELDS: dict[str, tuple[str, ...]] = {
    "/clase/api/estado": ("asiento",),
    "/clase/api/reparto": ("asiento", "partida"),
    "/clase/api/partida": ("asiento", "partida", "resultado", "jugada"),
    "/clase/api/juego": ("asiento", "juego", "nombre_juego", "cuentas", "original"),
    "/clase/api/apuesta": ("asiento", "apuesta"),
    "/clase/api/nombre": ("asiento", "nombre"),
    "/docente": ("token",),
    "/docente/api/clase": ("token",),
    "/docente/api/apuesta": ("apuesta",),
    "/docente/api/vaciar": ("seguro",),
    "/docente/api/grupo": ("seguro",),
    "/docente/api/quitar": ("asiento",),
    "/docente/api/csv": ("nombres",),
    PAGE: ("asiento",),
}
#: the routes only one lesson's pool serves (its `Pool.ADD_ROUTE`), fuzzed on that lesson's pool.
LESSON_ROUTES = {"/clase/api/partida": "07", "/clase/api/juego": "08"}
#: every route the challenge serves (read from the server's code) and the launcher's page.
ROUTES = sorted(
    {path for path, _, _ in challenge_server.handlers(Challenge(DEAL, None, say=lambda _: None), "t")} | {PAGE}
)
POOL_ROUTES = sorted(
    {path for lesson in ("06", "07", "08") for path, _, _ in pool_server.handlers(Pool(lesson, None, say=lambda _: None), "t")}
    | {PAGE}
)
ALL_FIELDS = tuple(sorted({f for fields in [*FIELDS.values(), *POOL_FIELDS.values()] for f in fields}))
#: bytes of a query value: tornado drops a request whose head passes 64 KB (`test_an_endless_address_is_dropped`).
URL_MAX = 20_000
SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))


def _methods(handler: type) -> list[str]:
    """The HTTP methods a handler answers (the ones it defines)."""
    base = tornado.web.RequestHandler
    return [m for m in base.SUPPORTED_METHODS if getattr(handler, m.lower()) is not getattr(base, m.lower())]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with pytest.MonkeyPatch.context() as mp:  # «Resumen» without ten seconds of solver per request
        mp.setattr(summary, "_solver_line", lambda deal, seconds: ("Sin comprobar en esta prueba.", []))
        s = InProcessServer(tmp_path_factory.mktemp("fuzz"))
        try:
            yield s
        finally:
            s.close()


@pytest.fixture(scope="module")
def seat(server):
    """A student's secret, on a seat a page has joined, with one move played."""
    _, secret = server.on_server(server.challenge.new_seat)
    server.on_server(lambda: server.challenge.page_state(secret))
    move = format_move(load_share(DEAL), load_share(DEAL).legal_moves()[0], sep="-")
    server.on_server(lambda: server.challenge.event(secret, "move", move))
    return secret


def routes(server) -> dict[str, list[str]]:
    """Every route served and the methods it answers."""
    out = {path: _methods(handler) for path, handler, _ in server.routes}
    out[PAGE] = ["GET"]
    return out


@pytest.fixture(scope="module")
def pool(tmp_path_factory):
    s = InProcessServer(tmp_path_factory.mktemp("fuzz-pool"), pool=True)
    try:
        yield s
    finally:
        s.close()


@pytest.fixture(scope="module")
def pool_seat(pool):
    """A student's secret in the class pool, on a seat a page has joined, with one deal added."""
    _, secret = pool.on_server(pool.challenge.new_seat)
    pool.on_server(lambda: pool.challenge.add_deal(secret, 100))
    return secret


@pytest.fixture(scope="module")
def lesson_pools(tmp_path_factory):
    """07's and 08's pools, each with a seat that has added one entry: {lesson: (server, secret)}."""
    from solitaire_nb.atlas.lab_sample import MAX_STATES, SAMPLE, stored_sample
    from solitaire_nb.games import GAMES

    made = {}
    scotch = stored_sample(GAMES["scotch"], SAMPLE, MAX_STATES)
    assert scotch is not None
    first = {"07": {"partida": 1, "resultado": "empezada"},
             "08": {"juego": "scotch+columns=10", "nombre_juego": "Diez", "cuentas": [50, 40, 10],
                    "original": [scotch.won, scotch.lost, scotch.unknown]}}  # fmt: skip
    try:
        for lesson in ("07", "08"):
            s = InProcessServer(tmp_path_factory.mktemp(f"fuzz-pool-{lesson}"), pool=lesson)
            _, secret = s.on_server(s.challenge.new_seat)
            made[lesson] = (s, secret)
            s.on_server(lambda s=s, secret=secret, lesson=lesson: s.challenge.add(secret, first[lesson]))
        yield made
    finally:
        for s, _ in made.values():
            s.close()


def test_every_route_is_listed(server, pool, lesson_pools) -> None:
    assert set(ROUTES) == set(FIELDS), "list the fields a new route reads in FIELDS"
    assert set(routes(server)) == set(FIELDS)
    assert set(POOL_ROUTES) == set(POOL_FIELDS), "list the fields a new pool route reads in POOL_FIELDS"
    served = set(routes(pool)).union(*(routes(s) for s, _ in lesson_pools.values()))
    assert served == set(POOL_FIELDS)
    assert all(set(routes(s)) - set(routes(pool)) == {path for path, k in LESSON_ROUTES.items() if k == lesson}
               for lesson, (s, _) in lesson_pools.items())  # fmt: skip


# ---------------------------------------------------------------------- what a request holds
LONE = st.integers(0xD800, 0xDFFF).map(chr)
ODD_CHARS = st.one_of(LONE, st.sampled_from(list("\x00\x07\x1b\x7f\u0085\u202e\u2066\u200b\ufeff\u2028٣１\U0001d7d9")))
TEXT = st.one_of(
    st.text(max_size=30),
    st.lists(st.one_of(ODD_CHARS, st.characters()), max_size=12).map("".join),
    st.sampled_from(
        [
            "",
            "0",
            "1",
            "-1",
            "false",
            "true",
            "null",
            "NaN",
            "1e999",
            "٣",
            "１",
            "1_0",
            " 1",
            "0x1",
            "move",
            "undo",
            "refusal",
            "hint",
            "win",
            "pausar",
            "seguir",
            "terminar",
            "reabrir",
            "pistas",
            "solucion",
            "T1-T2",
            "T1-T1",
            "=HYPERLINK(1)",
            "\u202eAna",
        ]
    ),
    st.integers(1, 6).map(lambda n: "9" * 10**n),  # up to a million digits
    st.integers(1, 5000).map(lambda n: "x" * n),
)
#: a text holding at least one character no field may keep, or a number no field may read.
HOSTILE = st.one_of(
    st.tuples(st.text(max_size=4), ODD_CHARS, st.text(max_size=4)).map("".join),
    st.integers(1, 6).map(lambda n: "9" * 10**n),
    st.sampled_from(["٣", "１", "1e999", "-1", "false", "NaN", " 1", "\u202e\u2066"]),
)
JSON_VALUE = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), TEXT),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(TEXT, inner, max_size=3)),
    max_leaves=6,
)
RAW_BODY = st.one_of(
    st.binary(max_size=200),
    st.one_of(st.integers(9, 3000), st.integers(900, 2040)).map(lambda n: b"[" * n + b"]" * n),  # deep, under the cap
    st.integers(9, 1000).map(lambda n: b'{"a":' * n + b"1" + b"}" * n),
    st.integers(1, 5).map(lambda n: b'{"asiento": 1' + b"0" * 10**n + b"}"),  # huge numbers
    st.sampled_from(
        [
            b'{"paso": 1e999999}',
            b'{"valor": NaN}',
            b'{"valor": -Infinity}',
            b"null",
            b"[]",
            b'"x"',
            b"\xef\xbb\xbf{}",
            b'{"nombre": "\xed\xa0\x80"}',
            b'{"nombre": "\\udfff"}',
            b"{" * 5000,
            b'{"a": "' + b"\\\\" * 3000 + b'"}',
        ]
    ),  # fmt: skip
    st.integers(4000, 300_000).map(lambda n: b'{"codigos": "' + b"x" * n + b'"}'),  # oversize
)
HEADER_NAMES = st.one_of(
    st.sampled_from(["X-Token", "Content-Type", "Accept", "Cookie", "X-Forwarded-For", "X-Real-Ip", "Origin",
                     "Referer", "Accept-Language", "Accept-Charset", "User-Agent", "Host", "Expect"]),
    st.from_regex(r"X-[A-Za-z0-9-]{1,12}", fullmatch=True),
)  # fmt: skip
HEADER_VALUES = st.one_of(
    st.text(st.characters(min_codepoint=32, max_codepoint=255), max_size=60).map(lambda t: t.strip().encode("latin-1")),
    st.binary(max_size=60).filter(lambda b: not set(b) & {0, 10, 13}).map(bytes.strip),  # tornado refuses these
    st.sampled_from([b"application/x-www-form-urlencoded", b"multipart/form-data; boundary=x",
                     b"multipart/form-data", b"application/json; charset=latin-1", b"text/plain", b"\xed\xa0\x80"]),
)  # fmt: skip


def _encoded(value: object) -> bytes:
    """A query value as bytes: text as UTF-8 (a lone surrogate as its three bytes, which are no
    UTF-8), or raw bytes."""
    if isinstance(value, bytes):
        return value
    return str(value).encode("utf-8", "surrogatepass")


def _often(draw) -> bool:
    """True four times in five (shrinks to True): most requests reach the handler's own checks."""
    return draw(st.sampled_from([True, True, True, True, False]))


def _good(server, secret: str) -> dict[str, list]:
    """Values a page or the teacher's page sends, per field: most requests mix them with junk."""
    start = load_share(DEAL)
    moves = [format_move(start, m, sep="-") for m in start.legal_moves()]
    return {"asiento": [secret, "1", "2", 1, 2], "suceso": ["move", "undo", "refusal", "hint"],
            "movimiento": [*moves, "T1-T1", "T1 T2", "B1-T1"], "nombre": ["Ana", "=1+1", "\u202eAna"],
            "orden": ["pausar", "seguir", "terminar", "reabrir", "pistas", "solucion"], "valor": [True, False],
            "paso": ["0", "1", "3"], "nombres": ["0", "1"], "token": [server.token],
            "partida": [100, 101, 0, 10**9, 10**9 + 1, -1, 5.0, "7"], "apuesta": ["7", "6,5", "6.5", "49", "x"],
            "seguro": [True, False], "resultado": ["empezada", "perdida", "ganada", "Ganada"],
            "jugada": ["citadel/1/", "citadel/1/T1-B1", "scotch/1/", 7], "juego": ["scotch+columns=10", "scotch", "scotch+columns=99"],
            "nombre_juego": ["Diez", "=1+1", None], "cuentas": [[50, 40, 10], [100, 0, 0], [1, 2, 3], [True, 0, 99]],
            "original": [[58, 36, 6], [50, 40, 10]],
            "codigos": [DEAL, f"{DEAL}/{moves[0]}", "basura\n" * 30, f"{DEAL}/T1-T1"]}  # fmt: skip


@st.composite
def requests(draw, server, secret: str, path: str):
    """(method, target, body, headers) for the route `path` of `server`."""
    table = routes(server)
    fields = (POOL_FIELDS if server.pool else FIELDS).get(path, ALL_FIELDS)
    others = ["GET", "POST", "PUT", "DELETE", "HEAD", "PATCH", "OPTIONS"]
    method = draw(st.sampled_from(table[path] if _often(draw) else others))
    good = _good(server, secret)

    def value(field: str, text_only: bool):
        how = draw(st.sampled_from(["good", "good", "hostile", "hostile", "junk"]))
        if how == "good" and field in good:
            v = secret if field == "asiento" and path.startswith(("/reto", "/clase")) else draw(st.sampled_from(good[field]))
            return str(v).lower() if text_only and isinstance(v, bool) else v
        if how == "hostile":
            return draw(HOSTILE)
        return draw(st.one_of(st.binary(max_size=20), TEXT) if text_only else JSON_VALUE)

    query: list[tuple[str, bytes]] = []
    if method in ("GET", "HEAD") or not _often(draw):
        for name in fields:
            if _often(draw):
                query.append((name, _encoded(value(name, True))[:URL_MAX]))
        query += [
            (name, _encoded(draw(TEXT))[:URL_MAX]) for name in draw(st.lists(st.sampled_from(ALL_FIELDS), max_size=2))
        ]
    headers = [] if _often(draw) else draw(st.lists(st.tuples(HEADER_NAMES, HEADER_VALUES), max_size=3))
    if path.startswith("/docente") and _often(draw):  # most teacher requests carry the token
        if draw(st.booleans()):
            query.append(("token", server.token.encode()))
        else:
            headers.append(("X-Token", server.token.encode()))
    body: bytes | None = None
    if method not in ("GET", "HEAD") or not _often(draw):
        obj = {name: value(name, False) for name in fields if _often(draw)}
        obj.update(draw(st.dictionaries(TEXT, JSON_VALUE, max_size=2)))
        how = draw(st.sampled_from(["json", "json", "utf-8", "raw", "raw", "deep", "empty"]))
        if how == "json":
            body = json.dumps(obj, ensure_ascii=True).encode()  # a lone surrogate as «\\ud800»
        elif how == "utf-8":
            body = json.dumps(obj, ensure_ascii=False).encode("utf-8", "surrogatepass")  # as three bytes
        elif how == "raw":
            body = draw(RAW_BODY)
        elif how == "deep":  # unclosed: a byte per level, past the JSON parser's recursion limit
            small = {name: good[name][0] for name in fields if name in good and name != "token"}
            start = json.dumps(small).encode()[:-1] + b', "x": '
            body = start + b"[" * draw(st.integers(3000, 4096 - len(start)))
        else:
            body = b""
    target = path + ("?" + "&".join(f"{urllib.parse.quote_from_bytes(k.encode())}={urllib.parse.quote_from_bytes(v)}"
                                    for k, v in query) if query else "")  # fmt: skip
    return method, target, body, headers


def check_request(server, method: str, target: str, body: bytes | None, headers) -> tuple[int, dict]:
    """Send one request; assert what every request must get.  (status, JSON answer or {})."""
    before = server.snapshot()
    said = len(server.lines)
    status, head, answer = server.request(method, target, body, headers)
    assert status < 500, (status, answer[:300])
    data: dict = {}
    if "json" in head.get("content-type", "") and answer:
        data = json.loads(answer)
    if status >= 400:
        assert server.snapshot() == before, "a refused request changed the class"
        if method != "HEAD" and "json" in head.get("content-type", ""):
            assert spanish(data["error"]) and len(data["error"]) < 400, data
    view, text = server.teacher_view()
    key, value = server.identity
    assert view == 200 and json.loads(text)[key] == value
    assert "Traceback" not in server.logged and "Traceback" not in "\n".join(server.lines)
    new = server.lines[said:]
    assert len(set(server.lines)) == len(server.lines), "a kind of bad request told the teacher twice"
    assert all(line.startswith("Aviso:") and spanish(line) for line in new), new
    return status, data


@pytest.mark.parametrize("path", ROUTES)
def test_every_route_answers_every_request_without_a_fault(server, seat, path) -> None:
    @SETTINGS
    @given(st.data())
    def fuzz(data) -> None:
        check_request(server, *data.draw(requests(server, seat, path)))

    fuzz()
    server.on_server(lambda: server.challenge.command("seguir"))
    server.on_server(lambda: server.challenge.command("reabrir"))


@pytest.mark.parametrize("path", POOL_ROUTES)
def test_every_pool_route_answers_every_request_without_a_fault(pool, pool_seat, lesson_pools, path) -> None:
    target, secret = lesson_pools[LESSON_ROUTES[path]] if path in LESSON_ROUTES else (pool, pool_seat)

    @SETTINGS
    @given(st.data())
    def fuzz(data) -> None:
        check_request(target, *data.draw(requests(target, secret, path)))

    fuzz()


def test_every_route_refuses_a_bad_method_in_spanish(server, pool, lesson_pools) -> None:
    for s in (server, pool, *(s for s, _ in lesson_pools.values())):
        for path, methods in routes(s).items():
            for method in ("GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"):
                if method not in methods:
                    status, data = check_request(s, method, path + "?token=" + s.token, b"{}", [])
                    assert status in (403, 405), (path, method, status)


def test_an_endless_address_is_dropped_and_the_class_goes_on(server) -> None:
    before = server.snapshot()
    for target in ("/?asiento=" + "9" * 100_000, "/reto/api/estado?asiento=" + "%ED%A0%80" * 30_000):
        status, _, _ = server.request("GET", target)  # tornado drops a request whose head passes 64 KB
        assert 400 <= status < 500
    assert server.snapshot() == before and server.teacher_view()[0] == 200
