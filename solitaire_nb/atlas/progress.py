"""Progress display for long computations (`study.simulate`, `win_rate`), kept out of them.

Computations take ``progress``: False, a function of their own, or True for the default
display, which this module asks for: the board module's bar inside a Jupyter kernel, nothing
elsewhere.  The board module (and so ipywidgets) is imported here only when a bar is wanted,
so computing modules never import a widget library.  Why not ``tqdm.auto``: it is not in the
JupyterLite site, and the board's bar also leaves a static Spanish line for exported pages.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

BarUpdate = Callable[..., Any]
"""``update(done, text="", failed=False)``, as returned by `kernel_bar`."""


def in_kernel() -> bool:
    """True inside a Jupyter kernel (IPython already imported and running a kernel)."""
    ipython = sys.modules.get("IPython")
    if ipython is None:
        return False
    try:
        shell = ipython.get_ipython()
    except Exception:  # noqa: BLE001 - any failure means "not in a kernel"
        return False
    return shell is not None and getattr(shell, "kernel", None) is not None


def kernel_bar(total: int, description: str, done: int = 0) -> BarUpdate | None:
    """Show a progress bar with a Spanish label in a kernel and return its ``update``;
    None (nothing shown) outside a kernel or without the notebook extra."""
    if not in_kernel():
        return None
    try:
        from ..board import progress_bar
    except ImportError:
        return None
    return progress_bar(total, description, done, in_kernel=True)
