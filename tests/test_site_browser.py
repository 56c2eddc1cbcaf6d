"""The built site in a real browser: headless Debian chromium driven by selenium (``make browser``).

Serves ``build/site/html`` on 127.0.0.1, loads the home page, every work's page and every notebook
page, and fails on a console error, a broken internal link or a missing image; then uses the claims
report's filter and checks the number of rows against ``figures/claims.csv``.  Screenshots go to
``build/site-screenshots/``.  Without chromium/chromedriver/selenium the test is skipped with a
message, except under CI (``CI=true``), where it fails.
"""

from __future__ import annotations

import csv
import functools
import http.server
import os
import shutil
import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from safeguarded import site
from safeguarded.notebooks import notebooks_of
from safeguarded.paths import REPO_ROOT, WORKS

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
SITE = REPO_ROOT / "build" / "site"
SHOTS = REPO_ROOT / "build" / "site-screenshots"
CLAIMS = REPO_ROOT / "figures" / "claims.csv"
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--window-size=1280,1000")


def _in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


@pytest.fixture(scope="module")
def driver():
    missing = [p for p in (CHROMIUM, CHROMEDRIVER) if not Path(p).is_file()]
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        missing.append("selenium (pip install -e '.[site]')")
    if missing:
        message = (f"no headless browser here: missing {', '.join(missing)} "
                   f"(apt-get install chromium chromium-driver)")
        if _in_ci():
            pytest.fail(message + "; CI=true, so the browser test must run")
        pytest.skip(message)
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS:
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    browser = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    browser.set_page_load_timeout(60)
    yield browser
    browser.quit()


@pytest.fixture(scope="module")
def base_url():
    html = SITE / "html"
    index = html / "index.html"
    if not index.is_file() or (CLAIMS.is_file() and CLAIMS.stat().st_mtime > index.stat().st_mtime):
        site.build(SITE)  # make test builds it first (make site); a bare pytest run builds it here
    handler = functools.partial(_QuietHandler, directory=str(html))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@functools.cache
def _status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as exc:
        return exc.code


def _load(driver, url: str) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get(url)
    WebDriverWait(driver, 30).until(lambda d: d.execute_script("return document.readyState") == "complete")
    # MathJax 3 typesets after load (and would report its errors then): wait until it is done
    driver.set_script_timeout(30)
    assert driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "if (window.MathJax && MathJax.startup && MathJax.startup.promise)"
        "  MathJax.startup.promise.then(() => done(true), () => done(false));"
        "else done(true);"), f"MathJax failed on {url}"


def _problems(driver, url: str, base: str) -> list[str]:
    """Console errors, broken internal links and missing images of the page at ``url``."""
    _load(driver, url)
    problems = [f"{url}: console {e['level']}: {e['message']}" for e in driver.get_log("browser")
                if e["level"] == "SEVERE"]
    links = driver.execute_script("return Array.from(document.querySelectorAll('a[href]')).map(a => a.href)")
    for link in sorted({link.split("#")[0] for link in links if link.startswith(base)}):
        if _status(link) != 200:
            problems.append(f"{url}: broken link {link} (HTTP {_status(link)})")
    images = driver.execute_script(
        "return Array.from(document.images).map(i => [i.src, i.complete && i.naturalWidth > 0])")
    problems += [f"{url}: missing image {src}" for src, ok in images if not ok]
    return problems


def _pages() -> list[str]:
    return ["index.html"] + [f"works/{w}.html" for w in WORKS] + [
        f"works/{p.stem}.html" for w in WORKS for p in notebooks_of(w)]


def test_every_page_loads_without_errors_links_or_images(driver, base_url):
    SHOTS.mkdir(parents=True, exist_ok=True)
    problems = []
    for page in _pages():
        problems += _problems(driver, base_url + page, base_url)
        if page == "index.html" or page.count("/") == 1 and page[6:-5] in WORKS:
            driver.save_screenshot(str(SHOTS / page.replace("/", "_").replace(".html", ".png")))
    assert not problems, "\n".join(problems)
    home_text = (_load(driver, base_url + "index.html"), driver.find_element("tag name", "body").text)[1]
    assert all(work in home_text for work in WORKS)  # the nine works are listed on the home page


def _csv_count(work: str = "", verdict: str = "") -> int:
    with open(CLAIMS, newline="", encoding="utf-8") as f:
        return sum((not work or r["work"] == work) and (not verdict or r["verdict"] == verdict)
                   for r in csv.DictReader(f))


def _visible_rows(driver) -> list[list[str]]:
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('#claims-table tbody tr'))"
        ".map(tr => Array.from(tr.cells).map(td => td.textContent))")


def test_claims_report_filters_and_sorts(driver, base_url):
    from selenium.webdriver.support.ui import Select

    if not CLAIMS.is_file():
        pytest.fail(f"{CLAIMS} is missing: run make claims")
    _load(driver, base_url + "claims-report.html")
    assert not [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    assert len(_visible_rows(driver)) == _csv_count()
    work, verdict = Select(driver.find_element("id", "claims-work")), Select(driver.find_element(
        "id", "claims-verdict"))
    work.select_by_value("routing")
    verdict_values = [o.get_attribute("value") for o in verdict.options]
    assert "deviates" in verdict_values or _csv_count(verdict="deviates") == 0
    if "deviates" in verdict_values:
        verdict.select_by_value("deviates")
    rows = _visible_rows(driver)
    expected = _csv_count("routing", "deviates" if "deviates" in verdict_values else "")
    assert len(rows) == expected, f"routing/deviates: {len(rows)} rows shown, {expected} in {CLAIMS}"
    assert f"{expected} of {_csv_count()} claims" in driver.find_element("id", "claims-count").text
    SHOTS.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(SHOTS / "claims-routing-deviates.png"))
    # every (work, verdict) pair shows exactly the rows of the CSV
    for w in [o.get_attribute("value") for o in work.options][1:]:
        work.select_by_value(w)
        for v in verdict_values[1:]:
            verdict.select_by_value(v)
            assert len(_visible_rows(driver)) == _csv_count(w, v), (w, v)
    # sorting by deviation: numeric deviations come first, largest first
    work.select_by_value("")
    verdict.select_by_value("")
    driver.find_element("id", "claims-sort-deviation").click()
    header = driver.execute_script(
        "return Array.from(document.querySelectorAll('#claims-table thead th')).map(th => th.textContent)")
    column = header.index("deviation / tol.")
    values = [r[column] for r in _visible_rows(driver)]
    numeric = [float(v) for v in values if v]
    assert numeric == sorted(numeric, reverse=True)
    assert values[: len(numeric)] == [v for v in values if v]  # non-numeric rows last
    driver.save_screenshot(str(SHOTS / "claims-sorted-by-deviation.png"))
