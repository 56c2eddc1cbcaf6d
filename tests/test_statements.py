"""The statement ledgers (``safeguarded.<work>.statements``): every line of each work's numerical section
that states a number is accounted for, and each entry points at something real."""

from __future__ import annotations

import re

import pandas as pd
import pytest

from safeguarded import claims
from safeguarded.paths import REPO_ROOT, WORKS
from safeguarded.statements import Ledger, Skip, Statement, ledger, seed_lines, uncovered_lines

LEDGERS = [w for w in WORKS if ledger(w) is not None]


@pytest.fixture(scope="module")
def report() -> pd.DataFrame:
    # the committed report (the tests' FIGURES is a temporary folder, see conftest.py)
    from safeguarded.claims import read_report

    return read_report(REPO_ROOT / "figures")


def test_a_statement_needs_exactly_one_of_claims_and_not_run():
    with pytest.raises(ValueError, match="exactly one"):
        Statement(10, "x", "table01")
    with pytest.raises(ValueError, match="exactly one"):
        Statement(10, "x", "table01", claims="a", not_run="b", paper="1")
    with pytest.raises(ValueError, match="paper="):
        Statement(10, "x", "table01", not_run="b")
    with pytest.raises(ValueError, match="kind"):
        Statement(10, "x", "table01", claims="a", kind="vibe")
    with pytest.raises(ValueError, match="lines"):
        Skip((20, 10), "backwards")


def test_uncovered_lines_finds_a_line_with_digits_that_no_entry_covers(tmp_path, monkeypatch):
    seed = tmp_path / "seed.txt"
    seed.write_text("Intro\nTable 1 shows 0.25\nno digits here\nit takes 3 s\n")
    monkeypatch.setattr("safeguarded.statements.SEEDS", tmp_path)
    seed_lines.cache_clear()
    try:
        book = Ledger("seed.txt", ((1, 4),), [Statement(2, "Table 1 value", "table01", claims=".")])
        assert uncovered_lines(book) == [4]
        book = Ledger("seed.txt", ((1, 4),), book.statements, [Skip(4, "a time we do not claim")])
        assert uncovered_lines(book) == []
    finally:
        seed_lines.cache_clear()


@pytest.mark.parametrize("work", LEDGERS)
def test_every_line_with_a_number_in_the_numerical_section_is_in_the_ledger(work):
    book = ledger(work)
    missing = uncovered_lines(book)
    text = seed_lines(book.seed)
    assert not missing, f"{work}: lines not in the ledger: " + "; ".join(
        f"L{n}: {text[n - 1][:80]!r}" for n in missing[:20]
    )


@pytest.mark.parametrize("work", LEDGERS)
def test_ledger_entries_lie_inside_the_sections_and_printed_values_occur_in_their_lines(work):
    book = ledger(work)
    text = seed_lines(book.seed)
    inside = {n for first, last in book.sections for n in range(first, last + 1)}
    for entry in [*book.statements, *book.skips]:
        first, last = entry.lines
        assert first in inside and last in inside, f"{work}: {entry} lies outside the sections"
    for s in book.statements:
        if s.paper:
            first, last = s.lines
            window = " ".join(text[first - 1 : last]).replace(",", "")
            assert s.paper.replace(",", "") in window, f"{work}: {s.paper!r} not printed at {s.location}"


@pytest.mark.parametrize("work", LEDGERS)
def test_ledger_claim_patterns_match_rows_of_the_committed_report(work, report):
    rows = report[report["work"] == work]
    for s in ledger(work).statements:
        if s.claims:
            matches = rows["claim"].map(lambda c, p=s.claims: bool(re.search(p, c)))
            hits = rows[(rows["item"] == s.item) & matches]
            assert len(hits), f"{work}: no row of item {s.item!r} matches {s.claims!r} ({s.says!r})"


@pytest.mark.parametrize("work", LEDGERS)
def test_statements_we_cannot_check_are_inconclusive_rows_of_the_report(work, report):
    book = ledger(work)
    rows = report[(report["work"] == work) & report["note"].str.startswith("not run: ")]
    expected = {(s.item, s.says) for s in book.statements if s.not_run}
    assert set(zip(rows["item"], rows["claim"], strict=True)) == expected
    assert set(rows["verdict"]) <= {"inconclusive"}


def test_ledger_rows_pass_the_protocol_and_are_unique():
    table = claims.ledger_rows()
    assert claims.validate(table) == []
    assert not table.duplicated(["work", "item", "claim"]).any()
    assert all(re.fullmatch(r"L\d+(-L\d+)?", loc) for loc in table["location"])


def test_every_work_keeps_a_ledger():
    assert LEDGERS == list(WORKS)


def test_a_statement_naming_a_machine_path_is_refused():
    with pytest.raises(ValueError, match="machine's path"):
        Statement(10, "x", "text", not_run="not in our mirror (/work/shared/data)", paper="1")
    Statement(10, "x", "text", not_run="not in our mirror (../shared/data)", paper="1")
