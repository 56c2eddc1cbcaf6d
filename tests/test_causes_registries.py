"""Every work's cause registry (``safeguarded.<work>.causes``) is valid, and every check it names exists.

A ``work-error`` cause or a finding names the check that would fail if the work were right: a test id
``tests/<file>.py::<test>`` or a notebook section ``notebooks/<name>.ipynb#<heading slug>``. This test
resolves each one, so a renamed test or heading cannot leave the findings page pointing at nothing.
"""

import json
import re

import pytest

from safeguarded import judging
from safeguarded.paths import REPO_ROOT, WORKS

_TEST = re.compile(r"tests/([\w./-]+\.py)::(\w+)")
_SECTION = re.compile(r"notebooks/([\w.-]+\.ipynb)#([\w.-]+)")


def slug(heading: str) -> str:
    """A markdown heading's anchor: lower case, punctuation dropped, runs of spaces/hyphens -> '-'."""
    text = re.sub(r"[^\w\s-]", "", heading.strip().lstrip("#").strip().lower())
    return re.sub(r"[\s-]+", "-", text).strip("-")


def _headings(notebook: str) -> set[str]:
    cells = json.loads((REPO_ROOT / "notebooks" / notebook).read_text())["cells"]
    lines = ("".join(c["source"]).splitlines() for c in cells if c["cell_type"] == "markdown")
    return {slug(line) for block in lines for line in block if line.startswith("#")}


def _missing_checks(text: str) -> list[str]:
    missing = []
    for path, name in _TEST.findall(text):
        file = REPO_ROOT / "tests" / path
        if not file.is_file() or not re.search(rf"^def {name}\(", file.read_text(), re.M):
            missing.append(f"tests/{path}::{name}")
    for notebook, section in _SECTION.findall(text):
        if not (REPO_ROOT / "notebooks" / notebook).is_file() or section not in _headings(notebook):
            missing.append(f"notebooks/{notebook}#{section}")
    return missing


def test_slug_of_headings():
    assert slug("## §3.3 — Mary inverts the fairness report") == "33-mary-inverts-the-fairness-report"
    assert slug("## β and the units of the data") == "β-and-the-units-of-the-data"
    assert slug("## Table 1: the price of privacy") == "table-1-the-price-of-privacy"


@pytest.mark.parametrize("work", WORKS)
def test_every_named_check_exists(work):
    causes, findings, accuracies = judging.registry(work)
    ids = {f.id for f in findings}
    for cause in causes:
        assert cause.cause in judging.CAUSES
        assert not re.search(r"\b(likely|probably)\b", cause.why), f"a guess is 'unexplained': {cause.why}"
        for pattern in (cause.item, cause.claim, cause.note):
            re.compile(pattern)
        if cause.cause == "work-error":
            assert _TEST.search(cause.evidence) or _SECTION.search(cause.evidence), cause
            assert cause.finding in ids, f"{cause.why!r}: a work-error belongs to a finding"
        missing = _missing_checks(cause.evidence + " " + cause.section)
        assert not missing, (cause.why, missing)
        assert not cause.finding or cause.finding in ids, f"{cause.why!r}: unknown finding {cause.finding!r}"
    for finding in findings:
        assert _TEST.search(finding.evidence) or _SECTION.search(finding.evidence), finding.id
        assert not _missing_checks(finding.evidence), (finding.id, _missing_checks(finding.evidence))
    for accuracy in accuracies:
        assert 0 < accuracy.rtol < float("inf") and re.search(r"L\d+", accuracy.location), accuracy


def test_a_missing_check_is_detected():
    for check in ("tests/test_claims.py::test_no_such_test", "notebooks/rldp_fig2.ipynb#no-such-heading"):
        assert _missing_checks(check) == [check]
    assert _missing_checks("tests/test_claims.py::test_printed_precision_rule") == []


def test_every_committed_printed_deviation_has_a_valid_cause():
    """The committed fragments (figures/<work>/claims/), re-judged: ``make claims`` would accept them."""
    from safeguarded import claims

    table = judging.judge(claims.collect(REPO_ROOT / "figures"))
    assert set(table["work"]) == set(WORKS) and len(table) > 3000
    assert judging.validate_causes(table) == []
    fitted = table["note"].str.contains("fitted: ", regex=False)
    assert table.loc[fitted, "note"].str.startswith("fitted: ").all()  # v2 never hides a fitted declaration
