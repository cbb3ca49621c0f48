"""Rebuild the notebooks from their MyST Markdown sources, and save them executed.

    python tools/build_notebooks.py               # every source in notebooks/
    python tools/build_notebooks.py 01 06         # only these (number, name or file)
    python tools/build_notebooks.py --check       # exit 1 when a .ipynb and its source disagree

Each ``notebooks/NN_xxx.md`` is the editable source of ``notebooks/NN_xxx.ipynb``: the two are
paired by jupytext (``formats: ipynb,md:myst``), so JupyterLab opens the .md as a notebook
(Open With → Notebook) and keeps both files in step when it saves.  This script writes the
.ipynb from the source alone, executes it in place with the ``python3`` kernel of this
interpreter (working directory notebooks/, this repository first on the kernel's path) and
saves the outputs, which GitHub and
nbviewer show.  The saved file depends only on the source and on what the cells print: cell ids
come from the cells' text, execution timings are not recorded, and widget model ids (random
uuids) are renumbered per notebook; every code cell's input is marked hidden, so that JupyterLab
shows a lesson's outputs and not its Python; the widget state itself is kept, as nbconvert's
``store_widget_state`` did.  When binder/postBuild has given this environment a trust database
(its server configuration's ``NotebookNotary``), each rebuilt notebook is signed there, so that
JupyterLab keeps showing its saved boards and drawings (trust is per file hash).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import sys
import time
from pathlib import Path

import jupytext
import nbformat

REPO = Path(__file__).resolve().parents[1]
NOTEBOOKS = REPO / "notebooks"
FORMATS = "ipynb,md:myst"
# Keeps jupytext's version number out of the sources' front matter (no churn when it changes).
METADATA_FILTER = "-jupytext.text_representation.jupytext_version"
# Code cells are saved with their input hidden (JupyterLab shows only their outputs: students see
# boards and drawings, not Python); the sources never carry that flag, so it is filtered out of them.
CELL_METADATA_FILTER = "-jupyter"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
# The cell tags the lessons use (notebooks/guia_docente.md, «Cómo editar una lección»):
# teacher-only cells, exercise boxes, outputs nbval compares, "regla" for a rule section's heading,
# "regla:ID" for a rule's demo, and
# in a study "prediccion:ID" for a prediction and "medida:ID" for a measured result it asks about.
TAGS = ("docente", "ejercicio", "nbval-check-output", "regla")
RULE_TAG = "regla:"
PREDICTION_TAG = "prediccion:"
MEASURE_TAG = "medida:"
PREFIX_TAGS = (RULE_TAG, PREDICTION_TAG, MEASURE_TAG)
COLLECTION = "Solitarios para aprender"  # in every page's title (`page_title`)


def is_source(path: Path) -> bool:
    """A Markdown file that jupytext pairs with a notebook (guia_docente.md is not one)."""
    if path.suffix != ".md" or not path.read_text(encoding="utf-8").startswith("---\n"):
        return False
    formats = jupytext.read(path).metadata.get("jupytext", {}).get("formats", "")
    return "md:myst" in formats.split(",")


def sources(folder: Path = NOTEBOOKS) -> list[Path]:
    return sorted(p for p in folder.glob("*.md") if is_source(p))


def select(names: list[str], folder: Path = NOTEBOOKS) -> list[Path]:
    """The sources named by number ("01"), stem ("01_chequers") or file name (.md or .ipynb)."""
    every = sources(folder)
    if not names:
        return every
    chosen = []
    for name in names:
        stem = Path(name).name.removesuffix(".md").removesuffix(".ipynb")
        found = [p for p in every if p.stem == stem or p.stem.startswith(stem + "_")]
        if len(found) != 1:
            known = ", ".join(p.stem for p in every)
            raise SystemExit(f"No hay una única fuente para «{name}» en {folder} (fuentes: {known}).")
        chosen += found
    return chosen


def inputs(nb: nbformat.NotebookNode) -> list[tuple[str, str, dict]]:
    """What a source holds of each cell: its type, its text and the metadata jupytext keeps
    (tags and the like; not ids, outputs or timings).  A .ipynb goes through the MyST text
    with its own filters, so that both sides are compared the same way."""
    if "md:myst" not in nb.metadata.get("jupytext", {}).get("formats", ""):
        nb = nbformat.from_dict(json.loads(json.dumps(nb)))
        nb.metadata.setdefault("jupytext", {}).update(
            formats=FORMATS, notebook_metadata_filter=METADATA_FILTER, cell_metadata_filter=CELL_METADATA_FILTER
        )
    text = jupytext.writes(nb, fmt="md:myst")
    return [(c.cell_type, c.source, dict(c.metadata)) for c in jupytext.reads(text, fmt="md:myst").cells]


def disagreement(source: Path, notebook: Path) -> str | None:
    """Why a notebook does not match its source (None when it does)."""
    want = inputs(jupytext.read(source))
    have = inputs(nbformat.read(notebook, as_version=4))
    if len(want) != len(have):
        return f"{notebook.name}: {len(have)} celdas, y su fuente {source.name} tiene {len(want)}"
    for i, (w, h) in enumerate(zip(want, have, strict=True), start=1):
        for part, a, b in (("tipo", w[0], h[0]), ("texto", w[1], h[1]), ("metadatos", w[2], h[2])):
            if a != b:
                return f"{notebook.name}, celda {i}: su {part} no coincide con {source.name} ({b!r:.60} ≠ {a!r:.60})"
    saved = nbformat.read(notebook, as_version=4)
    shown = [i for i, c in enumerate(saved.cells, 1) if c.cell_type == "code" and not code_hidden(c)]
    if shown:
        return f"{notebook.name}, celda {shown[0]}: su código no está oculto (reconstrúyelo con este programa)"
    metadata = saved.metadata
    formats = metadata.get("jupytext", {}).get("formats", "")
    if formats != FORMATS:
        return f"{notebook.name}: sus metadatos no lo emparejan con {source.name} (jupytext.formats = {formats!r})"
    title = page_title(jupytext.read(source))
    if metadata.get("title") != title:
        return f"{notebook.name}: su título de página es {metadata.get('title')!r} y el de {source.name}, {title!r}"
    return None


def problems(folder: Path = NOTEBOOKS) -> list[str]:
    """Every notebook without a source, source without a notebook, and pair that disagrees."""
    srcs = {p.stem: p for p in sources(folder)}
    nbs = {p.stem: p for p in folder.glob("*.ipynb")}
    out = [f"{nbs[s].name} no tiene fuente {s}.md" for s in sorted(nbs.keys() - srcs.keys())]
    out += [f"{srcs[s].name} no tiene cuaderno {s}.ipynb" for s in sorted(srcs.keys() - nbs.keys())]
    for stem in sorted(srcs.keys() & nbs.keys()):
        why = disagreement(srcs[stem], nbs[stem])
        if why:
            out.append(why)
    return out


def page_title(nb: nbformat.NotebookNode) -> str | None:
    """The page's title: the notebook's first heading (its title in the index), followed by the
    collection's name unless the heading has it («Scotch · Solitarios para aprender»). Saved as
    the notebook's metadata ``title``, which Voila's and Voici's pages use for the browser tab
    (nbconvert's lab template; without it the tab shows the file's name)."""
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            found = re.search(r"^#\s+(.+?)\s*$", cell.source, re.M)
            if found:
                heading = found.group(1)
                return heading if COLLECTION in heading else f"{heading} · {COLLECTION}"
    return None


def hide_code(nb: nbformat.NotebookNode) -> None:
    """Mark every code cell's input hidden, outputs shown: JupyterLab (and Binder) then shows a
    lesson's boards, drawings and results without the Python that makes them."""
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.metadata.setdefault("jupyter", {})["source_hidden"] = True


def code_hidden(cell: nbformat.NotebookNode) -> bool:
    return cell.get("metadata", {}).get("jupyter", {}).get("source_hidden") is True


def _cell_ids(nb: nbformat.NotebookNode) -> None:
    """Ids from each cell's type and text, so that a rebuild does not rename every cell."""
    seen: dict[str, int] = {}
    for cell in nb.cells:
        base = hashlib.sha1(f"{cell.cell_type}\0{cell.source}".encode()).hexdigest()[:8]
        seen[base] = seen.get(base, 0) + 1
        cell.id = base if seen[base] == 1 else f"{base}-{seen[base]}"


def _join_streams(nb: nbformat.NotebookNode) -> None:
    """One output per run of printed text: the kernel sends stdout in pieces whose boundaries
    depend on timing (nbconvert joined them too)."""
    for cell in nb.cells:
        joined: list = []
        for out in cell.get("outputs", []):
            if (
                out.output_type == "stream"
                and joined
                and joined[-1].output_type == "stream"
                and joined[-1].name == out.name
            ):
                joined[-1].text += out.text
            else:
                joined.append(out)
        if "outputs" in cell:
            cell.outputs = joined


def _steady_outputs(nb: nbformat.NotebookNode, stem: str) -> nbformat.NotebookNode:
    """Widget model ids are random uuids: replace them, in order of first appearance, with ids
    derived from the notebook's name, everywhere they occur (outputs, state, references); and
    drop the memory addresses of default reprs."""
    text = json.dumps(nb, sort_keys=True, ensure_ascii=False)
    # A widget's plain-text fallback is its default repr, with a memory address.
    text = re.sub(r"(<[\w.]+ object) at 0x[0-9a-fA-F]+>", r"\1>", text)
    state = nb.metadata.get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})

    def refs(obj: object) -> list[str]:
        return [m for m in re.findall(r"[0-9a-f]{32}", json.dumps(obj, sort_keys=True)) if m in state]

    # An order that does not depend on the ids' random values: the views in the outputs, cell
    # by cell, then the models they refer to (breadth first), then the rest as created.
    order = list(dict.fromkeys(refs(nb.cells)))
    for model in order:  # grows while it is walked
        order += [r for r in refs(state[model]) if r not in order]
    order += [m for m in state if m not in order]
    new = {old: hashlib.md5(f"{stem}:{i}".encode()).hexdigest() for i, old in enumerate(order)}
    text = re.sub(r"[0-9a-f]{32}", lambda m: new.get(m.group(0), m.group(0)), text)
    return nbformat.from_dict(json.loads(text))


def kernel_environment() -> dict[str, str]:
    """The kernel's environment: this one, with this checkout first on the path, fixed hashing
    and matplotlib's inline backend (an inherited MPLBACKEND=Agg would hide the figures)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), *([env["PYTHONPATH"]] if env.get("PYTHONPATH") else [])])
    env["PYTHONHASHSEED"] = "0"
    env.pop("MPLBACKEND", None)
    return env


def build(source: Path, timeout: int = 3600) -> Path:
    """Write source's .ipynb from it alone, execute it in notebooks/ and save it with outputs."""
    from nbclient import NotebookClient

    nb = jupytext.read(source)
    nb.metadata["jupytext"] = {
        "formats": FORMATS, "notebook_metadata_filter": METADATA_FILTER, "cell_metadata_filter": CELL_METADATA_FILTER,
    }  # fmt: skip
    hide_code(nb)
    title = page_title(nb)
    if title:
        nb.metadata["title"] = title
    _cell_ids(nb)
    kernel = nb.metadata.get("kernelspec", {}).get("name", "python3")
    client = NotebookClient(
        nb, timeout=timeout, kernel_name=kernel, resources={"metadata": {"path": str(source.parent)}},
        store_widget_state=True, record_timing=False,
    )  # fmt: skip
    client.execute(env=kernel_environment())
    # An exception raised while displaying a result (in a repr) is stored as an error output
    # without stopping the run: a lesson must never show one, so the build fails on it.
    errors = [
        f"celda {k + 1}: {out.get('ename')}: {out.get('evalue')}"
        for k, cell in enumerate(nb.cells)
        for out in cell.get("outputs", [])
        if out.get("output_type") == "error"
    ]
    if errors:
        raise RuntimeError(f"{source.name} muestra errores al ejecutarse: " + "; ".join(errors))
    _join_streams(nb)
    nb = _steady_outputs(nb, source.stem)
    target = source.with_suffix(".ipynb")
    nbformat.write(nb, target)
    sign_for_this_environment(target)
    return target


def sign_for_this_environment(path: Path) -> bool:
    """Sign `path` in the trust database binder/postBuild configured for this environment's
    Jupyter server (``NotebookNotary`` in ``<config dir>/jupyter_server_config.json``, the config
    dir being ``$JUPYTER_CONFIG_DIR`` or ``<sys.prefix>/etc/jupyter``, as postBuild chooses it).
    False when postBuild has not run here."""
    from nbformat.sign import NotebookNotary

    config_dir = Path(os.environ.get("JUPYTER_CONFIG_DIR") or Path(sys.prefix, "etc", "jupyter"))
    config = config_dir / "jupyter_server_config.json"
    notary = json.loads(config.read_text(encoding="utf-8")).get("NotebookNotary") if config.exists() else None
    if not notary:
        return False
    NotebookNotary(**notary).sign(nbformat.read(path, as_version=4))
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Reconstruye los cuadernos desde sus fuentes MyST (.md).")
    parser.add_argument(
        "names", nargs="*", help="cuadernos (01, 01_chequers, 01_chequers.md…); todos si no se da ninguno"
    )
    parser.add_argument("--check", action="store_true", help="solo comprobar que cada .ipynb coincide con su fuente")
    args = parser.parse_args(argv)
    if args.check:
        found = problems()
        for line in found:
            print(line, file=sys.stderr)
        if not found:
            print(f"Los {len(sources())} cuadernos coinciden con sus fuentes.")
        return 1 if found else 0
    for source in select(args.names):
        start = time.monotonic()
        target = build(source)
        print(f"{target.relative_to(REPO)}  ({time.monotonic() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
