"""One preprocessing route for the UCI tables of thesis §3 (Tables 21-26) and §4 (Table 29).

A data set is described by a :class:`UCITable` (which files, which column is the output, which columns
are dropped, numerical or categorical, how missing values and the level sets are treated);
:func:`read_table` turns it into a :class:`TableFrame`: the cleaned rows with numerical columns as floats,
categorical columns as strings (a kept missing value is the level ``"?"``), the level set of every
categorical column, and the raw output.  The works encode it their own way
(``wasserstein_mixed.instances.load_uci``: one-hot with the most frequent level as reference, min-max
scaling; ``robust_lr_aux.data``: standardisation, one-hot, a constant column).

The rules follow the thesis (L3502: "handle missing values and inconsistencies in the data, employ a
one-hot encoding for discrete variables, convert the output variable") and then the authors' public
preprocessing (``selvi-aras/WassersteinLR``, ``Data/Dataset Cooking.ipynb``, read, not copied):

* a categorical feature with ``L`` levels contributes ``L - 1`` binary columns (a two-level feature one
  column; the notebook keeps all ``L`` dummies of a feature with ``L >= 3`` and its Julia code drops one),
  so ``M_z = sum(L_k - 1)``;
* the levels are the values present in the file, with ``?`` (missing) counted as a value
  (``DataFrame.nunique`` on the raw strings), ``levels="present"``;
* classification outputs are "majority class vs rest".

Where the thesis's table of dimensions cannot be reached by these rules, a data set's table names the
deviation it needs (``levels="declared"``: the levels the data set's documentation declares, absent ones
included; ``missing="drop_rows"``; columns dropped or entering twice).  Those choices are *fitted to the
printed dimensions* and are marked so in the works' tables (``fitted=...``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

__all__ = ["UCITable", "TableFrame", "read_table", "majority_vs_rest", "level_codes", "minmax"]

_MISSING_RULES = ("level", "drop_rows", "drop_numeric_rows")
_LEVEL_RULES = ("present", "declared")


@dataclass(frozen=True)
class UCITable:
    """How to read one UCI data set.

    Parameters
    ----------
    files : registry keys: ``"arff:NAME"`` (``uci/arff/NAME.arff``) or ``"csv:PATH"`` (``;``-separated
        when ``sep=";"``); several files are concatenated (a train and a test file).
    target : the output column.
    task : ``"classification"`` or ``"regression"``.
    drop : columns removed before anything else (identifiers, leaks, columns the table leaves out).
    categorical : ``"nonnumeric"`` (the columns that are not numeric), ``"all"`` (every feature) or a
        tuple of columns (added to the non-numeric ones).
    numerical : columns read as numbers although the file declares them nominal.
    both : columns that enter as a number *and* as a category (counted in ``M_x`` and in ``K``).
    missing : ``"level"`` (a missing category is the level ``"?"``, a missing number the column
        median), ``"drop_rows"`` (rows with a missing feature are removed) or ``"drop_numeric_rows"``
        (rows with a missing numerical feature are removed, a missing category is ``"?"``).
    levels : ``"present"`` (the values in the rows kept) or ``"declared"`` (the file's declared levels,
        absent ones included); ``declared_levels`` overrides single columns.
    strip : strip white space from category strings (``False`` keeps ``"finishing "`` and
        ``"finishing"`` apart, as a raw ``nunique`` does).
    drop_constant : drop features with a single value (a categorical one has no dummy, a numerical one
        no scale).
    fitted : what in this table was chosen to reach the printed dimensions (empty: nothing).
    """

    files: tuple[str, ...]
    target: str
    task: str = "classification"
    drop: tuple[str, ...] = ()
    categorical: str | tuple[str, ...] = "nonnumeric"
    numerical: tuple[str, ...] = ()
    both: tuple[str, ...] = ()
    missing: str = "level"
    levels: str = "present"
    declared_levels: dict = field(default_factory=dict)
    strip: bool = True
    drop_constant: bool = True
    sep: str = ","
    fitted: str = ""

    def __post_init__(self):
        if self.task not in ("classification", "regression"):
            raise ValueError(f"task must be 'classification' or 'regression', got task={self.task!r}")
        if self.missing not in _MISSING_RULES:
            raise ValueError(f"missing must be one of {_MISSING_RULES}, got missing={self.missing!r}")
        if self.levels not in _LEVEL_RULES:
            raise ValueError(f"levels must be one of {_LEVEL_RULES}, got levels={self.levels!r}")
        if not self.files:
            raise ValueError("files must name at least one registered file, got files=()")


@dataclass
class TableFrame:
    """The cleaned rows of a :class:`UCITable`.

    ``frame`` holds the features in file order (numerical ones as floats, categorical ones as strings)
    and the output in column ``target``; ``numerical`` and ``categorical`` list the feature columns
    (a column of ``both`` is in both lists; its categorical copy is the column ``NAME#cat``);
    ``levels[c]`` is the level set of categorical column ``c``.
    """

    frame: pd.DataFrame
    numerical: list[str]
    categorical: list[str]
    levels: dict[str, tuple[str, ...]]
    target: str
    task: str

    @property
    def N(self) -> int:  # noqa: N802 - the thesis's symbol
        return len(self.frame)

    @property
    def M_x(self) -> int:  # noqa: N802
        return len(self.numerical)

    @property
    def K(self) -> int:  # noqa: N802
        return len(self.categorical)

    @property
    def M_z(self) -> int:  # noqa: N802
        return int(sum(len(self.levels[c]) - 1 for c in self.categorical))


def _read_one(key: str, sep: str) -> pd.DataFrame:
    from safeguarded.data.uci import load_arff, load_raw_csv

    kind, _, name = key.partition(":")
    if kind == "arff":
        return load_arff(name)
    if kind == "csv":
        return load_raw_csv(name, sep=sep)
    raise ValueError(f"files entries must start with 'arff:' or 'csv:', got {key!r}")


def _as_level(value) -> str:
    """A category value as a string: integral numbers without a trailing ``.0``."""
    if isinstance(value, float | np.floating) and float(value).is_integer():
        return str(int(value))
    return str(value)


def _declared(col: pd.Series) -> tuple[str, ...] | None:
    if isinstance(col.dtype, pd.CategoricalDtype):
        return tuple(_as_level(v) for v in col.cat.categories)
    return None


def read_table(table: UCITable) -> TableFrame:
    """Read and clean the data set described by ``table`` (see :class:`UCITable`)."""
    if not isinstance(table, UCITable):
        raise ValueError(f"table must be a UCITable, got {type(table).__name__}")
    raw = pd.concat([_read_one(f, table.sep) for f in table.files], ignore_index=True)
    if table.target not in raw.columns:
        raise ValueError(f"target {table.target!r} is not a column of {table.files}: {list(raw.columns)}")
    raw = raw.drop(columns=[c for c in table.drop if c in raw.columns])
    raw = raw.dropna(subset=[table.target]).reset_index(drop=True)
    features = [c for c in raw.columns if c != table.target]
    declared = {c: _declared(raw[c]) for c in features}
    forced = set(features if table.categorical == "all" else ()) | set(
        () if isinstance(table.categorical, str) else table.categorical
    )
    numerical, categorical = [], []
    for c in features:
        if c in table.numerical:
            numerical.append(c)
        elif c in forced or not pd.api.types.is_numeric_dtype(raw[c]):
            categorical.append(c)
        else:
            numerical.append(c)
        if c in table.both and c not in categorical:
            categorical.append(c)
    if table.missing == "drop_rows":
        raw = raw.dropna(subset=features).reset_index(drop=True)
    elif table.missing == "drop_numeric_rows":
        raw = raw.dropna(subset=[c for c in numerical if c not in categorical]).reset_index(drop=True)
    out, levels, num_out, cat_out = {}, {}, [], []
    for c in features:
        if c in numerical:
            col = pd.to_numeric(raw[c].astype(object) if c in table.numerical else raw[c], errors="coerce")
            col = col.astype(float)
            if table.missing == "level":
                col = col.fillna(col.median())
            if not (table.drop_constant and col.nunique() < 2):
                out[c] = col
                num_out.append(c)
        if c in categorical:
            col = raw[c].astype(object)
            present = col.notna()
            text = pd.Series("?", index=col.index, dtype=object)
            text[present] = [_as_level(v) for v in col[present]]
            if table.strip:
                text = text.str.strip()
            if table.levels == "declared" or c in table.declared_levels:
                lv = table.declared_levels.get(c) or declared[c]
                if lv is None:
                    raise ValueError(
                        f"column {c!r} of {table.files} declares no levels: give declared_levels"
                    )
                lv = tuple(lv) + (("?",) if (text == "?").any() and "?" not in lv else ())
                unknown = set(text) - set(lv)
                if unknown:
                    raise ValueError(f"column {c!r} has values {sorted(unknown)} outside its declared levels")
            else:
                lv = tuple(sorted(set(text)))
            if table.drop_constant and len(lv) < 2:
                continue
            name = f"{c}#cat" if c in numerical else c
            out[name] = text.to_numpy(dtype=object)
            levels[name] = lv
            cat_out.append(name)
    frame = pd.DataFrame(out, index=raw.index)
    frame[table.target] = raw[table.target].to_numpy()
    return TableFrame(frame, num_out, cat_out, levels, table.target, table.task)


def majority_vs_rest(labels: pd.Series) -> np.ndarray:
    """+1 for the most frequent class (ties: the first in ``value_counts`` order), -1 for the rest."""
    text = labels.astype(str)
    return np.where(text == text.value_counts().idxmax(), 1.0, -1.0)


def level_codes(values, levels) -> tuple[np.ndarray, int]:
    """Integer codes of ``values`` with code 0 the most frequent level (ties: the smaller string) and
    absent levels last; returns ``(codes, number of levels)``."""
    values = pd.Series(np.asarray(values, dtype=object)).astype(str)
    counts = values.value_counts()
    order = sorted(levels, key=lambda v: (-int(counts.get(v, 0)), v))
    lookup = {v: i for i, v in enumerate(order)}
    return values.map(lookup).to_numpy(dtype=np.int64), len(order)


def minmax(col: pd.Series | np.ndarray, lo: float = 0.0, hi: float = 1.0) -> np.ndarray:
    """Scale to [lo, hi] by the column's range (a constant column raises)."""
    v = np.asarray(col, dtype=float)
    span = v.max() - v.min()
    if span == 0:
        raise ValueError("minmax: the column is constant, it has no range to scale")
    return lo + (hi - lo) * (v - v.min()) / span
