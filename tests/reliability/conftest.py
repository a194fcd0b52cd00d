"""Fixtures for the reliability suites: a real `trove serve` on loopback with small data of every app.

The server binary comes from $TROVE_BIN (default: .build/debug/trove of this checkout). Its database is a
fresh SQLite file holding the small data sets of reliability_support.py (a strategies deck, a few
pronunciations, a few cities) and the sample stories of samples/stories/; weather and venues come from a fake
provider in a thread, so nothing leaves the machine.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import pytest

from reliability_support import (
    SERVER_CRASHES,
    SUITE_LINES,
    FakeProviders,
    TroveServer,
    prepare_database,
    report,
    trove_binary,
)

SERVER_LOGS: list[Path] = []


@pytest.fixture(scope="session")
def trove_server():
    """`trove serve` on a free loopback port with a fresh SQLite database holding every app's small fixtures
    and the two sample stories; weather and venues from FakeProviders. Yields a TroveServer."""
    binary = trove_binary()
    workdir = Path(tempfile.mkdtemp(prefix="trove-reliability-"))
    database = workdir / "trove.sqlite"
    prepare_database(binary, workdir, database)
    with FakeProviders() as providers:
        server = TroveServer(binary, workdir, database, providers.serve_args())
        SERVER_LOGS.append(server.log_path)
        server.start()
        try:
            yield server
        finally:
            server.crashed(wait=1.0)  # a crash just after the last test's last request, given a moment to happen
            server.stop()  # records an exit found here as a crash
        crashes = server.take_crashes()
        if crashes:
            pytest.fail("trove serve crashed at the end of the run, after the last test's check; its last lines:\n\n"
                        + "\n\n".join(crashes), pytrace=False)


@pytest.fixture(autouse=True)
def _no_server_crash(request):
    """Fails the test during which any trove serve of the suite crashed: at its end each server is checked, and a
    crash found there, or met by `ensure_running` during the test (one after the previous test's check), fails
    it with the server's last log lines. The server is started again, so the next test has one."""
    yield
    crashes = [(server, crash) for server in list(TroveServer.instances) for crash in server.take_crashes()]
    if crashes:
        pytest.fail(f"trove serve crashed during {request.node.nodeid} (or after the previous test's last request "
                    f"and before this one's first); the server was started again. Its last lines:\n\n"
                    + "\n\n".join(f"{server.base} ({server.log_path}): {crash}" for server, crash in crashes),
                    pytrace=False)


def pytest_terminal_summary(terminalreporter):
    """One line per fuzzed identity: how many requests, and the status codes they got."""
    module = sys.modules.get("test_fuzz")
    statistics = getattr(module, "STATISTICS", None) if module else None
    if statistics:
        terminalreporter.write_line(f"fuzz: {module.EXAMPLES} examples per operation, seed {module.SEED} "
                                    f"(TROVE_FUZZ_SEED={module.SEED} replays it)")
    for kind, counter in (statistics or {}).items():
        codes = ", ".join(f"{code}: {n}" for code, n in sorted((k, v) for k, v in counter.items() if k != "requests"))
        terminalreporter.write_line(f"fuzz ({kind}): {counter['requests']} requests; status codes {codes}")
    if statistics:
        requests = sum(counter["requests"] for counter in statistics.values())
        server_errors = sum(n for counter in statistics.values() for code, n in counter.items()
                            if code != "requests" and int(code) >= 500)
        failed = len(terminalreporter.stats.get("failed", []))
        passed = len(terminalreporter.stats.get("passed", []))
        report(f"fuzz: {requests:,} requests ({module.EXAMPLES} examples per operation, as a guest and as an "
               f"account, seed {module.SEED}), {server_errors} answered 5xx; {passed} tests passed, {failed} failed")
    for line in SUITE_LINES:
        terminalreporter.write_line(line)
    for path in SERVER_LOGS:
        terminalreporter.write_line(f"trove serve's output: {path}")
    if SERVER_CRASHES:
        terminalreporter.write_line(f"trove serve crashed {len(SERVER_CRASHES)} times and was started again "
                                    f"(see the failures above)")
