"""Suite 2 of issue 9, crash safety: `kill -9` in the middle of a burst of writes loses no acknowledged write.

Each test makes a fresh database (SQLite file, or a new PostgreSQL database) with every app's small fixtures,
starts `trove serve` on it and runs ROUNDS rounds of: one writer thread per app loops writing as fast as the
server answers, the server is killed with SIGKILL at a random moment 0.2–1.5 s into the burst, then started
again on the same database and port, and everything every writer had been answered 2xx for is read back through
the API (sessions live in the database, so the same cookies work after the restart).

The writers, each with its own session (guests; the stories writer signs up to an account, which publishing
needs):
    strategies  favourite / unfavourite cards, write own cards
    poetry      start poems and save their boards (PUT with the current version)
    yoga        students, check in a class, change its attendees and notes, end it (saved as a session or
                discarded): a class in session when the kill comes must still be in session afterwards
    stories     add to / remove from the library, move the reading progress (endings reached are
                remembered), publish own stories
    cities      save the collection (exact cities, order and stars), star / unstar collected cities

What must hold is kept per record in a Ledger: its last acknowledged state, and the state the request in flight
at the kill would give it (that request may or may not have applied, so either is accepted; a record whose
last request got no answer is only checked against those two). After each check the ledger takes what the
server shows, so the next round goes on from there. The yoga class's end is also checked to be atomic: the
class is gone exactly when its session is saved.

On SQLite, `PRAGMA integrity_check` must answer "ok" and `PRAGMA foreign_key_check` nothing, after every kill
(on a copy of the database and its write-ahead log, taken before the restart, so the server recovers the log
itself) and once more on the database after the last clean stop.

    TROVE_CRASH_ROUNDS        kills per database (default 20; the quick pass of `make test` uses 3)
    TROVE_CRASH_SEED          replays the kill moments and the writers' choices (printed with every failure)
    TROVE_TEST_POSTGRES_URL   a PostgreSQL server the test may create a database on (required: the
                              PostgreSQL test fails without it), e.g. postgres://trove@127.0.0.1:55432/postgres
    TROVE_BIN                 the server binary (default .build/debug/trove)

Run alone: `.venv/bin/pytest -q --assert=plain tests/reliability/test_crash.py` after a build.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import secrets
import shutil
import sqlite3
import subprocess
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path

import pytest
import requests

from reliability_support import (
    CITIES,
    SAMPLE_STORIES,
    FakeProviders,
    TroveServer,
    prepare_database,
    report,
    trove_binary,
)

ROUNDS = int(os.environ.get("TROVE_CRASH_ROUNDS", "20"))
SEED = int(os.environ.get("TROVE_CRASH_SEED") or random.getrandbits(32))
KILL_AFTER = (0.2, 1.5)  # seconds into the burst, uniformly
REQUEST_TIMEOUT = 15.0  # a request without an answer for this long is a hang, not a kill
JOIN_TIMEOUT = 30.0
POSTGRES_URL = os.environ.get("TROVE_TEST_POSTGRES_URL")

# Caps, so the records read back after every kill stay few.
MAX_POEMS = 6
MAX_STUDENTS = 12
MAX_OWN_STORIES = 25
ACKNOWLEDGED = (200, 201, 204)

ABSENT = "<absent>"  # the state of a record the server does not have
_NOTHING = object()  # no request in flight


class ServerGone(Exception):
    """The request got no answer: the server was killed (or hung; see Ledger.errors)."""


class Record:
    """One observable thing (a favourite, a poem's board, the class in session …): its last acknowledged state
    and, while a request on it is in flight, the state that request would give it."""

    __slots__ = ("acked", "acked_by", "pending", "pending_by")

    def __init__(self, acked, acked_by: str):
        self.acked = acked
        self.acked_by = acked_by
        self.pending = _NOTHING
        self.pending_by = ""


class Ledger:
    """Every write sent and answered, per record (keys are tuples starting with the app's name). Each record is
    written by one writer thread only; the counters are shared."""

    def __init__(self, server: TroveServer, database_kind: str):
        self.server = server
        self.kind = database_kind
        self.records: dict[tuple, Record] = {}
        self.round = 0
        self.acknowledged = 0
        self.in_flight_at_kill = 0
        self.applied_in_flight = 0
        self.errors: list[str] = []
        self._lock = threading.Lock()

    def initial(self, key: tuple, state) -> None:
        self.records[key] = Record(state, "the initial state")

    def state(self, key: tuple, default=ABSENT):
        record = self.records.get(key)
        return default if record is None else record.acked

    def sending(self, updates: dict, request: str) -> None:
        for key, state in updates.items():
            record = self.records.get(key)
            if record is None:
                record = self.records[key] = Record(ABSENT, "nothing (never written before)")
            record.pending = state
            record.pending_by = f"round {self.round}: {request}"

    def answered(self, updates: dict, request: str, status: int) -> None:
        for key, state in updates.items():
            record = self.records[key]
            record.acked = state
            record.acked_by = f"round {self.round}: {request} → {status}"
            record.pending = _NOTHING
        with self._lock:
            self.acknowledged += 1

    def refused(self, updates: dict) -> None:
        """A 4xx that changed nothing: the records keep their states."""
        for key in updates:
            self.records[key].pending = _NOTHING

    def error(self, message: str) -> None:
        with self._lock:
            self.errors.append(f"round {self.round}: {message}")

    def check(self, app: str, observed: dict) -> list[str]:
        """Compares what the server shows of `app`'s records with the ledger; returns one line per lost or
        unexpected state. Then takes the server's states, so writing goes on from them."""
        problems = []
        keys = [key for key in self.records if key[0] == app]
        keys += [key for key in observed if key not in self.records]
        for key in keys:
            actual = observed.get(key, ABSENT)
            record = self.records.get(key)
            if record is None:
                problems.append(f"{key}: the server shows {actual!r}, which no request asked for")
                self.initial(key, actual)
                continue
            in_flight = record.pending is not _NOTHING
            if in_flight:
                self.in_flight_at_kill += 1
            if actual == record.acked:
                pass
            elif in_flight and actual == record.pending:
                self.applied_in_flight += 1
            elif in_flight:
                problems.append(
                    f"{key}: the server shows {actual!r}, neither the last acknowledged state {record.acked!r} "
                    f"(from {record.acked_by}) nor the one of the request in flight at the kill, "
                    f"{record.pending!r} (from {record.pending_by})")
            else:
                problems.append(
                    f"LOST WRITE {key}: {record.acked_by} acknowledged the state {record.acked!r}, but after "
                    f"the kill of round {self.round} the server shows {actual!r}")
            record.acked = actual
            record.pending = _NOTHING
        return problems


class Writer:
    """One app's writer: its own session, a loop of writes, and a read-back of everything it wrote."""

    app = ""

    def __init__(self, server: TroveServer, ledger: Ledger, rng: random.Random):
        self.server = server
        self.ledger = ledger
        self.rng = rng
        self.session = requests.Session()
        self.numbers = 0

    @property
    def headers(self) -> dict[str, str]:
        return {"Origin": self.server.base}

    def tag(self) -> str:
        self.numbers += 1
        return f"r{self.ledger.round}n{self.numbers}"

    def get(self, path: str):
        response = self.session.get(self.server.base + path, timeout=REQUEST_TIMEOUT)
        if response.status_code != 200:
            raise AssertionError(f"reading back: GET {path} → {response.status_code} {response.text[:300]}")
        return response.json()

    def write(self, method: str, path: str, updates: dict, body=None, expected=ACKNOWLEDGED):
        """Sends one write; the ledger records it as in flight, then as acknowledged when answered 2xx."""
        request = f"{method} {path}" + (f" {_short(body)}" if body is not None else "")
        self.ledger.sending(updates, request)
        try:
            response = self.session.request(method, self.server.base + path, json=body, headers=self.headers,
                                            timeout=REQUEST_TIMEOUT)
        except requests.Timeout as error:
            self.ledger.error(f"{request}: no answer within {REQUEST_TIMEOUT:.0f}s ({error})")
            raise ServerGone from error
        except requests.RequestException as error:
            raise ServerGone from error
        if response.status_code in expected:
            self.ledger.answered(updates, request, response.status_code)
            return response
        request_id = response.headers.get("X-Request-Id", "")
        log = "\n".join(f"        {line}" for line in self.server.log_lines(request_id)) or "        (nothing logged)"
        self.ledger.error(f"{request} → {response.status_code} {response.text[:500]}\n"
                          f"    server log for X-Request-Id {request_id}:\n{log}")
        if response.status_code < 500:
            self.ledger.refused(updates)
        raise ServerGone  # this writer stops for this round; the test fails on the error

    def prepare(self) -> None:
        """Once, before the first round: the session and what the writes need (also acknowledged writes)."""
        me = self.get("/api/v1/account/me")
        assert me["profile"]["is_guest"], me

    def run(self, stop: threading.Event) -> None:
        try:
            while not stop.is_set():
                self.step()
        except ServerGone:
            pass
        except BaseException as error:  # a bug of the writer itself must not pass silently
            self.ledger.error(f"{self.app} writer: {type(error).__name__}: {error}")

    def step(self) -> None:
        raise NotImplementedError

    def observe(self) -> dict:
        """The states of this writer's records as the server shows them now."""
        raise NotImplementedError

    def invariants(self, observed: dict) -> list[str]:
        return []


def _short(body, limit: int = 160) -> str:
    text = json.dumps(body, separators=(",", ":"), ensure_ascii=False)
    return text if len(text) <= limit else text[:limit] + "…"


class StrategiesWriter(Writer):
    """Oblique Strategies as a guest: favourite toggles, own cards."""

    app = "strategies"

    def prepare(self) -> None:
        super().prepare()
        self.cards = [card["id"] for card in self.get("/api/v1/strategies")]
        for card in self.cards:
            self.ledger.initial(("strategies", "favourite", card), False)

    def step(self) -> None:
        if self.rng.random() < 0.8:
            card = self.rng.choice(self.cards)
            key = ("strategies", "favourite", card)
            favourite = not self.ledger.state(key)
            self.write("PUT" if favourite else "DELETE", f"/api/v1/strategies/{card}/favourite", {key: favourite})
        else:
            text = f"Crash card {self.tag()}"
            self.write("POST", "/api/v1/strategies/mine", {("strategies", "own", text): True}, {"strategy": text})

    def observe(self) -> dict:
        favourites = {card["id"] for card in self.get("/api/v1/strategies/favourites")}
        observed = {("strategies", "favourite", card): card in favourites for card in self.cards}
        observed.update({("strategies", "own", card["strategy"]): True for card in self.get("/api/v1/strategies/mine")})
        return observed


class PoetryWriter(Writer):
    """Magnetic Poetry as a guest: poems started (a unique title each) and their boards saved with the current
    version; a record is a poem's (version, magnets)."""

    app = "poetry"

    def prepare(self) -> None:
        super().prepare()
        self.ids: dict[str, str] = {}  # title → poem id

    def board(self) -> tuple[dict, tuple]:
        words = ["love", "dream", "night", "you", "we", "the", "and", "when"]  # of the built-in "classics" set
        magnets = [{"id": f"m{i}", "word": self.rng.choice(words), "x": self.rng.randrange(1000) / 1000,
                    "y": self.rng.randrange(1000) / 1000, "rotation": self.rng.randrange(-20, 21), "z": i + 1}
                   for i in range(self.rng.randrange(1, 8))]
        board = {"word_set_id": "classics", "font": self.rng.choice(["serif", "sans", "mono"]), "font_scale": 1,
                 "extra_words": [], "magnets": magnets}
        return board, _board_signature(board)

    def step(self) -> None:
        poems = [title for title in self.ids if self.ledger.state(("poetry", "poem", title)) != ABSENT]
        board, signature = self.board()
        if len(poems) < MAX_POEMS and (len(poems) < 2 or self.rng.random() < 0.2):
            title = f"Crash poem {self.tag()}"
            response = self.write("POST", "/api/v1/poetry/poems", {("poetry", "poem", title): (1, signature)},
                                  {"title": title, "board": board})
            created = response.json()
            self.ids[title] = created["id"]
            if created["version"] != 1:
                self.ledger.error(f"POST /api/v1/poetry/poems answered version {created['version']}, not 1")
        else:
            title = self.rng.choice(poems)
            key = ("poetry", "poem", title)
            version = self.ledger.state(key)[0]
            response = self.write("PUT", f"/api/v1/poetry/poems/{self.ids[title]}", {key: (version + 1, signature)},
                                  {"version": version, "title": title, "board": board})
            if response.json()["version"] != version + 1:
                self.ledger.error(f"PUT of poem {title!r} at version {version} answered version "
                                  f"{response.json()['version']}, not {version + 1}")

    def observe(self) -> dict:
        observed = {}
        for poem in self.get("/api/v1/poetry/poems"):
            full = self.get(f"/api/v1/poetry/poems/{poem['id']}")
            self.ids[poem["title"]] = poem["id"]
            observed[("poetry", "poem", poem["title"])] = (full["version"], _board_signature(full["board"]))
        return observed


def _board_signature(board: dict) -> tuple:
    return (board["font"],) + tuple((m["id"], m["word"], float(m["x"]), float(m["y"]), m["rotation"])
                                    for m in board["magnets"])


class YogaWriter(Writer):
    """YogiYogini as a guest: a venue and students, then classes checked in, changed (attendees, notes) and
    ended, saved or discarded. Each class's notes start with a unique tag, which its saved session keeps."""

    app = "yoga"

    def prepare(self) -> None:
        super().prepare()
        self.venue = self.write("POST", "/api/v1/yoga/venues", {},
                                {"name": "Crash studio", "address": "Via Roma 1", "latitude": 43.77,
                                 "longitude": 11.25}).json()["id"]
        self.students: dict[str, str] = {}  # name → id
        self.ledger.initial(("yoga", "class"), None)
        self.ending: tuple[str, bool] | None = None  # the tag of a class whose end-and-save is in flight
        for _ in range(4):
            self.add_student()

    def add_student(self) -> None:
        name = f"Student {self.tag()}"
        created = self.write("POST", "/api/v1/yoga/students", {("yoga", "student", name): True}, {"name": name})
        self.students[name] = created.json()["id"]

    def step(self) -> None:
        key = ("yoga", "class")
        running = self.ledger.state(key)
        ids = list(self.students.values())
        if self.rng.random() < 0.05 and len(self.students) < MAX_STUDENTS:
            self.add_student()
        elif running is None:
            attendees = frozenset(self.rng.sample(ids, self.rng.randrange(1, 4)))
            notes = f"Crash class {self.tag()} #0"
            self.write("POST", "/api/v1/yoga/class", {key: (self.venue, attendees, notes)},
                       {"venue_id": self.venue, "attendees": sorted(attendees), "notes": notes}, expected=(201,))
        else:
            venue, attendees, notes = running
            tag, number = notes.rsplit(" #", 1)
            choice = self.rng.random()
            if choice < 0.6:
                add = self.rng.sample(ids, self.rng.randrange(0, 3))
                remove = self.rng.sample(sorted(attendees), self.rng.randrange(0, min(2, len(attendees)) + 1))
                new_notes = f"{tag} #{int(number) + 1}"
                new_attendees = (attendees | set(add)) - set(remove)
                self.write("PATCH", "/api/v1/yoga/class", {key: (venue, frozenset(new_attendees), new_notes)},
                           {"add": add, "remove": remove, "notes": new_notes})
            elif choice < 0.9:
                self.ending = tag
                self.write("POST", "/api/v1/yoga/class/end",
                           {key: None, ("yoga", "session", tag): (attendees, notes)}, {"action": "save"}, expected=(201,))
                self.ending = None
            else:
                self.write("POST", "/api/v1/yoga/class/end", {key: None}, {"action": "discard"}, expected=(200,))

    def observe(self) -> dict:
        running = self.get("/api/v1/yoga/class")["class"]
        observed = {("yoga", "class"): None if running is None else (
            running["venue"]["id"], frozenset(a["id"] for a in running["attendees"]), running["notes"])}
        for session in self.get("/api/v1/yoga/sessions")["sessions"]:
            tag = session["notes"].rsplit(" #", 1)[0]
            observed[("yoga", "session", tag)] = (frozenset(a["id"] for a in session["attendees"]), session["notes"])
        for student in self.get("/api/v1/yoga/students")["students"]:
            observed[("yoga", "student", student["name"])] = True
            self.students[student["name"]] = student["id"]
        return observed

    def invariants(self, observed: dict) -> list[str]:
        """Ending a class and saving its session is one transaction: the class is gone exactly when the session
        is there."""
        if self.ending is None:
            return []
        tag, self.ending = self.ending, None
        ended = observed.get(("yoga", "class")) is None
        saved = ("yoga", "session", tag) in observed
        if ended != saved:
            return [f"the end of class {tag!r} (POST /api/v1/yoga/class/end, save, in flight at the kill) applied "
                    f"in part: class {'gone' if ended else 'still in session'}, its session "
                    f"{'saved' if saved else 'missing'}"]
        return []


class StoriesWriter(Writer):
    """Choose Your Destiny signed in to an account: library adds and removes, reading progress along the
    stories' choices (endings reached are remembered), own stories published."""

    app = "stories"

    def prepare(self) -> None:
        username = f"crash{os.getpid()}{secrets.token_hex(3)}"
        response = self.session.post(f"{self.server.base}/api/v1/account/signup", headers=self.headers,
                                     json={"username": username, "password": "crash-" + secrets.token_hex(8)},
                                     timeout=REQUEST_TIMEOUT)
        assert response.status_code == 201, f"sign-up as {username}: {response.status_code} {response.text}"
        self.graphs: dict[str, dict[str, list[str]]] = {}
        self.first: dict[str, str] = {}
        for story in SAMPLE_STORIES:
            chapters = self.get(f"/api/v1/stories/{story}")["chapters"]
            self.graphs[story] = {c["id"]: [choice["chapter_id"] for choice in c.get("choices") or []] for c in chapters}
            self.first[story] = self.get(f"/api/v1/stories/{story}/progress")["chapter_id"]
            self.ledger.initial(("stories", "library", story), False)
            self.ledger.initial(("stories", "progress", story), (self.first[story],))
            self.ledger.initial(("stories", "endings", story), frozenset())
        self.own: list[str] = []

    def step(self) -> None:
        choice = self.rng.random()
        if choice < 0.3:
            story = self.rng.choice(SAMPLE_STORIES)
            key = ("stories", "library", story)
            add = not self.ledger.state(key)
            self.write("PUT" if add else "DELETE", f"/api/v1/stories/{story}/library", {key: add})
        elif choice < 0.93 or len(self.own) >= MAX_OWN_STORIES:
            story = self.rng.choice(SAMPLE_STORIES)
            path = [self.first[story]]
            for _ in range(self.rng.randrange(0, 8)):
                onward = self.graphs[story][path[-1]]
                if not onward:
                    break
                path.append(self.rng.choice(onward))
            updates = {("stories", "progress", story): tuple(path)}
            if not self.graphs[story][path[-1]]:
                endings = ("stories", "endings", story)
                updates[endings] = self.ledger.state(endings) | {path[-1]}
            self.write("PUT", f"/api/v1/stories/{story}/progress", updates, {"chapter_id": path[-1], "path": path})
        else:
            story_id = f"crash-{os.getpid()}-{self.tag()}".lower()
            self.own.append(story_id)
            body = {"story": {"id": story_id, "name": f"Crash story {story_id}", "chapters": [
                {"id": 1, "name": "Start", "text": "The lights go out.", "is_first_chapter": True,
                 "choices": [{"chapter_id": 2, "text": "Wait"}]},
                {"id": 2, "name": "End", "text": "They come back on."}]}}
            self.write("POST", "/api/v1/stories", {("stories", "own", story_id): True}, body, expected=(201,))

    def observe(self) -> dict:
        library = {story["id"] for story in self.get("/api/v1/stories/library")["stories"]}
        observed = {}
        for story in SAMPLE_STORIES:
            progress = self.get(f"/api/v1/stories/{story}/progress")
            observed[("stories", "library", story)] = story in library
            observed[("stories", "progress", story)] = tuple(progress["path"])
            observed[("stories", "endings", story)] = frozenset(progress["endings_found"])
            if progress["path"][-1] != progress["chapter_id"]:
                self.ledger.error(f"progress of {story} ends at {progress['path'][-1]}, not at its chapter "
                                  f"{progress['chapter_id']}")
        for story_id in self.own:
            response = self.session.get(f"{self.server.base}/api/v1/stories/{story_id}", timeout=REQUEST_TIMEOUT)
            if response.status_code == 200:
                observed[("stories", "own", story_id)] = True
            elif response.status_code != 404:
                raise AssertionError(f"reading back: GET /api/v1/stories/{story_id} → {response.status_code}")
        return observed


class CitiesWriter(Writer):
    """City Roulette as a guest: the collection saved whole (exact cities, order and stars), and stars put on
    and taken off collected cities; the record is the collection as (geonameid, favourite) in order."""

    app = "cities"

    def prepare(self) -> None:
        super().prepare()
        self.ledger.initial(("cities", "collection"), ())

    def step(self) -> None:
        key = ("cities", "collection")
        collection = self.ledger.state(key)
        if not collection or self.rng.random() < 0.6:
            cities = self.rng.sample([city[0] for city in CITIES], self.rng.randrange(1, len(CITIES) + 1))
            new = tuple((geonameid, self.rng.random() < 0.4) for geonameid in cities)
            self.write("PUT", "/api/v1/cities/collection", {key: new},
                       {"cities": [{"geonameid": g, "favourite": f} for g, f in new]})
        else:
            index = self.rng.randrange(len(collection))
            geonameid, favourite = collection[index]
            new = collection[:index] + ((geonameid, not favourite),) + collection[index + 1:]
            self.write("DELETE" if favourite else "PUT", f"/api/v1/cities/collection/{geonameid}/favourite", {key: new})

    def observe(self) -> dict:
        cities = self.get("/api/v1/cities/collection")["cities"]
        return {("cities", "collection"): tuple((city["geonameid"], city["favourite"]) for city in cities)}


WRITERS = (StrategiesWriter, PoetryWriter, YogaWriter, StoriesWriter, CitiesWriter)


def sqlite_checks(database: Path) -> list[str]:
    """PRAGMA integrity_check and foreign_key_check on the file (the server must not be running)."""
    connection = sqlite3.connect(database, timeout=30)
    try:
        integrity = [row[0] for row in connection.execute("PRAGMA integrity_check")]
        foreign = connection.execute("PRAGMA foreign_key_check").fetchall()
    finally:
        connection.close()
    problems = []
    if integrity != ["ok"]:
        problems.append("PRAGMA integrity_check: " + "; ".join(integrity[:20]))
    if foreign:
        problems.append(f"PRAGMA foreign_key_check: {len(foreign)} rows, e.g. {foreign[:10]}")
    return problems


def sqlite_checks_of_copy(database: Path) -> list[str]:
    """sqlite_checks on a copy of the killed server's files (the database and its write-ahead log), so that
    the restarted server itself recovers the log it left, as it would after a real crash."""
    copy = database.parent / "after-kill"
    shutil.rmtree(copy, ignore_errors=True)
    copy.mkdir()
    for suffix in ("", "-wal", "-journal"):
        source = Path(str(database) + suffix)
        if source.exists():
            shutil.copyfile(source, copy / (database.name + suffix))
    try:
        return sqlite_checks(copy / database.name)
    finally:
        shutil.rmtree(copy, ignore_errors=True)


def crash_rounds(binary: str, workdir: Path, database: str, kind: str, sqlite_file: Path | None, rounds: int = ROUNDS,
                 terminate: bool = False) -> Ledger:
    """`rounds` rounds of burst, kill -9 (or with `terminate`, SIGTERM: the server must finish what it has in
    flight, close the database and exit 0 within 20 s), restart and read-back against `database`; fails the test
    with every lost write, error answer and integrity problem found."""
    rng = random.Random(f"{SEED}-{kind}")
    failures: list[str] = []
    with FakeProviders() as providers:
        server = TroveServer(binary, workdir, database, providers.serve_args())
        ledger = Ledger(server, kind)
        server.start()
        try:
            writers = [cls(server, ledger, random.Random(rng.random())) for cls in WRITERS]
            for writer in writers:
                writer.prepare()
            for number in range(1, rounds + 1):
                ledger.round = number
                stop = threading.Event()
                threads = [threading.Thread(target=w.run, args=(stop,), name=f"crash-{w.app}", daemon=True)
                           for w in writers]
                for thread in threads:
                    thread.start()
                time.sleep(rng.uniform(*KILL_AFTER))
                if terminate:
                    code = server.terminate()
                    if code != 0:
                        failures.append(f"round {number}: after SIGTERM the server exited with {code} (None: still running "
                                        f"after 20 s), not 0")
                    wal = Path(f"{sqlite_file}-wal") if sqlite_file is not None else None
                    if wal is not None and wal.exists() and wal.stat().st_size > 0:
                        failures.append(f"round {number}: after SIGTERM the write-ahead log still holds {wal.stat().st_size:,} "
                                        "bytes: the database was not closed cleanly")
                else:
                    server.kill()  # SIGKILL, on purpose: not a crash for conftest's check
                stop.set()
                for thread in threads:
                    thread.join(JOIN_TIMEOUT)
                    if thread.is_alive():
                        failures.append(f"round {number}: writer {thread.name} did not stop within {JOIN_TIMEOUT:.0f}s")
                server.stop()  # closes its log
                for writer in writers:
                    writer.session.close()  # drop the connections to the dead server; the cookies stay
                if sqlite_file is not None and not terminate:
                    failures += [f"round {number}, after the kill: {p}" for p in sqlite_checks_of_copy(sqlite_file)]
                if sqlite_file is not None and terminate:
                    failures += [f"round {number}, after SIGTERM: {p}" for p in sqlite_checks(sqlite_file)]
                server.start()
                for writer in writers:
                    try:
                        observed = writer.observe()
                    except (AssertionError, requests.RequestException) as error:
                        failures.append(f"round {number}: reading back the {writer.app} records after the restart "
                                        f"failed: {error}")
                        break
                    failures += [f"round {number}: {p}" for p in writer.invariants(observed)]
                    failures += [f"round {number}: {p}" for p in ledger.check(writer.app, observed)]
                if failures or ledger.errors:
                    break  # later rounds would pile up consequences of the first problem
        finally:
            server.stop()
    if sqlite_file is not None and not failures:
        failures += [f"after the last clean stop: {p}" for p in sqlite_checks(sqlite_file)]
    failures += ledger.errors
    if failures:
        pytest.fail(f"crash safety on {kind} (TROVE_CRASH_SEED={SEED} replays it), {ledger.round} of {rounds} rounds "
                    f"run, {ledger.acknowledged} acknowledged writes:\n" + "\n".join(failures) +
                    f"\nserver log: {server.log_path}", pytrace=False)
    return ledger


def summary(kind: str, ledger: Ledger, integrity: str, seconds: float) -> str:
    return (f"crash ({kind}): {ROUNDS} kills, {ledger.acknowledged:,} acknowledged writes, 0 lost, {integrity} "
            f"({ledger.in_flight_at_kill} records with a write in flight at a kill, {ledger.applied_in_flight} of "
            f"them applied; {seconds:.0f} s)")


def test_crash_sqlite():
    """ROUNDS × (burst of writes from every app, kill -9 at a random moment, restart) on a SQLite file: every
    write answered 2xx is still there, integrity_check says ok and foreign_key_check finds nothing, after
    every kill and at the end."""
    binary = trove_binary()
    started = time.monotonic()
    workdir = Path(tempfile.mkdtemp(prefix="trove-crash-sqlite-"))
    database = workdir / "trove.sqlite"
    prepare_database(binary, workdir, str(database))
    ledger = crash_rounds(binary, workdir, str(database), "SQLite", database)
    report(summary("SQLite", ledger, "integrity ok", time.monotonic() - started))
    shutil.rmtree(workdir, ignore_errors=True)


def _psql(url: str, sql: str) -> None:
    psql = shutil.which("psql")
    if psql is None:
        pytest.fail("psql is not installed: the PostgreSQL crash test creates its database with it", pytrace=False)
    result = subprocess.run([psql, url, "-v", "ON_ERROR_STOP=1", "-q", "-c", sql], capture_output=True, text=True,
                            timeout=60, stdin=subprocess.DEVNULL)
    if result.returncode != 0:
        pytest.fail(f"psql {url} -c {sql!r} failed:\n{result.stdout}{result.stderr}", pytrace=False)


@contextlib.contextmanager
def fresh_postgres_database(kind: str):
    """A new PostgreSQL database on $TROVE_TEST_POSTGRES_URL with every app's fixtures, and a work folder: yields
    (its URL, the folder); dropped afterwards."""
    if not POSTGRES_URL:
        pytest.fail("TROVE_TEST_POSTGRES_URL is not set: this test needs a PostgreSQL server to create a database on, "
                    "e.g. TROVE_TEST_POSTGRES_URL=postgres://trove@127.0.0.1:55432/postgres", pytrace=False)
    name = f"trove_{kind}_{os.getpid()}_{secrets.token_hex(4)}"
    database = urllib.parse.urlunsplit(urllib.parse.urlsplit(POSTGRES_URL)._replace(path="/" + name))
    workdir = Path(tempfile.mkdtemp(prefix=f"trove-{kind}-postgres-"))
    _psql(POSTGRES_URL, f'CREATE DATABASE "{name}"')
    try:
        prepare_database(trove_binary(), workdir, database)
        yield database, workdir
    finally:
        _psql(POSTGRES_URL, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        shutil.rmtree(workdir, ignore_errors=True)


def test_crash_postgres():
    """The same rounds on a fresh PostgreSQL database ($TROVE_TEST_POSTGRES_URL), the server process killed:
    every write answered 2xx is still there, and the server starts and answers after every kill."""
    started = time.monotonic()
    with fresh_postgres_database("crash") as (database, workdir):
        ledger = crash_rounds(trove_binary(), workdir, database, "PostgreSQL", None)
    report(summary("PostgreSQL", ledger, "the server started and answered after every kill",
                   time.monotonic() - started))


def test_sigterm_during_a_burst_loses_nothing_and_exits_0_sqlite():
    """SIGTERM, as systemd stops the service, in the middle of every app's writes: the server finishes the
    requests in flight, closes the database (the write-ahead log checkpointed away) and exits 0; every write
    answered 2xx is there after a restart, and integrity_check says ok. Three stops."""
    binary = trove_binary()
    started = time.monotonic()
    workdir = Path(tempfile.mkdtemp(prefix="trove-sigterm-sqlite-"))
    database = workdir / "trove.sqlite"
    prepare_database(binary, workdir, str(database))
    ledger = crash_rounds(binary, workdir, str(database), "SQLite", database, rounds=3, terminate=True)
    report(f"SIGTERM (SQLite): 3 stops, each exit 0 with the log checkpointed, {ledger.acknowledged:,} acknowledged "
           f"writes, 0 lost ({time.monotonic() - started:.0f} s)")
    shutil.rmtree(workdir, ignore_errors=True)


def test_sigterm_during_a_burst_loses_nothing_and_exits_0_postgres():
    """The same three SIGTERM stops on a fresh PostgreSQL database."""
    started = time.monotonic()
    with fresh_postgres_database("sigterm") as (database, workdir):
        ledger = crash_rounds(trove_binary(), workdir, database, "PostgreSQL", None, rounds=3, terminate=True)
    report(f"SIGTERM (PostgreSQL): 3 stops, each exit 0, {ledger.acknowledged:,} acknowledged writes, 0 lost "
           f"({time.monotonic() - started:.0f} s)")
