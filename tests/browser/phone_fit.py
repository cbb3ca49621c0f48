"""Phone fit of a student page (issue 44): at 360, 390 and 420 px, nothing a student needs is cut
or pushes the page sideways.  `misfits(page)` resizes the one open page to each width (no new
load) and lists, in words, what does not fit:

* the page wider than the window (it would scroll sideways);
* an element that clips its own content (``scrollWidth > clientWidth`` with ``overflow`` other
  than ``visible``: a button reading «Otro rep…», a table cut at its third column), except a
  scroll box labelled as such (``aria-label`` or ``role="region"``), as 07's class table is;
* an element drawn past the window's edge, outside such a box;
* a word of a table cell broken over two lines (a table narrowed to fit instead of boxed).

Drawings are checked as a whole (an ``svg`` must fit; the cards' and plots' own text inside it
scales with it), and hidden elements (closed «Ver respuesta», assistive copies) are skipped.
"""

from __future__ import annotations

from playwright.sync_api import TimeoutError as PlaywrightTimeout

PHONE_WIDTHS = (360, 390, 420)
REDRAW_TIMEOUT_MS = 120_000  # a board's new layout comes from its kernel, which may be busy (Pyodide has one thread)
_BOARDS_FIT_JS = """() => [...document.querySelectorAll('.snb-board .snb-table')]
  .every((t) => t.scrollWidth <= t.clientWidth + 1)"""

_MISFITS_JS = """(width) => {
  const out = [];
  const name = (el) => {
    const text = (el.innerText || el.getAttribute('aria-label') || '').trim().replace(/\\s+/g, ' ');
    const cls = typeof el.className === 'string' ? el.className.split(' ').slice(0, 2).join('.') : '';
    return `${el.tagName.toLowerCase()}${cls ? '.' + cls : ''} «${text.slice(0, 40)}»`;
  };
  const page = document.documentElement.scrollWidth;
  if (page > width + 1) out.push(`la página mide ${page} px de ancho`);
  const labelled = (el) => ['auto', 'scroll'].includes(getComputedStyle(el).overflowX)
    && (el.getAttribute('aria-label') || el.getAttribute('role') === 'region');
  for (const el of document.querySelectorAll('body *')) {
    if (el.closest('svg') !== el && el.closest('svg')) continue;  // inside a drawing
    if (el.closest('mjx-assistive-mml, .sr-only, [hidden]')) continue;
    const cs = getComputedStyle(el);
    if (cs.display === 'none' || cs.visibility === 'hidden' || el.getClientRects().length === 0) continue;
    const box = [...ancestors(el)].find(labelled);
    if (box) continue;  // inside a labelled scroll box: it may be as wide as it needs
    if (cs.overflowX !== 'visible' && el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1 && !labelled(el)) {
      out.push(`${name(el)} corta su contenido (${el.scrollWidth} > ${el.clientWidth} px)`);
      continue;
    }
    const r = el.getBoundingClientRect();
    if (r.width > 0 && r.height > 0 && (r.right > width + 1 || r.left < -1) && !clipped(el)) {
      out.push(`${name(el)} se sale de la pantalla (${Math.round(r.left)}–${Math.round(r.right)} px)`);
    }
  }
  // a word of a table cell split over two lines («(siempr/e)», «mo/vi/mi/en/to»): a table on a
  // phone keeps its words whole, in a labelled scroll box if it is wider than the page
  for (const cell of document.querySelectorAll('td, th')) {
    if (cell.closest('svg, .snb-board, details:not([open]) > :not(summary)') || !cell.getClientRects().length) continue;
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      for (const m of n.data.matchAll(/\\S+/g)) {
        const r = document.createRange();
        r.setStart(n, m.index);
        r.setEnd(n, m.index + m[0].length);
        const tops = new Set([...r.getClientRects()].filter((x) => x.width > 0).map((x) => Math.round(x.top)));
        if (tops.size > 1) out.push(`${name(cell.closest('table'))} parte la palabra «${m[0]}» en dos líneas`);
      }
    }
  }
  function* ancestors(el) { for (let a = el.parentElement; a; a = a.parentElement) yield a; }
  function clipped(el) {  // already reported: an ancestor that clips (or scrolls) it
    for (const a of ancestors(el)) {
      const o = getComputedStyle(a).overflowX;
      if (o !== 'visible' && a !== document.body && a !== document.documentElement) return true;
    }
    return false;
  }
  return [...new Set(out)];
}"""


_SETTLED_JS = """() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(
  () => setTimeout(done, 300))))"""


def misfits(page, widths: tuple[int, ...] = PHONE_WIDTHS, height: int = 900) -> dict[int, list[str]]:
    """Width → what does not fit on the open page at that width (only widths with a problem)."""
    found = {}
    for width in widths:
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate(_SETTLED_JS)  # JupyterLab's shell lays itself out again a few frames later
        try:  # each board's kernel lays its drawing out again for the new width
            page.wait_for_function(_BOARDS_FIT_JS, timeout=REDRAW_TIMEOUT_MS, polling=250)
        except PlaywrightTimeout:
            pass  # a board still too wide is reported below
        problems = page.evaluate(_MISFITS_JS, width)
        if problems:
            found[width] = problems
    return found


# a widget's view is a Lumino widget inside its output (an HTML output is the output itself)
_WIDGETS_JS = """(expected) => document.querySelectorAll('.jp-OutputArea-output > .lm-Widget').length >= expected"""


def widget_outputs(notebook) -> int:
    """How many widgets a student page of `notebook` (a path) shows: the saved widget outputs of
    the cells not tagged ``docente``."""
    import nbformat

    nb = nbformat.read(notebook, as_version=4)
    return sum(
        "application/vnd.jupyter.widget-view+json" in out.get("data", {})
        for cell in nb.cells
        if cell.cell_type == "code" and "docente" not in cell.metadata.get("tags", [])
        for out in cell.get("outputs", [])
    )


def wait_for_widgets(page, expected: int, timeout_ms: int) -> None:
    """Wait until the page shows `expected` live widgets (their views drawn, not the page's text)."""
    page.wait_for_function(_WIDGETS_JS, arg=expected, timeout=timeout_ms, polling=250)
