"""Suite 1 of issue 9, API fuzzing: schemathesis against a live `trove serve` and its OpenAPI document.

Every operation of Sources/WebApp/APIDocument/openapi.json is called with generated requests (valid and invalid
ones: explicit examples, schemathesis's coverage phase of boundary values, then Hypothesis fuzzing), once as a
guest and once signed in to an account. Every answer must be no 5xx (and no crash), a documented status code,
a documented content type and a body that matches the documented schema.

So that generated requests reach real records and not only 404s, each identity first creates one of each of
its own resources (a card, a word set, a poem with a background, published; a student type, a student, a venue,
a saved class; a story in the library and, for the account, a published story of its own), and the fuzzing
phase swaps a path parameter for one of those ids about half the time (`flatmap_path_parameters`).

    TROVE_FUZZ_EXAMPLES   fuzzing examples per operation and identity (default 10; `make fuzz` uses 100)
    TROVE_FUZZ_SEED       replay a run: the seed is printed in the summary and with every failure
    TROVE_FUZZ_COVERAGE   0 skips schemathesis's coverage phase (boundary and invalid values, ~2,700 requests
                          per identity whatever the number of examples); 1, the default, keeps it
    TROVE_FUZZ_ALL_CHECKS 1 runs every schemathesis check, not only those four (for exploring)
    TROVE_BIN             the server binary (default .build/debug/trove)

Run alone: `make fuzz`, or `.venv/bin/pytest -q tests/reliability/test_fuzz.py` after a build;
`-k 'poems and account'` picks operations and identities.
"""

from __future__ import annotations

import base64
import collections
import itertools
import json
import os
import random
import secrets
from pathlib import Path

import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from reliability_support import CITIES, COUNTRIES

EXAMPLES = int(os.environ.get("TROVE_FUZZ_EXAMPLES", "10"))
SEED = int(os.environ.get("TROVE_FUZZ_SEED") or random.getrandbits(64))
COVERAGE = os.environ.get("TROVE_FUZZ_COVERAGE", "1") != "0"
DOCUMENT = Path(__file__).resolve().parents[2] / "Sources" / "WebApp" / "APIDocument" / "openapi.json"

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]
# TROVE_FUZZ_ALL_CHECKS=1 adds every other check schemathesis has (for exploring: invalid data the server
# accepts, valid data it refuses, documented headers, methods it should refuse, …); not part of the suite's pass.
if os.environ.get("TROVE_FUZZ_ALL_CHECKS") == "1":
    CHECKS = None  # validate_response then runs schemathesis's whole default set

# Signing out (here or everywhere), changing the password and deleting the profile run on a throwaway session each (a
# new guest, or a new account for the signed-in pass); signing up and in on a second session of the identity's, made
# again whenever one succeeds. So the session the other operations share keeps its profile and its records, and its
# username's sign-in throttle is not spent on the password change's wrong guesses.
THROWAWAY_SESSION = {
    ("POST", "/api/v1/account/logout"), ("POST", "/api/v1/account/logout-everywhere"), ("POST", "/api/v1/account/password"),
    ("DELETE", "/api/v1/account"),
}
SIDE_SESSION = {("POST", "/api/v1/account/signup"), ("POST", "/api/v1/account/login")}

# Requests and status codes per identity, for the summary line (see pytest_terminal_summary in conftest.py).
STATISTICS: dict[str, collections.Counter] = {}

PNG_1X1 = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGNgAAAAAgABSK+kcQAAAABJRU5ErkJggg==")


def known_kind(path: str, name: str) -> str | None:
    """Which of an identity's known ids fits path parameter `name` of the operation at `path`."""
    prefixes = [
        ("/api/v1/strategies/mine/", "own_card"), ("/api/v1/strategies/history/", "history"),
        ("/api/v1/strategies/", "card"), ("/api/oblique/id/", "card"),
        ("/api/v1/poetry/wordsets/", "wordset"), ("/api/v1/poetry/poems/", "poem"),
        ("/api/v1/poetry/published/", "public_poem"),
        ("/api/v1/cities/countries/", "iso"), ("/api/v1/cities/", "geonameid"),
        ("/api/v1/yoga/students/", "student"), ("/api/v1/yoga/student-types/", "student_type"),
        ("/api/v1/yoga/venues/", "venue"), ("/api/v1/yoga/sessions/", "yoga_session"),
        ("/api/v1/stories/", "story"),
    ]
    if path.startswith("/api/oblique/edition/"):
        return {"edition": "edition", "number": "cardnumber"}.get(name)
    if path.startswith("/api/v1/stories/") and name == "name":
        return "resource"
    return next((kind for prefix, kind in prefixes if path.startswith(prefix)), None)


class Identity:
    """Who the generated requests come from: a guest profile (the cookie the server hands out on the first
    request) or a signed-in account (POST /api/v1/account/signup). Every request is sent as same-origin, as
    the pages' own requests are (an Origin header equal to the server's), so CrossSiteRequestMiddleware lets it
    through."""

    _numbers = itertools.count(1)
    current: Identity | None = None  # the identity of the running test, for flatmap_path_parameters

    def __init__(self, server, kind: str):
        self.server = server
        self.kind = kind
        self.session: requests.Session | None = None
        self.side_session: requests.Session | None = None
        self.username: str | None = None
        self.known: dict[str, list] = {}
        self.seeded = False
        self.statistics = STATISTICS.setdefault(kind, collections.Counter())

    @property
    def headers(self) -> dict[str, str]:
        return {"Origin": self.server.base}

    def new_session(self) -> requests.Session:
        session = requests.Session()
        if self.kind == "account":
            username = f"fuzz{os.getpid()}x{next(self._numbers)}"
            response = session.post(f"{self.server.base}/api/v1/account/signup", headers=self.headers,
                                    json={"username": username, "password": "fuzz-" + secrets.token_hex(8)},
                                    timeout=30)
            assert response.status_code == 201, f"sign-up as {username}: {response.status_code} {response.text}"
            session.username = username
        else:
            response = session.get(f"{self.server.base}/api/v1/account/me", timeout=30)
            assert response.status_code == 200 and response.json()["profile"]["is_guest"], response.text
        assert "trove_session" in session.cookies, "the server gave no trove_session cookie"
        return session

    def session_for(self, case) -> requests.Session:
        key = (case.method.upper(), case.path)
        if key in THROWAWAY_SESSION:
            return self.new_session()
        if key in SIDE_SESSION:
            if self.side_session is None:
                self.side_session = self.new_session()
            return self.side_session
        if self.session is None:
            self.session = self.new_session()
            self.username = getattr(self.session, "username", None)
            self.seeded = False
        if not self.seeded:
            self.known = self.seed(self.session)
            self.seeded = True
        return self.session

    def seed(self, session: requests.Session) -> dict[str, list]:
        """Creates one of each of this profile's resources; returns the ids path parameters may take."""
        base = self.server.base

        def call(method: str, path: str, expected: int = 200, headers: dict | None = None, **kwargs):
            response = session.request(method, base + path, headers={**self.headers, **(headers or {})}, timeout=30,
                                       **kwargs)
            assert response.status_code == expected, f"seeding: {method} {path} → {response.status_code} {response.text}"
            return response.json() if response.content else None

        n = next(self._numbers)
        known: dict[str, list] = {
            "edition": [1, 2], "cardnumber": [1, 2, 3],
            "geonameid": [city[0] for city in CITIES], "iso": list(COUNTRIES),
            "story": ["gull-rock", "after-closing"], "resource": ["cover.svg", "lighthouse.svg"],
        }
        cards = call("GET", "/api/v1/strategies")
        own = call("POST", "/api/v1/strategies/mine", 201, json={"strategy": f"Fuzz the seams {n}"})
        known["own_card"] = [own["id"]]
        known["card"] = [card["id"] for card in cards[:3]] + [own["id"]]
        call("PUT", f"/api/v1/strategies/{cards[0]['id']}/favourite", 204)
        call("POST", "/api/v1/strategies/shuffle/draw")
        known["history"] = [entry["id"] for entry in call("GET", "/api/v1/strategies/history")[:2]]

        wordset = call("POST", "/api/v1/poetry/wordsets", 201, json={"name": f"fuzz {n}", "words": ["moon", "cat", "sea"]})
        known["wordset"] = [wordset["id"], "classics"]
        board = {"word_set_id": wordset["id"], "font": "serif", "font_scale": 1, "extra_words": ["fuzz"],
                 "magnets": [{"id": "m1", "word": "moon", "x": 0.1, "y": 0.2, "rotation": 5, "z": 1}]}
        poem = call("POST", "/api/v1/poetry/poems", 201, json={"title": "Fuzz", "board": board})
        call("POST", f"/api/v1/poetry/poems/{poem['id']}/background", 201, data=PNG_1X1,
             headers={"Content-Type": "image/png"})
        published = call("POST", f"/api/v1/poetry/poems/{poem['id']}/publish")
        known["poem"] = [poem["id"]]
        known["public_poem"] = [published["public_id"]]

        call("POST", "/api/v1/cities/collection/import",
             json={"cities": [{"geonameid": city[0], "favourite": i == 0} for i, city in enumerate(CITIES[:3])]})

        kind = call("POST", "/api/v1/yoga/student-types", 201, json={"name": f"Fuzz type {n}"})
        student = call("POST", "/api/v1/yoga/students", 201, json={"name": f"Ada {n}", "type_id": kind["id"]})
        venue = call("POST", "/api/v1/yoga/venues", 201,
                     json={"name": f"Studio {n}", "address": "Via Roma 1", "latitude": 43.77, "longitude": 11.25})
        call("GET", "/api/v1/yoga/class")  # a class left open by the fuzzer is discarded first
        session.post(base + "/api/v1/yoga/class/end", headers=self.headers, json={"action": "discard"}, timeout=30)
        call("POST", "/api/v1/yoga/class", 201, json={"venue_id": venue["id"], "attendees": [student["id"]]})
        ended = call("POST", "/api/v1/yoga/class/end", 201, json={"action": "save"})
        known["student_type"] = [kind["id"]]
        known["student"] = [student["id"]]
        known["venue"] = [venue["id"]]
        known["yoga_session"] = [ended["session"]["id"]]

        call("PUT", "/api/v1/stories/gull-rock/library", 204)
        if self.kind == "account":
            story = {"story": {"id": f"fuzz-{os.getpid()}-{n}", "name": "Fuzz", "chapters": [
                {"id": 1, "name": "Start", "text": "Hello", "is_first_chapter": True,
                 "choices": [{"chapter_id": 2, "text": "On"}]},
                {"id": 2, "name": "End", "text": "Bye"}]}}
            known["story"].append(call("POST", "/api/v1/stories", 201, json=story)["id"])
        return known

    def after(self, case, response) -> None:
        self.statistics["requests"] += 1
        self.statistics[response.status_code] += 1
        if (case.method.upper(), case.path) in SIDE_SESSION and 200 <= response.status_code < 300:
            self.side_session = None
        # A deleted seed is made again before the next request, so later operations still find records.
        if case.method.upper() == "DELETE" and case.path_parameters and 200 <= response.status_code < 300:
            self.seeded = False

    def reproduction_note(self, case, response) -> str:
        """How to replay the failing request by hand, and what the server logged for it."""
        base = self.server.base
        case_key = (case.method.upper(), case.path)
        if self.kind == "account":
            login = (f"curl -s -c jar -H 'Origin: {base}' -H 'Content-Type: application/json' "
                     f"-d '{{\"username\":\"fuzzme\",\"password\":\"correct horse\"}}' {base}/api/v1/account/signup")
        else:
            login = f"curl -s -c jar {base}/api/v1/account/me"
        request_id = response.headers.get("X-Request-Id", "") if response is not None else ""
        lines = [
            f"identity: {self.kind}" + (f" ({self.username})" if self.username and case_key not in THROWAWAY_SESSION
                                        | SIDE_SESSION else ""),
            f"replay the run: TROVE_FUZZ_SEED={SEED} TROVE_FUZZ_EXAMPLES={EXAMPLES} (same operations selected)",
            "by hand, against a server started as tests/reliability/conftest.py does: first",
            f"    {login}",
            "then the curl command above with `-b jar` instead of its Cookie header (ids of seeded records differ).",
        ]
        if request_id:
            lines.append(f"server log for X-Request-Id {request_id}:")
            lines += [f"    {line}" for line in self.server.log_lines(request_id)] or ["    (nothing logged)"]
        return "\n".join(lines)


@pytest.fixture(scope="module", params=["guest", "account"])
def identity(request, trove_server):
    """Parametrizes every operation's test: first as a guest, then signed in."""
    identity = Identity(trove_server, request.param)
    identity.session = identity.new_session()
    identity.username = getattr(identity.session, "username", None)
    identity.known = identity.seed(identity.session)  # a failure here is the suite's, not the fuzzer's
    identity.seeded = True
    return identity


@pytest.fixture(autouse=True)
def _current_identity(request):
    if "identity" in request.fixturenames:
        Identity.current = request.getfixturevalue("identity")
    yield
    Identity.current = None


# Story uploads may be zips (POST/PUT /api/v1/stories): send the generated body as raw bytes, as for any file.
schemathesis.serializer.alias("application/zip", "application/octet-stream")


def _document_for_fuzzing() -> dict:
    """openapi.json with its one outside reference (POST/PUT /api/v1/stories: `$ref` to the story format,
    served at /api/v1/stories/schema.json from APIDocument/story.schema.json) replaced by that file's schema,
    since a document read from disk cannot follow a reference to a URL path."""
    document = json.loads(DOCUMENT.read_text(encoding="utf-8"))
    story_schema = json.loads((DOCUMENT.parent / "story.schema.json").read_text(encoding="utf-8"))
    for key in ("$schema", "$id"):
        story_schema.pop(key, None)

    def inline(node):
        if isinstance(node, dict):
            if node.get("$ref") == "/api/v1/stories/schema.json":
                return dict(story_schema)
            return {key: inline(value) for key, value in node.items()}
        if isinstance(node, list):
            return [inline(value) for value in node]
        return node

    return inline(document)


# The document is read from the source tree when pytest collects (one item per operation and identity);
# test_served_document_is_the_source_document checks that the server serves the same one. (schemathesis's
# `pytest.from_fixture`, which could read it from the live server, fails on pytest 9.2: it sets
# `Function._nodeid`, which pytest 9.2 no longer has.)
schema = schemathesis.openapi.from_dict(
    _document_for_fuzzing(),
    config=schemathesis.Config.from_dict({
        "seed": SEED,
        "request-timeout": 30,
        "generation": {"mode": "all", "max-examples": EXAMPLES},
        "phases": {"coverage": {"enabled": COVERAGE}, "stateful": {"enabled": False}},
        # Failures show the real Cookie header, so the request can be replayed against the same server.
        "output": {"sanitization": {"enabled": False}},
    }),
)


@schema.hook
def flatmap_path_parameters(context, path_parameters):
    """About half of the generated path parameters become ids the identity's seeding made (looked up when the
    example is drawn, so each identity gets its own)."""
    path = context.operation.path
    names = [name for name in path_parameters or {} if known_kind(path, name)]
    if not names:
        return st.just(path_parameters)

    def substitute(choices):
        identity = Identity.current
        result = dict(path_parameters)
        for name, choice in zip(names, choices):
            values = identity.known.get(known_kind(path, name)) if identity else None
            if choice is not None and values:
                result[name] = values[choice % len(values)]
        return result

    choice = st.one_of(st.none(), st.integers(min_value=0, max_value=63))
    return st.tuples(*(choice for _ in names)).map(substitute)


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, database=None, suppress_health_check=list(HealthCheck))
def test_api_operation(case, identity):
    """One operation with generated requests: no 5xx, a documented status, content type and body."""
    server = identity.server
    server.ensure_running()
    session = identity.session_for(case)
    response = None
    try:
        response = case.call(base_url=server.base, session=session, headers=identity.headers)
        identity.after(case, response)
        case.validate_response(response, checks=CHECKS, headers=identity.headers,
                               transport_kwargs={"base_url": server.base, "session": session,
                                                 "headers": identity.headers})
    except BaseException as error:
        if hasattr(error, "add_note"):
            crash = server.crashed(wait=5.0 if isinstance(error, requests.ConnectionError) else 0.0)
            if crash is not None:
                error.add_note("THE SERVER CRASHED on this request:\n" + case.as_curl_command(
                    headers={**identity.headers, "Cookie": f"trove_session={session.cookies.get('trove_session')}"},
                    base_url=server.base) + "\n" + crash)
            error.add_note(identity.reproduction_note(case, response))
        raise


def test_served_document_is_the_source_document(trove_server):
    """The fuzzer reads Sources/WebApp/APIDocument/openapi.json; the server must serve that same document
    (a binary built before the last edit would not)."""
    trove_server.ensure_running()
    served = requests.get(f"{trove_server.base}/api/openapi.json", timeout=10)
    assert served.status_code == 200
    assert served.json() == json.loads(DOCUMENT.read_text(encoding="utf-8")), (
        "the server serves another openapi.json than the source tree holds: rebuild, or copy the document to "
        ".build/debug/trove_WebApp.resources/APIDocument/openapi.json")


# ---------- Regression tests: each finding of the fuzzer, as the request that found it ----------


def _account(server) -> requests.Session:
    session = requests.Session()
    response = session.post(f"{server.base}/api/v1/account/signup", headers={"Origin": server.base},
                            json={"username": f"regress{os.getpid()}x{secrets.token_hex(4)}",
                                  "password": "correct horse battery"}, timeout=30)
    assert response.status_code == 201, response.text
    return session


@pytest.mark.parametrize("rating", [-1e19, 1e19, 9.3e18, 1.5e300])
def test_story_rating_beyond_int64_is_answered_not_a_crash(trove_server, rating):
    """A whole-number `rating` outside Int64 crashed the server (StoryFile.scalarText: `Int64(number)` traps)."""
    trove_server.ensure_running()
    session = _account(trove_server)
    story = {"story": {"id": f"rating-{secrets.token_hex(4)}", "name": "Big rating", "rating": rating,
                       "chapters": [{"id": 1, "text": "The end.", "is_first_chapter": True}]}}
    response = failure = None
    try:
        response = session.post(f"{trove_server.base}/api/v1/stories", headers={"Origin": trove_server.base},
                                json=story, timeout=30)
    except requests.ConnectionError as error:
        failure = f"POST /api/v1/stories with rating {rating!r}: {error}\n{trove_server.crashed(wait=5.0) or ''}"
    if failure:
        pytest.fail(failure, pytrace=False)
    assert response.status_code in (201, 422), f"{response.status_code} {response.text}"


def test_surprise_that_finds_nothing_still_names_country_and_center(trove_server):
    """The document requires `country` and `center` (null when nothing was found); the server left them out.
    With a radius of 5e-324 km only the countries of one city (a box that is a point) give a city, and once
    those are in the profile's recent searches nothing is found."""
    trove_server.ensure_running()
    session = requests.Session()
    for _ in range(40):
        response = session.post(f"{trove_server.base}/api/v1/cities/surprise?radius_km=5e-324&limit=5",
                                headers={"Origin": trove_server.base}, timeout=30)
        assert response.status_code == 200, response.text
        body = response.json()
        if not body["found"]:
            break
    assert body["found"] is False, body
    assert "country" in body and body["country"] is None, body
    assert "center" in body and body["center"] is None, body
