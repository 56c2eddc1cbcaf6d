"""How long the site's claims report takes to load and to filter, in headless chromium.

Serves ``build/site/html`` (``make site`` first) on 127.0.0.1 and, ``--repeat`` times each:

* load: from navigation to the table's first page drawn (``window.claimsTable`` ready);
* filter: choosing a work and a verdict in the selects until the table shows that many rows;
* search: typing a text into DataTables' search box, one key at a time, until the debounced
  search has redrawn (the time from the last keystroke; DataTables waits ``searchDelay`` first);
* hash: setting ``location.hash`` to a filter until the table shows it.

Prints the median and the range of each (milliseconds) and the page's size; nothing is asserted.

    python benchmarks/bench_site.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import csv
import functools
import http.server
import statistics
import sys
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))

from test_site_browser import CHROMEDRIVER, CHROMIUM, CLAIMS, FLAGS, SITE  # noqa: E402


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def _serve(folder: Path) -> tuple[str, http.server.ThreadingHTTPServer]:
    handler = functools.partial(_Quiet, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}/", server


def _wait(driver, script: str, timeout: float = 60.0) -> float:
    start = time.perf_counter()
    while not driver.execute_script(script):
        if time.perf_counter() - start > timeout:
            raise TimeoutError(script)
        time.sleep(0.005)
    return time.perf_counter()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--work", default="dp_noise")
    parser.add_argument("--verdict", default="deviates")
    parser.add_argument("--text", default="Table 1")
    args = parser.parse_args(argv)
    html = SITE / "html"
    if not (html / "claims-report.html").is_file():
        print("no build/site/html/claims-report.html: run `make site` first", file=sys.stderr)
        return 1
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.support.ui import Select

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS:
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    base, server = _serve(html)
    with open(CLAIMS, newline="", encoding="utf-8") as f:
        expected = sum(r["work"] == args.work and r["verdict"] == args.verdict for r in csv.DictReader(f))
    times: dict[str, list[float]] = {"load": [], "filter": [], "search": [], "hash": []}
    drawn = "return window.claimsTable && document.querySelectorAll('#claims-table tbody tr').length > 0"
    count = "return document.getElementById('claims-count').textContent"
    try:
        for _ in range(args.repeat):
            driver.get("about:blank")
            start = time.perf_counter()
            driver.get(base + "claims-report.html")
            times["load"].append(_wait(driver, drawn) - start)
            start = time.perf_counter()
            Select(driver.find_element("id", "claims-work")).select_by_value(args.work)
            Select(driver.find_element("id", "claims-verdict")).select_by_value(args.verdict)
            times["filter"].append(_wait(driver, f"{count}.startsWith('{expected} of')") - start)
            before = driver.execute_script(count)
            box = driver.find_element("css selector", "div.dt-search input")
            box.send_keys(args.text)
            start = time.perf_counter()
            times["search"].append(_wait(driver, f"{count} !== {before!r}") - start)
            before = driver.execute_script(count)
            start = time.perf_counter()
            driver.execute_script("location.hash = 'work=routing&verdict=deviates'")
            times["hash"].append(_wait(driver, f"{count} !== {before!r}") - start)
        shown = driver.execute_script(count)
        height = driver.execute_script("return document.body.scrollHeight")
        width = driver.execute_script("return document.getElementById('claims-table').scrollWidth")
    finally:
        driver.quit()
        server.shutdown()
    size = (html / "claims-report.html").stat().st_size
    print(f"claims report: {size / 1e6:.2f} MB of HTML (rows embedded as JSON); after the hash filter "
          f"'{shown}', page {height} px tall, table {width} px wide")
    for name, values in times.items():
        ms = [1000 * v for v in values]
        print(f"{name:>6}: median {statistics.median(ms):7.0f} ms  (min {min(ms):.0f}, max {max(ms):.0f}, "
              f"n={len(ms)})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
