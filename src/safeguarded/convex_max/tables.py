"""Drivers of the §5.4 experiments (one function per table row, for ``run_sweep``) and the formulation
Tables 34–36 as Markdown.

Times: ``*_time`` columns are solver times (the thesis reports solver times, excluding YALMIP's
modelling, L5281); ``*_wall`` columns include model building.  Baseline columns are open-source
stand-ins (see :mod:`safeguarded.convex_max.baselines`) at the stated ``baseline_limit`` seconds.
"""

from __future__ import annotations

import numpy as np

from safeguarded.convex_max.ball import cor10_bounds, cor11_exact
from safeguarded.convex_max.baselines import local_multistart, scip_global, summax_milp
from safeguarded.convex_max.instances import (
    TABLE37_GENERATED,
    generate_lse_ball,
    instance_names,
    load_instance,
)
from safeguarded.convex_max.polyhedron import poly_bounds
from safeguarded.solvers import SolverError
from safeguarded.validation import check_bool, check_integer, check_positive

__all__ = [
    "table37_row",
    "table38_row",
    "table39_row",
    "table40_row",
    "table41_row",
    "formulation_tables",
]


def _check_row(table: str, name, seed, **limits) -> None:
    """The arguments shared by the row drivers: an instance name of ``table``, a seed, time limits (> 0)
    and ``max_starts`` (an integer >= 1), all checked before any data are loaded."""
    names = instance_names(table) + (list(TABLE37_GENERATED) if table == "table37" else [])
    if name not in names:
        raise ValueError(f"name must be one of {names} for {table}, got name={name!r}")
    check_integer("seed", seed, minimum=0)
    for key, value in limits.items():
        if key == "max_starts":
            check_integer(key, value, minimum=1)
        else:
            check_positive(key, value)


def _nan(x):
    return float("nan") if x is None else float(x)


def _local(inst, norm, baseline_limit, max_starts, seed):
    single, multi = local_multistart(inst, norm=norm, max_starts=max_starts, time_limit=baseline_limit,
                                     seed=seed)
    return {
        "local_value": single.value, "local_time": single.time, "ms_value": multi.value,
        "ms_start": multi.first_best_start, "ms_starts_run": multi.starts, "ms_time": multi.time,
        "local_solver": f"{multi.solver} {multi.solver_version}",
    }


def _global(inst, norm, baseline_limit, prefix="global", stand_in_for="BARON"):
    res = scip_global(inst, norm=norm, time_limit=baseline_limit, stand_in_for=stand_in_for)
    return {
        f"{prefix}_value": res.value, f"{prefix}_bound": res.bound if res.bound < 1e19 else np.inf,
        f"{prefix}_time": res.time, f"{prefix}_status": res.status,
        f"{prefix}_solver": f"{res.solver} {res.solver_version}",
    }


def table37_row(name: str, baseline_limit: float, max_starts: int, run_global: bool, seed: int) -> dict:
    """Table 37: Cor. 10 bounds and the local / global stand-ins for one instance (P10–P12 regenerated)."""
    _check_row("table37", name, seed, baseline_limit=baseline_limit, max_starts=max_starts)
    run_global = check_bool("run_global", run_global)
    if name in TABLE37_GENERATED:
        inst = generate_lse_ball(**TABLE37_GENERATED[name], seed=seed, name=name)
    else:
        inst = load_instance("table37", name)
    row = {"problem": name, "n": inst.n, "m": inst.m, "generated": inst.generated}
    try:
        ours = cor10_bounds(inst)
    except SolverError as exc:  # recorded as this row's failure (SolverError does not pickle)
        row.update({"upper": np.nan, "lower": np.nan, "time": np.nan, "wall": np.nan,
                    "upper_at_w": np.nan, "sphere_residual": np.nan, "solver": f"failed: {exc}"})
    else:
        row.update({
            "upper": ours.upper, "lower": ours.lower, "time": ours.time, "wall": ours.wall_time,
            "upper_at_w": ours.upper_at_w,
            "sphere_residual": abs(np.linalg.norm(ours.x - inst.a) - inst.rho),
            "solver": f"{ours.solver} {ours.solver_version}",
        })
    row.update(_local(inst, "2", baseline_limit, max_starts, seed))
    if run_global:
        row.update(_global(inst, "2", baseline_limit))
    return row


def table38_row(name: str, baseline_limit: float, max_starts: int, exact_limit: float, seed: int) -> dict:
    """Table 38: Cor. 11's exact value (outer approximation, HiGHS MILP) and the stand-ins."""
    _check_row("table38", name, seed, baseline_limit=baseline_limit, max_starts=max_starts,
               exact_limit=exact_limit)
    inst = load_instance("table38", name)
    try:
        ex = cor11_exact(inst, time_limit=exact_limit)
    except SolverError as exc:  # recorded as this row's failure (SolverError does not pickle)
        return {"problem": name, "n": inst.n, "m": inst.m, "exact": np.nan, "exact_bound": np.nan,
                "exact_status": f"failed: {exc}", "exact_iterations": 0, "time": np.nan}
    row = {
        "problem": name, "n": inst.n, "m": inst.m, "exact": ex.value, "exact_bound": ex.bound,
        "exact_status": ex.status, "exact_iterations": ex.iterations, "time": ex.time,
        "solver": f"{ex.solver} {ex.solver_version}",
    }
    row.update(_local(inst, "inf", baseline_limit, max_starts, seed))
    row.update(_global(inst, "inf", baseline_limit))
    return row


def _poly(table, name, **options):
    inst = load_instance(table, name)
    try:
        res = poly_bounds(inst, **options)
    except SolverError as exc:  # recorded as a failure of this row, never silently dropped
        return inst, None, {"problem": name, "n": inst.n, "q": inst.q, "m": inst.m, "upper": np.nan,
                            "lower": np.nan, "ub_time": np.nan, "lb_time": np.nan, "ub_status": str(exc)}
    row = {
        "problem": name, "n": inst.n, "q": inst.q, "m": inst.m,
        "upper": inst.report(res.upper.value), "ub_time": res.upper.solve_time,
        "ub_wall": res.upper.wall_time,
        "lower": inst.report(res.lower.value), "lb_time": res.lower.lp_time, "lb_wall": res.lower.wall_time,
        "n_scenarios": res.lower.n_scenarios, "n_lps": res.lower.n_lps,
        "ub_solver": f"{res.upper.solver} {res.upper.solver_version}", "ub_status": res.upper.status,
    }
    return inst, res, row


def table39_row(name: str, baseline_limit: float, ub_time_limit: float, seed: int) -> dict:
    """Table 39: SOCP (113) UB, App. 5.F scenario LB; SCIP (CPLEX stand-in), also restricted to our time.

    ``ub_time_limit``: Clarabel's time limit for the SOCP; a solve that fails or stops is recorded in
    ``ub_status`` with NaN bounds."""
    _check_row("table39", name, seed, baseline_limit=baseline_limit, ub_time_limit=ub_time_limit)
    inst, res, row = _poly("table39", name,
                           ub_options={"time_limit": float(ub_time_limit), "accept_inaccurate": True})
    if res is not None:
        # the reported UB is the verified value of the repaired solution (quad_certified_tau) when the
        # repair applies, else the solver's optimum if its status is optimal; otherwise none
        row["upper_solver"] = row["upper"]
        certified = inst.report(res.upper.extra["certified"])
        row["ub_verified"] = bool(np.isfinite(certified))
        if np.isfinite(certified):
            row["upper"] = certified
        elif res.upper.status.lower() != "optimal":
            row["upper"] = np.nan
    g = scip_global(inst, time_limit=baseline_limit, stand_in_for="CPLEX")
    limit = max(res.time, 0.01) if res is not None else baseline_limit
    r = scip_global(inst, time_limit=limit, stand_in_for="CPLEX (restricted)")
    row.update({
        "global_value": inst.report(g.value),
        "global_bound": inst.report(g.bound) if g.bound < 1e19 else np.inf,
        "global_time": g.time, "global_status": g.status,
        "restricted_value": inst.report(r.value), "restricted_limit": limit,
        "global_solver": f"{g.solver} {g.solver_version}",
    })
    return row


def table40_row(name: str, baseline_limit: float, max_starts: int, seed: int,
                ub_time_limit: float | None = None) -> dict:
    """Table 40: exponential-cone UB (118), softmax-scenario LB; local multistart and SCIP stand-ins.

    ``ub_time_limit``: Clarabel's time limit (s, per attempt of the retry ladder) for (118); a solve
    that stops is recorded in ``ub_status`` with NaN bounds (measured: P4, n = q = 100, ran > 1 h)."""
    _check_row("table40", name, seed, baseline_limit=baseline_limit, max_starts=max_starts,
               **({} if ub_time_limit is None else {"ub_time_limit": ub_time_limit}))
    inst, res, row = _poly("table40", name,
                           ub_options=None if ub_time_limit is None else {"time_limit": float(ub_time_limit)})
    row.update(_local(inst, None, baseline_limit, max_starts, seed))
    row.update(_global(inst, None, baseline_limit))
    return row


def table41_row(name: str, baseline_limit: float, seed: int, ub_time_limit: float | None = None) -> dict:
    """Table 41: LP (124) UB in HiGHS, one-hot-scenario LB; HiGHS MILP (GUROBI stand-in) + restricted.

    ``ub_time_limit``: HiGHS's time limit (s) for the LP (124); a solve that stops is recorded in
    ``ub_status`` with NaN bounds, and the restricted MILP then gets ``baseline_limit``.  The restricted
    MILP's status is kept beside its value (NaN where it found no feasible point within its limit)."""
    _check_row("table41", name, seed, baseline_limit=baseline_limit,
               **({} if ub_time_limit is None else {"ub_time_limit": ub_time_limit}))
    inst, res, row = _poly("table41", name,
                           ub_options=None if ub_time_limit is None else {"time_limit": float(ub_time_limit)})
    g = summax_milp(inst, time_limit=baseline_limit)
    limit = max(res.time, 0.01) if res is not None else baseline_limit
    r = summax_milp(inst, time_limit=limit)
    row.update({
        "J": inst.J, "K": inst.K, "milp_value": g.value, "milp_bound": g.bound, "milp_time": g.time,
        "milp_status": g.status, "restricted_value": r.value, "restricted_status": r.status,
        "restricted_limit": limit,
        "milp_solver": f"{g.solver} {g.solver_version}",
        "ub_rows": res.upper.extra.get("rows") if res is not None and res.upper.extra else None,
    })
    return row


def formulation_tables() -> str:
    """Tables 34–36 (L5267–5288) in Markdown, each row naming the function that implements it."""
    return "\n".join([
        "### Table 34: problem classes (x >= 0, Dx <= d)",
        "",
        "| class | objective | implemented by |",
        "|---|---|---|",
        "| convex quadratic | g(x) = x'Qx + l'x, Q = L'L psd | `functions.quadratic`; instance kind `quad` |",
        "| geometric (log-sum-exp) | f(z) = log Σ_i exp(z_i), (115) | `functions.lse` (stable); kind `lse` |",
        "| sum of max | f(z) = Σ_k max_{j in I_k} z_j, (122); MILP by logical modelling "
        "| `functions.sum_of_max`; MILP `baselines.summax_milp` |",
        "",
        "### Table 35: upper-bound problems (Theorem 21)",
        "",
        "| class | problem | implemented by |",
        "|---|---|---|",
        "| convex quadratic | SOCP (113) (rotated-cone form, exact rewrite) "
        "| `polyhedron.quad_upper_bound` |",
        "| geometric | exponential-cone program (118), Cor. 13 | `polyhedron.lse_upper_bound` |",
        "| sum of max | LP (124), sparse HiGHS model | `polyhedron.summax_upper_bound` |",
        "",
        "### Table 36: lower-bound scenarios (97)–(99), then 1 + n + q LPs (96)",
        "",
        "| class | scenarios | implemented by |",
        "|---|---|---|",
        "| convex quadratic | analytic, h(a) = a/‖a‖₂ (App. 5.F) | `polyhedron.quad_scenarios` |",
        "| geometric | 1 + n + q exponential-cone programs (Cor. 14), solved in closed form (softmax) "
        "| `polyhedron.lse_scenarios`, `functions.entropy_argmax` |",
        "| sum of max | K analytic problems per scenario, one-hot per block (129) "
        "| `polyhedron.summax_scenarios`, `functions.block_argmax` |",
        "| all | LPs (96) over U, best f(Ax + b) | `polyhedron.scenario_lower_bound` (`lp.PolyhedronLP`) |",
        "",
        "Single-constraint cases (§5.2): Cor. 10 (2-norm ball, (81) with V = Diag(w)) `ball.cor10_bounds`; "
        "Cor. 11 (∞-norm box, exact (82)) `ball.cor11_exact`; Algorithm 12 `polyhedron.poly_bounds`.",
        "",
    ])
