"""Plain Voila and what a teacher copies: no document gives the bare ``voila`` command (the
student command is the class launcher, which sets the ``_xsrf`` cookie and uses the ``alumno``
template without CDN links), and the repository's voila.json, read by a plain ``voila`` run from
the root or from notebooks/, at least culls the kernel of a closed tab instead of keeping it
until the server stops."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
DOCS = [REPO / "README.md", REPO / "notebooks" / "guia_docente.md", REPO / "notebooks" / "00_indice.md",
        *sorted((REPO / "docs").glob("*.md")), *sorted((REPO / "binder").glob("*.md"))]  # fmt: skip
# The command, not the product («Voila»), its configuration file or Binder's voila/render route.
BARE_VOILA = re.compile(r"(?<![\w./-])(?:\S*/)?voila(?=\s|`|$)", re.M)


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_no_document_gives_the_bare_voila_command(doc):
    text = doc.read_text(encoding="utf-8")
    found = [m.group(0) for m in BARE_VOILA.finditer(text)]
    assert not found, f"{doc.relative_to(REPO)} da la orden voila a secas: {found}"


def test_the_pattern_finds_the_commands_it_must():
    for bad in ("`voila notebooks/05.ipynb`", ".venv/bin/voila abre", "    voila 05.ipynb"):
        assert BARE_VOILA.search(bad), bad
    for fine in ("Voila a secas", "el `voila.json` de la raíz", "?urlpath=voila/render/notebooks/05.ipynb"):
        assert not BARE_VOILA.search(fine), fine


@pytest.mark.parametrize("folder", [REPO, REPO / "notebooks"], ids=["raíz", "notebooks"])
def test_plain_voila_reads_a_kernel_culler_from_voila_json(folder):
    """Voila's own loader reads the file as ``voila`` does from that folder; each setting is a
    real setting of Jupyter's kernel manager (a misspelt one would be ignored silently)."""
    pytest.importorskip("voila")
    from jupyter_server.services.kernels.kernelmanager import MappingKernelManager
    from voila.app import Voila

    app = Voila()
    app.load_config_file("voila", path=[str(folder)])
    culler = app.config.MappingKernelManager
    assert set(culler) <= set(MappingKernelManager.class_trait_names(config=True)), set(culler)
    assert 0 < culler.cull_idle_timeout <= 3600 and 0 < culler.cull_interval <= culler.cull_idle_timeout
    assert culler.cull_connected is False  # an open page's kernel is never culled
    assert app.config.VoilaExporter.TagRemovePreprocessor.remove_cell_tags == ["docente"]
