"""Consistency of thesis §1's printed tables, read from the seed text.

The ledger (safeguarded.dp_noise.statements) cites this test for L1904: "Table 1 summarized the suboptimality
... by summing the upper and lower bound gaps"."""

from __future__ import annotations

import re

import numpy as np
import pytest

from safeguarded.dp_noise.statements import SEED
from safeguarded.statements import seed_lines


def _table(first: int, last: int) -> np.ndarray:
    text = seed_lines(SEED)
    rows = [[float(v) for v in re.findall(r"(\d+\.\d+)\s*%", text[n - 1])] for n in range(first, last + 1)]
    assert all(len(r) == 10 for r in rows), "a row of the 10 x 10 grid lost a cell"
    return np.array(rows)


@pytest.fixture(scope="module")
def tables():
    try:
        return {t: _table(*lines) for t, lines in {1: (874, 883), 4: (1909, 1918), 5: (1923, 1932)}.items()}
    except FileNotFoundError as err:
        pytest.skip(str(err))


def test_table1_is_table4_plus_table5_to_the_printed_rounding(tables):
    gap = np.abs(tables[1] - (tables[4] + tables[5]))
    assert gap.max() <= 0.015 + 1e-9  # three numbers each rounded to 0.01 pp


def test_the_check_fails_on_a_perturbed_table(tables):
    perturbed = tables[4].copy()
    perturbed[3, 4] += 0.05
    assert np.abs(tables[1] - (perturbed + tables[5])).max() > 0.015
