#!/usr/bin/env bash
# make dist: one folder holding `trove` and everything it reads at run time, which starts from any working
# directory, and a tarball of it.
#
#   scripts/dist.sh                 release build, then dist/trove/ and dist/trove-<system>-<arch>.tar.gz
#   BIN_DIR=DIR OUT=DIR scripts/dist.sh   assemble from an existing build folder (the tests use the debug one)
#
# trove finds its templates, static files and card glyphs in the `*.resources` folders beside the executable
# (SwiftPM's Bundle.module looks there first), so the folder can be copied anywhere. It also carries the
# sample stories and the docs a self-hoster needs; the data sets are fetched on the server (docs/DEPLOY.md).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

SWIFT=${SWIFT:-swift}
OUT=${OUT:-dist/trove}
if [ -z "${BIN_DIR:-}" ]; then
    "$SWIFT" build -c release --product trove
    BIN_DIR=$("$SWIFT" build -c release --show-bin-path)
fi

for part in trove trove_WebApp.resources trove_CardImage.resources; do
    [ -e "$BIN_DIR/$part" ] || { echo "dist: $BIN_DIR/$part is missing (build first)" >&2; exit 1; }
done

rm -rf "$OUT"
mkdir -p "$OUT/docs"
cp "$BIN_DIR/trove" "$OUT/trove"
cp -R "$BIN_DIR/trove_WebApp.resources" "$BIN_DIR/trove_CardImage.resources" "$OUT/"
cp -R samples "$OUT/samples"
cp README.md "$OUT/"
cp docs/DEPLOY.md docs/ARCHITECTURE.md docs/SECURITY.md docs/STORY_FORMAT.md "$OUT/docs/"
if [ -z "${KEEP_SYMBOLS:-}" ] && command -v strip >/dev/null 2>&1; then strip "$OUT/trove"; fi

if [ "$OUT" = "dist/trove" ]; then
    archive="dist/trove-$(uname -s | tr '[:upper:]' '[:lower:]')-$(uname -m).tar.gz"
    tar -C dist -czf "$archive" trove
    echo "dist: $OUT and $archive" >&2
else
    echo "dist: $OUT" >&2
fi
