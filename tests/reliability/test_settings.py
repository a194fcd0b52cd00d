"""Settings as a self-hoster gives them: a flag, else the environment, else the settings file (`--config` or
$TROVE_CONFIG: NAME=value lines, systemd's EnvironmentFile format), else the default. `trove config` prints what
`trove serve` would run with and where each setting came from, with keys and database passwords hidden; a bad
file stops every command with one line and exit status 1."""

from __future__ import annotations

import os
import subprocess
import tempfile
from pathlib import Path

from reliability_support import free_port, trove_binary
from trove_process import start_serve, stop


def trove(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in ("PORT", "HOST", "DATABASE_URL", "TROVE_CONFIG")}
    return subprocess.run([trove_binary(), *args], capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
                          env={**clean, **(env or {})})


def settings_file(text: str) -> Path:
    path = Path(tempfile.mkdtemp(prefix="trove-settings-")) / "trove.env"
    path.write_text(text)
    return path


def shown(output: str) -> dict[str, tuple[str, str]]:
    """`trove config`'s lines as {NAME: (value, origin)}."""
    found = {}
    for line in output.splitlines():
        name, rest = line.split(None, 1)
        value, origin = rest.rsplit("  [", 1)
        found[name] = (value.strip(), origin.rstrip("]"))
    return found


def test_trove_config_says_where_each_setting_comes_from_and_hides_secrets():
    path = settings_file("# Trove on the studio's server\nexport PORT=9090\nHOST = '0.0.0.0'\n"
                         'DATABASE_URL="postgres://trove:s3cret@db.internal:5432/trove"\nFOURSQUARE_API_KEY=fsq-abc123\n')
    result = trove("config", "--config", str(path), "--log-level", "debug", env={"PORT": "7000"})
    assert result.returncode == 0, result.stderr
    settings = shown(result.stdout)
    assert settings["PORT"] == ("7000", "environment"), "the environment wins over the file"
    assert settings["HOST"] == ("0.0.0.0", str(path))
    assert settings["LOG_LEVEL"] == ("debug", "flag")
    assert settings["ACCESS_LOG"] == ("on", "default")
    assert settings["DATABASE_URL"] == ("postgres://trove:hidden@db.internal:5432/trove", str(path))
    assert settings["FOURSQUARE_API_KEY"] == ("(set, hidden)", str(path))
    assert "s3cret" not in result.stdout and "fsq-abc123" not in result.stdout
    # $TROVE_CONFIG names the file when --config does not.
    assert shown(trove("config", env={"TROVE_CONFIG": str(path)}).stdout)["PORT"] == ("9090", str(path))


def test_a_bad_setting_stops_every_command_with_one_line():
    for text, words in [("PROT=8080\n", "'PROT' is not a Trove setting"), ("PORT 8080\n", "line 1: expected NAME=value"),
                        ("PORT=99999\n", "out of range")]:
        path = settings_file(text)
        for command in (["config"], ["serve"], ["migrate"]):
            if command == ["migrate"] and "out of range" in words:
                continue  # migrate has no port
            result = trove(*command, "--config", str(path))
            assert result.returncode == 1, f"trove {command[0]} with {text!r}: exit {result.returncode}"
            assert len(result.stderr.strip().splitlines()) == 1 and words in result.stderr, result.stderr
    missing = trove("config", "--config", "/nowhere/trove.env")
    assert missing.returncode == 1 and "Cannot read the settings file '/nowhere/trove.env'" in missing.stderr


def test_serve_runs_with_the_settings_file():
    workdir = Path(tempfile.mkdtemp(prefix="trove-settings-serve-"))
    port = free_port()
    path = settings_file(f"PORT={port}\nDATABASE_URL={workdir / 'trove.sqlite'}\nACCESS_LOG=off\n")
    log_path = workdir / "server.log"
    with open(log_path, "ab") as log:
        env = {k: v for k, v in os.environ.items() if k not in ("PORT", "DATABASE_URL")}
        process = start_serve([trove_binary(), "serve", "--config", str(path)], f"http://127.0.0.1:{port}", log, log_path,
                              env=env)
        stop(process)
    assert (workdir / "trove.sqlite").exists(), "the database named in the file was not used"
    assert "hb.request" not in log_path.read_text(errors="replace"), "ACCESS_LOG=off in the file was not applied"
