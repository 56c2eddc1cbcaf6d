"""The privacy-hacking demonstrations: Section 3.2 (posterior under a leaked rule), Section 3.3
(inverting a fairness report, eqs. (1)-(5)) and Appendix B (QII differencing, (33)-(34)).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd

from safeguarded.atr._checks import check_unit, check_unit_array
from safeguarded.atr.privacy import confidence
from safeguarded.atr.table import DecisionTable
from safeguarded.validation import check_frame, check_integer, check_rng, check_type

__all__ = ["leak_report", "invert_fairness_report", "qii", "qii_difference_attack"]


def leak_report(table: DecisionTable, mapping=None) -> pd.DataFrame:
    """Per record and outcome: the adversary's confidence (8) under ``mapping`` (default: the true d),
    the prior P(x | T) (Lemma 5's baseline confidence) and their ratio (Section 3.2's "10 fold")."""
    check_type("table", table, DecisionTable, "a DecisionTable")
    d = table.d if mapping is None else check_unit_array("mapping", mapping, len(table.frame))
    codes = table.group_codes
    conf = confidence(table.p, d, codes)
    prior = table.p / np.bincount(codes, weights=table.p)[codes]
    rows = []
    for a in (1, 0):
        frame = table.frame[[*table.public, *table.private]].copy()
        frame["a"] = a
        frame["d"] = d
        frame["prior"] = prior
        frame["conf"] = conf[:, a]
        frame["lift"] = np.divide(conf[:, a], prior, out=np.zeros_like(prior), where=prior > 0)
        rows.append(frame)
    return pd.concat(rows, ignore_index=True)


def invert_fairness_report(census, rates, csp_bias, *, d11: float = 0.0) -> pd.DataFrame:
    """Mary's attack (Section 3.3, (1)-(5)): recover the decision rules d_{i,j} from a fairness report.

    Parameters
    ----------
    census
        (2, 3) array: P(income level j | gender group i) from the census (Table 1).
    rates
        The reported approval rates of the two groups ((1), (2)).
    csp_bias
        The three reported CSP biases |d_{1,j} - d_{2,j}| ((3)-(5)); the first and last must be 0.
    d11
        Mary's own rule d_{1,1}, which she learned from her reply.

    Returns one row per sign branch of (4) (d_{1,2} = d_{2,2} + b and = d_{2,2} - b): the solution
    (d_{1,2}, d_{1,3}, d_{2,2}), whether it is a probability vector, and the "clipped" estimate with
    d_{1,3} set to 1 and d_{1,2} re-solved from (1).
    """
    c = np.asarray(census, dtype=float)
    r = np.asarray(rates, dtype=float)
    b = np.asarray(csp_bias, dtype=float)
    d11 = check_unit("d11", d11)
    if c.shape != (2, 3) or not np.all(np.isfinite(c)) or np.any(c < 0):
        raise ValueError(f"census must be a (2, 3) array of finite shares >= 0, got census={c.tolist()}")
    if r.shape != (2,) or not np.all((r >= 0) & (r <= 1)):
        raise ValueError(f"rates must be two approval rates in [0, 1], got rates={r.tolist()}")
    if b.shape != (3,) or b[0] != 0 or b[2] != 0 or not 0 <= b[1] <= 1:
        raise ValueError(f"csp_bias must be (0, b, 0) with b in [0, 1], got csp_bias={b.tolist()}")
    rows = []
    for sign, label in ((+1, "d12 = d22 + b"), (-1, "d12 = d22 - b")):
        # d21 = d11 (3), d23 = d13 (5), d22 = d12 - sign * b (4)
        A = np.array([[c[0, 1], c[0, 2]], [c[1, 1], c[1, 2]]])
        rhs = np.array([r[0] - c[0, 0] * d11, r[1] - c[1, 0] * d11 + c[1, 1] * sign * b[1]])
        d12, d13 = np.linalg.solve(A, rhs)
        d22 = d12 - sign * b[1]
        feasible = bool(all(-1e-12 <= v <= 1 + 1e-12 for v in (d12, d13, d22)))
        d12_clip = (r[0] - c[0, 0] * d11 - c[0, 2] * min(d13, 1.0)) / c[0, 1]
        rows.append(
            dict(
                branch=label,
                d12=d12,
                d13=d13,
                d22=d22,
                probability_vector=feasible,
                d13_clipped=min(d13, 1.0),
                d12_clipped=d12_clip,
            )
        )
    return pd.DataFrame(rows)


def _check_qii(predict, data, group_name, in_group, columns_name, columns, rng_name, rng, n_draws):
    """The checks of :func:`qii` under the caller's parameter names: (mask, column list)."""
    if not callable(predict):
        raise ValueError(f"predict must be a callable frame -> 0/1 array, got {type(predict).__name__}")
    check_frame("data", data)
    mask = np.asarray(in_group)
    if mask.dtype != bool or mask.shape != (len(data),) or not mask.any():
        raise ValueError(
            f"{group_name} must be a boolean mask over data selecting at least one record, got {mask.shape}"
        )
    if not isinstance(columns, list | tuple) or not columns or any(c not in data.columns for c in columns):
        raise ValueError(f"{columns_name} must be a non-empty list of columns of data, got {columns!r}")
    check_rng(rng_name, rng)
    check_integer("n_draws", n_draws, minimum=1)
    return mask, list(columns)


def qii(
    predict: Callable[[pd.DataFrame], np.ndarray],
    data: pd.DataFrame,
    in_group,
    columns: Sequence[str],
    rng: np.random.Generator,
    n_draws: int,
) -> dict:
    """QII of the attribute set ``columns`` for Q(X) = P{c(X) = 1 | X in T_W} ((33)-(34)).

    The intervention X_{-K} U_K replaces the columns K of every record of T_W by those of a record
    drawn uniformly from the whole data set (their joint marginal). The same ``n_draws`` draws are
    used for every record of the group.  ``I_se`` is the Monte-Carlo standard error of ``I`` over the
    draws (the standard error of the mean of the per-draw group rates; nan for one draw).
    """
    mask, cols = _check_qii(predict, data, "in_group", in_group, "columns", columns, "rng", rng, n_draws)
    group = data.loc[mask].reset_index(drop=True)
    q = float(np.mean(predict(group)))
    draws = rng.integers(0, len(data), int(n_draws))
    rep = group.loc[np.repeat(np.arange(len(group)), len(draws))].reset_index(drop=True)
    donor = data.iloc[np.tile(draws, len(group))].reset_index(drop=True)
    rep[cols] = donor[cols].to_numpy()
    per_draw = np.asarray(predict(rep), dtype=float).reshape(len(group), len(draws)).mean(axis=0)
    q_int = float(per_draw.mean())
    se = float(per_draw.std(ddof=1) / np.sqrt(len(draws))) if len(draws) > 1 else float("nan")
    return {"Q": q, "Q_intervened": q_int, "I": q - q_int, "I_se": se, "draws": draws}


def qii_difference_attack(predict, data, w1, w0, private, seed_rng_w1, seed_rng_w0, n_draws) -> dict:
    """Appendix B, method 1: I_{W1}(S) - I_{W0}(S) = Q_{W1} - Q_{W0} when S are all private
    attributes (the intervened inputs then coincide); generators with equal state give shared draws."""
    _check_qii(predict, data, "w1", w1, "private", private, "seed_rng_w1", seed_rng_w1, n_draws)
    _check_qii(predict, data, "w0", w0, "private", private, "seed_rng_w0", seed_rng_w0, n_draws)
    i1 = qii(predict, data, w1, private, seed_rng_w1, n_draws)
    i0 = qii(predict, data, w0, private, seed_rng_w0, n_draws)
    return {
        "I_W1": i1["I"],
        "I_W0": i0["I"],
        "I_W1_se": i1["I_se"],
        "I_W0_se": i0["I_se"],
        "difference": i1["I"] - i0["I"],
        "Q_W1": i1["Q"],
        "Q_W0": i0["Q"],
        "Q_int_W1": i1["Q_intervened"],
        "Q_int_W0": i0["Q_intervened"],
    }
