"""Where a notebook run's logs go: not into the outputs a reader sees, but to
``build/<scale>/logs/<notebook>.log``.

The runner (:mod:`safeguarded.notebooks`) starts each notebook's kernel with its standard output and
error (file descriptors 1 and 2) on that file and without ipykernel's capture of them
(:data:`KERNEL_ARGUMENTS`, :func:`kernel_manager`).  So what compiled solvers print (HiGHS's banner and its
MIP debug lines, SCIP's and SoPlex's notices), and whatever the sweeps' worker processes print or warn,
lands in the log; Python's ``print`` and ``display`` in the kernel still reach the notebook.  In the kernel,
:func:`safeguarded.parameters.setup` calls :func:`route_library_warnings`, which writes the warnings raised
by :data:`LOGGED_WARNING_SOURCES` (loky's "a worker stopped while some jobs were given to the executor")
to the same log.  The log is rewritten at every run and never committed (``build/`` is ignored).

What the project reports stays visible: a solver that fails or returns an inaccurate status is reported by
the notebook's own code (:class:`safeguarded.solvers.SolverError`, the sweeps' ``status``/``error`` rows
and the counts printed under each table), never by a solver's log; the project's own warnings
(``src/safeguarded/...``) are shown as before.

A notebook run by hand (Jupyter, plain papermill) shows everything, as Jupyter does.  :data:`NOISE` lists
the lines no output of a runner's run may carry; the tests check the smoke run's outputs against it
(``tests/references/conftest.py``) and the committed notebooks (``tests/test_notebooks.py``).
"""

from __future__ import annotations

import os
import re
import warnings
from pathlib import Path

__all__ = ["ENV", "KERNEL_ARGUMENTS", "LOGGED_WARNING_SOURCES", "NOISE", "kernel_manager", "log_path",
           "noise_lines", "route_library_warnings"]

#: The kernel's log file, set by the runner while a notebook runs (read by :func:`route_library_warnings`).
ENV = "SAFEGUARDED_LOG"

#: ipykernel options of a runner's kernel: low-level output (file descriptors 1, 2) is not forwarded to
#: the notebook, so it goes where the kernel's standard output and error go (the log).
KERNEL_ARGUMENTS = ("--IPKernelApp.capture_fd_output=False",)

#: Packages (folder names in the warning's file path) whose warnings in the kernel go to the log.
LOGGED_WARNING_SOURCES = ("joblib", "loky")

#: Lines that are logs, not results: solver banners and debug lines, the results store's cache notices,
#: worker and kernel warnings.  None may appear in the outputs of a notebook the runner executed.
NOISE = re.compile(
    "|".join(
        [
            r"HighsMipSolverData",  # a debug line HiGHS's MIP solver prints unconditionally
            r"^Running HiGHS \d",  # HiGHS's banner
            r"THIRD_PARTY_NOTICES",  # ... and its second line
            r"without GMP",  # SoPlex (inside SCIP) lowering a tolerance
            r"^SCIP version \d",  # SCIP's banner
            r"stale cells? of .* kept",  # the store's notice of cells kept for an older code version
            r"[/\\](?:joblib|loky)[/\\].*Warning",  # a warning raised in joblib / loky (workers, executor)
            r"^\[IPKernelApp\]",  # the kernel's own log
            r"^\(CVXPY\) ",  # cvxpy's verbose log
        ]
    ),
    re.MULTILINE,
)


def log_path(out_dir: Path, notebook: str) -> Path:
    """The log of a run whose executed notebooks go to ``out_dir``: ``<out_dir>/../logs/<notebook>.log``
    (``build/<scale>/logs/`` beside ``build/<scale>/notebooks/`` and ``timings.csv``)."""
    return Path(out_dir).parent / "logs" / f"{Path(notebook).stem}.log"


def kernel_manager(log):
    """A jupyter_client kernel-manager class whose kernels write their standard output and error to
    ``log`` (an open file; opened for appending, so that the kernel, its worker processes and
    :func:`route_library_warnings` never overwrite each other)."""
    from jupyter_client import AsyncKernelManager

    class LoggedKernelManager(AsyncKernelManager):
        async def start_kernel(self, **kw):
            kw.setdefault("stdout", log)
            kw.setdefault("stderr", log)
            return await super().start_kernel(**kw)

    return LoggedKernelManager


def _from_library(filename) -> bool:
    parts = re.split(r"[/\\]", str(filename or ""))
    return any(source in parts for source in LOGGED_WARNING_SOURCES)


def route_library_warnings(environ=None) -> Path | None:
    """In a kernel the runner started (``$SAFEGUARDED_LOG`` set), write the warnings raised in
    :data:`LOGGED_WARNING_SOURCES` to the log instead of the notebook; others are shown as before.
    Returns the log (``None``, changing nothing, outside a runner's run).  Calling it again is harmless."""
    environ = os.environ if environ is None else environ
    target = environ.get(ENV)
    if not target:
        return None
    shown = warnings.showwarning
    if getattr(shown, "safeguarded_log", None) == target:
        return Path(target)
    original = getattr(shown, "safeguarded_original", shown)

    def show(message, category, filename, lineno, file=None, line=None):
        if file is None and _from_library(filename):
            text = warnings.formatwarning(message, category, filename, lineno, line)
            with open(target, "a", encoding="utf-8") as handle:
                handle.write(text)
            return
        original(message, category, filename, lineno, file, line)

    show.safeguarded_log = target
    show.safeguarded_original = original
    warnings.showwarning = show
    return Path(target)


def noise_lines(nb: dict) -> list[str]:
    """The lines of a notebook's text outputs (streams, plain-text results, errors) that :data:`NOISE`
    matches, as ``"cell <i>: <line>"``."""
    found = []
    for i, cell in enumerate(nb.get("cells", [])):
        for output in cell.get("outputs", []) or []:
            texts = [output.get("text", "")]
            texts.append(output.get("data", {}).get("text/plain", ""))
            texts.extend(output.get("traceback", []))
            for text in texts:
                text = "".join(text) if isinstance(text, list) else str(text)
                for line in text.splitlines():
                    if NOISE.search(line):
                        found.append(f"cell {i}: {line[:200]}")
    return found
