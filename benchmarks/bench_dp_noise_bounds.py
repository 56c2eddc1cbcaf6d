"""Per-cell time of the data-independent LP bounds P(L, β) + D(L, β) (thesis §1.2, §1.4), before and after.

    python benchmarks/bench_dp_noise_bounds.py                 # cell classes x budgets x methods
    python benchmarks/bench_dp_noise_bounds.py --work 6000     # one budget
    python benchmarks/bench_dp_noise_bounds.py --algorithm1    # also the literal Algorithm 1 (event cuts)
    python benchmarks/bench_dp_noise_bounds.py --nonuniform    # uniform grid vs refined π + cover bound
    python benchmarks/bench_dp_noise_bounds.py --ipm           # the structured IPM at the thesis's resolution
    python benchmarks/bench_dp_noise_bounds.py --fold          # IPM seconds per iteration, folded or not
    python benchmarks/bench_dp_noise_bounds.py --ipx --cells 600   # our IPM vs HiGHS's IPX, same LP

One *cell* is one (ε, δ) with Δf = 1, ℓ1, on the uniform grid of the Tables 1/4/5 notebook
(:func:`safeguarded.dp_noise.synthetic.grid_for`: support ⌈2Λ⌉Δf, largest k with (#cells)(2k + 1) ≤ work).
Methods (all exact, same LP optimum; ``tests/test_dp_noise_bounds.py``):

* ``compact``   — the whole epigraph LP at once (one HiGHS solve);
* ``generation`` — column generation on the epigraph LP, unseeded: the code path *before* issue 18;
* ``gen+tlap``  — the same, warm-started with the pairs that are positive or near-tied at the
  truncated-Laplace cell masses (the default *after*);
* ``gen+coarse`` — warm-started from the same bound solved at k // 2 (recursively);
* ``algorithm1`` (``--algorithm1``) — Algorithm 1 with Algorithm 2's event cuts only, added in place to one
  HiGHS model (``method="cutting_plane"``), capped at 60 s per bound.

Reported per cell: P, D, the thesis's gap 100 (P − D)/D (L871), seconds for P + D, rounds, epigraph
columns and the share of time inside HiGHS, beside the thesis's figures: "data independent problems were
all solved within 2.2 secs" (L896, Figure 3's instances, at most 2·12·16 + 1 = 385 cells, C++/Gurobi) and
"median gap 0.28 %" (L871, Table 1's grids of ≈ 2,000 variables, supp. p.10).  ``thesis_cells`` and
``thesis_pairs`` give the size the thesis's rule implies for the cell (support ±ΛΔf, k with 2Λk + 1 ≈ 2,000;
pairs = cells × 2k epigraph terms).
``--nonuniform`` compares, per (ε, δ, loss) of a sub-grid of Table 1 (``--eps``/``--deltas``), the uniform
grid of the notebooks (``grid_for(work)``: P(L, β) and D(L, β)) with a refined partition of the same range
(:func:`safeguarded.dp_noise.nonuniform.refined_partition`: fine grid k = 2·k_uniform, lattice of 2 fine
cells, single fine cells on [−k/4, k/4]·β around 0), bounded by P(π, β) above and by the cover bound C(π, β)
below (valid on non-uniform cells; :func:`~safeguarded.dp_noise.nonuniform.cover_lower_bound`).  Each bound
is capped at ``--cap`` seconds; a capped C(π, β) reports its last relaxation (still a valid lower bound,
``D_converged = False``).  ``thesis_table1_pct`` is Table 1 (L873–L885), the gap of the best *literature*
bounds (truncated Laplace vs Geng et al.'s lower bound), printed beside ours for orientation only; the
thesis's own LP gap is only summarised (< 1 % everywhere, median 0.28 %, L871).
``--ipm`` solves P(L, β) and D(L, β) with the structured interior-point method
(:mod:`safeguarded.dp_noise.ipm`, certified bounds) on grids of ``--cells`` fine cells (default 1,000 and the
thesis's 2,000; support ⌈2Λ⌉Δf) for the cell classes above, with the floor β/(2D) that no uniform ℓ1 grid can
beat, the same two bounds from one solve of D (:func:`~safeguarded.dp_noise.bounds.l1_uniform_bounds`), and
times Figure 3's largest data-independent instances (Δf = 2, β = 1/32, supports ±2, ±3, ±12; L896: "solved
within 2.2 secs") with the IPM and with the HiGHS column generation (``--no-figure3`` skips them).
``--ipx`` solves the same epigraph LP (``bounds._compact_matrix``, symmetric grid of ``--cells`` cells) with
HiGHS's interior-point solver IPX (crossover off) and with ours, unfolded and folded, and reports iterations,
seconds and values: is our iteration count (≈ 50 at 600 cells, ≈ 105 at 2,000) a defect of our IPM or the
LP's?
Results go to ``benchmarks/results/dp_noise_bounds*.csv``.  Wall-clock times on a shared 2-core machine; run
with SAFEGUARDED_N_JOBS=1 under the helpers' heavy lock.
"""

from __future__ import annotations

import argparse
import platform
import time
from pathlib import Path

import pandas as pd

from safeguarded.dp_noise import bounds as bd
from safeguarded.dp_noise import synthetic as syn
from safeguarded.dp_noise import thesis

OUT = Path(__file__).resolve().parent / "results"
# cell classes: (ε region, δ region) of Table 1's grid
CELLS = {
    "small eps, large delta": (0.02, 0.25),
    "small eps, small delta": (0.005, 0.005),
    "medium eps": (0.1, 0.05),
    "eps = 1": (1.0, 0.1),
    "large eps": (5.0, 0.25),
}
METHODS = {
    "compact": dict(method="compact"),
    "generation": dict(method="generation", warm_start=None),
    "gen+tlap": dict(method="generation", warm_start="tlap"),
    "gen+coarse": dict(method="generation", warm_start="coarse"),
}
THESIS_SECONDS, THESIS_MEDIAN_GAP = float(thesis.DI_SECONDS), float(thesis.LP_GAP_MEDIAN_PCT)
# Table 1 (L874–L883): rows ε, columns δ of syn.EPSILONS x syn.DELTAS
THESIS_TABLE1 = [[float(v) for v in row] for row in thesis.TABLE1.values()]


def refined_for(eps, delta, work):
    """The refined π of ``--nonuniform``: same range as ``grid_for(work)``, k doubled, lattice of 2 fine
    cells, single fine cells on [−k/4, k/4]·β (the central peak of the optimal noise, L791)."""
    from safeguarded.dp_noise import nonuniform as nu

    pu = syn.grid_for(eps, delta, work=work)
    k = 2 * pu.k
    return nu.refined_partition((-pu.lo) // pu.k * k, k, coarse=2, core=max(1, k // 4))


def nonuniform_cell(eps, delta, loss, work, cap):
    """Uniform P(L, β)/D(L, β) and refined P(π, β)/C(π, β) for one cell; one row per partition."""
    from safeguarded.dp_noise import nonuniform as nu

    rows = []
    i, j = syn.EPSILONS.index(eps), syn.DELTAS.index(delta)
    parts = (("uniform", syn.grid_for(eps, delta, work=work)), ("refined", refined_for(eps, delta, work)))
    for label, part in parts:
        row = {"epsilon": eps, "delta": delta, "loss": loss, "partition": label, "k": part.k,
               "cells": part.n_cells, "shifts": 2 * part.k + 1}  # fmt: skip
        start = time.perf_counter()
        try:
            up = bd.upper_bound(eps, delta, part, loss, max_seconds=cap)
            row["P"], row["seconds_P"] = up.value, time.perf_counter() - start
        except bd.SolverError as exc:
            row["P"], row["status_P"] = float("nan"), str(exc)[:80]
            row["seconds_P"] = time.perf_counter() - start
        start = time.perf_counter()
        if label == "uniform":
            low = bd.lower_bound(eps, delta, part, loss, max_seconds=cap)
            row["D_method"], row["D_converged"] = "D(L,beta) generation", True
        else:
            low = nu.cover_lower_bound(eps, delta, part, loss, max_seconds=cap, on_limit="relaxation")
            row["D_method"], row["D_converged"] = "C(pi,beta) flow", bool(low.profile["converged"])
        row["D"], row["seconds_D"] = low.value, time.perf_counter() - start
        row["gap_pct"] = 100.0 * (row["P"] - row["D"]) / row["D"]
        row["seconds"] = row["seconds_P"] + row["seconds_D"]
        row["thesis_table1_pct"] = THESIS_TABLE1[i][j]
        row["thesis_lp_gap_median_pct"], row["thesis_seconds"] = THESIS_MEDIAN_GAP, THESIS_SECONDS
        rows.append(row)
        star = "" if row["D_converged"] else "*"
        print(f"{loss} eps={eps:<6g} delta={delta:<6g} {label:8s} k={part.k:4d} N={part.n_cells:4d} "
              f"P={row['P']:.6g} D={row['D']:.6g}{star} gap={row['gap_pct']:.3f}% "
              f"P {row['seconds_P']:.1f}s D {row['seconds_D']:.1f}s", flush=True)  # fmt: skip
    return rows


def main_nonuniform(args):
    rows = []
    for loss in args.losses:
        for eps in args.eps:
            for delta in args.deltas:
                rows += nonuniform_cell(eps, delta, loss, args.work[0], args.cap)
                pd.DataFrame(rows).to_csv(OUT / f"{args.tag}.csv", index=False)  # partial results survive
    cells = pd.DataFrame(rows)
    cells["machine"] = platform.processor() or platform.machine()
    cells.to_csv(OUT / f"{args.tag}.csv", index=False)
    summary = (
        cells.groupby(["loss", "partition"])
        .agg(
            cells_run=("gap_pct", "size"),
            median_cells=("cells", "median"),
            median_k=("k", "median"),
            gap_pct_median=("gap_pct", "median"),
            gap_pct_max=("gap_pct", "max"),
            gap_below_1pct=("gap_pct", lambda g: int((g < 1).sum())),
            seconds_P_median=("seconds_P", "median"),
            seconds_D_median=("seconds_D", "median"),
            seconds_median=("seconds", "median"),
            seconds_max=("seconds", "max"),
            D_converged=("D_converged", "sum"),
        )  # fmt: skip
        .reset_index()
    )
    summary["thesis_lp_gap_median_pct"], summary["thesis_seconds"] = THESIS_MEDIAN_GAP, THESIS_SECONDS
    summary.to_csv(OUT / f"{args.tag}_summary.csv", index=False)
    print(summary.round(3).to_string(index=False))


def main_ipm(args):
    """``--ipm``: per cell class and grid size, the IPM's certified P and D, their times, the β/(2D) floor."""
    rows = []
    for n_cells in [] if args.figure3_only else args.cells:
        for cls, (eps, delta) in CELLS.items():
            part = syn.grid_for(eps, delta, n_cells=n_cells)
            row = {"class": cls, "epsilon": eps, "delta": delta, "loss": "l1", "cells": part.n_cells,
                   "k": part.k, "shifts": 2 * part.k, "pairs": 2 * part.k * part.n_cells}  # fmt: skip
            for kind, fun in (("P", bd.upper_bound), ("D", bd.lower_bound)):
                start = time.perf_counter()
                res = fun(eps, delta, part, "l1", method="ipm")
                row[kind], row[f"seconds_{kind}"] = res.value, time.perf_counter() - start
                row[f"iterations_{kind}"], row[f"status_{kind}"] = res.iterations, res.profile["status"]
            row["seconds"] = row["seconds_P"] + row["seconds_D"]
            start = time.perf_counter()  # both bounds from one solve of D where D avoids the padding
            up, lo = bd.l1_uniform_bounds(eps, delta, part)
            row["seconds_one_solve"], row["method_one_solve"] = time.perf_counter() - start, up.method
            row["P_one_solve"], row["D_one_solve"] = up.value, lo.value
            row["gap_pct"] = 100.0 * (row["P"] - row["D"]) / row["D"]
            row["floor_pct"] = 100.0 * 0.5 * part.beta / row["D"]
            row["thesis_cells"], row["thesis_k"], _ = thesis_size(eps, delta)
            row["thesis_lp_gap_median_pct"], row["thesis_seconds"] = THESIS_MEDIAN_GAP, THESIS_SECONDS
            rows.append(row)
            print(f"N={part.n_cells:5d} {cls:24s} k={part.k:4d} P={row['P']:.6g} D={row['D']:.6g} "
                  f"gap={row['gap_pct']:.3f}% (floor {row['floor_pct']:.3f}%) P+D {row['seconds']:.1f}s "
                  f"its {row['iterations_P']}/{row['iterations_D']}", flush=True)  # fmt: skip
            pd.DataFrame(rows).to_csv(OUT / f"{args.tag}.csv", index=False)
    fig3 = []
    for eps, delta, support in () if args.no_figure3 else ((5.0, 0.25, 2), (1.0, 0.2, 3), (0.2, 0.05, 12)):
        part = bd.uniform_partition(support * 32, 64, 2.0)  # Δf = 2, β = 1/32
        for method in ("ipm", "generation"):
            start = time.perf_counter()
            values, status = {}, []
            for kind, fun in (("P", bd.upper_bound), ("D", bd.lower_bound)):
                try:  # P can be infeasible on the rounded support (catalog §5 A12), as in Figure 3
                    values[kind] = fun(eps, delta, part, "l1", method=method, max_seconds=60.0).value
                except (ValueError, bd.SolverError) as exc:  # recorded, never averaged
                    values[kind] = float("nan")
                    status.append(f"{kind}: {str(exc)[:70]}")
            seconds = time.perf_counter() - start
            fig3.append({"epsilon": eps, "delta": delta, "support": support, "inv_beta": 32,
                         "cells": part.n_cells, "method": method, **values, "seconds": seconds,
                         "status": "; ".join(status) or "ok", "thesis_seconds": THESIS_SECONDS})  # fmt: skip
            print(f"Figure 3 ({eps:g}, {delta:g}) +-{support}, beta = 1/32, N={part.n_cells}: "
                  f"{method:10s} P={values['P']:.6g} D={values['D']:.6g} P+D {seconds:.2f}s "
                  f"{fig3[-1]['status']}")  # fmt: skip
    if fig3:
        pd.DataFrame(fig3).to_csv(OUT / f"{args.tag}_figure3.csv", index=False)
    if rows:
        cells = pd.DataFrame(rows)
        cells["machine"] = platform.processor() or platform.machine()
        cells.to_csv(OUT / f"{args.tag}.csv", index=False)
        shown = cells[["cells", "class", "k", "gap_pct", "floor_pct", "seconds", "seconds_one_solve",
                       "method_one_solve"]]
        print(shown.round(3).to_string(index=False))


def main_fold(args):
    """``--fold``: seconds per IPM iteration on the symmetric grid of ≈ ``--cells`` cells, solved over all
    masses (:func:`.ipm.pair_lp`) and over symmetric masses (:func:`.ipm.fold`), same iterates.

    A fixed number of iterations (``--iterations``) of D(L, β) and of P(L, β) per cell class, from the same
    truncated-Laplace start; the certified bounds after them are printed to show the iterates agree.
    """
    from safeguarded.dp_noise import ipm

    rows = []
    for n_cells in args.cells:
        for cls, (eps, delta) in {**CELLS, "large delta (k = 500)": (0.5, 0.5)}.items():
            part = syn.grid_for(eps, delta, n_cells=n_cells, symmetric=True)
            for kind in ("upper", "lower"):
                prob = bd._problem(kind, eps, delta, part, "l1")
                full = ipm.pair_lp(prob)
                x0 = bd.truncated_laplace_masses(eps, delta, prob.cells)
                for label, lp in (("all masses", full), ("symmetric masses", ipm.fold(full))):
                    res = ipm.solve_pair_lp(lp, x0=x0, max_iter=args.iterations)
                    rows.append({"class": cls, "epsilon": eps, "delta": delta, "cells": part.n_cells,
                                 "k": part.k, "bound": "P" if kind == "upper" else "D", "variables": lp.n,
                                 "shifts": lp.n_shifts, "pairs": lp.m, "solve": label,
                                 "iterations": res.iterations, "seconds": res.wall_time,
                                 "seconds_per_iteration": res.wall_time / res.iterations,
                                 "lower": res.lower, "upper": res.upper})  # fmt: skip
                    print(f"N={part.n_cells:5d} {cls:24s} {rows[-1]['bound']} {label:16s} n={lp.n:5d} "
                          f"{rows[-1]['seconds_per_iteration']:.3f} s/it  lower {res.lower:.10g}", flush=True)
    table = pd.DataFrame(rows)
    table["machine"] = platform.processor() or platform.machine()
    table.to_csv(OUT / f"{args.tag}.csv", index=False)
    per = table.pivot_table(index=["class", "k", "bound"], columns="solve", values="seconds_per_iteration")
    per["speed-up"] = per["all masses"] / per["symmetric masses"]
    print(per.round(3).to_string())


def ipx_solve(prob):
    """The epigraph LP of ``prob`` by HiGHS's IPX without crossover: (value, iterations, seconds, status)."""
    import highspy
    import numpy as np
    import scipy.sparse as sp

    inf = highspy.kHighsInf
    mat, row_lo, row_hi, m = bd._compact_matrix(prob)
    n = prob.n
    h = bd._highs(n + m, np.concatenate([prob.costs, np.zeros(m)]))
    h.setOptionValue("solver", "ipm")
    h.setOptionValue("run_crossover", "off")
    bd._add_rows(h, sp.csr_matrix(np.r_[np.ones(n), np.zeros(m)][None, :]), np.ones(1), np.ones(1))
    bd._add_rows(h, mat, np.where(np.isinf(row_lo), -inf, row_lo), np.where(np.isinf(row_hi), inf, row_hi))
    start = time.perf_counter()
    h.run()
    seconds = time.perf_counter() - start
    info = h.getInfo()
    status = h.modelStatusToString(h.getModelStatus())
    return float(info.objective_function_value), int(info.ipm_iteration_count), seconds, status


def main_ipx(args):
    """``--ipx``: iterations and seconds of HiGHS's IPX and of our IPM (all masses; symmetric masses) on
    the same LP, per cell class and bound, on the symmetric grid of ≈ ``--cells`` cells."""
    from safeguarded.dp_noise import ipm

    rows = []
    for n_cells in args.cells:
        for cls, (eps, delta) in CELLS.items():
            part = syn.grid_for(eps, delta, n_cells=n_cells, symmetric=True)
            for kind in ("upper", "lower"):
                prob = bd._problem(kind, eps, delta, part, "l1")
                full = ipm.pair_lp(prob)
                x0 = bd.truncated_laplace_masses(eps, delta, prob.cells)
                base = {"class": cls, "epsilon": eps, "delta": delta, "cells": part.n_cells, "k": part.k,
                        "bound": "P" if kind == "upper" else "D", "pairs": full.m}  # fmt: skip
                value, its, seconds, status = ipx_solve(prob)
                rows.append({**base, "solver": "HiGHS IPX (no crossover)", "iterations": its,
                             "seconds": seconds, "value": value, "status": status})  # fmt: skip
                for label, lp in (("ours, all masses", full), ("ours, symmetric masses", ipm.fold(full))):
                    res = ipm.solve_pair_lp(lp, x0=x0, max_iter=300)
                    value = res.upper if kind == "upper" else res.lower
                    rows.append({**base, "solver": label, "iterations": res.iterations,
                                 "seconds": res.wall_time, "value": value, "status": res.status,
                                 "lower": res.lower, "upper": res.upper})  # fmt: skip
                for row in rows[-3:]:
                    print(f"N={part.n_cells:5d} {cls:24s} {row['bound']} {row['solver']:24s} "
                          f"{row['iterations']:4d} its {row['seconds']:8.2f} s  {row['value']:.9g} "
                          f"{row['status']}", flush=True)  # fmt: skip
                table = pd.DataFrame(rows)
                table["machine"] = platform.processor() or platform.machine()
                table.to_csv(OUT / f"{args.tag}.csv", index=False)
    table = pd.DataFrame(rows)
    print(table.pivot_table(index=["cells", "class", "bound"], columns="solver", values="iterations")
          .to_string())  # fmt: skip


def thesis_size(eps, delta, n_vars=2000):
    """Cells and epigraph pairs of the thesis's rule: support ±ΛΔf, 2Λk + 1 ≈ ``n_vars`` (supp. p.10)."""
    part = syn.grid_for(eps, delta, n_cells=n_vars, support_factor=1.0)
    return part.n_cells, part.k, part.n_cells * 2 * part.k


def time_cell(eps, delta, work, label, kwargs, max_seconds=900.0):
    part = syn.grid_for(eps, delta, work=work)
    row = {"epsilon": eps, "delta": delta, "work": work, "method": label, "k": part.k, "cells": part.n_cells}
    total = lp = 0.0
    for kind, fun in (("P", bd.upper_bound), ("D", bd.lower_bound)):
        start = time.perf_counter()
        try:
            res = fun(eps, delta, part, "l1", max_seconds=max_seconds, **kwargs)
        except bd.SolverError as exc:  # a capped Algorithm 1 run: recorded, never averaged
            row[kind], row[f"status_{kind}"] = float("nan"), str(exc)[:80]
            row[f"rounds_{kind}"] = None
            total += time.perf_counter() - start
            continue
        total += time.perf_counter() - start
        row[kind] = res.value
        row[f"rounds_{kind}"] = res.iterations
        row[f"columns_{kind}"] = res.profile.get("columns", res.masses.size)
        row[f"shortfall_{kind}"] = res.max_shortfall
        lp += res.profile.get("seconds_lp", float("nan"))
    row["seconds"] = total
    row["share_in_highs"] = lp / total if total else float("nan")
    row["gap_pct"] = 100.0 * (row["P"] - row["D"]) / row["D"]
    row["thesis_cells"], row["thesis_k"], row["thesis_pairs"] = thesis_size(eps, delta)
    return row


def main(argv=None):
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--work", type=int, nargs="+", default=[6000, 10000])
    parser.add_argument("--algorithm1", action="store_true")
    parser.add_argument("--tag", default=None)
    parser.add_argument("--nonuniform", action="store_true")
    parser.add_argument("--losses", nargs="+", default=["l1", "l2"])
    parser.add_argument("--eps", type=float, nargs="+", default=list(syn.EPSILONS))
    parser.add_argument("--deltas", type=float, nargs="+", default=list(syn.DELTAS))
    parser.add_argument("--cap", type=float, default=60.0, help="seconds per bound (--nonuniform)")
    parser.add_argument("--ipm", action="store_true")
    parser.add_argument("--figure3-only", action="store_true", help="--ipm: only Figure 3's instances")
    parser.add_argument("--no-figure3", action="store_true", help="--ipm: skip Figure 3's instances")
    parser.add_argument(
        "--cells", type=int, nargs="+", default=[1000, 2000], help="cells per grid (--ipm, --ipx)"
    )
    parser.add_argument("--fold", action="store_true")
    parser.add_argument("--iterations", type=int, default=10, help="IPM iterations per solve (--fold)")
    parser.add_argument("--ipx", action="store_true")
    args = parser.parse_args(argv)
    OUT.mkdir(parents=True, exist_ok=True)
    if args.ipx:
        args.tag = args.tag or "dp_noise_bounds_ipx"
        return main_ipx(args)
    if args.fold:
        args.tag = args.tag or "dp_noise_bounds_ipm_fold"
        args.cells = [2000] if args.cells == [1000, 2000] else args.cells
        return main_fold(args)
    if args.ipm:
        args.tag = args.tag or "dp_noise_bounds_ipm"
        return main_ipm(args)
    if args.nonuniform:
        args.tag = args.tag or "dp_noise_bounds_nonuniform"
        if len(args.work) > 1:
            args.work = [6000]
        return main_nonuniform(args)
    args.tag = args.tag or "dp_noise_bounds"
    methods = dict(METHODS)
    if args.algorithm1:
        methods["algorithm1"] = dict(method="cutting_plane")
    rows = []
    for work in args.work:
        for cls, (eps, delta) in CELLS.items():
            for label, kwargs in methods.items():
                row = time_cell(eps, delta, work, label, kwargs, 60.0 if label == "algorithm1" else 900.0)
                row["class"] = cls
                rows.append(row)
                print(
                    f"work={work:6d} {cls:24s} {label:11s} k={row['k']:3d} cells={row['cells']:4d}"
                    f" P+D {row['seconds']:7.2f}s rounds {row['rounds_P']}/{row['rounds_D']}"
                    f" gap {row['gap_pct']:7.3f}% (thesis: {THESIS_SECONDS} s, median {THESIS_MEDIAN_GAP} %;"
                    f" its grid: {row['thesis_cells']} cells, {row['thesis_pairs']:,} pairs)",
                    flush=True,
                )
    cells = pd.DataFrame(rows)
    cells["machine"] = platform.processor() or platform.machine()
    cells["thesis_seconds"], cells["thesis_median_gap_pct"] = THESIS_SECONDS, THESIS_MEDIAN_GAP
    OUT.mkdir(parents=True, exist_ok=True)
    cells.to_csv(OUT / f"{args.tag}.csv", index=False)
    base = cells[cells.method == "generation"].set_index(["work", "class"]).seconds
    keys = zip(cells.work, cells["class"], cells.seconds, strict=True)
    cells["speedup_vs_generation"] = [base[(w, c)] / s for w, c, s in keys]
    cols = ["work", "class", "method", "k", "cells", "seconds", "gap_pct", "rounds_P", "rounds_D",
            "speedup_vs_generation", "thesis_cells", "thesis_pairs"]  # fmt: skip
    summary = cells[cols]
    summary.to_csv(OUT / f"{args.tag}_summary.csv", index=False)
    print(summary.round(3).to_string(index=False))


if __name__ == "__main__":
    main()
