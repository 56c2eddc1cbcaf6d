"""Per-cell times of the data-independent bounds P(π, β) + D(π, β) over the Table 1 grid vs the thesis' 2.2 s.

    python benchmarks/bench_dp_noise_cells.py --from-sweep   # summarise the paper-scale sweep's timings
    python benchmarks/bench_dp_noise_cells.py --work 6000    # re-time every cell (≈ 20 min on 2 cores)
    python benchmarks/bench_dp_noise_cells.py --methods      # compact vs generation vs cutting plane

The thesis solves each data-independent cell "within 2.2 secs" (L896) in C++ with Gurobi 9.5.2, single
thread, on LPs with ≈ 2,000 variables (supp. p.10).  We time P and D together per (ε, δ, loss) with HiGHS
from Python on the grid of :func:`safeguarded.dp_noise.synthetic.grid_for`; cell classes are ε ≤ 0.05
(wide supports), 0.1 ≤ ε ≤ 0.5 and ε ≥ 1.  Results go to ``benchmarks/results/dp_noise_cells*.csv``
(and, with ``--from-sweep``, the summary to ``figures/dp_noise/bench_cells.csv``).
The times are wall-clock on a machine shared with other jobs.
"""

from __future__ import annotations

import argparse
import platform
import time
from pathlib import Path

import pandas as pd

from safeguarded.dp_noise import bounds as bd
from safeguarded.dp_noise import synthetic as syn
from safeguarded.experiments import grid
from safeguarded.paths import RESULTS, figure_dir
from safeguarded.results import stored_frame

THESIS_SECONDS = 2.2
OUT = Path(__file__).resolve().parent / "results"


def cell_class(eps: float) -> str:
    return "eps<=0.05" if eps <= 0.05 else ("0.1<=eps<=0.5" if eps <= 0.5 else "eps>=1")


def summarise(cells: pd.DataFrame) -> pd.DataFrame:
    cells = cells.assign(seconds=cells.time_P + cells.time_D, cls=cells.epsilon.map(cell_class))
    out = cells.groupby(["loss", "cls"]).agg(
        cells=("seconds", "size"),
        median_s=("seconds", "median"),
        max_s=("seconds", "max"),
        median_lp_gap_pct=("lp_gap", "median"),
        median_vars=("n_cells", "median"),
    )
    out["ratio_max_vs_2.2s"] = out.max_s / THESIS_SECONDS
    out["ratio_median_vs_2.2s"] = out.median_s / THESIS_SECONDS
    return out.reset_index()


def from_sweep(name: str = "dp_noise/tables_paper") -> pd.DataFrame:
    out = stored_frame(name)
    if out.empty:
        raise SystemExit(f"no stored cells of {name} in {RESULTS}; run the tables notebook at paper scale")
    return out


def retime(work: int) -> pd.DataFrame:
    rows = []
    for p in grid(epsilon=list(syn.EPSILONS), delta=list(syn.DELTAS), loss=["l1", "l2"]):
        rows.append({**p, **syn.table_cell(**p, work=work)})
    return pd.DataFrame(rows)


def methods() -> pd.DataFrame:
    rows = []
    for eps, delta, k in [(1.0, 0.1, 10), (1.0, 0.1, 20), (0.5, 0.2, 10), (5.0, 0.25, 20)]:
        part = bd.uniform_partition(bd.support_rule(eps, delta) * k, k)
        for method in bd.METHODS:
            start = time.perf_counter()
            up = bd.upper_bound(eps, delta, part, "l1", method=method)
            lo = bd.lower_bound(eps, delta, part, "l1", method=method)
            rows.append({"epsilon": eps, "delta": delta, "k": k, "n_cells": part.n_cells, "method": method,
                         "P": up.value, "D": lo.value, "seconds": time.perf_counter() - start,
                         "rounds_P": up.iterations, "constraints_P": up.n_constraints})  # fmt: skip
    return pd.DataFrame(rows)


def main(argv=None) -> pd.DataFrame:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--from-sweep", action="store_true")
    parser.add_argument("--methods", action="store_true")
    parser.add_argument("--work", type=int, default=6000)
    args = parser.parse_args(argv)
    OUT.mkdir(exist_ok=True)
    print(f"machine: {platform.processor() or platform.machine()}, python {platform.python_version()}")
    if args.methods:
        table = methods()
        table.to_csv(OUT / "dp_noise_methods.csv", index=False)
        print(table.to_string(index=False))
        return table
    cells = from_sweep() if args.from_sweep else retime(args.work)
    table = summarise(cells)
    cells.to_csv(OUT / "dp_noise_cells.csv", index=False)
    table.to_csv(OUT / "dp_noise_cells_summary.csv", index=False)
    if args.from_sweep:  # the committed record of the paper-scale run
        table.to_csv(figure_dir("dp_noise") / "bench_cells.csv", index=False, float_format="%.4g")
    print(table.to_string(index=False))
    return table


if __name__ == "__main__":
    main()
