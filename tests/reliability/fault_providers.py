"""A fake outside service whose behaviour a test switches: it answers in the real service's shape, or hangs,
resets the connection, answers 500, sends malformed or wrong-shaped JSON, streams a 50 MB body, or trickles
one byte at a time. Used by test_provider_faults.py for Open-Meteo, Overpass and GitHub (see
/work/shared/PROVIDERS.md for the shapes).

It speaks HTTP/1.1 over raw sockets (not http.server) so a fault can be exactly what a broken service does:
a connection that never answers, an RST instead of an answer, a body that never ends."""

from __future__ import annotations

import json
import socket
import struct
import threading
import time
import urllib.parse
from collections.abc import Callable

FAULTS = ("hang", "reset", "status_500", "malformed", "wrong_shape", "huge", "trickle")
# "huge_unannounced": the 50 MB body without a Content-Length (read until the connection closes), so the client
# cannot refuse it from its headers and must stop reading at its own cap (test_huge_bodies_do_not_balloon_memory).
MODES = ("ok", *FAULTS, "huge_unannounced")
HUGE_BYTES = 50 * 1024 * 1024
HANG_LIMIT = 120.0  # a hanging answer gives up after this long even if no test releases it


def open_meteo_answer(path: str, query: dict[str, list[str]]) -> object | None:
    if path != "/v1/forecast":
        return None
    return {"latitude": float(query.get("latitude", ["0"])[0]), "longitude": float(query.get("longitude", ["0"])[0]),
            "timezone": "GMT", "utc_offset_seconds": 0,
            "current": {"time": "2026-11-22T20:15", "interval": 900, "temperature_2m": 12.5, "weather_code": 3,
                        "wind_speed_10m": 5.0, "relative_humidity_2m": 80, "is_day": 1},
            "current_units": {"temperature_2m": "°C", "weather_code": "wmo code"}}


def overpass_answer(path: str, query: dict[str, list[str]]) -> object | None:
    if path != "/api/interpreter":
        return None
    return {"elements": [
        {"type": "node", "id": 1001, "lat": 43.7701, "lon": 11.2501,
         "tags": {"name": "Sunrise Yoga Loft", "sport": "yoga", "addr:street": "Via Roma", "addr:housenumber": "3"}},
        {"type": "way", "id": 2002, "center": {"lat": 43.7720, "lon": 11.2530},
         "tags": {"name": "Lotus Studio", "leisure": "fitness_centre", "sport": "yoga"}}]}


def github_answer(path: str, query: dict[str, list[str]]) -> object | bytes | None:
    """GitHub's API and raw files on one address: an author with one repository that is not a story."""
    if path.startswith("/users/") and path.endswith("/repos"):
        user = path.split("/")[2]
        return [{"name": "notes", "full_name": f"{user}/notes", "default_branch": "main", "fork": False}]
    if path.endswith("/README.md"):
        return b"# Notes\nNothing to read here.\n"
    return None


# Valid JSON in the wrong shape, per provider (so decoding, not parsing, fails).
WRONG_SHAPES: dict[str, bytes] = {
    "open-meteo": json.dumps({"current": {"temperature_2m": "warm", "weather_code": "cloudy"}}).encode(),
    "overpass": json.dumps({"elements": {"node": "not a list"}}).encode(),
    "github": json.dumps({"message": "Not a list of repositories", "documentation_url": "https://docs.github.com"}).encode(),
}
HUGE_PREFIX = {"open-meteo": b'{"current":{"time":"', "overpass": b'{"elements":[', "github": b"["}
HUGE_UNIT = {
    "open-meteo": b"x" * 4096,
    "overpass": b'{"type":"node","id":1,"lat":43.77,"lon":11.25,"tags":{"name":"Yoga ' + b"y" * 3900 + b'"}},',
    "github": b'{"name":"r","full_name":"u/r","default_branch":"main","fork":false,"pad":"' + b"z" * 3900 + b'"},',
}


class FaultProvider:
    """One fake service on a loopback port. `mode` (one of MODES) decides every answer from then on; `hits`
    counts the requests that arrived, `bytes_sent` the body bytes written; `release()` ends every hanging
    or trickling answer (call it between tests)."""

    def __init__(self, name: str, answer: Callable[[str, dict], object | None]):
        self.name = name
        self.answer = answer
        self.mode = "ok"
        self.hits = 0
        self.bytes_sent = 0
        self._lock = threading.Lock()
        self._release = threading.Event()
        self._stopping = threading.Event()
        self._socket = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._socket.bind(("127.0.0.1", 0))
        self._socket.listen(128)
        self.url = f"http://127.0.0.1:{self._socket.getsockname()[1]}"
        self._thread = threading.Thread(target=self._accept, name=f"fake-{name}", daemon=True)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stopping.set()
        self._release.set()
        self._socket.close()

    def set_mode(self, mode: str) -> None:
        assert mode in MODES, mode
        self.release()
        self.mode = mode

    def release(self) -> None:
        """Ends the hanging and trickling answers in progress; later ones hang again."""
        self._release.set()
        time.sleep(0.05)
        self._release = threading.Event()

    def _accept(self) -> None:
        while not self._stopping.is_set():
            try:
                connection, _ = self._socket.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(connection,), daemon=True).start()

    def _read_request(self, connection: socket.socket) -> str | None:
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = connection.recv(65536)
            if not chunk:
                return None
            data += chunk
        head, _, body = data.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        length = next((int(line.split(":", 1)[1]) for line in lines[1:] if line.lower().startswith("content-length:")), 0)
        while len(body) < length:
            chunk = connection.recv(65536)
            if not chunk:
                break
            body += chunk
        return lines[0].split(" ")[1] if len(lines[0].split(" ")) > 1 else "/"

    def _serve(self, connection: socket.socket) -> None:
        release = self._release
        try:
            connection.settimeout(HANG_LIMIT)
            target = self._read_request(connection)
            if target is None:
                return
            with self._lock:
                self.hits += 1
            mode = self.mode
            url = urllib.parse.urlsplit(target)
            if mode == "hang":
                release.wait(HANG_LIMIT)
            elif mode == "reset":
                # SO_LINGER with a zero timeout: close() sends an RST, not a FIN.
                connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            elif mode == "status_500":
                self._send(connection, 500, b'{"error":"internal server error"}')
            elif mode == "malformed":
                self._send(connection, 200, b'{"current": {"temperature_2m": 12.5, "weather_code": 3,,,]] <html>')
            elif mode == "wrong_shape":
                self._send(connection, 200, WRONG_SHAPES[self.name])
            elif mode in ("huge", "huge_unannounced"):
                self._stream_huge(connection, release, announce=mode == "huge")
            elif mode == "trickle":
                self._trickle(connection, release)
            else:
                found = self.answer(url.path, urllib.parse.parse_qs(url.query))
                if found is None:
                    self._send(connection, 404, b'{"message":"Not Found"}')
                else:
                    self._send(connection, 200, found if isinstance(found, bytes) else json.dumps(found).encode())
        except OSError:
            pass
        finally:
            try:
                connection.close()
            except OSError:
                pass

    def _send(self, connection: socket.socket, status: int, body: bytes) -> None:
        reason = {200: "OK", 404: "Not Found", 500: "Internal Server Error"}[status]
        head = (f"HTTP/1.1 {status} {reason}\r\nContent-Type: application/json; charset=utf-8\r\n"
                f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode()
        connection.sendall(head + body)
        self._count(len(body))

    def _count(self, n: int) -> None:
        with self._lock:
            self.bytes_sent += n

    def _stream_huge(self, connection: socket.socket, release: threading.Event, announce: bool = True) -> None:
        """A 200 of HUGE_BYTES of JSON (announced in Content-Length, or not), streamed until the client hangs up."""
        length = f"Content-Length: {HUGE_BYTES}\r\n" if announce else ""
        connection.sendall((f"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n{length}"
                            f"Connection: close\r\n\r\n").encode())
        sent = 0
        prefix, unit = HUGE_PREFIX[self.name], HUGE_UNIT[self.name]
        connection.sendall(prefix)
        sent += len(prefix)
        while sent < HUGE_BYTES and not release.is_set():
            piece = unit * 16
            piece = piece[: HUGE_BYTES - sent]
            connection.sendall(piece)  # raises once the client has closed the connection
            sent += len(piece)
            self._count(len(piece))

    def _trickle(self, connection: socket.socket, release: threading.Event) -> None:
        """A 200 whose body arrives one byte every 100 ms: never idle long enough for a read timeout."""
        connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100000\r\nConnection: close\r\n\r\n")
        connection.sendall(b"{")
        for _ in range(99_999):
            if release.wait(0.1):
                return
            connection.sendall(b" ")
            self._count(1)
