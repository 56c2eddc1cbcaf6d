"""The groups of printed deviations searched for the computation behind the printed values (issue 53
item 3): ``judging.recovery_groups`` over the committed report, the ``tried`` records of the works' cause
rules, and their section of ``docs/findings.md``; the recovered computations registered (reference
``recovered``, ``judging.recovered_groups``) over the committed report."""

from __future__ import annotations

import pandas as pd
import pytest

from safeguarded.claim_rules import FITTED_PREFIX, RECOVERED_PREFIX, recovered_parts
from safeguarded.claims import FINDINGS_MD, read_report
from safeguarded.judging import (
    RECOVERED_MIN_HITS,
    RECOVERY_MIN_ROWS,
    Cause,
    findings_markdown,
    recovered_groups,
    recovery_groups,
    registry,
)
from safeguarded.paths import REPO_ROOT, WORKS

#: Groups of at least RECOVERY_MIN_ROWS printed deviations whose rule records nothing tried yet, per work.
#: May only shrink: a group leaves by a recovered computation or by the list of what was tried.
UNTRIED_AT_MOST = {
    "atr": 0, "routing": 0, "dp_noise": 0, "gaussian_mixtures": 0, "robust_lr_aux": 0,
    "wasserstein_mixed": 0, "convex_max": 0, "rldp": 0, "rlt": 0,
}


@pytest.fixture(scope="module")
def report():
    return read_report(REPO_ROOT / "figures")


@pytest.fixture(scope="module")
def groups(report):
    return recovery_groups(report, WORKS)


def _counted_deviations(report):
    fitted = report["note"].str.startswith(FITTED_PREFIX)
    return report[(report["reference"] == "printed") & (report["scale"] != "smoke") & ~fitted
                  & (report["verdict"] == "deviates")]


def test_each_group_is_the_counted_deviations_its_rule_explains(report, groups):
    dev = _counted_deviations(report)
    assert len(groups) > 0
    for g in groups.itertuples(index=False):
        rows = dev[(dev["work"] == g.work) & (dev["cause"] == g.cause) & (dev["why"] == g.why)]
        assert len(rows) == g.rows >= RECOVERY_MIN_ROWS
        assert g.items == ", ".join(sorted(set(rows["item"])))
        rules = [c for c in registry(g.work)[0] if (c.cause, c.why) == (g.cause, g.why)]
        assert set(g.tried) == {t for c in rules for t in c.tried}


def test_no_group_of_enough_rows_is_missing(report, groups):
    dev = _counted_deviations(report)
    sizes = dev.groupby(["work", "cause", "why"]).size()
    expected = {key for key, n in sizes.items() if n >= RECOVERY_MIN_ROWS}
    assert set(zip(groups["work"], groups["cause"], groups["why"], strict=True)) == expected
    smaller = recovery_groups(report, WORKS, min_rows=1)
    assert len(smaller) == len(sizes) and smaller["rows"].sum() == len(dev[dev["cause"] != ""])


def test_groups_without_a_record_of_what_was_tried_only_shrink(groups):
    untried = groups[groups["tried"].map(len) == 0].groupby("work").size()
    allowed = {w: UNTRIED_AT_MOST.get(w, 0) for w in untried.index}
    over = {w: (int(n), allowed[w]) for w, n in untried.items() if n > allowed[w]}
    assert not over, f"groups with nothing recorded as tried (work: (now, allowed)): {over}"


def test_the_findings_page_lists_every_group_with_what_was_tried(report, groups):
    text = findings_markdown(report, WORKS)
    section = text.split("## What was tried to recover the printed values", 1)[1]
    for g in groups.itertuples(index=False):
        assert f"* **{g.rows} rows, `{g.cause}`** ({g.items}): {g.why}" in section
        for t in g.tried:
            assert f"  * tried: {t}" in section
    assert FINDINGS_MD.read_text() == text, "docs/findings.md is stale: run make claims"


def test_tried_must_be_texts():
    with pytest.raises(ValueError, match="tried"):
        Cause("unexplained", "why", "notebooks/x.ipynb", tried="a variant: no")
    with pytest.raises(ValueError, match="tried"):
        Cause("unexplained", "why", "notebooks/x.ipynb", tried=("",))
    assert Cause("unexplained", "why", "notebooks/x.ipynb", tried=("a: b",)).tried == ("a: b",)


def test_min_rows_is_checked(report):
    for bad in (0, -1, 2.5, "5"):
        with pytest.raises(ValueError, match="min_rows"):
            recovery_groups(report, WORKS, min_rows=bad)


def test_an_empty_report_has_no_group():
    empty = pd.DataFrame(columns=["work", "item", "reference", "scale", "note", "verdict", "cause", "why"])
    assert recovery_groups(empty, WORKS).empty


def test_every_recovered_row_names_its_variant_and_its_printed_row(report):
    """In the committed report each ``recovered`` row names its variant (claim and note) and stands beside a
    printed row of the same work, item, claim and printed value, whose verdict it does not replace."""
    recovered = report[report["reference"] == "recovered"]
    printed = report[report["reference"] == "printed"].set_index(["work", "item", "claim"])
    for row in recovered.itertuples(index=False):
        claim, variant = recovered_parts(row.claim)
        assert variant.strip() and row.note.startswith(f"{RECOVERED_PREFIX}{variant}"), row.claim
        assert (row.work, row.item, claim) in printed.index, f"{row.work}/{row.item}/{row.claim}: no printed"
        assert printed.loc[(row.work, row.item, claim), "paper_value"] == row.paper_value
        assert row.cause == "", f"{row.claim}: a recovered row carries no cause (its printed row does)"


def test_every_recovered_computation_reproduces_at_least_80_percent(report):
    groups = recovered_groups(report)
    low = groups[groups["rate"] < RECOVERED_MIN_HITS]
    assert low.empty, f"recovered computations below {RECOVERED_MIN_HITS:.0%}: {low.to_dict('records')}"
    scaled = report[(report["reference"] == "recovered") & (report["scale"] != "smoke")]
    assert groups["rows"].sum() == len(scaled)
    assert groups["hits"].sum() == (scaled["verdict"] == "reproduced").sum()


def test_recovered_rows_are_never_counted_as_printed(report):
    from safeguarded.judging import printed_counts

    with_recovered = report.copy()
    recovered = with_recovered["reference"] == "recovered"
    with_recovered.loc[recovered, "reference"] = "printed"  # were they counted, the printed counts would move
    if recovered.any():
        assert not printed_counts(report).equals(printed_counts(with_recovered))


def test_recovered_groups_checks_its_table():
    for bad in (None, pd.DataFrame({"work": []}), "figures/claims.csv"):
        with pytest.raises(ValueError, match="table"):
            recovered_groups(bad)
    empty = pd.DataFrame(columns=["work", "item", "claim", "reference", "verdict", "scale"])
    assert recovered_groups(empty).empty
