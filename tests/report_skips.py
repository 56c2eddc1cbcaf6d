"""The last lines of ``make test``: every check that was skipped, and why (from the JUnit reports that
``make unit``, ``make nbval`` and ``make browser`` write under ``build/test-reports/``).

    python tests/report_skips.py build/test-reports
"""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET
from pathlib import Path


def skipped(folder: Path) -> list[tuple[str, str, str]]:
    """(report, test, reason) of every skipped test case in the JUnit XML files of ``folder``."""
    rows = []
    for report in sorted(Path(folder).glob("*.xml")):
        for case in ET.parse(report).getroot().iter("testcase"):
            for skip in case.findall("skipped"):
                reason = (skip.get("message") or skip.text or "").strip().splitlines()[0:1]
                rows.append((report.stem, f"{case.get('classname', '')}::{case.get('name', '')}",
                             reason[0] if reason else "no reason given"))
    return rows


def main(argv: list[str]) -> int:
    folder = Path(argv[0] if argv else "build/test-reports")
    reports = sorted(folder.glob("*.xml"))
    if not reports:
        print(f"make test: no test reports under {folder} (nothing to say about skips)")
        return 0
    rows = skipped(folder)
    if not rows:
        print(f"make test: nothing skipped ({', '.join(r.stem for r in reports)})")
        return 0
    reasons: dict[str, list[str]] = {}
    for report, test, reason in rows:
        reasons.setdefault(f"{report}: {reason}", []).append(test)
    print(f"make test: {len(rows)} check(s) SKIPPED, not run:")
    for reason, tests in reasons.items():
        print(f"  {len(tests)} x {reason}  (e.g. {tests[0]})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
