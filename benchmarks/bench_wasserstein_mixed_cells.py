"""Per-cell cost of thesis Tables 21-26 (``wasserstein_mixed.experiments.uci_cell``): one cell per table.

    python benchmarks/bench_wasserstein_mixed_cells.py                 # one cell per table (≈ 4 min)
    python benchmarks/bench_wasserstein_mixed_cells.py --tables 22 24  # a subset
    python benchmarks/bench_wasserstein_mixed_cells.py --alpha thesis  # the 13-value alpha grid
    python benchmarks/bench_wasserstein_mixed_cells.py --tables 21 22 23 --datasets all \
        --out benchmarks/results/wasserstein_mixed_cells_every_set.csv   # every set of those tables

A cell is one random split of one data set at one size, every method of the table (Nom, MixF(1),
MixF(K), r-Nom, r-MixF(1), r-MixF(K), ConF(1), ConF(K)) fitted by k-fold CV over its grid and refitted.
Per method the script records the wall time, the cutting-plane runs (``solves``: grid points x folds +
the refit), the LP/conic solves inside them (``rounds``, one per cutting-plane round), the time spent in
the solver (HiGHS LP or Clarabel conic; timed by wrapping the models' ``solve``), the time of the
separation oracle and the cuts in the model.  Rows go to ``benchmarks/results/wasserstein_mixed_cells.csv``
(``--out`` to change), with a ``cell`` row per cell (the sum) and the settings.  Times are wall-clock
(``seconds``) and process CPU (``cpu_seconds``) on a machine shared with other jobs: on a busy machine
the CPU time is the better measure of a cell's cost.
"""

from __future__ import annotations

import argparse
import platform
import time
from pathlib import Path

import pandas as pd

from safeguarded.wasserstein_mixed import experiments as E
from safeguarded.wasserstein_mixed import models as M
from safeguarded.wasserstein_mixed.instances import UCI_SETS, load_uci
from safeguarded.wasserstein_mixed.losses import LOSSES as LOSS_TASK  # loss -> classification / regression
from safeguarded.wasserstein_mixed.thesis_values import TABLE_LOSS

OUT = Path(__file__).resolve().parent / "results"
#: the data set profiled per table (a mid-sized one each; those the paper notebook runs where possible)
CELLS = {
    21: "breast-cancer",
    22: "lymphography",
    23: "primary-tumor",
    24: "fire",
    25: "imports",
    26: "student",
}
ALPHA = {"notebook": (0.0, 1e-3, 1e-1), "thesis": E.ALPHA_GRID_TABLES}


class _Probe:
    """Wrap the models' ``solve`` and the separation oracle to time them per method."""

    def __init__(self):
        self.reset()
        self._orig = (M.HighsCutModel.solve, M.ConicCutModel.solve, M._violations, E.cv_fit)

    def reset(self):
        self.lp = self.conic = 0
        self.t_lp = self.t_conic = self.t_sep = 0.0

    def install(self):
        hs, cs, viol, _ = self._orig
        probe = self

        def highs_solve(self_, eps, w):
            t = time.perf_counter()
            try:
                return hs(self_, eps, w)
            finally:
                probe.t_lp += time.perf_counter() - t
                probe.lp += 1

        def conic_solve(self_, eps, w):
            t = time.perf_counter()
            try:
                return cs(self_, eps, w)
            finally:
                probe.t_conic += time.perf_counter() - t
                probe.conic += 1

        def violations(*a, **k):
            t = time.perf_counter()
            try:
                return viol(*a, **k)
            finally:
                probe.t_sep += time.perf_counter() - t

        M.HighsCutModel.solve, M.ConicCutModel.solve, M._violations = highs_solve, conic_solve, violations

    def uninstall(self):
        M.HighsCutModel.solve, M.ConicCutModel.solve, M._violations, E.cv_fit = self._orig


def profile_cell(table: int, dataset: str, *, size: str, split: int, folds: int, alpha: str) -> list[dict]:
    loss = TABLE_LOSS[table]
    data = load_uci(dataset)
    probe = _Probe()
    probe.install()
    rows = []
    try:
        for method in E.METHODS:
            probe.reset()
            t0, c0 = time.perf_counter(), time.process_time()
            (row,) = E.uci_cell(
                dataset, loss, size, split, E.EPS_GRID_TABLES, ALPHA[alpha], folds, methods=(method,)
            )
            wall = time.perf_counter() - t0
            cpu = time.process_time() - c0
            solver_s = probe.t_lp + probe.t_conic
            calls = probe.lp + probe.conic
            rows.append(
                {
                    "table": table,
                    "loss": loss,
                    "dataset": dataset,
                    "N": data.N,
                    "M_x": data.M_x,
                    "M_z": data.M_z,
                    "K": data.K,
                    "size": size,
                    "split": split,
                    "folds": folds,
                    "eps_grid": len(E.EPS_GRID_TABLES),
                    "alpha_grid": len(ALPHA[alpha]),
                    "method": method,
                    "seconds": round(wall, 3),
                    "cpu_seconds": round(cpu, 3),
                    "cp_runs": row["solves"],
                    "solver_calls": calls,
                    "lp_calls": probe.lp,
                    "conic_calls": probe.conic,
                    "solver_seconds": round(solver_s, 3),
                    "ms_per_solver_call": round(1e3 * solver_s / max(calls, 1), 2),
                    "separation_seconds": round(probe.t_sep, 3),
                    "rounds": row["rounds"],
                    "cuts": row["cuts"],
                    "status": row["status"],
                    "test_metric": row["test_metric"],
                }
            )
    finally:
        probe.uninstall()
    total = {
        k: rows[0][k]
        for k in (
            "table",
            "loss",
            "dataset",
            "N",
            "M_x",
            "M_z",
            "K",
            "size",
            "split",
            "folds",
            "eps_grid",
            "alpha_grid",
        )
    }
    total.update(method="cell", status="")
    for k in (
        "seconds",
        "cpu_seconds",
        "cp_runs",
        "solver_calls",
        "lp_calls",
        "conic_calls",
        "solver_seconds",
        "separation_seconds",
        "rounds",
        "cuts",
    ):
        total[k] = round(sum(r[k] for r in rows), 3)
    total["ms_per_solver_call"] = round(1e3 * total["solver_seconds"] / max(total["solver_calls"], 1), 2)
    return rows + [total]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, nargs="*", default=sorted(CELLS), choices=sorted(CELLS))
    parser.add_argument("--size", default="full", choices=("full", "half"))
    parser.add_argument("--split", type=int, default=0)
    parser.add_argument("--folds", type=int, default=3, help="CV folds (the paper notebook: 3)")
    parser.add_argument(
        "--alpha",
        default="notebook",
        choices=sorted(ALPHA),
        help="alpha grid: the paper notebook's 3 values or the thesis's 13",
    )
    parser.add_argument(
        "--datasets",
        nargs="*",
        default=None,
        help="profile these sets (or 'all') in every selected table of their task",
    )
    parser.add_argument("--out", default=str(OUT / "wasserstein_mixed_cells.csv"))
    args = parser.parse_args(argv)
    if args.datasets is None:
        pairs = [(t, CELLS[t]) for t in args.tables]
    else:
        names = [d for d, (_, tab) in UCI_SETS.items() if tab is not None]
        names = names if args.datasets == ["all"] else args.datasets
        pairs = [(t, d) for t in args.tables for d in names if UCI_SETS[d][0] == LOSS_TASK[TABLE_LOSS[t]]]
    rows = []
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    for t, d in pairs:
        cell = profile_cell(t, d, size=args.size, split=args.split, folds=args.folds, alpha=args.alpha)
        rows += cell
        c = cell[-1]
        print(
            f"Table {t} {d:14s} {args.size}: {c['seconds']:7.1f} s ({c['cpu_seconds']:.1f} s CPU), "
            f"{c['cp_runs']} cutting-plane runs, {c['solver_calls']} solves ({c['lp_calls']} LP, "
            f"{c['conic_calls']} conic), {c['ms_per_solver_call']} ms/solve, "
            f"separation {c['separation_seconds']} s",
            flush=True,
        )
        frame = pd.DataFrame(rows).assign(machine=platform.node())
        frame.to_csv(args.out, index=False)  # after every cell: an interrupted run keeps what finished
    print(frame[frame.method != "cell"].groupby("table")[["seconds"]].sum().to_string())
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
