"""Paths used everywhere, so code runs from any working directory (notebooks, tests, make)."""

from __future__ import annotations

import os
from pathlib import Path

#: The repository root (the folder holding ``pyproject.toml``).
REPO_ROOT = Path(__file__).resolve().parents[2]

#: Where figures, tables and the claims report are written; overridable for tests.
FIGURES = Path(os.environ.get("SAFEGUARDED_FIGURES", REPO_ROOT / "figures"))

#: Cache of finished sweep cells (long computations); never removed by ``make clean``.
RESULTS = Path(os.environ.get("SAFEGUARDED_RESULTS", REPO_ROOT / "results"))

WORKS = (
    "rldp",
    "atr",
    "routing",
    "dp_noise",
    "gaussian_mixtures",
    "wasserstein_mixed",
    "robust_lr_aux",
    "convex_max",
    "rlt",
)


def figures_root() -> Path:
    """Where outputs are written now: ``$SAFEGUARDED_FIGURES`` (read at each call, so that a notebook's
    :func:`safeguarded.parameters.setup` can move a non-paper run to ``build/<scale>/``), else figures/."""
    return Path(os.environ.get("SAFEGUARDED_FIGURES") or REPO_ROOT / "figures")


def figure_dir(work: str) -> Path:
    """``<figures root>/<work>/`` (:func:`figures_root`), created if missing; ``work`` in :data:`WORKS`."""
    if work not in WORKS:
        raise ValueError(f"work must be one of {WORKS}, got work={work!r}")
    path = figures_root() / work
    path.mkdir(parents=True, exist_ok=True)
    return path
