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
