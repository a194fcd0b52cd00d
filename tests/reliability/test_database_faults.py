"""Suite 5, database faults: the database goes away or its disk refuses writes while trove serve runs.

- PostgreSQL stopped under a running server: every request that needs the database answers a clean 503 JSON
  (`database_unavailable`, with Retry-After) quickly, pages answer a 503 page, /health stays up, /ready turns 503
  (and 200 again once PostgreSQL is back); once PostgreSQL
  is back the same server answers again, with every write acknowledged before the outage and none of those
  refused during it.
- SQLite on a disk that fills up (a small tmpfs): writes answer 503 `database_full` and nothing else goes wrong;
  once space is freed writes succeed again; every acknowledged write is there and `PRAGMA integrity_check` is ok.
- SQLite on a read-only disk: `trove serve` refuses to start and says why, and leaves the database as it was.

The tmpfs needs root (CI runs as root); without it the SQLite tests fail, they are not skipped.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import tempfile
import time
import uuid
from pathlib import Path

import pytest
import requests
from prometheus_client.parser import text_string_to_metric_families

from reliability_support import (
    ROOT,
    TroveServer,
    free_port,
    prepare_database,
    report,
    trove_binary,
)

POSTGRES_SCRIPT = ROOT / "scripts" / "postgres.sh"
# A request during an outage must fail within this (connect refused is immediate; the pool waits 10 s at most).
OUTAGE_ANSWER_BUDGET = 11.0
# After PostgreSQL is back, the same server must answer again within this.
RECOVERY_BUDGET = 30.0
TMPFS_SIZE = "6m"
PAGES = ("/", "/strategies", "/poetry", "/cities", "/stories", "/yoga")

RESULTS: dict[str, str] = {}


@pytest.fixture(scope="module", autouse=True)
def _report_line():
    """The one-line summary for make reliability, once the file's tests have run: what each test that passed
    showed, and which did not pass (each test fails on its own; this only reports)."""
    yield
    parts = [RESULTS.get(key, f"{name}: did not pass") for key, name in
             (("postgres", "PostgreSQL stopped"), ("full", "SQLite disk full"), ("read-only", "SQLite read-only disk"))]
    report("database: " + "; ".join(parts))


class Client:
    """A guest profile's cookie and the Origin the pages send, so writes pass the cross-site check."""

    def __init__(self, base: str):
        self.base = base
        self.session = requests.Session()
        response = self.session.get(base + "/api/v1/account/me", timeout=30)
        assert response.status_code == 200, response.text

    def call(self, method: str, path: str, **kwargs) -> requests.Response:
        headers = {"Origin": self.base, **kwargs.pop("headers", {})}
        return self.session.request(method, self.base + path, headers=headers, timeout=60, **kwargs)

    def save_poem(self, title: str, words: int = 3) -> requests.Response:
        board = {"word_set_id": "classics", "font": "serif", "font_scale": 1, "extra_words": [],
                 "magnets": [{"id": f"m{i}", "word": "moon", "x": 0.1, "y": 0.2, "rotation": 0, "z": i}
                             for i in range(words)]}
        return self.call("POST", "/api/v1/poetry/poems", json={"title": title, "board": board})

    def poem_titles(self) -> set[str]:
        response = self.call("GET", "/api/v1/poetry/poems")
        assert response.status_code == 200, response.text
        return {poem["title"] for poem in response.json()}


# Requests of every app that need the database: (method, path, JSON body or None).
def _requests_of_every_app(card_id: int) -> list[tuple[str, str, dict | None]]:
    return [
        ("POST", "/api/v1/strategies/random", None),
        ("PUT", f"/api/v1/strategies/{card_id}/favourite", None),
        ("GET", "/api/v1/poetry/poems", None),
        ("POST", "/api/v1/poetry/poems", {"title": "during the outage", "board": {
            "word_set_id": "classics", "font": "serif", "font_scale": 1, "extra_words": [], "magnets": []}}),
        ("GET", "/api/v1/cities/collection", None),
        ("POST", "/api/v1/cities/collection/import", {"cities": [{"geonameid": 3176959, "favourite": True}]}),
        ("GET", "/api/v1/stories/library", None),
        ("PUT", "/api/v1/stories/gull-rock/library", None),
        ("GET", "/api/v1/yoga/students", None),
        ("POST", "/api/v1/yoga/students", {"name": "Outage Ada"}),
    ]


@pytest.fixture
def postgres_cluster():
    """A PostgreSQL cluster of this test's own (it is stopped and started again), as (directory, port, URL)."""
    parent = Path(tempfile.mkdtemp(prefix="trove-dbfault-pg-"))
    parent.chmod(0o755)  # the cluster runs as the postgres user, which must reach its folder
    folder = parent / "cluster"
    port = free_port()
    started = subprocess.run([str(POSTGRES_SCRIPT), "start", str(folder), str(port)], capture_output=True, text=True)
    if started.returncode != 0:
        pytest.fail(f"could not start PostgreSQL: {started.stderr}", pytrace=False)
    try:
        yield folder, port, started.stdout.strip()
    finally:
        subprocess.run([str(POSTGRES_SCRIPT), "stop", str(folder)], capture_output=True)


def test_postgres_restart_gives_503_then_recovers_without_restarting_trove(postgres_cluster):
    folder, port, url = postgres_cluster
    binary = trove_binary()
    workdir = Path(tempfile.mkdtemp(prefix="trove-dbfault-"))
    prepare_database(binary, workdir, url)
    server = TroveServer(binary, workdir, url)  # type: ignore[arg-type]  (a URL where a path usually goes)
    server.start()
    try:
        client = Client(server.base)
        ready_deadline = time.monotonic() + RECOVERY_BUDGET
        while client.call("GET", "/ready").status_code != 200 and time.monotonic() < ready_deadline:
            time.sleep(0.2)
        ready = client.call("GET", "/ready")
        assert ready.status_code == 200 and ready.json() == {"status": "ready", "database": "ok", "city_catalog": "ok"}, ready.text
        card_id = client.call("GET", "/api/v1/strategies").json()[0]["id"]
        before = f"before {uuid.uuid4()}"
        assert client.save_poem(before).status_code == 201

        subprocess.run([str(POSTGRES_SCRIPT), "down", str(folder)], check=True, capture_output=True)
        slowest, refused = 0.0, 0
        for method, path, body in _requests_of_every_app(card_id):
            started = time.monotonic()
            response = client.call(method, path, json=body)
            slowest = max(slowest, time.monotonic() - started)
            assert response.status_code == 503, f"{method} {path} with PostgreSQL down: {response.status_code} {response.text}"
            assert response.headers["Content-Type"].startswith("application/json"), response.headers
            assert response.json()["error"]["code"] == "database_unavailable", response.text
            assert int(response.headers["Retry-After"]) > 0
            refused += 1
        # A page answers from what the server holds in memory (the deck, the session cached for a few
        # seconds), or a 503 page; never a 500.
        for path in PAGES:
            page = client.session.get(server.base + path, headers={"Accept": "text/html"}, timeout=60)
            assert page.status_code in (200, 503), f"{path} with PostgreSQL down: {page.status_code}"
            assert page.headers["Content-Type"].startswith("text/html"), f"{path}: {page.headers['Content-Type']}"
        assert client.call("GET", "/health").status_code == 200, "/health needs no database"
        not_ready = client.call("GET", "/ready")
        assert not_ready.status_code == 503, f"/ready with PostgreSQL down: {not_ready.status_code} {not_ready.text}"
        assert not_ready.json()["database"] in ("unreachable", "not_answering") and int(not_ready.headers["Retry-After"]) > 0
        assert slowest < OUTAGE_ANSWER_BUDGET, f"the slowest refusal took {slowest:.1f} s"
        assert server.crashed() is None, server.crashed()
        # /metrics (no database needed) counts the failed queries, by database and by read or write.
        metrics = {(s.name, tuple(sorted(s.labels.items()))): s.value
                   for f in text_string_to_metric_families(client.call("GET", "/metrics").text) for s in f.samples}
        failed = sum(v for (name, labels), v in metrics.items() if name == "trove_db_query_errors_total" and ("kind", "postgres") in labels)
        assert failed >= 1, "the queries that failed with PostgreSQL down are not counted in trove_db_query_errors_total"

        subprocess.run([str(POSTGRES_SCRIPT), "up", str(folder), str(port)], check=True, capture_output=True)
        deadline = time.monotonic() + RECOVERY_BUDGET
        recovered_after = None
        while time.monotonic() < deadline:
            if client.call("GET", "/api/v1/poetry/poems").status_code == 200:
                recovered_after = RECOVERY_BUDGET - (deadline - time.monotonic())
                break
            time.sleep(0.2)
        assert recovered_after is not None, f"no answer within {RECOVERY_BUDGET:.0f} s of PostgreSQL's return"
        assert client.call("GET", "/ready").status_code == 200, "ready again once PostgreSQL is back"
        for method, path, body in _requests_of_every_app(card_id):
            response = client.call(method, path, json=body)
            assert response.status_code < 300, f"{method} {path} after the outage: {response.status_code} {response.text}"
        titles = client.poem_titles()
        assert before in titles, "a poem saved before the outage is gone"
        assert list(titles).count("during the outage") == 1, "exactly the poem saved after the outage, not the refused one"
        RESULTS["postgres"] = (f"PostgreSQL stopped: {refused} requests of 5 apps → 503 database_unavailable "
                               f"(slowest {slowest:.2f} s), back {recovered_after:.1f} s after restart, 0 lost")
    finally:
        server.stop()


@pytest.fixture
def small_disk():
    """A tmpfs of TMPFS_SIZE, mounted for this test (needs root)."""
    folder = Path(tempfile.mkdtemp(prefix="trove-dbfault-disk-"))
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={TMPFS_SIZE}", "tmpfs", str(folder)],
                             capture_output=True, text=True)
    if mounted.returncode != 0:
        pytest.fail(f"could not mount a tmpfs (the disk-fault tests need root): {mounted.stderr}", pytrace=False)
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], capture_output=True)


def _fill(folder: Path, leave: int) -> Path:
    """Writes a file until the disk is full, then gives `leave` bytes back; returns the file."""
    filler = folder / "filler"
    with open(filler, "wb") as out:
        try:
            while True:
                out.write(b"\0" * 65536)
                out.flush()
        except OSError:
            pass
    os.truncate(filler, max(0, filler.stat().st_size - leave))
    return filler


def _integrity(database: Path) -> str:
    with sqlite3.connect(database) as connection:
        return connection.execute("PRAGMA integrity_check").fetchone()[0]


def test_sqlite_full_disk_gives_503_and_loses_nothing(small_disk):
    binary = trove_binary()
    workdir = Path(tempfile.mkdtemp(prefix="trove-dbfault-"))
    database = small_disk / "trove.sqlite"
    prepare_database(binary, workdir, database)
    server = TroveServer(binary, workdir, database)
    server.start()
    try:
        client = Client(server.base)
        acknowledged: list[str] = []
        filler = _fill(small_disk, leave=256 * 1024)  # room for some saves first
        codes: dict[str, int] = {}
        for n in range(400):
            title = f"poem {n} {uuid.uuid4()}"
            response = client.save_poem(title, words=40)
            if response.status_code == 201:
                acknowledged.append(title)
                continue
            assert response.status_code == 503, f"save {n} on a full disk: {response.status_code} {response.text}"
            code = response.json()["error"]["code"]
            assert code == "database_full", f"save {n} on a full disk: {response.text}"
            codes[code] = codes.get(code, 0) + 1
            if codes[code] >= 20:
                break
        assert codes, "400 poem saves on a full disk all succeeded: the disk never filled"
        assert client.call("GET", "/api/v1/poetry/poems").status_code == 200, "reads go on while the disk is full"
        assert server.crashed() is None, server.crashed()

        filler.unlink()
        after = f"after {uuid.uuid4()}"
        response = client.save_poem(after)
        assert response.status_code == 201, f"a save once space is freed: {response.status_code} {response.text}"
        acknowledged.append(after)
        missing = set(acknowledged) - client.poem_titles()
        assert not missing, f"{len(missing)} acknowledged poems are gone: {sorted(missing)[:3]}"
    finally:
        server.stop()
    integrity = _integrity(database)
    assert integrity == "ok", integrity
    RESULTS["full"] = (f"SQLite disk full: {sum(codes.values())} saves → 503 database_full, "
                       f"{len(acknowledged)} acknowledged, 0 lost, integrity {integrity}")


def test_sqlite_read_only_disk_is_refused_at_start_with_a_clear_message(small_disk):
    binary = trove_binary()
    workdir = Path(tempfile.mkdtemp(prefix="trove-dbfault-"))
    database = small_disk / "trove.sqlite"
    prepare_database(binary, workdir, database)
    before = database.read_bytes()
    remounted = subprocess.run(["mount", "-o", "remount,ro", str(small_disk)], capture_output=True, text=True)
    assert remounted.returncode == 0, remounted.stderr
    try:
        result = subprocess.run([binary, "serve", "--host", "127.0.0.1", "--port", str(free_port()),
                                 "--database", str(database)], capture_output=True, text=True, timeout=60)
    finally:
        subprocess.run(["mount", "-o", "remount,rw", str(small_disk)], capture_output=True)
    output = result.stdout + result.stderr
    assert result.returncode != 0, f"trove serve started on a read-only disk:\n{output}"
    assert str(small_disk) in output and "writ" in output.lower(), f"the message does not say why:\n{output}"
    assert database.read_bytes() == before, "the database changed"
    assert _integrity(database) == "ok"
    RESULTS["read-only"] = "SQLite read-only disk: serve refused to start and named the folder, database unchanged"


