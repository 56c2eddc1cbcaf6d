"""Per-cell time of the data-independent LP bounds P(L, β) + D(L, β) (thesis §1.2, §1.4), before and after.

    python benchmarks/bench_dp_noise_bounds.py                 # cell classes x budgets x methods
    python benchmarks/bench_dp_noise_bounds.py --work 6000     # one budget
    python benchmarks/bench_dp_noise_bounds.py --algorithm1    # also the literal Algorithm 1 (event cuts)

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
THESIS_SECONDS, THESIS_MEDIAN_GAP = 2.2, 0.28


def thesis_size(eps, delta, n_vars=2000):
    """Cells and epigraph pairs of the thesis's rule: support ±ΛΔf, 2Λk + 1 ≈ ``n_vars`` (supp. p.10)."""
    lam = bd.support_rule(eps, delta)
    k = max(2, round((n_vars - 1) / (2 * lam)))
    cells = 2 * lam * k + 1
    return cells, k, cells * 2 * k


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
    parser.add_argument("--tag", default="dp_noise_bounds")
    args = parser.parse_args(argv)
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
