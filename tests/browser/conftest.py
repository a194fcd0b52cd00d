"""Fixtures for the browser suite: a real `trove serve` and headless Chromium.

The server binary comes from $TROVE_BIN (make test sets it to
.build/debug/trove). Chromium and chromedriver are Debian's, at
/usr/bin/chromium and /usr/bin/chromedriver. Anything missing fails the run.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import tempfile
import textwrap
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

from browser_support import MOBILE, set_viewport

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
STARTUP_TIMEOUT = 30.0

SCREENSHOTS = Path(__file__).resolve().parents[2] / "screenshots"

_server_logs: list[Path] = []

# A small invented deck in the format of the `oblique` package's strategies.ini (one [strategies]
# section, a key per edition, one card per indented continuation line). Edition 2 repeats two cards of
# Edition 1, one of them worded differently, and one card carries an accent for the search test.
STRATEGIES_DECK_INI = textwrap.dedent(
    """\
    [strategies]
    Edition 1=
        Honour the accident as a plan
        Begin with the ending
        Make it smaller, then smaller again
        Whisper the loud part
    Edition 2=
        Honor the accident as a plan
        Begin with the ending
        Émphasize the seams
        Leave a gap for the listener
    Extra=
        Take a walk around the problem
    """
)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _read_log(path: Path | None, limit: int = 20_000) -> str:
    if path is None or not path.exists():
        return "(no server output)"
    text = path.read_text(errors="replace")
    return text[-limit:] if len(text) > limit else text


def _health_ok(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as resp:
            return resp.status == 200
    except (urllib.error.URLError, OSError):
        return False


def _trove_binary() -> str:
    binary = os.environ.get("TROVE_BIN")
    if not binary:
        pytest.fail("TROVE_BIN is not set (make test sets it to .build/debug/trove)", pytrace=False)
    if not (os.path.isfile(binary) and os.access(binary, os.X_OK)):
        pytest.fail(f"TROVE_BIN={binary} is not an executable file (build first)", pytrace=False)
    return binary


@contextmanager
def _running_trove(binary: str, workdir: Path, database: Path):
    """Run `trove serve` on a free port against `database` until the block ends; yields the base URL."""
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    log_path = workdir / "server.log"
    _server_logs.append(log_path)
    cmd = [
        binary, "serve",
        "--host", "127.0.0.1",
        "--port", str(port),
        "--database", str(database),
    ]
    log = open(log_path, "wb")
    proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + STARTUP_TIMEOUT
        while True:
            if proc.poll() is not None:
                pytest.fail(
                    f"trove serve exited with {proc.returncode} before answering /health.\n"
                    f"command: {' '.join(cmd)}\n--- server output ---\n{_read_log(log_path)}",
                    pytrace=False,
                )
            if _health_ok(base + "/health"):
                break
            if time.monotonic() > deadline:
                pytest.fail(
                    f"GET {base}/health did not answer 200 within {STARTUP_TIMEOUT:.0f}s.\n"
                    f"command: {' '.join(cmd)}\n--- server output ---\n{_read_log(log_path)}",
                    pytrace=False,
                )
            time.sleep(0.2)
        yield base
    finally:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        log.close()


def _run_trove(binary: str, *args: str) -> None:
    """Run a one-off trove command (migrate, import …); fail the run with its output if it fails."""
    cmd = [binary, *args]
    try:
        result = subprocess.run(cmd, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        pytest.fail(f"{' '.join(cmd)} did not finish within 120s", pytrace=False)
    if result.returncode != 0:
        pytest.fail(
            f"{' '.join(cmd)} exited with {result.returncode}\n--- output ---\n{result.stdout}{result.stderr}",
            pytrace=False,
        )


@pytest.fixture(scope="session")
def server():
    """Start `$TROVE_BIN serve` on a free port with a fresh SQLite database.

    Yields the base URL, e.g. "http://127.0.0.1:54321".
    """
    binary = _trove_binary()
    workdir = Path(tempfile.mkdtemp(prefix="trove-browser-"))
    with _running_trove(binary, workdir, workdir / "trove.sqlite") as base:
        yield base


@pytest.fixture(scope="session")
def strategies_server():
    """A server of its own whose database holds the small test deck (STRATEGIES_DECK_INI).

    The deck is imported with `trove import strategies` before the server starts, as `make run` does.
    Yields the base URL.
    """
    binary = _trove_binary()
    workdir = Path(tempfile.mkdtemp(prefix="trove-strategies-"))
    database = workdir / "trove.sqlite"
    deck = workdir / "strategies.ini"
    deck.write_text(STRATEGIES_DECK_INI, encoding="utf-8")
    _run_trove(binary, "migrate", "--database", str(database))
    _run_trove(binary, "import", "strategies", "--from", str(deck), "--sections", "all", "--database", str(database))
    with _running_trove(binary, workdir, database) as base:
        yield base


def _chrome_options(width: int, height: int) -> webdriver.ChromeOptions:
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--disable-gpu",
        "--no-first-run",
        "--disable-search-engine-choice-screen",
        f"--window-size={width},{height}",
    ):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return options


def _new_driver(width: int, height: int) -> webdriver.Chrome:
    for path in (CHROMIUM, CHROMEDRIVER):
        if not os.access(path, os.X_OK):
            pytest.fail(f"{path} is missing (run scripts/install-test-deps.sh)", pytrace=False)
    driver = webdriver.Chrome(
        options=_chrome_options(width, height),
        service=Service(executable_path=CHROMEDRIVER),
    )
    driver.set_page_load_timeout(30)
    driver.set_script_timeout(15)
    set_viewport(driver, width, height)
    return driver


@pytest.fixture
def browser(request):
    """A fresh headless Chromium per test, 375x667 (a phone) to start with."""
    driver = _new_driver(*MOBILE)
    yield driver
    rep = getattr(request.node, "rep_call", None)
    if rep is not None and rep.failed:
        try:
            SCREENSHOTS.mkdir(exist_ok=True)
            name = re.sub(r"[^A-Za-z0-9_.-]+", "_", request.node.nodeid)
            driver.save_screenshot(str(SCREENSHOTS / f"{name}.png"))
        except Exception:  # a failed screenshot must not hide the test's failure
            pass
    driver.quit()


def severe_console_entries(driver) -> list[dict]:
    """Console entries at SEVERE level since the last read (reading drains them)."""
    return [e for e in driver.get_log("browser") if e.get("level") == "SEVERE"]


@pytest.fixture
def assert_no_console_errors():
    """Returns a function that fails the test if the page logged SEVERE entries
    (uncaught errors, console.error, failed resource loads such as a 404)."""

    def check(driver) -> None:
        severe = severe_console_entries(driver)
        assert not severe, "console errors:\n" + "\n".join(e.get("message", str(e)) for e in severe)

    return check


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    rep = outcome.get_result()
    setattr(item, f"rep_{rep.when}", rep)
    if rep.failed:
        for log_path in _server_logs:
            rep.sections.append((f"trove server output (tail of {log_path})", _read_log(log_path, 8_000)))
