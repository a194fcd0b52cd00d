"""Suite 6 of issue 9, security: what a second profile, a hostile page, a hostile upload or a hostile URL can do.

Against a live `trove serve` (the `trove_server` fixture of conftest.py):

* cross-profile access: every path of Sources/WebApp/APIDocument/openapi.json that takes a path parameter is in
  ROUTES, which says which record fills each parameter and whether the route is owned (another profile gets 404
  on every documented method, and the owner's data is unchanged), public (with the reason) or acts on the
  caller's own state (the owner's state unchanged, nothing of it shown). A path the table does not know fails
  the test, so a new route cannot escape it; the page routes with parameters (read from Sources/WebApp) too;
* script injection: INJECTIONS in every user-writable text field, then every HTML page that shows it: never
  raw, always escaped; pages that draw from JSON get application/json with nosniff;
* cross-site writes (foreign Origin, Origin: null, Sec-Fetch-Site: cross-site/same-site) are refused with a JSON
  403 and write nothing;
* the session id changes at sign-up and sign-in and dies at sign-out; a cookie the server did not issue is not
  adopted;
* passwords are stored with bcrypt (cost BCRYPT_COST), never logged, never stored in plain text;
* THROTTLE_TRIES wrong sign-ins to one account: 429 after the limit, the right password refused meanwhile;
* uploads are checked by their bytes, not their name or claimed type, and bounded in size;
* the static routes refuse path traversal;
* every answer carries the security headers.

    TROVE_BIN   the server binary (default .build/debug/trove)

Run alone: `.venv/bin/pytest -q --assert=plain tests/reliability/test_security.py`.
"""

from __future__ import annotations

import base64
import html
import io
import itertools
import json
import os
import re
import secrets
import socket
import sqlite3
import time
import urllib.parse
import zipfile
from pathlib import Path

import pytest
import requests

from reliability_support import CITIES, TWINE_SAMPLE_ID, TroveServer, prepare_database, report, trove_binary

ROOT = Path(__file__).resolve().parents[2]
DOCUMENT = ROOT / "Sources" / "WebApp" / "APIDocument" / "openapi.json"
WEB_SOURCES = ROOT / "Sources" / "WebApp"
TIMEOUT = 30

# Script-injection strings written into every user-writable text field.
INJECTIONS = [
    "<script>alert(1)</script>",
    '"><img src=x onerror=alert(1)>',
    "</textarea><svg onload=alert(1)>",
    "javascript:alert(1)",
    "{{7*7}}",
    "'';!--\"<XSS>=&{()}",
    "<a href='javascript:alert(1)'>x</a>",
]
BCRYPT_COST = 12  # AppConfiguration.passwordHashCost's default, which `trove serve` uses
THROTTLE_TRIES = 100  # the figure; SignInThrottle allows 5 failures in 15 minutes
THROTTLE_LIMIT = 5
THROTTLE_WINDOW_SECONDS = 15 * 60
BACKGROUND_LIMIT = 10 * 1024 * 1024  # ImageKind.maximumBytes
STORY_ZIP_LIMIT = 20 << 20  # StoriesAPIController.accept
STORY_JSON_LIMIT = 2 << 20  # StoryIntake.maximumBytes

PNG_1X1 = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGNgAAAAAgABSK+kcQAAAABJRU5ErkJggg==")
# A board any profile can save: the built-in word set, no magnets.
NEUTRAL_BOARD = {"word_set_id": "classics", "font": "serif", "font_scale": 1, "extra_words": [], "magnets": []}

# What each test found, for the one-line report at the end of the module.
STATS: dict[str, object] = {}
# Every password this module used, to look for in the server's log and database.
PASSWORDS: list[str] = []

_numbers = itertools.count(1)


# ---------- Clients ----------


class Client:
    """One visitor: a guest (the cookie of its first request), an account (signed up) or anonymous (no cookie
    ever kept). Every request is same-origin (Origin = the server's), as the pages' own are."""

    def __init__(self, server, kind: str):
        self.server = server
        self.kind = kind
        self.session = requests.Session()
        self.username = self.password = None
        if kind == "account":
            self.username = f"sec{os.getpid()}x{next(_numbers)}"
            self.password = "pw-" + secrets.token_hex(10)
            PASSWORDS.append(self.password)
            r = self.call("POST", "/api/v1/account/signup", json={"username": self.username, "password": self.password})
            assert r.status_code == 201, f"sign-up: {r.status_code} {r.text}"
        elif kind == "guest":
            r = self.call("GET", "/api/v1/account/me")
            assert r.status_code == 200 and r.json()["profile"]["is_guest"], r.text
        if kind != "anonymous":
            assert "trove_session" in self.session.cookies

    def call(self, method: str, path: str, headers: dict | None = None, **kwargs) -> requests.Response:
        headers = {"Origin": self.server.base, **(headers or {})}
        url = self.server.base + path
        if self.kind == "anonymous":
            return requests.request(method, url, headers=headers, timeout=TIMEOUT, allow_redirects=False, **kwargs)
        return self.session.request(method, url, headers=headers, timeout=TIMEOUT, allow_redirects=False, **kwargs)

    def ok(self, method: str, path: str, expected: int = 200, **kwargs):
        r = self.call(method, path, **kwargs)
        assert r.status_code == expected, f"{self.kind}: {method} {path} → {r.status_code} {r.text[:500]}"
        return r.json() if r.content and "json" in r.headers.get("Content-Type", "") else r

    def page(self, path: str) -> requests.Response:
        return self.call("GET", path, headers={"Accept": "text/html"})


def story_document(story_id: str, name: str = "Owner's story", text: str = "Hello", **extra) -> dict:
    return {"story": {"id": story_id, "name": name, **extra, "chapters": [
        {"id": 1, "name": "Start", "text": text, "is_first_chapter": True, "choices": [{"chapter_id": 2, "text": "On"}]},
        {"id": 2, "name": "End", "text": "Bye"}]}}


def story_zip(document: dict, pictures: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("story.json", json.dumps(document))
        for name, data in pictures.items():
            archive.writestr(f"resources/{name}", data)
    return buffer.getvalue()


def create_records(owner: Client) -> dict:
    """One of each of the owner's records (as test_fuzz.py seeds them); returns the values path parameters take."""
    n = next(_numbers)
    cards = owner.ok("GET", "/api/v1/strategies")
    own = owner.ok("POST", "/api/v1/strategies/mine", 201, json={"strategy": f"Owner's own card {n}"})
    owner.ok("PUT", f"/api/v1/strategies/{own['id']}/favourite", 204)
    owner.ok("POST", "/api/v1/strategies/shuffle/draw")
    history = owner.ok("GET", "/api/v1/strategies/history")
    owner.ok("PATCH", f"/api/v1/strategies/history/{history[0]['id']}", json={"note": "owner's note"})

    wordset = owner.ok("POST", "/api/v1/poetry/wordsets", 201, json={"name": f"Owner's set {n}", "words": ["moon", "cat", "sea"]})
    board = {"word_set_id": wordset["id"], "font": "serif", "font_scale": 1, "extra_words": ["owner"],
             "magnets": [{"id": "m1", "word": "moon", "x": 0.1, "y": 0.2, "rotation": 5, "z": 1}]}
    poem = owner.ok("POST", "/api/v1/poetry/poems", 201, json={"title": "Owner's poem", "board": board})
    owner.ok("POST", f"/api/v1/poetry/poems/{poem['id']}/background", 201, data=PNG_1X1, headers={"Content-Type": "image/png"})
    published = owner.ok("POST", f"/api/v1/poetry/poems/{poem['id']}/publish")
    # A second poem, unpublished, so the publish route is tried on a poem that has no public link yet.
    owner.ok("POST", "/api/v1/cities/collection/import",
             json={"cities": [{"geonameid": city[0], "favourite": i == 0} for i, city in enumerate(CITIES[:3])]})

    kind = owner.ok("POST", "/api/v1/yoga/student-types", 201, json={"name": f"Owner's type {n}"})
    student = owner.ok("POST", "/api/v1/yoga/students", 201, json={"name": f"Ada {n}", "type_id": kind["id"], "notes": "owner's"})
    venue = owner.ok("POST", "/api/v1/yoga/venues", 201,
                     json={"name": f"Studio {n}", "address": "Via Roma 1", "latitude": 43.77, "longitude": 11.25})
    owner.call("POST", "/api/v1/yoga/class/end", json={"action": "discard"})
    owner.ok("POST", "/api/v1/yoga/class", 201, json={"venue_id": venue["id"], "attendees": [student["id"]], "notes": "owner's class"})
    ended = owner.ok("POST", "/api/v1/yoga/class/end", 201, json={"action": "save"})["session"]

    if owner.kind == "account":
        story_id = f"owned-{os.getpid()}-{n}"
        owner.ok("POST", "/api/v1/stories", 201, data=story_zip(story_document(story_id), {"pic.png": PNG_1X1}),
                 headers={"Content-Type": "application/zip"})
        picture = "pic.png"
    else:  # guests cannot publish: their stake in a story is their library and progress
        story_id, picture = "gull-rock", "cover.svg"
    owner.ok("PUT", f"/api/v1/stories/{story_id}/library", 204)
    start = owner.ok("GET", f"/api/v1/stories/{story_id}/progress")
    story = owner.ok("GET", f"/api/v1/stories/{story_id}")
    chapters = story.get("chapters") or []
    second = next((str(c["id"]) for c in chapters if str(c["id"]) != start["chapter_id"]), None)
    if second:
        owner.call("PUT", f"/api/v1/stories/{story_id}/progress", json={"chapter_id": second, "path": [start["chapter_id"], second]})
    owner.ok("POST", f"/api/v1/stories/{TWINE_SAMPLE_ID}/play", json={"choice": 0})  # a place of A's in a Twine story
    return {
        "own_card": own["id"], "deck_card": cards[0]["id"], "history": history[0]["id"], "wordset": wordset["id"],
        "poem": poem["id"], "poem_version": published["version"], "public_poem": published["public_id"],
        "edition": cards[0]["edition"], "cardnumber": cards[0]["cardnumber"],
        "collected_city": CITIES[0][0], "geonameid": CITIES[0][0], "iso": CITIES[0][4],
        "student": student["id"], "student_type": kind["id"], "venue": venue["id"], "yoga_session": ended["id"],
        "session_started": ended["started_at"], "session_ended": ended["ended_at"],
        "story": story_id, "resource": picture, "twine_story": TWINE_SAMPLE_ID,
    }


def snapshot(owner: Client, records: dict) -> dict:
    """Everything of the owner's that an intruder could change: the account export, the story, its progress."""
    export = owner.ok("GET", "/api/v1/account/export")
    export.pop("exported_at", None)
    return {
        "export": export,
        "story": owner.ok("GET", f"/api/v1/stories/{records['story']}"),
        "progress": owner.ok("GET", f"/api/v1/stories/{records['story']}/progress"),
        "twine_place": owner.ok("GET", f"/api/v1/stories/{records['twine_story']}/play"),
        "favourites": owner.ok("GET", "/api/v1/strategies/favourites"),
    }


# ---------- Cross-profile access: the table ----------

OWNED = "owned"


def public(reason: str) -> tuple[str, str]:
    return ("public", reason)


def own_state(reason: str) -> tuple[str, str]:
    return ("own state", reason)


# Every path of openapi.json with a path parameter: which of the owner's records fills each parameter, and what
# a second profile may do there: OWNED (404 on every documented method), public(reason), own_state(reason) (the
# caller acts on its own state about a public record: allowed, and the owner's state stays unchanged and unseen).
# A dict gives the classification per method.
ROUTES: dict[str, tuple[dict[str, str], object]] = {
    "/api/v1/strategies/{id}": ({"id": "own_card"}, OWNED),  # deck cards by id: see PUBLIC_SAMPLES
    "/api/v1/strategies/{id}/editions": ({"id": "own_card"}, OWNED),
    "/api/v1/strategies/{id}/favourite": ({"id": "own_card"}, OWNED),
    "/api/v1/strategies/mine/{id}": ({"id": "own_card"}, OWNED),
    "/api/v1/strategies/history/{id}": ({"id": "history"}, OWNED),
    "/api/oblique/edition/{edition}/all": ({"edition": "edition"}, public("the published deck, the same for everyone")),
    "/api/oblique/edition/{edition}/draw": ({"edition": "edition"}, public("the published deck, the same for everyone")),
    "/api/oblique/edition/{edition}/cardnumber/{number}": (
        {"edition": "edition", "number": "cardnumber"}, public("the published deck, the same for everyone")),
    "/api/oblique/id/{id}": ({"id": "own_card"}, OWNED),  # the legacy API must not show anyone's own cards
    "/api/v1/poetry/wordsets/{id}": ({"id": "wordset"}, OWNED),
    "/api/v1/poetry/poems/{id}": ({"id": "poem"}, OWNED),
    "/api/v1/poetry/poems/{id}/background": ({"id": "poem"}, OWNED),
    "/api/v1/poetry/poems/{id}/publish": ({"id": "poem"}, OWNED),
    "/api/v1/poetry/published/{publicId}": ({"publicId": "public_poem"}, public("a published poem's link is for sharing")),
    "/api/v1/poetry/published/{publicId}/background": (
        {"publicId": "public_poem"}, public("the background of a published poem, shown with it")),
    "/api/v1/cities/countries/{iso}": ({"iso": "iso"}, public("GeoNames reference data")),
    "/api/v1/cities/{geonameid}": ({"geonameid": "geonameid"}, public("GeoNames reference data")),
    "/api/v1/cities/{geonameid}/weather": ({"geonameid": "geonameid"}, public("the weather at a city")),
    "/api/v1/cities/{geonameid}/article": ({"geonameid": "geonameid"}, public("a city's Wikipedia article")),
    "/api/v1/cities/collection/{geonameid}/favourite": ({"geonameid": "collected_city"}, OWNED),
    "/api/v1/yoga/students/{id}": ({"id": "student"}, OWNED),
    "/api/v1/yoga/students/{id}/sessions": ({"id": "student"}, OWNED),
    "/api/v1/yoga/student-types/{id}": ({"id": "student_type"}, OWNED),
    "/api/v1/yoga/venues/{id}": ({"id": "venue"}, OWNED),
    "/api/v1/yoga/venues/{id}/regulars": ({"id": "venue"}, OWNED),
    "/api/v1/yoga/sessions/{id}": ({"id": "yoga_session"}, OWNED),
    "/api/v1/stories/{id}": ({"id": "story"}, {
        "GET": public("published stories are in everyone's catalog"), "PUT": OWNED, "DELETE": OWNED}),
    "/api/v1/stories/{id}/library": ({"id": "story"}, own_state("puts a public story in the caller's own library")),
    "/api/v1/stories/{id}/progress": ({"id": "story"}, own_state("the caller's own place in a public story")),
    "/api/v1/stories/{id}/play": ({"id": "twine_story"}, own_state("the caller's own place in a public Twine story")),
    "/api/v1/stories/{id}/resources/{name}": (
        {"id": "story", "name": "resource"}, public("the pictures of a published story, shown with it")),
}

# Page routes (not in the API document) with a path parameter, read from Sources/WebApp; the same rules.
PAGE_ROUTES: dict[str, tuple[dict[str, str], object]] = {
    "/strategies/{id}": ({"id": "own_card"}, OWNED),
    "/strategies/{id}/preview.png": ({"id": "own_card"}, OWNED),
    "/poetry/p/{publicId}": ({"publicId": "public_poem"}, public("a published poem's page is for sharing")),
    "/stories/{id}": ({"id": "story"}, public("a published story's reader")),
    "/stories/{id}/map": ({"id": "story"}, public("a published story's map")),
    "/cities/{geonameid}": ({"geonameid": "geonameid"}, public("GeoNames reference data")),
    "/cities/countries/{iso}": ({"iso": "iso"}, public("GeoNames reference data")),
}

# Deck cards are public by id wherever an own card is private: checked with a deck card as well.
PUBLIC_SAMPLES = ["/api/v1/strategies/{deck_card}", "/api/v1/strategies/{deck_card}/editions", "/api/oblique/id/{deck_card}",
                  "/strategies/{deck_card}"]

# Bodies for the methods that take one, valid for the intruder (so validation cannot hide the ownership check);
# a callable gets the owner's records.
BODIES: dict[tuple[str, str], object] = {
    ("/api/v1/stories/{id}/play", "POST"): {"json": {"choice": 0}},
    ("/api/v1/strategies/mine/{id}", "PATCH"): {"json": {"strategy": "Intruder was here"}},
    ("/api/v1/strategies/history/{id}", "PATCH"): {"json": {"note": "intruder"}},
    ("/api/v1/poetry/wordsets/{id}", "PUT"): {"json": {"name": "Intruder", "words": ["moon", "cat"]}},
    ("/api/v1/poetry/poems/{id}", "PUT"): lambda r: {"json": {"version": r["poem_version"], "title": "Intruder", "board": NEUTRAL_BOARD}},
    ("/api/v1/poetry/poems/{id}/background", "POST"): {"data": PNG_1X1, "headers": {"Content-Type": "image/png"}},
    ("/api/v1/yoga/students/{id}", "PUT"): {"json": {"name": "Intruder", "joined_on": "2024-01-01", "active": False, "notes": "x"}},
    ("/api/v1/yoga/student-types/{id}", "PUT"): {"json": {"name": "Intruder"}},
    ("/api/v1/yoga/venues/{id}", "PUT"): {"json": {"name": "Intruder", "address": "Nowhere", "favourite": True}},
    ("/api/v1/yoga/sessions/{id}", "PUT"): {"json": {
        "started_at": "2026-01-05T10:00:00Z", "ended_at": "2026-01-05T11:00:00Z", "attendees": [], "notes": "intruder"}},
    ("/api/v1/stories/{id}", "PUT"): lambda r: {"json": story_document(r["story"], name="Defaced", text="Intruder")},
    ("/api/v1/stories/{id}/progress", "PUT"): None,  # filled from the intruder's own view of the story
}
QUERIES: dict[tuple[str, str], str] = {("/api/v1/yoga/students/{id}", "DELETE"): "?confirm=true"}

METHODS = ("get", "put", "post", "patch", "delete")


def document_operations() -> dict[str, dict[str, bool]]:
    """Path → {METHOD: has a request body} for every path with a path parameter."""
    document = json.loads(DOCUMENT.read_text(encoding="utf-8"))
    return {path: {m.upper(): "requestBody" in op for m, op in item.items() if m in METHODS}
            for path, item in document["paths"].items() if "{" in path}


def page_routes_in_sources() -> set[str]:
    """The non-API routes with a path parameter that Sources/WebApp registers: on the router (`router.get("/x/{id}")`)
    or in an app's page group, relative to its slug (`pages.get("{id}")` in the folder of the app whose entry says
    `AppEntry(slug: "x"` is `/x/{id}`)."""
    found = set()
    method = r"(?:get|head|put|post|patch|delete)"
    for source in WEB_SOURCES.rglob("*.swift"):
        for match in re.finditer(r'\.' + method + r'\(\s*"(/[^"]*\{[^"]*)"', source.read_text(encoding="utf-8")):
            if not match.group(1).startswith("/api/"):
                found.add(match.group(1))
    for folder in (p for p in WEB_SOURCES.iterdir() if p.is_dir()):
        texts = [source.read_text(encoding="utf-8") for source in folder.glob("*.swift")]
        slugs = {m.group(1) for text in texts for m in re.finditer(r'AppEntry\(\s*slug:\s*"([^"]+)"', text)}
        if len(slugs) != 1:
            continue
        slug = slugs.pop()
        for text in texts:
            for match in re.finditer(r'\bpages\.' + method + r'\(\s*"([^"/][^"]*)"', text):
                if "{" in match.group(1):
                    found.add(f"/{slug}/{match.group(1)}")
    return found


def fill(path: str, params: dict[str, str], records: dict) -> str:
    return re.sub(r"\{(\w+)\}", lambda m: urllib.parse.quote(str(records[params[m.group(1)]]), safe=""), path)


def classification(rule, method: str):
    return rule.get(method) if isinstance(rule, dict) else rule


def test_every_parameterised_route_is_in_the_table():
    """A path with a parameter that ROUTES / PAGE_ROUTES does not know fails here: a new route cannot escape the
    cross-profile test. Stale entries fail too."""
    operations = document_operations()
    problems = [f"openapi.json path {p} is not in ROUTES: say which record fills it and who may use it" for p in operations
                if p not in ROUTES]
    problems += [f"ROUTES has {p}, which openapi.json no longer has" for p in ROUTES if p not in operations]
    for path, methods in operations.items():
        if path not in ROUTES:
            continue
        params, rule = ROUTES[path]
        names = set(re.findall(r"\{(\w+)\}", path))
        if names != set(params):
            problems.append(f"{path}: parameters {sorted(names)} but ROUTES fills {sorted(params)}")
        for method, has_body in methods.items():
            if classification(rule, method) is None:
                problems.append(f"{method} {path} has no classification in ROUTES")
            if has_body and classification(rule, method) == OWNED and (path, method) not in BODIES:
                problems.append(f"{method} {path} takes a body and BODIES has none for it")
    pages = page_routes_in_sources()
    problems += [f"page route {p} (Sources/WebApp) is not in PAGE_ROUTES" for p in sorted(pages - set(PAGE_ROUTES))]
    problems += [f"PAGE_ROUTES has {p}, which Sources/WebApp no longer registers" for p in sorted(set(PAGE_ROUTES) - pages)]
    assert not problems, "\n".join(problems)


def _intruder_request(intruder: Client, method: str, path: str, template: str, records: dict) -> requests.Response:
    body = BODIES.get((template, method))
    if callable(body):
        body = body(records)
    if (template, method) == ("/api/v1/stories/{id}/progress", "PUT"):
        start = intruder.call("GET", path).json()
        body = {"json": {"chapter_id": start["chapter_id"], "path": [start["chapter_id"]]}}
    kwargs = dict(body or {})
    headers = kwargs.pop("headers", {})
    if template.startswith("/api/") is False:
        headers = {"Accept": "text/html", **headers}
    return intruder.call(method, path + QUERIES.get((template, method), ""), headers=headers, **kwargs)


@pytest.mark.parametrize("owner_kind", ["account", "guest"])
def test_another_profile_gets_404_on_every_owned_record(trove_server, owner_kind):
    """Owner A makes one of each record; a guest, an account and a cookieless client each try every documented
    method of every parameterised route on A's ids. Owned routes: 404 (not 403, not 200) with a JSON error;
    public: answered; own state: answered without A's data. A's data is the same afterwards."""
    trove_server.ensure_running()
    owner = Client(trove_server, owner_kind)
    records = create_records(owner)
    before = snapshot(owner, records)
    operations = document_operations()
    table = [(t, ROUTES[t], operations[t]) for t in operations if t in ROUTES]
    table += [(t, rule, {"GET": False}) for t, rule in PAGE_ROUTES.items()]
    failures: list[str] = []
    owned_routes = set()
    attempts = 0
    for intruder_kind in ("guest", "account", "anonymous"):
        intruder = Client(trove_server, intruder_kind)
        for template, (params, rule), methods in table:
            path = fill(template, params, records)
            for method in methods:
                kind = classification(rule, method)
                response = _intruder_request(intruder, method, path, template, records)
                attempts += 1
                where = f"{intruder_kind} {method} {path} (A is {owner_kind})"
                if kind == OWNED:
                    owned_routes.add((template, method))
                    if response.status_code != 404:
                        failures.append(f"{where} → {response.status_code}, wanted 404: {response.text[:200]}")
                    elif template.startswith("/api/") and "json" not in response.headers.get("Content-Type", ""):
                        failures.append(f"{where} → 404 without a JSON error ({response.headers.get('Content-Type')})")
                elif kind[0] == "public":
                    if method == "GET" and response.status_code != 200:
                        failures.append(f"{where} → {response.status_code}; the route is public ({kind[1]})")
                else:  # own state
                    if response.status_code >= 400:
                        failures.append(f"{where} → {response.status_code}; the caller's own state ({kind[1]}): {response.text[:200]}")
                    if template.endswith("/progress") and method == "GET" and response.ok:
                        if response.json() == before["progress"] and len(before["progress"]["path"]) > 1:
                            failures.append(f"{where} shows A's reading progress {response.json()}")
            after = snapshot(owner, records)
            if after != before:
                changed = [key for key in before if before[key] != after[key]]
                failures.append(f"{intruder_kind} on {template} changed A's data ({', '.join(changed)})")
                before = after
    deck = {"deck_card": records["deck_card"]}
    for template in PUBLIC_SAMPLES:
        path = template.format(**deck)
        response = Client(trove_server, "anonymous").call("GET", path, headers={"Accept": "text/html"})
        if response.status_code != 200:
            failures.append(f"anonymous GET {path} → {response.status_code}; deck cards are public")
    STATS[f"owned_{owner_kind}"] = (len({t for t, _ in owned_routes}), len(owned_routes), attempts, len(failures))
    assert not failures, f"{len(failures)} cross-profile failures:\n" + "\n".join(failures)


# ---------- Script injection ----------

DANGEROUS = set("<>\"'&")
URL_ATTRIBUTE = re.compile(r"""(?:href|src|action|formaction|xlink:href)\s*=\s*["']?\s*javascript:""", re.I)


def injection_problems(page: str, text: str, payload: str, shown: bool) -> list[str]:
    problems = []
    if any(c in DANGEROUS for c in payload) and payload in text:
        problems.append("appears unescaped")
    if payload.startswith("javascript:") and URL_ATTRIBUTE.search(text):
        problems.append("a javascript: URL in an attribute")
    if "{{7*7}}" == payload and shown and "{{7*7}}" not in html.unescape(text):
        problems.append("was evaluated as a template")
    if shown and payload not in html.unescape(text):
        problems.append("is not shown (escaped) where it should be")
    return [f"{page}: {payload!r} {p}" for p in problems]


def write_everywhere(client: Client, payload: str, i: int) -> tuple[dict, dict[str, str]]:
    """Writes `payload` into every user-writable text field of `client`'s profile. Returns the ids made, and
    field → where its value is read back ('refused: …' when the server turned the value down)."""
    fields: dict[str, str] = {}
    ids: dict = {}

    def attempt(field: str, method: str, path: str, expected: int, **kwargs):
        r = client.call(method, path, **kwargs)
        if r.status_code == expected:
            fields[field] = "stored"
            return r.json() if r.content else {}
        assert r.status_code < 500, f"{field}: {method} {path} → {r.status_code} {r.text}"
        fields[field] = f"refused: {r.status_code} {r.json().get('error', {}).get('code')}"
        return None

    card = attempt("own card text", "POST", "/api/v1/strategies/mine", 201, json={"strategy": payload})
    ids["card"] = card and card["id"]
    client.ok("POST", "/api/v1/strategies/shuffle/draw")
    entry = client.ok("GET", "/api/v1/strategies/history")[0]
    attempt("draw note", "PATCH", f"/api/v1/strategies/history/{entry['id']}", 200, json={"note": payload})
    attempt("word set name", "POST", "/api/v1/poetry/wordsets", 201, json={"name": payload, "words": ["moon", "cat"]})
    attempt("word set word", "POST", "/api/v1/poetry/wordsets", 201, json={"name": f"Set {i}", "words": [payload, "cat"]})
    poem = attempt("poem title", "POST", "/api/v1/poetry/poems", 201, json={"title": payload, "board": NEUTRAL_BOARD})
    if poem:
        ids["public_poem"] = client.ok("POST", f"/api/v1/poetry/poems/{poem['id']}/publish")["public_id"]
    attempt("poem extra word", "POST", "/api/v1/poetry/poems", 201,
            json={"title": f"Poem {i}", "board": {**NEUTRAL_BOARD, "extra_words": [payload]}})
    kind = attempt("student type name", "POST", "/api/v1/yoga/student-types", 201, json={"name": payload})
    attempt("student name", "POST", "/api/v1/yoga/students", 201, json={"name": payload})
    attempt("student notes", "POST", "/api/v1/yoga/students", 201, json={"name": f"Student {i}", "notes": payload})
    venue = attempt("venue name", "POST", "/api/v1/yoga/venues", 201,
                    json={"name": payload, "address": "Via Roma 1", "latitude": 43.77, "longitude": 11.25})
    attempt("venue address", "POST", "/api/v1/yoga/venues", 201, json={"name": f"Venue {i}", "address": payload})
    client.call("POST", "/api/v1/yoga/class/end", json={"action": "discard"})
    venue_id = (venue or client.ok("POST", "/api/v1/yoga/venues", 201, json={"name": f"Hall {i}"}))["id"]
    if attempt("class notes", "POST", "/api/v1/yoga/class", 201, json={"venue_id": venue_id, "notes": payload}):
        session = client.ok("POST", "/api/v1/yoga/class/end", 201, json={"action": "save"})["session"]
        attempt("session notes", "PUT", f"/api/v1/yoga/sessions/{session['id']}", 200, json={
            "started_at": "2026-01-05T10:00:00Z", "ended_at": "2026-01-05T11:00:00Z", "attendees": [], "notes": payload})
    del kind
    ids["collection"] = attempt("city collection (no text field)", "PUT", "/api/v1/cities/collection", 200,
                                json={"cities": [{"geonameid": CITIES[0][0], "favourite": True}]})
    fields.pop("city collection (no text field)")
    story_id = f"xss-{os.getpid()}-{i}"
    document = {"story": {"id": story_id, "name": payload, "author": payload, "summary": payload, "chapters": [
        {"id": 1, "name": payload, "text": payload, "is_first_chapter": True,
         "choices": [{"chapter_id": 2, "text": payload}]},
        {"id": 2, "name": payload + " end", "text": "The end."},
        {"id": 3, "name": payload + " lost", "text": "No choice leads here."}]}}
    if attempt("story", "POST", "/api/v1/stories", 201, json=document):
        ids["story"] = story_id
    how = fields.pop("story")
    fields.update({f"story {part}": how for part in ("name", "author", "summary", "chapter name", "chapter text", "choice text")})
    return ids, fields


def test_injected_scripts_come_back_escaped(trove_server):
    """Each of INJECTIONS in every user-writable text field; every HTML page that can show it must hold it
    escaped (never raw; shown when the page renders the field on the server); the JSON the pages draw from is
    application/json with nosniff."""
    trove_server.ensure_running()
    failures: list[str] = []
    pages_checked: set[str] = set()
    stored_fields: set[str] = set()
    refused: dict[str, str] = {}
    for i, payload in enumerate(INJECTIONS):
        client = Client(trove_server, "account")
        ids, fields = write_everywhere(client, payload, i)
        stored_fields |= {f for f, how in fields.items() if how == "stored"}
        refused.update({f: how for f, how in fields.items() if how != "stored"})
        # Pages rendered on the server, with whether they must show the payload.
        pages: list[tuple[str, str, bool]] = [(p, p, False) for p in (
            "/", "/account", "/strategies", "/poetry", "/cities", "/yoga", "/stories")]
        pages.append(("/cities/{geonameid}", f"/cities/{CITIES[0][0]}", False))
        if ids.get("card"):
            pages.append(("/strategies/{id}", f"/strategies/{ids['card']}", True))
        if ids.get("public_poem"):
            pages.append(("/poetry/p/{publicId}", f"/poetry/p/{ids['public_poem']}", True))
        if ids.get("story"):
            pages += [("/stories/{id}", f"/stories/{ids['story']}", True), ("/stories/{id}/map", f"/stories/{ids['story']}/map", True)]
        # An error page, whose address holds the payload.
        pages.append(("/stories/{bad id} (error page)", "/stories/" + urllib.parse.quote(payload, safe=""), False))
        for label, path, shown in pages:
            response = client.page(path)
            pages_checked.add(label)
            if response.status_code >= 500:
                failures.append(f"{path} → {response.status_code}")
                continue
            failures += injection_problems(path, response.text, payload, shown and response.status_code == 200)
        # A hostile Host header must not come back raw either (the card page builds absolute links from it).
        if ids.get("card"):
            raw = raw_request(trove_server, f"/strategies/{ids['card']}", host=f"x{payload[:1]}evil.example\"><b>",
                              cookie=client.session.cookies.get("trove_session"))
            if "\"><b>" in raw[2]:
                failures.append(f"/strategies/{ids['card']} repeats a hostile Host header unescaped")
        # Pages that draw from JSON: the JSON must not be sniffable as HTML, and must hold the value as written.
        for path in ("/api/v1/strategies/mine", "/api/v1/strategies/history", "/api/v1/poetry/wordsets", "/api/v1/poetry/poems",
                     "/api/v1/yoga/students", "/api/v1/yoga/student-types", "/api/v1/yoga/venues", "/api/v1/yoga/sessions",
                     "/api/v1/stories", "/api/v1/cities/collection", "/api/v1/account/export"):
            response = client.call("GET", path)
            if not response.headers.get("Content-Type", "").startswith("application/json"):
                failures.append(f"{path}: Content-Type {response.headers.get('Content-Type')}")
            if response.headers.get("X-Content-Type-Options") != "nosniff":
                failures.append(f"{path}: no X-Content-Type-Options: nosniff")
            if payload in response.text and any(c in response.text for c in "<>") and "json" not in response.headers.get("Content-Type", ""):
                failures.append(f"{path}: the payload is raw in a non-JSON answer")
    print("fields the server refused to store:", refused)
    STATS["xss"] = (len(INJECTIONS), len(stored_fields), len(pages_checked), refused, len(failures))
    assert not failures, f"{len(failures)} injection failures:\n" + "\n".join(failures)


# ---------- Cross-site requests ----------

FOREIGN = [
    {"Origin": "http://evil.example"},
    {"Origin": "null"},
    {"Origin": "{base}.evil.example"},
    {"Origin": "http://localhost:1"},
    {"Sec-Fetch-Site": "cross-site"},
    {"Sec-Fetch-Site": "same-site"},
    {"Sec-Fetch-Site": "cross-site", "Origin": "{base}"},
]


def test_cross_site_writes_are_refused(trove_server):
    """Every kind of write, sent as another site's page would (foreign or null Origin, Sec-Fetch-Site cross-site or
    same-site), is refused with 403 cross_site_request and writes nothing. Requests with neither header (not a
    browser, which cannot carry a visitor's cookie) are allowed, as CrossSiteRequestMiddleware documents."""
    trove_server.ensure_running()
    victim = Client(trove_server, "account")
    records = create_records(victim)
    before = snapshot(victim, records)
    writes = [
        ("POST", "/api/v1/strategies/mine", {"json": {"strategy": "forged"}}),
        ("PUT", f"/api/v1/strategies/{records['deck_card']}/favourite", {}),
        ("DELETE", f"/api/v1/strategies/mine/{records['own_card']}", {}),
        ("POST", "/api/v1/poetry/wordsets", {"json": {"name": "forged", "words": ["moon"]}}),
        ("PUT", f"/api/v1/poetry/poems/{records['poem']}", {"json": {"version": records["poem_version"], "title": "forged", "board": NEUTRAL_BOARD}}),
        ("DELETE", f"/api/v1/poetry/poems/{records['poem']}/publish", {}),
        ("PUT", "/api/v1/cities/collection", {"json": {"cities": []}}),
        ("POST", "/api/v1/yoga/students", {"json": {"name": "forged"}}),
        ("DELETE", f"/api/v1/yoga/venues/{records['venue']}", {}),
        ("POST", "/api/v1/stories", {"json": story_document("forged-story")}),
        ("DELETE", f"/api/v1/stories/{records['story']}", {}),
        ("PUT", "/api/v1/yoga/settings", {"json": {"temperature_unit": "fahrenheit", "slipping_weeks": 9}}),
        ("POST", "/api/v1/account/import", {"json": {"format": "trove-export/2", "strategies": {"favourites": [], "history": [],
                                                                                      "own_cards": []}}}),
        ("POST", "/api/v1/account/logout", {}),
        ("DELETE", "/api/v1/account", {}),
        ("POST", "/api/v1/strategies/mine", {"data": '{"strategy":"form post"}', "headers": {"Content-Type": "text/plain"}}),
    ]
    failures = []
    refused = 0
    for method, path, kwargs in writes:
        for headers in FOREIGN:
            headers = {k: v.format(base=trove_server.base) for k, v in headers.items()}
            extra = dict(kwargs)
            all_headers = {**extra.pop("headers", {}), **headers}
            url = trove_server.base + path
            r = victim.session.request(method, url, headers=all_headers, timeout=TIMEOUT, **extra)
            body = r.json() if "json" in r.headers.get("Content-Type", "") else {}
            if r.status_code == 403 and body.get("error", {}).get("code") == "cross_site_request":
                refused += 1
            else:
                failures.append(f"{method} {path} with {headers} → {r.status_code} {r.text[:200]}")
    # A sign-up and a sign-in forged from another site (login CSRF) are refused too.
    guest = Client(trove_server, "guest")
    for path, body in (("/api/v1/account/signup", {"username": f"forged{os.getpid()}", "password": "forged password 1"}),
                       ("/api/v1/account/login", {"username": victim.username, "password": victim.password})):
        r = guest.session.post(trove_server.base + path, json=body, headers={"Origin": "http://evil.example"}, timeout=TIMEOUT)
        if r.status_code != 403:
            failures.append(f"POST {path} from another site → {r.status_code} {r.text[:200]}")
        else:
            refused += 1
    if not guest.ok("GET", "/api/v1/account/me")["profile"]["is_guest"]:
        failures.append("a forged sign-up or sign-in signed the guest in")
    me = victim.ok("GET", "/api/v1/account/me")["profile"]
    if me.get("username") != victim.username:
        failures.append(f"the victim is no longer signed in: {me}")
    after = snapshot(victim, records)
    if after != before:
        failures.append("refused requests changed the victim's data: "
                        + ", ".join(k for k in before if before[k] != after[k]))
    # The same-origin write still works (the check is not refusing everything).
    victim.ok("POST", "/api/v1/strategies/mine", 201, json={"strategy": "same origin"})
    r = requests.post(trove_server.base + "/api/v1/strategies/mine", json={"strategy": "no browser"}, timeout=TIMEOUT,
                      cookies={"trove_session": victim.session.cookies.get("trove_session")})
    STATS["csrf"] = (refused, len(failures))
    assert not failures, f"{len(failures)} cross-site requests not refused:\n" + "\n".join(failures)


# ---------- Sessions ----------

def cookie_from(response: requests.Response) -> str | None:
    header = response.headers.get("Set-Cookie", "")
    match = re.search(r"trove_session=([^;]*)", header)
    return match.group(1) if match else None


def me_with(server, cookie: str) -> dict:
    r = requests.get(server.base + "/api/v1/account/me", cookies={"trove_session": cookie}, timeout=TIMEOUT)
    assert r.status_code == 200, r.text
    return r.json()["profile"]


def test_session_id_rotates_at_sign_in_and_dies_at_sign_out(trove_server):
    """Sign-up and sign-in give a new session id; the old one no longer reaches the account; sign-out ends the
    session in the database (the old cookie acts as a new guest); a cookie the server never issued is not
    adopted; the cookie is HttpOnly, SameSite=Lax, Path=/, and Secure behind an HTTPS proxy."""
    trove_server.ensure_running()
    base = trove_server.base
    guest = Client(trove_server, "guest")
    guest_cookie = guest.session.cookies.get("trove_session")
    username, password = f"sess{os.getpid()}x{next(_numbers)}", "pw-" + secrets.token_hex(10)
    PASSWORDS.append(password)
    r = guest.call("POST", "/api/v1/account/signup", json={"username": username, "password": password})
    assert r.status_code == 201, r.text
    account_id = r.json()["profile"]["id"]
    signed_up = cookie_from(r)
    assert signed_up and signed_up != guest_cookie, f"sign-up kept the guest's session id ({signed_up!r})"
    assert len(signed_up) == 43 and re.fullmatch(r"[A-Za-z0-9_-]{43}", signed_up), signed_up
    header = r.headers["Set-Cookie"]
    for attribute in ("HttpOnly", "SameSite=Lax", "Path=/"):
        assert attribute.lower() in header.lower(), f"the session cookie lacks {attribute}: {header}"
    old = me_with(trove_server, guest_cookie)
    assert old["id"] != account_id and old["is_guest"], f"the pre-sign-up cookie still reaches the account: {old}"
    assert me_with(trove_server, signed_up)["username"] == username

    r = guest.call("POST", "/api/v1/account/logout")
    assert r.status_code == 204, r.text
    assert cookie_from(r) == "", f"sign-out did not clear the cookie: {r.headers.get('Set-Cookie')}"
    after = me_with(trove_server, signed_up)
    assert after["is_guest"] and after["id"] != account_id, f"the signed-out cookie still reaches the account: {after}"
    export = requests.get(base + "/api/v1/account/export", cookies={"trove_session": signed_up}, timeout=TIMEOUT).json()
    assert export["profile"]["id"] != account_id

    # Sign-in from a new guest: a new id again, and the guest's id is dead.
    visitor = Client(trove_server, "guest")
    before = visitor.session.cookies.get("trove_session")
    r = visitor.call("POST", "/api/v1/account/login", json={"username": username, "password": password})
    assert r.status_code == 200, r.text
    signed_in = cookie_from(r)
    assert signed_in and signed_in not in (before, signed_up, guest_cookie), "sign-in kept an old session id"
    assert me_with(trove_server, before)["id"] != account_id

    # Fixation: a well-formed id the server never issued is not adopted.
    planted = secrets.token_urlsafe(32)[:43]
    r = requests.get(base + "/api/v1/account/me", cookies={"trove_session": planted}, timeout=TIMEOUT)
    assert cookie_from(r) != planted, "the server adopted a session id the client chose"
    issued = cookie_from(r)
    r = requests.post(base + "/api/v1/account/login", json={"username": username, "password": password},
                      cookies={"trove_session": issued}, headers={"Origin": base}, timeout=TIMEOUT)
    assert r.status_code == 200 and cookie_from(r) not in (planted, issued)

    # Behind an HTTPS proxy the cookie is Secure.
    r = requests.get(base + "/api/v1/account/me", headers={"X-Forwarded-Proto": "https"}, timeout=TIMEOUT)
    assert "secure" in r.headers.get("Set-Cookie", "").lower(), r.headers.get("Set-Cookie")
    STATS["session"] = "rotated at sign-up and sign-in, killed at sign-out, fixation refused"


# ---------- Passwords ----------

def database_rows(server, sql: str, *args) -> list[tuple]:
    with sqlite3.connect(f"file:{server.database}?mode=ro", uri=True, timeout=10) as db:
        return db.execute(sql, args).fetchall()


def test_passwords_are_stored_with_bcrypt(trove_server):
    """The profiles table holds a bcrypt hash ($2a$/$2b$/$2y$, cost BCRYPT_COST) that is not the password."""
    trove_server.ensure_running()
    account = Client(trove_server, "account")
    rows = database_rows(trove_server, "SELECT password_hash FROM profiles WHERE username = ?", account.username)
    assert len(rows) == 1, rows
    stored = rows[0][0]
    match = re.fullmatch(r"\$(2[aby])\$(\d\d)\$[./A-Za-z0-9]{53}", stored or "")
    assert match, f"the stored password is not a bcrypt hash: {stored!r}"
    assert int(match.group(2)) == BCRYPT_COST, f"bcrypt cost {match.group(2)}, wanted {BCRYPT_COST}"
    assert account.password not in stored
    guests = database_rows(trove_server, "SELECT COUNT(*) FROM profiles WHERE username IS NULL AND password_hash IS NOT NULL")
    assert guests[0][0] == 0, "guest profiles hold password hashes"
    STATS["bcrypt"] = f"bcrypt ${match.group(1)}$ cost {match.group(2)}"


# ---------- Sign-in throttling ----------

def test_sign_in_throttling_holds_against_100_tries(trove_server):
    """THROTTLE_TRIES wrong passwords for one account from one client: 401 for the first THROTTLE_LIMIT, then
    429 too_many_attempts with Retry-After for every other try; the right password is refused while throttled,
    from this client and from a fresh one, whatever the username's case; never a 5xx. The browser that signed up
    (its trove_device cookie) still signs in: guessing elsewhere cannot lock a person out of their own device."""
    trove_server.ensure_running()
    account = Client(trove_server, "account")
    account.call("POST", "/api/v1/account/logout")
    attacker = requests.Session()
    statuses = []
    first_429 = None
    started = time.monotonic()
    for n in range(THROTTLE_TRIES):
        wrong = f"wrong-{n}-{secrets.token_hex(4)}"
        PASSWORDS.append(wrong)
        r = attacker.post(trove_server.base + "/api/v1/account/login", json={"username": account.username, "password": wrong},
                          headers={"Origin": trove_server.base}, timeout=TIMEOUT)
        statuses.append(r.status_code)
        assert r.status_code < 500, f"try {n + 1}: {r.status_code} {r.text}"
        if r.status_code == 429:
            first_429 = first_429 or n + 1
            assert r.json()["error"]["code"] == "too_many_attempts", r.text
            retry = int(r.headers.get("Retry-After", "0"))
            assert 1 <= retry <= THROTTLE_WINDOW_SECONDS, f"Retry-After {r.headers.get('Retry-After')}"
    elapsed = time.monotonic() - started
    assert statuses[:THROTTLE_LIMIT] == [401] * THROTTLE_LIMIT, statuses[:THROTTLE_LIMIT + 2]
    assert set(statuses[THROTTLE_LIMIT:]) == {429}, f"after {THROTTLE_LIMIT} failures: {sorted(set(statuses[THROTTLE_LIMIT:]))}"
    for name, client in ((account.username, attacker), (account.username.upper(), requests.Session()),
                         (f"  {account.username} ", requests.Session())):
        r = client.post(trove_server.base + "/api/v1/account/login", json={"username": name, "password": account.password},
                        headers={"Origin": trove_server.base}, timeout=TIMEOUT)
        assert r.status_code == 429, f"the right password for {name!r} while throttled → {r.status_code} {r.text}"
        assert "trove_session" not in (cookie_from(r) or "") and not cookie_from(r), "a throttled sign-in set a session"
    assert "trove_device" in account.session.cookies, "signing up did not remember the browser"
    r = account.call("POST", "/api/v1/account/login", json={"username": account.username, "password": account.password})
    assert r.status_code == 200, f"the browser that signed up, while the username is throttled → {r.status_code} {r.text}"
    r = attacker.post(trove_server.base + "/api/v1/account/login", json={"username": account.username, "password": account.password},
                      headers={"Origin": trove_server.base}, timeout=TIMEOUT)
    assert r.status_code == 429, f"the owner's sign-in lifted the lock for the others → {r.status_code} {r.text}"
    # Another account is not throttled by this one's failures.
    other = Client(trove_server, "account")
    other.call("POST", "/api/v1/account/logout")
    r = requests.post(trove_server.base + "/api/v1/account/login", json={"username": other.username, "password": other.password},
                      headers={"Origin": trove_server.base}, timeout=TIMEOUT)
    assert r.status_code == 200, r.text
    STATS["throttle"] = (first_429, THROTTLE_TRIES, elapsed)


CLIENT_THROTTLE_LIMIT = 20  # SignInThrottle.perClient: 20 failures in 15 minutes from one client address


def test_one_client_trying_many_usernames_is_throttled_behind_a_trusted_proxy(tmp_path):
    """Behind a trusted proxy (here: loopback, named by --trusted-proxy), X-Forwarded-For names the client: after
    CLIENT_THROTTLE_LIMIT failures across as many usernames, that client gets 429 with Retry-After, even for a
    username it never tried; another client behind the same proxy does not, and an address the client wrote at
    the start of the header does not let it pass for another."""
    binary = trove_binary()
    database = tmp_path / "trove.sqlite"
    prepare_database(binary, tmp_path, database)
    server = TroveServer(binary, tmp_path, database, ("--trusted-proxy", "127.0.0.1/32"))
    server.start()
    try:
        def login(username: str, forwarded: str) -> requests.Response:
            return requests.post(server.base + "/api/v1/account/login", json={"username": username, "password": "not it"},
                                 headers={"Origin": server.base, "X-Forwarded-For": forwarded}, timeout=TIMEOUT)
        statuses = [login(f"victim{n}", "203.0.113.7").status_code for n in range(CLIENT_THROTTLE_LIMIT)]
        assert statuses == [401] * CLIENT_THROTTLE_LIMIT, statuses
        blocked = login("someone-new", "203.0.113.7")
        assert blocked.status_code == 429 and blocked.json()["error"]["code"] == "too_many_attempts", blocked.text
        assert 1 <= int(blocked.headers["Retry-After"]) <= THROTTLE_WINDOW_SECONDS
        assert login("someone-new", "6.6.6.6, 203.0.113.7").status_code == 429, "a spoofed first hop let the client through"
        assert login("someone-new", "198.51.100.9").status_code == 401, "another client behind the same proxy was throttled"
    finally:
        server.stop()


# ---------- Uploads ----------

DISGUISES = {
    "a script as image/png": (b"<script>alert(document.cookie)</script>", "image/png"),
    "an HTML page as image/jpeg": (b"<!doctype html><html><body onload=alert(1)>hi</body></html>", "image/jpeg"),
    "an SVG with a script as image/svg+xml": (b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', "image/svg+xml"),
    "a script behind a UTF-8 BOM as image/gif": (b"\xef\xbb\xbf<script>alert(1)</script>", "image/gif"),
    "a PNG signature cut short as image/png": (b"\x89PNG\r\n<script>alert(1)</script>", "image/png"),
    "a shell script as image/webp": (b"#!/bin/sh\necho owned\n", "image/webp"),
}


def test_disguised_and_oversize_backgrounds_are_refused(trove_server):
    """A poem background is judged by its bytes: each of DISGUISES is refused with a 4xx JSON error and nothing
    is stored; a body over 10 MB is refused with 413 and nothing is stored; a real PNG is accepted."""
    trove_server.ensure_running()
    owner = Client(trove_server, "guest")
    poem = owner.ok("POST", "/api/v1/poetry/poems", 201, json={"title": "Uploads", "board": NEUTRAL_BOARD})
    path = f"/api/v1/poetry/poems/{poem['id']}/background"
    failures = []
    refused = 0
    for name, (body, content_type) in DISGUISES.items():
        r = owner.call("POST", path, data=body, headers={"Content-Type": content_type})
        json_error = "json" in r.headers.get("Content-Type", "") and "error" in r.json()
        if 400 <= r.status_code < 500 and json_error:
            refused += 1
        else:
            failures.append(f"{name}: {r.status_code} {r.text[:200]}")
        if owner.call("GET", path).status_code != 404:
            failures.append(f"{name}: a background is stored")
    oversize = b"\x89PNG\r\n\x1a\n" + b"\0" * (BACKGROUND_LIMIT + 1 - 8)
    r = owner.call("POST", path, data=oversize, headers={"Content-Type": "image/png"})
    if r.status_code != 413 or "json" not in r.headers.get("Content-Type", ""):
        failures.append(f"a background of {len(oversize)} bytes: {r.status_code} {r.text[:200]}")
    else:
        refused += 1
    if owner.call("GET", path).status_code != 404:
        failures.append("the oversize background is stored")
    owner.ok("POST", path, 201, data=PNG_1X1, headers={"Content-Type": "image/png"})
    served = owner.call("GET", path)
    assert served.headers.get("Content-Type") == "image/png" and served.headers.get("X-Content-Type-Options") == "nosniff"
    STATS["uploads_background"] = (refused, len(DISGUISES) + 1)
    assert not failures, "\n".join(failures)


def test_story_pictures_are_checked_by_content(trove_server):
    """A story zip's pictures are stored and served by their name's type (resources/x.png → image/png): a script
    or page under a picture's name must be refused (4xx JSON), or at least not stored. An SVG is served with a
    Content-Security-Policy that runs no inline script. Oversize zips (> 20 MB) and story.json (> 2 MB): 413."""
    trove_server.ensure_running()
    author = Client(trove_server, "account")
    failures = []
    refused = 0
    disguised = {
        "evil.png": b"<script>alert(document.cookie)</script>",
        "evil.jpg": b"<!doctype html><html><body onload=alert(1)>hi</body></html>",
        "evil.gif": b"<html><script>alert(1)</script></html>",
        "evil.webp": b"#!/bin/sh\necho owned\n",
    }
    for name, data in disguised.items():
        story_id = f"pic-{os.getpid()}-{next(_numbers)}"
        document = story_document(story_id, pic_path=f"resources/{name}")
        r = author.call("POST", "/api/v1/stories", data=story_zip(document, {name: data}), headers={"Content-Type": "application/zip"})
        served = author.call("GET", f"/api/v1/stories/{story_id}/resources/{name}")
        if 400 <= r.status_code < 500 and "json" in r.headers.get("Content-Type", ""):
            refused += 1
        elif r.status_code == 201 and served.status_code == 404:
            refused += 1  # the story is kept without the false picture
        else:
            failures.append(f"a zip with resources/{name} holding {data[:30]!r}…: upload → {r.status_code}, "
                            f"GET /api/v1/stories/{story_id}/resources/{name} → {served.status_code} "
                            f"{served.headers.get('Content-Type')} {served.content[:40]!r}")
    # An SVG picture: allowed, but its scripts must not run when it is opened on its own.
    story_id = f"svg-{os.getpid()}-{next(_numbers)}"
    svg = b'<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script></svg>'
    r = author.call("POST", "/api/v1/stories", data=story_zip(story_document(story_id, pic_path="resources/x.svg"), {"x.svg": svg}),
                    headers={"Content-Type": "application/zip"})
    if r.status_code == 201:
        served = author.call("GET", f"/api/v1/stories/{story_id}/resources/x.svg")
        csp = served.headers.get("Content-Security-Policy", "")
        if served.status_code == 200 and ("script-src 'self'" not in csp and "sandbox" not in csp or "unsafe-inline" in csp):
            failures.append(f"an SVG with scripts is served with CSP {csp!r}")
    # Size bounds.
    big_zip = story_zip(story_document(f"big-{os.getpid()}"), {"big.png": b"\x89PNG\r\n\x1a\n" + os.urandom(STORY_ZIP_LIMIT)})
    r = author.call("POST", "/api/v1/stories", data=big_zip, headers={"Content-Type": "application/zip"})
    if r.status_code != 413:
        failures.append(f"a {len(big_zip)}-byte story zip → {r.status_code} {r.text[:200]}")
    else:
        refused += 1
    big_json = json.dumps(story_document(f"bigjson-{os.getpid()}", text="x" * (STORY_JSON_LIMIT + 10))).encode()
    r = author.call("POST", "/api/v1/stories", data=big_json, headers={"Content-Type": "application/json"})
    if r.status_code != 413:
        failures.append(f"a {len(big_json)}-byte story.json → {r.status_code} {r.text[:200]}")
    else:
        refused += 1
    for story_id in (f"big-{os.getpid()}", f"bigjson-{os.getpid()}"):
        if author.call("GET", f"/api/v1/stories/{story_id}").status_code != 404:
            failures.append(f"the refused story {story_id} is stored")
    STATS["uploads_story"] = (refused, len(disguised) + 2)
    assert not failures, f"{len(failures)} upload failures:\n" + "\n".join(failures)


# ---------- Path traversal ----------

TRAVERSALS = [
    "/static/../Package.swift",
    "/static/../../../../../../etc/passwd",
    "/static/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
    "/static/%2e%2e%2f%2e%2e%2f%2e%2e%2fetc%2fpasswd",
    "/static/..%2f..%2f..%2f..%2fetc%2fpasswd",
    "/static/%252e%252e%252f%252e%252e%252fetc%252fpasswd",
    "/static/..\\..\\..\\..\\etc\\passwd",
    "/static/..%5c..%5c..%5cetc%5cpasswd",
    "/static//etc/passwd",
    "/static/%2fetc%2fpasswd",
    "/static/....//....//....//etc/passwd",
    "/static/%c0%ae%c0%ae/%c0%ae%c0%ae/etc/passwd",
    "/static/css/../../Templates/layout.mustache",
    "/static/css/%2e%2e/%2e%2e/Templates/layout.mustache",
    "/static/{version}/../../Templates/layout.mustache",
    "/static/{version}/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
    "/static/..;/..;/Templates/layout.mustache",
    "/static/file:///etc/passwd",
    "/static/css/app.css%00.png",
    "/sw.js/../../Package.swift",
]
SECRETS_IN_BODY = ["root:x:0:0", "swift-tools-version", "{{<layout}}", "{{$content}}", "import Hummingbird"]


def raw_request(server, path: str, method: str = "GET", host: str | None = None, cookie: str | None = None) -> tuple[int, dict, str]:
    """Sends `path` exactly as written (no client-side normalisation); returns status, headers, body."""
    lines = [f"{method} {path} HTTP/1.1", f"Host: {host or f'127.0.0.1:{server.port}'}", "Accept: */*", "Connection: close"]
    if cookie:
        lines.append(f"Cookie: trove_session={cookie}")
    with socket.create_connection(("127.0.0.1", server.port), timeout=TIMEOUT) as s:
        s.sendall(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"))
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    head_lines = head.decode("latin-1").split("\r\n")
    status = int(head_lines[0].split()[1]) if head_lines and len(head_lines[0].split()) > 1 else 0
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in head_lines[1:])}
    return status, headers, body.decode("utf-8", errors="replace")


def asset_version(server) -> str:
    page = requests.get(server.base + "/login", timeout=TIMEOUT).text
    return re.search(r"/static/([0-9a-f]{12})/", page).group(1)


def test_static_routes_refuse_path_traversal(trove_server):
    """Each of TRAVERSALS, sent byte for byte: a 4xx, and nothing of a file outside Public/ in the body."""
    trove_server.ensure_running()
    version = asset_version(trove_server)
    failures = []
    for template in TRAVERSALS:
        path = template.replace("{version}", version)
        for method in ("GET", "HEAD"):
            status, headers, body = raw_request(trove_server, path, method=method)
            leaked = [s for s in SECRETS_IN_BODY if s in body]
            if not 400 <= status < 500 or leaked:
                failures.append(f"{method} {path} → {status}{' leaking ' + str(leaked) if leaked else ''}")
    status, _, body = raw_request(trove_server, f"/static/{version}/css/app.css")
    assert status == 200 and body, "the control request for a real asset failed"
    STATS["traversal"] = (len(TRAVERSALS), len(failures))
    assert not failures, "\n".join(failures)


# ---------- Security headers ----------

def header_problems(label: str, headers) -> list[str]:
    problems = []
    csp = headers.get("Content-Security-Policy", "")
    directives = {d.strip().split(" ")[0]: d.strip() for d in csp.split(";") if d.strip()}
    if "default-src" not in directives:
        problems.append("no Content-Security-Policy default-src")
    script = directives.get("script-src", directives.get("default-src", ""))
    if "'unsafe-inline'" in script or "'unsafe-eval'" in script or "*" in script.split():
        problems.append(f"script-src allows inline or any script: {script}")
    # An uploaded picture's policy says default-src 'none', which covers object-src.
    if directives.get("object-src", directives.get("default-src", "").replace("default-src", "object-src")) != "object-src 'none'":
        problems.append("object-src is not 'none'")
    if headers.get("X-Content-Type-Options", "").lower() != "nosniff":
        problems.append("no X-Content-Type-Options: nosniff")
    if headers.get("Referrer-Policy", "") not in ("no-referrer", "same-origin", "strict-origin", "strict-origin-when-cross-origin"):
        problems.append(f"Referrer-Policy {headers.get('Referrer-Policy')!r}")
    framing = headers.get("X-Frame-Options", "").upper() in ("DENY", "SAMEORIGIN") or "frame-ancestors" in directives
    if not framing:
        problems.append("no frame protection (X-Frame-Options or frame-ancestors)")
    return [f"{label}: {p}" for p in problems]


def test_security_headers_on_every_answer(trove_server):
    """Every HTML page of every app (and the error pages), the static files, and a sample of JSON answers
    (successes and errors of each kind) carry CSP (no inline script, object-src 'none'), nosniff, a strict
    Referrer-Policy and frame protection."""
    trove_server.ensure_running()
    client = Client(trove_server, "account")
    records = create_records(client)
    version = asset_version(trove_server)
    pages = ["/", "/signup", "/login", "/account", "/strategies", f"/strategies/{records['own_card']}",
             f"/strategies/{records['deck_card']}", "/poetry", f"/poetry/p/{records['public_poem']}", "/cities",
             f"/cities/{records['geonameid']}", f"/cities/countries/{records['iso']}", "/yoga", "/stories",
             f"/stories/{records['story']}", f"/stories/{records['story']}/map", "/no-such-page", "/stories/no-such-story",
             f"/cities/{10**12}"]
    others = [f"/static/{version}/css/app.css", "/static/css/app.css", "/sw.js", "/manifest.webmanifest",
              f"/strategies/{records['deck_card']}/preview.png", "/api/openapi.json", "/health",
              "/api/v1/strategies/random", "/api/v1/account/me", "/api/v1/poetry/poems", "/api/v1/yoga/students",
              "/api/v1/cities/search?q=flor", "/api/v1/stories", f"/api/v1/stories/{records['story']}/resources/{records['resource']}",
              "/api/v1/strategies/history.csv", "/api/v1/yoga/export.csv", "/api/v1/cities/collection.geojson",
              "/api/v1/no-such-route", "/api/v1/strategies/not-a-number"]
    failures = []
    counted = 0
    guest = Client(trove_server, "guest")  # an account is sent from the sign-in and sign-up forms to its profile
    for path in pages:
        r = (guest if path in ("/signup", "/login") else client).page(path)
        if r.status_code >= 500 or "text/html" not in r.headers.get("Content-Type", ""):
            failures.append(f"page {path} → {r.status_code} {r.headers.get('Content-Type')}")
        failures += header_problems(f"page {path} ({r.status_code})", r.headers)
        counted += 1
    for path in others:
        for method in ("GET", "HEAD"):
            r = client.call(method, path)
            failures += header_problems(f"{method} {path} ({r.status_code})", r.headers)
            counted += 1
    # Errors made before a handler runs: cross-site refusal, wrong method, oversize body, throttling.
    odd = [
        client.session.post(trove_server.base + "/api/v1/strategies/mine", json={"strategy": "x"},
                            headers={"Origin": "http://evil.example"}, timeout=TIMEOUT),
        client.call("PATCH", "/health"),
        client.call("POST", "/api/v1/poetry/wordsets", data=b"{" * (3 << 20), headers={"Content-Type": "application/json"}),
        client.call("POST", "/api/v1/strategies/mine", data=b"not json", headers={"Content-Type": "application/json"}),
    ]
    for r in odd:
        failures += header_problems(f"{r.request.method} {r.request.path_url} ({r.status_code})", r.headers)
        counted += 1
    STATS["headers"] = (len(pages), counted, len(failures))
    assert not failures, f"{len(failures)} header failures:\n" + "\n".join(failures)


# ---------- Nothing secret in the log ----------

def test_passwords_are_never_logged_or_stored_in_plain_text(trove_server):
    """Every password this module used (sign-ups, the right and the 100 wrong sign-ins) is absent from the
    server's output and from the database files. Runs after the other tests of the module."""
    trove_server.ensure_running()
    if not any(p.startswith("wrong-") for p in PASSWORDS):  # run alone: make some sign-ins to look for
        test_sign_in_throttling_holds_against_100_tries(trove_server)
    log = trove_server.log_path.read_text(errors="replace")
    database = b"".join(path.read_bytes() for path in trove_server.database.parent.glob(trove_server.database.name + "*"))
    in_log = [p for p in PASSWORDS if p in log]
    in_database = [p for p in PASSWORDS if p.encode() in database]
    assert not in_log, f"{len(in_log)} passwords in the server's log {trove_server.log_path}, e.g. {in_log[:3]}"
    assert not in_database, f"{len(in_database)} passwords in plain text in the database, e.g. {in_database[:3]}"
    STATS["passwords"] = len(PASSWORDS)


@pytest.fixture(scope="module", autouse=True)
def _report_line():
    yield
    owners = [STATS[k] for k in ("owned_account", "owned_guest") if k in STATS]
    parts = []
    if owners:
        wrong = sum(o[3] for o in owners)
        parts.append(f"{owners[0][0]} owned routes ({owners[0][1]} route-methods) × 3 intruders × {len(owners)} owners → "
                     + ("all 404" if not wrong else f"{wrong} NOT 404"))
    if "xss" in STATS:
        n, fields, pages, _, wrong = STATS["xss"]
        parts.append(f"{n} injection strings × {fields} fields × {pages} pages " + ("escaped" if not wrong else f"→ {wrong} FAILURES"))
    if "csrf" in STATS:
        parts.append(f"cross-site writes refused ({STATS['csrf'][0]})" + (f", {STATS['csrf'][1]} NOT refused" if STATS["csrf"][1] else ""))
    if "session" in STATS:
        parts.append("session rotated and killed")
    if "bcrypt" in STATS:
        parts.append(STATS["bcrypt"])
    if "throttle" in STATS:
        first, tries, _ = STATS["throttle"]
        parts.append(f"throttled after {first - 1} of {tries} tries")
    uploads = [STATS[k] for k in ("uploads_background", "uploads_story") if k in STATS]
    if uploads:
        refused, total = sum(u[0] for u in uploads), sum(u[1] for u in uploads)
        parts.append(f"{refused} of {total} disguised or oversize uploads refused")
    if "traversal" in STATS:
        total, wrong = STATS["traversal"]
        parts.append(f"{total - wrong} of {total} traversal paths refused")
    if "headers" in STATS:
        pages, counted, wrong = STATS["headers"]
        parts.append(f"headers on {pages} pages and {counted - pages} other answers" + (f" ({wrong} MISSING)" if wrong else ""))
    if "passwords" in STATS:
        parts.append(f"{STATS['passwords']} passwords never logged")
    if parts:
        report("security: " + "; ".join(parts))
