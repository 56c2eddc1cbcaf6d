"""Tables 10 and 15: the share of the analytic Gaussian's optimality gap closed by the multi-Gaussian.

Thesis App. 2.C (L2968–L2988, L3060–L3072): for every (ε, δ) of the Section 2.4 grid (Δ = 1) the
tables report 100%·(a − m)/(a − o), where a is the analytic Gaussian's expected loss, m the best-K
multi-Gaussian's and o the optimal expected loss over *all* (ε, δ)-DP additive noises, taken from
the Section 1 bounding LPs ("run … until the upper and lower bounds are almost equal with a tolerance
of 10^-3, and then use the lower bound", L2988).

The LPs are the Section 1 work's (:mod:`safeguarded.dp_noise.bounds`, imported, never copied):
D(π, β) ≤ optimum ≤ P(π, β) (Props. 1 and 3 with the non-uniform cells of §1.4.1, L791–L809).
[DECIDE] The thesis' 10^-3 agreement (with HiGHS from Python, on one core) is out of reach in the large-ε
cells, where the optimal noise concentrates on intervals much narrower than β around 0, ±Δ, …
(the upper bound is then ≈ β/2).  We therefore solve, per cell, one graded partition (single fine
cells of width β = Δ/k on [−fΔ, fΔ], widths growing geometrically to Δ outside, support
⌈s·Λ⌉Δ with Λ of :func:`bounds.support_rule`) with the largest k of a ladder whose size
(#cells)·(2k + 1) fits a work budget, and report the share with o = D (the thesis' choice; a
conservative, certified value) *and* with o = P (a feasible noise): the true share lies between.

Any cell with m < D is impossible for a private mechanism (D is a certified lower bound on every
(ε, δ)-DP noise's loss) and is flagged by :func:`share_frame` (column ``below_lower``).
"""

from __future__ import annotations

import functools
import math
import time

import numpy as np
import pandas as pd

from safeguarded.gaussian_mixtures._validate import check_delta, check_epsilon
from safeguarded.validation import check_array, check_frame, check_integer

__all__ = [
    "K_LADDER",
    "LOSS_NAMES",
    "lp_partition",
    "lp_cell",
    "optimal_noise",
    "lp_lower_cell",
    "run_lp_lower_grid",
    "IPM_SUPPORT_FACTORS",
    "lp_ipm_cell",
    "run_lp_ipm_grid",
    "run_lp_grid",
    "gap_share",
    "share_frame",
]

#: Candidate fine-grid resolutions k (β = Δ/k), coarsest first.
K_LADDER = (4, 6, 8, 10, 12, 15, 20, 25, 30, 40, 50, 60, 80, 100, 120, 150, 200)
#: Support factors s (support ±⌈sΛ⌉Δ) of the uniform grids on which :func:`lp_ipm_cell` solves D(L, β).
IPM_SUPPORT_FACTORS = (1.0, 2.0)
#: Section 1's loss names for the Section 2 expected losses: E|X| = "amplitude", E X² = "power".
LOSS_NAMES = {"l1": "amplitude", "l2": "power"}


def _check_loss(loss) -> str:
    if loss not in LOSS_NAMES:
        raise ValueError(f"loss must be one of {tuple(LOSS_NAMES)}, got loss={loss!r}")
    return loss


def _check_positive_number(name: str, value, minimum: float, closed: bool = True) -> float:
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a real number, got {name}={value!r}") from None
    if isinstance(value, bool) or not math.isfinite(v) or v < minimum or (not closed and v == minimum):
        bound = "[" if closed else "("
        raise ValueError(f"{name} must be in {bound}{minimum:g}, inf), got {name}={value!r}")
    return v


def lp_partition(
    epsilon, delta, work: int = 20000, *, fine: float = 1.0, growth: float = 1.1, support_factor: float = 2.0
):
    """The graded partition π of one cell (Δ = 1) under the size budget ``work``.  [DECIDE]

    Parameters
    ----------
    epsilon, delta
        Privacy parameters, ε > 0, δ ∈ (0, 1).
    work
        Budget on (#cells)·(2k + 1) (cells times fine shifts: the size of the compact LP of §1.4.1);
        the largest k of :data:`K_LADDER` within the budget is used (at least the first).
    fine
        Half-width, in units of Δ, of the region [−fΔ, fΔ] cut into single fine cells (≥ 1/k).
    growth
        Factor by which cell widths grow outside the fine region (up to Δ), ≥ 1.
    support_factor
        The support is ±⌈support_factor·Λ⌉Δ with Λ the supplement's rule (supp. p.10), ≥ 1: the lower
        bound needs a wider support than the truncated Laplace's to be tight (Theorem 1).

    Returns
    -------
    safeguarded.dp_noise.bounds.Partition
    """
    from safeguarded.dp_noise import bounds

    e, d = check_epsilon(epsilon), check_delta(delta)
    work = check_integer("work", work, minimum=1)
    fine = _check_positive_number("fine", fine, 0.0, closed=False)
    growth = _check_positive_number("growth", growth, 1.0)
    support_factor = _check_positive_number("support_factor", support_factor, 1.0)
    lam = max(1, math.ceil(support_factor * bounds.support_rule(e, d)))
    best = None
    for k in K_LADDER:
        part = bounds.graded_partition(lam * k, k, fine=max(1, int(round(fine * k))), growth=growth)
        if best is not None and part.n_cells * (2 * k + 1) > work:
            break
        best = part
    return best


def _solve_compact_first(fun, epsilon, delta, part, loss):
    """``fun`` (a :mod:`dp_noise.bounds` LP) by the compact LP, else by constraint generation.

    Returns ``(result, method, errors)``; ``result`` is None when both raise (a ValueError means the
    LP is infeasible on this support), and ``errors`` then names each method's failure.
    """
    from safeguarded.solvers import SolverError

    errors = []
    for method in ("compact", "generation"):
        try:
            return fun(epsilon, delta, part, loss, method=method, max_seconds=600.0), method, errors
        except (SolverError, ValueError) as exc:
            errors.append(f"{method}: {exc}")
    return None, None, errors


def lp_cell(epsilon, delta, loss="l1", work: int = 20000, seed: int = 0) -> dict:
    """Sweep cell: D(π, β) and P(π, β) of the Section 1 work for one (ε, δ, loss) (Δ = 1).

    Each LP is solved by the compact epigraph LP of :mod:`dp_noise.bounds` (measured ≈ 2× faster than
    its constraint generation at these sizes); if that fails, by the constraint generation (the
    ``method_*`` columns say which).  Returns a row with ``lower``, ``upper``, the relative gap
    (P − D)/P (L871), the partition (k, β, cells, support), the times of both LPs and the solver.  A
    failed LP (both methods raise) is recorded with ``status`` naming the failure and NaN bounds, never
    dropped.
    ``seed`` is unused (deterministic cell) but part of the sweep interface.
    """
    from safeguarded.dp_noise import bounds

    e, dl, ls = check_epsilon(epsilon), check_delta(delta), _check_loss(loss)
    check_integer("seed", seed, minimum=0)
    part = lp_partition(e, dl, work)
    row = dict(
        k=part.k,
        beta=part.beta,
        n_cells=part.n_cells,
        support=-part.lo * part.beta,
        size=part.n_cells * (2 * part.k + 1),
        status="optimal",
    )
    out = {}
    # the graded D(pi, beta) is kept only to document that it is not a lower bound (lp_lower_cell is)
    graded_lower = functools.partial(bounds.lower_bound, uncertified_nonuniform=True)
    for kind, fun in (("lower", graded_lower), ("upper", bounds.upper_bound)):
        t0 = time.perf_counter()
        res, method, errors = _solve_compact_first(fun, e, dl, part, ls)
        if res is None:
            out[kind] = float("nan")
            row["status"] = f"{kind}: " + "; ".join(errors)[:200]
        else:
            out[kind] = res.value
            row["solver"] = f"{res.solver} {res.solver_version}"
            row[f"method_{kind}"] = method
            row[f"shortfall_{kind}"] = res.max_shortfall
        row[f"seconds_{kind}"] = time.perf_counter() - t0
    row.update(out)
    row["rel_gap"] = bounds.relative_gap(out["upper"], out["lower"]) if row["status"] == "optimal" else np.nan
    return row


def lp_lower_cell(epsilon, delta, loss="l1", work: int = 15000, seed: int = 0) -> dict:
    """Sweep cell: the certified lower bound D(L, β) of Prop. 3 on a *uniform* grid (Δ = 1).

    The partition is the Section 1 work's :func:`safeguarded.dp_noise.synthetic.grid_for` with support
    ±Λ·Δ (supp. p.10) and the largest k with (2L + 1)(2k + 1) ≤ ``work``.  On a uniform grid every
    (ε, δ)-DP noise's fine-cell masses are feasible, so D(L, β) ≤ optimum.  (The graded D(π, β) of
    :func:`lp_cell` is not: it assumes the noise is uniform inside each coarse cell, and the tables
    show mixtures, privacy-checked independently, with losses below it; see the notebook.)
    A failed LP is recorded in ``status`` with a NaN bound.
    """
    from safeguarded.dp_noise import bounds
    from safeguarded.dp_noise.synthetic import grid_for

    e, dl, ls = check_epsilon(epsilon), check_delta(delta), _check_loss(loss)
    check_integer("seed", seed, minimum=0)
    work = check_integer("work", work, minimum=1)
    part = grid_for(e, dl, work=work, support_factor=1.0)
    row = dict(k=part.k, beta=part.beta, n_cells=part.n_cells, support=-part.lo * part.beta, status="optimal")
    t0 = time.perf_counter()
    res, method, errors = _solve_compact_first(bounds.lower_bound, e, dl, part, ls)
    if res is None:
        row["lower"] = float("nan")
        row["status"] = "; ".join(errors)[:200]
    else:
        row.update(lower=res.value, method=method, solver=f"{res.solver} {res.solver_version}")
    row["seconds"] = time.perf_counter() - t0
    return row


def run_lp_lower_grid(epsilons, deltas, losses=("l1", "l2"), work: int = 15000, *, name: str, **sweep_kwargs):
    """:func:`lp_lower_cell` over an (ε, δ, loss) grid through ``run_sweep``."""
    size = {"work": check_integer("work", work, minimum=1)}
    return _run_lp_sweep(lp_lower_cell, epsilons, deltas, losses, size, name, sweep_kwargs)


def lp_ipm_cell(epsilon, delta, loss="l1", n_cells: int = 1000, seed: int = 0) -> dict:
    """Sweep cell: certified D(L, β) ≤ optimum ≤ P(L, β) on uniform grids of ≈ ``n_cells`` fine cells (Δ = 1).

    The thesis's resolution (≈ 2,000 cells, supp. p.10) is reachable only with the structured
    interior-point method of :mod:`safeguarded.dp_noise.ipm` (``method="ipm"``), whose bounds are certified
    (an exactly privacy-checked noise above, a Lagrangian bound of clipped duals below).  The grids are
    :func:`safeguarded.dp_noise.synthetic.grid_for` with ``n_cells``, support ±⌈sΛ⌉Δ and the thesis code's
    symmetric cells [−Lβ, Lβ) (``symmetric=True``; the IPM then solves over symmetric masses, ≈ 3× faster):

    * D(L, β) for every s in :data:`IPM_SUPPORT_FACTORS`, and ``lower`` the largest (each is a valid lower
      bound; the narrow support gives the finer β, which wins at large ε, the wide one wins at small ε and
      large δ, where the narrow support makes D loose);
    * P(L, β) for s = 1 (the finer β): ``upper``, the loss of an (ε, δ)-DP noise.  For ℓ1 it comes from
      the masses of D (s = 1) where they pass P's exact privacy check
      (:func:`safeguarded.dp_noise.bounds.l1_uniform_bounds`), else from its own solve; ``method_upper``
      says which.

    A bound whose solve fails is NaN, and ``status`` names the failure (``"optimal"`` when all succeed);
    ``status_<bound>`` is how each IPM solve ended (e.g. ``"iteration_limit"``: the bound is still certified).
    ``seed`` is unused (deterministic cell) but part of the sweep interface.
    """
    from safeguarded.dp_noise import bounds
    from safeguarded.dp_noise.synthetic import grid_for
    from safeguarded.solvers import SolverError

    e, dl, ls = check_epsilon(epsilon), check_delta(delta), _check_loss(loss)
    check_integer("seed", seed, minimum=0)
    n_cells = check_integer("n_cells", n_cells, minimum=5)
    row: dict = {"n_cells_target": n_cells, "solver": None}
    errors, lowers = [], []
    jobs = [("lower", f, bounds.lower_bound) for f in IPM_SUPPORT_FACTORS]
    jobs.append(("upper", 1.0, bounds.upper_bound))
    solved = {}  # tag -> BoundResult (ℓ1: P(L, β) from the masses of D(L, β) on the same grid, s = 1)
    for kind, factor, fun in jobs:
        tag = f"{kind}_s{factor:g}"
        part = grid_for(e, dl, n_cells=n_cells, support_factor=factor, symmetric=True)
        row[f"k_{tag}"], row[f"cells_{tag}"] = part.k, part.n_cells
        t0 = time.perf_counter()
        try:
            res = None
            if ls == "l1" and kind == "upper" and "lower_s1" in solved:
                res = bounds.l1_upper_from_lower(solved["lower_s1"], part)
            res = res or fun(e, dl, part, ls, method="ipm")
            solved[tag] = res
        except (SolverError, ValueError) as exc:
            value, iterations = float("nan"), -1
            errors.append(f"{tag}: {exc}")
        else:
            value, iterations = res.value, res.iterations
            row["solver"] = f"{res.solver} ({res.solver_version})"
            from_lower = res.method.endswith("(from D)")
            status = "from D (checked)" if from_lower else str(res.profile.get("status", "optimal"))
            row[f"status_{tag}"] = status
            if kind == "upper":
                row["method_upper"] = res.method
        row[tag], row[f"iterations_{tag}"] = value, iterations
        row[f"seconds_{tag}"] = time.perf_counter() - t0
        if kind == "lower":
            lowers.append(value)
    row["lower"] = float(np.nanmax(lowers)) if np.isfinite(lowers).any() else float("nan")
    row["upper"] = row["upper_s1"]
    row["k"] = row["k_upper_s1"]
    row["seconds"] = sum(row[f"seconds_{kind}_s{f:g}"] for kind, f, _ in jobs)
    row["status"] = "optimal" if not errors else "; ".join(errors)[:300]
    return row


def run_lp_ipm_grid(epsilons, deltas, losses=("l1", "l2"), n_cells: int = 1000, *, name: str, **sweep_kwargs):
    """:func:`lp_ipm_cell` over an (ε, δ, loss) grid through ``run_sweep``."""
    size = {"n_cells": check_integer("n_cells", n_cells, minimum=5)}
    return _run_lp_sweep(lp_ipm_cell, epsilons, deltas, losses, size, name, sweep_kwargs)


def optimal_noise(epsilon, delta, loss="l1", work: int = 20000):
    """The Section 1 upper-bound noise P(π, β) on :func:`lp_partition` (an (ε, δ)-DP noise, Prop. 1):
    the numerically optimal distribution that Figure 9 sets beside the mixtures (L1976).

    Returns the :class:`safeguarded.dp_noise.bounds.BoundResult` (``.noise().pdf``, ``.value``).
    """
    from safeguarded.dp_noise import bounds

    e, dl, ls = check_epsilon(epsilon), check_delta(delta), _check_loss(loss)
    check_integer("work", work, minimum=1)
    return bounds.upper_bound(e, dl, lp_partition(e, dl, work), ls, method="compact")


def run_lp_grid(epsilons, deltas, losses=("l1", "l2"), work: int = 20000, *, name: str, **sweep_kwargs):
    """:func:`lp_cell` over an (ε, δ, loss) grid through :func:`safeguarded.experiments.run_sweep`."""
    size = {"work": check_integer("work", work, minimum=1)}
    return _run_lp_sweep(lp_cell, epsilons, deltas, losses, size, name, sweep_kwargs)


def _run_lp_sweep(cell, epsilons, deltas, losses, size: dict, name, sweep_kwargs):
    """``cell`` over the (ε, δ, loss) grid at the grid size ``size`` ({parameter name: value}, checked by the
    caller), through :func:`safeguarded.experiments.run_sweep`."""
    from safeguarded.experiments import grid as param_grid
    from safeguarded.experiments import run_sweep

    for label, values, check in (("epsilons", epsilons, check_epsilon), ("deltas", deltas, check_delta),
                                 ("losses", losses, _check_loss)):
        if not isinstance(values, tuple | list) or not values:
            raise ValueError(f"{label} must be a non-empty tuple or list, got {label}={values!r}")
        for v in values:
            try:
                check(v)
            except ValueError as exc:
                raise ValueError(f"{label}: {exc}") from None
    if not isinstance(name, str) or not name:
        raise ValueError(f"name must be a non-empty string (the sweep's cache name), got name={name!r}")
    params = param_grid(
        epsilon=[float(x) for x in epsilons],
        delta=[float(x) for x in deltas],
        loss=list(losses),
        **{key: [value] for key, value in size.items()},
    )
    return run_sweep(cell, params, [0], name=name, version="1", **sweep_kwargs)


def gap_share(a, m, o):
    """100%·(a − m)/(a − o): the share of the benchmark's optimality gap a − o closed by m (L2988)."""
    a, m, o = (check_array(n, v, nonempty=False) for n, v in (("a", a), ("m", m), ("o", o)))
    return 100.0 * (a - m) / (a - o)


def share_frame(losses: pd.DataFrame, lp: pd.DataFrame, loss: str, lower: pd.DataFrame | None = None):
    """Per (ε, δ): a, m (from :func:`grid.loss_frame`), the LP bounds and the Table 10/15 shares.

    ``lp`` holds the graded-partition bounds of :func:`lp_cell`; ``lower`` (optional) the certified
    uniform-grid lower bounds of :func:`lp_lower_cell` or :func:`lp_ipm_cell`, which then replace D (the
    graded D is kept as ``lower_graded``).  When ``lower`` also has an ``upper`` column (:func:`lp_ipm_cell`'s
    uniform-grid P), ``upper`` is the smaller of the two feasible noises' losses (``upper_graded``,
    ``upper_uniform`` kept).  Columns ``share_lower`` (o = D, the thesis' choice) and ``share_upper`` (o = P):
    since D ≤ optimum ≤ P and a > m, the share with the true optimum lies in between whenever a > P.
    ``below_lower`` flags m < D (impossible for a DP noise), ``below_graded`` m < graded D.
    """
    ls = _check_loss(loss)
    check_frame("losses", losses, ("epsilon", "delta", "a", "m", "best_k"))
    check_frame("lp", lp, ("epsilon", "delta", "loss", "lower", "upper", "k", "n_cells", "status"))
    if lower is not None:
        check_frame("lower", lower, ("epsilon", "delta", "loss", "lower", "k", "status"))
    key = ["epsilon", "delta"]
    bnd = lp[lp["loss"] == ls][[*key, "lower", "upper", "k", "n_cells", "status"]]
    out = losses[[*key, "a", "m", "best_k"]].merge(bnd, on=key, how="inner", validate="one_to_one")
    out["lower_graded"] = out["lower"]
    if lower is not None:
        extra = ["upper"] if "upper" in lower else []
        low = lower[lower["loss"] == ls][[*key, "lower", "k", "status", *extra]]
        low = low.rename(columns={"lower": "lower_uniform", "k": "k_uniform", "status": "status_uniform",
                                  "upper": "upper_uniform"})  # fmt: skip
        out = out.merge(low, on=key, how="inner", validate="one_to_one")
        out["lower"] = out["lower_uniform"]
        if extra:
            out["upper_graded"] = out["upper"]
            out["upper"] = np.fmin(out["upper_graded"], out["upper_uniform"])
    out["rel_gap"] = (out["upper"] - out["lower"]) / out["upper"]
    out["share_lower"] = gap_share(out["a"], out["m"], out["lower"])
    out["share_upper"] = gap_share(out["a"], out["m"], out["upper"])
    out["below_lower"] = out["m"] < out["lower"]
    out["below_graded"] = out["m"] < out["lower_graded"]
    out["below_upper"] = out["m"] < out["upper"]
    return out
