#!/usr/bin/env bash
# Regenerates Trove's PNG icons from the SVG source.
#   Sources/WebApp/Public/icons/icon.svg   ->  icon-192.png, icon-512.png,
#                                              icon-512-maskable.png, apple-touch-icon.png
# The SVG has a rounded background (<rect id="bg" rx=…>) and the drawing in <g id="mark">.
# Maskable and Apple icons need a full-bleed square background (the platform cuts the
# shape), and the maskable one keeps the mark inside the central safe circle (radius 40%).
# Needs rsvg-convert: apt-get install -y librsvg2-bin
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
icons="$root/Sources/WebApp/Public/icons"
src="$icons/icon.svg"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

command -v rsvg-convert >/dev/null || { echo "rsvg-convert missing: apt-get install -y librsvg2-bin" >&2; exit 1; }

# full_bleed SCALE OUT: square background, mark scaled about the centre.
full_bleed() {
  sed -e '/id="bg"/s/ rx="[0-9.]*"//' \
      -e "s|<g id=\"mark\">|<g id=\"mark\" transform=\"translate(32 32) scale($1) translate(-32 -31.5)\">|" \
      "$src" > "$2"
}

full_bleed 0.72 "$tmp/maskable.svg"
full_bleed 0.86 "$tmp/apple.svg"

rsvg-convert -w 192 -h 192 "$src"              -o "$icons/icon-192.png"
rsvg-convert -w 512 -h 512 "$src"              -o "$icons/icon-512.png"
rsvg-convert -w 512 -h 512 "$tmp/maskable.svg" -o "$icons/icon-512-maskable.png"
rsvg-convert -w 180 -h 180 "$tmp/apple.svg"    -o "$icons/apple-touch-icon.png"

echo "rendered icons in $icons"
