"""UCI Credit Approval (Quinlan's ``crx.data``; 690 records, A1-A15 inputs, A16 the class), from the
registry / mirror.

The ATR paper calls it "the Australian credit approval dataset" but its attribute table (Table 5) is
that of Credit Approval (crx), not Statlog Australian; crx is used. Missing values are "?" (37 rows);
``dropna=True`` keeps the 653 complete rows.
"""

from __future__ import annotations

import pandas as pd

from safeguarded.data.uci import load_raw_csv

__all__ = ["COLUMNS", "CONTINUOUS", "ATTRIBUTES", "load_credit_approval", "attribute_table"]

COLUMNS = [f"A{i}" for i in range(1, 17)]
CONTINUOUS = ["A2", "A3", "A8", "A11", "A14", "A15"]

#: Table 5 of the paper (from crx.names): attribute -> declared levels or "continuous".
ATTRIBUTES = {
    "A1": "b, a",
    "A2": "continuous",
    "A3": "continuous",
    "A4": "u, y, l, t",
    "A5": "g, p, gg",
    "A6": "c, d, cc, i, j, k, m, r, q, w, x, e, aa, ff",
    "A7": "v, h, bb, j, n, z, dd, ff, o",
    "A8": "continuous",
    "A9": "t, f",
    "A10": "t, f",
    "A11": "continuous",
    "A12": "t, f",
    "A13": "g, p, s",
    "A14": "continuous",
    "A15": "continuous",
    "A16": "+, - (class attribute)",
}


def load_credit_approval(*, dropna: bool = True) -> pd.DataFrame:
    """The crx data as a DataFrame with columns A1..A16 (continuous ones as float, others as str)."""
    if not isinstance(dropna, bool):
        raise ValueError(f"dropna must be True or False, got dropna={dropna!r}")
    frame = load_raw_csv(
        "uci/crx/crx.data", header=None, names=COLUMNS, dtype=str, keep_default_na=False, na_values=["?"]
    )
    for col in CONTINUOUS:
        frame[col] = pd.to_numeric(frame[col], errors="raise").astype(float)
    if len(frame) != 690:
        raise ValueError(f"crx.data must have 690 rows, got {len(frame)}")
    return frame.dropna().reset_index(drop=True) if dropna else frame


def attribute_table() -> pd.DataFrame:
    """Table 5: the attribute list of the Credit Approval data."""
    return pd.DataFrame({"attribute": list(ATTRIBUTES), "values": list(ATTRIBUTES.values())})
