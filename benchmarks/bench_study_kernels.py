"""Two NumPy choices inside the family's dealer (`solitaire_nb.study.family`, which deals the
Citadel study too), timed against the obvious alternative.

* cards per deal: adding the eight columns of the (n, 8) lengths one by one (`_add_columns`)
  versus ``lengths.sum(axis=1)``;
* looking up each dealt card's flag: 1-D fancy indexing on flat indices (`_home_by_suit`) versus
  the 2-D broadcast form ``flags[rows, grid]``.

Prints the best of `--repeat` runs of each, in milliseconds per call, on `--deals` deals.

    python benchmarks/bench_study_kernels.py [--deals 50000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import timeit

import numpy as np

from solitaire_nb.study.family import _add_columns


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=50_000)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    n, rng = args.deals, np.random.default_rng(0)

    lengths = rng.integers(0, 14, size=(n, 8), dtype=np.uint8)
    grid = rng.permuted(np.tile(np.arange(52, dtype=np.uint8), (n, 1)), axis=1)
    flags = rng.random((n, 52)) < 0.5
    flat = ((np.arange(n, dtype=np.int32) * 52)[:, None] + grid).ravel()
    rows = np.arange(n)[:, None]
    pairs = {
        "cartas por reparto": (lambda: _add_columns(lengths), lambda: lengths.sum(axis=1, dtype=np.int16)),
        "índices de cartas": (lambda: flags.ravel()[flat].reshape(n, 52), lambda: flags[rows, grid]),
    }
    print(f"{args.deals:,} repartos; ms por llamada (mejor de {args.repeat})".replace(",", "."))
    print(f"{'operación':<24} {'elegida':>9} {'alternativa':>12} {'razón':>7}")
    for name, (chosen, other) in pairs.items():
        assert (chosen() == other()).all()
        a, b = (min(timeit.repeat(f, number=20, repeat=args.repeat)) / 20 * 1e3 for f in (chosen, other))
        print(f"{name:<24} {a:9.2f} {b:12.2f} {b / a:7.1f}")


if __name__ == "__main__":
    main()
