"""The decision table: records x = (x_U, x_S), their probability P(x) and the decision rule d(x).

A record's QID group T_{x_U} = {x' : x'_U = x_U} (Table 3) is identified by an integer code.
:class:`Segments` holds the grouping of records into contiguous segments, so that per-group sums,
maxima and arg-maxima are single ``numpy.ufunc.reduceat`` passes (Lemma 3: groups are independent).

The paper's scenario (Table 1) and its 40-person version (Section 8, Table 4) are built by
:func:`table1` and :func:`example_table`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from safeguarded.atr._checks import check_group_codes, check_prob_vector, check_unit_array
from safeguarded.validation import check_array

__all__ = ["Segments", "DecisionTable", "table1", "example_table", "census_table"]


@dataclass(frozen=True)
class Segments:
    """Records grouped into contiguous segments (QID groups).

    ``order`` sorts records by group (stable, so records keep their order inside a group; ``None``
    when the codes are already sorted), ``starts`` are the first sorted positions of each group,
    ``seg`` maps every sorted record to its group index.
    """

    order: np.ndarray | None
    starts: np.ndarray
    seg: np.ndarray
    n: int

    @classmethod
    def from_codes(cls, group) -> Segments:
        group = np.asarray(group)
        n = group.size
        if n == 0:
            raise ValueError("group must contain at least one record, got an empty array")
        if n > 1 and np.any(group[1:] < group[:-1]):
            order = np.argsort(group, kind="stable")
            sg = group[order]
        else:
            order, sg = None, group
        change = np.flatnonzero(sg[1:] != sg[:-1]) + 1
        starts = np.concatenate(([0], change)).astype(np.intp)
        seg = np.zeros(n, dtype=np.intp)
        seg[change] = 1
        np.cumsum(seg, out=seg)
        return cls(order, starts, seg, n)

    @property
    def n_groups(self) -> int:
        return int(self.starts.size)

    @property
    def sizes(self) -> np.ndarray:
        return np.diff(np.append(self.starts, self.n))

    def sort(self, v: np.ndarray) -> np.ndarray:
        return v if self.order is None else v[self.order]

    def unsort(self, v: np.ndarray) -> np.ndarray:
        if self.order is None:
            return v
        out = np.empty_like(v)
        out[self.order] = v
        return out

    def sum(self, v: np.ndarray) -> np.ndarray:
        return np.add.reduceat(v, self.starts)

    def max(self, v: np.ndarray) -> np.ndarray:
        return np.maximum.reduceat(v, self.starts)

    def first_argmax(self, v: np.ndarray) -> np.ndarray:
        """Sorted position of the first maximum of ``v`` in each group (lowest-index tie-break)."""
        mx = self.max(v)
        idx = np.where(v == mx[self.seg], np.arange(self.n), self.n)
        return np.minimum.reduceat(idx, self.starts)

    def exclusive_cumsum(self, v: np.ndarray) -> np.ndarray:
        """Within-group cumulative sum of the preceding entries."""
        c = np.cumsum(v)
        before = np.concatenate(([0.0], c[:-1]))
        return before - before[self.starts][self.seg]


@dataclass(frozen=True)
class DecisionTable:
    """Records with public part x_U, private part x_S, probability P(x) and decision rule d(x).

    Parameters
    ----------
    frame
        One row per record x in R_X, with the public and private columns.
    public, private
        Column names of x_U (the QID) and x_S.
    p
        P(x): a probability distribution over the records (sums to one).
    d
        d(x) = D_1(x) = P(A = 1 | x) (Definition 1, (7)), in [0, 1].
    """

    frame: pd.DataFrame
    public: tuple[str, ...]
    private: tuple[str, ...]
    p: np.ndarray
    d: np.ndarray

    def __post_init__(self):
        n = len(self.frame)
        if n == 0:
            raise ValueError("frame must contain at least one record, got an empty table")
        for col in (*self.public, *self.private):
            if col not in self.frame.columns:
                raise ValueError(f"column {col!r} (public/private) is not in frame: {list(self.frame)}")
        if not self.public:
            raise ValueError("public must name at least one QID column, got public=()")
        p = check_prob_vector("p", self.p)
        if p.size != n:
            raise ValueError(f"p must have one entry per record ({n}), got length {p.size}")
        check_unit_array("d", self.d, n)
        object.__setattr__(self, "p", p)
        object.__setattr__(self, "d", np.asarray(self.d, dtype=float))
        codes = self.group_codes
        check_group_codes("group", codes, n)
        mass = np.bincount(codes, weights=p)
        if np.any(mass <= 0):
            raise ValueError(
                "every QID group must have positive probability mass, got an empty group "
                f"(group {int(np.flatnonzero(mass <= 0)[0])})"
            )

    @classmethod
    def from_counts(cls, frame: pd.DataFrame, public, private, *, count: str, decision: str) -> DecisionTable:
        """P(x) proportional to the non-negative column ``count`` (e.g. population)."""
        counts = np.asarray(frame[count], dtype=float)
        if counts.size == 0 or np.any(~np.isfinite(counts)) or np.any(counts < 0) or counts.sum() <= 0:
            raise ValueError(f"count column {count!r} must be finite, >= 0 and not all zero")
        return cls(
            frame.reset_index(drop=True),
            tuple(public),
            tuple(private),
            counts / counts.sum(),
            np.asarray(frame[decision], dtype=float),
        )

    @property
    def group_codes(self) -> np.ndarray:
        """QID group of each record, numbered in order of first appearance."""
        keys = pd.MultiIndex.from_frame(self.frame[list(self.public)])
        codes, _ = pd.factorize(keys, sort=False)
        return codes.astype(np.intp)

    @property
    def group_labels(self) -> list:
        keys = self.frame[list(self.public)].drop_duplicates()
        return [tuple(r) if len(r) > 1 else r[0] for r in keys.itertuples(index=False)]


#: Table 1 (L74-84): population, annual income, gender, decision rule d, census P(income | gender).
_TABLE1 = {
    "population": [139, 9, 2, 117, 18, 5],
    "income": ["<100k", "100k-200k", ">200k", "<100k", "100k-200k", ">200k"],
    "gender": ["F", "F", "F", "M", "M", "M"],
    "d": [0.0, 0.0, 1.0, 0.0, 0.5, 1.0],
    "census": [0.931, 0.057, 0.012, 0.842, 0.123, 0.035],
}


def table1() -> pd.DataFrame:
    """Table 1 of the paper: the synthetic credit-card scenario (an input table)."""
    return pd.DataFrame(_TABLE1)


def example_table(population=(12, 5, 3, 9, 7, 4)) -> DecisionTable:
    """Section 8's example: Table 1 with the smaller population {12, 5, 3, 9, 7, 4} (Table 4)."""
    population = check_array("population", population, shape=(len(_TABLE1["population"]),))
    frame = table1().drop(columns="population").assign(population=population)
    return DecisionTable.from_counts(frame, ["gender"], ["income"], count="population", decision="d")


def census_table() -> DecisionTable:
    """Table 1 with P(x) = P(gender) P(income | gender): census conditionals, gender shares from counts
    (the adversary's side information of Section 3.2)."""
    frame = table1()
    share = frame.groupby("gender")["population"].transform("sum") / frame["population"].sum()
    p = np.asarray(share * frame["census"], dtype=float)
    return DecisionTable(frame, ("gender",), ("income",), p / p.sum(), frame["d"].to_numpy(float))
