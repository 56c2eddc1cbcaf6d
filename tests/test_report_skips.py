"""make test's last lines name every skipped check and its reason (tests/report_skips.py)."""

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _report(folder: Path, name: str, body: str) -> None:
    (folder / f"{name}.xml").write_text(f'<?xml version="1.0"?><testsuites><testsuite name="pytest">{body}'
                                        "</testsuite></testsuites>")


def _run(folder: Path) -> str:
    return subprocess.run([sys.executable, str(HERE / "report_skips.py"), str(folder)], capture_output=True,
                          text=True, check=True).stdout


def test_skipped_checks_are_listed_with_their_reasons(tmp_path):
    _report(tmp_path, "unit", '<testcase classname="tests.test_a" name="test_ok"/>'
            '<testcase classname="tests.test_a" name="test_gpu"><skipped message="no GPU here"/></testcase>'
            '<testcase classname="tests.test_a" name="test_gpu2"><skipped message="no GPU here"/></testcase>')
    _report(tmp_path, "browser", '<testcase classname="tests.test_site_browser" name="test_home">'
            '<skipped message="no headless browser here: missing /usr/bin/chromium"/></testcase>')
    out = _run(tmp_path)
    assert "3 check(s) SKIPPED" in out
    assert "2 x unit: no GPU here" in out and "tests.test_a::test_gpu" in out
    assert "1 x browser: no headless browser here: missing /usr/bin/chromium" in out


def test_nothing_skipped_is_said_too(tmp_path):
    _report(tmp_path, "unit", '<testcase classname="tests.test_a" name="test_ok"/>')
    assert "nothing skipped (unit)" in _run(tmp_path)
    assert "no test reports" in _run(tmp_path / "missing")
