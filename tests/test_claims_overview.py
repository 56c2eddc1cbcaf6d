"""The reader's path through the report: the overview figures, the README's generated first screen and
summary, and docs/claims.md's sensitivity table, all written by ``make claims``."""

from __future__ import annotations

import hashlib

import pandas as pd
import pytest

from safeguarded import claims, judging, plotting
from safeguarded.claims import ClaimSet


def _fragment(tmp_path):
    cs = ClaimSet("atr", "atr_tables_1_2_4", scale="paper", runs="100 splits", k=2)
    cs.printed_mc("table01", "a", "21.73", 21.98, 0.1, location="Table 1")  # deviates; reproduces at k = 3
    cs.printed_mc("table01", "b", "21.73", 21.74, 0.1, location="Table 1")  # reproduces
    cs.printed("table02", "c", "0", 0.0, location="Table 2", runs="deterministic")  # the work prints 0
    cs.printed("table02", "d", "1.23", None, location="Table 2", runs="deterministic")  # no value
    cs.printed("table02", "e", "100", 5000.0, location="Table 2", runs="deterministic")  # clipped at +1000 %
    cs.qualitative("table02", "holds", True, location="L1")  # not a printed number: not drawn
    folder = tmp_path / "atr" / "claims"
    folder.mkdir(parents=True)
    cs.frame().to_csv(folder / "atr_tables_1_2_4.csv", index=False)
    return cs


def _unexplained(monkeypatch):
    rule = judging.Cause("unexplained", "not found yet", "notebooks/atr_tables_1_2_4.ipynb#x")
    monkeypatch.setattr(judging, "registry", lambda work: ([rule], [], []))


def test_overview_frame_counts_what_the_headline_counts(tmp_path, monkeypatch):
    _fragment(tmp_path)
    _unexplained(monkeypatch)
    table = claims.judged(tmp_path)
    frame = plotting.overview_frame(table)
    assert len(frame) == 5 == len(judging._counted(table))  # the qualitative row is not a printed number
    by_claim = dict(zip(table.loc[judging._counted(table).index, "claim"], frame["deviation"], strict=True))
    assert by_claim["c"] == 0.0  # equal to a printed 0: no deviation (not 0/0)
    assert pd.isna(by_claim["d"])  # no value: counted, not drawn
    assert by_claim["a"] == pytest.approx(0.25 / 21.73) and by_claim["e"] == pytest.approx(49.0)
    band = frame.loc[frame["deviation"].notna(), "band"]
    assert band.iloc[0] == pytest.approx((2 * 0.1 + 0.005) / 21.73)


def test_make_claims_draws_the_overview_and_the_reports_show_it(tmp_path, monkeypatch):
    _fragment(tmp_path)
    _unexplained(monkeypatch)
    readme, protocol, timings = tmp_path / "README.md", tmp_path / "claims.md", tmp_path / "timings.csv"
    readme.write_text("intro\n" + "\n".join(f"{a}\nold\n{b}" for a, b in (
        (claims.QUICKSTART_START, claims.QUICKSTART_END), (claims.HEADLINE_START, claims.HEADLINE_END),
        (claims.README_START, claims.README_END))) + "\nrest\n")
    protocol.write_text(f"§10\n{claims.SENSITIVITY_START}\nold\n{claims.SENSITIVITY_END}\nend\n")
    timings.write_text("notebook,work,scale,seconds,cells_computed,peak_rss_mb,cpus,n_jobs,commit,date\n"
                       "rldp_fig2,rldp,paper,1204,1,1,2,,c,d\nrldp_fig2,rldp,smoke,105,1,1,2,,c,d\n"
                       "atr_runtime,atr,paper,240,1,1,2,,c,d\nmake test,,smoke,611,,,2,,c,d\n")
    reviewing = tmp_path / "reviewing.md"
    reviewing.write_text(f"guide\n{claims.REVIEW_START}\nold\n{claims.REVIEW_END}\n")
    claims.write_report(tmp_path, readme=readme, protocol=protocol, timings=timings, reviewing=reviewing)
    assert "not in the report any more" in reviewing.read_text()  # REVIEW_EXAMPLE is a routing row
    overall, panel = tmp_path / claims.OVERVIEW, tmp_path / "atr" / claims.OVERVIEW
    assert overall.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and panel.is_file()
    assert b"Software" not in overall.read_bytes()  # no stamp of the library's version
    assert not (tmp_path / "rldp" / claims.OVERVIEW).exists()  # a work without claims has no panel
    digest = hashlib.sha256(overall.read_bytes()).hexdigest()
    claims.write_report(tmp_path, readme=readme, protocol=protocol, timings=timings)
    assert hashlib.sha256(overall.read_bytes()).hexdigest() == digest  # same report, same bytes
    report = (tmp_path / "atr" / "CLAIMS.md").read_text()
    verdict = report.index("## Verdict")
    assert verdict < report.index(f"]({claims.OVERVIEW})") < report.index(claims.ROWS_MARKER)
    assert f"]({claims.OVERVIEW})" in (tmp_path / "CLAIMS.md").read_text()
    text = readme.read_text()
    assert text.startswith("intro\n") and text.endswith("\nrest\n") and "\nold\n" not in text
    assert "make test         # the quick check, about 10 min on 2 cores" in text
    assert "the paper run, about 24 min on 2 cores (2 notebooks)" in text  # 1,204 s + 240 s
    assert "`make reproduce WORK=rldp SCALE=smoke` (about 105 s of notebooks" in text
    assert "**The verdict.** Of the 5 printed numbers the report checks, **2 reproduce**" in text
    assert "**2 deviate** (2 unexplained); **1 are inconclusive**" in text
    assert "atr reproduces in part (2 of 4)." in text
    assert "| work | reproduced | deviate | inconclusive | fitted |" in text
    assert "| atr | – | – | – | – | – | 2 |" in text  # the 2 unexplained deviations
    sensitivity = protocol.read_text()
    assert sensitivity.startswith("§10\n") and sensitivity.endswith("\nend\n")
    assert "\nold\n" not in sensitivity
    assert "| **2** | **10%** | **half a unit** |" in sensitivity and "| 3 | 25% | 1 unit |" in sensitivity


def test_the_readme_summary_fits_the_page():
    """The README's summary tables stay narrow (no column of long texts): every line under 100 characters
    for the committed report's nine works."""
    from safeguarded.paths import REPO_ROOT

    text = claims.readme_summary(claims.read_report(REPO_ROOT / "figures"))
    tables = [line for line in text.splitlines() if line.startswith("|")]
    assert len(tables) == 2 * (2 + 9) and max(map(len, tables)) < 100
    assert claims.readme_summary(pd.DataFrame(columns=claims.COLUMNS)) == "No claims yet."


def test_the_overview_of_the_committed_report():
    """Drawn from the committed report, the figure names a work without counted printed numbers (rldp)."""
    import matplotlib.pyplot as plt

    from safeguarded.paths import REPO_ROOT, WORKS

    table = claims.read_report(REPO_ROOT / "figures")
    with plotting.style():
        fig = plotting.claims_overview(table, order=list(WORKS), title="t")
    try:
        left, right = fig.axes[:2]
        rows = [t.get_text().split("\n")[0] for t in left.get_yticklabels()]
        assert rows == [w for w in WORKS if w != "rldp"]
        assert "no printed number counted: rldp" in fig._suptitle.get_text()
        assert sum(len(c.get_offsets()) for c in left.collections if hasattr(c, "get_offsets")) > 2000
    finally:
        plt.close(fig)
    with pytest.raises(ValueError, match="by must be"):
        plotting.claims_overview(table, by="notebook")


def test_the_reviewers_guide_shows_its_example_row_as_the_report_has_it():
    """docs/reviewing.md follows one row (claims.REVIEW_EXAMPLE): it is in the committed report, and the
    guide's generated block is that row as the report has it (``make claims`` rewrites it)."""
    from safeguarded.paths import REPO_ROOT

    table = claims.read_report(REPO_ROOT / "figures")
    example = claims.review_example(table)
    assert "not in the report" not in example and "| `verdict` |" in example
    guide = (REPO_ROOT / "docs" / "reviewing.md").read_text()
    block = guide.split(claims.REVIEW_START, 1)[1].split(claims.REVIEW_END, 1)[0].strip()
    assert block == example, "docs/reviewing.md's example row is stale: run make claims"
    assert "not in the report any more" in claims.review_example(table, ("rldp", "fig02a", "no such claim"))
