"""Instances of thesis Section 3.6: synthetic generators and the UCI benchmark sets.

The thesis defers its generators and preprocessing scripts to its GitHub repository (L3463, L3471,
L3502), which is not available; the choices below are this repository's and are stated in the
notebooks:

* :func:`synthetic_binary` (Fig. 15): N points with K binary features z ~ Bernoulli(1/2), a
  standard-normal linear score ``beta_0 + beta^T z`` standardised to unit variance; classification
  labels ``y = +1`` with probability ``sigmoid(signal * score)``, regression outputs
  ``y = score + noise * N(0, 1)`` ("the loss explains a large part but not all of the variability").
* :func:`synthetic_mixed` (Tables 19-20): 30 features, a share of them discrete with 4 uniform levels,
  the rest standard normal, outputs generated as above.
* :func:`load_uci` (Tables 21-26): the 14 available UCI sets (Las Vegas Strip is not in the mirror):
  categorical columns one-hot with the most frequent level as reference, a missing categorical value
  is its own level ``"?"``, missing numerical values are imputed by the column median, numerical
  features are min-max scaled to [0, 1], classification outputs are "majority class vs rest" and
  regression outputs are min-max scaled to [-1, 1] (L3502).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from safeguarded.validation import (
    check_choice,
    check_in_interval,
    check_integer,
    check_positive,
    check_rng,
)
from safeguarded.wasserstein_mixed.data import TASKS, MixedData

__all__ = ["synthetic_binary", "synthetic_mixed", "load_uci", "UCI_SETS", "THESIS_DIMENSIONS"]


def _outputs(rng, score, task, signal, noise):
    score = (score - score.mean()) / (score.std() + 1e-12)
    if task == "classification":
        return np.where(rng.random(score.size) < 1.0 / (1.0 + np.exp(-signal * score)), 1.0, -1.0)
    return score + noise * rng.standard_normal(score.size)


def _check_synthetic(rng, N, task, signal, noise) -> None:
    check_rng("rng", rng)
    check_integer("N", N, minimum=1)
    check_choice("task", task, TASKS)
    check_positive("signal", signal, allow_zero=True)
    check_positive("noise", noise, allow_zero=True)


def synthetic_binary(
    rng, N: int, K: int, task: str, *, n_test: int = 1000, signal: float = 3.0, noise: float = 0.5
):
    """(train, test) MixedData with K binary features and no numerical ones (Fig. 15 setting)."""
    _check_synthetic(rng, N, task, signal, noise)
    K = check_integer("K", K, minimum=1)
    n_test = check_integer("n_test", n_test, minimum=1)
    beta0, beta = rng.standard_normal(), rng.standard_normal(K)
    codes = rng.integers(0, 2, size=(N + n_test, K))
    score = beta0 + codes @ beta
    y = _outputs(rng, score, task, signal, noise)
    data = MixedData(np.zeros((N + n_test, 0)), codes, (2,) * K, y, task)
    return data.subset(np.arange(N)), data.subset(np.arange(N, N + n_test))


def synthetic_mixed(
    rng,
    N: int,
    n_features: int,
    share: float,
    task: str,
    *,
    levels: int = 4,
    signal: float = 3.0,
    noise: float = 0.5,
) -> MixedData:
    """N points with ``round(share * n_features)`` discrete features (``levels`` levels) and the rest
    standard normal (Tables 19-20 setting)."""
    _check_synthetic(rng, N, task, signal, noise)
    n_features = check_integer("n_features", n_features, minimum=1)
    share = check_in_interval("share", share, 0.0, 1.0, closed="both")
    levels = check_integer("levels", levels, minimum=2)
    K = int(round(share * n_features))
    Mx = n_features - K
    X = rng.standard_normal((N, Mx))
    codes = rng.integers(0, levels, size=(N, K))
    data0 = MixedData(X, codes, (levels,) * K, np.ones(N), "classification")
    beta = rng.standard_normal(1 + Mx + data0.M_z)
    score = beta[0] + X @ beta[1 : 1 + Mx] + data0.Z @ beta[1 + Mx :]
    y = _outputs(rng, score, task, signal, noise)
    return MixedData(X, codes, data0.levels, y, task)


# ------------------------------------------------------------------------------- UCI
#: name -> (task, loader key, target, columns to drop, columns forced categorical ("all" = every feature))
UCI_SETS = {
    "balance-scale": ("classification", "arff:balance.scale", "class", (), "all"),
    "breast-cancer": ("classification", "arff:breast.cancer", "Class", (), ()),
    "credit-approval": ("classification", "arff:credit.a", "class", (), ()),
    "cylinder-bands": ("classification", "arff:cylinder.bands", "band_type", (), ()),
    "lymphography": ("classification", "arff:lymph", "class", (), "all"),
    "primary-tumor": ("classification", "arff:primary.tumor", "class", (), ()),
    "spect": ("classification", "arff:spect", "OVERALL_DIAGNOSIS", (), "all"),
    "tic-tac-toe": ("classification", "arff:tic-tac-toe", "Class", (), ()),
    "bike": (
        "regression",
        "csv:uci/bike-sharing/hour.csv",
        "cnt",
        ("instant", "dteday", "casual", "registered"),
        ("season", "yr", "mnth", "hr", "holiday", "weekday", "workingday", "weathersit"),
    ),
    "fire": ("regression", "csv:uci/forest-fires/forestfires.csv", "area", (), ("month", "day")),
    "flare": (
        "regression",
        "arff:solar.flare2",
        "C-class_flares_production_by_this_region",
        ("M-class_flares_production_by_this_region", "X-class_flares_production_by_this_region"),
        "all",
    ),
    "garments": (
        "regression",
        "csv:uci/garments/garments_worker_productivity.csv",
        "actual_productivity",
        ("date",),
        ("quarter", "department", "day", "team"),
    ),
    "imports": ("regression", "arff:autos", "price", (), ("symboling",)),
    "student": ("regression", "csv:uci/student/student-mat.csv;", "G3", ("G1", "G2"), ()),
    "vegas": ("regression", None, None, (), ()),
}

#: (N, M_x, M_z, K) printed in Tables 21-26.
THESIS_DIMENSIONS = {
    "balance-scale": (625, 0, 16, 4),
    "breast-cancer": (277, 0, 42, 9),
    "credit-approval": (690, 6, 36, 9),
    "cylinder-bands": (539, 19, 43, 14),
    "lymphography": (148, 0, 42, 18),
    "primary-tumor": (339, 0, 25, 17),
    "spect": (267, 0, 22, 22),
    "tic-tac-toe": (958, 0, 18, 9),
    "bike": (17379, 4, 31, 5),
    "fire": (517, 10, 31, 4),
    "flare": (1066, 0, 21, 9),
    "garments": (1197, 7, 22, 4),
    "imports": (193, 14, 45, 10),
    "student": (395, 13, 26, 17),
    "vegas": (504, 5, 106, 14),
}

#: categorical columns with more levels than this are identifiers (cylinder-bands' timestamp, cylinder
#: number, customer) and are dropped.
MAX_LEVELS = 25


def _raw(key: str) -> pd.DataFrame:
    from safeguarded.data.uci import load_arff, load_raw_csv

    kind, name = key.split(":", 1)
    if kind == "arff":
        if name == "spect":
            return pd.concat([load_arff("spect.train"), load_arff("spect.test")], ignore_index=True)
        return load_arff(name)
    sep = ";" if name.endswith(";") else ","
    return load_raw_csv(name.rstrip(";"), sep=sep)


def load_uci(name: str) -> MixedData:
    """The UCI set ``name`` (a key of :data:`UCI_SETS`) preprocessed as in the module docstring."""
    if not isinstance(name, str) or name not in UCI_SETS:
        raise ValueError(f"name must be one of {tuple(UCI_SETS)}, got name={name!r}")
    task, key, target, drop, force = UCI_SETS[name]
    if key is None:
        raise ValueError(f"name={name!r}: this data set is not available in the data mirror (a labelled gap)")
    frame = _raw(key)
    if name == "spect" and target not in frame.columns:
        target = frame.columns[0]
    frame = frame.drop(columns=[c for c in drop if c in frame.columns])
    frame = frame.dropna(subset=[target]).reset_index(drop=True)
    features = [c for c in frame.columns if c != target]
    if force == "all":
        categorical = features
    else:
        categorical = [c for c in features if c in force or not pd.api.types.is_numeric_dtype(frame[c])]
    out = pd.DataFrame(index=frame.index)
    cat_cols, num_cols = [], []
    for c in features:
        if c in categorical:
            col = frame[c].astype(object).where(frame[c].notna(), "?").astype(str).str.strip()
            n_levels = col.nunique()
            if n_levels < 2 or n_levels > MAX_LEVELS:
                continue
            out[c] = col
            cat_cols.append(c)
        else:
            col = pd.to_numeric(frame[c], errors="coerce")
            col = col.fillna(col.median())
            span = col.max() - col.min()
            if span == 0:
                continue
            out[c] = (col - col.min()) / span
            num_cols.append(c)
    if task == "classification":
        labels = frame[target].astype(str)
        major = labels.value_counts().index[0]
        out["__y"] = np.where(labels == major, 1.0, -1.0)
    else:
        y = pd.to_numeric(frame[target], errors="coerce").astype(float)
        if name == "fire":
            y = np.log1p(y)
        out["__y"] = 2 * (y - y.min()) / (y.max() - y.min()) - 1
    return MixedData.from_frame(out, continuous=num_cols, categorical=cat_cols, target="__y", task=task)
