"""Panels of Figs. 19–24: medians with interquartile bands against n, and the ternary plots of Fig. 19."""

from __future__ import annotations

import matplotlib.pyplot as plt
import matplotlib.tri as mtri
import numpy as np
import pandas as pd
from matplotlib.axes import Axes

from safeguarded.rlt.experiment import check_frame, check_names, median_iqr, ternary_xy
from safeguarded.validation import check_bool, check_type

__all__ = ["LABELS", "STYLES", "band_panel", "ternary_panel", "summarise"]

LABELS = {
    "proposed": "Proposed RLT",
    "rlt": "RLT",
    "rlt_sdp": "RLT/SDP",
    "proposed_closed_form": "Proposed RLT, closed form (ours)",
}
STYLES = {
    "proposed": dict(color="C0", marker="o"),
    "rlt": dict(color="C1", marker="s"),
    "rlt_sdp": dict(color="C2", marker="^"),
    "proposed_closed_form": dict(color="C0", marker="", linestyle="--"),
}


def summarise(frame: pd.DataFrame, column: str, by=("method", "n")) -> pd.DataFrame:
    """Median and interquartile range of ``column`` per (method, n): the data a band panel plots."""
    out = median_iqr(frame, list(by), column)
    out.insert(0, "quantity", column)
    return out


def band_panel(ax, summary: pd.DataFrame, methods, *, log10: bool = False, ylabel: str = "") -> None:
    """Median against n with the interquartile band, one line per method (``summary`` from
    :func:`summarise`); ``log10`` plots log10 of the values as the thesis's left panels do."""
    check_type("ax", ax, Axes, "a matplotlib Axes")
    check_frame("summary", summary, ("method", "n", "median", "q25", "q75"))
    methods = check_names("methods", methods)
    log10 = check_bool("log10", log10)
    check_type("ylabel", ylabel, str, "a string")
    for m in methods:
        s = summary[summary["method"] == m].sort_values("n")
        if s.empty:
            continue
        tr = np.log10 if log10 else (lambda v: v)
        ax.plot(s["n"], tr(s["median"]), label=LABELS.get(m, m), **STYLES.get(m, {}))
        ax.fill_between(s["n"], tr(s["q25"]), tr(s["q75"]), color=STYLES.get(m, {}).get("color"), alpha=0.2)
    ax.set_xlabel("$n$")
    ax.set_ylabel(ylabel)
    ax.legend()


def ternary_panel(ax, table: pd.DataFrame, column: str, title: str) -> None:
    """Filled contours of ``column`` over the 2-simplex (barycentric x1, x2, x3), maximiser marked."""
    check_type("ax", ax, Axes, "a matplotlib Axes")
    check_frame("table", table, ("x1", "x2", "x3"))
    if column not in table.columns:
        raise ValueError(f"column must be a column of table {list(table.columns)}, got column={column!r}")
    check_type("title", title, str, "a string")
    x, y = ternary_xy(table["x1"], table["x2"], table["x3"])
    z = table[column].to_numpy(float)
    finite = np.isfinite(z)
    tri = mtri.Triangulation(x[finite], y[finite])
    cs = ax.tricontourf(tri, z[finite], levels=20, cmap="viridis")
    plt.colorbar(cs, ax=ax, shrink=0.8)
    best = np.nanargmax(np.where(finite, z, -np.inf))
    ax.plot(x[best], y[best], marker="*", color="red", markersize=12, label="maximum")
    ax.plot([0, 1, 0.5, 0], [0, 0, np.sqrt(3) / 2, 0], color="black", linewidth=0.8)
    for (px, py), name in zip(
        ((0, 0), (1, 0), (0.5, np.sqrt(3) / 2)), ("$e_1$", "$e_2$", "$e_3$"), strict=True
    ):
        ax.annotate(
            name, (px, py), textcoords="offset points", xytext=(0, -12 if py == 0 else 4), ha="center"
        )
    ax.set_aspect("equal")
    ax.axis("off")
    ax.set_title(title, pad=16)
    ax.legend(loc="upper right")
