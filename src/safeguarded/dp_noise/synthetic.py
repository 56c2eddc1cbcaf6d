"""The synthetic data-independent experiments of thesis §1.5.1: Tables 1, 4, 5, 6 and Figures 1, 3, 4.

One *cell* is one (ε, δ, loss) with Δf = 1 (L871): the LP bounds P(π, β), D(π, β) on a grid chosen by
:func:`grid_for`, their midpoint O = (P + D)/2 (L871; "(P − D)/2" there is a typo, catalog §5 A2), and
the benchmark costs (truncated Laplace, analytic Gaussian, Geng et al.'s near-optimal lower bound).
:func:`table_cell` is the sweep function run by :func:`safeguarded.experiments.run_sweep`.

Table metrics (L871, L1909–L1950), with denominators max{O, 1}:

* Table 1/6: 100·(B_UB − B_LB)/max{O, 1}, B_UB = the truncated Laplace cost (as the thesis; the cell
  also stores the minimum with the analytic Gaussian, see :func:`table_frame`), B_LB = the Geng bound;
* Table 4: 100·(B_UB − O)/max{O, 1};  Table 5: 100·(O − B_LB)/max{O, 1}.
"""

from __future__ import annotations

import math
import time

import numpy as np
from threadpoolctl import threadpool_limits

from safeguarded.dp_noise import bounds as bd
from safeguarded.dp_noise import mechanisms as mech
from safeguarded.validation import (
    check_array,
    check_bool,
    check_choice,
    check_frame,
    check_integer,
    check_positive,
    check_type,
)

__all__ = [
    "EPSILONS",
    "DELTAS",
    "grid_for",
    "geng_lower_bound",
    "table_cell",
    "TABLE_CELL_TOLERANCE",
    "TABLE_CELL_VOLATILE",
    "table_metrics",
    "benchmark_costs",
    "table_frame",
    "choose_method",
    "scaled",
    "example1",
    "figure2_cell",
    "figure3_cell",
    "draw_figure3",
    "figure4_panel",
    "figure5_panel",
    "loss_figure7",
    "loss_figure8",
]

#: Table 1's rows (ε) and columns (δ) (L871–L885).
EPSILONS = (0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0)
DELTAS = (0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.25, 0.3, 0.5, 0.75)


def grid_for(
    epsilon,
    delta,
    *,
    work: int = 4000,
    support_factor: float = 2.0,
    k_max: int = 200,
    n_cells: int | None = None,
    symmetric: bool = False,
):
    """A uniform partition for the cell (ε, δ) with Δf = 1.  [DECIDE, catalog §2.2]

    Support L = ⌈support_factor·Λ⌉·k fine cells per side, Λ from :func:`bounds.support_rule` (supp.
    p.10; the lower bound D needs a wider support than the truncated-Laplace one to converge, Thm 1).
    The resolution k = Δf/β is either

    * the thesis's rule (``n_cells`` given): k with 2Lk + 1 ≈ ``n_cells`` cells, k ≥ 2 ("k chosen so
      that the LP has ≈ 2,000 variables", supp. p.10) — solvable with ``method="ipm"``; or
    * a size budget (``n_cells=None``): the largest k ≤ ``k_max`` with (#fine cells)·(#shifts) =
      (2L + 1)(2k + 1) ≤ ``work`` (what the simplex-based methods solve in seconds).

    ``symmetric``: the cells [−Lβ, Lβ) of the thesis's code (:func:`bounds.symmetric_partition`, 2L cells,
    same L and k) instead of Prop. 1's [−Lβ, (L + 1)β); the IPM then solves over symmetric masses.
    """
    mech.validate_privacy(epsilon, delta)
    check_integer("work", work, minimum=1)
    check_positive("support_factor", support_factor)
    check_integer("k_max", k_max, minimum=2)
    check_bool("symmetric", symmetric)
    lam = max(1, math.ceil(support_factor * bd.support_rule(epsilon, delta)))
    make = bd.symmetric_partition if symmetric else bd.uniform_partition
    if n_cells is not None:
        check_integer("n_cells", n_cells, minimum=5)
        k = max(2, round((n_cells - 1) / (2 * lam)))
        return make(lam * k, k)
    k = 2
    while k < k_max and (2 * lam * (k + 1) + 1) * (2 * (k + 1) + 1) <= work:
        k += 1
    return make(lam * k, k)


def geng_lower_bound(epsilon, delta, loss="l1", n_rule="loop+1"):
    """Geng et al.'s near-optimal lower bound with Δf = 1 (catalog §2.0, §5 A1).

    ℓ1: :func:`mechanisms.geng_lower_bound_l1`.  ℓ2 (Table 6; no formula in the thesis, repo or
    supplement — [DECIDE]): the same greedy staircase construction with the cost k² in place of k,
    2a·Σ_{k=1}^{n−1} k²·b^k, with the same ``n_rule``.
    """
    check_choice("loss", loss, bd.LOSSES)
    if loss == "l2":
        check_choice("n_rule", n_rule, mech.GENG_N_RULES)
    if loss == "l1":
        return mech.geng_lower_bound_l1(epsilon, delta, 1.0, n_rule=n_rule)
    if loss != "l2":
        raise ValueError(f"loss must be 'l1' or 'l2', got loss={loss!r}")
    eps, d, _ = mech.validate_privacy(epsilon, delta, 1.0)
    a = (d + 0.5 * math.expm1(eps)) * math.exp(-eps)
    b = math.exp(-eps)
    n0 = mech.geng_n(eps, d)
    n = n0 + 1 if n_rule == "loop+1" else n0
    k = np.arange(1, n)
    value = 2.0 * a * float(np.sum(k**2 * b**k))
    if n_rule == "residual":
        value += 2.0 * n0**2 * max(0.5 - a * float(np.sum(b ** np.arange(n0))), 0.0)
    return value


def benchmark_costs(epsilon, delta, loss="l1") -> dict:
    """E c(X̃) of the literature mechanisms with Δf = 1 (L887) and the Geng lower bounds."""
    check_choice("loss", loss, bd.LOSSES)
    mech.validate_privacy(epsilon, delta)
    tl = mech.TruncatedLaplace(epsilon, delta).cost(loss)
    ag = mech.AnalyticGaussian(epsilon, delta).cost(loss)
    return {
        "tlap": tl,
        "agauss": ag,
        "best_ub": min(tl, ag),
        "geng_lb": geng_lower_bound(epsilon, delta, loss, "loop+1"),
        "geng_lb_loop": geng_lower_bound(epsilon, delta, loss, "loop"),
        "geng_lb_residual": geng_lower_bound(epsilon, delta, loss, "residual"),
    }


def table_metrics(best_ub: float, lb_plus1: float, lb_loop: float, upper: float, lower: float) -> dict:
    """Table 1/4/5 percentages with O = (P + D)/2 and the max{O, 1} denominator (L871).

    The Geng bound uses the rule that reproduces 96/100 cells of Tables 4–5 (catalog §5 A1): n + 1
    unless that bound exceeds O, else n (the thesis' "non-monotonic parameter rounding", L891).
    """
    for name, value in (
        ("best_ub", best_ub),
        ("lb_plus1", lb_plus1),
        ("lb_loop", lb_loop),
        ("upper", upper),
        ("lower", lower),
    ):
        check_positive(name, value, allow_zero=True)  # expected costs: finite and >= 0
    o = 0.5 * (upper + lower)
    den = max(o, 1.0)
    lb = lb_plus1 if lb_plus1 <= o else lb_loop
    return {
        "O": o,
        "geng_lb_used": lb,
        "table1": 100.0 * (best_ub - lb) / den,
        "table4": 100.0 * (best_ub - o) / den,
        "table5": 100.0 * (o - lb) / den,
        "lp_gap": 100.0 * bd.relative_gap(upper, lower),
    }


#: Uniform grids with more epigraph pairs (cells × 2k) than this are solved by the structured IPM
#: (``method="auto"``); the size-budget grids of ``work`` ≤ 10,000 stay below it.
IPM_FROM_PAIRS = 10_000


def choose_method(part: bd.Partition) -> str:
    """The structured IPM for uniform grids of more than :data:`IPM_FROM_PAIRS` epigraph pairs; below, the
    compact LP for wide supports (many cells per shift) and constraint generation otherwise (measured,
    ``benchmarks/bench_dp_noise_bounds.py``)."""
    check_type("part", part, bd.Partition, "a dp_noise Partition")
    if part.n_cells * 2 * part.k > IPM_FROM_PAIRS and np.all(part.widths == 1):
        return "ipm"
    return "compact" if -part.lo > 4 * part.k else "generation"


def table_frame(cells, upper: str = "tlap"):
    """Recompute the Table 1/4/5 columns of swept cells with B_UB = ``upper`` ("tlap" or "best_ub").

    The thesis' Table 1 uses the truncated Laplace as B_UB throughout (its values at δ ≥ 0.5 are only
    reproduced that way), although the analytic Gaussian has a lower cost in some large-δ cells; the
    cells store both so either convention can be tabulated.
    """
    check_choice("upper", upper, ("tlap", "best_ub"))
    check_frame("cells", cells, (upper, "geng_lb", "geng_lb_loop", "P", "D"))
    out = cells.copy()
    rows = [
        table_metrics(r[upper], r["geng_lb"], r["geng_lb_loop"], r["P"], r["D"]) for _, r in cells.iterrows()
    ]
    for key in rows[0]:
        out[key] = [row[key] for row in rows]
    return out


@threadpool_limits.wrap(limits=1, user_api="blas")  # one BLAS thread: the docstring says why
def table_cell(
    epsilon, delta, loss="l1", work=4000, support_factor=2.0, method="auto", seed=0, n_cells=None,
    ipm_max_iter=None, symmetric=False,
):  # fmt: skip
    """One cell of Tables 1/4/5 (ℓ1) or 6 (ℓ2): LP bounds, benchmarks and metrics (sweep function).

    The grid is :func:`grid_for` (``work`` budget, or ``n_cells`` for the thesis's resolution).  For ℓ1 with
    the structured IPM both bounds come from one solve of D where its masses pass P's exact privacy check
    (:func:`~safeguarded.dp_noise.bounds.l1_uniform_bounds`; ``method_P`` says which way P was found).
    ``ipm_max_iter`` is the IPM's iteration limit (``None``: :data:`~safeguarded.dp_noise.ipm.MAX_ITER`);
    ``status_P``/``status_D`` record how each bound's solve ended (the IPM's status, e.g.
    ``"iteration_limit"``; ``"optimal"`` for HiGHS, which raises on anything else).  ``symmetric``: the grid
    [−Lβ, Lβ) of the thesis's code (:func:`grid_for`), on which the IPM solves over symmetric masses.
    ``seed`` is unused (the cell is deterministic) but required by the sweep runner.  The cell runs on one
    BLAS thread: a threaded Cholesky rounds differently, which moves the IPM's iterates (measured: 106 against
    109 rounds, D 3.9e-7 apart at ε = 1, δ = 0.1) so that only one thread recomputes a cell bit for bit; it is
    also the faster choice (20 s against 40 s on 2 cores).  Across machines the BLAS kernels differ anyway,
    hence the sweep's :data:`TABLE_CELL_TOLERANCE`.
    """
    check_choice("loss", loss, bd.LOSSES)
    check_choice("method", method, ("auto", *bd.METHODS))
    check_integer("seed", seed, minimum=0)
    part = grid_for(
        epsilon, delta, work=work, support_factor=support_factor, n_cells=n_cells, symmetric=symmetric
    )
    method = choose_method(part) if method == "auto" else method
    start = time.perf_counter()
    if loss == "l1" and method == "ipm":  # one IPM solve of D gives P too where its masses pass P's check
        up, lo = bd.l1_uniform_bounds(epsilon, delta, part, method=method, ipm_max_iter=ipm_max_iter)
        t_lo = lo.wall_time
        t_up = time.perf_counter() - start - t_lo
    else:
        up = bd.upper_bound(epsilon, delta, part, loss, method=method, ipm_max_iter=ipm_max_iter)
        t_up = time.perf_counter() - start
        lo = bd.lower_bound(epsilon, delta, part, loss, method=method, ipm_max_iter=ipm_max_iter)
        t_lo = time.perf_counter() - start - t_up
    bench = benchmark_costs(epsilon, delta, loss)
    row = {
        "L": -part.lo,
        "k": part.k,
        "n_cells": part.n_cells,
        "P": up.value,
        "D": lo.value,
        "time_P": t_up,
        "time_D": t_lo,
        "rounds_P": up.iterations,
        "rounds_D": lo.iterations,
        "shortfall_P": up.max_shortfall,
        "status_P": _status(up),
        "status_D": _status(lo),
        "method": method,
        "method_P": up.method,
        "solver": f"{up.solver} {up.solver_version}",
        **bench,
    }
    row.update(table_metrics(bench["best_ub"], bench["geng_lb"], bench["geng_lb_loop"], up.value, lo.value))
    return row


#: What ``make verify`` allows when it recomputes a :func:`table_cell` on another machine: P, D and O within
#: the IPM's certified relative gap (``gap_tol`` 1e-6 of :func:`~safeguarded.dp_noise.ipm.solve_pair_lp`),
#: the percentages built from them (differences of near-equal costs, in percentage points) within 100 × that
#: gap, i.e. 1e-4 pp (2e-4 for the LP gap, whose two bounds both move); everything else to rounding.
TABLE_CELL_TOLERANCE = {
    "rtol": 1e-9, "atol": 1e-12,
    "columns": {
        **{c: {"rtol": 1e-6, "atol": 0.0} for c in ("P", "D", "O", "table1")},
        **{c: {"rtol": 0.0, "atol": 1e-4} for c in ("table4", "table5")},
        "lp_gap": {"rtol": 0.0, "atol": 2e-4},
    },
}
#: Columns ``make verify`` does not compare for :func:`table_cell`: timings, and the IPM's round count and
#: P's privacy-check shortfall, which follow the round-off of the machine's BLAS.
TABLE_CELL_VOLATILE = ("time_P", "time_D", "rounds_P", "rounds_D", "shortfall_P")


def _status(result: bd.BoundResult) -> str:
    """How the solve of ``result`` ended: the IPM's status, "from D (checked)" for P taken from D's masses,
    else "optimal" (the HiGHS paths raise :class:`~safeguarded.solvers.SolverError` on any other status)."""
    if result.method.endswith("(from D)"):
        return "from D (checked)"
    return str(result.profile.get("status", "optimal"))


# --------------------------------------------------------------------------------------------------
# Figures 1, 3, 4, 7, 8
# --------------------------------------------------------------------------------------------------
def scaled(result: bd.BoundResult, factor: float) -> mech.PiecewiseUniformNoise:
    """The noise of ``result`` (solved with Δf = 1) for sensitivity ``factor``: x ↦ factor·x.

    Scale equivariance (catalog §3.2 item 7): the optimal noise for Δf is Δf times the one for Δf = 1.
    """
    check_type("result", result, bd.BoundResult, "a BoundResult (upper_bound / lower_bound)")
    factor = check_positive("factor", factor)
    return mech.PiecewiseUniformNoise(result.partition.edges * factor, result.masses, name="Optimised noise")


def example1(epsilon=1.0, delta=0.2, sensitivity=360.0, k=40, loss="l2") -> dict:
    """Example 1 / Figure 1 (L446–L477): the benchmark noises and the optimised DI noise for Δf = 360 INR.

    [DECIDE] the thesis gives neither loss nor grid for the optimised noise; its quoted *standard
    deviation* suggests ℓ2, solved on a uniform grid with support ±Λ·Δf (supp. rule) and β = Δf/k.
    """
    mech.validate_privacy(epsilon, delta, sensitivity)
    check_integer("k", k, minimum=1)
    check_choice("loss", loss, bd.LOSSES)
    lam = bd.support_rule(epsilon, delta)
    part = bd.uniform_partition(lam * k, k)
    up = bd.upper_bound(epsilon, delta, part, loss)
    lo = bd.lower_bound(epsilon, delta, part, loss)
    return {
        "laplace": mech.Laplace(epsilon, 0.0, sensitivity),
        "gaussian": mech.ClassicalGaussian(epsilon, delta, sensitivity),
        "analytic_gaussian": mech.AnalyticGaussian(epsilon, delta, sensitivity),
        "truncated_laplace": mech.TruncatedLaplace(epsilon, delta, sensitivity),
        "optimised": scaled(up, sensitivity),
        "lower_bound_std": math.sqrt(lo.value) * sensitivity if loss == "l2" else float("nan"),
        "upper": up,
        "lower": lo,
    }


def figure2_cell(epsilon, delta, support, k, loss="l1", seed=0):
    """Figure 2 (L646) made numerical: P(Λk, Δf/k) and D(Λk, Δf/k) of Theorem 1 (L639–L641), Δf = 1.

    The schematic states P(L, β) ≥ P(β) ≥ P = D ≥ D(β) ≥ D(L, β) and that the bounds meet only as the
    support Λ grows *and* β = 1/k shrinks.  One cell is one (Λ, k); P is NaN where the support is too
    small to hold a DP noise (the LP is infeasible).  ``seed`` is unused (sweep interface).
    """
    mech.validate_privacy(epsilon, delta)
    check_integer("support", support, minimum=1)
    check_integer("k", k, minimum=1)
    check_choice("loss", loss, bd.LOSSES)
    check_integer("seed", seed, minimum=0)
    part = bd.uniform_partition(int(support) * int(k), int(k))
    try:
        up = bd.upper_bound(epsilon, delta, part, loss)
        p_val = up.value
    except ValueError:
        p_val = float("nan")
    lo = bd.lower_bound(epsilon, delta, part, loss)
    return {"P": p_val, "D": lo.value, "solver": f"{lo.solver} {lo.solver_version}"}


def figure3_cell(
    epsilon, delta, inv_beta, support, sensitivity=2.0, reps=1, dd_max_inv_beta=0, seed=0, method="auto"
):
    """Figure 3 (L894–L896), data-independent part: P(L, β), D(L, β) at 1/β for Δf = 2, ℓ1.

    The support is the truncated-Laplace support rounded to an integer (L896; ±2, ±3, ±12), so the
    partition is [−support, support + β) with β = 1/inv_beta, k = Δf/β.  Runtime: the median over
    ``reps`` repetitions of P and D together (the paper: median of 10, C++/Gurobi).
    ``method`` is the LP method (``"auto"``: :func:`choose_method`, the structured IPM on the larger grids).
    Where the IPM cannot certify P (it diverges on an infeasible LP) HiGHS's constraint generation decides:
    an infeasible P (support too small for this β) is left NaN, with ``P_status`` saying who proved it.
    """
    mech.validate_privacy(epsilon, delta, sensitivity)
    check_positive("inv_beta", inv_beta)
    check_positive("support", support)
    check_integer("reps", reps, minimum=1)
    check_positive("dd_max_inv_beta", dd_max_inv_beta, allow_zero=True)
    check_integer("seed", seed, minimum=0)
    check_choice("method", method, ("auto", *bd.METHODS))
    k = int(round(sensitivity * inv_beta))
    part = bd.uniform_partition(int(round(support * inv_beta)), k, sensitivity)
    method = choose_method(part) if method == "auto" else method
    times, up, lo, p_status = [], None, None, "optimal"
    for _ in range(int(reps)):
        start = time.perf_counter()
        up, p_status = _figure3_upper(epsilon, delta, part, method)
        lo = bd.lower_bound(epsilon, delta, part, "l1", method=method)
        times.append(time.perf_counter() - start)
    row = {
        "k": k,
        "n_cells": part.n_cells,
        "P": up.value if up is not None else float("nan"),
        "D": lo.value,
        "runtime": float(np.median(times)),
        "method": method,
        "P_status": p_status,
        "solver": f"{lo.solver} {lo.solver_version}",
        "P_dd": float("nan"),
        "D_dd": float("nan"),
        "runtime_dd": float("nan"),
    }
    if inv_beta <= dd_max_inv_beta:  # data-dependent bounds, |Φ| = 4 (L896): K = 4/β intervals
        from safeguarded.dp_noise.data_dependent import dd_lower_bound, dd_upper_bound

        K = int(round(4 * inv_beta))
        start = time.perf_counter()
        try:
            row["P_dd"] = dd_upper_bound(epsilon, delta, K, part, "l1").value
        except ValueError:
            pass
        row["D_dd"] = dd_lower_bound(epsilon, delta, K, part, "l1").value
        row["runtime_dd"] = time.perf_counter() - start
    return row


#: The columns of Figure 3's sweep that :func:`draw_figure3` plots.
FIGURE3_COLUMNS = ("panel", "epsilon", "delta", "inv_beta", "P", "D", "P_dd", "D_dd", "runtime")


def draw_figure3(cells, benchmarks, printed=None, *, label: str = "authors' scripts (supplement)"):
    """Figure 3 (L894): per panel the data-independent bounds [D, P] and the data-dependent [D', P'] against
    1/β, the truncated Laplace, analytic Gaussian and near-optimal lower bound as lines, and the run time
    of P and D on a right axis; one legend for all of it below the panels, so that it covers no curve.

    ``cells`` are :func:`figure3_cell` rows with a ``panel`` column (the panels in the order they appear);
    ``benchmarks`` maps each panel to its costs ``{"tlap": ..., "ag": ..., "geng": ...}``; ``printed``, the
    constants of the work's plotting scripts for these lines (:func:`safeguarded.plotting.printed_rows` of
    ``fig03``: claims naming their panel, "TLap E|X| left panel", "near-optimal LB left panel, ..."), are
    drawn as diamonds labelled ``label`` at each panel's finest grid, with the claim's band. Returns the
    figure (save it with :func:`safeguarded.plotting.save_figure`, ``printed`` as its printed values).
    """
    import matplotlib.pyplot as plt

    from safeguarded.plotting import printed_beside

    check_frame("cells", cells, FIGURE3_COLUMNS)
    if cells.empty:
        raise ValueError("cells must hold at least one Figure 3 cell, got an empty frame")
    panels = list(dict.fromkeys(cells["panel"]))
    check_type("benchmarks", benchmarks, dict, "a dict panel -> {'tlap', 'ag', 'geng'}")
    missing = [p for p in panels if not (isinstance(benchmarks.get(p), dict)
                                         and {"tlap", "ag", "geng"} <= set(benchmarks[p]))]
    if missing:
        raise ValueError(f"benchmarks must give tlap, ag and geng for every panel, missing for {missing}")
    if printed is not None:
        check_frame("printed", printed, ("claim", "paper", "tolerance"))
        panel_of = printed["claim"].astype(str).str.extract(r"\b(\w+) panel\b")[0]
        strays = sorted(set(printed["claim"][~panel_of.isin(panels)]))
        if strays:
            raise ValueError(f"printed must name one of the panels {panels} in each claim, not: {strays}")
    fig, axes = plt.subplots(1, len(panels), figsize=(4 * len(panels), 3.6), squeeze=False)
    for ax, name in zip(axes[0], panels, strict=True):
        sub = cells[cells["panel"] == name].sort_values("inv_beta")
        e, d = sub["epsilon"].iloc[0], sub["delta"].iloc[0]
        ax.fill_between(sub.inv_beta, sub.D, sub.P, alpha=0.35, label="DI bounds [D, P]")
        ax.plot(sub.inv_beta, sub.D, color="C0", lw=0.8)  # D alone where P is infeasible
        dd = sub.dropna(subset=["D_dd"])
        ax.fill_between(dd.inv_beta, dd.D_dd, dd.P_dd, alpha=0.35, color="C4", label="DD bounds [D', P']")
        ax.axhline(benchmarks[name]["tlap"], color="C3", ls="--", label="TLap")
        ax.axhline(benchmarks[name]["ag"], color="C2", ls=":", label="AG")
        ax.axhline(benchmarks[name]["geng"], color="k", ls="-.", label="near-optimal LB")
        if printed is not None and (panel_of == name).any():
            mine = printed[(panel_of == name).to_numpy()]
            printed_beside(ax, sub["inv_beta"].max(), mine["paper"], band=mine["tolerance"], label=label)
        ax.set_xscale("log", base=2)
        ax.set_xlabel(r"$1/\beta$")
        ax.set_title(f"$(\\varepsilon, \\delta) = ({e:g}, {d:g})$")
        tw = ax.twinx()
        tw.plot(sub.inv_beta, np.log(math.e + sub.runtime), color="0.35", ls=(0, (1, 1)), lw=1.0,
                label="run time of P and D (right axis)")
        tw.set_ylabel("log(e + seconds)")
    axes[0, 0].set_ylabel(r"$E|\tilde X|$")
    handles, labels = axes[0, 0].get_legend_handles_labels()
    twin_handles, twin_labels = tw.get_legend_handles_labels()
    fig.legend(handles + twin_handles, labels + twin_labels, loc="lower center", ncol=6, fontsize=8,
               frameon=False)
    fig.tight_layout(rect=(0, 0.1, 1, 1))
    return fig


def _figure3_upper(epsilon, delta, part, method):
    """P(L, β) for Figure 3 and how it ended: ``(result, "optimal")``, or ``(None, reason)`` when the support
    is too small for this β (catalog §5 A12), proved by HiGHS if the IPM could not certify a bound."""
    from safeguarded.solvers import SolverError

    try:
        return bd.upper_bound(epsilon, delta, part, "l1", method=method), "optimal"
    except ValueError:
        return None, f"infeasible ({method})"
    except SolverError as exc:
        if method != "ipm":
            raise
        note = f"generation; ipm: {exc.status}"
        try:  # the IPM diverges on an infeasible LP: let the simplex method prove it (or solve it)
            return bd.upper_bound(epsilon, delta, part, "l1", method="generation"), f"optimal ({note})"
        except ValueError:
            return None, f"infeasible ({note})"


def figure4_panel(epsilon, delta, sensitivity=10.0, beta=0.5, half_width=28.0) -> dict:
    """Figure 4 (L901): the optimal and the best monotone DI noise, Δf = 10, β = 0.5, ℓ1, support ±28.

    The grid is the repo notebook's arange(−28, 28, 0.5) (catalog §2.1).  Returns both upper-bound
    results and their lower bounds.
    """
    k, n = _grid_counts(epsilon, delta, sensitivity, beta, half_width)
    part = bd.Partition(np.arange(-n, n + 1), k, sensitivity)
    out = {}
    for mono in (False, True):
        tag = "monotone" if mono else "free"
        out[tag] = bd.upper_bound(epsilon, delta, part, "l1", monotone=mono)
        out[f"{tag}_lb"] = bd.lower_bound(epsilon, delta, part, "l1", monotone=mono)
    return out


def _grid_counts(epsilon, delta, sensitivity, beta, half_width) -> tuple[int, int]:
    """k = Δf/β fine cells per sensitivity and n = half_width/β cells per side, both >= 1."""
    mech.validate_privacy(epsilon, delta, sensitivity)
    beta = check_positive("beta", beta)
    half_width = check_positive("half_width", half_width)
    k, n = int(round(sensitivity / beta)), int(round(half_width / beta))
    if k < 1:
        raise ValueError(f"beta must be at most about the sensitivity {sensitivity} (Δf/β >= 1), got {beta}")
    if n < 1:
        raise ValueError(f"half_width must be at least about beta = {beta}, got half_width={half_width}")
    return k, n


def loss_figure7(x, delta, sensitivity=1.0):
    """The discontinuous loss of §1.A.8.1 (L1507; Figure 7).

    c(0) = 0, c(x) = 1 on 0 < |x| ≤ 2⌈1/(2δ)⌉Δf, else 1 + |x|.
    """
    x = check_array("x", x, nonempty=False)
    delta = mech.validate_privacy(1.0, delta, sensitivity, delta_positive=True)[1]
    r = 2 * math.ceil(1 / (2 * delta)) * sensitivity
    return np.where(x == 0, 0.0, np.where(np.abs(x) <= r, 1.0, 1.0 + np.abs(x)))


def loss_figure8(x, sensitivity=1.0):
    """The bounded periodic loss of §1.A.8.2 (L1564–L1568; Figure 8), period Δf."""
    x = check_array("x", x, nonempty=False)
    sensitivity = mech.validate_privacy(1.0, 0.0, sensitivity)[2]
    x = x / sensitivity
    i = np.floor(x)
    u = x - i
    return np.select(
        [u < 0.5, u < 5 / 8, u < 7 / 8],
        [np.ones_like(u), 5 - 8 * u, np.zeros_like(u)],
        default=8 * u - 7,
    )


def figure5_panel(epsilon, delta, sensitivity=10.0, beta=0.5, half_width=25.0, phi_length=18.0, n_dist=9):
    """Figure 5 (L904): data-dependent noise for Φ = [0, 18) split into 9 equal intervals, Δf = 10, ℓ1.

    Φ is cut into K = |Φ|/β intervals of length β (L704) whose distributions are tied in ``n_dist``
    groups of equal length (the non-uniform Φ partition of supp. Alg. G.1; catalog §5 A4); uniform
    weights; noise grid [−half_width, half_width) with cells of width β (repo notebook: ±25).
    Returns the grouped P′ result and the DI optimum P(L, β) on the same grid (``None`` if infeasible).
    """
    from safeguarded.dp_noise.data_dependent import dd_upper_bound

    k, n = _grid_counts(epsilon, delta, sensitivity, beta, half_width)
    K = int(round(check_positive("phi_length", phi_length) / beta))
    n_dist = check_integer("n_dist", n_dist, minimum=1)
    if K < 1 or K % n_dist:
        raise ValueError(f"n_dist must divide |Phi|/beta = {K}, got n_dist={n_dist}")
    part = bd.Partition(np.arange(-n, n + 1), k, sensitivity)
    groups = np.arange(K) // (K // n_dist)
    dd = dd_upper_bound(epsilon, delta, K, part, "l1", groups=groups)
    try:
        di = bd.upper_bound(epsilon, delta, part, "l1")
    except ValueError:  # the grid cannot hold a data-independent noise (e.g. (0.6, 0.1) on ±25)
        di = None
    return {"dd": dd, "di": di}
