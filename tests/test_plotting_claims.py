import hashlib

import matplotlib.pyplot as plt
import pandas as pd
import pytest

from safeguarded import claims, plotting


def _figure():
    with plotting.style():
        fig, ax = plt.subplots()
        ax.plot([0, 1, 2], [1, 0, 2], label="a")
        ax.legend()
    return fig


def _digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_figures_are_byte_identical_on_rerun():
    data = pd.DataFrame({"x": [0, 1, 2], "y": [1, 0, 2]})
    first = plotting.save_figure(_figure(), "rldp", "testfig", data)
    digests = {k: _digest(p) for k, p in first.items()}
    second = plotting.save_figure(_figure(), "rldp", "testfig", data)
    assert digests == {k: _digest(p) for k, p in second.items()}
    assert b"CreationDate" not in first["pdf"].read_bytes()
    assert pd.read_csv(first["csv"]).equals(data)
    plt.close("all")


def test_bad_item_and_work_names():
    with pytest.raises(ValueError, match="item must be"):
        plotting.save_table(pd.DataFrame({"a": [1]}), "rldp", "Fig 2")
    with pytest.raises(ValueError, match="work must be one of"):
        plotting.save_table(pd.DataFrame({"a": [1]}), "nope", "table01")


def test_claim_verdicts_and_report(tmp_path):
    cs = claims.ClaimSet("rldp", "test_claims", scale="paper", solver="CLARABEL")
    assert cs.numeric("fig02a", "B at n=75", 0.315797, 0.3157971, 1e-6).verdict == "reproduced"
    assert cs.numeric("fig02a", "x", 1.0, 1.5, 0.1).verdict == "deviates"
    assert cs.numeric("fig02a", "bound", 2.0, 1.5, 0.0, relation="<=").verdict == "reproduced"
    assert cs.qualitative("fig02c", "shape", False).verdict == "qualitative-fails"
    # re-registering the same claim replaces it
    cs.numeric("fig02a", "x", 1.0, 1.05, 0.1)
    assert len(cs.claims) == 4
    cs.save()
    table = claims.collect()
    assert list(table.columns) == claims.COLUMNS
    mine = table[table["claim"].str.startswith("x")]
    assert mine["verdict"].tolist() == ["reproduced"]
    csv_path, md_path = claims.write_report()
    assert "## rldp" in md_path.read_text()


def test_smoke_claims_say_so():
    cs = claims.ClaimSet("atr", "smoke_test", scale="smoke")
    row = cs.qualitative("table04", "ordering", True)
    assert row.scale == "smoke" and row.note.startswith("smoke scale only")


def test_bad_claim_inputs():
    with pytest.raises(ValueError, match="scale must be one of"):
        claims.ClaimSet("rldp", "x", scale="full")
    cs = claims.ClaimSet("rldp", "x", scale="paper")
    with pytest.raises(ValueError, match="tolerance must be >= 0"):
        cs.numeric("fig02a", "c", 1, 1, -1)
    with pytest.raises(ValueError, match="relation must be one of"):
        cs.numeric("fig02a", "c", 1, 1, 0, relation="<")
