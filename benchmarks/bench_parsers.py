"""How long each parser takes on hostile text of up to 100 KB (issue 32: every parser answers
any input of up to 100 KB in at most 50 ms).

For each parser and each kind of text (spaces inside a move, a short move repeated, one long
token, padding around a good move, Spanish words repeated) at 1 KB, 10 KB and 100 KB, the
slowest of a few runs, in milliseconds, whether the parser answers or refuses.  A quadratic
parser shows as a hundredfold jump between 10 KB and 100 KB.

    python benchmarks/bench_parsers.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import io
import time
from contextlib import redirect_stdout

import solitaire_nb as sn
from solitaire_nb.core.cards import Card
from solitaire_nb.core.moves import Move
from solitaire_nb.engine.share import load_share
from solitaire_nb.games import notation
from solitaire_nb.lessons import exercises as ejercicios

KINDS = {
    "espacios": lambda n: "T3>F0" + " " * n + "x",
    "repetido": lambda n: "T1 " * (n // 3),
    "una palabra": lambda n: "x" * n,
    "relleno": lambda n: " " * n + "T1 B1",
    "palabras": lambda n: "del tablero 2 a la base 1 " * (n // 26),
}


def parsers():
    g = sn.new_game("citadel", seed=1)
    doc = g.to_json()
    return {
        "Move.parse": Move.parse,
        "notation.parse_move": lambda t: notation.parse_move(g, t),
        "Card.parse": Card.parse,
        "why_not": g.why_not,
        "load_share": lambda t: load_share("citadel/1/" + t),
        "load_game": lambda t: sn.load_game(doc.replace('"moves": []', '"moves": [' + repr(t).replace("'", '"') + "]")),
        "comprobar": lambda t: ejercicios.comprobar("citadel-3", t),
    }


def slowest(fn, text: str, repeat: int) -> float:
    worst = 0.0
    for _ in range(repeat):
        t0 = time.perf_counter()
        try:
            with redirect_stdout(io.StringIO()):
                fn(text)
        except ValueError:
            pass
        worst = max(worst, time.perf_counter() - t0)
    return worst * 1000


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    sizes = (1_000, 10_000, 100_000)
    print(f"{'analizador':22} {'texto':12} " + " ".join(f"{s // 1000:>5} KB" for s in sizes) + "   (ms, el peor)")
    worst = 0.0
    for name, fn in parsers().items():
        for kind, make in KINDS.items():
            times = [slowest(fn, make(n), args.repeat) for n in sizes]
            worst = max(worst, *times)
            print(f"{name:22} {kind:12} " + " ".join(f"{t:8.2f}" for t in times))
    print(f"el más lento: {worst:.2f} ms")


if __name__ == "__main__":
    main()
