"""Drivers of the paper's experiments (Sec. 5, App. D): one sweep cell per run, cached by run_sweep.

Instances
    ``"paper"``: Sioux Falls from the TNTP files (24 nodes, 76 links, 552 OD pairs of which 528 carry
    demand; c in "minutes", q = (kappa - 1) c / cap).  The TNTP OD values are read as the mean request
    rates per minute of Def. 3 (as the TNTP times are read as minutes), days are Poisson(T mean)/T with
    T = 60 (Remark 1), and one request changes Lambda by 1/T: Algorithm 1's s = (C/T) min(...).
    ``"smoke"``: a 3 x 3 two-way grid with demand drawn uniformly in 20..200 veh/h (CI only).

Cost of a policy: F_hat(x, mean of the N days) (the paper's evaluation at the mean demand, Sec. 5.3);
Baseline: the link-flow system optimum at the same mean demand (Sec. 5.2, App. D).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from safeguarded.experiments import rng_for
from safeguarded.routing import costs, dp_sgd, problems
from safeguarded.routing.network import (
    Network,
    check_arc_vector,
    check_demand,
    check_network,
    demand_vector,
    grid_network,
    sioux_falls,
)
from safeguarded.solvers import resolve_solver
from safeguarded.validation import check_choice, check_in_interval, check_integer, check_positive, check_type

__all__ = [
    "Instance",
    "load_instance",
    "PAPER",
    "convergence_cell",
    "privacy_cell",
    "approximation_cell",
    "beta_units_table",
    "saa_optimum",
]

#: The paper's stated settings (Sec. 5.1-5.2, App. D).
PAPER = {
    "T": 60,
    "alpha": 1e4,
    "alpha_table2": 1e3,
    "beta_paper": 2.08e7,
    "kappa": 2.0,
    "eps": 0.1,
    "delta": 0.1,
    "N": (10, 25, 50),
}


@dataclass(frozen=True)
class Instance:
    network: Network
    mean_demand: np.ndarray  #: length-K nominal mean demand (veh/h)
    name: str


@functools.cache
def load_instance(kind: str = "paper") -> Instance:
    """The Sioux Falls instance (``"paper"``) or the small grid (``"smoke"``)."""
    if kind == "paper":
        net, trips = sioux_falls()
        return Instance(net, demand_vector(net, trips), "Sioux Falls (TNTP)")
    if kind == "smoke":
        net = grid_network(3, 3, seed=0)
        lam = np.random.default_rng(0).uniform(20, 200, net.n_od).round()
        return Instance(net, lam, "3x3 grid (smoke)")
    raise ValueError(f"kind must be 'paper' or 'smoke', got kind={kind!r}")


def _setup(instance: Instance, kappa: float, demand_scale: float):
    net = instance.network
    q = costs.affine_slopes(net.free_flow, net.capacity, kappa)
    lam = demand_scale * instance.mean_demand
    return net, q, lam


#: Initial policies of Algorithm 1 ([DECIDE], Fig. 2): "paths" (primary) = free-flow shortest-path routing,
#: the paper's "random policy" read as a routing policy; "uniform" (alternative) = Pi_𝒳 of a uniform point.
STARTS = ("paths", "uniform")


def initial_policy(network: Network, start: str, seed: int) -> np.ndarray:
    """x_0 of Algorithm 1 for ``start`` in :data:`STARTS`."""
    if start == "paths":
        return dp_sgd.shortest_path_policy(network)
    if start == "uniform":
        return dp_sgd.random_policy(network, rng_for(seed, 0))
    raise ValueError(f"start must be one of {STARTS}, got start={start!r}")


KINDS = ("paper", "smoke")


def _check_run(kind, n_days, alpha, beta_mode, seed, start) -> None:
    """The checks shared by the Algorithm-1 cells (before any instance is loaded)."""
    check_choice("kind", kind, KINDS)
    check_integer("n_days", n_days, minimum=1)
    check_positive("alpha", alpha)
    if not (isinstance(beta_mode, str) and beta_mode == "data"):
        if isinstance(beta_mode, str):
            raise ValueError(f"beta_mode must be 'data' or a number > 0, got beta_mode={beta_mode!r}")
        check_positive("beta_mode", beta_mode)
    check_integer("seed", seed, minimum=0)
    check_choice("start", start, STARTS)


def _grid(name: str, values) -> list:
    if not isinstance(values, tuple | list) or not values:
        raise ValueError(f"{name} must be a non-empty tuple or list, got {name}={values!r}")
    return list(values)


def _run_alg1(
    kind, n_days, kappa, demand_scale, alpha, beta_mode, eps, delta, seed, keep=False, start="paths"
):
    inst = load_instance(kind)
    net, q, lam = _setup(inst, kappa, demand_scale)
    beta = costs.smoothness_beta(lam, q) if beta_mode == "data" else float(beta_mode)
    days = dp_sgd.sample_days(inst.mean_demand, n_days, rng_for(seed, 1, n_days), scale=demand_scale)
    x0 = initial_policy(net, start, seed)
    res = dp_sgd.private_projected_sgd(
        net, days, q, alpha=alpha, beta=beta, C=beta, eps=eps, delta=delta,
        d_lambda=1.0 / PAPER["T"], rng=rng_for(seed, 2, n_days), x0=x0, keep_iterates=keep,
    )  # fmt: skip
    base = problems.system_optimum_links(net, days.mean(axis=0), q)
    return net, q, days, beta, res, base


def convergence_cell(
    *, kind: str, n_days: int, kappa: float, demand_scale: float, alpha: float, beta_mode, seed: int,
    eps: float = PAPER["eps"], delta: float = PAPER["delta"], start: str = "paths",
) -> list[dict]:  # fmt: skip
    """One Algorithm-1 run (Fig. 2 / Fig. 3): cost ratio F_hat(x_k)/Baseline for k = 0..N from the
    initial policy ``start`` (:data:`STARTS`)."""
    _check_run(kind, n_days, alpha, beta_mode, seed, start)
    check_in_interval("kappa", kappa, 1.0, float("inf"))
    check_positive("demand_scale", demand_scale)
    dp_sgd.check_privacy(eps, delta)
    net, q, days, beta, res, base = _run_alg1(
        kind, n_days, kappa, demand_scale, alpha, beta_mode, eps, delta, seed, start=start
    )
    mean = days.mean(axis=0)
    final_noisy = costs.travel_cost(res.x_alg, mean, q, net.free_flow)
    return [
        {
            "k": k,
            "cost_ratio": float(res.cost_history[k] / base.cost),
            "objective_ratio": float(res.objective_history[k] / base.cost),
            "noisy_final_ratio": float(final_noisy / base.cost),
            "beta": beta,
            "sigma": res.sigma,
            "sensitivity": res.sensitivity,
            "baseline_cost": base.cost,
            "solver": base.record.solver,
        }
        for k in range(n_days + 1)
    ]


def privacy_cell(
    *, kind: str, n_days: int, alpha: float, beta_mode, eps_grid, delta_grid, draws: int, seed: int,
    d_lambda_modes=("paper",), start: str = "paths",
) -> list[dict]:  # fmt: skip
    """Table 1: cost increase of x_alg over x_N for every (eps, delta), ``draws`` noise draws each.

    ``d_lambda_modes``: "paper" = 1/T (Algorithm 1 line 8, per-minute rates); "veh/h" = 1 (one request
    changes an hourly count by 1: the unit-consistent sensitivity for Lambda in veh/h).
    """
    _check_run(kind, n_days, alpha, beta_mode, seed, start)
    for eps in _grid("eps_grid", eps_grid):
        try:
            dp_sgd.check_privacy(eps, 0.5)
        except ValueError as exc:
            raise ValueError(f"eps_grid: {exc}") from None
    for delta in _grid("delta_grid", delta_grid):
        try:
            dp_sgd.check_privacy(0.5, delta)
        except ValueError as exc:
            raise ValueError(f"delta_grid: {exc}") from None
    check_integer("draws", draws, minimum=1)
    for mode in _grid("d_lambda_modes", d_lambda_modes):
        check_choice("d_lambda_modes", mode, ("paper", "veh/h"))
    net, q, days, beta, res, base = _run_alg1(
        kind, n_days, 2.0, 1.0, alpha, beta_mode, 0.1, 0.1, seed, start=start
    )
    mean = days.mean(axis=0)
    c = net.free_flow
    cost_n = costs.travel_cost(res.x_N, mean, q, c)
    rows = []
    for mode in d_lambda_modes:
        d_lambda = 1.0 / PAPER["T"] if mode == "paper" else 1.0
        s = dp_sgd.sensitivity_bound(beta, alpha, beta, n_days, d_lambda)
        for i, eps in enumerate(eps_grid):
            for j, delta in enumerate(delta_grid):
                sigma = dp_sgd.gaussian_sigma(s, eps, delta)
                for r in range(draws):
                    x_alg = dp_sgd.privatize(res.x_N, sigma, net, rng_for(seed, 3, i, j, r))
                    cost = costs.travel_cost(x_alg, mean, q, c)
                    rows.append(
                        {
                            "d_lambda_mode": mode,
                            "eps": eps,
                            "delta": delta,
                            "draw": r,
                            "sigma": sigma,
                            "sensitivity": s,
                            "increase_pct": float(100 * (cost / cost_n - 1)),
                            "cost_xN_ratio": float(cost_n / base.cost),
                        }
                    )
    return rows


def saa_optimum(
    network: Network, days: np.ndarray, q: np.ndarray, alpha: float, *, iters: int = 3, solver=None
):
    """Minimiser of the regularised SAA (10), (1/N) sum_i F(x, Lambda_i), by majorisation-minimisation.

    (1/N) sum_i F_hat(x, Lambda_i) = F_hat(x, mean) + V(x) with V(x) = sum_e q_e x_e^T S x_e (S the
    empirical covariance of the days), whose curvature L_V = 2 max q lambda_max(S) is far below 2 alpha.
    Each step solves the mean-demand QP with V replaced by its quadratic majoriser at the current point
    (the linear term a constant, the problem rebuilt per step: a DPP parameter of shape K x m made cvxpy
    hold about 14 GB for Sioux Falls); the iterates contract by L_V / (2 alpha + L_V).
    Returns (x, list of solve records, max |x_{t+1} - x_t| of the last step).
    """
    check_network(network)
    days = check_demand(days, "days", network.n_od)
    if days.ndim != 2:
        raise ValueError(f"days must be an (N, {network.n_od}) array of demand vectors, got {days.shape}")
    q = check_arc_vector("q", q, network)
    alpha = check_positive("alpha", alpha, allow_zero=True)
    iters = check_integer("iters", iters, minimum=1)
    resolve_solver(solver, "QP")  # ValueError naming solver unless installed
    import cvxpy as cp

    from safeguarded.solvers import solve

    mean = days.mean(axis=0)
    dev = days - mean
    n = days.shape[0]
    lam_s = np.linalg.norm(dev, 2) ** 2 / n  # lambda_max(S), S = dev^T dev / n
    l_v = 2 * float(np.max(q)) * float(lam_s)
    a = network.incidence
    xt = problems.policy_optimum(network, mean, q, alpha=alpha, solver=solver).x
    records, change = [], np.inf
    for _ in range(iters):
        grad_v = (2.0 / n) * dev.T @ ((dev @ xt) * q)
        x = cp.Variable((network.n_od, network.n_arcs), nonneg=True)
        y = mean @ x
        obj = cp.sum(cp.multiply(q, cp.square(y))) + network.free_flow @ y
        obj = obj + (alpha + l_v / 2) * cp.sum_squares(x) + cp.sum(cp.multiply(grad_v - l_v * xt, x))
        prob = cp.Problem(cp.Minimize(obj), [x <= 1, x @ a[:-1].T == network.unit_rhs[:, :-1]])
        records.append(solve(prob, name="routing.saa_mm_step", solver=solver, problem_class="QP"))
        new = np.clip(np.asarray(x.value), 0.0, 1.0)
        change = float(np.abs(new - xt).max())
        xt = new
    return xt, records, change


def approximation_cell(*, kind: str, n_days: int, alpha: float, seed: int) -> dict:
    """Table 2 (App. D): Errors #1-#3 for N days, regulariser alpha (the paper: 1e3)."""
    check_choice("kind", kind, KINDS)
    check_integer("n_days", n_days, minimum=1)
    check_positive("alpha", alpha, allow_zero=True)
    check_integer("seed", seed, minimum=0)
    inst = load_instance(kind)
    net, q, lam = _setup(inst, 2.0, 1.0)
    c = net.free_flow
    days = dp_sgd.sample_days(inst.mean_demand, n_days, rng_for(seed, 1, n_days))
    mean = days.mean(axis=0)

    def f_avg(x, a):  # <F_a(x, Lambda_i)>
        return float(np.mean(costs.objective(x, days, q, c, a)))

    def f_mean(x, a):  # F_a(x, <Lambda_i>)
        return float(costs.objective(x, mean, q, c, a))

    x_opt, recs, change = saa_optimum(net, days, q, alpha)
    x_alpha = problems.policy_optimum(net, mean, q, alpha=alpha).x
    x_zero = problems.policy_optimum(net, mean, q, alpha=0.0)
    ref = f_avg(x_opt, alpha)
    err1 = (ref - f_mean(x_opt, alpha)) / ref
    dev = days - mean
    err1_closed = float(np.sum(q * np.mean((dev @ x_opt) ** 2, axis=0))) / ref
    err2 = (f_avg(x_alpha, alpha) - ref) / ref
    err3 = (f_avg(x_alpha, 0.0) - f_avg(x_zero.x, 0.0)) / f_avg(x_zero.x, 0.0)
    return {
        "error1": err1,
        "error1_closed_form": err1_closed,
        "error2": err2,
        "error3": err3,
        "saa_last_step_change": change,
        "solver": x_zero.record.solver,
    }


def beta_units_table(instance: Instance, alpha: float = PAPER["alpha"], T: int = PAPER["T"]) -> list[dict]:  # noqa: N803
    """beta under each unit convention, beside the paper's 2.08e7 (claim 2 of the guide's Sec. 7).

    "as given": the TNTP numbers used as they stand (OD value as the rate, q = c/cap); "veh/h -> per
    minute": the OD values converted from veh/h to requests/min (/T) with q in min/(req/min) (x T).
    """
    check_type("instance", instance, Instance, "a routing Instance (see load_instance)")
    alpha = check_positive("alpha", alpha, allow_zero=True)
    T = check_integer("T", T, minimum=1)  # noqa: N806
    net = instance.network
    lam = instance.mean_demand
    q = costs.affine_slopes(net.free_flow, net.capacity, 2.0)
    lam_m, q_m = costs.cost_rescaled_units(lam, q, T)
    n = net.n_nodes
    pairs = n * (n - 1)
    rows = [
        ("lambda_max(B^T Q B), as given", costs.smoothness_beta(lam, q)),
        ("lambda_max(B^T Q B), veh/h -> per minute", costs.smoothness_beta(lam_m, q_m)),
        ("Sec. 3.4 bound n^2 max q lambda_max^2 + alpha/2, as given",
         costs.section34_beta(n, q, lam.max(), alpha)),
        ("Sec. 3.4 bound with n(n-1) pairs, as given", float(pairs * q.max() * lam.max() ** 2 + alpha / 2)),
        ("Sec. 3.4 bound n^2 max q lambda_max^2 + alpha/2, veh/h -> per minute",
         costs.section34_beta(n, q_m, lam_m.max(), alpha)),
    ]  # fmt: skip
    return [{"convention": name, "beta": value} for name, value in rows]


def _toy(seed: int = 1):
    net = grid_network(2, 3, seed=seed)
    lam = np.random.default_rng(seed + 2).uniform(2, 20, net.n_od).round()
    lam[:3] = 0.0  # zero-demand pairs are part of the policy too
    return net, lam, costs.affine_slopes(net.free_flow, net.capacity, 2.0)


def empirical_sensitivity(
    *, seed: int = 0, n_days: int = 8, n_pairs: int = 8, alpha: float = 2.0, T: int = 60
) -> dict:  # noqa: N803
    """Theorem 2 / Lemma 1 checked numerically on a 2 x 3 grid: max ||x_N(L) - x_N(L')|| over adjacent L, L'
    (one request added to or removed from one day and pair, Def. 9) against the bound s.

    Theory-consistent constants: F = F_hat + (alpha/2)||x||^2 (Sec. 3.4), beta = the Hessian bound
    2 K lambda_max^2 max q + alpha, C = the Sec. 3.4 constant; the same x_0 for L and L'.
    """
    net, lam, q = _toy()
    rng = rng_for(seed, 7)
    days = dp_sgd.sample_days(lam, n_days, rng, periods=T)
    lam_max = days.max() + 1.0 / T
    beta = 2 * net.n_od * lam_max**2 * q.max() + alpha
    C = costs.section34_C(net.n_nodes, q, net.free_flow, lam_max)  # noqa: N806
    s = dp_sgd.sensitivity_bound(C, alpha, beta, n_days, 1.0 / T)
    x0 = dp_sgd.random_policy(net, rng)
    kw = dict(alpha=alpha, beta=beta, C=C, eps=0.5, delta=0.1, d_lambda=1 / T, x0=x0, reg=0.5)
    base = dp_sgd.private_projected_sgd(net, days, q, rng=rng_for(seed, 8), **kw).x_N
    cases = [(0, 0), (n_days - 1, net.n_od - 1)]
    cases += [(int(rng.integers(n_days)), int(rng.integers(net.n_od))) for _ in range(n_pairs - 2)]
    worst = 0.0
    for t, k in cases:
        for sign in (+1, -1):
            other = days.copy()
            other[t, k] = max(0.0, other[t, k] + sign / T)
            out = dp_sgd.private_projected_sgd(net, other, q, rng=rng_for(seed, 8), **kw).x_N
            worst = max(worst, float(np.linalg.norm(out - base)))
    return {"empirical_sensitivity": worst, "bound_s": s, "adjacent_pairs": 2 * len(cases)}


def distance_vs_n(
    *, seed: int = 0, n_grid=(5, 20, 80, 320), reps: int = 3, alpha: float = 20.0
) -> list[dict]:
    """Theorem 3 (qualitative) on a 2 x 3 grid: ||x_alg - x*|| against N at eps = 0.5, delta = 0.1,
    x* = the regularised optimum at the mean demand (Clarabel); ``reps`` independent runs per N."""
    net, lam, q = _toy()
    beta = costs.smoothness_beta(lam, q)
    x_star = problems.policy_optimum(net, lam, q, alpha=alpha).x
    rows = []
    for n_days in n_grid:
        for r in range(reps):
            days = dp_sgd.sample_days(lam, n_days, rng_for(seed, 9, n_days, r))
            res = dp_sgd.private_projected_sgd(
                net, days, q, alpha=alpha, beta=beta, C=beta, eps=0.5, delta=0.1, d_lambda=1 / 60,
                rng=rng_for(seed, 10, n_days, r),
            )  # fmt: skip
            rows.append({"n_days": n_days, "rep": r, "distance": float(np.linalg.norm(res.x_alg - x_star))})
    return rows
