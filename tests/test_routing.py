"""Independent checks of safeguarded.routing (DP routing on Sioux Falls, Tsao et al.)."""

import cvxpy as cp
import dp_accounting
import numpy as np
import pytest

from safeguarded.routing import costs, dp_sgd, problems
from safeguarded.routing import experiments as rexp
from safeguarded.routing.frank_wolfe import all_or_nothing, frank_wolfe_system_optimum
from safeguarded.routing.network import Network, demand_vector, grid_network, sioux_falls
from safeguarded.routing.projection import project_unit_flows
from safeguarded.solvers import solve


@pytest.fixture(scope="module")
def tiny():
    net = grid_network(2, 3, seed=1)
    lam = np.random.default_rng(3).uniform(2, 20, net.n_od).round()
    lam[:3] = 0.0  # zero-demand pairs stay in the policy
    q = costs.affine_slopes(net.free_flow, net.capacity, 2.0)
    return net, lam, q


@pytest.fixture(scope="module")
def sf(data_mirror):
    net, trips = sioux_falls()
    lam = demand_vector(net, trips)
    return net, lam, costs.affine_slopes(net.free_flow, net.capacity, 2.0)


# --- projection -------------------------------------------------------------------------------


@pytest.mark.parametrize("scale", [0.2, 1.0, 5.0])
def test_projection_matches_clarabel_and_kkt(tiny, scale):
    net, _, _ = tiny
    z = np.random.default_rng(int(10 * scale)).normal(0.3, scale, (net.n_od, net.n_arcs))
    x, nu = project_unit_flows(z, net, tol=1e-11, return_dual=True)
    assert net.is_unit_network_flow(x, atol=1e-10)
    # KKT: x = clip(z + A^T nu, 0, 1) is exactly the optimality condition of the box-constrained step.
    np.testing.assert_allclose(x, np.clip(z + nu @ net.incidence, 0, 1), atol=1e-12)
    xv = cp.Variable(z.shape)
    prob = cp.Problem(
        cp.Minimize(cp.sum_squares(xv - z)),
        [xv >= 0, xv <= 1, xv @ net.incidence[:-1].T == net.unit_rhs[:, :-1]],
    )
    rec = solve(prob, name="test.projection", problem_class="QP")
    # Ours satisfies the KKT conditions exactly, so it can only be better than the interior-point answer.
    assert np.sum((x - z) ** 2) <= rec.objective + 1e-7 * max(1.0, rec.objective)
    np.testing.assert_allclose(x, xv.value, atol=1e-3)  # interior-point solutions are ~sqrt(tol) accurate


# --- costs ------------------------------------------------------------------------------------


def test_gradient_and_beta_against_explicit_matrices(tiny):
    net, lam, q = tiny
    rng = np.random.default_rng(0)
    x = rng.uniform(size=(net.n_od, net.n_arcs))
    c, alpha = net.free_flow, 0.7
    g = costs.gradient(x, lam, q, c, alpha)
    d = rng.normal(size=x.shape)
    h = 1e-6
    fd = (costs.objective(x + h * d, lam, q, c, alpha) - costs.objective(x - h * d, lam, q, c, alpha)) / (
        2 * h
    )
    assert fd == pytest.approx(np.sum(g * d), rel=1e-6)
    # B_Lambda = vec(Lambda) kron I_m, built explicitly (policy vector = rows of X concatenated)
    b = np.kron(lam[None, :], np.eye(net.n_arcs))
    eig = np.linalg.eigvalsh(b.T @ np.diag(q) @ b)[-1]
    assert costs.smoothness_beta(lam, q) == pytest.approx(eig, rel=1e-10)
    assert costs.travel_cost(x, lam, q, c) == pytest.approx(
        x.ravel() @ b.T @ np.diag(q) @ b @ x.ravel() + c @ b @ x.ravel()
    )


def test_bpr_and_affine_latency_definitions():
    assert costs.bpr_travel_time(100.0, 2.0, 100.0) == pytest.approx(2.3)
    q = costs.affine_slopes(np.array([4.0]), np.array([1000.0]), kappa=2.0)
    assert q[0] * 1000.0 + 4.0 == pytest.approx(2 * 4.0)  # doubled at capacity


# --- non-private optimum: feasibility and agreement of two methods ----------------------------


def test_system_optimum_conserves_flow_and_is_nonnegative(sf):
    net, lam, q = sf
    so = problems.system_optimum_links(net, lam, q)
    assert so.y.min() >= -1e-6
    rhs = problems.origin_demands(net, lam).sum(axis=0)  # net inflow per node
    np.testing.assert_allclose(net.incidence @ so.y, rhs, atol=1e-4 * lam.max())
    assert so.record.solver == "CLARABEL"


def test_clarabel_and_frank_wolfe_agree(sf):
    """Two independent methods: interior-point QP vs Frank-Wolfe; FW's relative duality gap (1e-4)
    bounds its relative suboptimality, so 0 <= (F_FW - F_QP)/F_QP <= 1e-4 (+ solver tolerance)."""
    net, lam, q = sf
    so = problems.system_optimum_links(net, lam, q)
    fw = frank_wolfe_system_optimum(net, lam, q, rel_gap=1e-4)
    rel = (fw.cost - so.cost) / so.cost
    assert -1e-7 <= rel <= fw.rel_gap + 1e-7
    assert np.linalg.norm(fw.y - so.y) / np.linalg.norm(so.y) < 5e-3


def test_policy_qp_matches_link_qp_and_is_a_unit_flow(tiny):
    net, lam, q = tiny
    so = problems.system_optimum_links(net, lam, q)
    po = problems.policy_optimum(net, lam, q, alpha=0.0)
    assert net.is_unit_network_flow(po.x, atol=1e-6)
    assert costs.travel_cost(po.x, lam, q, net.free_flow) == pytest.approx(so.cost, rel=1e-6)
    np.testing.assert_allclose(costs.link_flows(po.x, lam), so.y, atol=1e-3)


def test_all_or_nothing_conserves_flow(tiny):
    net, lam, _ = tiny
    y = all_or_nothing(net, lam, net.free_flow)
    np.testing.assert_allclose(net.incidence @ y, problems.origin_demands(net, lam).sum(axis=0), atol=1e-9)


def test_shortest_path_policy_is_a_vertex_of_the_polytope_on_shortest_paths(tiny):
    """The primary Fig. 2 start: every row a 0/1 unit flow whose cost is the Dijkstra distance, and the
    link flows equal the independent all-or-nothing assignment (a different traversal of the tree)."""
    from scipy.sparse.csgraph import shortest_path

    net, lam, _ = tiny
    x = dp_sgd.shortest_path_policy(net)
    assert net.is_unit_network_flow(x, atol=0)
    assert set(np.unique(x)) <= {0.0, 1.0}
    dist = shortest_path(net.adjacency(net.free_flow), directed=True)
    od = net.od_pairs
    np.testing.assert_allclose(x @ net.free_flow, dist[od[:, 0], od[:, 1]], rtol=1e-12)
    np.testing.assert_allclose(costs.link_flows(x, lam), all_or_nothing(net, lam, net.free_flow), atol=1e-9)
    with pytest.raises(ValueError, match="weights"):
        dp_sgd.shortest_path_policy(net, weights=-net.free_flow)


def test_initial_policy_rejects_an_unknown_start(tiny):
    with pytest.raises(ValueError, match="start must be one of"):
        rexp.initial_policy(tiny[0], "zeros", 0)


def test_saa_optimum_matches_direct_saa_qp(tiny):
    """The majorisation-minimisation SAA solver (Table 2's x_opt) against the direct SAA QP (10)."""
    net, lam, q = tiny
    days = dp_sgd.sample_days(lam, 5, np.random.default_rng(2), periods=1)
    alpha = 50.0
    x_mm, _, _ = rexp.saa_optimum(net, days, q, alpha, iters=8)
    direct = problems.policy_optimum(net, days, q, alpha=alpha)
    saa = lambda x: float(np.mean(costs.objective(x, days, q, net.free_flow, alpha)))  # noqa: E731
    assert saa(x_mm) == pytest.approx(direct.objective, rel=1e-7)
    assert saa(x_mm) <= saa(direct.x) * (1 + 1e-7)


def test_table2_identities():
    out = rexp.approximation_cell(kind="smoke", n_days=6, alpha=10.0, seed=0)
    assert out["error1"] >= 0
    assert out["error1"] == pytest.approx(out["error1_closed_form"], rel=1e-8)  # Sum_e q_e Var(y_e) / <F>
    assert out["error2"] >= -1e-7  # x_opt minimises the SAA
    assert out["error3"] >= -1e-7  # x_0 minimises the unregularised cost


# --- privacy ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("eps", "delta"), [(0.01, 0.1), (0.1, 0.5), (0.5, 1e-5), (0.9, 0.2)])
def test_noise_scale_against_dp_accounting(eps, delta):
    s = 1.0 / 60
    sigma = dp_sgd.gaussian_sigma(s, eps, delta)
    assert sigma == pytest.approx(s * np.sqrt(2 * np.log(1.25 / delta)) / eps, rel=1e-12)
    # dp_accounting (Google): exact privacy of the Gaussian mechanism with noise multiplier sigma/s.
    assert dp_accounting.get_epsilon_gaussian(sigma / s, delta) <= eps
    analytic = dp_sgd.analytic_gaussian_sigma(s, eps, delta)
    assert analytic == pytest.approx(s * dp_accounting.get_sigma_gaussian(eps, delta), rel=1e-6)
    assert analytic <= sigma


def test_algorithm1_uses_the_theorem_calibration(tiny):
    net, lam, q = tiny
    days = dp_sgd.sample_days(lam, 4, np.random.default_rng(0))
    beta = costs.smoothness_beta(lam, q)
    res = dp_sgd.private_projected_sgd(
        net,
        days,
        q,
        alpha=1.0,
        beta=beta,
        C=beta,
        eps=0.1,
        delta=0.1,
        d_lambda=1 / 60,
        rng=np.random.default_rng(1),
    )
    s = beta * min(1 / beta, 1 / (1.0 * 4)) / 60
    assert res.sensitivity == pytest.approx(s)
    assert res.sigma == pytest.approx(s * np.sqrt(2 * np.log(12.5)) / 0.1)
    assert net.is_unit_network_flow(res.x_N) and net.is_unit_network_flow(res.x_alg)


def test_empirical_sensitivity_never_exceeds_the_bound(tiny):
    """Adjacent data sets (one request added to / removed from one day and pair, Def. 9): the noiseless
    output x_N moves by at most s (Lemma 1).  Theory-consistent constants: F = F_hat + (alpha/2)||x||^2,
    beta = the Hessian bound 2 K lambda_max^2 max q + alpha, C = the Sec. 3.4 constant."""
    net, lam, q = tiny
    T, n_days, alpha = 60, 8, 2.0
    rng = np.random.default_rng(5)
    days = dp_sgd.sample_days(lam, n_days, rng, periods=T)
    lam_max = days.max() + 1.0 / T
    beta = 2 * net.n_od * lam_max**2 * q.max() + alpha
    C = costs.section34_C(net.n_nodes, q, net.free_flow, lam_max)
    s = dp_sgd.sensitivity_bound(C, alpha, beta, n_days, 1.0 / T)
    x0 = dp_sgd.random_policy(net, rng)
    kw = dict(alpha=alpha, beta=beta, C=C, eps=0.5, delta=0.1, d_lambda=1 / T, x0=x0, reg=0.5)
    base = dp_sgd.private_projected_sgd(net, days, q, rng=np.random.default_rng(0), **kw).x_N
    worst = 0.0
    cases = [(0, 0), (n_days - 1, 5), (3, 1)] + [
        (int(rng.integers(n_days)), int(rng.integers(net.n_od))) for _ in range(5)
    ]
    for t, k in cases:
        for sign in (+1, -1):
            other = days.copy()
            other[t, k] = max(0.0, other[t, k] + sign / T)
            out = dp_sgd.private_projected_sgd(net, other, q, rng=np.random.default_rng(0), **kw).x_N
            worst = max(worst, np.linalg.norm(out - base))
    assert 0 < worst <= s


def test_distance_to_optimum_shrinks_with_n(tiny):
    """Theorem 3 (qualitatively): E||x_alg - x*|| decreases with N at fixed (eps, delta)."""
    net, lam, q = tiny
    alpha = 20.0
    beta = costs.smoothness_beta(lam, q)
    x_star = problems.policy_optimum(net, lam, q, alpha=alpha).x
    dist = {}
    for n_days in (5, 40, 320):
        d = []
        for seed in range(3):
            days = dp_sgd.sample_days(lam, n_days, np.random.default_rng(seed))
            res = dp_sgd.private_projected_sgd(
                net, days, q, alpha=alpha, beta=beta, C=beta, eps=0.5, delta=0.1, d_lambda=1 / 60,
                rng=np.random.default_rng(100 + seed),
            )  # fmt: skip
            d.append(np.linalg.norm(res.x_alg - x_star))
        dist[n_days] = np.mean(d)
    assert dist[5] > dist[40] > dist[320]


# --- bad input --------------------------------------------------------------------------------


def test_bad_input(tiny):
    net, lam, q = tiny
    rng = np.random.default_rng(0)
    neg = lam.copy()
    neg[4] = -1.0
    with pytest.raises(ValueError, match="mean_demand must be >= 0"):
        dp_sgd.sample_days(neg, 3, rng)
    with pytest.raises(ValueError, match="lam must be >= 0"):
        problems.system_optimum_links(net, neg, q)
    days = dp_sgd.sample_days(lam, 3, rng)
    kw = dict(alpha=1.0, beta=10.0, C=10.0, d_lambda=1 / 60, rng=rng)
    bad_days = days.copy()
    bad_days[0, 0] = -0.5
    with pytest.raises(ValueError, match="days must be >= 0"):
        dp_sgd.private_projected_sgd(net, bad_days, q, eps=0.1, delta=0.1, **kw)
    for eps in (0.0, -1.0):
        with pytest.raises(ValueError, match=r"eps must be > 0"):
            dp_sgd.private_projected_sgd(net, days, q, eps=eps, delta=0.1, **kw)
    with pytest.raises(ValueError, match=r"eps must be < 1"):
        dp_sgd.gaussian_sigma(1.0, 1.5, 0.1)
    for delta in (0.0, 1.0, 1.5, -0.1):
        with pytest.raises(ValueError, match=r"delta must be in \(0, 1\)"):
            dp_sgd.private_projected_sgd(net, days, q, eps=0.1, delta=delta, **kw)
    with pytest.raises(ValueError, match="kappa must be > 1"):
        costs.affine_slopes(net.free_flow, net.capacity, kappa=1.0)
    with pytest.raises(ValueError, match="alpha must be > 0"):
        dp_sgd.step_sizes(5, alpha=0.0, beta=1.0)
    with pytest.raises(ValueError, match="n_days must be >= 1"):
        dp_sgd.sensitivity_bound(1.0, 1.0, 1.0, 0, 1.0)


def test_disconnected_od_pair_is_rejected():
    # 0 -> 1 -> 2 one way only: (2, 0) has no path.
    net = Network(3, np.array([0, 1]), np.array([1, 2]), np.ones(2), np.ones(2), name="line")
    lam = np.zeros(net.n_od)
    lam[np.flatnonzero((net.od_pairs == [2, 0]).all(axis=1))] = 1.0
    with pytest.raises(
        ValueError, match="disconnected OD pair: no directed path from node 2 to node 0 in line"
    ):
        problems.system_optimum_links(net, lam, np.ones(2))
    with pytest.raises(ValueError, match="disconnected OD pair"):
        dp_sgd.private_projected_sgd(
            net, lam[None, :], np.ones(2), alpha=1, beta=10, C=10, eps=0.1, delta=0.1, d_lambda=1,
            rng=np.random.default_rng(0),
        )  # fmt: skip
