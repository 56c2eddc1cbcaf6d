"""Verdicts under other rules (``safeguarded.judging.Rules``, ``python -m safeguarded.judging``): the
committed report re-judged with other protocol parameters, nothing rerun."""

from __future__ import annotations

import pandas as pd
import pytest

from safeguarded import claims, judging
from safeguarded.claims import ClaimSet
from safeguarded.paths import REPO_ROOT

FIGURES = REPO_ROOT / "figures"  # the committed report (the tests' FIGURES is an empty temporary folder)


@pytest.fixture(scope="module")
def v1():
    return judging.v1_rows(FIGURES, statements=True)


@pytest.fixture(scope="module")
def protocol(v1):
    return judging.judge(v1, judging.PROTOCOL)


def _moves(before: pd.DataFrame, after: pd.DataFrame, old: str, new: str) -> pd.DataFrame:
    counted = judging._counted(before).index
    moved = (before.loc[counted, "verdict"] == old) & (after.loc[counted, "verdict"] == new)
    return before.loc[counted][moved]


def test_rules_are_checked_and_the_protocol_is_the_default():
    assert judging.PROTOCOL == judging.Rules(k=2.0, band_limit=0.10, digits_units=0.5, min_samples=10)
    assert judging.PROTOCOL.label() == "k = 2, band limit 10%, digits ±half a unit"
    other = judging.Rules(k=3, band_limit=0.25, digits_units=1)
    assert other.label() == "k = 3, band limit 25%, digits ±1 unit"
    for bad in ({"k": 0}, {"band_limit": -0.1}, {"digits_units": float("nan")}, {"min_samples": 1}):
        with pytest.raises(ValueError, match=next(iter(bad))):
            judging.Rules(**bad)


def test_the_inputs_are_the_rows_make_claims_judges(v1):
    expected = pd.concat([claims.collect(FIGURES), claims.ledger_rows()], ignore_index=True)
    assert v1.astype(object).equals(expected.astype(object))


def test_the_defaults_reproduce_the_committed_report(v1, protocol):
    """Under the protocol's parameters every row keeps its committed verdict (so the counts are the
    committed ones exactly): the committed report is up to date with the fragments and registries."""
    committed = claims.read_report(FIGURES)
    assert len(committed) == len(protocol) > 3000
    assert (committed["verdict"].to_numpy() == protocol["verdict"].to_numpy()).all()
    counts = judging.printed_counts(committed)
    assert counts.equals(judging.printed_counts(protocol, list(counts.index)))
    assert counts.to_numpy().sum() == len(judging._counted(committed))


@pytest.mark.parametrize("k", [3.0, 4.0])
def test_a_larger_k_never_turns_a_reproduced_row_into_a_deviation(v1, protocol, k):
    wider = judging.judge(v1, judging.Rules(k=k))
    assert _moves(protocol, wider, "reproduced", "deviates").empty
    assert not _moves(protocol, wider, "deviates", "reproduced").empty  # k moves verdicts: it is live
    assert (wider["verdict"] != protocol["verdict"]).any()


def test_a_smaller_k_never_turns_a_deviation_into_a_reproduced_row(v1, protocol):
    narrower = judging.judge(v1, judging.Rules(k=1.5))
    assert _moves(protocol, narrower, "deviates", "reproduced").empty


def test_a_wider_band_limit_never_turns_a_reproduced_row_inconclusive(v1, protocol):
    wider = judging.judge(v1, judging.Rules(band_limit=0.25))
    assert _moves(protocol, wider, "reproduced", "inconclusive").empty
    assert _moves(protocol, wider, "reproduced", "deviates").empty
    assert not _moves(protocol, wider, "inconclusive", "reproduced").empty
    # the band limit decides only between reproduced and inconclusive: no deviation moves
    assert (wider.loc[protocol["verdict"] == "deviates", "verdict"] == "deviates").all()


def test_one_printed_unit_never_turns_a_reproduced_row_into_a_deviation(v1, protocol):
    coarser = judging.judge(v1, judging.Rules(digits_units=1.0))
    assert _moves(protocol, coarser, "reproduced", "deviates").empty
    assert not _moves(protocol, coarser, "deviates", "reproduced").empty


def _row(cs: ClaimSet, index: int = -1) -> dict:
    return cs.frame().iloc[index].to_dict()


def test_each_parameter_on_one_row():
    cs = ClaimSet("dp_noise", "dp_noise_table02", scale="reduced", runs="100 splits", k=2)
    # Monte-Carlo: band 2 * 0.1 + 0.005 = 0.205; ours is 0.25 off: deviates at k = 2, reproduces at k = 3
    cs.printed_mc("table02", "adult GN", "21.73", 21.98, 0.1, location="Table 2")
    row = _row(cs)
    assert row["verdict"] == "deviates"
    verdict, tol, why = judging.rejudge(row, rules=judging.Rules(k=3))
    assert (verdict, tol) == ("reproduced", "0.305") and "band ±0.305 under k = 3" in why
    assert judging.rejudge(row) == ("deviates", row["tolerance"], "")
    # the band limit: 0.305 is 1.4 % of 21.73, so a 1 % limit makes it too wide to tell
    verdict, _, why = judging.rejudge(row, rules=judging.Rules(k=3, band_limit=0.01))
    assert verdict == "inconclusive" and "(> 1%): too wide to tell" in why
    # the digits: "1.23" against 1.238 deviates at half a unit (0.005), reproduces at one unit (0.01)
    cs.printed("table02", "a deterministic value", "1.23", 1.238, location="Table 2", runs="deterministic")
    row = _row(cs)
    assert row["verdict"] == "deviates" and judging.band_kind(row) == "digits"
    assert judging.rejudge(row, rules=judging.Rules(digits_units=1.0))[:2] == ("reproduced", "0.01")
    # few samples: the t band scales with k / 2
    few = ClaimSet("dp_noise", "dp_noise_table02", scale="reduced", runs="5 splits", k=2)
    few.printed_mc("table02", "a few splits", "10.0", 10.7, 0.1, location="Table 2")
    verdict, tol, _ = judging.rejudge(_row(few), rules=judging.Rules(k=4))
    assert verdict == "deviates" and float(tol) == pytest.approx(2 * 2.776445 * 0.1 + 0.05, rel=1e-5)


def test_count_changes_and_the_sensitivity_table(tmp_path):
    cs = ClaimSet("atr", "atr_tables_1_2_4", scale="paper", runs="100 splits", k=2)
    cs.printed_mc("table01", "a", "21.73", 21.98, 0.1, location="Table 1")  # deviates; reproduces at k = 3
    cs.printed_mc("table01", "b", "21.73", 21.74, 0.1, location="Table 1")  # reproduces under every rule
    cs.printed("table01", "c", "1.23", 1.238, location="Table 1", runs="deterministic")  # 1 unit: ok
    folder = tmp_path / "atr" / "claims"
    folder.mkdir(parents=True)
    cs.frame().to_csv(folder / "atr_tables_1_2_4.csv", index=False)
    rows = judging.v1_rows(tmp_path)
    assert len(rows) == 3  # no statement ledger outside the repository's figures
    before, after = judging.judge(rows), judging.judge(rows, judging.Rules(k=3))
    changes = judging.count_changes(before, after).iloc[0]
    assert changes["reproduced"] == "1 → 2 (+1)" and changes["deviates"] == "2 → 1 (-1)"
    assert changes["inconclusive"] == "0" and changes["moves"] == "deviates → reproduced 1"
    table = judging.sensitivity_table(rows)
    assert len(table) == 8 and table.iloc[0][["k", "band limit", "digits (units)"]].tolist() == [2, 0.1, 0.5]
    assert table.iloc[0]["changed"] == 0 and table.iloc[0]["reproduced"] == 1
    last = table.iloc[-1]  # k = 3, 25 %, one unit: all three reproduce
    assert (last["reproduced"], last["deviates"], last["changed"]) == (3, 0, 2)
    text = judging.sensitivity_markdown(table)
    assert "| **2** | **10%** | **half a unit** | **1** | **2** | **0** | – (the protocol) |" in text
    assert "| 3 | 25% | 1 unit | 3 | 0 | 0 | 2 |" in text


def test_the_command_line(tmp_path, capsys):
    cs = ClaimSet("atr", "atr_tables_1_2_4", scale="paper", runs="100 splits", k=2)
    cs.printed_mc("table01", "a", "21.73", 21.98, 0.1, location="Table 1")
    folder = tmp_path / "atr" / "claims"
    folder.mkdir(parents=True)
    cs.frame().to_csv(folder / "atr_tables_1_2_4.csv", index=False)
    assert judging.main(["--figures", str(tmp_path), "--k", "3", "--band-limit", "0.25"]) == 0
    out = capsys.readouterr().out
    assert "rules:    k = 3, band limit 25%, digits ±half a unit" in out
    assert "0 → 1 (+1)" in out and "deviates → reproduced 1" in out
    with pytest.raises(SystemExit):
        judging.main(["--figures", str(tmp_path), "--k", "-1"])
    assert "k must be a positive number" in capsys.readouterr().err
