"""Time per Section 1 LP cell (lower + upper bound) for Tables 10/15, per loss and resolution k.

    python benchmarks/bench_gaussian_mixtures_lp.py                      # representative cells, 3 budgets
    python benchmarks/bench_gaussian_mixtures_lp.py --work 20000 40000   # chosen budgets
    python benchmarks/bench_gaussian_mixtures_lp.py --from-sweep         # summarise the paper-scale P sweep
    python benchmarks/bench_gaussian_mixtures_lp.py --from-sweep gaussian_mixtures/lp_lower_uniform  # D sweep
    python benchmarks/bench_gaussian_mixtures_lp.py --from-sweep gaussian_mixtures/lp_ipm_uniform_l1  # IPM

Each cell solves D(π, β) and P(π, β) of :mod:`safeguarded.dp_noise.bounds` on the graded partition of
:func:`safeguarded.gaussian_mixtures.optimum.lp_partition` (HiGHS via highspy, one thread).  The thesis
gave each LP cell of this benchmark a 24-hour limit (L2141; Julia/Gurobi).  ``--from-sweep`` also reads the
certified IPM sweeps of :func:`~safeguarded.gaussian_mixtures.optimum.lp_ipm_cell` (D on two supports and P on
uniform grids of ``n_cells`` cells; summarised per loss with the relative gap (P − D)/P, the seconds of the
three solves and how they ended).  Results go to
``benchmarks/results/gaussian_mixtures_lp*.csv``.  Wall-clock times on a shared machine; run with
SAFEGUARDED_N_JOBS=1.
"""

from __future__ import annotations

import argparse
import platform
from pathlib import Path

import pandas as pd

from safeguarded.gaussian_mixtures import optimum
from safeguarded.paths import RESULTS
from safeguarded.results import stored_frame

OUT = Path(__file__).resolve().parent / "results"
CELLS = [
    (0.1, 1e-4),
    (0.1, 0.25),
    (0.5, 1e-3),
    (1.0, 1e-4),
    (1.0, 0.1),
    (2.0, 0.05),
    (5.0, 0.01),
    (10.0, 1e-4),
]


def retime(works, losses=("l1", "l2")) -> pd.DataFrame:
    rows = []
    for work in works:
        for loss in losses:
            for eps, delta in CELLS:
                row = {"epsilon": eps, "delta": delta, "loss": loss, "work": work}
                row.update(optimum.lp_cell(eps, delta, loss, work))
                row["seconds"] = row["seconds_lower"] + row["seconds_upper"]
                print(
                    f"work={work:6d} {loss} eps={eps:5g} delta={delta:7g} k={row['k']:4d}"
                    f" cells={row['n_cells']:5d}"
                    f" D={row['lower']:.6g} P={row['upper']:.6g} gap={100 * row['rel_gap']:7.3f}%"
                    f" t={row['seconds']:7.2f}s {row['status'][:40]}",
                    flush=True,
                )
                rows.append(row)
    return pd.DataFrame(rows)


def from_sweep(name: str) -> pd.DataFrame:
    out = stored_frame(name)
    if out.empty:
        raise SystemExit(f"no stored cells of {name} in {RESULTS}; run the grid-tables notebook")
    size = "work" if "work" in out else "n_cells"  # HiGHS budgets, or the IPM sweep's grid size
    out = out[out[size] == out[size].max()]  # the paper-scale size (smoke runs share the folder)
    if "seconds_upper" in out:  # graded sweep (P and D); the uniform lower-bound sweep has "seconds"
        out["seconds"] = out["seconds_lower"] + out["seconds_upper"]
    if size == "n_cells":  # lp_ipm_cell: certified D (best of two supports) and P; k of P's grid
        out["rel_gap"] = (out["upper"] - out["lower"]) / out["upper"]
        out["k"] = out["k_upper_s1"]
        ended = out[[c for c in out if c.startswith("status_")]]
        converged = ended.isin(["optimal", "optimal (certified gap)", "from D (checked)"])
        out["solves_not_converged"] = (~converged).sum(axis=1)
    return out


def summarise(cells: pd.DataFrame) -> pd.DataFrame:
    stats = dict(
        cells=("seconds", "size"),
        median_s=("seconds", "median"),
        max_s=("seconds", "max"),
        total_s=("seconds", "sum"),
    )
    if "rel_gap" in cells:
        stats["median_gap_pct"] = ("rel_gap", lambda g: 100 * g.median())
        stats["max_gap_pct"] = ("rel_gap", lambda g: 100 * g.max())
    if "n_cells" in cells:  # the IPM sweep: one grid size, k varies with the cell
        stats["solves_not_converged"] = ("solves_not_converged", "sum")
        return cells.groupby(["loss", "n_cells"]).agg(**stats).reset_index()
    return cells.groupby(["loss", "k"]).agg(**stats).reset_index()


def main(argv=None) -> pd.DataFrame:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", type=int, nargs="*", default=[10000, 20000, 40000])
    parser.add_argument("--from-sweep", default=None, const="gaussian_mixtures/lp_bounds", nargs="?")
    args = parser.parse_args(argv)
    OUT.mkdir(exist_ok=True)
    print(f"machine: {platform.processor() or platform.machine()}, python {platform.python_version()}")
    cells = from_sweep(args.from_sweep) if args.from_sweep else retime(args.work)
    tag = "_" + args.from_sweep.split("/")[-1] if args.from_sweep else ""
    cells.to_csv(OUT / f"gaussian_mixtures_lp_cells{tag}.csv", index=False, float_format="%.6g")
    table = summarise(cells)
    table.to_csv(OUT / f"gaussian_mixtures_lp_summary{tag}.csv", index=False, float_format="%.4g")
    print(table.to_string(index=False))
    return table


if __name__ == "__main__":
    main()
