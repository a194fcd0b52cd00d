"""Backups under load: `trove backup` taken from a SQLite database while a running server takes a burst of writes
from several apps, restored into a new SQLite database and into a new PostgreSQL database with `trove restore`.
Every write acknowledged before the backup started is there, nothing that was never written is, and both
restores hold the same rows. A backup cut short is refused with one line and writes nothing."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import tempfile
import threading
import time
import uuid
from pathlib import Path

import pytest
import requests

from reliability_support import TroveServer, prepare_database, report, trove_binary

BURST_SECONDS = 4.0


def psql(url: str, sql: str) -> str:
    return subprocess.run(["psql", url, "-At", "-v", "ON_ERROR_STOP=1", "-c", sql], check=True, capture_output=True, text=True).stdout.strip()


def fresh_postgres_database() -> str:
    admin = os.environ.get("TROVE_TEST_POSTGRES_URL")
    if not admin:
        pytest.fail("TROVE_TEST_POSTGRES_URL is not set: run through make test, which starts a throwaway PostgreSQL", pytrace=False)
    name = "trove_backup_" + uuid.uuid4().hex[:12]
    psql(admin, f"CREATE DATABASE {name}")
    return admin.rsplit("/", 1)[0] + "/" + name


def run(binary: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([binary, *args], capture_output=True, text=True, timeout=300)


def test_a_backup_under_a_write_burst_restores_into_sqlite_and_postgres():
    binary = trove_binary()
    workdir = Path(tempfile.mkdtemp(prefix="trove-backup-"))
    source = workdir / "trove.sqlite"
    prepare_database(binary, workdir, source)
    server = TroveServer(binary, workdir, source)
    server.start()
    acknowledged: list[tuple[str, float]] = []  # (name, when its 201 arrived)
    stop = threading.Event()

    def burst(client_id: int) -> None:
        session = requests.Session()
        session.get(server.base + "/api/v1/account/me", timeout=30)
        headers = {"Origin": server.base}
        number = 0
        while not stop.is_set():
            number += 1
            name = f"w{client_id}-{number}"
            student = session.post(server.base + "/api/v1/yoga/students", json={"name": name}, headers=headers, timeout=30)
            poem = session.post(server.base + "/api/v1/poetry/poems", headers=headers, timeout=30, json={"title": name, "board": {
                "word_set_id": "classics", "font": "serif", "font_scale": 1, "extra_words": [], "magnets": []}})
            if student.status_code == 201 and poem.status_code == 201:
                acknowledged.append((name, time.monotonic()))

    try:
        writers = [threading.Thread(target=burst, args=(n,)) for n in range(3)]
        for writer in writers:
            writer.start()
        time.sleep(BURST_SECONDS / 2)
        archive = workdir / "backup.gz"
        started = time.monotonic()
        backed_up = run(binary, "backup", "--to", str(archive), "--database", str(source))
        time.sleep(BURST_SECONDS / 2)
        stop.set()
        for writer in writers:
            writer.join()
        assert backed_up.returncode == 0, backed_up.stderr
        before = {name for name, when in acknowledged if when < started}
        everything = {name for name, _ in acknowledged}
        assert len(before) > 10 and len(everything) > len(before), (len(before), len(everything))

        restored_sqlite = workdir / "restored.sqlite"
        loaded = run(binary, "restore", str(archive), "--database", str(restored_sqlite))
        assert loaded.returncode == 0, loaded.stderr
        with sqlite3.connect(restored_sqlite) as db:
            students = {row[0] for row in db.execute("SELECT name FROM yoga_students")}
            poems = {row[0] for row in db.execute("SELECT title FROM poetry_poems")}
            counts = {table: db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
                      for table in ("profiles", "yoga_students", "poetry_poems", "strategy_cards", "cities", "stories", "pronunciations")}
        assert before <= students and before <= poems, f"{len(before - students)} acknowledged students missing"
        assert students <= everything and poems <= everything, "a restored row that was never written"
        # Each client writes its student, then its poem: a point-in-time snapshot never holds the poem without the student.
        assert poems <= students, f"poems without their student: {sorted(poems - students)[:3]}"

        url = fresh_postgres_database()
        loaded = run(binary, "restore", str(archive), "--database", url)
        assert loaded.returncode == 0, loaded.stderr
        for table, count in counts.items():
            assert int(psql(url, f"SELECT COUNT(*) FROM {table}")) == count, table
        assert set(psql(url, "SELECT name FROM yoga_students").splitlines()) == students

        cut = workdir / "cut.gz"
        cut.write_bytes(archive.read_bytes()[: archive.stat().st_size // 2])
        empty = workdir / "empty.sqlite"
        refused = run(binary, "restore", str(cut), "--database", str(empty))
        assert refused.returncode == 1 and len(refused.stderr.strip().splitlines()) == 1, refused.stderr
        assert "cut short" in refused.stderr or "damaged" in refused.stderr, refused.stderr
        with sqlite3.connect(empty) as db:
            assert db.execute("SELECT COUNT(*) FROM profiles").fetchone()[0] == 0
        report(f"backup: taken during a burst of {len(everything)} paired writes from 3 clients; {len(before)} acknowledged "
               f"before it, all restored into SQLite and PostgreSQL ({sum(counts.values())} rows of 7 tables equal); a cut file refused")
    finally:
        stop.set()
        server.stop()
