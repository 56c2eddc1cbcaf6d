"""Per-cell cost of thesis Tables 27-33 (``robust_lr_aux.cv``): one cell per table, per method.

    python benchmarks/bench_robust_lr_aux_cells.py                  # one cell per table (≈ 5 min)
    python benchmarks/bench_robust_lr_aux_cells.py --tables 27 33   # a subset
    python benchmarks/bench_robust_lr_aux_cells.py --thesis-grid    # 11 radii, 3 kappas, 5 folds
    python benchmarks/bench_robust_lr_aux_cells.py --tables 27 --dataset contraceptive \
        --out benchmarks/results/robust_lr_aux_cells_contraceptive.csv
    python benchmarks/bench_robust_lr_aux_cells.py --tables 27 --dataset breast-cancer --cg-threshold 40000 \
        --out benchmarks/results/robust_lr_aux_cells_one_program.csv   # Inter-ARO* as one program

A cell is one simulation (one data set / attack / alpha and one seed) with every method cross-validated
over its grid and refitted, at the paper notebooks' settings (``--thesis-grid``: the thesis's grids).
Table 29 prints data sizes only and has no cell.  Per method the script records the wall and CPU time,
the conic solves (``solves``: every cvxpy solve through the Clarabel ladder, retries included), the
time inside the solver (the solver's own ``solve_time``) and inside ``solve`` (solver + cvxpy
canonicalisation), the Inter-ARO* constraint-generation runs and their rounds.  Rows go to
``benchmarks/results/robust_lr_aux_cells.csv`` (``--out``), with a ``cell`` row per cell (the sum).
Times are wall-clock and process CPU on a machine shared with other jobs.
"""

from __future__ import annotations

import argparse
import platform
import time
from pathlib import Path

import pandas as pd

from safeguarded.robust_lr_aux import cv
from safeguarded.robust_lr_aux import models as M

OUT = Path(__file__).resolve().parent / "results"
W = cv.THESIS_WEIGHTS
#: the paper notebooks' grids (robust_lr_aux_{uci_tables27_30_31, mnist_tables28_32, artificial_...})
UCI_GRIDS = dict(
    eps=(1e-3, 1e-2, 1e-1, 1.0),
    eps_inter=(1e-2, 1e-1),
    eps_hat=(1.0, 10.0),
    weights=W,
    kappas=("1",),
    folds=3,
)
MNIST_GRIDS = dict(
    eps=(1e-3, 1e-2, 1e-1, 1.0), eps_inter=(1.0, 10.0), eps_hat=(1.0, 10.0), weights=W, kappas=("1",), folds=3
)
ART_GRIDS = dict(
    eps=(1e-3, 1e-2, 1e-1, 1.0),
    eps_inter=(1e-2, 1e-1, 1.0),
    eps_hat=(1.0, 10.0),
    weights=W,
    kappas=("1",),
    folds=3,
)
THESIS_GRIDS = dict(
    eps=cv.THESIS_RADII,
    eps_inter=None,
    eps_hat=cv.THESIS_RADII,
    weights=W,
    kappas=("1", "sqrt_n", "n"),
    folds=5,
)
MNIST_ALPHA = {"none": 0.0, "l1": 68 / 255, "l2": 128 / 255, "linf": 8 / 255}

#: table -> (what the cell is, function, its arguments without the grids, the notebook's grids)
CELLS = {
    27: ("ecoli, alpha 0.05", cv.uci_cell, dict(dataset="ecoli", alpha=0.05), UCI_GRIDS),
    28: (
        "MNIST substitute, l2 attack",
        cv.mnist_cell,
        dict(attack="l2", alpha=MNIST_ALPHA["l2"], N=40, N_hat=40),
        MNIST_GRIDS,
    ),
    30: ("spect, alpha 0.2", cv.uci_cell, dict(dataset="spect", alpha=0.2), UCI_GRIDS),
    31: ("audiology, alpha 0", cv.uci_cell, dict(dataset="audiology", alpha=0.0), UCI_GRIDS),
    32: (
        "MNIST substitute, linf attack (DRO++)",
        cv.mnist_cell,
        dict(attack="linf", alpha=MNIST_ALPHA["linf"], N=40, N_hat=40),
        MNIST_GRIDS,
    ),
    33: (
        "artificial, alpha 0.1",
        cv.artificial_cell,
        dict(alpha=0.1, N=30, N_hat=60, N_test=10000, n=10),
        ART_GRIDS,
    ),
}


class _Probe:
    """Wrap ``models.solve`` (every conic solve) and ``cv.fit_inter_aro_cg`` to count and time them."""

    def __init__(self):
        self._orig = (M.solve, cv.fit_inter_aro_cg, cv.cross_validate)
        self.per_method: dict[str, dict] = {}
        self.current = None

    def _stats(self):
        return self.per_method.setdefault(
            self.current,
            dict(solves=0, solver_s=0.0, solve_wall_s=0.0, cg_runs=0, cg_rounds=0, wall=0.0, cpu=0.0),
        )

    def install(self):
        solve, cg, crossval = self._orig
        probe = self

        def timed_solve(*a, **k):
            t = time.perf_counter()
            try:
                rec = solve(*a, **k)
            finally:
                s = probe._stats()
                s["solves"] += 1
                s["solve_wall_s"] += time.perf_counter() - t
            s["solver_s"] += rec.solve_time or 0.0
            return rec

        def timed_cg(*a, **k):
            fit = cg(*a, **k)
            s = probe._stats()
            s["cg_runs"] += 1
            s["cg_rounds"] += fit.extra.get("rounds", 0)
            return fit

        def timed_cv(method, *a, **k):
            probe.current = method
            t, c = time.perf_counter(), time.process_time()
            try:
                return crossval(method, *a, **k)
            finally:
                s = probe._stats()
                s["wall"] += time.perf_counter() - t
                s["cpu"] += time.process_time() - c

        M.solve, cv.fit_inter_aro_cg, cv.cross_validate = timed_solve, timed_cg, timed_cv

    def uninstall(self):
        M.solve, cv.fit_inter_aro_cg, cv.cross_validate = self._orig


def profile_cell(table: int, *, seed: int, thesis_grid: bool, dataset: str | None = None,
                 cg_threshold: int | None = None) -> list[dict]:
    what, func, args, grids = CELLS[table]
    if dataset is not None and "dataset" in args:
        args = {**args, "dataset": dataset}
        what = f"{dataset}, alpha {args['alpha']:g}"
    if cg_threshold is not None:  # Inter-ARO* on all N * N_hat pairs at once up to this many (uci_cell)
        args = {**args, "cg_threshold": cg_threshold}
    grids = dict(THESIS_GRIDS if thesis_grid else grids)
    probe = _Probe()
    probe.install()
    t0, c0 = time.perf_counter(), time.process_time()
    try:
        rows = func(**args, **grids, seed=seed)
    finally:
        probe.uninstall()
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    base = dict(
        table=table,
        cell=what,
        seed=seed,
        folds=grids["folds"],
        radii=len(grids["eps"]),
        kappas=len(grids["kappas"]),
        grid="thesis" if thesis_grid else "notebook",
        cg_threshold=args.get("cg_threshold", "default"),
    )
    out = []
    for r in rows:
        s = probe.per_method.get(r["method"], {})
        out.append(
            {
                **base,
                "method": r["method"],
                "seconds": round(s.get("wall", float("nan")), 3),
                "cpu_seconds": round(s.get("cpu", float("nan")), 3),
                "candidates": r.get("n_candidates"),
                "solves": s.get("solves", 0),
                "solver_seconds": round(s.get("solver_s", 0.0), 3),
                "solve_call_seconds": round(s.get("solve_wall_s", 0.0), 3),
                "ms_per_solve": round(1e3 * s.get("solve_wall_s", 0.0) / max(s.get("solves", 0), 1), 2),
                "cg_runs": s.get("cg_runs", 0),
                "cg_rounds": s.get("cg_rounds", 0),
                "status": r.get("status"),
                "error": r.get("error"),
            }
        )
    total = {**base, "method": "cell", "seconds": round(wall, 3), "cpu_seconds": round(cpu, 3)}
    for k in ("solves", "solver_seconds", "solve_call_seconds", "cg_runs", "cg_rounds"):
        total[k] = round(sum(o[k] for o in out), 3)
    total["ms_per_solve"] = round(1e3 * total["solve_call_seconds"] / max(total["solves"], 1), 2)
    return out + [total]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, nargs="*", default=sorted(CELLS), choices=sorted(CELLS))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--thesis-grid", action="store_true", help="the thesis's grids (11 radii, 3 kappas, 5-fold)"
    )
    parser.add_argument("--dataset", default=None, help="another data set for the UCI tables 27, 30, 31")
    parser.add_argument("--cg-threshold", type=int, default=None,
                        help="UCI tables: solve Inter-ARO* as one program up to this many (i, j) pairs")
    parser.add_argument("--out", default=str(OUT / "robust_lr_aux_cells.csv"))
    args = parser.parse_args(argv)
    rows = []
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    for t in args.tables:
        cell = profile_cell(t, seed=args.seed, thesis_grid=args.thesis_grid, dataset=args.dataset,
                            cg_threshold=args.cg_threshold)
        rows += cell
        c = cell[-1]
        print(
            f"Table {t} ({c['cell']}): {c['seconds']:.1f} s ({c['cpu_seconds']:.1f} s CPU), {c['solves']} "
            f"conic solves, {c['ms_per_solve']} ms per solve ({c['solver_seconds']:.1f} s in the solver), "
            f"{c['cg_runs']} Inter-ARO* generations / {c['cg_rounds']} rounds",
            flush=True,
        )
        pd.DataFrame(rows).assign(machine=platform.node()).to_csv(args.out, index=False)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
