"""Sweep cells and summaries for Figs. 19–24 of thesis §6.

One cell = one random instance (``setting``, n, seed) solved by several relaxations; a row per method
with the optimal value, the solver, its status, the solver time and the wall time.  A failed solve is
a row with ``status="failed"`` and NaN value, never dropped: summaries count it separately.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from safeguarded.rlt.instances import SETTINGS, draw_instance
from safeguarded.rlt.relaxations import METHODS, solve_method
from safeguarded.solvers import SolverError

__all__ = [
    "relaxation_cell",
    "relative_gap",
    "add_gaps",
    "median_iqr",
    "loglog_slope",
    "paired_values",
    "ternary_table",
    "ternary_xy",
    "snap_ties",
]


def relaxation_cell(
    setting: str, n: int, methods, seed: int, rotation: str = "haar", scaling: str = "thesis", k: int = 3
) -> list[dict]:
    """Solve instance ``seed`` of ``setting`` at size n with every method in ``methods``."""
    if setting not in SETTINGS:
        raise ValueError(f"setting must be one of {SETTINGS}, got setting={setting!r}")
    bad = [m for m in methods if m not in METHODS]
    if bad or not methods:
        raise ValueError(f"methods must be a non-empty subset of {METHODS}, got methods={methods!r}")
    inst = draw_instance(setting, n, seed, rotation=rotation, scaling=scaling, k=k)
    rows = []
    for method in methods:
        try:
            res = solve_method(inst, method)
            row = res.row()
        except SolverError as exc:
            row = {
                "method": method,
                "value": np.nan,
                "solver": exc.solver,
                "status": "failed",
                "solve_time": np.nan,
                "wall_time": np.nan,
                "first_error": str(exc),
                "fallback": True,
            }
        rows.append({"rotation": rotation, "scaling": scaling, **row})
    return rows


def relative_gap(z, z_ref):
    """The thesis's relaxation gap 100 % (z - z*) / max{1, |z*|} (captions of Figs. 21 and 23)."""
    z, z_ref = np.asarray(z, float), np.asarray(z_ref, float)
    return 100.0 * (z - z_ref) / np.maximum(1.0, np.abs(z_ref))


def paired_values(results: pd.DataFrame, keys=("setting", "scaling", "n", "seed")) -> pd.DataFrame:
    """One row per instance, one column per method's optimal value (paired design)."""
    keys = [k for k in keys if k in results.columns]
    return results.pivot_table(index=keys, columns="method", values="value", aggfunc="first").reset_index()


def add_gaps(wide: pd.DataFrame, reference: str, methods) -> pd.DataFrame:
    """Add ``gap_<method>`` columns: relative_gap(value of method, value of ``reference``)."""
    out = wide.copy()
    for m in methods:
        out[f"gap_{m}"] = relative_gap(out[m], out[reference])
    return out


def median_iqr(frame: pd.DataFrame, by, column: str) -> pd.DataFrame:
    """Median, quartiles and counts of ``column`` per group; NaN (failed) entries are counted apart."""
    g = frame.groupby(list(by))[column]
    out = pd.DataFrame(
        {
            "median": g.median(),
            "q25": g.quantile(0.25),
            "q75": g.quantile(0.75),
            "instances": g.count(),
            "failed": g.apply(lambda s: int(s.isna().sum())),
        }
    )
    return out.reset_index()


def loglog_slope(n, t) -> float:
    """Least-squares slope b of log t = a + b log n (time growth exponent); NaN with < 2 sizes."""
    n, t = np.asarray(n, float), np.asarray(t, float)
    ok = np.isfinite(t) & (t > 0) & (n > 0)
    if ok.sum() < 2:
        return float("nan")
    return float(np.polyfit(np.log(n[ok]), np.log(t[ok]), 1)[0])


def ternary_table(prob, resolution: int = 60) -> pd.DataFrame:
    """f and f + g on the grid of the 2-simplex (Fig. 19): columns x1, x2, x3, f, f_plus_g."""
    from safeguarded.rlt.exact import simplex_grid

    if prob.n != 3 or not prob.simplex:
        raise ValueError("ternary_table needs a simplicial instance with n = 3")
    pts = simplex_grid(3, resolution)
    f = np.array([prob.f(p) for p in pts])
    fg = np.array([prob.objective(p) for p in pts])
    return pd.DataFrame({"x1": pts[:, 0], "x2": pts[:, 1], "x3": pts[:, 2], "f": f, "f_plus_g": fg})


def ternary_xy(x1, x2, x3) -> tuple[np.ndarray, np.ndarray]:
    """Barycentric -> Cartesian coordinates of the equilateral triangle (1,0,0)->(0,0), (0,1,0)->(1,0),
    (0,0,1)->(1/2, sqrt(3)/2)."""
    x1, x2, x3 = (np.asarray(v, float) for v in (x1, x2, x3))
    s = x1 + x2 + x3
    return (x2 + 0.5 * x3) / s, (np.sqrt(3) / 2) * x3 / s


def snap_ties(a, b, rel: float = 1e-6, scale=None) -> np.ndarray:
    """``a`` with every entry within the solver tolerance of ``b`` replaced by ``b``'s entry.

    Relaxation values agree only to the solvers' tolerance (Clarabel: ~1e-8 relative), so a paired test
    on raw differences would read solver noise as an ordering; ties are set exactly equal first.
    ``scale`` (default max(1, |b|)) sets the absolute tolerance ``rel * scale``.
    """
    a, b = np.asarray(a, float), np.asarray(b, float)
    s = np.maximum(1.0, np.abs(b)) if scale is None else np.asarray(scale, float)
    return np.where(np.abs(a - b) <= rel * s, b, a)
