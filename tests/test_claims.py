"""The claims protocol (docs/claims.md): every rule is enforced, and a claim built to break one is refused."""

import numpy as np
import pandas as pd
import pytest

from safeguarded import claims, judging
from safeguarded.claims import ClaimError, ClaimSet


def _set(scale="paper", **kw):
    return ClaimSet("rldp", "rldp_fig2", scale=scale, solver="CLARABEL", runs="deterministic", **kw)


@pytest.mark.parametrize(
    "printed, tol",
    [
        ("67.44", 0.005),
        ("1,000", 0.5),
        ("54", 0.5),
        ("0.50", 0.005),
        ("1.2e-3", 5e-5),
        ("−3.7", 0.05),
        ("12.42 %", 0.005),
    ],
)
def test_printed_precision_rule(printed, tol):
    assert claims.printed_tolerance(printed) == pytest.approx(tol)


def test_printed_value_must_be_the_printed_string():
    with pytest.raises(ClaimError, match="printed string"):
        _set().printed("fig02", "x", 0.5, 0.5, location="Fig. 2")
    with pytest.raises(ClaimError, match="printed number"):
        _set().printed("fig02", "x", "n/a", 0.5, location="Fig. 2")


def test_printed_verdicts_follow_the_half_unit_rule():
    cs = _set()
    assert cs.printed("t", "a", "67.44", 67.444, location="Table 1, row a").verdict == "reproduced"
    assert cs.printed("t", "b", "67.44", 67.446, location="Table 1, row b").verdict == "deviates"
    assert cs.printed("t", "c", "2.0", 1.5, location="L10", relation="<=").verdict == "reproduced"
    row = cs.printed("t", "d", "0.250", 0.2509, location="L11", solver_tolerance=1e-3, reason="SCS accuracy")
    assert row.verdict == "reproduced" and "SCS accuracy" in row.note
    with pytest.raises(ClaimError, match="needs a reason"):
        cs.printed("t", "e", "0.250", 0.2509, location="L11", solver_tolerance=1e-3)


def test_location_and_runs_are_required():
    with pytest.raises(ClaimError, match="location is required"):
        _set().printed("t", "a", "1.0", 1.0, location="")
    cs = ClaimSet("rldp", "rldp_fig2", scale="paper")
    with pytest.raises(ClaimError, match="runs is required"):
        cs.printed("t", "a", "1.0", 1.0, location="Table 1")
    assert cs.printed("t", "a", "1.0", 1.0, location="Table 1", runs="1 solve").runs == "1 solve"


def test_a_band_wider_than_the_effect_cannot_confirm_but_can_refute():
    cs = _set()
    # inside a band (±2.005) wider than the effect 1.24: too wide to confirm, said in the note
    inside = cs.printed_mc("t", "OPT error", "2.17", 2.5, 1.0, location="Table 2", effect=1.24)
    assert inside.verdict == "inconclusive"
    assert inside.note.startswith("band ±2 is wider than the effect 1.24")
    assert float(inside.reproduced_value) == 2.5  # the value stays shown
    # outside the same wide band: it deviates, whatever effect it was meant to show
    outside = cs.printed_mc("t", "TLN error", "0.91", 6.87, 0.04, location="Table 2", effect=0.05)
    assert outside.verdict == "deviates"
    # a tight enough run is decided by the ordinary rule
    assert (
        cs.printed_mc("t", "NB error", "2.17", 2.2, 0.1, location="Table 2", effect=1.24).verdict
        == "reproduced"
    )


def test_a_comparison_that_cannot_refute_confirms_or_stays_inconclusive_even_when_rejudged():
    """§2e: a value outside the band of a confirm-only comparison is inconclusive with its reason, a value
    inside it reproduced; re-judging under a narrower band never turns either into a deviation."""
    from safeguarded.judging import Rules, rejudge

    cs = _set()
    why = dict(location="Table 37", cannot_refute="another optimum")
    same = cs.printed("t", "P1 local", "9.7890", 9.78897, **why)
    other = cs.printed("t", "P2 local", "54.0329", 55.8913, **why)
    plain = cs.printed("t", "P3 local", "54.0329", 55.8913, location="Table 37")
    assert (same.verdict, other.verdict, plain.verdict) == ("reproduced", "inconclusive", "deviates")
    assert other.note.startswith("confirms only: another optimum")
    assert float(other.reproduced_value) == 55.8913
    narrow = Rules(digits_units=0.1)  # a tenth of a printed unit: 9.78897 is then outside 9.7890's band
    row = {**same.__dict__, "reference": "printed", "runs": "1", "note": same.note}
    assert rejudge(row, None, narrow)[0] == "inconclusive"
    assert rejudge({**row, "note": ""}, None, narrow)[0] == "deviates"  # the same row without §2e
    with pytest.raises(ClaimError, match="cannot_refute"):
        cs.printed("t", "x", "1.0", 1.0, location="Table 1", cannot_refute=True)


def test_a_comparison_that_decides_nothing_is_inconclusive_inside_and_outside_its_band():
    """§2f: a row in a unit chosen to match the work's magnitudes is inconclusive whatever the value (which
    stays shown), and re-judging leaves it so."""
    from safeguarded.judging import rejudge

    cs = _set()
    why = dict(location="Table 24", cannot_decide="unit not stated")
    inside = cs.printed_mc("t", "bike full Nom", "210.5", 210.4, 1.0, **why)
    outside = cs.printed_mc("t", "bike half Nom", "210.5", 45.0, 1.0, **why)
    for row in (inside, outside):
        assert row.verdict == "inconclusive" and row.note.startswith("decides nothing: unit not stated")
        assert rejudge({**row.__dict__, "runs": "10 splits"}, None)[0] == "inconclusive"
    assert float(outside.reproduced_value) == 45.0
    assert cs.printed_mc("t", "bike plain", "210.5", 45.0, 1.0, location="Table 24").verdict == "deviates"
    with pytest.raises(ClaimError, match="cannot_decide"):
        cs.printed_mc("t", "x", "1.0", 1.0, 0.1, location="Table 1", cannot_decide=1)


def test_monte_carlo_rule_and_missing_se():
    cs = _set()
    row = cs.printed_mc("t", "err", "21.73", 21.49, 0.10, location="Table 2, adult, TLN")
    assert float(row.tolerance) == pytest.approx(2 * 0.10 + 0.005)
    assert row.verdict == "deviates"
    row = cs.printed_mc("t", "err2", "21.73", 21.49, 0.10, paper_se=0.1, location="Table 2")
    assert (
        float(row.tolerance) == pytest.approx(2 * np.hypot(0.1, 0.1) + 0.005) and row.verdict == "reproduced"
    )
    assert cs.printed_mc("t", "err3", "21.73", 21.0, None, location="Table 2").verdict == "inconclusive"
    assert cs.printed("t", "err4", "21.73", float("nan"), location="Table 2").verdict == "inconclusive"


def test_ordering_is_decided_by_a_paired_test():
    rng = np.random.default_rng(0)
    base = rng.normal(10, 1, size=30)
    cs = _set()
    ok = cs.ordering("t", "A better", base - 0.5 + rng.normal(0, 0.05, 30), base, expect="<", location="L1")
    assert ok.verdict == "qualitative-ok" and ok.reference == "qualitative"
    fails = cs.ordering("t", "B better", base + 0.5, base, expect="<", location="L1")
    assert fails.verdict == "qualitative-fails"
    noise = cs.ordering("t", "noise", base + rng.normal(0, 1, 30), base, expect="<", location="L1")
    assert noise.verdict == "inconclusive"
    assert (
        cs.ordering("t", "two", [1.0, 2.0], [3.0, 4.0], expect="<", location="L1").verdict == "inconclusive"
    )
    assert cs.ordering("t", "tie", [1.0, 2.0, 3.0], [1.0, 2.0, 3.0], expect="<=", location="L1").verdict == (
        "qualitative-ok"
    )
    with pytest.raises(ClaimError, match="nan"):
        cs.ordering("t", "nan", [1.0, np.nan, 3.0], [1.0, 2.0, 3.0], expect="<", location="L1")


def test_fitted_rules_never_count_as_reproduced():
    cs = _set()
    cs.printed("t", "fitted", "1.0", 1.0, location="Table 4", fitted="integer rule chosen to match Table 4")
    cs.printed("t", "honest", "1.0", 1.0, location="Table 4")
    summary = claims.summary_table(cs.frame())
    assert summary.loc[0, "printed reproduced"] == 1 and summary.loc[0, "fitted (not counted)"] == 1


def test_scales_and_smoke():
    with pytest.raises(ClaimError, match="scale must be one of"):
        ClaimSet("rldp", "x", scale="full")
    smoke = _set(scale="smoke")
    assert smoke.printed("t", "a", "1.0", 1.0, location="L1", scale="paper").scale == "smoke"
    with pytest.raises(ClaimError, match="'reduced' or 'paper'"):
        _set().printed("t", "a", "1.0", 1.0, location="L1", scale="smoke")
    assert _set().printed("t", "a", "1.0", 1.0, location="L1", scale="reduced").scale == "reduced"


def test_validation_rejects_broken_rows():
    good = _set().printed("t", "a", "1.0", 1.0, location="L1")
    frame = pd.DataFrame([good.__dict__]).astype(str)
    assert claims.validate(frame) == []
    for column, value, message in [
        ("verdict", "sort-of", "unknown verdict"),
        ("reference", "vibes", "unknown reference"),
        ("location", "", "location is missing"),
        ("runs", " ", "runs is missing"),
        ("reproduced_value", "3.0", "contradicts"),
    ]:
        broken = frame.copy()
        broken[column] = value
        assert any(message in p for p in claims.validate(broken)), (column, claims.validate(broken))
    assert "missing columns" in claims.validate(frame.drop(columns=["runs"]))[0]


def test_report_collects_only_notebook_fragments(tmp_path):
    cs = _set()
    cs.printed("fig02a", "B at n=75", "0.315797", 0.3157971, location="eq. (3)")
    cs.qualitative("fig02c", "shape", False, location="Fig. 2(c)")
    folder = tmp_path / "rldp" / "claims"
    folder.mkdir(parents=True)
    cs.frame().to_csv(folder / "rldp_fig2.csv", index=False)
    readme = tmp_path / "README.md"
    readme.write_text(f"x\n{claims.README_START}\nold\n{claims.README_END}\ny\n")
    csv_path, md_path = claims.write_report(tmp_path, readme=readme)
    table = claims.read_report(tmp_path)
    assert list(table.columns) == claims.COLUMNS + judging.V2_COLUMNS and len(table) == 2
    assert table.equals(claims.judged(tmp_path))
    index, report = md_path.read_text(), (tmp_path / "rldp" / "CLAIMS.md").read_text()
    assert "[rldp](rldp/CLAIMS.md): 2 claims" in index and "Deviations" not in index
    assert "# Claims report: rldp" in report and "## Deviations" in report and "](../CLAIMS.md)" in report
    # the runs text, the same on both rows, is written once and named by id on the rows
    runs = table.loc[0, "runs"]
    assert report.count(runs) == 1 and "## Runs and solvers" in report and "| R1 " in report
    assert not (tmp_path / "atr" / "CLAIMS.md").exists()
    assert "How to read them" in readme.read_text() and "\nold\n" not in readme.read_text()
    # a fragment no notebook regenerates is refused
    cs.frame().to_csv(folder / "bench_something.csv", index=False)
    with pytest.raises(ClaimError, match="no notebook"):
        claims.collect(tmp_path)


def test_report_writes_repeated_texts_once_and_reads_them_back(tmp_path):
    """claims.csv keys its long repeated texts into side tables; read_report restores the judged table
    exactly, and a key its side table lacks is refused rather than read as empty."""
    table = pd.DataFrame(
        {
            **{c: [f"{c}{i % 2}" for i in range(6)] for c in claims.COLUMNS + judging.V2_COLUMNS},
            "why": ["", "", "late", "late", "early", ""],
            "evidence": ["", "", "test_x", "test_x", "test_y", ""],
        }
    )
    main, sides = claims.split_report(table)
    assert not {"runs", "solver", "why", "evidence"} & set(main.columns)
    assert list(main["cause_key"][:2]) == ["", ""] and main["cause_key"][2] == main["cause_key"][3]
    assert len(sides["claims_runs.csv"]) == 2 and len(sides["claims_causes.csv"]) == 2
    main.to_csv(tmp_path / "claims.csv", index=False)
    for name, side in sides.items():
        side.to_csv(tmp_path / name, index=False)
    assert claims.read_report(tmp_path).equals(table)
    sides["claims_causes.csv"].iloc[1:].to_csv(tmp_path / "claims_causes.csv", index=False)
    with pytest.raises(ClaimError, match="claims_causes.csv lacks the keys"):
        claims.read_report(tmp_path)


def test_pending_fragments_are_listed_not_merged(tmp_path):
    cs = _set()
    cs.printed("fig02a", "B at n=75", "0.315797", 0.3157971, location="eq. (3)")
    folder = tmp_path / "rldp" / "claims"
    (folder / claims.PENDING).mkdir(parents=True)
    cs.frame().to_csv(folder / "rldp_fig2.csv", index=False)
    old = pd.DataFrame({"work": ["rldp"], "item": ["x"], "claim": ["old"], "verdict": ["reproduced"]})
    old.to_csv(folder / claims.PENDING / "rldp_fig2.csv", index=False)
    csv_path, md_path = claims.write_report(tmp_path)
    assert len(pd.read_csv(csv_path)) == 1
    text = md_path.read_text()
    assert "Not re-judged yet" in text and "notebooks/rldp_fig2.ipynb` | 1 |" in text


# --- protocol v2 (safeguarded.judging): decisive verdicts and causes --------------------------------


def _mc_row(paper, ours, se, runs, verdict=None, note=""):
    cs = ClaimSet("wasserstein_mixed", "wasserstein_mixed_tables21_26", scale="reduced", runs=runs)
    row = cs.printed_mc("table21", "a", paper, ours, se, location="Table 21", note=note)
    frame = cs.frame()
    if verdict is not None:
        assert row.verdict == verdict
    return frame.iloc[0]


def test_v2_few_samples_never_reproduce_and_a_zero_se_is_no_band():
    row = _mc_row("20.00", 20.5, 0.4, "3 splits x {full, half}", verdict="reproduced")
    verdict, _, why = judging.rejudge(row)
    assert verdict == "inconclusive" and "3 < 10 samples" in why
    # a standard error of 0 over 3 splits: the v1 band is the half unit and 'deviates'
    row = _mc_row("20.91", 38.0952, 0.0, "3 splits x {full, half}", verdict="deviates")
    assert judging.band_kind(row) == "monte-carlo"
    assert judging.rejudge(row)[0] == "inconclusive"
    # far outside even the t(2) band: still a deviation
    row = _mc_row("20.00", 40.0, 1.0, "3 splits", verdict="deviates")
    verdict, tol, _ = judging.rejudge(row)
    assert verdict == "deviates" and float(tol) == pytest.approx(4.302652729749464 * 1.0 + 0.005, rel=1e-5)
    # inside the t band but outside 2 se: inconclusive, not deviates
    row = _mc_row("20.00", 23.0, 1.0, "3 splits", verdict="deviates")
    assert judging.rejudge(row)[0] == "inconclusive"


def test_v2_a_band_too_wide_to_fail_is_inconclusive():
    row = _mc_row("671.67", 416716.0, 300000.0, "100 splits", verdict="reproduced")
    verdict, _, why = judging.rejudge(row)
    assert verdict == "inconclusive" and "too wide" in why
    row = _mc_row("20.00", 20.3, 0.2, "100 splits", verdict="reproduced")  # 2.1 % band: decides
    assert judging.rejudge(row)[0] == "reproduced"


def test_v2_digits_rows_are_not_rejudged_and_the_work_accuracy_widens_the_band():
    cs = _set()
    row = cs.printed("table01", "O at (1, 0.1)", "0.6858", 0.6876, location="Table 1")
    frame = cs.frame().iloc[0]
    assert row.verdict == "deviates" and judging.band_kind(frame) == "digits"
    assert judging.rejudge(frame)[0] == "deviates"
    accuracy = judging.Accuracy(rtol=0.01, location="L871")
    verdict, tol, why = judging.rejudge(frame, accuracy)
    assert verdict == "reproduced" and float(tol) == pytest.approx(0.00005 + 0.006858) and "L871" in why


def test_v2_the_band_rule_holds_for_every_band():
    """§2d: a band (here the work's stated accuracy) more than 10 % of the value beyond half a printed unit
    cannot reproduce; a value outside it still deviates; a band within the limit still reproduces."""
    cs = _set()
    cs.printed("table04", "cell", "0.17", 0.11, location="Table 4")
    frame = cs.frame().iloc[0]
    accuracy = judging.Accuracy(rtol=0.01, location="L871")  # ±0.5 pp of a 50 % optimum, say
    wide = judging.Accuracy(rtol=3.0, location="L871")  # ±0.51 around 0.17: 0 would pass too
    verdict, tol, why = judging.rejudge(frame, wide)
    assert verdict == "inconclusive" and "the work's stated accuracy" in why and "too wide to tell" in why
    assert float(tol) == pytest.approx(0.005 + 0.51)
    assert judging.rejudge(frame, accuracy)[0] == "deviates"  # ±0.0067: 0.11 is outside, decided
    cs.printed("table04", "far", "0.17", 0.9, location="Table 4")
    assert judging.rejudge(cs.frame().iloc[1], wide)[0] == "deviates"  # too wide to confirm, not to refute
    # a solver band likewise, also after a fitted declaration (the band's kind is read past it)
    cs.printed("table01", "s", "2.00", 2.1, location="Table 1", solver_tolerance=0.3, reason="an LP bracket",
               fitted="a rule chosen to match")
    frame = cs.frame().iloc[2]
    assert judging.band_kind(frame) == "solver"
    verdict, _, why = judging.rejudge(frame)
    assert verdict == "inconclusive" and why.startswith("the solver's accuracy band: ±0.295")


def _one_deviating_fragment(root):
    """A claims folder under ``root`` with one printed rldp row that deviates (0.4 against 0.315797)."""
    cs = _set()
    cs.printed("fig02a", "B at n=75", "0.315797", 0.4, location="eq. (3)")
    folder = root / "rldp" / "claims"
    folder.mkdir(parents=True)
    cs.frame().to_csv(folder / "rldp_fig2.csv", index=False)


def test_v2_a_comparison_with_a_construction_of_ours_decides_nothing(tmp_path, monkeypatch):
    _one_deviating_fragment(tmp_path)
    ours = judging.Cause("underspecified", "our bound", "ours: an l2 bound we built", item="fig02a")
    monkeypatch.setattr(judging, "registry", lambda work: ([ours], [], []))
    row = judging.judge(claims.collect(tmp_path)).iloc[0]
    assert row["verdict"] == "inconclusive"
    assert "construction of ours where the work states none" in row["note"]
    assert row["reproduced_value"] == "0.4" and row["cause"] == "underspecified"  # the value stays shown
    text = judging.Cause("underspecified", "the text's reading", "text: L12 says so", item="fig02a")
    monkeypatch.setattr(judging, "registry", lambda work: ([text], [], []))
    assert judging.judge(claims.collect(tmp_path)).iloc[0]["verdict"] == "deviates"


def test_v2_committed_report_has_no_vacuous_verdict():
    """The committed report: no printed `reproduced` row has a band more than 10 % of its value beyond half
    a printed unit, and no printed row deviates from a construction of ours."""
    from safeguarded.claim_rules import printed_tolerance
    from safeguarded.paths import REPO_ROOT

    table = claims.read_report(REPO_ROOT / "figures")
    printed = table[table["reference"] == "printed"]
    reproduced = printed[printed["verdict"] == "reproduced"]
    excess = reproduced["tolerance"].astype(float) - reproduced["paper_value"].map(printed_tolerance)
    value = reproduced["paper_value"].str.replace(",", "").astype(float).abs()
    assert not (excess > judging.MAX_RELATIVE_BAND * value * (1 + 1e-9)).any()
    deviates = printed[printed["verdict"] == "deviates"]
    assert not ((deviates["cause"] == "underspecified") & deviates["evidence"].str.startswith("ours:")).any()
    assert len(reproduced) > 500  # the rule was applied to a report with decided rows in it


def test_v2_causes_are_a_closed_set_with_checkable_evidence():
    with pytest.raises(ValueError, match="cause must be one of"):
        judging.Cause("bad luck", "why", "ours: x")
    with pytest.raises(ValueError, match="names the check"):
        judging.Cause("work-error", "the work is wrong", "trust me")
    with pytest.raises(ValueError, match="source first"):
        judging.Cause("underspecified", "not stated", "we picked 3")
    with pytest.raises(ValueError, match="status"):
        judging.Cause("solver", "inaccurate", "Clarabel")
    ok = judging.Cause("work-error", "w", "tests/test_atr.py::test_erratum_counterexample_female_delta_05")
    assert ok.cause == "work-error"


def test_v2_a_printed_deviation_without_a_cause_is_refused(tmp_path, monkeypatch):
    _one_deviating_fragment(tmp_path)
    monkeypatch.setattr(judging, "registry", lambda work: ([], [], []))
    with pytest.raises(ClaimError, match="needs a cause"):
        claims.write_report(tmp_path)
    rule = judging.Cause("unexplained", "not found yet", "notebooks/rldp_fig2.ipynb#x", item="fig02a")
    monkeypatch.setattr(judging, "registry", lambda work: ([rule], [], []))
    claims.write_report(tmp_path)
    table = claims.read_report(tmp_path)
    assert table.loc[0, "cause"] == "unexplained" and table.loc[0, "why"] == "not found yet"
    report = (tmp_path / "rldp" / "CLAIMS.md").read_text()
    assert report.index("## Verdict") < report.index(claims.ROWS_MARKER)
    assert "| 1 | `unexplained` | not found yet |" in report


def test_a_supplement_number_is_judged_but_never_counted_as_printed():
    cs = _set()
    row = cs.printed("fig03", "TLap", "0.392281", 0.392281, location="a script", reference="supplement")
    assert row.reference == "supplement" and row.verdict == "reproduced"
    with pytest.raises(ClaimError, match="reference must be"):
        cs.printed("fig03", "x", "1.0", 1.0, location="L1", reference="derived")
    table = cs.frame()
    assert not claims.validate(table)
    assert claims.summary_table(table).loc[0, "printed reproduced"] == 0


def _with_recovered(values=(1053.1, 3976.0), variant="the authors' scenarios"):
    """Two printed rows of convex_max Table 41 as its notebook registers them (five significant figures,
    re-judged on the printed digits by v2), each with a recovered row beside it."""
    cs = ClaimSet("convex_max", "convex_max_table41", scale="paper", runs="deterministic")
    five = "the table prints five significant figures"
    rows = (("P3", "1,053.10", 1069.33), ("P4", "3,976.00", 4077.12))
    for (name, printed, ours), value in zip(rows, values, strict=True):
        cs.printed("table41", f"{name} lower", printed, ours, location="Table 41", solver_tolerance=0.05,
                   reason=five)
        cs.printed("table41", f"{name} lower", printed, value, location="Table 41", solver_tolerance=0.05,
                   reason=five, recovered=variant)
    return cs


def test_a_recovered_row_sits_beside_its_printed_row_and_is_judged_by_its_rule():
    cs = _with_recovered(values=(1053.1196, 3976.0))
    table = cs.frame().astype(str)
    assert not claims.validate(table)
    got = judging.judge(table).set_index("claim")
    # the printed rows keep their verdicts (and causes); the recovered rows carry the variant
    assert got.loc["P3 lower", "verdict"] == "deviates" and got.loc["P3 lower", "cause"] == "underspecified"
    recovered = got.loc["P3 lower [recovered: the authors' scenarios]"]
    assert recovered["reference"] == "recovered" and recovered["cause"] == ""
    assert recovered["note"].startswith("recovered: the authors' scenarios; ")
    # the printed row's rule, v2 included: the five significant figures revert to the printed digits (±0.005)
    assert recovered["verdict"] == "deviates" and recovered["tolerance"] == "0.005"
    assert got.loc["P4 lower [recovered: the authors' scenarios]", "verdict"] == "reproduced"
    # counted apart: the printed counts do not move, the recovered column counts 1 of 2
    summary = claims.summary_table(got.reset_index()).iloc[0]
    assert (summary["printed reproduced"], summary["printed deviates"]) == (0, 2)
    assert summary["recovered ok / rows"] == "1 / 2"
    groups = judging.recovered_groups(got.reset_index())
    assert groups[["rows", "hits"]].values.tolist() == [[2, 1]] and groups.loc[0, "printed"] == "deviates 2"


def test_a_recovered_row_takes_its_printed_rows_stated_accuracy():
    """Where the work states the accuracy of a printed value (judging.Accuracy, matched on the claim), the
    recovered row beside it gets the same band."""
    accuracy = judging.Accuracy(0.5, "L1: within 50 %", item="^t$", claim="^a$")
    cs = _set()
    cs.printed("t", "a", "1.00", 1.3, location="Table 1")
    cs.printed("t", "a", "1.00", 1.3, location="Table 1", recovered="x")
    printed, recovered = (judging.rejudge(row, accuracy) for row in cs.frame().astype(str).to_dict("records"))
    assert printed[:2] == recovered[:2] == ("inconclusive", "0.505")
    from unittest import mock

    with mock.patch.object(judging, "registry", lambda work: ([], [], [accuracy])):
        got = judging.judge(cs.frame().astype(str))
    assert list(got["band"]) == ["work-accuracy", "work-accuracy"]
    assert got["tolerance"].nunique() == 1 and got["verdict"].nunique() == 1


def test_a_recovered_computation_below_80_percent_is_refused():
    """A variant is registered only where at least 80 % of its rows reproduce (docs/claims.md §7)."""
    ok = judging.judge(_with_recovered().frame().astype(str))
    assert judging.validate_recovered(ok) == []
    words = "\n".join(judging.verdict_in_words(ok, "convex_max"))
    assert "the authors' scenarios: **2 of 2** printed values reproduced (100%)" in words
    low = judging.judge(_with_recovered(values=(1053.1196, 3976.0)).frame().astype(str))
    (problem,) = judging.validate_recovered(low)
    assert "reproduces 1 of its 2 printed rows (50% < 80%)" in problem


def test_a_recovered_row_needs_its_printed_row_and_a_variant():
    cs = _set()
    with pytest.raises(ClaimError, match="register the printed row"):
        cs.printed("t", "a", "67.44", 67.44, location="Table 1", recovered="another rounding")
    cs.printed("t", "a", "67.44", 67.5, location="Table 1")
    with pytest.raises(ClaimError, match="register the printed row"):  # another printed value
        cs.printed("t", "a", "67.4", 67.44, location="Table 1", recovered="another rounding")
    for bad in ("  ", "a; b", "a]", 3, None):
        with pytest.raises(ClaimError, match="recovered"):
            cs.printed("t", "a", "67.44", 67.44, location="Table 1", recovered=bad)
    with pytest.raises(ClaimError, match="fitted"):
        cs.printed("t", "a", "67.44", 67.44, location="Table 1", recovered="x", fitted="a rule")
    with pytest.raises(ClaimError, match="reference must be 'printed'"):
        cs.printed("t", "a", "67.44", 67.44, location="Table 1", recovered="x", reference="supplement")
    row = cs.printed_mc("t", "a", "67.44", 67.43, 0.01, location="Table 1", recovered="x")
    assert (row.claim, row.reference, row.verdict) == ("a [recovered: x]", "recovered", "reproduced")
    # a fragment whose recovered row has lost its printed row, or its variant in the note, is refused
    table = cs.frame().astype(str)
    assert not claims.validate(table)
    alone = table[table["reference"] == "recovered"]
    assert any("is not registered" in p for p in claims.validate(alone))
    renamed = table.assign(note=table["note"].str.replace("recovered: x", "recovered: y"))
    assert any("its variant" in p for p in claims.validate(renamed))


def test_our_value_is_written_finely_enough_to_re_decide_the_row():
    """The report writes ours with three digits beyond the printed value's last, so that the row alone
    re-decides it: 601.688 (6 significant digits) would read as a deviation of 6e-4 from 601.6886 at a
    band of 5e-5 whatever the exact value."""
    cs = _set()
    row = cs.printed("table37", "P8 lower", "601.6886", 601.68862, location="Table 37")
    assert row.verdict == "reproduced" and row.reproduced_value == "601.68862"
    assert abs(float(row.reproduced_value) - 601.6886) <= float(row.tolerance)
    assert cs.printed("t", "small", "0.17", 0.1106361234, location="T").reproduced_value == "0.110636"
    assert cs.qualitative("t", "holds", True, location="T").reproduced_value == "yes"
