"""The panels of Fig. 2: ε*–D* scatter (a, b) and mean ± sd bands over N (c, d)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from safeguarded.rldp.problems import METHODS
from safeguarded.validation import check_frame, check_positive, check_type

MARKERS = {"NUNP": "o", "NURP": "s", "RUNP": "^", "RURP": "D"}


def _check_axes(ax) -> None:
    from matplotlib.axes import Axes

    check_type("ax", ax, Axes, "a matplotlib Axes")


def scatter_panel(ax, results: pd.DataFrame, epsilon: float) -> pd.DataFrame:
    """Fig. 2(a)/(b): one marker per instance and method at (ε*, D*); ε* = ∞ is omitted (L237).

    Returns the plotted points (finite ε* only)."""
    _check_axes(ax)
    check_frame("results", results, ("seed", "N", "method", "status", "eps_star", "D_star"))
    epsilon = check_positive("epsilon", epsilon)
    shown = results[np.isfinite(results["eps_star"]) & (results["status"] == "optimal")]
    for method in METHODS:
        pts = shown[shown["method"] == method]
        ax.scatter(
            pts["eps_star"],
            pts["D_star"],
            marker=MARKERS[method],
            s=14,
            alpha=0.75,
            label=method,
            linewidths=0,
        )
    ax.axvline(epsilon, color="0.4", lw=0.8, ls=":")
    ax.set_xlabel(r"$\epsilon^*$")
    ax.set_ylabel(r"$D^*$")
    ax.legend(loc="upper right")
    return shown[["seed", "N", "method", "eps_star", "D_star"]].reset_index(drop=True)


def band_panel(ax, summary: pd.DataFrame, metric: str, label: str, epsilon: float | None = None) -> None:
    """Fig. 2(c)/(d): mean (line) ± 1 sd (band) after the 1.5·IQR rule, against N on a log axis."""
    _check_axes(ax)
    check_type("metric", metric, str, "a string")
    check_frame("summary", summary, ("method", "N"))
    if f"{metric}_mean" not in summary.columns or f"{metric}_sd" not in summary.columns:
        raise ValueError(f"metric must name {metric}_mean and {metric}_sd columns of summary, got {metric!r}")
    check_type("label", label, str, "a string")
    if epsilon is not None:
        epsilon = check_positive("epsilon", epsilon)
    for method in METHODS:
        rows = summary[summary["method"] == method].sort_values("N")
        mean, sd = rows[f"{metric}_mean"].to_numpy(), rows[f"{metric}_sd"].to_numpy()
        (line,) = ax.plot(rows["N"], mean, marker=MARKERS[method], label=method)
        ax.fill_between(rows["N"], mean - sd, mean + sd, color=line.get_color(), alpha=0.15, lw=0)
    if epsilon is not None:
        ax.axhline(epsilon, color="0.4", lw=0.8, ls=":")
    ax.set_xscale("log")
    ax.set_xlabel(r"$N = n / (|\mathcal{S}||\mathcal{U}|)$")
    ax.set_ylabel(label)
    ax.legend()
