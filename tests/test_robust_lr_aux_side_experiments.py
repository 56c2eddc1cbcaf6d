"""App. 4.D.1's side experiments: the reversed training/auxiliary split, the uniform-marginal synthesiser."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from safeguarded.experiments import rng_for
from safeguarded.robust_lr_aux import cv, data
from safeguarded.robust_lr_aux import side_experiments as side


def _frame(rng: np.random.Generator, n: int = 300) -> pd.DataFrame:
    x = rng.normal(size=n)
    return pd.DataFrame({
        "a": np.exp(x),  # skewed, distinct values
        "c": x + 0.5 * rng.normal(size=n),
        "b": np.where(x + rng.normal(size=n) > 1.0, "u", np.where(x > -1.0, "v", "w")),
        "__label__": np.where(x > 0.5, 1.0, -1.0),
    })


def test_uniform_marginals_are_uniform_on_the_observed_range_and_categories():
    frame = _frame(np.random.default_rng(0))
    synth = side.UniformMarginalCopula(frame).sample(np.random.default_rng(1), 4000)
    lo, hi = frame["a"].min(), frame["a"].max()
    assert stats.kstest(synth["a"], stats.uniform(lo, hi - lo).cdf).pvalue > 1e-3
    assert synth["a"].between(lo, hi).all()
    for column, levels in (("b", {"u", "v", "w"}), ("__label__", {-1.0, 1.0})):
        counts = synth[column].value_counts()
        assert set(counts.index) == levels
        assert stats.chisquare(counts.to_numpy()).pvalue > 1e-3  # equal frequencies
    # The original copula's marginals are far from uniform (the modification is not a no-op).
    original = data.GaussianCopula(frame).sample(np.random.default_rng(1), 4000)
    assert stats.kstest(original["a"], stats.uniform(lo, hi - lo).cdf).pvalue < 1e-6


def test_uniform_marginals_keep_the_copula():
    """Same generator state -> the same copula draw: every numerical column has the ranks of the original
    copula's sample (both marginal maps are increasing), so only the marginals change."""
    frame = _frame(np.random.default_rng(2))
    uniform = side.UniformMarginalCopula(frame).sample(np.random.default_rng(3), 500)
    original = data.GaussianCopula(frame).sample(np.random.default_rng(3), 500)
    for column in ("a", "c"):
        assert stats.spearmanr(uniform[column], original[column]).statistic > 0.999
    assert stats.spearmanr(uniform["a"], uniform["c"]).statistic > 0.5  # the dependence survives


def test_reversed_split_swaps_training_and_generator_shares(data_mirror):
    original = data.uci_simulation("ecoli", rng_for(4))
    reversed_ = side.variant_simulation("ecoli", "reversed-split", rng_for(4))
    n_tr, n_gen, n_te = data.uci_split_sizes(336)
    assert (len(original["y"]), len(original["y_aux"])) == (n_tr, n_gen) == (50, 151)
    assert (len(reversed_["y"]), len(reversed_["y_aux"])) == (n_gen, n_tr)
    # Same permutation: the same test set, and the original training rows open the reversed training set.
    np.testing.assert_array_equal(reversed_["X_test"], original["X_test"])
    np.testing.assert_array_equal(reversed_["X"][:n_tr], original["X"])
    assert len(reversed_["y_test"]) == n_te


def test_uniform_marginal_simulation_keeps_the_original_split(data_mirror):
    original = data.uci_simulation("spect", rng_for(5))
    uniform = side.variant_simulation("spect", "uniform-marginals", rng_for(5))
    np.testing.assert_array_equal(uniform["X"], original["X"])
    np.testing.assert_array_equal(uniform["X_test"], original["X_test"])
    assert uniform["X_aux"].shape == original["X_aux"].shape
    assert abs(np.mean(uniform["y_aux"] == 1) - 0.5) < 0.1  # the label's marginal is uniform too


def test_bad_input_names_the_parameter(data_mirror):
    with pytest.raises(ValueError, match="variant"):
        side.variant_simulation("ecoli", "mirrored", rng_for(0))
    with pytest.raises(ValueError, match="name"):
        side.variant_simulation("absent", "reversed-split", rng_for(0))
    with pytest.raises(ValueError, match="eps"):
        side.uci_variant_cell("ecoli", "reversed-split", 0.05, 0.1, (1.0,), (0.0,), ("1",), 2)
    with pytest.raises(ValueError, match="alpha"):
        side.uci_variant_cell("ecoli", "reversed-split", -1.0, (0.1,), (1.0,), (0.0,), ("1",), 2)


def test_variant_cell_runs_the_five_methods_on_the_variant_data(data_mirror):
    rows = side.uci_variant_cell("spect", "reversed-split", 0.05, (0.1,), (10.0,), (0.0, 1.0), ("1",), 2,
                                 eps_inter=(0.1,), max_aux=15, seed=0)
    assert [r["method"] for r in rows] == list(cv.METHODS[:5])
    n_tr, n_gen, _ = data.uci_split_sizes(267)
    assert {(r["N"], r["N_hat"]) for r in rows} == {(n_gen, 15)}
    ok = [r for r in rows if r["status"] == "ok"]
    assert ok and all(0.0 <= r["error"] <= 100.0 for r in ok)


def _inter_rows(W, eps_hat, status):
    return pd.DataFrame({"method": "DRO+ARO+Aux", "alpha": 0.05, "dataset": "d", "seed": range(len(W)),
                         "W": W, "eps_hat": eps_hat, "status": status})


def test_radius_choice_counts_a_choice_only_where_a_smaller_eps_hat_survives_the_filter():
    from safeguarded.robust_lr_aux.radius_choice import large_eps_hat_verdict, radius_choices
    from safeguarded.robust_lr_aux.transport import radius_pairs

    eps, eps_hat = (0.01, 0.1), (1.0, 10.0)
    W = [0.5, 1.1, 1.1 + 1e-9, 7.0, 12.0, 3.0]
    rows = _inter_rows(W, [1.0, 10.0, 10.0, 10.0, np.nan, np.nan],
                       ["ok"] * 4 + ["empty grid", "solver failure"])
    row = radius_choices(rows, eps, eps_hat, [10.0], alpha=0.05).iloc[0]
    # independent count: a pair with eps_hat = 1 survives exactly when eps + 1 >= W for some eps of the grid
    survives = [any(h == 1.0 for _, h in radius_pairs(eps, eps_hat, w)) for w in W[:4]]
    assert survives == [True, True, False, False]
    assert (row.simulations, row.empty_grid, row.failed) == (6, 1, 1)
    assert (row.smaller_eps_hat_available, row.chose_large_eps_hat) == (2, 3)
    holds, with_choice, note = large_eps_hat_verdict(row)
    assert with_choice == 4 and holds is False  # simulation 0 chose eps_hat = 1 where it could
    assert "1 the filter left no pair" in note and "1 without a chosen radius" in note
    # where only eps_hat = 10 survives, the statement cannot fail: inconclusive, never "holds"
    far = radius_choices(_inter_rows([7.0, 8.0, 9.0], [10.0] * 3, ["ok"] * 3), eps, eps_hat, [10.0],
                         alpha=0.05)
    holds, with_choice, note = large_eps_hat_verdict(far.iloc[0])
    assert holds is None and with_choice == 3 and "cannot fail" in note
    near = radius_choices(_inter_rows([0.5, 0.7, 0.9], [10.0] * 3, ["ok"] * 3), eps, eps_hat, [10.0],
                          alpha=0.05)
    assert large_eps_hat_verdict(near.iloc[0])[0] is True
    # another alpha selects no rows
    assert radius_choices(rows, eps, eps_hat, [10.0], alpha=0.2).empty
