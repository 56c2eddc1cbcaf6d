"""Loaders for raw (non-ARFF) UCI files in the registry: Adult and Bank Marketing.

``load_adult()`` merges ``uci/adult/adult.data`` and ``uci/adult/adult.test`` (the test file starts with
the line ``|1x3 Cross validator`` and its labels end with a full stop) and drops the rows with a missing
value (``?``): 48,842 rows → 45,222 complete rows, the N of the thesis' Tables 2, 3 and 9.
``load_bank()`` reads ``uci/bank/bank-full.csv`` (``;``-separated, 45,211 rows; ``"unknown"`` is a
level of the categorical columns, not a missing value).

Both return DataFrames with numeric columns as floats and categorical columns (and the label) as
strings; the preprocessing a work describes is applied by that work's code.
"""

from __future__ import annotations

import pandas as pd

from safeguarded.data.uci import load_raw_csv

__all__ = ["ADULT_COLUMNS", "load_adult", "load_bank"]

#: Column names of the Adult files (``adult.names``); the label is ``income``.
ADULT_COLUMNS = (
    "age",
    "workclass",
    "fnlwgt",
    "education",
    "education-num",
    "marital-status",
    "occupation",
    "relationship",
    "race",
    "sex",
    "capital-gain",
    "capital-loss",
    "hours-per-week",
    "native-country",
    "income",
)
_ADULT_NUMERIC = ("age", "fnlwgt", "education-num", "capital-gain", "capital-loss", "hours-per-week")


def load_adult(*, complete_cases: bool = True) -> pd.DataFrame:
    """UCI Adult (census income), train and test files merged, labels ``<=50K`` / ``>50K``.

    ``complete_cases`` drops the rows with a missing value (45,222 of 48,842 remain).
    """
    if not isinstance(complete_cases, bool):
        raise ValueError(f"complete_cases must be True or False, got complete_cases={complete_cases!r}")
    kwargs = {"header": None, "names": list(ADULT_COLUMNS), "skipinitialspace": True, "dtype": str}
    parts = [
        load_raw_csv("uci/adult/adult.data", **kwargs),
        load_raw_csv("uci/adult/adult.test", skiprows=1, **kwargs),
    ]
    frame = pd.concat(parts, ignore_index=True)
    frame = frame.dropna(how="all")
    frame["income"] = frame["income"].str.strip().str.rstrip(".")
    for col in _ADULT_NUMERIC:
        frame[col] = pd.to_numeric(frame[col], errors="raise").astype(float)
    if complete_cases:
        frame = frame.dropna().reset_index(drop=True)
    return frame


def load_bank() -> pd.DataFrame:
    """UCI Bank Marketing, ``bank-full.csv`` (45,211 rows, 16 features, label ``y`` in {no, yes})."""
    frame = load_raw_csv("uci/bank/bank-full.csv", sep=";", na_values=[])
    for col in frame.columns:
        if pd.api.types.is_numeric_dtype(frame[col]):
            frame[col] = frame[col].astype(float)
        else:
            frame[col] = frame[col].astype(str)
    return frame
