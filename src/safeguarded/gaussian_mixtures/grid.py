"""The numerical study of thesis Section 2.4 and App. 2.C: sweep cells and table builders.

One sweep cell is one privacy level (eps, delta): it calibrates the analytic Gaussian (from the
Section 1 work), the quasi-Gaussian mechanism (Algorithm 4) and the multi-Gaussian mechanism for
K = 1..K_max (Algorithm 6, eta = 0.01), and returns their sigmas and expected losses.  Tables report
improvements 100% (a - x) / a (the thesis prints "(x - a)/a" but tabulates (a - x)/a: positive =
better than the analytic Gaussian, L2145/L2165).
"""

from __future__ import annotations

import math
import time

import numpy as np
import pandas as pd

from safeguarded.gaussian_mixtures import multi_gaussian as mg
from safeguarded.gaussian_mixtures import privacy
from safeguarded.gaussian_mixtures import quasi_gaussian as qg
from safeguarded.gaussian_mixtures._validate import (
    check_delta,
    check_epsilon,
    check_eta,
    check_k,
    check_sensitivity,
    check_sigma,
)
from safeguarded.validation import (
    check_array,
    check_bool,
    check_choice,
    check_frame,
    check_integer,
    check_positive,
)

__all__ = [
    "EPSILONS",
    "DELTAS",
    "SMALL_EPSILONS",
    "mixture_cell",
    "privacy_check_cell",
    "improvement",
    "best_k",
    "pivot",
    "summary",
    "run_grid",
    "run_privacy_checks",
    "loss_frame",
    "qg_cell",
    "run_qg_grid",
    "qg_frame",
    "section1_bounds",
    "implied_mg_sigma",
]

#: The 10 x 10 grid of Section 2.4 (L2143).
EPSILONS = (0.1, 0.25, 0.5, 0.75, 1.0, 2.0, 3.0, 4.0, 5.0, 10.0)
DELTAS = (1e-4, 5e-4, 1e-3, 5e-3, 0.01, 0.02, 0.05, 0.1, 0.15, 0.25)
#: The small-eps grid of Tables 12 and 17 (the text's "0.005" as last entry is a typo for 0.05, L3008).
SMALL_EPSILONS = (1e-4, 5e-4, 1e-3, 5e-3, 0.01, 0.05)


def analytic_gaussian_sigma(epsilon: float, delta: float, sensitivity: float = 1.0) -> float:
    """The Section 1 work's analytic Gaussian calibration (imported, never copied)."""
    return mg.analytic_gaussian_sigma(epsilon, delta, sensitivity)


def mixture_cell(
    epsilon: float, delta: float, k_max: int = 10, eta: float = 0.01, sensitivity: float = 1.0, seed: int = 0
) -> list[dict]:
    """Calibrate AG, QG and MG(K = 1..k_max) at (eps, delta); one row per mechanism (and K).

    Deterministic (``seed`` is unused; it is part of the sweep interface).  MG calibrations are
    warm-started from the previous K (the bracket is verified, see :func:`multi_gaussian.calibrate`).
    """
    e, dl, km, et = check_epsilon(epsilon), check_delta(delta), check_k(k_max, "k_max"), check_eta(eta)
    check_sensitivity(sensitivity)
    check_integer("seed", seed, minimum=0)
    rows = []
    t0 = time.perf_counter()
    s_ag = analytic_gaussian_sigma(e, dl, sensitivity)
    rows.append(
        dict(
            mechanism="AG",
            k=0,
            sigma=s_ag,
            amplitude=s_ag * math.sqrt(2 / math.pi),
            power=s_ag**2,
            seconds=time.perf_counter() - t0,
        )
    )
    t0 = time.perf_counter()
    q = qg.calibrate(e, dl, sensitivity)
    rows.append({**_qg_row(q, e, sensitivity), "seconds": time.perf_counter() - t0})
    upper = analytic_gaussian_sigma(e, (1 - et) * dl, sensitivity)
    guess = None
    for k in range(1, km + 1):
        t0 = time.perf_counter()
        c = mg.calibrate(e, dl, sensitivity, k, et, upper=upper, guess=guess)
        guess = c.sigma
        rows.append(
            dict(
                mechanism="MG",
                k=k,
                sigma=c.sigma,
                amplitude=mg.amplitude(c.sigma, e, sensitivity, k),
                power=mg.power(c.sigma, e, sensitivity, k),
                phi_star=c.phi_star,
                max_divergence=c.max_divergence,
                seconds=time.perf_counter() - t0,
            )
        )
    return rows


def privacy_check_cell(
    epsilon: float,
    delta: float,
    mechanism: str,
    sigma: float,
    k: int = 1,
    sensitivity: float = 1.0,
    seed: int = 0,
) -> dict:
    """Independent check: delta(eps) of the calibrated noise by quadrature (:mod:`privacy`).

    Returns the estimated sup over shifts phi in [0, Delta] and at phi = Delta, and the margin
    (delta - delta(eps)) / delta.
    """
    e, dl = check_epsilon(epsilon), check_delta(delta)
    check_choice("mechanism", mechanism, ("AG", "QG", "MG"))
    sigma = check_sigma(sigma)
    check_k(k, "k")
    d = check_sensitivity(sensitivity)
    check_integer("seed", seed, minimum=0)
    if mechanism == "QG":

        def pdf(x):
            return qg.pdf(x, sigma, e, d)

        radius = d + 12 * sigma
    elif mechanism == "MG":

        def pdf(x):
            return mg.pdf(x, sigma, e, d, k)

        radius = k * d + 12 * sigma
    elif mechanism == "AG":

        def pdf(x):
            return np.exp(-0.5 * (x / sigma) ** 2) / (math.sqrt(2 * math.pi) * sigma)

        radius = 12 * sigma
    else:
        raise ValueError(f"mechanism must be 'AG', 'QG' or 'MG', got mechanism={mechanism!r}")
    fine = min(sigma, sigma * sigma / d, d)
    n_phi = int(min(513, max(65, math.ceil(2 * d * d / sigma**2) + 1)))
    t0 = time.perf_counter()
    sup, phi = privacy.delta_of_epsilon(pdf, e, d, fine, radius, n_phi=n_phi)
    h = fine / 400
    i_h, i_h2 = (
        float(privacy.hockey_stick_quadrature(pdf, d, e, -radius - d, radius, step)[0]) for step in (h, h / 2)
    )
    at_delta = (4 * i_h2 - i_h) / 3  # Richardson, as in privacy.delta_of_epsilon
    return dict(
        delta_actual=sup,
        worst_phi=phi,
        delta_at_sensitivity=at_delta,
        margin=(dl - sup) / dl,
        seconds=time.perf_counter() - t0,
    )


def improvement(reference, value, *, capped: bool = False):
    """100% (a - x) / a (or / max(1, a) when ``capped``): positive when x beats the reference a."""
    check_array("reference", reference, nonempty=False)
    check_array("value", value, nonempty=False)
    check_bool("capped", capped)
    return _improvement(reference, value, capped=capped)


def _improvement(reference, value, *, capped: bool = False):
    a = np.asarray(reference, dtype=float)
    x = np.asarray(value, dtype=float)
    return 100.0 * (a - x) / (np.maximum(1.0, a) if capped else a)


def best_k(results: pd.DataFrame, loss: str) -> pd.DataFrame:
    """Per (epsilon, delta): the MG row with the smallest ``loss`` ('amplitude' or 'power')."""
    if loss not in ("amplitude", "power"):
        raise ValueError(f"loss must be 'amplitude' or 'power', got loss={loss!r}")
    check_frame("results", results, ("mechanism", "epsilon", "delta", loss))
    mgr = results[results["mechanism"] == "MG"]
    idx = mgr.groupby(["epsilon", "delta"])[loss].idxmin()
    return mgr.loc[idx].reset_index(drop=True)


def pivot(frame: pd.DataFrame, value: str) -> pd.DataFrame:
    """Rows delta, columns epsilon (the thesis's layout), as a flat table with a 'delta' column."""
    check_frame("frame", frame, ("epsilon", "delta"))
    check_choice("value", value, tuple(c for c in frame.columns if c not in ("epsilon", "delta")))
    table = frame.pivot(index="delta", columns="epsilon", values=value).sort_index()
    table.columns = [f"eps={c:g}" for c in table.columns]
    table.index = [f"{d:g}" for d in table.index]
    return table.rename_axis("delta").reset_index()


def summary(values) -> dict:
    """Count of positive entries, mean, sd (n - 1) and median, as the thesis reports them (L2161)."""
    v = check_array("values", values).ravel()
    return dict(
        n=int(v.size),
        positive=int((v > 0).sum()),
        mean=float(v.mean()),
        sd=float(v.std(ddof=1)),
        median=float(np.median(v)),
    )


def _check_values(name: str, values, check) -> list[float]:
    """Every entry of the sequence ``values`` through ``check`` (an error names ``name``)."""
    if isinstance(values, str) or not hasattr(values, "__iter__"):
        raise ValueError(f"{name} must be a sequence of numbers, got {name}={values!r}")
    out = []
    for v in values:
        try:
            out.append(check(v))
        except ValueError as err:
            raise ValueError(f"{name}: {err}") from None
    return out


def _check_name(name) -> str:
    if not isinstance(name, str) or not name:
        raise ValueError(f"name must be a non-empty string (the sweep's name), got name={name!r}")
    return name


def run_grid(
    epsilons, deltas, k_max: int = 10, eta: float = 0.01, *, name: str, **sweep_kwargs
) -> pd.DataFrame:
    """All cells of an (eps, delta) grid through :func:`safeguarded.experiments.run_sweep` (cached)."""
    from safeguarded.experiments import grid as param_grid
    from safeguarded.experiments import run_sweep

    _check_values("epsilons", epsilons, check_epsilon)
    _check_values("deltas", deltas, check_delta)
    check_k(k_max, "k_max")
    check_eta(eta)
    _check_name(name)
    params = param_grid(epsilon=list(epsilons), delta=list(deltas), k_max=[int(k_max)], eta=[float(eta)])
    return run_sweep(mixture_cell, params, [0], name=name, version="1", **sweep_kwargs)


def run_privacy_checks(rows: pd.DataFrame, *, name: str, **sweep_kwargs) -> pd.DataFrame:
    """:func:`privacy_check_cell` for each row (columns epsilon, delta, mechanism, sigma, k), cached."""
    from safeguarded.experiments import run_sweep

    check_frame("rows", rows, ("epsilon", "delta", "mechanism", "sigma", "k"))
    _check_name(name)
    params = [
        dict(
            epsilon=float(r.epsilon),
            delta=float(r.delta),
            mechanism=str(r.mechanism),
            sigma=float(r.sigma),
            k=int(max(r.k, 1)),
        )
        for r in rows.itertuples()
    ]
    return run_sweep(privacy_check_cell, params, [0], name=name, version="2", **sweep_kwargs)


def loss_frame(results: pd.DataFrame, loss: str) -> pd.DataFrame:
    """Per (epsilon, delta): losses of AG (a), QG (q), the best MG (m, best_k) and MG with K = 1 (m1),
    the improvements over AG (plain and with max{1, a}), the best of QG and MG, and the Table 11 star
    (QG better than MG with K = 1)."""
    if loss not in ("amplitude", "power"):
        raise ValueError(f"loss must be 'amplitude' or 'power', got loss={loss!r}")
    check_frame("results", results, ("mechanism", "epsilon", "delta", "k", "sigma", loss))
    key = ["epsilon", "delta"]
    a = results[results["mechanism"] == "AG"].set_index(key)[loss].rename("a")
    q = results[results["mechanism"] == "QG"].set_index(key)[loss].rename("q")
    m1 = results[(results["mechanism"] == "MG") & (results["k"] == 1)].set_index(key)[loss].rename("m1")
    b = best_k(results, loss).set_index(key)
    out = pd.concat(
        [a, q, b[loss].rename("m"), b["k"].rename("best_k"), b["sigma"].rename("sigma_mg"), m1], axis=1
    )
    out = out.reset_index()
    out["imp_q"] = _improvement(out["a"], out["q"])
    out["imp_m"] = _improvement(out["a"], out["m"])
    out["imp_q_capped"] = _improvement(out["a"], out["q"], capped=True)
    out["imp_m_capped"] = _improvement(out["a"], out["m"], capped=True)
    out["best_of"] = np.minimum(out["q"], out["m"])
    out["best_mechanism"] = np.where(out["q"] <= out["m"], "QG", "MG")
    out["imp_best"] = _improvement(out["a"], out["best_of"])
    out["star"] = out["q"] < out["m1"]
    out["best_k_label"] = [f"{k}*" if s else f"{k}" for k, s in zip(out["best_k"], out["star"], strict=True)]
    return out


def _qg_row(q, epsilon: float, sensitivity: float) -> dict:
    """The QG row of a grid cell from a calibration ``q`` (σ, σ₁, σ₂, amplitude, power)."""
    return dict(
        mechanism="QG",
        k=0,
        sigma=q.sigma,
        sigma1=q.sigma1,
        sigma2=q.sigma2,
        amplitude=qg.amplitude(q.sigma, epsilon, sensitivity),
        power=qg.power(q.sigma, epsilon, sensitivity),
    )


def qg_cell(epsilon: float, delta: float, sensitivity: float = 1.0, seed: int = 0) -> list[dict]:
    """The AG and QG rows of :func:`mixture_cell` only (milliseconds per cell)."""
    e, dl = check_epsilon(epsilon), check_delta(delta)
    check_sensitivity(sensitivity)
    check_integer("seed", seed, minimum=0)
    s_ag = analytic_gaussian_sigma(e, dl, sensitivity)
    q = qg.calibrate(e, dl, sensitivity)
    return [
        dict(mechanism="AG", k=0, sigma=s_ag, amplitude=s_ag * math.sqrt(2 / math.pi), power=s_ag**2),
        _qg_row(q, e, sensitivity),
    ]


def run_qg_grid(epsilons, deltas, *, name: str, **sweep_kwargs) -> pd.DataFrame:
    """:func:`qg_cell` over an (eps, delta) grid through ``run_sweep``."""
    from safeguarded.experiments import grid as param_grid
    from safeguarded.experiments import run_sweep

    _check_values("epsilons", epsilons, check_epsilon)
    _check_values("deltas", deltas, check_delta)
    _check_name(name)
    params = param_grid(epsilon=list(epsilons), delta=list(deltas))
    return run_sweep(qg_cell, params, [0], name=name, version="1", **sweep_kwargs)


def qg_frame(results: pd.DataFrame, loss: str) -> pd.DataFrame:
    """Per (epsilon, delta): AG loss a, QG loss q and the improvements (Tables 7 and 13)."""
    if loss not in ("amplitude", "power"):
        raise ValueError(f"loss must be 'amplitude' or 'power', got loss={loss!r}")
    check_frame("results", results, ("mechanism", "epsilon", "delta", loss))
    key = ["epsilon", "delta"]
    a = results[results["mechanism"] == "AG"].set_index(key)[loss].rename("a")
    q = results[results["mechanism"] == "QG"].set_index(key)[loss].rename("q")
    out = pd.concat([a, q], axis=1).reset_index()
    out["imp_q"] = _improvement(out["a"], out["q"])
    out["imp_q_capped"] = _improvement(out["a"], out["q"], capped=True)
    return out


def implied_mg_sigma(loss_value: float, epsilon: float, k: int, loss: str = "amplitude") -> float:
    """The MG scale sigma whose expected loss equals ``loss_value`` (to audit a tabulated loss)."""
    from scipy import optimize

    e, kk = check_epsilon(epsilon), check_k(k)
    check_positive("loss_value", loss_value)
    check_choice("loss", loss, ("amplitude", "power"))
    fun = mg.amplitude if loss == "amplitude" else mg.power
    lo, hi = 1e-6, 1.0
    while fun(hi, e, 1.0, kk) < loss_value:
        hi *= 2
    if fun(lo, e, 1.0, kk) > loss_value:
        raise ValueError(f"loss_value={loss_value!r} is below the sigma -> 0 limit for K={kk}")
    return float(optimize.brentq(lambda s: fun(s, e, 1.0, kk) - loss_value, lo, hi, xtol=1e-14))


def section1_bounds(epsilon: float, delta: float, loss: str = "l1", k: int = 20) -> dict:
    """The Section 1 LP bounds D(L, beta) <= optimum <= P(L, beta) for one cell (Delta = 1), from the
    ``dp_noise`` work (imported): uniform cells of width beta = 1/k on the support rule's [-Lambda, Lambda].

    Table 10/15's o is "the lower bound" once the bounds agree to 1e-3 (L2988); with a coarse grid the
    lower bound is looser, so the gap share 100% (a - m)/(a - o) computed from it is a lower estimate.
    """
    from safeguarded.dp_noise import bounds

    e, dl, kk = check_epsilon(epsilon), check_delta(delta), check_k(k)
    lam = bounds.support_rule(e, dl)
    part = bounds.uniform_partition(lam * kk, kk)
    lo = bounds.lower_bound(e, dl, part, loss)
    up = bounds.upper_bound(e, dl, part, loss)
    return dict(lower=lo.value, upper=up.value, solver=f"{lo.solver} {lo.solver_version}", k=kk, support=lam)
