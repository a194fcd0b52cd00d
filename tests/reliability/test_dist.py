"""Running a release: `make dist`'s folder, copied to another place, starts from another working directory and
serves every page, reading its files from the resources beside the executable (not from the build folder, whose
path the binary also knows: a marker file added only to the copy proves which one it read); and what an operator
reads off it: /metrics in the Prometheus text format, parsed by Prometheus' own client library's parser."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import urllib.request
from pathlib import Path

from prometheus_client.parser import text_string_to_metric_families

from reliability_support import ROOT, free_port, report, trove_binary
from trove_process import run_trove, serve_command, start_serve, stop

PAGES = ("/", "/strategies", "/yoga", "/stories", "/poetry", "/cities", "/login", "/signup", "/account", "/api/openapi.json")


def get(url: str) -> tuple[int, bytes]:
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.status, response.read()


def metric_families(base: str) -> dict[str, list]:
    status, body = get(base + "/metrics")
    assert status == 200
    return {family.name: family.samples for family in text_string_to_metric_families(body.decode())}


def strategies_requests(base: str) -> float:
    samples = metric_families(base).get("hb_requests", [])
    return sum(s.value for s in samples if s.labels.get("http_route") == "/strategies" and s.labels.get("http_response_status_code") == "200")


def test_the_dist_folder_runs_from_anywhere():
    binary = Path(trove_binary())
    work = Path(tempfile.mkdtemp(prefix="trove-dist-"))
    try:
        made = work / "made"
        subprocess.run([str(ROOT / "scripts" / "dist.sh")], check=True, capture_output=True, text=True,
                       env={**os.environ, "BIN_DIR": str(binary.parent), "OUT": str(made), "KEEP_SYMBOLS": "1"})
        installed = work / "elsewhere" / "trove"
        shutil.copytree(made, installed, symlinks=True)
        assert sorted(p.name for p in installed.iterdir()) == [
            "README.md", "docs", "samples", "trove", "trove_CardImage.resources", "trove_WebApp.resources"]
        marker = installed / "trove_WebApp.resources" / "Public" / "dist-marker.txt"
        marker.write_text("read from beside the executable")

        database = work / "data" / "trove.sqlite"
        database.parent.mkdir()
        trove = str(installed / "trove")
        run_trove(trove, "migrate", "--database", str(database))
        # docs/DEPLOY.md's loop: every sample folder, Trove's own stories and the Twine ones alike.
        samples = sorted((installed / "samples" / "stories").iterdir())
        assert len(samples) >= 4 and any((folder / "story.html").exists() for folder in samples)
        for folder in samples:
            run_trove(trove, "import", "story", str(folder), "--database", str(database))
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        log_path = work / "serve.log"
        with open(log_path, "w") as log:
            process = start_serve(serve_command(trove, port, database), base, log, log_path, cwd="/")
            try:
                for page in PAGES:
                    status, body = get(base + page)
                    assert status == 200 and body, f"{page}: {status}"
                status, body = get(base + "/api/v1/stories")
                assert status == 200 and len(json.loads(body)["stories"]) == len(samples), body[:300]
                # This database has none of the data sets: the log names each, with the command that loads it.
                log_text = log_path.read_text()
                for command in ("strategies", "pronunciations", "cities", "basemap"):
                    assert f"Run `trove import {command}` (docs/DEPLOY.md)" in log_text, f"no notice for {command}"
                status, body = get(base + "/static/dist-marker.txt")
                assert (status, body) == (200, b"read from beside the executable"), "served from the build folder, not the copy"
                before = strategies_requests(base)
                for _ in range(3):
                    get(base + "/strategies")
                assert strategies_requests(base) == before + 3, "the request counter did not move with the requests"
                families = metric_families(base)
                assert families["trove_process_resident_memory_bytes"][0].value > 10_000_000
                queries = families["trove_db_query_duration_seconds"]
                assert any(s.name.endswith("_count") and s.labels == {"kind": "sqlite", "op": "read"} and s.value > 0 for s in queries)
                durations = families["http_server_request_duration"]
                assert any(s.name.endswith("_bucket") and s.labels.get("http_route") == "/strategies" for s in durations)
            finally:
                stop(process)
        report(f"dist: the folder copied elsewhere imported its {len(samples)} sample stories and named the 4 data sets not "
               f"imported; it served {len(PAGES)} pages from cwd /, resources read beside the executable; "
               "/metrics parsed by prometheus_client, counters moving with requests")
    finally:
        shutil.rmtree(work, ignore_errors=True)
