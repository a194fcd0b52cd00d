"""Issue 64, exactly once: a keyed write whose instance dies mid-request is stored once, and its retry is answered.

Writers create students, as long as the kills go on, through `POST /api/v1/yoga/students`, each write with an `Idempotency-Key` of its own and
sent again with the same key until it is answered 2xx (a dropped connection, a 502 from the balancer, a 5xx or a
409: again after 0.1 s), as the pages' outbox does. Meanwhile instances are killed with SIGKILL at random moments
and started again:

    SQLite      one instance, killed and started again at once on the same database file;
    PostgreSQL  two instances on one database behind nginx (round robin, the next instance on a refused
                connection), one of them killed and started again.

Afterwards every acknowledged student is there exactly once, none is missing, and no write waited longer than
MAX_WAIT seconds for its answer (a restart of a debug build included). Prints the counts.

    TROVE_ONCE_KILLS          kills per database (default 8; the quick pass of `make test` uses 3)
    TROVE_ONCE_WRITERS        concurrent writers (default 8)
    TROVE_ONCE_STUDENTS       students per writer at least (default 30; 15 in the quick pass); writers go on
                              until the last kill is a second past
    TROVE_TEST_POSTGRES_URL   a PostgreSQL server to create the database on (required)

Run alone: `.venv/bin/pytest -q --assert=plain tests/reliability/test_exactly_once.py` after a build.
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

import pytest
import requests

from reliability_support import TroveServer, free_port, prepare_database, report, trove_binary
from test_crash import fresh_postgres_database

KILLS = int(os.environ.get("TROVE_ONCE_KILLS", "8"))
WRITERS = int(os.environ.get("TROVE_ONCE_WRITERS", "8"))
STUDENTS = int(os.environ.get("TROVE_ONCE_STUDENTS", "30" if KILLS > 3 else "15"))
SEED = int(os.environ.get("TROVE_ONCE_SEED", str(random.randrange(1 << 30))))
MAX_WAIT = 15.0


class Writer(threading.Thread):
    """Creates students until `stop` is set (at least STUDENTS), each sent again with its key until answered 2xx."""

    def __init__(self, number: int, base: str, stop: threading.Event, deadline: float):
        super().__init__(daemon=True)
        self.number = number
        self.base = base
        self.stop = stop
        self.deadline = deadline
        self.session = requests.Session()
        self.acknowledged: list[str] = []
        self.longest_wait = 0.0
        self.retries = 0
        self.errors: list[str] = []

    def send(self, method: str, path: str, **kwargs) -> requests.Response | None:
        try:
            return self.session.request(method, self.base + path, timeout=20, **kwargs)
        except requests.RequestException:
            self.session.close()  # the connection died with the instance; the cookie stays
            return None

    def run(self) -> None:
        while (answer := self.send("GET", "/api/v1/account/me")) is None or answer.status_code != 200:
            time.sleep(0.1)
        index = 0
        while index < STUDENTS or not self.stop.is_set():
            name = f"w{self.number}-s{index}"
            key = f"once-{self.number}-{index}"
            index += 1
            started = time.monotonic()
            while time.monotonic() < self.deadline:
                answer = self.send("POST", "/api/v1/yoga/students", headers={"Idempotency-Key": key},
                                   json={"name": name, "joined_on": "2026-01-05"})
                if answer is not None and answer.status_code == 201:
                    if answer.json().get("name") != name:
                        self.errors.append(f"{key} was answered with {answer.text[:120]}")
                    self.acknowledged.append(name)
                    break
                if answer is not None and 400 <= answer.status_code < 500 and answer.status_code != 409:
                    self.errors.append(f"{key} was answered {answer.status_code}: {answer.text[:160]}")
                    break
                self.retries += 1
                time.sleep(0.1)
            self.longest_wait = max(self.longest_wait, time.monotonic() - started)

    def stored(self) -> list[str]:
        answer = self.session.get(self.base + "/api/v1/yoga/students", timeout=20)
        answer.raise_for_status()
        return [student["name"] for student in answer.json()["students"]]


def run_writers(base: str, kill_and_restart) -> tuple[list[Writer], int]:
    """Runs the writers against `base`, calling `kill_and_restart()` KILLS times at random moments while they
    write, then lets them write for another second and finish; returns the writers and the kills made."""
    rng = random.Random(SEED)
    stop = threading.Event()
    deadline = time.monotonic() + 240
    writers = [Writer(number, base, stop, deadline) for number in range(WRITERS)]
    for writer in writers:
        writer.start()
    kills = 0
    while kills < KILLS and time.monotonic() < deadline:
        time.sleep(rng.uniform(0.3, 1.2))
        kill_and_restart()
        kills += 1
    time.sleep(1.0)
    stop.set()
    for writer in writers:
        writer.join(timeout=max(1.0, deadline - time.monotonic()))
    return writers, kills


def check(kind: str, writers: list[Writer], kills: int, seconds: float) -> None:
    failures = [error for writer in writers for error in writer.errors]
    acknowledged = sum(len(writer.acknowledged) for writer in writers)
    twice = missing = 0
    for writer in writers:
        if writer.is_alive():
            failures.append(f"writer {writer.number} did not finish")
        counts = Counter(name for name in writer.stored() if name.startswith(f"w{writer.number}-"))
        for name in writer.acknowledged:
            if counts[name] == 0:
                missing += 1
                failures.append(f"{name} was acknowledged and is missing")
        for name, count in counts.items():
            if count > 1:
                twice += count - 1
                failures.append(f"{name} is stored {count} times")
    longest = max(writer.longest_wait for writer in writers)
    if longest > MAX_WAIT:
        failures.append(f"a write waited {longest:.1f} s for its answer (at most {MAX_WAIT:.0f} s)")
    line = (f"exactly once ({kind}): {kills} kills, {WRITERS} writers, {acknowledged} acknowledged, {missing} lost, "
            f"{twice} stored twice, {sum(writer.retries for writer in writers)} retries, the longest wait "
            f"{longest:.1f} s ({seconds:.0f} s)")
    if failures:
        pytest.fail(f"{line}; TROVE_ONCE_SEED={SEED} replays it:\n" + "\n".join(failures[:40]), pytrace=False)
    report(line)


def test_sqlite_instance_killed_mid_request_stores_each_write_once():
    binary = trove_binary()
    started = time.monotonic()
    workdir = Path(tempfile.mkdtemp(prefix="trove-once-sqlite-"))
    database = workdir / "trove.sqlite"
    prepare_database(binary, workdir, str(database))
    server = TroveServer(binary, workdir, database)
    server.start()

    def kill_and_restart():
        server.kill()
        server.stop()
        server.start()

    try:
        writers, kills = run_writers(server.base, kill_and_restart)
        check("SQLite", writers, kills, time.monotonic() - started)
    finally:
        server.stop()
    shutil.rmtree(workdir, ignore_errors=True)


NGINX_CONFIG = """
user root;
worker_processes 1;
daemon off;
pid {folder}/nginx.pid;
error_log {folder}/error.log warn;
events {{ worker_connections 256; }}
http {{
    access_log off;
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
    upstream trove {{
        server 127.0.0.1:{first} max_fails=0;
        server 127.0.0.1:{second} max_fails=0;
        keepalive 16;
    }}
    server {{
        listen 127.0.0.1:{port};
        location / {{
            proxy_pass http://trove;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $http_host;
            proxy_next_upstream error timeout;
            proxy_connect_timeout 1s;
            proxy_read_timeout 30s;
        }}
    }}
}}
"""


def test_postgres_two_instances_one_killed_mid_request_store_each_write_once():
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    if not Path(nginx).exists():
        pytest.fail("nginx is not installed: scripts/install-test-deps.sh installs nginx-light", pytrace=False)
    binary = trove_binary()
    started = time.monotonic()
    with fresh_postgres_database("once") as (database, workdir):
        servers = []
        for name in ("a", "b"):
            folder = workdir / name
            folder.mkdir()
            servers.append(TroveServer(binary, folder, database))
        for server in servers:
            server.start()
        balancer = workdir / "nginx"
        balancer.mkdir()
        port = free_port()
        (balancer / "nginx.conf").write_text(NGINX_CONFIG.format(
            folder=balancer, first=servers[0].port, second=servers[1].port, port=port))
        process = subprocess.Popen([nginx, "-c", str(balancer / "nginx.conf"), "-p", str(balancer)],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        base = f"http://127.0.0.1:{port}"
        try:
            for _ in range(100):
                try:
                    if requests.get(base + "/health", timeout=2).status_code == 200:
                        break
                except requests.RequestException:
                    pass
                time.sleep(0.1)
            victim = servers[1]

            def kill_and_restart():
                victim.kill()
                victim.stop()
                victim.start()

            writers, kills = run_writers(base, kill_and_restart)
            check("PostgreSQL, two instances behind nginx", writers, kills, time.monotonic() - started)
        finally:
            process.terminate()
            process.wait(timeout=10)
            for server in servers:
                server.stop()
