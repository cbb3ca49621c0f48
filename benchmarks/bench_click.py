"""What a student feels when playing a board: from the click on the destination pile to the new
board painted on screen, in JupyterLab and in Voila (Chromium through Playwright, Debian's).

A throw-away notebook shows one board (Beleaguered Castle by default).  For each move, chosen at
random among the legal ones by a copy of the game kept here, the page clicks the source card
(«elegir»: the board redraws with the card marked) and then the destination («mover»: the
kernel plays the move and the board redraws).  Each click is a DOM click event dispatched from
inside the page; the clock stops in a requestAnimationFrame callback queued after the board's
drawing changed (MutationObserver on the SVG), plus one task, i.e. once that frame was painted.
``clic→DOM`` is the kernel's work plus the round trip plus the front end's update; ``DOM→pintado``
is the browser's layout and paint.  When a deal has no move left a new deal starts (not timed).

A person leaves a pause between clicks (--pause, 250 ms by default): the kernel and the
browser have finished with the previous click, as they have for a student.

    python benchmarks/bench_click.py [--moves 60] [--game beleaguered_castle] [--only lab|voila]
                                     [--pause 250] [--profile]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
from pathlib import Path

import nbformat

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "browser"))

import browser_helpers as bh  # noqa: E402

import solitaire_nb as sn  # noqa: E402

# Dispatch a click on the element matching `selector` inside the board and resolve with
# [ms to the drawing's change, ms to the frame after it], measured with performance.now().
CLICK_JS = """([boardSel, selector]) => new Promise((resolve, reject) => {
  const board = document.querySelector(boardSel);
  const table = board.querySelector(".snb-table");
  const target = table.querySelector(selector);
  if (!target) return reject(new Error("no element " + selector));
  let dom = null;
  const give_up = setTimeout(() => { obs.disconnect(); reject(new Error("no redraw for " + selector)); }, 30000);
  const obs = new MutationObserver(() => {
    if (dom !== null) return;
    dom = performance.now();
    obs.disconnect();
    requestAnimationFrame(() => setTimeout(() => {
      clearTimeout(give_up);
      const ws = window.__snbWs || {};
      const sent = ws.sent > t0 ? ws.sent - t0 : NaN;
      const got = ws.got > t0 ? ws.got - t0 : NaN;
      resolve([dom - t0, performance.now() - t0, sent, got]);
    }, 0));
  });
  obs.observe(table, {childList: true, subtree: true});
  const t0 = performance.now();
  target.dispatchEvent(new MouseEvent("click", {bubbles: true, cancelable: true, view: window}));
})"""


# With --profile the kernel appends, per message, the time its handler took and the time spent
# sending the new view (ms) to this file: the kernel's share of a click.
PROFILE_CELL = """
import time as _time
_b = sn.play("{game}", seed={seed})
_handle, _send = _b.handle, _b.send_state
def _timed_send(*a, **k):
    t = _time.perf_counter()
    out = _send(*a, **k)
    _log.append(("send", (_time.perf_counter() - t) * 1000))
    return out
_b.send_state = _timed_send
_log = []
def _timed(msg):
    t = _time.perf_counter()
    before = _b.game.moves_played
    _handle(msg)
    moved = int(_b.game.moves_played > before)
    with open({log!r}, "a") as f:
        f.write(f"{{(_time.perf_counter() - t) * 1000:.3f}} {{sum(x for _, x in _log):.3f}} {{moved}}\\n")
    _log.clear()
_b.handle = _timed
_b
"""


# Times (performance.now) of the last frame the page sent on a websocket and of the first
# frame received after it: the network share of a click, kernel included.
WS_INIT = """(() => {
  window.__snbWs = {sent: 0, got: 0};
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    window.__snbWs.sent = performance.now();
    window.__snbWs.got = 0;
    if (!this.__snbHooked) {
      this.__snbHooked = true;
      this.addEventListener("message", (e) => {
        const size = typeof e.data === "string" ? e.data.length : (e.data.byteLength || e.data.size || 0);
        if (!window.__snbWs.got && size > 2000) window.__snbWs.got = performance.now();  // the view, not a status
      });
    }
    return send.call(this, data);
  };
})();"""


def notebook(game: str, seed: int, folder: Path, profile: Path | None = None) -> Path:
    nb = nbformat.v4.new_notebook()
    if profile is None:
        code = f'import solitaire_nb as sn\nsn.play("{game}", seed={seed})'
    else:
        code = "import solitaire_nb as sn\n" + PROFILE_CELL.format(game=game, seed=seed, log=str(profile))
    nb.cells = [nbformat.v4.new_code_cell(code)]
    nb.metadata["kernelspec"] = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
    path = folder / "bench_click.ipynb"
    nbformat.write(nb, path)
    return path


def selector(g: sn.Game, pile: str, index: int | None = None) -> str:
    n = len(g.piles[pile])
    if not n:
        return f'rect.snb-hole[data-pile="{pile}"]'
    return f'[data-pile="{pile}"][data-index="{n - 1 if index is None else index}"]'


def play(page, game: str, seed: int, moves: int, rng: random.Random, pause: int) -> dict[str, list[float]]:
    board_sel = f'.snb-board[data-game="{game}"]'
    board = page.locator(board_sel).first
    board.locator("svg [data-pile]").first.wait_for(timeout=bh.BOARD_TIMEOUT_MS)
    g = sn.new_game(game, seed=seed)
    out: dict[str, list[float]] = {k: [] for k in ("pick_dom", "pick", "move_dom", "move", "ws_sent", "ws_got")}
    last_target = None
    while len(out["move"]) < moves:
        legal = [m for m in g.legal_moves() if m.src != "S"]
        if not legal or g.moves_played >= 200:
            seed += 1
            g = sn.new_game(game, seed=seed)
            page.evaluate(
                """([sel, seed]) => { const b = document.querySelector(sel);
                   b.querySelector(".snb-seed").value = String(seed);
                   b.querySelector('[data-button="new"]').click(); }""",
                [board_sel, seed],
            )
            page.wait_for_function(
                "([sel, seed]) => document.querySelector(sel).dataset.seed === String(seed)", arg=[board_sel, seed]
            )
            continue
        move = rng.choice(legal)
        src = selector(g, move.src, len(g.piles[move.src]) - move.n_cards)
        # A person's pause before the next click (and never a double click on the same card).
        page.wait_for_timeout(max(pause, 450) if src == last_target else pause)
        dom, painted, _sent, _got = page.evaluate(CLICK_JS, [board_sel, src])
        out["pick_dom"].append(dom)
        out["pick"].append(painted)
        page.wait_for_timeout(pause)  # a person's pause between two clicks
        dst = selector(g, move.dst)
        dom, painted, sent, got = page.evaluate(CLICK_JS, [board_sel, dst])
        out["ws_sent"].append(sent)
        out["ws_got"].append(got)
        out["move_dom"].append(dom)
        out["move"].append(painted)
        g.move(move)
        last_target = dst
        page.wait_for_function(
            "([sel, n]) => document.querySelector(sel).dataset.moves === String(n)", arg=[board_sel, g.moves_played]
        )
    return out


def p90(xs: list[float]) -> float:
    return sorted(xs)[max(0, int(round(0.9 * len(xs))) - 1)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--moves", type=int, default=60)
    ap.add_argument("--game", default="beleaguered_castle", choices=list(sn.GAMES))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", choices=["lab", "voila"])
    ap.add_argument("--pause", type=int, default=250, help="ms between two clicks, as a person leaves")
    ap.add_argument("--profile", action="store_true", help="also time the kernel's handler and sending")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    results = []
    with tempfile.TemporaryDirectory(prefix="snb-bench-") as tmp, sync_playwright() as p:
        log = Path(tmp) / "kernel_ms.txt"
        nb = notebook(args.game, args.seed, Path(tmp), log if args.profile else None)
        browser = bh.launch_chromium(p)
        try:
            for where in ("lab", "voila"):
                if args.only and args.only != where:
                    continue
                page = browser.new_context(viewport={"width": 1280, "height": 1000}).new_page()
                page.add_init_script(WS_INIT)
                if where == "lab":
                    with bh.jupyterlab(nb) as url:
                        bh.run_all_in_jupyterlab(page, url)
                        data = play(page, args.game, args.seed, args.moves, random.Random(args.seed), args.pause)
                else:
                    with bh.voila(nb) as url:
                        page.goto(url)
                        data = play(page, args.game, args.seed, args.moves, random.Random(args.seed), args.pause)
                page.context.close()
                if args.profile and log.exists():
                    rows = [tuple(map(float, line.split())) for line in log.read_text().splitlines() if line.strip()]
                    log.unlink()
                    data["kernel"] = [r[0] for r in rows if r[2]]  # the clicks that played a move
                    data["send"] = [r[1] for r in rows if r[2]]
                results.append(("JupyterLab" if where == "lab" else "Voila", data))
        finally:
            browser.close()
    print(f"{args.game}, {args.moves} movimientos por entorno (ms)")
    print(f"{'entorno':<11} {'clic':<7} {'n':>4} {'mediana':>8} {'p90':>7} {'clic→DOM':>9} {'DOM→pintado':>12}")
    for where, data in results:
        for kind, label in (("pick", "elegir"), ("move", "mover")):
            total, dom = data[kind], data[f"{kind}_dom"]
            paint = [t - d for t, d in zip(total, dom, strict=True)]
            print(
                f"{where:<11} {label:<7} {len(total):>4} {statistics.median(total):>8.1f} {p90(total):>7.1f} "
                f"{statistics.median(dom):>9.1f} {statistics.median(paint):>12.1f}"
            )
        sent = [x for x in data["ws_sent"] if x == x]
        got = [x for x in data["ws_got"] if x == x]
        if sent and got:
            print(
                f"{where:<11} mover: clic→mensaje enviado {statistics.median(sent):.1f} ms, "
                f"clic→vista recibida {statistics.median(got):.1f} ms"
            )
        if data.get("kernel"):
            k, snd = data["kernel"], data["send"]
            print(
                f"{where:<11} núcleo (mover): mediana {statistics.median(k):.1f} ms (p90 {p90(k):.1f}), "
                f"de ello enviar la vista {statistics.median(snd):.1f} ms"
            )


if __name__ == "__main__":
    main()
