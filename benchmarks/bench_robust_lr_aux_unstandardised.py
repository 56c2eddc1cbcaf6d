"""Tables 27/30/31 with the numerical features left unstandardised: one factor of §4.7.1 varied.

    python benchmarks/bench_robust_lr_aux_unstandardised.py                                  # ecoli
    python benchmarks/bench_robust_lr_aux_unstandardised.py --split reversed --alphas 0.05 \
        --out benchmarks/results/robust_lr_aux_unstandardised_reversed.csv                  # App. 4.D.1
    python benchmarks/bench_robust_lr_aux_unstandardised.py --datasets breast-cancer \
        --out benchmarks/results/robust_lr_aux_unstandardised_breast_cancer.csv            # likewise others
    python benchmarks/bench_robust_lr_aux_unstandardised.py --datasets spambase --methods ERM ARO \
        --out benchmarks/results/robust_lr_aux_unstandardised_spambase.csv

L4796 states that the numerical features are standardised, and the Tables 27/30/31 notebook z-scores them
(``data.Encoder``).  On ecoli the finding ``ecoli-not-standardised`` shows ERM's and ARO's printed attacked
errors in the regime of features left on their UCI scale
(``tests/test_claims_causes.py::test_robust_lr_aux_ecoli_errors_need_unstandardised_features``).  This script
varies that one factor for every method whose cross-validation is cheap (ERM, ARO, ARO+Aux, DRO+ARO;
``--methods`` adds DRO+ARO+Aux at minutes a cell): the notebook's simulation (``data.uci_simulation``: the
same permutation of ``rng_for(seed)``, the same Gaussian-copula draw) with the encoder's means set to 0 and
its standard deviations to 1, then each method cross-validated as ``cv.run_methods`` does (the notebook's
grids, folds, random streams and solvers).  Only
the numerical columns change; the one-hot columns and the constant are as in the notebook.

``--split reversed``: App. 4.D.1's reversed split (45 % training, 15 % for the synthesiser; the
side-experiments notebook's ``side_experiments.variant_simulation``), likewise unstandardised.

Rows (one per data set, split, α, simulation and method: the test error (%) under the ℓ₂ attack, the
chosen hyper-parameters, ‖β‖∞, the status) go to ``benchmarks/results/robust_lr_aux_unstandardised.csv``
(``--out``), and a summary per data set, α and method (mean and standard deviation over the simulations,
the number of simulations with a value, the thesis's printed mean and standard deviation and the notebook's
z-scored ones, from ``figures/claims.csv``) to ``..._summary.csv`` beside it.  A refit that returns β ≈ 0
(``cv.DEGENERATE_BETA``) is a failed cell in the notebooks; the summary gives the means with (``all``) and
without (``kept``) such simulations, since the thesis may have averaged them in, and whether ``all``'s mean
and sd lie within the claims' band around the printed values (``printed_mc``: 2 standard errors of the
difference plus half a printed unit).  ``--summarise-only`` rewrites the summary from the rows already in
``--out`` (a run stopped part-way writes its rows after every simulation).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import pandas as pd

from safeguarded.experiments import rng_for
from safeguarded.paths import REPO_ROOT
from safeguarded.robust_lr_aux import cv
from safeguarded.robust_lr_aux import data as D
from safeguarded.robust_lr_aux.losses import attacked_error
from safeguarded.solvers import SolverError

OUT = Path(__file__).resolve().parent / "results" / "robust_lr_aux_unstandardised.csv"
#: the Tables 27/30/31 notebook's paper grids
GRIDS = cv.Grids(eps=(1e-3, 1e-2, 1e-1, 1.0), eps_hat=(1.0, 10.0), weights=cv.THESIS_WEIGHTS, kappas=("1",),
                 folds=3, eps_inter=(1e-2, 1e-1))
CHEAP = ("ERM", "ARO", "ARO+Aux", "DRO+ARO")


def unstandardised_simulation(name: str, rng: np.random.Generator, split: str = "original") -> dict:
    """``data.uci_simulation`` (``split="original"``) or the side experiments' reversed split, with the
    numerical features on their own scale: the same rows, draws and one-hot columns, unscaled numbers."""
    frame = D.raw_uci_frame(name)
    enc = D.Encoder.fit(frame, intercept=True)
    enc.means, enc.stds = np.zeros_like(enc.means), np.ones_like(enc.stds)
    n_tr, n_gen, n_te = D.uci_split_sizes(len(frame))
    if split == "reversed":
        n_tr, n_gen = n_gen, n_tr
    perm = rng.permutation(len(frame))
    test, train, rest = perm[:n_te], perm[n_te : n_te + n_tr], perm[n_te + n_tr :]
    synth = D.GaussianCopula(frame.iloc[rest]).sample(rng, n_gen)
    X, y = enc.transform(frame.iloc[train])
    Xa, ya = enc.transform(synth)
    Xt, yt = enc.transform(frame.iloc[test])
    return {"X": X, "y": y, "X_aux": Xa, "y_aux": ya, "X_test": Xt, "y_test": yt, "total": len(frame)}


def _printed(report: pd.DataFrame, ds: str, alpha: float, method: str, sd: bool, split: str):
    """(thesis, ours z-scored) of the claim row, or (nan, nan)."""
    what = "std. dev. of the error (%)" if sd else "error (%)"
    if split == "reversed":
        claim = f"reversed split, {ds}, alpha = {alpha:g}: {method} {what}"
    else:
        claim = f"{ds}, alpha={float(alpha)!r}: {method} {what}"
    row = report[(report["work"] == "robust_lr_aux") & (report["claim"] == claim)
                 & (report["reference"] == "printed")]
    if row.empty:
        return np.nan, np.nan
    return float(row["paper_value"].iloc[0]), float(row["reproduced_value"].iloc[0])


def summarise(rows: pd.DataFrame) -> pd.DataFrame:
    """Per split, data set, α and method: the unstandardised mean and sd over the simulations with a value
    (``all``) and over those whose refit is not degenerate (``kept``, the notebooks' rule), beside the
    thesis's printed and the notebook's z-scored mean and sd."""
    report = pd.read_csv(REPO_ROOT / "figures" / "claims.csv", dtype=str)
    ok = rows[rows["status"] == "ok"]
    out = []
    for (split, ds, alpha, method), g in ok.groupby(["split", "dataset", "alpha", "method"], sort=False):
        kept = g[g["beta_norm_inf"] > cv.DEGENERATE_BETA]
        thesis, ours = _printed(report, ds, alpha, method, False, split)
        thesis_sd, ours_sd = _printed(report, ds, alpha, method, True, split)
        mean, sd, n = g["error"].mean(), g["error"].std(ddof=1), len(g)
        # the claims' bands (printed_mc): 2 standard errors of the difference plus half a printed unit; the
        # thesis's 10 simulations give its mean's standard error; a standard deviation's is sd / sqrt(2(n-1))
        paper_se = 0.0 if np.isnan(thesis_sd) else thesis_sd / np.sqrt(10)
        band = 2 * np.hypot(sd / np.sqrt(n), paper_se) + 0.005
        sd_band = 2 * sd / np.sqrt(2 * (n - 1)) + 0.005
        out.append({"split": split, "dataset": ds, "alpha": alpha, "method": method, "n_sims": n,
                    "degenerate": len(g) - len(kept), "all": mean, "all sd": sd, "kept": kept["error"].mean(),
                    "kept sd": kept["error"].std(ddof=1), "thesis": thesis, "thesis sd": thesis_sd,
                    "notebook (z-scored)": ours, "notebook sd": ours_sd,
                    "mean within band": None if np.isnan(thesis) else bool(abs(mean - thesis) <= band),
                    "sd within band": None if np.isnan(thesis_sd) else bool(abs(sd - thesis_sd) <= sd_band)})
    return pd.DataFrame(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--datasets", nargs="+", default=["ecoli"])
    ap.add_argument("--alphas", nargs="+", type=float, default=[0.0, 0.05, 0.2])
    ap.add_argument("--seeds", nargs="+", type=int, default=list(range(10)))
    ap.add_argument("--methods", nargs="+", default=list(CHEAP), choices=list(cv.METHODS[:5]))
    ap.add_argument("--split", default="original", choices=["original", "reversed"])
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--summarise-only", action="store_true", help="summarise the rows already in --out")
    args = ap.parse_args()
    if args.summarise_only:
        summary = summarise(pd.read_csv(args.out))
        summary.to_csv(args.out.with_name(args.out.stem + "_summary.csv"), index=False, float_format="%.4f")
        print(summary.to_string(index=False))
        return
    methods = tuple(m for m in cv.METHODS[:5] if m in args.methods)  # the notebook's order: its CV streams
    rows = []
    for ds in args.datasets:
        for alpha in args.alphas:
            for seed in args.seeds:
                start = time.perf_counter()
                data = unstandardised_simulation(ds, rng_for(seed), args.split)
                # run_methods draws method m's folds from rng_for(seed, 1000 + m): m is the notebook's index
                for m, method in enumerate(cv.METHODS[:5]):
                    if method in methods:
                        [r] = _run_one(data, alpha, m, seed)
                        rows.append({"split": args.split, "dataset": ds, "alpha": alpha, "seed": seed, **r})
                print(f"{ds} alpha={alpha:g} seed={seed}: {time.perf_counter() - start:.1f} s", flush=True)
                frame = pd.DataFrame(rows)
                frame.to_csv(args.out, index=False, float_format="%.10g")
    frame = pd.DataFrame(rows)
    summary = summarise(frame)
    summary.to_csv(args.out.with_name(args.out.stem + "_summary.csv"), index=False, float_format="%.4f")
    print(summary.to_string(index=False))


def _run_one(data: dict, alpha: float, m: int, seed: int) -> list[dict]:
    """Method ``m`` of ``cv.METHODS`` cross-validated as ``run_methods`` does at position ``m``."""
    method = cv.METHODS[m]
    start = time.perf_counter()
    try:
        out = cv.cross_validate(method, data["X"], data["y"], data["X_aux"], data["y_aux"], alpha=alpha, p=2,
                                grids=GRIDS, rng=rng_for(seed, 1000 + m), beta_bound=100.0, cg_threshold=2000)
    except (cv.EmptyGridError, SolverError) as exc:
        return [{"method": method, "error": np.nan, "status": type(exc).__name__, "note": str(exc)}]
    prm = out["params"]
    return [{
        "method": method,
        "error": 100.0 * attacked_error(out["beta"], data["X_test"], data["y_test"], alpha, 2),
        "cv_error": 100.0 * out["cv_error"],
        "w": prm.get("w", np.nan),
        "eps": prm.get("eps", prm.get("eps_prime", np.nan)),
        "eps_hat": prm.get("eps_hat", np.nan),
        "kappa": prm.get("kappa", np.nan),
        "beta_norm_inf": float(np.abs(out["beta"]).max()),
        "time": time.perf_counter() - start,
        "solver": out["solver"],
        "status": "ok",
        "note": "",
    }]


if __name__ == "__main__":
    main()
