"""Why spambase is a gap row of thesis Tables 27/30/31: Inter-ARO* on one spambase fold, measured.

    python benchmarks/bench_robust_lr_aux_spambase.py               # ≈ 10 min on a shared core
    python benchmarks/bench_robust_lr_aux_spambase.py --k 3 6       # fewer restricted solves
    python benchmarks/bench_robust_lr_aux_spambase.py --k --bundle  # the level bundle method only

One fold of the uci notebook's cross-validation of DRO+ARO+Aux (simulation ``--seed``, the fold split of
``cv.cross_validate``), α = 0.05, (ε, ε̂) = (0.1, 10), κ = 1: N = 460 training rows against N̂ = 2070
auxiliary rows, so Theorem 11 has 952,200 (i, j) pairs (× 2 labels).  Rows of the output:

* ``restricted``: Inter-ARO* (``models.build_inter_aro``) on each row's ``k`` ℓ₁-nearest auxiliary rows,
  for each ``--k`` — the pair counts the constraint generation of ``models.fit_inter_aro_cg`` passes
  through (it doubles the pairs it adds per row each round) — with the build and solve times and how
  many of the 952,200 pairs the solution still violates (> 1e-5, ``models.inter_aro_violations``);
* ``exact_lp``: the exact objective at the last restricted solution (``models.inter_aro_exact_objective``:
  one HiGHS LP over all pairs), the certificate every generation ends with;
* ``bundle``: the same fit by the level bundle method (``inter_aro_bundle.InterAroBundle``, ``--bundle``):
  its steps, its time split (pair costs, the warm-started LP of V, the QP steps) and its certified gap.

A cross-validated cell solves Inter-ARO* 13 times (3 folds × 4 radius pairs, then the refit), so the
times here bound a cell's cost from below.  Times are wall-clock on a machine shared with other jobs.
"""

from __future__ import annotations

import argparse
import platform
import time
from pathlib import Path

import numpy as np
import pandas as pd

from safeguarded.experiments import rng_for
from safeguarded.robust_lr_aux import cv
from safeguarded.robust_lr_aux import data as D
from safeguarded.robust_lr_aux import models as M
from safeguarded.robust_lr_aux.inter_aro_bundle import InterAroBundle

OUT = Path(__file__).resolve().parent / "results"
ALPHA, EPS, EPS_HAT, KAPPA = 0.05, 0.1, 10.0, 1.0


def fold(seed: int) -> tuple[np.ndarray, ...]:
    """The first cross-validation fold's training rows and the auxiliary rows (as ``cv.cross_validate``)."""
    data = D.uci_simulation("spambase", rng_for(seed))
    train, _ = cv.kfold(rng_for(seed, 1000 + cv.METHODS.index("DRO+ARO+Aux")), len(data["y"]), 3)[0]
    return data["X"][train], data["y"][train], data["X_aux"], data["y_aux"]


def nearest_pairs(X: np.ndarray, X_aux: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Each row's ``k`` ℓ₁-nearest auxiliary rows (the generation's start set for ``k`` = its ``start``)."""
    dist = np.abs(X[:, None, :] - X_aux[None, :, :]).sum(axis=2)
    J = np.argsort(dist, axis=1, kind="stable")[:, :k]
    return np.repeat(np.arange(len(X)), k), J.ravel()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--k", type=int, nargs="*", default=[3, 6, 12])
    parser.add_argument("--bundle", action="store_true", help="also fit by the level bundle method")
    parser.add_argument("--out", default=str(OUT / "robust_lr_aux_spambase.csv"))
    args = parser.parse_args(argv)
    X, y, X_aux, y_aux = fold(args.seed)
    base = {"seed": args.seed, "N": len(y), "N_hat": len(y_aux), "all_pairs": len(y) * len(y_aux)}
    rows, fit = [], None
    for k in args.k:
        start = time.perf_counter()
        model = M.build_inter_aro(X, y, X_aux, y_aux, p=2, pairs=nearest_pairs(X, X_aux, k), beta_bound=100.0)
        built = time.perf_counter()
        fit = model.fit(accept_inaccurate=True, alpha=ALPHA, eps=EPS, eps_hat=EPS_HAT, kappa=KAPPA)
        solved = time.perf_counter()
        violation = M.inter_aro_violations(fit, X, y, X_aux, y_aux, alpha=ALPHA, kappa=KAPPA)
        rows.append({**base, "step": "restricted", "k": k, "pairs": len(y) * k,
                     "build_seconds": round(built - start, 2), "solve_seconds": round(solved - built, 2),
                     "solver": fit.records[-1].solver, "status": fit.records[-1].status,
                     "objective": fit.objective, "violated_pairs": int((violation > 1e-5).sum()),
                     "max_violation": float(violation.max()),
                     "violation_seconds": round(time.perf_counter() - solved, 2)})
        print(rows[-1], flush=True)
    if fit is not None:
        start = time.perf_counter()
        exact, _, _ = M.inter_aro_exact_objective(fit, X, y, X_aux, y_aux, alpha=ALPHA, eps=EPS,
                                                  eps_hat=EPS_HAT, kappa=KAPPA)
        rows.append({**base, "step": "exact_lp", "pairs": len(y) * len(y_aux), "objective": exact,
                     "solve_seconds": round(time.perf_counter() - start, 2), "solver": "HIGHS"})
        print(rows[-1], flush=True)
    if args.bundle:
        start = time.perf_counter()
        bundle = InterAroBundle(X, y, X_aux, y_aux, alpha=ALPHA, kappa=KAPPA)
        fit = bundle.fit(EPS, EPS_HAT)
        rows.append({**base, "step": "bundle", "pairs": len(y) * len(y_aux), "objective": fit.objective,
                     "lower_bound": fit.extra["lower_bound"], "steps": fit.extra["steps"],
                     "solve_seconds": round(time.perf_counter() - start, 2), "solver": bundle.solver_label,
                     **{f"{k}_seconds": round(v, 2) for k, v in bundle.seconds.items()}})
        print(rows[-1], flush=True)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    pd.DataFrame(rows).assign(machine=platform.node()).to_csv(args.out, index=False)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
