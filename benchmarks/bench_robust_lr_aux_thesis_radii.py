"""DRO+ARO+Aux where our reduced radius grid is empty (dermatology, spambase): the thesis's radii, measured.

    python benchmarks/bench_robust_lr_aux_thesis_radii.py                       # one cell per set
    python benchmarks/bench_robust_lr_aux_thesis_radii.py --datasets dermatology --alphas 0 0.05 0.2 \
        --seeds 0 1 2 3 4 5 6 7 8 9                                             # all 30 cells
    python benchmarks/bench_robust_lr_aux_thesis_radii.py --datasets spambase \
        --out benchmarks/results/robust_lr_aux_thesis_radii_spambase.csv        # ≈ 66 min a cell

    python benchmarks/bench_robust_lr_aux_thesis_radii.py --distances --seeds 0 1 2 3 4 5 6 7 8 9   # W only

(The stored spambase row was measured before the ``status``, ``beta_norm_inf`` and
``test_predicted_positive`` columns existed; its other columns are the same.)

Spambase, measured again with the transport subproblems by POT's network simplex
(``robust_lr_aux_thesis_radii_spambase_pot.csv``, 2026-11-29): the cell takes 40–53 s against 3,961 s. At
the surviving pairs (5, 10), (10, 5), (10, 10) every fit's certified optimum is the trivial classifier:
F* = log 2 (F(β = 0, λ = λ̂ = 0) = log 2, and the lower bound meets it to 1e-9), ‖β‖∞ ≈ 1e-7. The
chosen pair and the test error (52.5 %, then 28.4 % and 37.4 % in two runs of the new code) are those of a
classifier of norm 1e-7 whose direction the solver path decides: they are not results, like dermatology's
β = 0 (``tests/test_robust_lr_aux_bundle.py``,
``test_at_large_radii_the_certified_optimum_is_the_trivial_classifier``).

Tables 27/30/31 discard the (ε, ε̂) pairs with ε + ε̂ < W(P_N, P̂_N̂) (§4.7.1, L4267). On dermatology
(W = 18.3-20.8) and spambase (W = 14.4-15.1) every pair of the uci notebook's reduced Inter-ARO* grid
(ε ∈ {0.01, 0.1}, ε̂ ∈ {1, 10}) falls below W, so DRO+ARO+Aux has no value there (status ``empty
grid``). On the thesis's grid (``cv.THESIS_RADII`` for both radii, κ = 1) only pairs whose two radii
are 5 or 10 can reach a W above 12, so this script cross-validates DRO+ARO+Aux over the thesis's positive
radii (the filter leaves exactly the thesis's surviving pairs; 0 cannot survive, since the other radius is at
most 10) with the notebook's folds, random streams and solvers: constraint generation on dermatology,
the level bundle method on spambase (``bundle_cell.cross_validate_bundle``).

Per (data set, α, simulation) a row records W, the surviving pairs (``none``, status ``empty grid``:
the thesis's grid is empty too), the chosen pair, the attacked test error (%), ‖β‖∞ and the share of
test rows the unattacked classifier calls positive (a constant classifier: 0 or 1), and the wall time of the
cross-validation and refit: the per-cell time and the count a notebook run at the thesis's radii costs.
Rows go to ``benchmarks/results/robust_lr_aux_thesis_radii.csv`` (``--out``); times are wall-clock on a
machine that may be shared. ``--distances`` fits nothing: per simulation it records W from the training rows
to the synthetic rows and to the real test rows (``..._distances.csv``), the part of W a perfect
synthesiser would leave.
"""

from __future__ import annotations

import argparse
import platform
from pathlib import Path

import numpy as np
import pandas as pd

from safeguarded.experiments import rng_for
from safeguarded.robust_lr_aux import cv
from safeguarded.robust_lr_aux import data as D
from safeguarded.robust_lr_aux.bundle_cell import cross_validate_bundle
from safeguarded.robust_lr_aux.losses import attacked_error
from safeguarded.robust_lr_aux.transport import radius_pairs, wasserstein_distance

OUT = Path(__file__).resolve().parent / "results"
METHOD = "DRO+ARO+Aux"
#: the uci notebook's paper grids, with the thesis's positive radii for Inter-ARO*
RADII = tuple(r for r in cv.THESIS_RADII if r > 0)
GRIDS = cv.Grids(eps=(1e-3, 1e-2, 1e-1, 1.0), eps_hat=RADII, weights=cv.THESIS_WEIGHTS, kappas=("1",),
                 folds=3, eps_inter=RADII)
BUNDLE = ("contraceptive", "spambase")  # as the uci notebook


def cell(dataset: str, alpha: float, seed: int) -> dict:
    """One (data set, α, simulation): DRO+ARO+Aux cross-validated at the thesis's radii, refitted, tested."""
    data = D.uci_simulation(dataset, rng_for(seed))
    rng = rng_for(seed, 1000 + cv.METHODS.index(METHOD))  # the notebook's stream for this method
    args = (data["X"], data["y"], data["X_aux"], data["y_aux"])
    row = {"dataset": dataset, "alpha": alpha, "seed": seed, "N": len(data["y"]), "N_hat": len(data["y_aux"])}
    try:
        if dataset in BUNDLE:
            out = cross_validate_bundle(*args, alpha=alpha, grids=GRIDS, rng=rng)
        else:
            out = cv.cross_validate(METHOD, *args, alpha=alpha, grids=GRIDS, rng=rng, beta_bound=100.0)
    except cv.EmptyGridError:  # the thesis's grid is empty too: a recorded missing value, as in the notebook
        W = wasserstein_distance(*args, kappa=1.0)  # the exception names W only in its message
        return {**row, "W": W, "thesis_pairs_surviving": "none", "status": "empty grid", "n_candidates": 0}
    W = out["W"][1.0]
    survivors = radius_pairs(cv.THESIS_RADII, cv.THESIS_RADII, W)
    return {**row, "W": W, "thesis_pairs_surviving": " ".join(f"({e:g},{h:g})" for e, h in survivors),
            "status": "ok", "n_candidates": out["n_candidates"], "n_failed": out["n_failed"],
            "eps": out["params"]["eps"], "eps_hat": out["params"]["eps_hat"],
            "cv_error": 100.0 * out["cv_error"], "seconds": round(out["time"], 1),
            "error": 100.0 * attacked_error(out["beta"], data["X_test"], data["y_test"], alpha, 2),
            "beta_norm_inf": float(np.abs(out["beta"]).max()),
            "test_predicted_positive": float(np.mean(data["X_test"] @ out["beta"] >= 0)),
            "solver": out["solver"], "solver_version": out["solver_version"]}


def distances(dataset: str, seed: int) -> dict:
    """W from the training rows (the filter's metric, κ = 1) to the synthetic rows and to the real test rows.

    The real test rows come from the same data set as the training rows, so their W is what a perfect
    synthesiser would give (up to the sample sizes): the part of W that the synthesiser does not cause.
    """
    data = D.uci_simulation(dataset, rng_for(seed))
    train = (data["X"], data["y"])
    return {"dataset": dataset, "seed": seed, "N": len(data["y"]), "N_hat": len(data["y_aux"]),
            "N_test": len(data["y_test"]), "n": data["X"].shape[1],
            "W_synthetic": wasserstein_distance(*train, data["X_aux"], data["y_aux"], kappa=1.0),
            "W_real_test": wasserstein_distance(*train, data["X_test"], data["y_test"], kappa=1.0)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", nargs="*", default=["dermatology", "spambase"])
    parser.add_argument("--alphas", type=float, nargs="*", default=[0.05])
    parser.add_argument("--seeds", type=int, nargs="*", default=[0])
    parser.add_argument("--distances", action="store_true",
                        help="only W to the synthetic and to the real test rows, per simulation (no fits)")
    parser.add_argument("--out", default=None, help="default: ...thesis_radii[_distances].csv")
    args = parser.parse_args(argv)
    args.out = args.out or str(OUT / f"robust_lr_aux_thesis_radii{'_distances' * args.distances}.csv")
    rows = []
    for dataset in args.datasets:
        for alpha in [None] if args.distances else args.alphas:
            for seed in args.seeds:
                rows.append(distances(dataset, seed) if args.distances else cell(dataset, alpha, seed))
                print(rows[-1], flush=True)
                Path(args.out).parent.mkdir(parents=True, exist_ok=True)
                pd.DataFrame(rows).assign(machine=platform.node()).to_csv(args.out, index=False)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
