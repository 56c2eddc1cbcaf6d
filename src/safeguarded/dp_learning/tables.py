"""One (data set, split) of the UCI tables (thesis Tables 2, 3, 9 and 18) for given noises, and the
per-data-set summaries of a sweep of them.

The works build their noises and call :func:`pcd_split` / :func:`nb_split` from their own sweep cells
(:mod:`safeguarded.dp_noise.learning` for §1, :mod:`safeguarded.gaussian_mixtures.learning` for §2).
"""

from __future__ import annotations

import functools
import math

import numpy as np
import pandas as pd

from safeguarded.arrays import array_backend_label
from safeguarded.dp_learning.datasets import (
    DATASETS,
    LOADINGS,
    THESIS_SIZES,
    UNAVAILABLE,
    load_nb_data,
    load_pcd_data,
    train_test_split_indices,
)
from safeguarded.dp_learning.naive_bayes import UNSEEN_RULES, dp_naive_bayes_errors
from safeguarded.dp_learning.pcd import dp_pcd_methods
from safeguarded.experiments import rng_for
from safeguarded.validation import check_choice, check_frame, check_integer, check_type

__all__ = ["pcd_split", "nb_split", "summarise_runs", "with_gap_rows", "variant_runs", "variant_summary",
           "check_names", "printed_gaps", "before_after"]


@functools.lru_cache(maxsize=8)
def _pcd_arrays(name: str, loading: str = "mirror"):
    return load_pcd_data(name, loading)


@functools.lru_cache(maxsize=8)
def _nb_arrays(name: str, loading: str = "mirror"):
    return load_nb_data(name, loading)


def _check_split_args(dataset, split, samplers, n_sims, seed, iterations=None) -> None:
    """Checks of :func:`pcd_split` / :func:`nb_split`, before any data is loaded."""
    check_choice("dataset", dataset, tuple(DATASETS))
    check_integer("split", split, minimum=0)
    check_type("samplers", samplers, dict, "a dict {method: noise}")
    check_integer("n_sims", n_sims, minimum=1)
    if iterations is not None:
        check_integer("iterations", iterations, minimum=1)
    check_integer("seed", seed, minimum=0)


def _row(method, err_train, err_test, **sizes) -> dict:
    return {
        "method": method,
        **sizes,
        "train_error": float(np.mean(err_train)),
        "test_error": float(np.mean(err_test)),
        # mean squares over the simulations: the spread of single runs (Table 18) by pooling
        "train_error_sq": float(np.mean(np.square(err_train))),
        "test_error_sq": float(np.mean(np.square(err_test))),
        "n_sims_used": int(np.size(err_train)),
    }


def pcd_split(
    dataset: str, split: int, samplers: dict, *, n_sims: int, iterations: int, seed: int,
    loading: str = "mirror",
) -> list[dict]:
    """Mean train/test errors (and mean squares) over ``n_sims`` simulations of DP-PCD with every noise
    of ``samplers`` ({method: noise, None = non-private, run once}) on one split of ``dataset`` (read as
    ``loading`` says, :data:`~safeguarded.dp_learning.datasets.LOADINGS`; the tables run the mirror).

    The split is ``rng_for(seed, split)``'s 80/20 permutation; all methods share the initial point and
    the coordinate orders of ``rng_for(seed, split, 1)`` (:func:`safeguarded.dp_learning.pcd.dp_pcd_methods`,
    one batch), and method i draws its noise from ``rng_for(seed, split, 1, i)``.  Each row's
    ``array_backend`` names the array library and device that ran the kernel (``SAFEGUARDED_ARRAY``,
    :func:`safeguarded.arrays.array_backend_label`); the numbers agree across backends to rounding.
    """
    _check_split_args(dataset, split, samplers, n_sims, seed, iterations)
    X, y = _pcd_arrays(dataset, check_choice("loading", loading, LOADINGS))
    tr, te = train_test_split_indices(len(y), rng_for(seed, split))
    sims = {m: 1 if noise is None else int(n_sims) for m, noise in samplers.items()}
    rngs = {m: rng_for(seed, split, 1, i) for i, m in enumerate(samplers)}
    res = dp_pcd_methods(X[tr], y[tr], rng_for(seed, split, 1), samplers, n_sims=sims, noise_rngs=rngs,
                         iterations=iterations, X_test=X[te], y_test=y[te])  # fmt: skip
    device = array_backend_label()  # what ran the kernel: "numpy", "torch 2.5.1 cuda:0 (NVIDIA H200)", ...
    return [_row(m, r.train_error, r.test_error, n=len(y), d=X.shape[1], array_backend=device)
            for m, r in res.items()]  # fmt: skip


def nb_split(dataset: str, split: int, samplers: dict, *, n_sims: int, seed: int, loading: str = "mirror",
             unseen: str = "floor") -> list[dict]:  # fmt: skip
    """Mean in/out-of-sample errors (and mean squares) of DP naive Bayes with every noise of ``samplers``
    (for sensitivity 1; None = non-private) on one split of ``dataset``; method i draws from
    ``rng_for(seed, split, 2 + i)``.  ``loading`` (:data:`~safeguarded.dp_learning.datasets.LOADINGS`)
    and ``unseen`` (:data:`~safeguarded.dp_learning.naive_bayes.UNSEEN_RULES`) are the deviation
    experiments' variants; the tables run the defaults."""
    _check_split_args(dataset, split, samplers, n_sims, seed)
    check_choice("unseen", unseen, UNSEEN_RULES)
    data = _nb_arrays(dataset, check_choice("loading", loading, LOADINGS))
    tr, te = train_test_split_indices(len(data.y), rng_for(seed, split))
    rows = []
    for i, (method, noise) in enumerate(samplers.items()):
        rng = rng_for(seed, split, 2 + i)
        err = dp_naive_bayes_errors(data, tr, [tr, te], rng, noise=noise, n_sims=n_sims, unseen=unseen)
        rows.append(_row(method, err[0], err[1], n=len(data.y), n_num=data.num.shape[1],
                         n_cat=len(data.levels), n_classes=data.n_classes))
    return rows


def summarise_runs(runs: pd.DataFrame, methods, *, compare: tuple[str, str] | None, baseline: str):
    """One row per data set of a sweep of :func:`pcd_cell` / :func:`nb_cell` rows, errors in %.

    For ``part`` in train/test and every method: ``{part}_{m}`` the mean error over splits and
    simulations, ``{part}_{m}_se`` its standard error across splits, ``{part}_{m}_sd`` the standard
    deviation of *single runs* over all splits × simulations (pooled from the per-split mean squares; with
    one simulation per split it is the thesis' standard deviation across splits, Table 18).  With
    ``compare = (a, b)``: ``{part}_Imp`` = 100·(a − b)/(a − baseline) (Tables 2-3: a = TLN, b = OPT) and
    ``{part}_p_value`` of the one-sided paired t-test of a − b > 0 over the splits (supp. p.9-10).
    ``splits`` and ``n_sims`` state the counts used.
    """
    from scipy import stats

    check_frame("runs", runs, ("dataset", "split", "method"))
    present = tuple(runs["method"].unique())
    if isinstance(methods, str):
        raise ValueError(f"methods must be a sequence of method names of runs, got methods={methods!r}")
    for m in methods:
        check_choice("methods", m, present)
    if compare is not None:
        if isinstance(compare, str) or len(compare) != 2:
            raise ValueError(f"compare must be None or a pair of methods of runs, got compare={compare!r}")
        for m in compare:
            check_choice("compare", m, present)
    check_choice("baseline", baseline, present)
    check_frame("runs", runs, ("n", "train_error", "test_error", "train_error_sq", "test_error_sq",
                               "n_sims_used"))
    rows = []
    for ds, sub in runs.groupby("dataset", sort=False):
        first = sub.iloc[0]
        row = {"dataset": ds, "n": int(first["n"])}
        row.update({k: int(first[k]) for k in ("d", "n_num", "n_cat", "n_classes") if k in sub})
        noisy = sub[sub.method != baseline]
        row["splits"] = int(sub.split.nunique())
        row["n_sims"] = int(noisy.n_sims_used.iloc[0]) if len(noisy) else 1
        for part in ("train", "test"):
            wide = sub.pivot(index="split", columns="method", values=f"{part}_error")
            sq = sub.pivot(index="split", columns="method", values=f"{part}_error_sq")
            for m in methods:
                mean = wide[m].mean()
                row[f"{part}_{m}"] = 100 * mean
                row[f"{part}_{m}_se"] = 100 * wide[m].sem() if len(wide) > 1 else np.nan
                row[f"{part}_{m}_sd"] = 100 * math.sqrt(max(sq[m].mean() - mean**2, 0.0))
            if compare is not None:
                a, b = compare
                den = wide[a].mean() - wide[baseline].mean()
                row[f"{part}_Imp"] = 100 * (wide[a].mean() - wide[b].mean()) / den if den != 0 else np.nan
                diff = wide[a] - wide[b]
                ok = len(diff) > 1 and diff.std() > 0
                row[f"{part}_p_value"] = (
                    stats.ttest_1samp(diff, 0.0, alternative="greater").pvalue if ok else np.nan
                )
        rows.append(row)
    return pd.DataFrame(rows)


def with_gap_rows(table: pd.DataFrame, order=None) -> pd.DataFrame:
    """``table`` with a labelled row for every unavailable data set (:data:`UNAVAILABLE`), in the
    thesis' row order; a ``status`` column says "run" or why the row is empty."""
    if order is not None:
        if isinstance(order, str):
            raise ValueError(f"order must be None or a list of data set names, got order={order!r}")
        for name in order:
            check_choice("order", name, (*THESIS_SIZES, *DATASETS, *UNAVAILABLE))
    check_frame("table", table, ("dataset",))
    order = list(THESIS_SIZES) if order is None else list(order)
    gaps = pd.DataFrame([{"dataset": k, "status": f"gap: {v}"} for k, v in UNAVAILABLE.items()])
    out = pd.concat([table.assign(status="run"), gaps], ignore_index=True)
    for col in table.columns:  # counts stay integers next to the empty gap rows
        if pd.api.types.is_integer_dtype(table[col]):
            out[col] = out[col].astype("Int64")
    out["_order"] = out.dataset.map({k: i for i, k in enumerate(order)})
    return out.sort_values("_order", kind="stable").drop(columns="_order").reset_index(drop=True)


def check_names(names) -> list:
    """``names`` if it is a non-empty list of data set names of
    :data:`safeguarded.dp_learning.datasets.DATASETS`; ValueError naming it otherwise."""
    if isinstance(names, str) or not names:
        raise ValueError(f"names must be a non-empty list of data set names, got names={names!r}")
    for name in names:
        check_choice("names", name, tuple(DATASETS))
    return list(names)


def variant_summary(kind: str, names, samplers: dict, *, compare: tuple[str, str] | None, baseline: str,
                    splits: int, n_sims: int, seed: int = 0, iterations: int = 100, loading: str = "mirror",
                    unseen: str = "floor") -> pd.DataFrame:  # fmt: skip
    """:func:`summarise_runs` of :func:`variant_runs` over the data sets ``names`` (one row per data set):
    the side runs of Tables 2, 3 and 9 beside their sweeps."""
    if compare is not None and not (isinstance(compare, tuple) and len(compare) == 2
                                    and all(isinstance(m, str) for m in compare)):  # fmt: skip
        raise ValueError(f"compare must be None or a pair of method names, got compare={compare!r}")
    if not isinstance(baseline, str):
        raise ValueError(f"baseline must be a method name (a string), got baseline={baseline!r}")
    runs = pd.concat([variant_runs(kind, ds, samplers, splits=splits, n_sims=n_sims, seed=seed,
                                   iterations=iterations, loading=loading, unseen=unseen)
                      for ds in check_names(names)], ignore_index=True)  # fmt: skip
    return summarise_runs(runs, list(samplers), compare=compare, baseline=baseline)


def variant_runs(kind: str, dataset: str, samplers: dict, *, splits: int, n_sims: int, seed: int = 0,
                 iterations: int = 100, loading: str = "mirror", unseen: str = "floor") -> pd.DataFrame:
    """The rows of :func:`pcd_split` (``kind="pcd"``) or :func:`nb_split` (``"nb"``) over splits
    0 … ``splits`` − 1 of one data set under one variant (``loading``; ``unseen`` for NB), with the columns
    :func:`summarise_runs` reads: a deviation experiment beside a table's sweep, at the counts given."""
    check_choice("kind", kind, ("pcd", "nb"))
    check_integer("splits", splits, minimum=2)
    check_integer("iterations", iterations, minimum=1)
    check_choice("loading", loading, LOADINGS)
    check_choice("unseen", unseen, UNSEEN_RULES)
    rows = []
    for split in range(splits):
        if kind == "pcd":
            out = pcd_split(dataset, split, samplers, n_sims=n_sims, iterations=iterations, seed=seed,
                            loading=loading)  # fmt: skip
        else:
            out = nb_split(dataset, split, samplers, n_sims=n_sims, seed=seed, loading=loading, unseen=unseen)
        rows += [{"dataset": dataset, "split": split, **r} for r in out]
    return pd.DataFrame(rows)


def _check_row(name: str, row) -> None:
    if not isinstance(row, pd.Series | dict):
        raise ValueError(f"{name} must be a summary row (a pandas Series or dict of columns), "
                         f"got {name}={row!r}")


def printed_gaps(summary_row, printed: dict, half_unit: float = 0.005) -> pd.DataFrame:
    """Ours against printed values, one row per column of ``printed`` ({summary column: printed string}):
    ``ours``, ``se`` (the column's ``_se``, 0 if none), ``gap`` = ours − printed, ``within_digits``
    (|gap| <= half a printed unit ``half_unit``) and ``within_band`` (|gap| <= 2 se + half a unit, the
    band the claims judge a Monte-Carlo mean with)."""
    _check_row("summary_row", summary_row)
    check_type("printed", printed, dict, "a dict {summary column: printed string}")
    half_unit = float(half_unit)
    if not half_unit > 0:
        raise ValueError(f"half_unit must be > 0, got half_unit={half_unit!r}")
    rows = []
    for col, text in printed.items():
        if col not in summary_row:
            raise ValueError(f"printed names column {col!r}, which the summary row does not have")
        ours = float(summary_row[col])
        se = summary_row.get(f"{col}_se", 0.0) if hasattr(summary_row, "get") else 0.0
        se = 0.0 if se is None or not np.isfinite(se) else float(se)
        gap = ours - float(text)
        rows.append({"column": col, "printed": text, "ours": ours, "se": se, "gap": gap,
                     "within_digits": abs(gap) <= half_unit, "within_band": abs(gap) <= 2 * se + half_unit})
    return pd.DataFrame(rows)


def before_after(before_row, after_row, printed: dict) -> dict:
    """How far two summaries of one data set lie from its printed values: ``before`` (e.g. the table's
    sweep on the mirror copy) and ``after`` (a variant), over the columns of ``printed`` (see
    :func:`printed_gaps`): the mean |gap| of each, and how many columns lie within the band (2 se + half a
    printed unit) and within the printed digits.  Columns without a standard error (Imp) count in the
    mean |gap| only."""
    _check_row("before_row", before_row)
    _check_row("after_row", after_row)
    b, a = printed_gaps(before_row, printed), printed_gaps(after_row, printed)
    has_se = a["column"].map(lambda c: f"{c}_se" in after_row).to_numpy()
    return {
        "columns": len(a),
        "mean |gap| before": float(b["gap"].abs().mean()),
        "mean |gap| after": float(a["gap"].abs().mean()),
        "within band before": int((b["within_band"].to_numpy() & has_se).sum()),
        "within band after": int((a["within_band"].to_numpy() & has_se).sum()),
        "within digits before": int(b["within_digits"].sum()),
        "within digits after": int(a["within_digits"].sum()),
        "with a band": int(has_se.sum()),
    }
