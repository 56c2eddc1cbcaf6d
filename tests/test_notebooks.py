"""The notebook runner (stripped, provenance-stamped outputs) and nbval's check of the checked cells."""

from __future__ import annotations

import json
import os

import nbformat
import pytest

from safeguarded import notebooks as nbr


def _notebook(value: str, extra_source: str = "") -> dict:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [
        nbformat.v4.new_markdown_cell("# A title"),
        nbformat.v4.new_code_cell('scale = "smoke"\nseed = 0', metadata={"tags": ["parameters"]}),
        nbformat.v4.new_code_cell(f"value = {value}{extra_source}"),
        nbformat.v4.new_code_cell('# NBVAL_CHECK_OUTPUT\nprint(f"table row  {value:.4f}  n=3")'),
        nbformat.v4.new_code_cell("print('unchecked', value)"),
    ]
    for i, cell in enumerate(nb.cells):
        cell["id"] = f"cell{i}"
    return json.loads(nbformat.writes(nb))


def _executed(nb: dict, printed: str, unchecked: str = "x") -> dict:
    nb = json.loads(json.dumps(nb))
    for count, cell in enumerate(c for c in nb["cells"] if c["cell_type"] == "code"):
        cell["execution_count"] = 40 + count
        cell["metadata"]["papermill"] = {"duration": 0.1 * count, "start_time": "2026-01-01T00:00:00"}
        cell["metadata"]["execution"] = {"iopub.status.busy": "2026-01-01T00:00:00Z"}
    nb["cells"][3]["outputs"] = [{"output_type": "stream", "name": "stdout", "text": printed}]
    nb["cells"][4]["outputs"] = [{"output_type": "stream", "name": "stdout", "text": unchecked}]
    nb["metadata"]["papermill"] = {"duration": 3.2, "end_time": "2026-01-01T00:00:03"}
    return nb


def test_strip_volatile_removes_timings_and_renumbers():
    a = nbr.strip_volatile(_executed(_notebook("0.25"), "table row  0.2500  n=3\n"))
    assert "papermill" not in a["metadata"]
    assert all("papermill" not in c["metadata"] and "execution" not in c["metadata"] for c in a["cells"])
    assert [c["execution_count"] for c in a["cells"] if c["cell_type"] == "code"] == [1, 2, 3, 4]
    assert a["cells"][3]["outputs"][0]["text"] == "table row  0.2500  n=3\n"  # outputs kept


def test_strip_volatile_makes_the_repository_path_relative():
    here = str(nbr.REPO_ROOT)
    nb = _executed(_notebook("0.25"), "x\n", unchecked=f"{here}/.venv/lib/joblib.py:787: UserWarning: w\n")
    nb["cells"][4]["outputs"].append({"output_type": "execute_result", "execution_count": 1, "metadata": {},
                                      "data": {"text/plain": [f"'{here}/figures/a.png'"]}})
    out = nbr.strip_volatile(nb)["cells"][4]["outputs"]
    assert out[0]["text"] == ".venv/lib/joblib.py:787: UserWarning: w\n"
    assert out[1]["data"]["text/plain"] == ["'figures/a.png'"]
    assert here not in json.dumps(out)


def test_identical_results_give_identical_files(tmp_path):
    first = _executed(_notebook("0.25"), "table row  0.2500  n=3\n")
    second = json.loads(json.dumps(first))
    for cell in second["cells"]:  # another run: other times, other counts
        if "papermill" in cell["metadata"]:
            cell["metadata"]["papermill"]["duration"] = 9.9
            cell["execution_count"] += 7
    cell = nbr.provenance_cell("paper", "abc123", [], None)
    nbr.write_notebook(nbr.with_provenance(nbr.strip_volatile(first), cell), tmp_path / "a.ipynb")
    nbr.write_notebook(nbr.with_provenance(nbr.strip_volatile(second), cell), tmp_path / "b.ipynb")
    assert (tmp_path / "a.ipynb").read_bytes() == (tmp_path / "b.ipynb").read_bytes()
    written = json.loads((tmp_path / "a.ipynb").read_text())
    assert written["cells"][0]["metadata"]["tags"] == ["provenance"]
    source = "".join(written["cells"][0]["source"])
    assert "commit `abc123`" in source and '`scale = "paper"`' in source and "uncommitted" not in source


def test_provenance_replaces_the_previous_one_and_says_dirty():
    nb = _notebook("1")
    nb = nbr.with_provenance(nb, nbr.provenance_cell("smoke", "old", [], None))
    nb = nbr.with_provenance(nb, nbr.provenance_cell("paper", "new", ["src/x.py"], 3))
    provenance = [c for c in nb["cells"] if "provenance" in c["metadata"].get("tags", [])]
    assert len(provenance) == 1 and nb["cells"][0] is provenance[0]
    assert "new" in provenance[0]["source"] and "uncommitted changes" in provenance[0]["source"]
    assert "`seed = 3`" in provenance[0]["source"] and '"paper"' in provenance[0]["source"]


REPO = nbr.REPO_ROOT


def _unchecked(nb: dict) -> dict:
    nb["cells"][3]["source"] = "print('not checked')"
    return nb


def _nbval_cases() -> dict[str, tuple[dict | None, dict | None]]:
    """Reference and smoke copy of each case nbval must pass or fail."""
    row = "table row  {}  n=3\n"
    ref_025 = nbr.reference_of(_executed(_notebook("0.25"), "header\n" + row.format("0.2500"), unchecked="a"))
    ref_0 = nbr.reference_of(_executed(_notebook("0"), row.format("0.0000")))
    stamp = nbr.provenance_cell("smoke", "abc", [], None)
    return {
        # unchanged checked output, other unchecked output, a provenance cell: passes
        "same": (ref_025, nbr.with_provenance(
            _executed(_notebook("0.25"), "header\n" + row.format("0.2500"), unchecked="b"), stamp)),
        "changed": (ref_025, _executed(_notebook("0.26"), "header\n" + row.format("0.2600"))),
        "minus_zero": (ref_0, _executed(_notebook("0"), row.format("-0.0000"))),  # sanitized: passes
        "minus_small": (ref_0, _executed(_notebook("0"), row.format("-0.0001"))),
        "unpaired": (ref_025, _unchecked(_executed(_notebook("0.25"), row.format("0.2500")))),
        "no_smoke": (ref_025, None),
        "no_checked": (nbr.reference_of(_unchecked(_executed(_notebook("1"), "x\n"))),
                       _unchecked(_executed(_notebook("1"), "x\n"))),
        # a solver's log line in an unchecked cell of the smoke run: fails (it belongs in the run's log)
        "noisy": (ref_025, _executed(_notebook("0.25"), "header\n" + row.format("0.2500"),
                                     unchecked="HighsMipSolverData::transformNewIntegerFeasibleSolution\n")),
    }


@pytest.fixture(scope="module")
def nbval_run(tmp_path_factory):
    """One ``pytest --nbval-lax`` run (the repository's sanitize file and tests/references/conftest.py)
    over every case's reference against its smoke copy; returns ({(case, cell): message}, output)."""
    import os
    import re
    import shutil
    import subprocess
    import sys
    import xml.etree.ElementTree as ET

    root = tmp_path_factory.mktemp("nbval")
    refs, smoke = root / "references", root / "smoke"
    refs.mkdir()
    smoke.mkdir()
    shutil.copy(REPO / "tests" / "references" / "conftest.py", refs / "conftest.py")
    for case, (reference, executed) in _nbval_cases().items():
        nbr.write_notebook(reference, refs / f"rldp_{case}.ipynb")
        if executed is not None:
            nbr.write_notebook(executed, smoke / f"rldp_{case}.ipynb")
    env = {**os.environ, "SAFEGUARDED_NBVAL_EXECUTED": str(smoke)}
    cmd = [sys.executable, "-m", "pytest", "--nbval-lax", "--nbval-sanitize-with",
           str(REPO / "tests" / "nbval_sanitize.cfg"), "-p", "no:cacheprovider", "--color=no",
           "--rootdir", str(root), "--junitxml", str(root / "junit.xml"), str(refs)]
    done = subprocess.run(cmd, cwd=root, env=env, capture_output=True, text=True, timeout=300)
    results = {}
    for case in ET.parse(root / "junit.xml").getroot().iter("testcase"):
        problem = case.find("failure") if case.find("failure") is not None else case.find("error")
        key = (re.search(r"rldp_(\w+?)[./]ipynb", case.get("classname")).group(1), case.get("name"))
        results[key] = None if problem is None else (problem.get("message", "") + (problem.text or ""))
    return results, done.returncode, done.stdout + done.stderr


def test_nbval_passes_unchanged_checked_output_and_ignores_unchecked_cells(nbval_run):
    results, code, out = nbval_run
    assert [results[("same", f"Cell {i}")] for i in range(4)] == [None] * 4, out
    assert code == 1  # the failing cases below
    assert "nbval: 5 checked cells of 5 notebooks compared with their references" in out
    ref = _nbval_cases()["same"][0]
    assert ref["cells"][4]["outputs"] == []  # the reference keeps only the checked outputs


def test_nbval_fails_a_changed_number_naming_the_cell_and_both_values(nbval_run):
    results, _, out = nbval_run
    message = results[("changed", "Cell 2")]
    assert message and "Cell outputs differ" in message, out
    assert "table row  0.2500  n=3" in message and "table row  0.2600  n=3" in message
    assert results[("changed", "Cell 3")] is None  # the unchecked cell
    assert "FAILED references/rldp_changed.ipynb::Cell 2" in out


def test_nbval_sanitizes_the_sign_of_a_printed_zero_only(nbval_run):
    results, _, out = nbval_run
    assert results[("minus_zero", "Cell 2")] is None, out
    assert "Cell outputs differ" in (results[("minus_small", "Cell 2")] or ""), out


def test_nbval_fails_when_checked_cells_do_not_pair_up(nbval_run):
    message = nbval_run[0][("unpaired", "Cell 2")]
    assert message and "has 0 checked cells, the reference 1" in message and "make references" in message


def test_nbval_fails_without_smoke_copy_or_without_checked_cell(nbval_run):
    results = nbval_run[0]
    assert "no executed smoke copy" in results[("no_smoke", "Cell 0")] and "make smoke" in results[
        ("no_smoke", "Cell 0")]
    assert "none of its numbers is regression-tested" in results[("no_checked", "Cell 0")]


def test_nbval_fails_a_smoke_run_whose_outputs_carry_log_lines(nbval_run):
    """The outputs of every notebook ``make smoke`` executed are checked for solver logs, cache notices and
    worker warnings (safeguarded.runlog.NOISE) where nbval replays them: no extra run."""
    message = nbval_run[0][("noisy", "Cell 0")]
    assert message and "carry 1 log lines" in message and "cell 4: HighsMipSolverData" in message


def test_references_lists_the_works_references_and_names_a_missing_one(tmp_path, monkeypatch, capsys):
    paths, missing = nbr.references_of("routing")
    assert [p.name for p in paths] == [b.name for b in nbr.notebooks_of("routing")] and not missing
    books, refs = tmp_path / "notebooks", tmp_path / "refs"
    books.mkdir()
    refs.mkdir()
    (books / "rldp_demo.ipynb").write_text(json.dumps(_notebook("1")))
    monkeypatch.setattr(nbr, "NOTEBOOKS", books)
    monkeypatch.setattr(nbr, "REPO_ROOT", tmp_path)
    paths, missing = nbr.references_of("rldp", refs)
    assert paths == [] and "run `make references WORK=rldp`" in missing[0]
    executed = tmp_path / "executed"
    executed.mkdir()
    (executed / "rldp_demo.ipynb").write_text(json.dumps(_executed(_notebook("1"), "table row  1.0000\n")))
    assert nbr.write_references("rldp", executed, refs) == 0
    assert nbr.references_of("rldp", refs) == ([refs / "rldp_demo.ipynb"], [])
    assert "1 checked cells" in capsys.readouterr().out


def test_timings_merge_keeps_latest_and_renders(tmp_path):
    run1, run2 = tmp_path / "a.csv", tmp_path / "b.csv"
    nbr.record_timing(run1, nbr.timing_row("rldp_fig2", "rldp", "smoke", 20.4, 3))
    nbr.record_timing(run2, nbr.timing_row("rldp_fig2", "rldp", "smoke", 31.0, 5))
    nbr.record_timing(run2, nbr.timing_row("rldp_fig2", "rldp", "paper", 9000, 100, 1234.4))
    table = tmp_path / "timings.csv"
    rows = nbr.merge_timings([run1, run2], table)
    assert [(r["scale"], r["seconds"]) for r in rows] == [("paper", "9000"), ("smoke", "31")]
    text = nbr.timings_markdown(rows)
    assert "| rldp_fig2 | 31 s | 2.5 h | 1234 |" in text
    assert "| **all notebooks** | 31 s | 2.5 h | max 1234 |" in text
    readme = tmp_path / "README.md"
    readme.write_text(f"a\n{nbr.TIMINGS_BEGIN}\nold\n{nbr.TIMINGS_END}\nb\n")
    assert nbr.update_readme_timings(rows, readme)
    assert "old" not in readme.read_text() and "2.5 h" in readme.read_text()


def test_tree_memory_sees_a_child_allocation():
    """A child that holds 300 MiB (touched, so resident) raises the descendants' peak by about that."""
    import subprocess
    import sys

    code = ("import numpy as np, sys; a = np.ones(300 * 2**20 // 8); "
            "sys.stdout.write('ready\\n'); sys.stdout.flush(); sys.stdin.readline()")
    with nbr.TreeMemory(interval=0.05) as memory:
        child = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                 text=True)
        assert child.stdout.readline() == "ready\n"
        now = memory.sample()
        child.communicate("go\n")
    assert now >= 300 and memory.peak_mb >= now
    with pytest.raises(ValueError, match="interval"):
        nbr.TreeMemory(interval=0)


def test_work_of_and_bad_input():
    assert nbr.work_of(nbr.NOTEBOOKS / "dp_noise_table02.ipynb") == "dp_noise"
    with pytest.raises(ValueError, match="work must be"):
        nbr.notebooks_of("nonsense")
    with pytest.raises(ValueError, match="scale must be"):
        nbr.execute(nbr.NOTEBOOKS / "rldp_fig2.ipynb", "huge", nbr.REPO_ROOT / "build")


def test_write_back_only_over_an_unchanged_source(tmp_path, capsys):
    source, executed = tmp_path / "rldp_x.ipynb", tmp_path / "build" / "rldp_x.ipynb"
    source.write_text("original")
    executed.parent.mkdir()
    executed.write_text("with outputs")
    assert nbr.write_back(executed, source, b"original") and source.read_text() == "with outputs"
    source.write_text("edited while it ran")
    assert not nbr.write_back(executed, source, b"with outputs")
    assert source.read_text() == "edited while it ran" and "NOT written back" in capsys.readouterr().err


def test_source_state_names_changed_cells_of_the_notebook(tmp_path):
    commit, changes = nbr.source_state(nbr.NOTEBOOKS / "rldp_fig2.ipynb")
    assert commit != "unknown" and all(isinstance(c, str) for c in changes)
    outside = tmp_path / "rldp_y.ipynb"
    outside.write_text(json.dumps(_notebook("1")))
    assert any("outside the repository" in c for c in nbr.source_state(outside)[1])


def test_timings_of_an_older_layout_are_migrated_and_cached_reruns_do_not_replace(tmp_path):
    """A timings file written before ``peak_rss_mb`` existed is rewritten under the current header (no
    value lands in the wrong column); a fully cached rerun does not replace a run that computed cells."""
    import csv

    path = tmp_path / "timings.csv"
    old = [f for f in nbr.TIMING_FIELDS if f != "peak_rss_mb"]
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=old)
        writer.writeheader()
        writer.writerow({**dict.fromkeys(old, ""), "notebook": "a", "work": "rldp", "scale": "paper",
                         "seconds": "100", "cells_computed": "7", "cpus": "2"})
    nbr.record_timing(path, nbr.timing_row("a", "rldp", "paper", 3.0, 0, 512.0))
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    assert list(rows[0]) == nbr.TIMING_FIELDS
    assert (rows[0]["cpus"], rows[0]["peak_rss_mb"]) == ("2", "")
    assert (rows[1]["seconds"], rows[1]["peak_rss_mb"]) == ("3", "512")
    merged = nbr.merge_timings([path], tmp_path / "merged.csv")
    assert [(r["seconds"], r["cells_computed"]) for r in merged] == [("100", "7")]


def test_timings_merge_keeps_the_run_that_computed_more_cells(tmp_path):
    full, cached = tmp_path / "full.csv", tmp_path / "cached.csv"
    nbr.record_timing(full, nbr.timing_row("b", "rldp", "paper", 164.0, 1724))
    nbr.record_timing(cached, nbr.timing_row("b", "rldp", "paper", 10.0, 2))
    merged = nbr.merge_timings([full, cached], tmp_path / "merged.csv")
    assert [(r["seconds"], r["cells_computed"]) for r in merged] == [("164", "1724")]
    nbr.record_timing(cached, nbr.timing_row("b", "rldp", "paper", 200.0, 1800))
    merged = nbr.merge_timings([full, cached], tmp_path / "merged2.csv")
    assert [(r["seconds"], r["cells_computed"]) for r in merged] == [("200", "1800")]


def test_cells_in_flight_counts_live_markers_of_this_host_only(tmp_path, monkeypatch):
    """The runner's count of computed cells is new cell lines in the store; a live ``.running-`` marker of
    another process at the start or end of a notebook means another run's cells could be among them."""
    import os

    from safeguarded.experiments import _HOST, _RUNNING

    monkeypatch.setenv("SAFEGUARDED_RESULTS", str(tmp_path))
    folder = tmp_path / "work" / "sweep" / "v1"
    folder.mkdir(parents=True)
    assert nbr._cells_in_flight() == 0
    (folder / f"cell{_RUNNING}{_HOST}-{os.getpid()}-0123abcd").touch()  # alive: this process
    (folder / f"cell{_RUNNING}{_HOST}-{2**22 + 7}-0123abcd").touch()  # no such process
    (folder / f"cell{_RUNNING}elsewhere-{os.getpid()}-0123abcd").touch()  # another host's
    (folder / "20261128T000000Z-0123456789ab.jsonl").write_text('{"kind":"shard"}\n{"kind":"cell"}\n' * 1)
    assert nbr._cells_in_flight() == 1 and nbr._results_files() == 1


def test_library_warnings_go_to_the_log_others_stay_visible(tmp_path, monkeypatch):
    """In a kernel the runner started, a warning raised in joblib/loky (the idle-worker notice) is written
    to the run's log; any other warning is shown as before; outside a runner's run nothing changes."""
    import warnings

    from safeguarded import runlog

    log, shown = tmp_path / "x.log", []
    monkeypatch.setattr(warnings, "showwarning", lambda message, *args, **kw: shown.append(str(message)))
    assert runlog.route_library_warnings({}) is None
    monkeypatch.setenv(runlog.ENV, str(log))
    assert runlog.route_library_warnings() == log == runlog.route_library_warnings()  # idempotent
    with warnings.catch_warnings():
        warnings.simplefilter("always")
        warnings.warn_explicit("A worker stopped while some jobs were given to the executor.", UserWarning,
                               "/v/lib/joblib/externals/loky/process_executor.py", 787)
        warnings.warn("another warning", UserWarning, stacklevel=1)
    assert shown == ["another warning"]
    assert log.read_text().count("A worker stopped") == 1 and "another" not in log.read_text()


NOISY_CELL = """import os, subprocess, sys, warnings
import numpy as np
from scipy.optimize import milp
os.write(1, b"Running HiGHS 9.9.9 (a compiled library writing to file descriptor 1)\\n")
subprocess.run([sys.executable, "-c",
                "import warnings; print('worker print'); warnings.warn('worker warning')"])
milp(np.array([-1.0, -1.0]), integrality=np.ones(2), bounds=(0, 3), options={"disp": True})
warnings.warn_explicit("A worker stopped while some jobs were given to the executor.", UserWarning,
                       "/v/lib/joblib/externals/loky/process_executor.py", 787)
warnings.warn("the project's own warning")
print("a result a reader needs")"""


def test_an_executed_notebook_shows_results_and_logs_solver_and_worker_output(tmp_path):
    """The runner's kernel writes what compiled solvers (HiGHS's log), worker processes and joblib/loky
    print or warn to build/<scale>/logs/<name>.log, none of it into the outputs (no line of
    safeguarded.runlog.NOISE); printed results and the project's own warnings stay in the notebook."""
    from safeguarded import runlog

    nb = _notebook("1")
    nb["cells"][2]["source"] = ("from safeguarded.parameters import setup\nsetup(scale=scale, seed=seed)\n"
                                + NOISY_CELL + "\nvalue = 1")
    book = tmp_path / "rldp_noisy.ipynb"
    book.write_text(json.dumps(nb))
    executed = json.loads(nbr.execute(book, "smoke", tmp_path / "notebooks").read_text())
    shown = "".join("".join(o.get("text", "")) for c in executed["cells"] for o in c.get("outputs", []))
    log = (tmp_path / "logs" / "rldp_noisy.log").read_text()
    assert "a result a reader needs" in shown and "the project's own warning" in shown
    for line in ("Running HiGHS", "worker print", "worker warning", "A worker stopped"):
        assert line in log and line not in shown, line
    assert runlog.noise_lines(executed) == []
    assert "log: " in nbr.log_note(tmp_path / "notebooks", book)


def test_budget_parsing_and_bad_values():
    assert [nbr.parse_budget(t) for t in ("2h", "90m", "1h30m", "600s", "600", "0.5h")] == [
        7200, 5400, 5400, 600, 600, 1800
    ]
    for bad in ("", "soon", "0", "-1h", "2d"):
        with pytest.raises(ValueError, match="BUDGET must be"):
            nbr.parse_budget(bad)


def test_a_budget_ending_in_a_sweep_keeps_that_notebook_and_starts_no_other(tmp_path, monkeypatch, capsys):
    """The notebook whose sweep the budget stops (papermill reports the kernel's BudgetExhausted as
    ``ename``) is not written back, the notebooks after it do not start, and the run exits 0."""
    books = [tmp_path / f"rldp_{i}.ipynb" for i in range(3)]
    for book in books:
        book.write_text("{}")
    ran = []

    class KernelError(Exception):
        ename, evalue, cell_index = "BudgetExhausted", "sweep 'w/s' v1: the time budget ended", 4

    def execute(path, scale, out_dir, seed=None):
        ran.append(path.name)
        assert os.environ["SAFEGUARDED_DEADLINE"]  # the kernel inherits the deadline
        if path.name == "rldp_1.ipynb":
            raise KernelError()
        return path

    monkeypatch.setattr(nbr, "notebooks_of", lambda work: books)
    monkeypatch.setattr(nbr, "execute", execute)
    monkeypatch.setattr(nbr, "record_timing", lambda *a: None)
    monkeypatch.delenv("SAFEGUARDED_DEADLINE", raising=False)
    assert nbr.run("all", "paper", tmp_path / "out", None, False, budget=3600) == 0
    assert ran == ["rldp_0.ipynb", "rldp_1.ipynb"]
    out = capsys.readouterr().out
    assert "BUDGET ENDED in rldp_1.ipynb (BudgetExhausted: sweep 'w/s' v1" in out
    assert "not rendered this run: rldp_1.ipynb, rldp_2.ipynb" in out
    monkeypatch.delenv("SAFEGUARDED_DEADLINE")


#: Committed notebooks whose outputs still come from "a commit plus uncommitted changes", each with why it
#: was not re-rendered from a clean commit yet (the list only shrinks: a re-rendered notebook must leave it).
NOT_FROM_A_CLEAN_COMMIT: dict[str, str] = {}  # notebook -> why its outputs are not from a clean commit


def test_committed_outputs_name_a_clean_commit():
    """A reviewer can name the code that made a committed notebook's outputs: its provenance cell names a
    commit without "uncommitted changes" (but for the listed, shrinking exceptions), and that commit exists
    (where the clone has the history: a shallow clone cannot tell)."""
    import subprocess

    shallow = subprocess.run(["git", "rev-parse", "--is-shallow-repository"], cwd=REPO, capture_output=True,
                             text=True).stdout.strip() != "false"
    dirty, clean = [], []
    for path in sorted((REPO / "notebooks").glob("*.ipynb")):
        source = "".join(json.loads(path.read_text())["cells"][0]["source"])
        assert "**Outputs below:**" in source, f"{path.name}: no provenance cell first"
        (dirty if "uncommitted changes" in source else clean).append(path.stem)
        if path.stem not in NOT_FROM_A_CLEAN_COMMIT:
            commit = source.split("computed from commit `", 1)[1].split("`", 1)[0]
            known = subprocess.run(["git", "cat-file", "-e", f"{commit}^{{commit}}"], cwd=REPO,
                                   capture_output=True)
            assert known.returncode == 0 or shallow, f"{path.name}: commit {commit} is not in the history"
    assert sorted(dirty) == sorted(NOT_FROM_A_CLEAN_COMMIT), (
        "notebooks with outputs from uncommitted code must be re-rendered or listed (and a re-rendered one "
        f"removed from the list): {sorted(set(dirty) ^ set(NOT_FROM_A_CLEAN_COMMIT))}")


#: Committed notebooks whose outputs still carry solver logs, cache notices or worker warnings: rendered
#: before the runner sent them to build/<scale>/logs/ (safeguarded.runlog).  The list only shrinks: a notebook
#: re-rendered since carries none and must leave it.
OUTPUTS_WITH_LOG_LINES = {
    "dp_noise_tables1456": "loky's idle-worker warning",
    "gaussian_mixtures_grid_tables": "HiGHS's banner, loky's idle-worker warning",
}


def test_committed_outputs_carry_no_log_lines():
    """What a reader opens carries no solver log, cache notice or worker warning (safeguarded.runlog.NOISE),
    but for the listed notebooks rendered before those went to the run's log."""
    from safeguarded.runlog import noise_lines

    noisy = sorted(p.stem for p in (REPO / "notebooks").glob("*.ipynb")
                   if noise_lines(json.loads(p.read_text())))
    assert noisy == sorted(OUTPUTS_WITH_LOG_LINES), (
        "notebooks whose outputs carry log lines must be re-rendered by the runner (python -m "
        "safeguarded.notebooks) or listed, and a re-rendered one removed from the list: "
        f"{sorted(set(noisy) ^ set(OUTPUTS_WITH_LOG_LINES))}")
