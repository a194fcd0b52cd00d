"""Every page of Trove, for the phone-size checks (test_phone.py) and `make screenshots` (test_screenshots.py).

Each page is (name, server fixture, path): the path is a string, or a function of (driver, base) that opens what the
page needs first (a card's id, a published poem) and returns the path. The name is the test id and the screenshot's
file name.
"""

from __future__ import annotations

from browser_support import wait, wait_for_layout


def _card(driver, base: str) -> str:
    driver.get(base + "/strategies")
    cards = driver.execute_async_script(
        "const done = arguments[0]; fetch('/api/v1/strategies', {headers: {Accept: 'application/json'}})"
        ".then(r => r.json()).then(done, e => done(String(e)))")
    return f"/strategies/{cards[0]['id']}"


def _public_poem(driver, base: str) -> str:
    """Opens the board (which makes the guest's first poem), publishes that poem and returns its public page."""
    driver.get(base + "/poetry")
    wait(driver, lambda d: d.execute_script("return document.getElementById('board')?.dataset.ready === 'true'"),
         "the poetry board never became ready", timeout=20)
    # As a person does: the Share panel's Publish button, which saves the poem first.
    driver.execute_script("document.querySelector('#share-panel').open = true; document.getElementById('publish').click()")
    wait(driver, lambda d: "/poetry/p/" in (d.execute_script(
        "const a = document.getElementById('publish-link'); return a && !a.closest('[hidden]') ? a.href : ''") or ""),
         "publishing the poem showed no link", timeout=20)
    href = driver.execute_script("return document.getElementById('publish-link').href")
    return href[href.index("/poetry/p/"):]


PAGES = [
    ("home", "server", "/"),
    ("strategies", "strategies_server", "/strategies"),
    ("strategies-card", "strategies_server", _card),
    ("poetry", "server", "/poetry"),
    ("poetry-public", "server", _public_poem),
    ("cities", "cities_server", "/cities"),
    ("cities-city", "cities_server", "/cities/3176959"),
    ("cities-country", "cities_server", "/cities/countries/IT"),
    ("yoga", "yoga_server", "/yoga"),
    ("stories", "stories_server", "/stories"),
    ("stories-reader", "stories_server", "/stories/gull-rock"),
    ("stories-map", "stories_server", "/stories/gull-rock/map"),
    ("signup", "server", "/signup"),
    ("login", "server", "/login"),
    ("account", "server", "/account"),
]

# One page per app for the README (docs/screenshots/<app>.png).
APP_PAGES = {"strategies": "strategies", "yoga": "yoga", "stories": "stories-reader", "poetry": "poetry", "cities": "cities-city"}


def open_page(request, driver, page) -> str:
    """Opens `page` (an entry of PAGES) in `driver` and waits until it has settled; returns its URL."""
    _, fixture, path = page
    base = request.getfixturevalue(fixture)
    if callable(path):
        path = path(driver, base)
    driver.get(base + path)
    wait(driver, lambda d: d.execute_script("return document.readyState") == "complete", f"{path} never finished loading")
    # Fonts, then two frames in a row that measure the same (what the page's first fetches drew is in).
    wait_for_layout(driver, path)
    return base + path
