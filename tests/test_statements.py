"""The statement ledgers (``safeguarded.<work>.statements``): every line of each work's numerical section
that states a number is accounted for, and each entry points at something real."""

from __future__ import annotations

import re

import pandas as pd
import pytest

from safeguarded import claims
from safeguarded.paths import REPO_ROOT, WORKS
from safeguarded.statements import (
    Ledger,
    Result,
    Skip,
    Statement,
    ledger,
    result_headers,
    seed_lines,
    uncovered_lines,
)

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


# -- the theory: every theorem-like statement is checked or listed with why not -----------------------------

THEORY = [w for w in LEDGERS if ledger(w).theory]


def _fragments(work: str) -> pd.DataFrame:
    """The committed claim fragments of ``work`` (figures/<work>/claims/*.csv, the rows make claims joins)."""
    files = sorted((REPO_ROOT / "figures" / work / "claims").glob("*.csv"))
    return pd.concat([pd.read_csv(f, dtype=str, keep_default_na=False) for f in files], ignore_index=True)


def test_a_result_needs_exactly_one_of_claims_and_why():
    with pytest.raises(ValueError, match="exactly one"):
        Result(10, "Theorem 1", "x")
    with pytest.raises(ValueError, match="exactly one"):
        Result(10, "Theorem 1", "x", "item", claims="a", why="b")
    with pytest.raises(ValueError, match="item"):
        Result(10, "Theorem 1", "x", claims="a")
    with pytest.raises(ValueError, match="says"):
        Result(10, "Theorem 1", " ", why="b")


def test_result_headers_finds_statement_headers_only(tmp_path, monkeypatch):
    seed = tmp_path / "seed.txt"
    seed.write_text("Theorem 3 (main). A holds.\nTheorem 3 shows that\nRemark 2. B.\nCorollary 10 "
                    "(2-norm). C\n")
    monkeypatch.setattr("safeguarded.statements.SEEDS", tmp_path)
    seed_lines.cache_clear()
    try:
        book = Ledger("seed.txt", (), theory=((1, 4),))
        assert result_headers(book) == [(1, "Theorem 3"), (3, "Remark 2"), (4, "Corollary 10")]
    finally:
        seed_lines.cache_clear()


@pytest.mark.parametrize("work", THEORY)
def test_every_theorem_like_statement_of_the_theory_is_checked_or_listed_with_a_reason(work):
    book = ledger(work)
    named = {(n, r.name) for r in book.results for n in range(r.lines[0], r.lines[1] + 1)}
    missing = [(n, name) for n, name in result_headers(book) if (n, name) not in named]
    assert not missing, f"{work}: statements without a result: {missing}"
    inside = {n for first, last in book.theory for n in range(first, last + 1)}
    for r in book.results:
        assert r.lines[0] in inside and r.lines[1] in inside, f"{work}: {r} lies outside the theory ranges"


@pytest.mark.parametrize("work", THEORY)
def test_checked_results_match_rows_of_the_committed_claim_fragments(work):
    rows = _fragments(work)
    for r in ledger(work).results:
        if r.claims:
            matches = rows["claim"].map(lambda c, p=r.claims: bool(re.search(p, c)))
            hits = rows[(rows["item"] == r.item) & matches]
            assert len(hits), f"{work}: no row of item {r.item!r} matches {r.claims!r} ({r.name or r.says!r})"


def test_the_walked_theories_hold_both_checked_and_uncheckable_statements():
    results = [r for w in THEORY for r in ledger(w).results]
    assert {w for w in THEORY} == {"robust_lr_aux", "convex_max", "rlt"}
    assert sum(bool(r.claims) for r in results) > sum(bool(r.why) for r in results) > 0
