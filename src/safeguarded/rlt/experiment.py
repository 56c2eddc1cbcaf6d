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
from safeguarded.validation import check_array, check_integer, check_positive, check_type

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


def check_frame(name: str, frame, columns=()) -> pd.DataFrame:
    """``frame`` if it is a DataFrame holding ``columns``; ValueError naming the missing ones."""
    check_type(name, frame, pd.DataFrame, "a pandas DataFrame")
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise ValueError(f"{name} must have the columns {list(columns)}, missing {missing}")
    return frame


def check_names(name: str, values) -> list[str]:
    """``values`` as a list of strings (a tuple or list; a bare string is refused, not split)."""
    if not isinstance(values, tuple | list) or not all(isinstance(v, str) for v in values):
        raise ValueError(f"{name} must be a tuple or list of names, got {name}={values!r}")
    return list(values)


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
    z = check_array("z", z, finite=False, nonempty=False)  # NaN: a failed solve, kept as NaN
    z_ref = check_array("z_ref", z_ref, finite=False, nonempty=False)
    if z.shape != z_ref.shape and z.ndim and z_ref.ndim:
        raise ValueError(f"z and z_ref must have the same shape, got {z.shape} and {z_ref.shape}")
    return 100.0 * (z - z_ref) / np.maximum(1.0, np.abs(z_ref))


def paired_values(results: pd.DataFrame, keys=("setting", "scaling", "n", "seed")) -> pd.DataFrame:
    """One row per instance, one column per method's optimal value (paired design)."""
    check_frame("results", results, ("method", "value"))
    keys = [k for k in check_names("keys", keys) if k in results.columns]
    return results.pivot_table(index=keys, columns="method", values="value", aggfunc="first").reset_index()


def add_gaps(wide: pd.DataFrame, reference: str, methods) -> pd.DataFrame:
    """Add ``gap_<method>`` columns: relative_gap(value of method, value of ``reference``)."""
    check_frame("wide", wide)
    if not isinstance(reference, str) or reference not in wide.columns:
        raise ValueError(
            f"reference must be a column of wide {list(wide.columns)}, got reference={reference!r}"
        )
    methods = check_names("methods", methods)
    if any(m not in wide.columns for m in methods):
        raise ValueError(f"methods must be columns of wide {list(wide.columns)}, got methods={methods!r}")
    out = wide.copy()
    for m in methods:
        out[f"gap_{m}"] = relative_gap(out[m], out[reference])
    return out


def median_iqr(frame: pd.DataFrame, by, column: str) -> pd.DataFrame:
    """Median, quartiles and counts of ``column`` per group; NaN (failed) entries are counted apart."""
    check_frame("frame", frame)
    by = check_names("by", by)
    if any(b not in frame.columns for b in by):
        raise ValueError(f"by must name columns of frame {list(frame.columns)}, got by={by!r}")
    if column not in frame.columns:
        raise ValueError(f"column must be a column of frame {list(frame.columns)}, got column={column!r}")
    g = frame.groupby(by)[column]
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
    n = check_array("n", n, ndim=1, finite=False, nonempty=False)
    t = check_array("t", t, ndim=1, finite=False, nonempty=False)
    if n.shape != t.shape:
        raise ValueError(f"n and t must have the same length, got {n.size} and {t.size}")
    ok = np.isfinite(t) & (t > 0) & (n > 0)
    if ok.sum() < 2:
        return float("nan")
    return float(np.polyfit(np.log(n[ok]), np.log(t[ok]), 1)[0])


def ternary_table(prob, resolution: int = 60) -> pd.DataFrame:
    """f and f + g on the grid of the 2-simplex (Fig. 19): columns x1, x2, x3, f, f_plus_g."""
    from safeguarded.rlt.exact import simplex_grid
    from safeguarded.rlt.instances import QuadBarrierProblem

    check_type("prob", prob, QuadBarrierProblem, "a QuadBarrierProblem")
    resolution = check_integer("resolution", resolution, minimum=1)
    if prob.n != 3 or not prob.simplex:
        raise ValueError(f"prob must be a simplicial instance with n = 3, got {prob.name!r} with n={prob.n}")
    pts = simplex_grid(3, resolution)
    f = np.array([prob.f(p) for p in pts])
    fg = np.array([prob.objective(p) for p in pts])
    return pd.DataFrame({"x1": pts[:, 0], "x2": pts[:, 1], "x3": pts[:, 2], "f": f, "f_plus_g": fg})


def ternary_xy(x1, x2, x3) -> tuple[np.ndarray, np.ndarray]:
    """Barycentric -> Cartesian coordinates of the equilateral triangle (1,0,0)->(0,0), (0,1,0)->(1,0),
    (0,0,1)->(1/2, sqrt(3)/2)."""
    x1, x2, x3 = (check_array(k, v, nonempty=False) for k, v in (("x1", x1), ("x2", x2), ("x3", x3)))
    for name, v in (("x1", x1), ("x2", x2), ("x3", x3)):
        if v.shape != x1.shape:
            raise ValueError(f"x1, x2, x3 must have one shape, got {name} of shape {v.shape} vs {x1.shape}")
        if np.any(v < 0):
            raise ValueError(f"{name} must be >= 0 (barycentric coordinates), got minimum {v.min():.3g}")
    s = x1 + x2 + x3
    if np.any(s <= 0):
        raise ValueError("x1 + x2 + x3 must be > 0 at every point (barycentric coordinates)")
    return (x2 + 0.5 * x3) / s, (np.sqrt(3) / 2) * x3 / s


def snap_ties(a, b, rel: float = 1e-6, scale=None) -> np.ndarray:
    """``a`` with every entry within the solver tolerance of ``b`` replaced by ``b``'s entry.

    Relaxation values agree only to the solvers' tolerance (Clarabel: ~1e-8 relative), so a paired test
    on raw differences would read solver noise as an ordering; ties are set exactly equal first.
    ``scale`` (default max(1, |b|)) sets the absolute tolerance ``rel * scale``.
    """
    a = check_array("a", a, finite=False, nonempty=False)
    b = check_array("b", b, finite=False, nonempty=False)
    if a.shape != b.shape:
        raise ValueError(f"a and b must have the same shape, got {a.shape} and {b.shape}")
    rel = check_positive("rel", rel, allow_zero=True)
    if scale is not None:
        scale = check_array("scale", scale, nonempty=False)
        if np.any(scale < 0) or (scale.ndim and scale.shape != b.shape):
            raise ValueError(f"scale must be >= 0 with the shape of b {b.shape}, got shape {scale.shape}")
    s = np.maximum(1.0, np.abs(b)) if scale is None else scale
    return np.where(np.abs(a - b) <= rel * s, b, a)
