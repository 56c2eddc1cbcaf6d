"""The theorem checks of thesis §4-§6 (``safeguarded.<work>.theorems``, issue 53 item 4): each agrees with the
statement on its instances, and each can fail -- a broken premise (a wrong formula in place of the thesis's)
is detected by the same computation."""

from __future__ import annotations

import numpy as np
import pytest

from safeguarded.convex_max import theorems as cm
from safeguarded.rlt import theorems as rt
from safeguarded.robust_lr_aux import theorems as rla
from safeguarded.robust_lr_aux.losses import adversarial_loss


# ---------------------------------------------------------------------------------------------- §4
def test_attack_supremum_is_the_closed_form_and_not_with_the_wrong_dual_norm():
    rng = np.random.default_rng(1)
    beta, x = rng.normal(size=4), rng.normal(size=4)
    sup = rla._attack_supremum(beta, x, 1.0, 0.5, 1.0)  # l1 attack: the dual norm is l_inf
    assert sup == pytest.approx(adversarial_loss(beta, x[None], np.array([1.0]), 0.5, 1.0)[0], abs=1e-7)
    wrong = np.logaddexp(0.0, -beta @ x + 0.5 * np.linalg.norm(beta, 1))  # the attack's own norm instead
    assert abs(sup - wrong) > 1e-3


def test_corollary8_primal_lp_meets_the_dual_and_a_wrong_dual_is_caught():
    rng = np.random.default_rng(2)
    X, y = rla._sample(rng, 5, 2)
    beta = rng.normal(size=2)
    C, yc = rla._candidates(beta, X, 1.0)
    primal = rla._worst_case_lp(beta, 0.2, 2.0, 1.0, 1.0, [(X, y, 0.3)], C, yc)
    dual = rla._corollary8_dual(beta, X, y, 0.3, 1.0, 0.2, 2.0, 1.0)
    assert primal <= dual + 1e-8 and dual - primal <= 1e-3 * dual
    assert rla._corollary8_dual(beta, X, y, 0.15, 1.0, 0.2, 2.0, 1.0) < primal - 1e-2  # eps halved: below


def test_lemma31_printed_form_fails_and_theta_inside_the_infimum_holds():
    out = rla.lemma31_check(0)
    assert not out["holds"] and out["holds_theta_inside"]


@pytest.mark.parametrize("name", rla.__all__)
def test_every_section4_check_holds_at_seed_0_except_the_printed_lemma31(name):
    out = getattr(rla, name)(0)
    assert bool(out["holds"]) is (name != "lemma31_check")


# ---------------------------------------------------------------------------------------------- §5
def test_vertices_of_the_unit_square_and_the_box_maximum_by_enumeration():
    V = cm._vertices(np.eye(2), np.ones(2))
    assert sorted(map(tuple, np.round(V, 12))) == [(0, 0), (0, 1), (1, 0), (1, 1)]
    from safeguarded.convex_max.ball import box_enumeration

    inst = cm._ball(np.random.default_rng(3), 2, 3)
    assert cm._primal_ball(inst, np.inf) == pytest.approx(box_enumeration(inst)[0], rel=1e-12)


def test_dual_of_the_ball_with_the_wrong_dual_norm_misses_the_maximum():
    inst = cm._ball(np.random.default_rng(4), 2, 3)
    right = cm._dual_ball(inst, 2.0)[0]
    assert right == pytest.approx(cm._primal_ball(inst, 2.0), rel=1e-7)
    assert abs(cm._dual_ball(inst, 1.0)[0] - cm._primal_ball(inst, 2.0)) > 1e-3  # q = inf in place of q = 2


@pytest.mark.parametrize("name", cm.__all__)
def test_every_section5_check_holds_at_seed_0(name):
    out = getattr(cm, name)(0)
    assert all(bool(v) for k, v in out.items() if k in ("holds", "recovered", "bracket", "diag", "tight"))


# ---------------------------------------------------------------------------------------------- §6
def test_lifting_violations_catch_a_lifting_that_decreases_in_x():
    rng = np.random.default_rng(5)
    out = rt._lifting_violations(lambda x: -(x @ x), lambda X, x: -np.trace(X), rng, 3)
    assert out["agreement"] < 1e-12 and out["monotonicity"] > 0.1  # -tr(X) agrees but is not monotone


def test_three_simplices_separate_rlt_from_rlt_sdp_and_two_do_not():
    out = rt.three_simplices_check(0)
    assert out["gap_three"] > 1.0 and out["two_equal"]


@pytest.mark.parametrize("name", rt.__all__)
def test_every_section6_check_holds_at_seed_0(name):
    out = getattr(rt, name)(0)
    assert bool(out["holds"]) and bool(out.get("holds_sdp", True))
