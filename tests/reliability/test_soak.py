"""Suite 3 of issue 9, soak: a minute of mixed traffic at 128 connections, with no error, no lost write and no
memory growth.

`trove serve` runs on a fresh SQLite database with every app's small fixtures (as conftest.py's trove_server,
but its own, so the soak's records and memory are only its own). Python makes the sessions first: READERS
guest sessions (one of them signed up to an account), each with a poem, students and a saved class to read,
and CREATORS guest sessions that the creating requests use, so the lists that are read do not grow during the
run. wrk then runs soak.lua (next to this file), which goes round reads and writes of all five apps in turn
(strategies random/today/favourites and favourite toggles, own cards; cities nearby, search, a city, the
collection read and saved; a poem, rhymes, the poems list, poems started; the story catalog, a story, library
adds and removes, reading progress; the yoga roster, stats and venues, students added), every write with
Origin, the session cookie and a JSON body.

First WARMUP_SECONDS of that traffic, then the resident memory of the server (VmRSS), then SECONDS more and the
memory again. Must hold: no non-2xx answer and no socket error or timeout in either run, the server still
running, memory at the end at most RSS_GROWTH_LIMIT × the memory after the warm-up, and no lost write: for
each kind of record created with a unique name (poems, own cards, students), the database holds at least as
many as wrk was answered 201 for, and no more than it sent (a request in flight when wrk stops may have been
applied without wrk seeing the answer). The p99 latency is reported.

No throttle limits this traffic: the only one in the server is the sign-in throttle (5 failed sign-ins per
username in 15 minutes, 429), which the soak does not touch; the size limits (400 magnets and 200 added words
per board, 300 words per word set, 10,000 cities per collection, 500 per import) are far from its bodies.

    TROVE_SOAK_SECONDS  length of the measured run (default 60; the quick pass of `make test` uses 10)
    TROVE_BIN           the server binary (default .build/debug/trove)

Run alone: `.venv/bin/pytest -q --assert=plain tests/reliability/test_soak.py` after a build.
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
import sqlite3
import subprocess
import tempfile
from pathlib import Path

import pytest
import requests

from reliability_support import (
    FakeProviders,
    TroveServer,
    prepare_database,
    report,
    trove_binary,
)

SECONDS = int(os.environ.get("TROVE_SOAK_SECONDS", "60"))
WARMUP_SECONDS = 5
CONNECTIONS = 128
THREADS = 2
WRK_TIMEOUT = "10s"  # an answer slower than this counts as an error (wrk's default is 2 s)
READERS = 25  # sessions every request may come from (odd, so they spread over soak.lua's 24 operations)
CREATORS = 7  # sessions the creating requests come from
RSS_GROWTH_LIMIT = 1.2
SCRIPT = Path(__file__).resolve().with_name("soak.lua")

# What soak.lua creates with unique names, and where the database keeps them.
CREATED = {
    "poems": ("SELECT count(*) FROM poetry_poems WHERE title LIKE 'Soak poem t%'", "POST /api/v1/poetry/poems"),
    "cards": ("SELECT count(*) FROM strategy_cards WHERE text LIKE 'Soak card t%'", "POST /api/v1/strategies/mine"),
    "students": ("SELECT count(*) FROM yoga_students WHERE name LIKE 'Soak student t%'", "POST /api/v1/yoga/students"),
}


def make_sessions(server: TroveServer) -> tuple[list[dict], list[str], list[int]]:
    """READERS sessions (the first one an account) with a poem, three students and a saved class each, and
    CREATORS plain guest sessions; returns them as soak.lua wants them, with the deck's card ids."""
    origin = {"Origin": server.base}

    def call(session, method, path, expected, **kwargs):
        response = session.request(method, server.base + path, headers=origin, timeout=30, **kwargs)
        assert response.status_code == expected, f"setting up: {method} {path} → {response.status_code} {response.text}"
        return response.json() if response.content else None

    def guest() -> requests.Session:
        session = requests.Session()
        assert call(session, "GET", "/api/v1/account/me", 200)["profile"]["is_guest"]
        return session

    readers = []
    for number in range(READERS):
        if number == 0:
            session = requests.Session()
            call(session, "POST", "/api/v1/account/signup", 201,
                 json={"username": f"soak{os.getpid()}{secrets.token_hex(3)}", "password": "soak-" + secrets.token_hex(8)})
        else:
            session = guest()
        poem = call(session, "POST", "/api/v1/poetry/poems", 201, json={"title": f"Read me {number}", "board": {
            "word_set_id": "classics", "font": "serif", "font_scale": 1, "extra_words": [],
            "magnets": [{"id": "m1", "word": "night", "x": 0.1, "y": 0.2, "rotation": 0, "z": 1}]}})
        students = [call(session, "POST", "/api/v1/yoga/students", 201, json={"name": f"Reader {number}.{i}"})["id"]
                    for i in range(3)]
        venue = call(session, "POST", "/api/v1/yoga/venues", 201,
                     json={"name": "Soak studio", "address": "Via Roma 1", "latitude": 43.77, "longitude": 11.25})
        call(session, "POST", "/api/v1/yoga/class", 201, json={"venue_id": venue["id"], "attendees": students})
        call(session, "POST", "/api/v1/yoga/class/end", 201, json={"action": "save"})
        call(session, "PUT", "/api/v1/stories/gull-rock/library", 204)
        readers.append({"cookie": f"trove_session={session.cookies['trove_session']}", "poem": poem["id"]})
    creators = [f"trove_session={guest().cookies['trove_session']}" for _ in range(CREATORS)]
    cards = [card["id"] for card in call(requests.Session(), "GET", "/api/v1/strategies", 200)]
    return readers, creators, cards


def lua_data(base: str, readers: list[dict], creators: list[str], cards: list[int]) -> str:
    def text(value: str) -> str:
        assert re.fullmatch(r"[A-Za-z0-9_\-=:/.]+", value), value
        return f'"{value}"'

    rows = ",\n".join(f"    {{ cookie = {text(r['cookie'])}, poem = {text(r['poem'])} }}" for r in readers)
    return (f"-- written by test_soak.py\nreturn {{\n  origin = {text(base)},\n  readers = {{\n{rows}\n  }},\n"
            f"  creators = {{ {', '.join(text(c) for c in creators)} }},\n"
            f"  cards = {{ {', '.join(str(int(card)) for card in cards)} }},\n}}\n")


def run_wrk(server: TroveServer, data_file: Path, seconds: int) -> dict:
    """One wrk run of soak.lua; returns its SOAK line's figures and its sampled errors (with the server's log
    lines for their request ids)."""
    wrk = shutil.which("wrk")
    if wrk is None:
        pytest.fail("wrk is not installed (scripts/install-test-deps.sh installs it)", pytrace=False)
    command = [wrk, f"-t{THREADS}", f"-c{CONNECTIONS}", f"-d{seconds}s", "--timeout", WRK_TIMEOUT, "--latency",
               "-s", str(SCRIPT), server.base]
    result = subprocess.run(command, capture_output=True, text=True, timeout=seconds + 120,
                            env={**os.environ, "TROVE_SOAK_DATA": str(data_file)}, stdin=subprocess.DEVNULL)
    line = next((line for line in result.stdout.splitlines() if line.startswith("SOAK ")), None)
    if result.returncode != 0 or line is None:
        pytest.fail(f"{' '.join(command)} exited with {result.returncode}\n{result.stdout}{result.stderr}",
                    pytrace=False)
    figures = {key: float(value) for key, value in (pair.split("=", 1) for pair in line.split()[1:])}
    errors = []
    for error in (line for line in result.stdout.splitlines() if line.startswith("SOAK-ERROR ")):
        request_id = re.search(r"request_id=(\S*)", error).group(1)
        logged = [log for log in server.log_lines(request_id) if "Request" not in log or "path" in log]
        errors.append(error + "".join(f"\n        {log}" for log in logged))
    figures["error_samples"] = errors
    figures["output"] = result.stdout
    return figures


def resident_mb(pid: int) -> float:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(re.search(r"^VmRSS:\s+(\d+) kB", status, re.M).group(1)) / 1024


def test_soak():
    """WARMUP_SECONDS then SECONDS of soak.lua's mixed traffic of all five apps at 128 connections: no error
    answer, no socket error, no crash, no lost write (database rows against wrk's 201s for unique records),
    resident memory at the end within 20 % of the memory after the warm-up; p99 reported."""
    binary = trove_binary()
    workdir = Path(tempfile.mkdtemp(prefix="trove-soak-"))
    database = workdir / "trove.sqlite"
    prepare_database(binary, workdir, str(database))
    problems: list[str] = []
    with FakeProviders() as providers:
        server = TroveServer(binary, workdir, database, providers.serve_args())
        server.start()
        try:
            readers, creators, cards = make_sessions(server)
            data_file = workdir / "soak_data.lua"
            data_file.write_text(lua_data(server.base, readers, creators, cards), encoding="utf-8")
            runs = {"warm-up": run_wrk(server, data_file, WARMUP_SECONDS)}
            warm_rss = resident_mb(server.process.pid)
            runs["soak"] = run_wrk(server, data_file, SECONDS)
            crash = server.crashed()
            end_rss = resident_mb(server.process.pid) if crash is None else float("nan")
            if crash is not None:
                problems.append("THE SERVER EXITED during the soak:\n" + crash)
        finally:
            server.stop()

    for name, run in runs.items():
        socket_errors = {key: int(run[key]) for key in ("connect_errors", "read_errors", "write_errors", "timeouts")
                         if run[key]}
        if run["non2xx"]:
            problems.append(f"{name}: {int(run['non2xx'])} answers were not 2xx; the first ones (with the server's "
                            f"log lines for their request ids):\n    " + "\n    ".join(run["error_samples"]))
        if socket_errors:
            problems.append(f"{name}: socket errors {socket_errors} (a timeout is no answer within {WRK_TIMEOUT})")

    stored = {}
    connection = sqlite3.connect(database)
    try:
        for kind, (query, request) in CREATED.items():
            stored[kind] = connection.execute(query).fetchone()[0]
            acknowledged = sum(int(run[f"{kind}_created"]) for run in runs.values())
            sent = sum(int(run[f"{kind}_sent"]) for run in runs.values())
            if stored[kind] < acknowledged:
                problems.append(f"LOST WRITES: {request} was answered 201 {acknowledged} times, the database holds "
                                f"{stored[kind]} of them ({query})")
            if stored[kind] > sent:
                problems.append(f"{request} was sent {sent} times, yet the database holds {stored[kind]} ({query})")
        integrity = [row[0] for row in connection.execute("PRAGMA integrity_check")]
        if integrity != ["ok"]:
            problems.append("PRAGMA integrity_check: " + "; ".join(integrity[:20]))
    finally:
        connection.close()

    soak = runs["soak"]
    lost = sum(max(0, sum(int(r[f"{k}_created"]) for r in runs.values()) - stored[k]) for k in CREATED)
    errors = sum(int(r["non2xx"] + r["connect_errors"] + r["read_errors"] + r["write_errors"] + r["timeouts"])
                 for r in runs.values())
    growth = end_rss / warm_rss - 1
    if not end_rss <= RSS_GROWTH_LIMIT * warm_rss:
        problems.append(f"resident memory grew from {warm_rss:.0f} MB after the warm-up to {end_rss:.0f} MB at the "
                        f"end ({growth:+.0%}; at most {RSS_GROWTH_LIMIT - 1:+.0%} allowed)")
    report(f"soak: {SECONDS} s at {CONNECTIONS} connections, {int(soak['completed']):,} requests "
           f"({soak['writes'] / max(soak['sent'], 1):.0%} writes), {errors} errors, {lost} lost writes "
           f"({', '.join(f'{stored[k]:,} {k}' for k in CREATED)} created in all), RSS {warm_rss:.0f}→{end_rss:.0f} MB "
           f"({growth:+.0%}), p99 {soak['p99_ms']:.0f} ms (p50 {soak['p50_ms']:.1f} ms, "
           f"{soak['completed'] / soak['duration_s']:,.0f} requests/s)")
    if problems:
        output = "\n".join(line for line in soak["output"].splitlines() if not line.startswith("SOAK-ERROR "))
        pytest.fail("soak:\n" + "\n".join(problems) + f"\nserver log: {server.log_path}\nwrk's output of the soak:\n"
                    + output, pytrace=False)
    shutil.rmtree(workdir, ignore_errors=True)
