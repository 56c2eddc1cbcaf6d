"""Tests of Tables 10/15 (safeguarded.gaussian_mixtures.optimum): the Section 1 LP lower bound is a
certified bound on every (eps, delta)-DP noise, so no calibrated mechanism may beat it; the LP upper-bound
noise is itself private (independent quadrature); the gap share and partition rule behave as documented."""

import math

import numpy as np
import pandas as pd
import pytest

from safeguarded.dp_noise import bounds
from safeguarded.gaussian_mixtures import grid, optimum, privacy
from safeguarded.gaussian_mixtures import multi_gaussian as mg
from safeguarded.gaussian_mixtures import quasi_gaussian as qg


@pytest.mark.parametrize("eps,delta", [(1.0, 0.1), (3.0, 0.25)])
def test_no_private_mechanism_beats_the_lp_lower_bound(eps, delta):
    low = optimum.lp_lower_cell(eps, delta, "l1", work=1500)  # certified D(L, beta), uniform grid
    up = optimum.lp_cell(eps, delta, "l1", work=1500)  # P(pi, beta), graded grid: a DP noise
    assert low["status"] == "optimal" and up["status"] == "optimal"
    assert 0 < low["lower"] <= up["upper"]  # D <= OPT <= P (Props. 1 and 3)
    s_ag = grid.analytic_gaussian_sigma(eps, delta)
    losses = {
        "AG": s_ag * math.sqrt(2 / math.pi),
        "QG": qg.amplitude(qg.calibrate(eps, delta, 1.0).sigma, eps, 1.0),
    }
    for k in (1, 2):
        losses[f"MG{k}"] = mg.amplitude(mg.calibrate(eps, delta, 1.0, k, 0.01).sigma, eps, 1.0, k)
    for name, value in losses.items():
        assert value >= low["lower"], f"{name} loss {value} below the LP lower bound {low['lower']}"


def test_graded_lower_bound_is_not_certified_but_uniform_is():
    """Finding: D(pi, beta) on a graded partition (noise uniform inside coarse cells) exceeds the loss of a
    multi-Gaussian that is (eps, delta)-DP (calibrated at every shift, checked independently in
    test_gaussian_mixtures.py), so it is not a lower bound; the uniform-grid D(L, beta) stays below."""
    eps, delta, k = 0.75, 5e-4, 9
    m = mg.amplitude(mg.calibrate(eps, delta, 1.0, k, 0.01).sigma, eps, 1.0, k)
    part = optimum.lp_partition(eps, delta, work=10000)
    graded = bounds.lower_bound(eps, delta, part, "l1", method="compact", uncertified_nonuniform=True).value
    uniform = optimum.lp_lower_cell(eps, delta, "l1", work=4000)
    assert part.k == 30
    assert graded > m > uniform["lower"]


def test_lp_bounds_bracket_and_tighten_with_resolution():
    coarse, fine = (optimum.lp_lower_cell(1.0, 0.1, "l2", work=w) for w in (600, 3000))
    ups = [optimum.lp_cell(1.0, 0.1, "l2", work=w)["upper"] for w in (600, 3000)]
    assert fine["k"] > coarse["k"]
    # bounds on the same optimum: every certified lower bound is below every upper bound
    assert max(coarse["lower"], fine["lower"]) <= min(ups) + 1e-12
    assert fine["lower"] > coarse["lower"] and ups[1] < ups[0]  # both tighten with k


OK = {"optimal", "optimal (certified gap)"}


@pytest.mark.parametrize("loss,eps,delta,method_upper,ends", [
    ("l1", 1.0, 0.1, "ipm", OK),  # D's masses lean on the padding: P solved by itself
    # they do not: P from D's masses, exactly privacy-checked; at e^eps = 22026 the IPM ends in a reported
    # "numerical breakdown" or "stalled", and its Lagrangian bound is still certified (checked below)
    ("l1", 10.0, 0.1, "ipm (from D)", OK | {"numerical breakdown", "stalled", "from D (checked)"}),
    ("l2", 1.0, 0.1, "ipm", OK),
])
def test_ipm_cell_equals_highs_on_the_same_grids_and_brackets_the_mechanisms(
    loss, eps, delta, method_upper, ends
):
    """lp_ipm_cell's certified bounds: D the best of two supports, P on the narrow one (for l1 taken from D's
    masses where they pass P's exact check); each equal to HiGHS's exact LP optimum on the same symmetric grid
    (an independent solver, unfolded), and no private mechanism below D."""
    from safeguarded.dp_noise.synthetic import grid_for

    n = 81
    row = optimum.lp_ipm_cell(eps, delta, loss, n_cells=n)
    assert row["status"] == "optimal" and row["solver"].startswith("safeguarded structured IPM")
    assert {row[f"status_{t}"] for t in ("lower_s1", "lower_s2", "upper_s1")} <= ends
    exact = {}
    for factor in optimum.IPM_SUPPORT_FACTORS:
        part = grid_for(eps, delta, n_cells=n, support_factor=factor, symmetric=True)
        assert (row[f"k_lower_s{factor:g}"], row[f"cells_lower_s{factor:g}"]) == (part.k, part.n_cells)
        exact[factor] = bounds.lower_bound(eps, delta, part, loss, method="compact").value
        assert row[f"lower_s{factor:g}"] == pytest.approx(exact[factor], rel=1e-5)
        assert row[f"lower_s{factor:g}"] <= exact[factor] + 1e-12  # certified: never above the LP optimum
    assert row["lower"] == max(row["lower_s1"], row["lower_s2"])
    narrow = grid_for(eps, delta, n_cells=n, support_factor=1.0, symmetric=True)
    p_exact = bounds.upper_bound(eps, delta, narrow, loss, method="compact").value
    assert p_exact - 1e-12 <= row["upper"] == pytest.approx(p_exact, rel=1e-5)  # a feasible noise's loss
    assert row["method_upper"] == method_upper
    sigma = grid.analytic_gaussian_sigma(eps, delta)
    ag = sigma * math.sqrt(2 / math.pi) if loss == "l1" else sigma**2
    cal = mg.calibrate(eps, delta, 1.0, 2, 0.01)
    mg2 = (mg.amplitude if loss == "l1" else mg.power)(cal.sigma, eps, 1.0, 2)
    assert row["lower"] <= min(ag, mg2)


def test_share_frame_takes_the_smaller_of_two_upper_bounds():
    losses = pd.DataFrame(dict(epsilon=[1.0, 2.0], delta=0.1, a=[2.0, 1.0], m=[1.0, 0.5], best_k=2))
    key = dict(epsilon=[1.0, 2.0], delta=0.1, loss="l1", status="optimal")
    lp = pd.DataFrame(dict(**key, lower=0.1, upper=[0.6, 0.4], k=10, n_cells=50))
    low = pd.DataFrame(dict(**key, lower=[0.4, 0.3], upper=[0.5, 0.45], k=4))
    out = optimum.share_frame(losses, lp, "l1", lower=low).set_index("epsilon")
    assert out["upper"].tolist() == [0.5, 0.4] and out["upper_graded"].tolist() == [0.6, 0.4]
    assert out.loc[1.0, "share_upper"] == pytest.approx(100 * 1.0 / 1.5)
    assert out.loc[2.0, "share_lower"] == pytest.approx(100 * 0.5 / 0.7)


def test_lp_optimal_noise_is_private_by_independent_quadrature():
    eps, delta = 1.0, 0.1
    res = optimum.optimal_noise(eps, delta, "l1", work=800)
    noise = res.noise()
    assert noise.amplitude() == pytest.approx(res.value, rel=1e-9)
    radius = float(np.abs(noise.edges).max()) + 1.0
    h = float(np.diff(noise.edges).min()) / 8  # cell edges fall on the quadrature grid
    phis = np.linspace(0.0, 1.0, 4 * res.partition.k + 1)
    hs = privacy.hockey_stick_quadrature(noise.pdf, phis, eps, -radius - 1.0, radius, h)
    assert float(np.max(hs)) <= delta + 1e-6


def test_gap_share_and_share_frame():
    assert float(optimum.gap_share(2.0, 1.0, 0.0)) == pytest.approx(50.0)
    assert float(optimum.gap_share(2.0, 0.5, 0.5)) == pytest.approx(100.0)
    losses = pd.DataFrame(
        dict(epsilon=[1.0, 2.0], delta=[0.1, 0.1], a=[2.0, 1.0], m=[1.0, 0.2], best_k=[2, 3])
    )
    lp = pd.DataFrame(
        dict(epsilon=[1.0, 2.0], delta=[0.1, 0.1], loss="l1", lower=[0.5, 0.3], upper=[0.6, 0.4],
             rel_gap=[1 / 6, 0.25], k=10, n_cells=50, status="optimal")
    )  # fmt: skip
    out = optimum.share_frame(losses, lp, "l1").set_index("epsilon")
    low = pd.DataFrame(
        dict(epsilon=[1.0, 2.0], delta=[0.1, 0.1], loss="l1", lower=[0.4, 0.1], k=4, status="optimal")
    )
    both = optimum.share_frame(losses, lp, "l1", lower=low).set_index("epsilon")
    assert both.loc[1.0, "share_lower"] == pytest.approx(100 * 1.0 / 1.6)
    assert both.loc[2.0, "below_graded"] and not both.loc[2.0, "below_lower"]
    assert out.loc[1.0, "share_lower"] == pytest.approx(100 * 1.0 / 1.5)
    assert out.loc[1.0, "share_upper"] == pytest.approx(100 * 1.0 / 1.4)
    assert out.loc[1.0, "share_lower"] <= out.loc[1.0, "share_upper"]
    assert not out.loc[1.0, "below_lower"] and out.loc[2.0, "below_lower"]  # m = 0.2 < D = 0.3: flagged


def test_lp_partition_respects_the_budget():
    parts = [optimum.lp_partition(1.0, 0.1, w) for w in (500, 2000, 8000)]
    ks = [p.k for p in parts]
    assert ks == sorted(ks) and ks[0] < ks[-1]
    for p, w in zip(parts[1:], (2000, 8000), strict=True):
        assert p.n_cells * (2 * p.k + 1) <= w
    # single fine cells on [-Delta, Delta], and the support covers the supplement's rule
    widths = np.diff(p.breaks)
    assert np.all(widths[(p.breaks[:-1] >= -p.k) & (p.breaks[1:] <= p.k)] == 1)
    assert -p.lo * p.beta >= 2.0


@pytest.mark.parametrize(
    "call,match",
    [
        (lambda: optimum.lp_partition(0.0, 0.1), "epsilon"),
        (lambda: optimum.lp_partition(1.0, 1.5), "delta"),
        (lambda: optimum.lp_partition(1.0, 0.1, work=0), "work"),
        (lambda: optimum.lp_partition(1.0, 0.1, fine=0.0), "fine"),
        (lambda: optimum.lp_partition(1.0, 0.1, growth=0.5), "growth"),
        (lambda: optimum.lp_partition(1.0, 0.1, support_factor=0.5), "support_factor"),
        (lambda: optimum.lp_cell(1.0, 0.1, "l3"), "loss"),
        (lambda: optimum.lp_lower_cell(1.0, 0.1, "l3"), "loss"),
        (lambda: optimum.lp_lower_cell(1.0, 0.1, work=-1), "work"),
        (lambda: optimum.optimal_noise(1.0, 0.1, "linf"), "loss"),
        (lambda: optimum.lp_ipm_cell(1.0, 0.1, "l3"), "loss"),
        (lambda: optimum.lp_ipm_cell(1.0, 0.1, n_cells=4), "n_cells"),
        (lambda: optimum.run_lp_ipm_grid([1.0], [0.1], n_cells=2.5, name="x"), "n_cells"),
        (lambda: optimum.run_lp_grid([1.0], [0.1], ("l1", "huber"), name="x"), "loss"),
    ],
)
def test_bad_input_is_rejected_with_a_named_parameter(call, match):
    with pytest.raises(ValueError, match=match):
        call()
