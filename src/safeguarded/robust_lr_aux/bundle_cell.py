"""Cells of Tables 27/30/31 whose Inter-ARO* is fitted by the bundle method (contraceptive, spambase).

:func:`uci_bundle_cell` is :func:`cv.uci_cell` — the same data, split, folds, grids, candidates, selection
rule and random streams — except that DRO+ARO+Aux (Inter-ARO*, Theorem 11) is fitted by
:class:`~safeguarded.robust_lr_aux.inter_aro_bundle.InterAroBundle`, one instance per (fold, κ) shared by
that fold's (ε, ε̂) candidates, instead of one conic program or constraint generation.  ERM, ARO, ARO+Aux
and DRO+ARO run through :func:`cv.run_methods` unchanged.  It is a second cell rather than an option of
``cv`` because ``cv``'s source is part of the cache key of every cached robust_lr_aux cell.
"""

from __future__ import annotations

import time

import numpy as np

from safeguarded.experiments import rng_for
from safeguarded.robust_lr_aux import cv
from safeguarded.robust_lr_aux import data as D
from safeguarded.robust_lr_aux.inter_aro_bundle import InterAroBundle
from safeguarded.robust_lr_aux.losses import attacked_error, check_attack_norm, check_data
from safeguarded.robust_lr_aux.models import check_beta_bound
from safeguarded.robust_lr_aux.transport import wasserstein_distance
from safeguarded.solvers import SolverError
from safeguarded.validation import check_integer, check_positive, check_rng, check_type

__all__ = ["cross_validate_bundle", "uci_bundle_cell"]

METHOD = "DRO+ARO+Aux"


def _fit_all(X, y, X_aux, y_aux, cands, *, alpha, p, beta_bound, gap) -> list:
    """Fits for every candidate (None where the fit failed), one bundle per κ."""
    fits, bundles = [], {}
    for cand in cands:
        k = cand["kappa"]
        if k not in bundles:
            bundles[k] = InterAroBundle(X, y, X_aux, y_aux, alpha=alpha, kappa=k, p=p, beta_bound=beta_bound)
        try:
            fits.append(bundles[k].fit(cand["eps"], cand["eps_hat"], gap=gap))
        except (SolverError, RuntimeError):  # an LP/QP failure or a gap that did not close
            fits.append(None)
    return fits


def cross_validate_bundle(X, y, X_aux, y_aux, *, alpha, grids: cv.Grids, rng, p=2, beta_bound=100.0,
                          gap: float = 1e-6) -> dict:
    """:func:`cv.cross_validate` of DRO+ARO+Aux with the bundle fits (same folds, order and ties)."""
    start = time.perf_counter()
    X, y, X_aux, y_aux = check_data(X, y, X_aux, y_aux)
    alpha = check_positive("alpha", alpha, allow_zero=True)
    check_type("grids", grids, cv.Grids, "a Grids")
    check_rng("rng", rng)
    p = check_attack_norm(p)
    beta_bound = check_beta_bound(beta_bound)
    gap = check_positive("gap", gap)
    for name, values in (("grids.eps_inter", grids.eps_inter or grids.eps), ("grids.eps_hat", grids.eps_hat)):
        for v in values:
            check_positive(name, v)  # the bundle bounds λ by F/ε and λ̂ by F/ε̂
    kappas = cv.kappa_values(grids.kappas, X.shape[1])
    W = {k: wasserstein_distance(X, y, X_aux, y_aux, kappa=k) for k in kappas}
    cands = cv._candidates(METHOD, grids, kappas, W, alpha)
    if not cands:
        raise cv.EmptyGridError(f"{METHOD}: the radius filter eps + eps_hat >= W leaves no pair (W = {W})")
    n_failed, cv_error, best = 0, float("nan"), 0
    if len(cands) > 1:
        errors, ok = np.zeros(len(cands)), np.ones(len(cands), dtype=bool)
        for train, valid in cv.kfold(rng, len(y), grids.folds):
            alive = np.flatnonzero(ok)
            fits = _fit_all(X[train], y[train], X_aux, y_aux, [cands[c] for c in alive], alpha=alpha, p=p,
                            beta_bound=beta_bound, gap=gap)
            for c, fit in zip(alive, fits, strict=True):
                if fit is None:
                    ok[c] = False
                    n_failed += 1
                    continue
                errors[c] += attacked_error(fit.beta, X[valid], y[valid], alpha, p) / grids.folds
        if not ok.any():
            raise SolverError(f"robust_lr_aux.bundle_cell.{METHOD}", "POT-EMD+HIGHS+CLARABEL",
                              "every candidate failed")
        best = int(np.argmin(np.where(ok, errors, np.inf)))
        cv_error = float(errors[best])
    (fit,) = _fit_all(X, y, X_aux, y_aux, [cands[best]], alpha=alpha, p=p, beta_bound=beta_bound, gap=gap)
    if fit is None:
        raise SolverError(f"robust_lr_aux.bundle_cell.{METHOD}", "POT-EMD+HIGHS+CLARABEL", "the refit failed",
                          f"candidate {cands[best]}")
    record = fit.records[-1]
    return {"beta": fit.beta, "params": cands[best], "cv_error": cv_error, "n_candidates": len(cands),
            "n_failed": n_failed, "W": W, "solver": record.solver, "solver_version": record.solver_version,
            "objective": fit.objective, "lower_bound": fit.extra["lower_bound"],
            "time": time.perf_counter() - start}


def _bundle_row(data: dict, *, alpha, grids, seed, beta_bound, gap) -> dict:
    """The DRO+ARO+Aux row of :func:`cv.run_methods` (its random stream: method index 4)."""
    try:
        out = cross_validate_bundle(data["X"], data["y"], data["X_aux"], data["y_aux"], alpha=alpha,
                                    grids=grids, rng=rng_for(seed, 1000 + cv.METHODS.index(METHOD)),
                                    beta_bound=beta_bound, gap=gap)
    except cv.EmptyGridError as exc:
        return {"method": METHOD, "error": np.nan, "status": "empty grid", "note": str(exc)}
    except SolverError as exc:
        return {"method": METHOD, "error": np.nan, "status": "solver failure", "note": str(exc)}
    prm = out["params"]
    error = 100.0 * attacked_error(out["beta"], data["X_test"], data["y_test"], alpha, 2)
    return {"method": METHOD, "error": error, "cv_error": 100.0 * out["cv_error"], "w": np.nan,
            "eps": prm["eps"], "eps_hat": prm["eps_hat"], "kappa": prm["kappa"], "W": out["W"][prm["kappa"]],
            "n_candidates": out["n_candidates"], "n_failed": out["n_failed"],
            "beta_norm_inf": float(np.abs(out["beta"]).max()), "time": out["time"],
            "solver": out["solver"], "solver_version": out["solver_version"], "status": "ok",
            "note": f"refit objective {out['objective']:.8f}, certified lower bound {out['lower_bound']:.8f}"}


def uci_bundle_cell(dataset, alpha, eps, eps_hat, weights, kappas, folds, eps_inter=None, beta_bound=100.0,
                    max_aux=None, gap=1e-6, seed=0):
    """One (data set, α, simulation) of Tables 27/30/31 as :func:`cv.uci_cell`, Inter-ARO* by the bundle."""
    if not isinstance(dataset, str) or dataset not in D.UCI_DATASETS or dataset in D.UCI_UNAVAILABLE:
        available = [k for k in D.UCI_DATASETS if k not in D.UCI_UNAVAILABLE]
        raise ValueError(f"dataset must be one of the available sets {available}, got dataset={dataset!r}")
    grids = cv._grids(eps, eps_hat, weights, kappas, folds, eps_inter)
    cv._check_run(alpha, 2, grids, seed, beta_bound, 0)
    for name, values in (("eps_inter", grids.eps_inter or grids.eps), ("eps_hat", grids.eps_hat)):
        for v in values:
            check_positive(name, v)  # the bundle bounds λ by F/ε and λ̂ by F/ε̂
    gap = check_positive("gap", gap)
    if max_aux is not None:
        check_integer("max_aux", max_aux, minimum=1)
    data = D.uci_simulation(dataset, rng_for(seed))
    if max_aux is not None:
        data["X_aux"], data["y_aux"] = data["X_aux"][:max_aux], data["y_aux"][:max_aux]
    rows = cv.run_methods(data, alpha=alpha, p=2, methods=cv.METHODS[:4], grids=grids, seed=seed,
                          beta_bound=beta_bound)
    rows.append(_bundle_row(data, alpha=alpha, grids=grids, seed=seed, beta_bound=beta_bound, gap=gap))
    sizes = {"N": len(data["y"]), "N_hat": len(data["y_aux"]), "N_test": len(data["y_test"]),
             "n": data["X"].shape[1]}
    return [{**r, **sizes} for r in rows]
