"""Independent checks of safeguarded.robust_lr_aux (thesis §4)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from scipy.optimize import linear_sum_assignment, minimize

from safeguarded.robust_lr_aux import cv, data, losses, models, transport


def _instance(seed, N=12, N_hat=15, n=3, flip=0.25):
    rng = np.random.default_rng(seed)
    beta = rng.normal(size=n)
    X = rng.normal(size=(N, n))
    y = np.sign(X @ beta + 1e-9)
    y[rng.random(N) < flip] *= -1  # not separable: ERM has a finite optimum
    Xa = rng.normal(size=(N_hat, n)) + 0.3
    ya = np.sign(Xa @ beta + 1e-9)
    ya[rng.random(N_hat) < flip] *= -1
    return X, y, Xa, ya


# --- Observation 7 ----------------------------------------------------------------------------------


@pytest.mark.parametrize("p", [1, 2, np.inf])
def test_adversarial_loss_equals_brute_force_inner_max(p):
    rng = np.random.default_rng(1)
    n, alpha = 3, 0.4
    beta, x, y = rng.normal(size=n), rng.normal(size=n), -1.0
    closed = losses.adversarial_loss(beta, x[None, :], [y], alpha, p)[0]
    if p == 1:  # the ℓ1 ball's maximum of a convex function sits at a vertex ±α e_k
        cands = [s * alpha * e for e in np.eye(n) for s in (1, -1)]
    elif np.isinf(p):  # ... of the ℓ∞ ball at a sign vector
        cands = [alpha * np.array(s) for s in itertools.product((1, -1), repeat=n)]
    else:  # ℓ2: a numerical maximisation from many starts
        cands = []
        for _ in range(20):
            z0 = rng.normal(size=n)
            res = minimize(lambda z: -np.logaddexp(0, -y * beta @ (x + z)), alpha * z0 / np.linalg.norm(z0),
                           constraints=[{"type": "ineq", "fun": lambda z: alpha**2 - z @ z}], method="SLSQP")
            cands.append(res.x)
    brute = max(np.logaddexp(0, -y * beta @ (x + z)) for z in cands)
    assert closed == pytest.approx(brute, rel=1e-6)
    # and no random point of the ball does better
    for _ in range(200):
        z = rng.normal(size=n)
        z *= alpha / np.linalg.norm(z, p) * rng.random()
        assert np.logaddexp(0, -y * beta @ (x + z)) <= closed + 1e-12


def test_attacked_error_counts_worst_case():
    X = np.array([[1.0, 0.0], [0.2, 0.0], [-1.0, 0.0]])
    y = np.array([1.0, 1.0, -1.0])
    beta = np.array([1.0, 0.0])
    assert losses.attacked_error(beta, X, y, 0.0) == 0.0
    assert losses.attacked_error(beta, X, y, 0.5) == pytest.approx(1 / 3)
    assert losses.attacked_error(beta * 0, X, y, 0.5) == pytest.approx(1 / 3)  # β = 0 predicts +1


# --- conic models vs L-BFGS -------------------------------------------------------------------------


def _lbfgs(fun, n):
    best = None
    for x0 in (np.zeros(n), np.ones(n) * 0.1):
        res = minimize(fun, x0, method="L-BFGS-B", options={"ftol": 1e-14, "gtol": 1e-10, "maxiter": 5000})
        best = res if best is None or res.fun < best.fun else best
    return best


def test_erm_and_aro_match_lbfgs():
    X, y, _, _ = _instance(2, N=30)
    erm = models.build_erm(X, y).fit()
    ref = _lbfgs(lambda b: np.mean(np.logaddexp(0, -y * (X @ b))), X.shape[1])
    assert erm.objective == pytest.approx(ref.fun, abs=1e-6)
    np.testing.assert_allclose(erm.beta, ref.x, atol=1e-3)
    alpha = 0.3
    aro = models.build_aro(X, y, p=2).fit(alpha=alpha)
    ref = _lbfgs(lambda b: np.mean(losses.adversarial_loss(b, X, y, alpha, 2)), X.shape[1])
    assert aro.objective == pytest.approx(ref.fun, abs=1e-6)
    direct = np.mean(losses.adversarial_loss(aro.beta, X, y, alpha, 2))
    assert direct == pytest.approx(aro.objective, abs=1e-6)


def test_observation8_aro_aux_is_aro_on_the_mixture():
    X, y, Xa, ya = _instance(3)
    w = 0.3
    lam = models.mixture_weight(w, len(y), len(ya))
    mixed = models.build_aro_aux(X, y, Xa, ya, p=np.inf).fit(alpha=0.2, mix=lam)
    # (67) literally: weighted sums / (N + wN̂), minimised by L-BFGS
    def obj67(b):
        return (losses.adversarial_loss(b, X, y, 0.2, np.inf).sum()
                + w * losses.adversarial_loss(b, Xa, ya, 0.2, np.inf).sum()) / (len(y) + w * len(ya))
    ref = _lbfgs(obj67, X.shape[1])
    assert mixed.objective == pytest.approx(ref.fun, abs=1e-5)
    # ARO on the stacked data with sample weights gives the same β
    Xs, ys = np.vstack([X, Xa]), np.concatenate([y, ya])
    wts = np.concatenate([np.full(len(y), lam / len(y)), np.full(len(ya), (1 - lam) / len(ya))])
    ref2 = _lbfgs(lambda b: wts @ losses.adversarial_loss(b, Xs, ys, 0.2, np.inf), X.shape[1])
    assert mixed.objective == pytest.approx(ref2.fun, abs=1e-5)
    assert models.build_aro_aux(X, y, Xa, ya).fit(alpha=0.2, mix=1.0).objective == pytest.approx(
        models.build_aro(X, y).fit(alpha=0.2).objective, abs=1e-6)


# --- DR-ARO (Corollary 8) ---------------------------------------------------------------------------


def test_dr_aro_at_alpha0_is_wasserstein_lr():
    """α = 0: Corollary 8 is the Wasserstein LR of Shafieezadeh-Abadeh et al. (2015), solved here with L-BFGS
    over (β, λ) after eliminating s (λ ≥ ‖β‖_∞ enforced by a substitution λ = ‖β‖_∞ + e^t)."""
    X, y, _, _ = _instance(4, N=20)
    eps, kappa = 0.05, 1.0
    fit = models.build_dr_aro(X, y).fit(alpha=0.0, eps=eps, kappa=kappa)

    def obj(v):
        b, lam = v[:-1], np.linalg.norm(v[:-1], np.inf) + np.exp(v[-1])
        return models.dr_aro_objective(b, lam, X, y, alpha=0.0, eps=eps, kappa=kappa)

    best = min(minimize(obj, np.r_[x0 * np.ones(X.shape[1]), t0], method="Nelder-Mead",
                         options={"xatol": 1e-9, "fatol": 1e-12, "maxiter": 40000}).fun
                for x0 in (0.0, 0.3) for t0 in (-3.0, 0.0))
    assert fit.objective <= best + 1e-7
    assert fit.objective == pytest.approx(best, abs=2e-4)
    lam = float(fit.extra["lam"])
    assert models.dr_aro_objective(fit.beta, lam, X, y, alpha=0.0, eps=eps, kappa=kappa) == pytest.approx(
        fit.objective, abs=1e-6)


def test_dr_aro_kappa_infinity_is_aro_plus_norm():
    """κ → ∞ removes label flips: DR-ARO = min ARO + ε‖β‖_∞ (q = 1)."""
    X, y, _, _ = _instance(5, N=25)
    eps, alpha = 0.05, 0.2
    dr = models.build_dr_aro(X, y).fit(alpha=alpha, eps=eps, kappa=1e4)
    ref = _lbfgs(lambda b: np.mean(losses.adversarial_loss(b, X, y, alpha, 2)) + eps * np.abs(b).max(),
                 X.shape[1])
    import cvxpy as cp

    b = cp.Variable(X.shape[1])
    u = cp.Variable()
    prob = cp.Problem(cp.Minimize(cp.sum(cp.logistic(-cp.multiply(y, X @ b) + u)) / len(y)
                                  + eps * cp.norm(b, "inf")), [u >= alpha * cp.norm(b, 2)])
    from safeguarded.solvers import solve

    rec = solve(prob, name="test.aro_norm", solver="ECOS", problem_class="EXP")  # a second solver
    assert dr.objective == pytest.approx(rec.objective, abs=1e-6)
    assert dr.objective <= ref.fun + 1e-6


def test_appendix_4c_sign_convention():
    X, y, _, _ = _instance(6, N=15)
    kw = dict(alpha=0.1, eps=0.05, kappa=1.0)
    ref = models.build_dr_aro(X, y).fit(**kw)
    good = models.dr_aro_appendix_conic(X, y, signs="corrected", **kw)
    bad = models.dr_aro_appendix_conic(X, y, signs="thesis", **kw)
    assert good.objective == pytest.approx(ref.objective, abs=1e-6)
    direct = models.dr_aro_objective(bad.beta, bad.extra["lam"], X, y, **kw)
    assert abs(bad.objective - ref.objective) > 1e-2  # the printed signs solve another problem
    assert direct > bad.objective + 1e-2  # ... whose value is not the Corollary-8 objective at its β


# --- Inter-ARO* (Theorem 11, Corollary 9) -----------------------------------------------------------


def test_reduced_inter_aro_equals_literal():
    X, y, Xa, ya = _instance(7, N=6, N_hat=7, n=3)
    for eps, eps_hat, kappa in [(0.05, 0.1, 1.0), (0.2, 0.02, 2.0), (0.01, 1.0, 1.0)]:
        kw = dict(alpha=0.1, eps=eps, eps_hat=eps_hat, kappa=kappa)
        lit = models.build_inter_aro_literal(X, y, Xa, ya).fit(**kw)
        red = models.build_inter_aro(X, y, Xa, ya).fit(**kw)
        assert red.objective == pytest.approx(lit.objective, abs=1e-6)


def test_corollary9_inter_aro_below_dr_aro_and_equal_for_large_radius():
    X, y, Xa, ya = _instance(8, N=8, N_hat=10)
    dr = models.build_dr_aro(X, y).fit(alpha=0.1, eps=0.05, kappa=1.0)
    model = models.build_inter_aro(X, y, Xa, ya)
    small = model.fit(alpha=0.1, eps=0.05, eps_hat=0.05, kappa=1.0)
    large = model.fit(alpha=0.1, eps=0.05, eps_hat=100.0, kappa=1.0)
    assert small.objective <= dr.objective + 1e-7
    assert small.objective < dr.objective - 1e-3  # the auxiliary ball helps here
    assert large.objective == pytest.approx(dr.objective, abs=1e-6)
    np.testing.assert_allclose(large.beta, dr.beta, atol=1e-3)


def test_constraint_generation_equals_full_model():
    X, y, Xa, ya = _instance(9, N=10, N_hat=12)
    kw = dict(alpha=0.1, eps=0.05, eps_hat=0.1, kappa=1.0)
    full = models.build_inter_aro(X, y, Xa, ya).fit(**kw)
    cg = models.fit_inter_aro_cg(X, y, Xa, ya, start=1, add=2, **kw)
    assert cg.objective == pytest.approx(full.objective, abs=1e-6)
    assert cg.extra["pairs"] < len(y) * len(ya)


def test_warm_started_constraint_generation_equals_full_model():
    """fit_inter_aro_cg from the pairs binding at the previous candidate's solution (cv's working set):
    every candidate's restricted optimum equals the full model's optimal value, the exactly evaluated
    objectives agree, and the warm start needs fewer rounds than the cold one in total."""
    X, y, Xa, ya = _instance(9, N=10, N_hat=12)
    full_model = models.build_inter_aro(X, y, Xa, ya)
    pairs, warm_rounds, cold_rounds = None, 0, 0
    for eps, eps_hat in ((0.05, 0.1), (0.05, 1.0), (0.2, 0.1), (0.01, 0.01)):
        kw = dict(alpha=0.1, eps=eps, eps_hat=eps_hat, kappa=1.0)
        full = full_model.fit(**kw)
        exact = models.inter_aro_exact_objective(full, X, y, Xa, ya, **kw)[0]
        warm = models.fit_inter_aro_cg(X, y, Xa, ya, start=1, add=2, tol=1e-7, initial_pairs=pairs,
                                       accept_inaccurate=False, **kw)
        cold = models.fit_inter_aro_cg(X, y, Xa, ya, start=1, add=2, tol=1e-7, accept_inaccurate=False, **kw)
        assert warm.extra["solver_objective"] == pytest.approx(full.objective, abs=1e-6)
        assert warm.objective == pytest.approx(exact, abs=1e-6)
        assert all(r.status == "optimal" for r in warm.records)
        I, J = warm.extra["binding_pairs"]
        assert 0 < len(I) <= warm.extra["pairs"]
        pairs = (I, J)
        warm_rounds += warm.extra["rounds"]
        cold_rounds += cold.extra["rounds"]
    assert warm_rounds < cold_rounds


def test_cross_validation_working_set_fits_every_candidate_to_the_full_models_value():
    """cv's fitter with working_set=True fits DRO+ARO+Aux below the threshold by constraint generation,
    each candidate from the pairs binding at the previous one: over a grid the optimal values equal the
    full model's (the test errors can still differ where the optimum is not unique, e.g. at radii that
    make beta nearly 0), and cross_validate runs with it."""
    X, y, Xa, ya = _instance(4, N=16, N_hat=14, n=3)
    common = dict(alpha=0.1, p=2, beta_bound=100.0, cg_threshold=2000, solver=None)
    full = cv._Fitter("DRO+ARO+Aux", X, y, Xa, ya, **common)
    ws = cv._Fitter("DRO+ARO+Aux", X, y, Xa, ya, working_set=True, **common)
    assert not full.cg and ws.cg
    for eps, eps_hat in ((0.1, 2.5), (1.0, 2.5), (0.1, 5.0), (1.0, 5.0), (0.01, 0.5)):
        cand = {"eps": eps, "eps_hat": eps_hat, "kappa": 1.0}
        a, b = full.fit(cand), ws.fit(cand)
        assert b.extra["solver_objective"] == pytest.approx(a.objective, abs=1e-6)
        assert b.extra["inaccurate_rounds"] == 0
    grids = cv.Grids(eps=(0.1, 1.0), eps_hat=(2.5, 5.0), kappas=("1",), folds=2)  # W = 2.32 filters
    out = cv.cross_validate("DRO+ARO+Aux", X, y, Xa, ya, alpha=0.1, grids=grids, working_set=True,
                            rng=np.random.default_rng(0), beta_bound=100.0)
    assert out["n_failed"] == 0 and out["n_candidates"] == 4


# --- transport LP -----------------------------------------------------------------------------------


def test_transport_lp_equals_assignment_for_equal_sizes():
    X, y, Xa, ya = _instance(10, N=9, N_hat=9)
    C = transport.ground_cost(X, y, Xa, ya, kappa=2.0)
    r, c = linear_sum_assignment(C)
    assert transport.wasserstein_distance(X, y, Xa, ya, kappa=2.0) == pytest.approx(C[r, c].mean(), abs=1e-9)


def test_radius_filter():
    assert transport.radius_pairs([0.1, 1.0], [0.5, 2.0], 1.0) == [(0.1, 2.0), (1.0, 0.5), (1.0, 2.0)]


# --- data -------------------------------------------------------------------------------------------


def test_split_sizes_reproduce_table29_arithmetic():
    totals = {"absent": 740, "annealing": 898, "audiology": 226, "breast-cancer": 683, "contraceptive": 1473,
              "dermatology": 358, "ecoli": 336, "spambase": 4601, "spect": 160, "prim-tumor": 339}
    for name, total in totals.items():
        assert data.uci_split_sizes(total) == data.THESIS_TABLE29[name][:3]


def test_copula_keeps_marginals_and_categories():
    import pandas as pd

    rng = np.random.default_rng(0)
    x = rng.normal(size=400)
    frame = pd.DataFrame({"a": x, "b": np.where(x + rng.normal(size=400) > 0, "u", "v"),
                          "__label__": np.where(x > 0, 1.0, -1.0)})
    synth = data.GaussianCopula(frame).sample(rng, 2000)
    assert set(synth["b"]) <= {"u", "v"} and set(synth["__label__"]) <= {-1.0, 1.0}
    assert abs(synth["a"].mean() - x.mean()) < 0.1 and abs(synth["a"].std() - x.std()) < 0.1
    assert np.corrcoef(synth["a"], synth["__label__"])[0, 1] > 0.5  # the dependence survives


def test_artificial_data_follows_algorithm11():
    d = data.artificial_data(np.random.default_rng(0), N=20000, N_hat=10, N_test=5, n=3)
    p = 1 / (1 + np.exp(-d["X"] @ d["beta_true"]))
    assert np.mean(d["y"] == 1) == pytest.approx(p.mean(), abs=0.01)
    assert np.linalg.norm(d["beta_true"]) <= 1


# --- bad input --------------------------------------------------------------------------------------


def test_bad_input_raises_value_error():
    X, y, Xa, ya = _instance(11)
    with pytest.raises(ValueError, match="alpha"):
        models.build_aro(X, y).fit(alpha=-0.1)
    with pytest.raises(ValueError, match="eps"):
        models.build_dr_aro(X, y).fit(alpha=0.1, eps=-1.0, kappa=1.0)
    with pytest.raises(ValueError, match="eps_hat"):
        models.build_inter_aro(X, y, Xa, ya).fit(alpha=0.1, eps=0.1, eps_hat=-1.0, kappa=1.0)
    with pytest.raises(ValueError, match="w must be in"):
        models.mixture_weight(1.5, 10, 20)
    with pytest.raises(ValueError, match="weights"):
        cv.Grids(weights=(0.5, 2.0))
    with pytest.raises(ValueError, match="X_aux"):
        models.build_aro_aux(X, y, Xa[:, :2], ya)
    with pytest.raises(ValueError, match="y must have entries"):
        models.build_erm(X, np.where(y > 0, 1.0, 0.0))
    with pytest.raises(ValueError, match="y_aux"):
        transport.wasserstein_distance(X, y, Xa, ya * 2, kappa=1.0)
    with pytest.raises(ValueError, match="p must be"):
        losses.dual_order(3)
    with pytest.raises(ValueError, match="kappa"):
        transport.ground_cost(X, y, Xa, ya, kappa=-1.0)


def test_cross_validation_picks_from_the_filtered_grid():
    X, y, Xa, ya = _instance(12, N=15, N_hat=15)
    g = cv.Grids(eps=(0.01, 0.1), eps_hat=(0.01, 10.0), weights=(0.0, 1.0), kappas=("1",), folds=3)
    out = cv.cross_validate("DRO+ARO+Aux", X, y, Xa, ya, alpha=0.1, grids=g, rng=np.random.default_rng(0))
    W = out["W"][1.0]
    assert out["params"]["eps"] + out["params"]["eps_hat"] >= W
    assert out["n_candidates"] == len(transport.radius_pairs(g.eps, g.eps_hat, W))


def test_a_failed_refit_is_a_recorded_failure_never_a_number(monkeypatch):
    """run_methods records a SolverError of one method as a missing error; summarise and paired_pair
    leave it out of the statistics and say how many were left out."""
    import pandas as pd

    from safeguarded.solvers import InaccurateError

    real = cv.cross_validate

    def flaky(method, *args, **kwargs):
        if method == "ARO":
            raise InaccurateError("robust_lr_aux.ARO", "CLARABEL", "optimal_inaccurate")
        return real(method, *args, **kwargs)

    monkeypatch.setattr(cv, "cross_validate", flaky)
    rng = np.random.default_rng(3)
    X = rng.uniform(-1, 1, (12, 3))
    y = np.where(X[:, 0] > 0, 1.0, -1.0)
    sim = dict(X=X, y=y, X_aux=X[:6] + 0.1, y_aux=y[:6], X_test=X, y_test=y)
    grids = cv.Grids(eps=(0.1,), eps_hat=(1.0,), weights=(0.5,), kappas=("1",), folds=2)
    rows = []
    for seed in range(3):
        for r in cv.run_methods(sim, alpha=0.1, methods=("ERM", "ARO"), grids=grids, seed=seed):
            rows.append({**r, "seed": seed})
    runs = pd.DataFrame(rows)
    aro = runs[runs.method == "ARO"]
    assert aro["error"].isna().all() and set(aro["status"]) == {"solver failure"}
    assert aro["note"].str.contains("optimal_inaccurate").all()
    summary = cv.summarise(runs.assign(all="x"), keys=("all",), methods=("ERM", "ARO"))
    got = summary.set_index("method")
    assert got.loc["ARO", "n_sims"] == 0 and got.loc["ARO", "n_missing"] == 3
    assert got.loc["ERM", "n_sims"] == 3 and got.loc["ERM", "n_missing"] == 0
    ea, eb, dropped = cv.paired_pair(runs.assign(all="x"), "ERM", "ARO", {"all": "x"})
    assert ea.size == eb.size == 0 and dropped == 3


def test_erm_and_aro_at_alpha_0_share_the_optimal_value_not_the_optimizer(data_mirror):
    """At alpha = 0 ARO is ERM (Table 31 prints equal errors): our two conic models reach the same optimal
    value on spect's simulation 0, but the logistic loss is flat at the |beta| <= 100 box on these nearly
    separable rows, so the optimum is not unique: the midpoint of the two returned betas is optimal too,
    and the two test errors may differ (the 'ERM and ARO coincide' row of the notebook)."""
    from safeguarded.experiments import rng_for

    sim = data.uci_simulation("spect", rng_for(0))
    X, y = sim["X"], sim["y"]
    erm = models.build_erm(X, y, beta_bound=100.0).fit()
    aro = models.build_aro(X, y, p=2, beta_bound=100.0).fit(alpha=0.0)
    assert erm.objective == pytest.approx(aro.objective, abs=1e-6)
    mid = (erm.beta + aro.beta) / 2  # the ERM loss is the adversarial loss at alpha = 0
    assert losses.adversarial_loss(mid, X, y, alpha=0.0).mean() == pytest.approx(erm.objective, abs=1e-6)
    assert np.abs(mid).max() <= 100.0 + 1e-6


def test_a_degenerate_refit_is_counted_apart_never_averaged_in():
    """DR-ARO at a radius past its breakdown: eps * ||beta||_* costs more than any loss it saves, so the
    optimum is beta = 0 (objective log 2, the loss of the zero classifier) and the solver returns
    ||beta||_inf far below DEGENERATE_BETA; at a small radius the same data give a classifier far above it.
    summarise / paired_errors leave the degenerate simulation out of the statistics and count it."""
    import pandas as pd

    rng = np.random.default_rng(3)
    X = np.c_[rng.normal(size=(60, 4)), np.ones(60)]
    y = np.where(X[:, 0] + 0.3 * rng.normal(size=60) > 0, 1.0, -1.0)
    model = models.build_dr_aro(X, y, beta_bound=100.0)
    big = model.fit(solver="CLARABEL", alpha=0.0, eps=50.0, kappa=1.0)
    small = model.fit(solver="CLARABEL", alpha=0.0, eps=1e-3, kappa=1.0)
    assert np.abs(big.beta).max() < cv.DEGENERATE_BETA / 100
    assert big.objective == pytest.approx(np.log(2), abs=1e-6)
    assert np.abs(small.beta).max() > 100 * cv.DEGENERATE_BETA
    runs = pd.DataFrame({"dataset": "toy", "method": "DRO+ARO", "seed": [0, 1, 2],
                         "error": [10.0, 20.0, 89.6], "beta_norm_inf": [1.0, 2.0, np.abs(big.beta).max()],
                         "status": "ok", "note": ""})
    row = cv.summarise(runs, methods=("DRO+ARO",)).iloc[0]
    assert (row["mean"], row["n_sims"], row["n_missing"], row["n_degenerate"]) == (15.0, 2, 1, 1)
    assert np.isnan(cv.paired_errors(runs, "DRO+ARO", {"dataset": "toy"})[2])
    flagged = cv.without_degenerate(runs)
    assert flagged.loc[2, "status"] == "degenerate" and "||beta||_inf" in flagged.loc[2, "note"]
    unrecorded = runs.drop(columns="beta_norm_inf")
    assert cv.without_degenerate(unrecorded).equals(unrecorded)
