"""Running trove from Python, for the browser and reliability suites and for `make bench`: a free port, a
one-off command (migrate, import …), and `trove serve` until its /health answers. Failures are exceptions
whose message carries the server's output; each caller turns them into its own kind of failure."""

from __future__ import annotations

import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path


class TroveFailed(Exception):
    """A trove command failed, or `trove serve` did not come up; the message says how, with its output."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def read_log(path: Path | None, limit: int = 20_000) -> str:
    """The end of a server's log file."""
    if path is None or not path.exists():
        return "(no server output)"
    text = path.read_text(errors="replace")
    return text[-limit:] if len(text) > limit else text


def health_ok(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as resp:
            return resp.status == 200
    except (urllib.error.URLError, OSError):
        return False


def run_trove(binary: str, *args: str, timeout: float = 120) -> None:
    """Runs a one-off trove command; raises TroveFailed with its output if it fails."""
    cmd = [binary, *args]
    try:
        result = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        raise TroveFailed(f"{' '.join(cmd)} did not finish within {timeout:.0f}s") from None
    if result.returncode != 0:
        raise TroveFailed(f"{' '.join(cmd)} exited with {result.returncode}\n--- output ---\n{result.stdout}{result.stderr}")


def serve_command(binary: str, port: int, database: Path | str, extra_args: tuple[str, ...] = ()) -> list[str]:
    return [binary, "serve", "--host", "127.0.0.1", "--port", str(port), "--database", str(database), *extra_args]


def start_serve(cmd: list[str], base: str, log, log_path: Path, timeout: float = 30.0, env: dict | None = None,
                poll: float = 0.1, cwd: str | Path | None = None) -> subprocess.Popen:
    """Starts `cmd` (a `trove serve`) with its output in the open file `log`, and waits until `base`/health
    answers 200; raises TroveFailed (with the end of `log_path`) when it exits or does not answer in time."""
    process = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env, cwd=cwd)
    deadline = time.monotonic() + timeout
    port_retries = 5
    while not health_ok(base + "/health"):
        if process.poll() is not None and port_retries > 0 and "the port is in use" in read_log(log_path):
            # The port was free when chosen (or when the same server stopped, for a restart on the same origin)
            # and something holds it for a moment: a fresh-clone WebKit run lost a test to that once. Try again
            # on the same port; anything else that stops the start fails at once, as before.
            port_retries -= 1
            time.sleep(0.5)
            process = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env, cwd=cwd)
            continue
        if process.poll() is not None:
            raise TroveFailed(f"trove serve exited with {process.returncode} before answering /health.\n"
                              f"command: {' '.join(cmd)}\n--- server output ---\n{read_log(log_path)}")
        if time.monotonic() > deadline:
            stop(process)
            raise TroveFailed(f"GET {base}/health did not answer 200 within {timeout:.0f}s.\n"
                              f"command: {' '.join(cmd)}\n--- server output ---\n{read_log(log_path)}")
        time.sleep(poll)
    return process


def stop(process: subprocess.Popen | None, timeout: float = 10) -> None:
    """Stops a process politely, then not."""
    if process is None or process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
