"""Which auxiliary radius ε̂ DRO+ARO+Aux's cross-validation chose, and whether the run could show a choice.

App. 4.D.1 (L4858) states which ε̂ Inter-ARO* selects on some data sets ("either 5 or 10" on annealing,
"consistently selected large ε̂" with a uniform-marginal synthesiser).  Before the cross-validation, §4.7.1
discards the pairs with ε + ε̂ < W(P_N, P̂_N̂); when W exceeds ``max(eps) + min(eps_hat)`` only the larger ε̂
survive, and "a large ε̂ was selected" cannot fail.  These helpers count, per group of cells, the
simulations where an ε̂ outside the "large" set survived the filter (:func:`transport.radius_pairs`), so
that a notebook judges such a statement only where it can fail.  They read the rows of
:func:`safeguarded.robust_lr_aux.cv.run_methods` and solve nothing.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from safeguarded.robust_lr_aux.transport import radius_pairs
from safeguarded.validation import check_frame, check_integer, check_positive

_COLUMNS = ("method", "alpha", "status", "W", "eps_hat", "seed")
_ROW_FIELDS = ("simulations", "empty_grid", "failed", "smaller_eps_hat_available", "chose_large_eps_hat")

__all__ = ["radius_choices", "large_eps_hat_verdict"]


def radius_choices(
    runs: pd.DataFrame, eps_inter, eps_hat, large, *, alpha: float, by=("dataset",)
) -> pd.DataFrame:
    """Per group ``by`` at attack strength ``alpha``: W and the ε̂ DRO+ARO+Aux chose.

    Columns: ``simulations``; ``empty_grid`` (the filter ε + ε̂ ≥ W left no pair, so nothing was chosen:
    a recorded missing value, status "empty grid"); ``failed`` (no error for another reason, e.g. a solver
    failure of the refit); ``W_mean``/``W_min``/``W_max``; ``smaller_eps_hat_available`` (simulations with a
    choice in which an ε̂ not in ``large`` survived the filter ε + ε̂ ≥ W over ``eps_inter`` × ``eps_hat``); and
    ``chose_large_eps_hat`` (simulations whose chosen ε̂ is in ``large``).
    """
    alpha = check_positive("alpha", alpha, allow_zero=True)
    for name, value in (("eps_inter", eps_inter), ("eps_hat", eps_hat), ("large", large)):
        if not isinstance(value, tuple | list) or not value:
            raise ValueError(f"{name} must be a non-empty tuple of radii >= 0, got {name}={value!r}")
        for v in value:
            check_positive(name, v, allow_zero=True, allow_inf=True)
    if not isinstance(by, tuple | list) or not by or not all(isinstance(b, str) for b in by):
        raise ValueError(f"by must be a non-empty tuple of column names, got by={by!r}")
    check_frame("runs", runs, _COLUMNS)
    if any(b not in runs.columns for b in by):
        raise ValueError(f"by must name columns of runs {list(runs.columns)}, got by={by!r}")
    large = [float(v) for v in large]

    def smaller_survives(W: float) -> bool:
        return any(h not in large for _, h in radius_pairs(eps_inter, eps_hat, W))

    inter = runs[(runs["method"] == "DRO+ARO+Aux") & np.isclose(runs["alpha"].astype(float), alpha)]
    chosen = inter["status"] == "ok"
    W = pd.to_numeric(inter["W"], errors="coerce")
    empty = inter["status"] == "empty grid"
    inter = inter.assign(
        empty=empty,
        failed=~chosen & ~empty,
        large=chosen & pd.to_numeric(inter["eps_hat"], errors="coerce").isin(large),
        choice=chosen & W.map(lambda w: bool(np.isfinite(w)) and smaller_survives(float(w))),
        W=W,
    )
    return (
        inter.groupby(list(by))
        .agg(
            simulations=("seed", "size"),
            empty_grid=("empty", "sum"),
            failed=("failed", "sum"),
            W_mean=("W", "mean"),
            W_min=("W", "min"),
            W_max=("W", "max"),
            smaller_eps_hat_available=("choice", "sum"),
            chose_large_eps_hat=("large", "sum"),
        )
        .reset_index()
    )


def large_eps_hat_verdict(row, *, min_choices: int = 3) -> tuple[bool | None, int, str]:
    """Judge "DRO+ARO+Aux selected a large ε̂ in every simulation with a choice" on one row of
    :func:`radius_choices`: ``(holds, simulations with a choice, note)``.

    ``holds`` is None (inconclusive) where no smaller ε̂ survived the filter in any simulation (the statement
    cannot fail on that grid) or fewer than ``min_choices`` simulations chose a radius; the note says which.
    """
    min_choices = check_integer("min_choices", min_choices, minimum=1)
    if any(not hasattr(row, f) for f in _ROW_FIELDS):
        raise ValueError(f"row must be a row of radius_choices() with the fields {_ROW_FIELDS}, "
                         f"got row={row!r}")
    with_choice = int(row.simulations - row.empty_grid - row.failed)
    can_fail = bool(row.smaller_eps_hat_available > 0)
    holds = (
        None if not can_fail or with_choice < min_choices else bool(row.chose_large_eps_hat == with_choice)
    )
    note = (
        "a smaller eps_hat survived the filter eps + eps_hat >= W in "
        f"{int(row.smaller_eps_hat_available)} of {int(row.simulations)} simulations"
        + ("" if can_fail else ": the statement cannot fail on this grid")
        + (
            f"; in {int(row.empty_grid)} the filter left no pair (W above the largest eps + eps_hat), "
            "a recorded missing value"
            if row.empty_grid
            else ""
        )
        + (
            f"; {int(row.failed)} without a chosen radius (solver failure), a recorded missing value"
            if row.failed
            else ""
        )
    )
    return holds, with_choice, note
