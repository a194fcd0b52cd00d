#!/usr/bin/env python3
"""Renders the glyph atlas the server draws card preview images with (Sources/CardImage/Resources/glyphs.bin).

Run once, by hand, when the character set or size changes; the output is committed, so building Trove needs
neither Python nor Pillow:

    python3 -m venv /tmp/glyphvenv && /tmp/glyphvenv/bin/pip install pillow
    /tmp/glyphvenv/bin/python scripts/make-card-glyphs.py

Format (little-endian): "TCG1", u16 pixel size, i16 ascent, i16 descent, u16 glyph count, then per glyph
u32 code point, u16 advance in 1/64 px, i16 left bearing, i16 top (pixels above the baseline),
u16 width, u16 height, then width × height bytes of alpha, row by row.
"""
import struct
import sys
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
SIZE = 64
OUTPUT = Path(__file__).resolve().parent.parent / "Sources/CardImage/Resources/glyphs.bin"

CHARACTERS = (
    [chr(c) for c in range(0x20, 0x7F)]          # printable ASCII
    + [chr(c) for c in range(0xA0, 0x100) if c != 0xAD]  # Latin-1 letters and signs (· is U+00B7), not the soft hyphen
    + list("‘’‚“”„–—…•€ŒœŠšŽžŸ′″")              # typographic quotes, dashes, ellipsis and a few Windows-1252 extras
)


def glyph_record(font, character):
    advance = round(font.getlength(character) * 64)
    left, top, right, bottom = font.getbbox(character, anchor="ls")
    width, height = max(right - left, 0), max(bottom - top, 0)
    alpha = b""
    if not (width and height):
        width = height = 0
    else:
        image = Image.new("L", (width, height), 0)
        ImageDraw.Draw(image).text((-left, -top), character, font=font, fill=255, anchor="ls")
        ink = image.getbbox()  # Pillow's box can include blank columns; keep only the ink
        if ink:
            image = image.crop(ink)
            left, top = left + ink[0], top + ink[1]
            width, height = image.size
            alpha = image.tobytes()
        else:
            width = height = 0
    header = struct.pack("<IHhhHH", ord(character), advance, left, -top, width, height)
    return header + alpha


def main():
    font = ImageFont.truetype(FONT, SIZE, layout_engine=ImageFont.Layout.BASIC)
    missing = [c for c in CHARACTERS if font.getmask(c).getbbox() is None and not c.isspace()]
    if missing:
        sys.exit(f"DejaVu Sans has no glyph for {missing!r}")
    ascent, descent = font.getmetrics()
    records = [glyph_record(font, c) for c in CHARACTERS]
    data = b"TCG1" + struct.pack("<HhhH", SIZE, ascent, descent, len(records)) + b"".join(records)
    OUTPUT.write_bytes(data)
    print(f"{OUTPUT}: {len(records)} glyphs, {len(data)} bytes")


if __name__ == "__main__":
    main()
