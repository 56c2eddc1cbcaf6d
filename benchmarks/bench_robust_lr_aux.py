"""Inter-ARO* (thesis §4, Theorem 11): literal model vs the z-eliminated model vs constraint generation.

Times one solve of each formulation on Algorithm-11 data (ℓ₂ attack α = 0.2, ε = ε̂ = 0.1, κ = 1) for a
few sizes and prints the objective values (they agree to the solver tolerance where all three run) and the
wall times (model build included).  Not part of CI; run it alone
(``python benchmarks/bench_robust_lr_aux.py``), under the heavy lock on the shared machine.
Results are written to ``benchmarks/results/robust_lr_aux.csv``.
"""

from __future__ import annotations

import time
from pathlib import Path

import pandas as pd

from safeguarded.experiments import rng_for
from safeguarded.robust_lr_aux import data, models
from safeguarded.solvers import SolverError

SIZES = [(5, 5, 5), (10, 10, 5), (10, 20, 10), (20, 40, 10), (30, 60, 20)]  # (N, N_hat, n)
KW = dict(alpha=0.2, eps=0.1, eps_hat=0.1, kappa=1.0)


def _time(label, func):
    start = time.perf_counter()
    try:
        fit = func()
        return {"formulation": label, "seconds": time.perf_counter() - start, "objective": fit.objective,
                "status": "solved"}
    except (SolverError, RuntimeError) as exc:
        return {"formulation": label, "seconds": time.perf_counter() - start, "objective": float("nan"),
                "status": f"failed: {type(exc).__name__}"}


def main() -> pd.DataFrame:
    rows = []
    for N, N_hat, n in SIZES:
        d = data.artificial_data(rng_for(0, N, N_hat, n), N=N, N_hat=N_hat, N_test=1, n=n)
        args = (d["X"], d["y"], d["X_aux"], d["y_aux"])
        runs = []
        if N * N_hat * n <= 2000:
            runs.append(_time("literal (Theorem 11)",
                              lambda a=args: models.build_inter_aro_literal(*a).fit(**KW)))
        runs.append(_time("reduced, all pairs", lambda a=args: models.build_inter_aro(*a).fit(**KW)))
        runs.append(_time("reduced, constraint generation",
                          lambda a=args: models.fit_inter_aro_cg(*a, start=3, add=3, tol=1e-5, **KW)))
        rows += [{"N": N, "N_hat": N_hat, "n": n, **r} for r in runs]
        for r in runs:
            print(f"N={N:3d} N_hat={N_hat:3d} n={n:3d} {r['formulation']:32s} {r['seconds']:8.2f} s "
                  f"obj={r['objective']:.6f} {r['status']}", flush=True)
    table = pd.DataFrame(rows)
    out = Path(__file__).parent / "results"
    out.mkdir(exist_ok=True)
    table.to_csv(out / "robust_lr_aux.csv", index=False)
    return table


if __name__ == "__main__":
    main()
