"""Independent checks of safeguarded.atr: Algorithm 1 (corrected Theorem 1) against LP bisection,
feasibility of the announced mapping, Lemmas 2-6, the paper's worked example, bad input."""

import numpy as np
import pandas as pd
import pytest

from safeguarded.atr import lfp
from safeguarded.atr.algorithm import (
    algorithm1,
    beta_candidates,
    feasible_mapping,
    optimal_privacy,
    theorem1_printed,
)
from safeguarded.atr.attacks import invert_fairness_report, leak_report
from safeguarded.atr.fairness import (
    conditional_statistical_parity,
    group_rate,
    individual_fairness_bias,
    lemma2_rm_bound,
    lemma2_tv_bound,
    p_rule_bias,
    statistical_parity,
)
from safeguarded.atr.fidelity import fidelity_bounds, fidelity_box
from safeguarded.atr.instances import random_groups as random_instance
from safeguarded.atr.privacy import beta_min, c_star, confidence
from safeguarded.atr.table import DecisionTable, census_table, example_table, table1
from safeguarded.experiments import rng_for


def achieved(p, x, group):
    conf = confidence(p, x, group).max(axis=1)
    return pd.Series(conf).groupby(group).max().to_numpy()


@pytest.fixture(scope="module")
def random_groups():
    p, d, lo, hi, group = random_instance(seed=11, n_groups=1000)
    res = algorithm1(p, lo, hi, group, d=d)
    lp = lfp.lp_bisection_batched(p, lo, hi, group, tol=1e-9)
    return p, d, lo, hi, group, res, lp


# --- the paper's worked example (Section 8, Table 4) -------------------------------------------


def test_table4_worked_example_delta_09():
    t = example_table()
    np.testing.assert_allclose(t.p, [0.3, 0.125, 0.075, 0.225, 0.175, 0.1])
    lo1, hi1 = fidelity_bounds(t.d, delta=0.9)
    np.testing.assert_allclose(t.p * lo1, [0, 0, 0.0675, 0, 0.07, 0.09], atol=1e-12)
    np.testing.assert_allclose(t.p * hi1, [0.03, 0.0125, 0.075, 0.0225, 0.105, 0.1], atol=1e-12)
    res = optimal_privacy(t, delta=0.9)
    g = res.groups.set_index("group")
    np.testing.assert_allclose(
        g.loc["F", ["beta1", "beta0", "beta_p", "beta"]], [0.0675 / 0.11, 0.27 / 0.4025, 0.675, 0.675]
    )
    np.testing.assert_allclose(
        g.loc["M", ["beta1", "beta0", "beta_p", "beta"]],
        [0.09 / 0.2025, 0.2025 / 0.3175, 0.585, 0.2025 / 0.3175],
    )
    assert g.loc["F", "case"] == "beta_p" and g.loc["M", "case"] == "beta0"
    np.testing.assert_allclose(g.loc["F", "resid"], 0.0025, atol=1e-12)
    np.testing.assert_allclose(res.mapping, [0.1, 0.02, 0.9, 0.1, 0.4, 0.9], atol=1e-12)
    np.testing.assert_allclose(res.beta, 0.675)
    # both balanced confidences of the female group equal 0.675 (L643-644)
    conf = confidence(t.p, res.mapping, t.group_codes)
    np.testing.assert_allclose([conf[0, 0], conf[2, 1]], [0.675, 0.675])


def test_fig5_ranges_beta_min_and_c_star():
    t = example_table()
    np.testing.assert_allclose(beta_min(t.p, t.group_codes), [0.6, 0.45])
    np.testing.assert_allclose(c_star(t.p, t.d, t.group_codes), [1.0, 0.72])


# --- Algorithm 1 against LP bisection -----------------------------------------------------------


def test_algorithm1_matches_lp_bisection_on_random_groups(random_groups):
    p, d, lo, hi, group, res, lp = random_groups
    assert res.groups.shape[0] >= 1000
    np.testing.assert_allclose(res.groups["beta"].to_numpy(), lp.beta, rtol=0, atol=1e-7)
    # every case of the corrected theorem is exercised
    assert set(res.groups["case"]) == {"beta0", "beta1", "beta_p", "beta_min", "singleton"}


def test_announced_mapping_is_feasible(random_groups):
    p, d, lo, hi, group, res, lp = random_groups
    x = res.mapping
    assert np.all(np.isfinite(x))
    assert np.all(x >= lo - 1e-12) and np.all(x <= hi + 1e-12)
    assert np.all(achieved(p, x, group) <= res.groups["beta"].to_numpy() + 1e-9)


def test_printed_theorem1_misses_the_lemma5_floor(random_groups):
    p, d, lo, hi, group, res, lp = random_groups
    printed = res.groups["printed"].to_numpy()
    wrong = np.abs(printed - lp.beta) > 1e-6
    assert wrong.sum() > 100  # the printed value is infeasible on many random groups ...
    assert np.all(printed[wrong] < lp.beta[wrong])  # ... always below the optimum,
    np.testing.assert_allclose(
        lp.beta[wrong], res.groups["beta_min"].to_numpy()[wrong], atol=1e-7
    )  # at beta_min


def test_per_group_and_plain_lp_agree_with_batched():
    p, d, lo, hi, group = random_instance(seed=3, n_groups=12)
    res = algorithm1(p, lo, hi, group)
    per = lfp.lp_bisection_per_group(p, lo, hi, group, tol=1e-9)
    np.testing.assert_allclose(per.beta, res.groups["beta"].to_numpy(), atol=1e-7)
    assert per.n_lps == 12 * 30


def test_monolithic_lp_equals_max_over_groups_lemma3():
    p, d, lo, hi, group = random_instance(seed=5, n_groups=60)
    res = algorithm1(p, lo, hi, group)
    mono = lfp.lp_bisection_monolithic(p, lo, hi, group, tol=1e-9)
    np.testing.assert_allclose(mono.beta[0], res.beta, atol=1e-7)


def test_brute_force_grid_on_two_record_groups():
    rng = rng_for(7)
    grid = np.linspace(0, 1, 801)
    for _ in range(12):
        p = rng.dirichlet(np.ones(2))
        d = rng.choice([0, 0.25, 0.5, 0.75, 1.0], 2)
        lo, hi = fidelity_box(d, delta=float(rng.uniform()))
        beta = algorithm1(p, lo, hi, np.zeros(2, dtype=int)).beta
        x1, x2 = np.meshgrid(np.clip(grid, lo[0], hi[0]), np.clip(grid, lo[1], hi[1]), indexing="ij")
        X = np.stack([p[0] * x1, p[1] * x2])
        Y = np.stack([p[0] * (1 - x1), p[1] * (1 - x2)])
        with np.errstate(invalid="ignore", divide="ignore"):
            c1 = np.nan_to_num(X.max(0) / X.sum(0))
            c0 = np.nan_to_num(Y.max(0) / Y.sum(0))
        best = np.maximum(c1, c0).min()
        assert beta <= best + 1e-12 and best - beta < 5e-3


def test_order_of_records_does_not_matter():
    p, d, lo, hi, group = random_instance(seed=9, n_groups=200)
    perm = rng_for(9, 1).permutation(p.size)
    a = algorithm1(p, lo, hi, group)
    b = algorithm1(p[perm], lo[perm], hi[perm], group[perm])
    np.testing.assert_allclose(a.groups["beta"], b.groups["beta"], atol=1e-15)
    assert np.all(achieved(p[perm], b.mapping, group[perm]) <= b.groups["beta"].to_numpy() + 1e-9)


# --- structure lemmas ---------------------------------------------------------------------------


def test_lemmas_4_5_6_and_monotonicity():
    rng = rng_for(13)
    n_groups = 300
    m = rng.integers(2, 8, n_groups)
    group = np.repeat(np.arange(n_groups), m)
    p = rng.dirichlet(np.ones(group.size))
    d = rng.uniform(size=group.size)
    cs, bm = c_star(p, d, group), beta_min(p, group)
    assert np.all(cs >= bm - 1e-15)  # Lemma 6
    prev = None
    for delta in np.linspace(0, 1, 41):
        lo, hi = fidelity_box(d, delta=delta)
        beta = algorithm1(p, lo, hi, group).groups["beta"].to_numpy()
        if delta == 0:
            np.testing.assert_allclose(beta, bm, atol=1e-15)  # Lemma 5: no fidelity -> beta_min
        if prev is not None:
            assert np.all(beta >= prev - 1e-12)  # more fidelity, weaker privacy
        prev = beta
    np.testing.assert_allclose(prev, cs, atol=1e-12)  # Lemma 4: delta = 1 -> C*


def test_feasible_mapping_at_and_below_optimum():
    t = example_table()
    lo, hi = fidelity_box(t.d, delta=0.5)
    x = feasible_mapping(t.p, lo, hi, t.group_codes, [0.6, 0.45])
    assert np.all(achieved(t.p, x, t.group_codes) <= np.array([0.6, 0.45]) + 1e-9)
    with pytest.raises(ValueError, match="infeasible"):
        feasible_mapping(t.p, lo, hi, t.group_codes, [0.59, 0.45])


def test_erratum_counterexample_female_delta_05():
    t = example_table()
    lo, hi = fidelity_box(t.d, delta=0.5)
    pr = theorem1_printed(t.p, lo, hi, t.group_codes)
    np.testing.assert_allclose(pr["printed"], [0.48, 0.45 / 1.1], atol=1e-12)
    F = (t.frame["gender"] == "F").to_numpy()
    # LP at the printed value is infeasible; the optimum is beta_min = 0.6
    beta_lp, _ = lfp.lp_bisection_group(t.p[F], lo[F], hi[F], tol=1e-10)
    np.testing.assert_allclose(beta_lp, 0.6, atol=1e-8)
    # D~_1 = 1/2 is feasible at 0.6 (Lemma 5's witness)
    assert achieved(t.p[F], np.full(3, 0.5), np.zeros(3, dtype=int))[0] <= 0.6 + 1e-12


def test_degenerate_cases_never_nan():
    # singleton groups, delta = 0 (all minima 0), x^0 = x^1, zero-probability records
    p = np.array([0.2, 0.3, 0.0, 0.5])
    group = np.array([0, 1, 1, 2])
    d = np.array([0.3, 1.0, 0.0, 0.5])
    for delta in (0.0, 0.5, 1.0):
        lo, hi = fidelity_box(d, delta=delta)
        res = algorithm1(p, lo, hi, group, d=d)
        assert np.all(np.isfinite(res.mapping)) and np.all(np.isfinite(res.groups["beta"]))
        np.testing.assert_allclose(res.groups["beta"], 1.0)  # one record with mass per group
    np.testing.assert_allclose(res.mapping[[0, 3]], d[[0, 3]])  # singletons announce D
    # x^0 = x^1: one dominant record with an interior d
    p2 = np.array([0.7, 0.2, 0.1])
    lo2, hi2 = fidelity_box(np.array([0.5, 0.5, 0.5]), delta=0.9)
    res2 = algorithm1(p2, lo2, hi2, np.zeros(3, dtype=int))
    assert res2.groups["x0"][0] == res2.groups["x1"][0] == 0
    np.testing.assert_allclose(res2.beta, 0.7)


# --- fairness (App. A) and Lemma 2 --------------------------------------------------------------


def test_table2_fairness_measures():
    t = table1()
    p = t["population"].to_numpy(float) / t["population"].sum()
    d = t["d"].to_numpy()
    F, M = (t["gender"] == "F").to_numpy(), (t["gender"] == "M").to_numpy()
    np.testing.assert_allclose([group_rate(p, d, F), group_rate(p, d, M)], [2 / 150, 0.1])
    np.testing.assert_allclose(statistical_parity(p, d, F, M), 0.1 - 2 / 150)
    csp = [conditional_statistical_parity(p, d, F, M, (t["income"] == w).to_numpy()) for w in t["income"][:3]]
    np.testing.assert_allclose(csp, [0, 0.5, 0])


def test_lemma2_tv_bound_on_random_instances():
    rng = rng_for(17)
    for _ in range(300):
        n = int(rng.integers(2, 12))
        p = rng.dirichlet(np.ones(n))
        d = rng.uniform(size=n)
        delta = float(rng.uniform())
        lo, hi = fidelity_box(d, delta=delta)
        dt = lo + (hi - lo) * rng.uniform(size=n)
        g1 = rng.uniform(size=n) < 0.5
        g1[0], g1[-1] = True, False
        g2 = ~g1
        v = rng.uniform(size=n) < 0.6
        v[[0, -1]] = True
        dist = np.abs(rng.uniform(size=(n, 1)) - rng.uniform(size=(1, n))) * 0.3
        bound = lemma2_tv_bound(delta)
        assert abs(statistical_parity(p, dt, g1, g2) - statistical_parity(p, d, g1, g2)) <= bound + 1e-12
        assert (
            abs(
                conditional_statistical_parity(p, dt, g1, g2, v)
                - conditional_statistical_parity(p, d, g1, g2, v)
            )
            <= bound + 1e-12
        )
        assert abs(individual_fairness_bias(dt, dist) - individual_fairness_bias(d, dist)) <= bound + 1e-12
        alpha = float(rng.uniform(0.05, 1))
        lo, hi = fidelity_box(d, alpha=alpha)
        dt = lo + (hi - lo) * rng.uniform(size=n)
        shift = abs(p_rule_bias(p, dt, g1, g2) - p_rule_bias(p, d, g1, g2))
        assert shift <= lemma2_rm_bound(alpha, cap=False) + 1e-12  # the uncapped bound holds


def test_lemma2_relative_metric_cap_fails_on_counterexample():
    p, d = np.array([0.5, 0.5]), np.array([0.5, 0.5])
    lo, hi = fidelity_box(d, alpha=0.5)
    np.testing.assert_allclose([lo, hi], [[0.25, 0.25], [0.75, 0.75]])
    g1, g2 = np.array([True, False]), np.array([False, True])
    shift = p_rule_bias(p, np.array([0.75, 0.25]), g1, g2) - p_rule_bias(p, d, g1, g2)
    np.testing.assert_allclose(shift, np.log(3))
    assert shift > lemma2_rm_bound(0.5) and shift <= lemma2_rm_bound(0.5, cap=False)


# --- attacks -------------------------------------------------------------------------------------


def test_section32_posterior_and_mary_inversion():
    rep = leak_report(census_table())
    male_rich = rep[(rep.gender == "M") & (rep.income == ">200k") & (rep.a == 1)].iloc[0]
    np.testing.assert_allclose(male_rich.conf, 0.035 / (0.123 * 0.5 + 0.035))
    np.testing.assert_allclose(male_rich.lift, 0.035 / (0.123 * 0.5 + 0.035) / 0.035)
    census = np.array([[0.931, 0.057, 0.012], [0.842, 0.123, 0.035]])
    inv = invert_fairness_report(census, [2 / 150, 0.1], [0, 0.5, 0]).set_index("branch")
    assert not inv.loc["d12 = d22 + b", "probability_vector"]
    np.testing.assert_allclose(
        inv.loc["d12 = d22 - b", ["d12", "d13"]].to_numpy(float), [0.00899, 1.0684], atol=5e-5
    )
    np.testing.assert_allclose(inv.loc["d12 = d22 - b", "d12_clipped"], (2 / 150 - 0.012) / 0.057)


# --- bad input -----------------------------------------------------------------------------------


def test_bad_input_errors_name_the_parameter():
    p, d = np.array([0.5, 0.5]), np.array([0.0, 1.0])
    g = np.array([0, 0])
    with pytest.raises(ValueError, match="delta must be in \\[0, 1\\]"):
        fidelity_box(d, delta=1.5)
    with pytest.raises(ValueError, match="alpha must be in \\[0, 1\\]"):
        fidelity_box(d, alpha=-0.1)
    with pytest.raises(ValueError, match="exactly one of delta"):
        fidelity_box(d)
    with pytest.raises(ValueError, match="d must have every entry in \\[0, 1\\]"):
        fidelity_box(np.array([0.2, 1.2]), delta=0.5)
    with pytest.raises(ValueError, match="p must sum to 1"):
        algorithm1(np.array([0.5, 0.6]), d, d, g)
    with pytest.raises(ValueError, match="p must have finite entries >= 0"):
        algorithm1(np.array([1.5, -0.5]), d, d, g)
    with pytest.raises(ValueError, match="lo must be <= hi"):
        algorithm1(p, np.array([0.5, 0.5]), np.array([0.4, 0.6]), g)
    with pytest.raises(ValueError, match="group must hold integer"):
        algorithm1(p, d, d, np.array([0.0, 1.0]))
    with pytest.raises(ValueError, match="positive probability mass"):
        algorithm1(np.array([1.0, 0.0]), d, d, np.array([0, 1]))
    with pytest.raises(ValueError, match="beta must be in \\(0, 1\\]"):
        feasible_mapping(p, d, d, g, 1.5)
    with pytest.raises(ValueError, match="tol must be in"):
        lfp.lp_bisection_per_group(p, d, d, g, tol=0.0)
    with pytest.raises(ValueError, match="frame must contain at least one record"):
        DecisionTable(pd.DataFrame({"u": [], "s": []}), ("u",), ("s",), np.array([]), np.array([]))
    with pytest.raises(ValueError, match="csp_bias must be"):
        invert_fairness_report(np.ones((2, 3)) / 3, [0.1, 0.1], [0.1, 0.5, 0])
    with pytest.raises(ValueError, match="group1 must select at least one record"):
        statistical_parity(p, d, np.array([False, False]), np.array([True, True]))
    with pytest.raises(ValueError, match="metric must be"):
        individual_fairness_bias(d, np.zeros((2, 2)), metric="l2")
    with pytest.raises(ValueError, match="delta must be"):
        lemma2_tv_bound(2.0)
    _ = beta_candidates(p, d, d, g)


def test_lp_through_solver_layer_agrees():
    p, d, lo, hi, group = random_instance(seed=21, n_groups=4, max_size=5)
    res = algorithm1(p, lo, hi, group).groups["beta"].to_numpy()
    for g in range(4):
        m = group == g
        beta, n_lps, used = lfp.lp_bisection_group_cvxpy(p[m], lo[m], hi[m], tol=1e-7)
        assert used == "HIGHS" and n_lps == 24
        np.testing.assert_allclose(beta, res[g], atol=1e-5)


def test_theorem1_table_matches_its_definitions():
    from safeguarded.atr.algorithm import theorem1_table

    t = example_table()
    tab = theorem1_table(t, delta=0.9)
    np.testing.assert_allclose(tab["PD1_max'"], [0.03, 0.0125, 0.0675, 0.0225, 0.09, 0.09], atol=1e-12)
    np.testing.assert_allclose(tab["PD0_max'"], [0.27, 0.125, 0.0075, 0.2025, 0.105, 0.01], atol=1e-12)


def test_credit_approval_loader_and_qii_identity(data_mirror):
    from safeguarded.atr.attacks import qii_difference_attack
    from safeguarded.data.credit_approval import load_credit_approval

    raw, data = load_credit_approval(dropna=False), load_credit_approval()
    assert (len(raw), len(data)) == (690, 653)
    assert raw["A16"].value_counts().to_dict() == {"-": 383, "+": 307}
    in_t = (data.A4 == "y") & (data.A5 == "p") & (data.A6 == "k") & (data.A7 == "v")
    assert in_t.sum() == 11
    # any classifier: the differencing identity holds exactly with shared draws
    predict = lambda f: (f["A11"].to_numpy() > 5).astype(int)  # noqa: E731
    w1 = (in_t & data.A11.between(10, 11)).to_numpy()
    w0 = (in_t & data.A11.between(0, 1)).to_numpy()
    private = ["A1", "A2", "A3", "A8", "A9", "A10", "A11", "A12", "A13", "A14", "A15"]
    att = qii_difference_attack(predict, data, w1, w0, private, rng_for(0), rng_for(0), 40)
    np.testing.assert_allclose(att["difference"], 1.0)
    with pytest.raises(ValueError, match="dropna must be True or False"):
        load_credit_approval(dropna="yes")


def test_qii_standard_error_matches_an_explicit_loop_over_draws():
    """I_se of qii = std of the per-draw intervened group rates / sqrt(R), computed here draw by draw."""
    from safeguarded.atr.attacks import qii

    rng = np.random.default_rng(4)
    data = pd.DataFrame({"u": rng.integers(0, 2, 40), "s": rng.normal(size=40)})
    predict = lambda df: (df["s"].to_numpy() + 0.3 * df["u"].to_numpy() > 0).astype(float)  # noqa: E731
    group = data["u"].to_numpy() == 1
    out = qii(predict, data, group, ["s"], np.random.default_rng(7), 25)
    rates = []
    for j in out["draws"]:
        rep = data.loc[group].copy()
        rep["s"] = data["s"].iloc[j]
        rates.append(predict(rep).mean())
    rates = np.array(rates)
    assert out["I"] == pytest.approx(predict(data.loc[group]).mean() - rates.mean(), abs=1e-12)
    assert out["I_se"] == pytest.approx(rates.std(ddof=1) / np.sqrt(len(rates)), rel=1e-12)
