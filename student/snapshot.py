"""Finish a built Voici site for students (run by student/build.py in its build environment,
student/.cache/venv, which has nbconvert):

* every lesson page shows its text at once, with a snapshot of the saved outputs of each code cell
  (the boards' static pictures), under a «Cargando Python…» line; each cell's live output replaces
  its snapshot as soon as Python has run it, and the line goes when the whole page has run;
* fixed drawings shrink to a phone's width; Voila's English loading messages are hidden and its
  links to a CDN (Font Awesome, which Voila's own scripts already bundle) removed;
* a link to a lesson that is not in the site becomes plain text;
* ``alumnos.html`` lists the lessons by title, in the teaching order of notebooks/guia_docente.md
  («Orden que proponemos»), and the site's own start pages lead to it; ``404.html`` says in
  Spanish that a page does not exist, for hosts that serve one (``http.server`` does not).

Usage: ``python student/snapshot.py SITE FILES LESSON.ipynb ...`` (prints the titles, in order).
"""

from __future__ import annotations

import json
import re
import sys
from html import escape
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "notebooks" / "guia_docente.md"
CDN_LINK = re.compile(r'\s*<link rel="stylesheet" href="https://cdn\.jsdelivr\.net/[^"]*"[^>]*>')
CODE_CELL = re.compile(r'(<div id="cell-id=([^"]+)" class="jp-Cell jp-CodeCell[^"]*">)')
LESSON_LINK = re.compile(r'<a href="([^"#?/]+\.html)(#[^"]*)?">(.*?)</a>', re.S)
LOADING = "Cargando Python…"
CONFIG = re.compile(r'(<script id="jupyter-config-data" type="application/json">\s*)(\{.*?\})(\s*</script>)', re.S)

HEAD = """<style id="snb-alumno">
#loading { display: none !important; }
#rendered_cells { display: block !important; }
.snb-loading { position: sticky; top: 0; z-index: 10; margin: 0; padding: .5em 1em;
  background: #fff7d6; border-bottom: 1px solid #e0c97a; font: 600 1rem/1.4 sans-serif; color: #3d3200; }
.jp-Cell:has(> .snb-snapshot) { display: block !important; }
.snb-snapshot { padding: 4px 0; opacity: .75; }
.jp-Cell:has(> .jp-Cell-outputWrapper) > .snb-snapshot { display: none; }
.snb-snapshot svg, .snb-snapshot img { max-width: 100%; height: auto; }
.snb-snapshot pre { white-space: pre-wrap; overflow-wrap: anywhere; }
.jp-RenderedSVG img, .jp-RenderedImage img { max-width: 100%; height: auto; }
@media (max-width: 600px) { #rendered_cells { padding: 8px !important; }
  #rendered_cells .jp-RenderedHTMLCommon th, #rendered_cells .jp-RenderedHTMLCommon td,
  .snb-snapshot th, .snb-snapshot td { padding: .25em .35em; overflow-wrap: anywhere; }
  /* a table in a labelled scroll box slides sideways instead: its words and numbers stay whole */
  #rendered_cells [role=region] :is(th, td), .snb-snapshot [role=region] :is(th, td) { overflow-wrap: normal; } }
</style>"""

#: the «Cargando Python…» line: it shows the page's progress in Spanish, and goes when Voici
#: calls display_cells (every cell has run).
BANNER = """<p class="snb-loading" id="snb-loading" role="status">@LOADING@</p>
<script>
(function () {
  var line = document.getElementById("snb-loading");
  var update = window.update_loading_text;
  window.update_loading_text = function (done, total, text) {
    if (line && total) line.textContent = "@STEP@: preparando la página (" + done + " de " + total + ")…";
    if (update) update(done, total, text);
  };
  var display = window.display_cells;
  window.display_cells = function () {
    if (display) display();
    if (line) line.remove();
    document.querySelectorAll(".snb-snapshot").forEach(function (s) { s.remove(); });
  };
})();
</script>""".replace("@LOADING@", LOADING).replace("@STEP@", LOADING.rstrip("…"))


def _markdown(text: str) -> str:
    try:
        from nbconvert.filters.markdown_mistune import markdown2html_mistune
    except ImportError:  # pragma: no cover - the build environment has nbconvert
        return f"<pre>{escape(text)}</pre>"
    return markdown2html_mistune(text)


def _joined(value: object) -> str:
    return "".join(value) if isinstance(value, list) else str(value)


def output_html(output: dict) -> str:
    """The static form of one saved output (nothing for errors and stderr)."""
    kind = output.get("output_type")
    if kind == "stream":
        return "" if output.get("name") == "stderr" else f"<pre>{escape(_joined(output.get('text', '')))}</pre>"
    data = output.get("data", {})
    if "text/html" in data:
        return _joined(data["text/html"])
    if "image/svg+xml" in data:
        return _joined(data["image/svg+xml"])
    if "image/png" in data:
        return f'<img alt="" src="data:image/png;base64,{_joined(data["image/png"]).strip()}">'
    if "text/markdown" in data:
        return _markdown(_joined(data["text/markdown"]))
    return ""


def snapshots(nb: dict) -> dict[str, str]:
    """cell id → the static HTML of its saved outputs (code cells with any)."""
    found = {}
    for cell in nb.get("cells", []):
        if cell.get("cell_type") == "code" and cell.get("id"):
            html = "".join(output_html(o) for o in cell.get("outputs", []))
            if html.strip():
                found[cell["id"]] = html
    return found


def unlink_missing(html: str, present: set[str]) -> str:
    """Links to lesson pages that are not in the site become their plain text."""

    def repl(m: re.Match[str]) -> str:
        return m.group(0) if m.group(1) in present else f'<span class="snb-sin-enlace">{m.group(3)}</span>'

    return LESSON_LINK.sub(repl, html)


def without_outputs(nb: dict) -> dict:
    """The notebook with its code cells' saved outputs cleared (Voici clears them anyway before it
    runs the page; the snapshot already shows them)."""
    cells = [
        {**c, "outputs": [], "execution_count": None} if c.get("cell_type") == "code" else c for c in nb.get("cells", [])
    ]
    return {**nb, "cells": cells}


def _lighter_config(m: re.Match[str]) -> str:
    """The page's configuration without the notebook's saved outputs, escaped as Jinja's tojson does."""
    config = json.loads(m.group(2))
    if isinstance(config.get("notebookSrc"), dict):
        config["notebookSrc"] = without_outputs(config["notebookSrc"])
    text = json.dumps(config, ensure_ascii=False)
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026").replace("'", "\\u0027")
    return m.group(1) + text + m.group(3)


def finish_page(page: Path, nb: dict, present: set[str]) -> None:
    html = page.read_text(encoding="utf-8")
    html = CDN_LINK.sub("", html)
    html = CONFIG.sub(_lighter_config, html, count=1)
    html = html.replace("</head>", HEAD + "</head>", 1)
    shots = snapshots(nb)
    html = CODE_CELL.sub(
        lambda m: m.group(1) + (f'<div class="snb-snapshot">{shots[m.group(2)]}</div>' if m.group(2) in shots else ""),
        html,
    )
    html = html.replace('<div id="rendered_cells"', BANNER + '\n<div id="rendered_cells"', 1)
    page.write_text(unlink_missing(html, present), encoding="utf-8")


def title(nb: dict, name: str) -> str:
    """The lesson's first heading (its title), else its file name."""
    for cell in nb.get("cells", []):
        if cell.get("cell_type") == "markdown":
            m = re.search(r"^#\s+(.+)$", _joined(cell.get("source", "")), re.M)
            if m:
                return m.group(1).strip()
    return name.removesuffix(".ipynb")


def teaching_order(names: list[str], guide: Path = GUIDE) -> list[str]:
    """names sorted as the guide's «Orden que proponemos» lists them (others after, by name)."""
    order: list[str] = []
    if guide.exists():
        text = guide.read_text(encoding="utf-8")
        section = text.split("## Orden que proponemos", 1)[-1].split("\n## ", 1)[0]
        order = re.findall(r"\]\(([^)]+\.ipynb)\)", section)
    rank = {n: i for i, n in enumerate(order)}
    return sorted(names, key=lambda n: (rank.get(n, len(rank)), n))


START = """<!doctype html>
<html lang="es"><head><meta charset="utf-8"><title>Solitarios para aprender</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body {{ font: 1.05rem/1.5 sans-serif; max-width: 40em; margin: 0 auto; padding: 1rem 1.25rem 2rem; color: #1a1a1a; }}
h1 {{ font-size: 1.6rem; line-height: 1.2; }}
ol {{ padding-left: 1.6em; }}
li {{ margin: .6em 0; }}
a {{ color: #0b57a4; }}
.num {{ color: #555; font-size: .9em; }}
</style></head>
<body>
<h1>Solitarios para aprender</h1>
<p>Elige una lección. Se abre en tu navegador, que ejecuta Python por sí mismo: no hace falta
instalar nada ni conexión a internet. El texto se ve al momento; los tableros se pueden usar
cuando desaparece la línea «{loading}» (la primera vez tarda un poco).</p>
<ol>
{links}
</ol>
<p>Las lecciones siguen el orden que proponemos para la clase.</p>
</body></html>
"""


#: the page hosts that honour one (GitHub and GitLab Pages, Netlify) send for a missing address,
#: whatever its folder: so its link to the start page is found from the address (the site's
#: lessons live under ``voici/``), not written relative to it.
NOT_FOUND = """<!doctype html>
<html lang="es"><head><meta charset="utf-8"><title>Página no encontrada · Solitarios para aprender</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body {{ font: 1.05rem/1.5 sans-serif; max-width: 40em; margin: 0 auto; padding: 1rem 1.25rem 2rem; color: #1a1a1a; }}
h1 {{ font-size: 1.6rem; line-height: 1.2; }}
a {{ color: #0b57a4; }}
</style></head>
<body>
<h1>Esta página no existe</h1>
<p>La dirección no corresponde a ninguna lección de esta aplicación. Puede que esté mal escrita o
que esa lección no esté incluida.</p>
<p><a id="snb-inicio" href="alumnos.html">Ver la lista de lecciones</a></p>
<script>
(function () {{
  var path = location.pathname, at = path.indexOf("/voici/");
  var root = at >= 0 ? path.slice(0, at + 1) : path.slice(0, path.lastIndexOf("/") + 1);
  document.getElementById("snb-inicio").setAttribute("href", root + "alumnos.html");
}})();
</script>
</body></html>
"""


def start_page(site: Path, lessons: list[tuple[str, str]]) -> Path:
    """alumnos.html: one link per lesson (file name, title), in the order given."""
    links = "\n".join(
        f'<li><a href="voici/render/{escape(n.removesuffix(".ipynb"))}.html">{escape(t, quote=False)}</a> '
        f'<span class="num">(lección {escape(n[:2])})</span></li>'
        for n, t in lessons
    )
    page = site / "alumnos.html"
    page.write_text(START.format(links=links, loading=LOADING), encoding="utf-8")
    # The site's own start pages (Voici's file list, in English) lead to alumnos.html instead.
    redirect = '<!doctype html><meta charset="utf-8"><meta http-equiv="refresh" content="0; url={0}"><a href="{0}">Lecciones</a>\n'
    (site / "index.html").write_text(redirect.format("alumnos.html"), encoding="utf-8")
    (site / "voici" / "index.html").write_text(redirect.format("../alumnos.html"), encoding="utf-8")
    (site / "404.html").write_text(NOT_FOUND.format(), encoding="utf-8")
    return page


def finish_site(site: Path, files: Path, names: list[str]) -> list[str]:
    """Finish every lesson page and write the start page; return the titles in teaching order."""
    render = site / "voici" / "render"
    present = {p.name for p in render.glob("*.html")}
    lessons = []
    for name in teaching_order(names):
        nb = json.loads((files / name).read_text(encoding="utf-8"))
        finish_page(render / f"{name.removesuffix('.ipynb')}.html", nb, present)
        lessons.append((name, title(nb, name)))
        served = site / "files" / name  # the site's copy: its outputs are in the snapshot now
        if served.exists():
            served.write_text(json.dumps(without_outputs(nb), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    start_page(site, lessons)
    return [t for _, t in lessons]


def external_links(site: Path) -> list[str]:
    """Student pages that still load anything from outside the site (a stylesheet, a script)."""
    pages = [site / "alumnos.html", *sorted((site / "voici" / "render").glob("*.html"))]
    return [
        p.relative_to(site).as_posix()
        for p in pages
        if p.exists() and re.search(r'<(?:link|script)[^>]+(?:href|src)="https?://', p.read_text(encoding="utf-8"))
    ]


if __name__ == "__main__":
    titles = finish_site(Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3:])
    print(json.dumps(titles, ensure_ascii=False))
