"""Memory and processor time of one student's single-user server under a JupyterHub, per page:
the challenge's page and lessons 05, 06 and 08 opened in Voila (as students land on them), each
in the server of a user of its own.  Prints a table for benchmarks/RESULTS.md («El reto en un
JupyterHub»).

Usage::

    python benchmarks/bench_hub_memory.py [--paginas reto.ipynb 05 06 08]

The hub is tests/hub_server.py's (a real JupyterHub on loopback, the project's configuration);
Chromium (Debian's) opens the page after the hub's login and waits for its first board or, for a
lesson, for Voila to finish running it; then the user's server and its kernels are measured
(resident memory, the sum of the processes; processor time since they started).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

import psutil

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO))

from hub_server import Hub  # noqa: E402

DEAL = "citadel/2000"


def tree(home: Path) -> list[psutil.Process]:
    """The user's server (its working folder is the user's) and its kernels."""
    out = []
    for proc in psutil.process_iter(["cwd"]):
        if proc.info["cwd"] == str(home):
            out.append(proc)
    kids = [k for p in out for k in p.children(recursive=True)]
    return list({p.pid: p for p in out + kids}.values())


def main() -> None:
    from playwright.sync_api import sync_playwright

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--paginas", nargs="+", default=["reto.ipynb", "05", "06", "08"])
    a = p.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        hub = Hub(Path(tmp), DEAL)
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium")
        try:
            for k, which in enumerate(a.paginas):
                user = f"medida{k}"
                home = hub.home(user)
                name = next(f.name for f in sorted(home.glob("*.ipynb")) if f.name.startswith(which))
                page = browser.new_context(locale="es-ES").new_page()
                page.goto(f"{hub.url}/hub/login")
                page.fill("#username_input", user)
                page.fill("#password_input", "x")
                page.click("#login_submit")
                start = time.monotonic()
                page.wait_for_url(f"**/user/{user}/**", timeout=300_000)
                page.goto(f"{hub.url}/user/{user}/voila/render/{name}", timeout=600_000)
                page.locator(".snb-board, .jp-OutputArea-output").first.wait_for(timeout=600_000)
                page.wait_for_function("() => !document.querySelector('.voila-spinner, #loading')", timeout=600_000)
                seconds = time.monotonic() - start
                time.sleep(3)
                procs = tree(home)
                rss = sum(pr.memory_info().rss for pr in procs) / 2**20
                cpu = sum(sum(pr.cpu_times()[:2]) for pr in procs)
                rows.append((name, len(procs), rss, cpu, seconds))
                page.context.close()
        finally:
            browser.close()
            hub.close()
    print(f"load average {os.getloadavg()[0]:.1f}")
    print("| página | procesos | memoria (MB) | CPU desde que arrancó (s) | entrar → página lista (s) |")
    print("|---|---|---|---|---|")
    for name, n, rss, cpu, seconds in rows:
        print(f"| {name} | {n} | {rss:.0f} | {cpu:.1f} | {seconds:.0f} |")


if __name__ == "__main__":
    main()
