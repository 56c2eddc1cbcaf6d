"""Tables 21-26's splits (``wasserstein_mixed.experiments.uci_split`` / ``uci_cell``): the half size's test
part the printed errors imply (every row not trained on, finding ``tables21-23-twenty-splits``), and the
results store's keys, which the new parameter ``half_test`` must leave unchanged for full-size cells."""

from __future__ import annotations

import math

import numpy as np
import pytest

from safeguarded.experiments import store_key
from safeguarded.paths import REPO_ROOT
from safeguarded.results import load_stores
from safeguarded.wasserstein_mixed import experiments as E

SWEEP = "wasserstein_mixed/tables21_26"


@pytest.mark.parametrize("N", [148, 267, 539, 690, 17379])
def test_half_size_tests_on_every_row_not_trained_on(N):
    """half_test="rest": train = 80 % of a random half, test = the N - train other rows; the training part
    is the one of half_test="fifth", whose test part (20 % of the half) lies inside the rest."""
    h = N // 2
    n_train = h - math.floor(0.2 * h)
    for split in range(5):
        train, test = E.uci_split(N, "half", split, half_test="rest")
        train_5, test_5 = E.uci_split(N, "half", split, half_test="fifth")
        assert train.size == n_train and test.size == N - n_train
        assert np.intersect1d(train, test).size == 0
        assert np.array_equal(np.union1d(train, test), np.arange(N))
        assert np.array_equal(train, train_5)
        assert test_5.size == math.floor(0.2 * h) and np.isin(test_5, test).all()
        # full size: the test part is the 20 % either way, the rest of the data the training part
        full = E.uci_split(N, "full", split, half_test="rest")
        full_5 = E.uci_split(N, "full", split, half_test="fifth")
        assert all(np.array_equal(a, b) for a, b in zip(full, full_5, strict=True))
        assert full[1].size == math.floor(0.2 * N) and full[0].size == N - math.floor(0.2 * N)
    # indexed splits: another split draws another training part
    assert not np.array_equal(E.uci_split(N, "half", 0)[0], E.uci_split(N, "half", 1)[0])


def test_uci_cell_half_rest_fits_the_same_model_and_tests_on_more_rows(data_mirror):
    """On lymphography (N = 148): the half size's training part (60 rows), folds and fit are those of
    half_test="fifth"; the test part is 88 rows against 14, and since the 14 lie among the 88, the rest's
    misclassified rows are at least the fifth's.  At full size half_test changes nothing."""
    grids = dict(eps_grid=(0.0, 0.1), alpha_grid=(0.0,), folds=2, methods=("Nom", "MixF(1)"))
    for split in (0, 1):
        rest = E.uci_cell("lymphography", "hinge", "half", split, half_test="rest", **grids)
        fifth = E.uci_cell("lymphography", "hinge", "half", split, half_test="fifth", **grids)
        default = E.uci_cell("lymphography", "hinge", "half", split, **grids)
        for r, f, d in zip(rest, fifth, default, strict=True):
            assert (r["N_train"], r["N_test"], f["N_test"]) == (60, 88, 14)
            fit = ("eps", "alpha", "solves", "rounds", "cuts")
            assert [r[k] for k in fit] == [f[k] for k in fit]
            assert round(r["test_metric"] * 88) >= round(f["test_metric"] * 14)
            assert d["test_metric"] == f["test_metric"]  # the default is the stored cells' protocol
    full = E.uci_cell("lymphography", "hinge", "full", 0, half_test="rest", **grids)
    full_default = E.uci_cell("lymphography", "hinge", "full", 0, **grids)
    for a, b in zip(full, full_default, strict=True):
        a.pop("seconds"), b.pop("seconds")
        assert a == b


def _stored_cells():
    stores = load_stores(REPO_ROOT / "results", work="wasserstein_mixed")
    stores = [s for s in stores if s.sweep == SWEEP and s.version == "1"]
    if not stores or not stores[0].cells:
        pytest.skip(f"no committed cell of {SWEEP}")
    return stores[0].cells


def test_full_size_keys_are_those_of_the_stored_cells():
    """Every stored cell of the sweep is found again by uci_cell_params: full size with either half_test
    (the parameter does not enter), half size with half_test="fifth" (the stored protocol); the half size at
    half_test="rest" has keys of its own, none of them stored."""
    cells = _stored_cells()
    sizes = {"full": 0, "half": 0}
    for key, cell in cells.items():
        p = cell.params
        args = (p["dataset"], p["loss"], p["size"], p["split"], p["eps_grid"], p["alpha_grid"], p["folds"])
        assert set(p) == {"dataset", "loss", "size", "split", "eps_grid", "alpha_grid", "folds"}
        fifth = E.uci_cell_params(*args, half_test="fifth")
        assert fifth == p and store_key(SWEEP, fifth, cell.seed, "1") == key
        rest = E.uci_cell_params(*args)  # the notebook's protocol (default "rest")
        if p["size"] == "full":
            assert rest == p and store_key(SWEEP, rest, cell.seed, "1") == key
        else:
            assert rest == {**p, "half_test": "rest"}
            assert store_key(SWEEP, rest, cell.seed, "1") not in cells
        sizes[p["size"]] += 1
    assert sizes["full"] > 0 and sizes["half"] > 0
