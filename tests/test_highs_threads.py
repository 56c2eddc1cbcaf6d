"""HiGHS >= 1.16 keeps one thread scheduler per process: a model that sets its own ``threads`` after
another model (cvxpy's, scipy's callers', a user's) has started the scheduler with a different count
does not run (``HighsStatus.kError``, model status 'Not Set').  CI met this the day highspy 1.16 was
released: every HiGHS solve of the package failed.  None of the package's HiGHS models may set
``threads``; this test starts the scheduler with two threads first, then runs one model of each work
that builds HiGHS models directly."""

from __future__ import annotations

import numpy as np
import pytest

highspy = pytest.importorskip("highspy")


@pytest.fixture
def scheduler_with_two_threads() -> None:
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("threads", 2)
    h.addVars(1, np.array([0.0]), np.array([1.0]))
    h.changeColsCost(1, np.array([0], dtype=np.int32), np.array([-1.0]))
    h.run()
    # Either this model started the scheduler with two threads (optimal), or an earlier solve in this
    # process had started it with another count and this model, which sets its own, is refused ('Not
    # Set': the behaviour the package's models must avoid). A scheduler runs in both cases.
    assert h.getModelStatus() in (highspy.HighsModelStatus.kOptimal, highspy.HighsModelStatus.kNotset)
    # the scheduler is left as it is: the package's models (default threads) run with any scheduler


def test_convex_max_lp_runs_after_another_scheduler(scheduler_with_two_threads):
    from safeguarded.convex_max.lp import PolyhedronLP

    x = PolyhedronLP(np.eye(2), np.array([1.0, 2.0])).argmax(np.ones(2))
    assert x == pytest.approx([1.0, 2.0])


def test_dp_noise_bounds_run_after_another_scheduler(scheduler_with_two_threads):
    from safeguarded.dp_noise import bounds

    part = bounds.uniform_partition(3, 2)
    upper = bounds.upper_bound(0.8, 0.2, part, "l1")
    lower = bounds.lower_bound(0.8, 0.2, part, "l1")
    assert np.isfinite(upper.value) and lower.value <= upper.value + 1e-9


def test_wasserstein_worst_case_lp_runs_after_another_scheduler(scheduler_with_two_threads):
    from safeguarded.wasserstein_mixed.worst_case import _lp_max

    x, value = _lp_max(np.array([1.0, 2.0]), np.ones((1, 2)), np.array([1.0]), np.zeros((0, 2)), np.zeros(0))
    assert value == pytest.approx(2.0) and x == pytest.approx([0.0, 1.0])
