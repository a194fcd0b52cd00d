"""City Roulette: what a person does with the cities, in a real browser.

The `cities_server` fixture serves a database holding the small world of conftest.py (CITIES_FIXTURE):
nine towns within 10 km of Florence, Impruneta and Prato beyond, Andorra, San Marino, the Vatican and
Reykjavík's area. Its weather comes from a fake Open-Meteo (`open_meteo`) that answers 500 for Galluzzo,
so that row must say "weather unavailable"; Chromium logs that 503 (and only that) as a console error. Its
articles come from a fake Wikipedia (`wikipedia`) that has one about each city but Compiobbi, and answers 500
near Ponte a Ema.
Each test has a fresh browser, so a fresh guest profile with an empty collection. Locations are fixed
with browser_support.allow_location (DevTools on Chromium, a stand-in navigator.geolocation on WebKit). The map
needs no internet: the fixture imports a small basemap (conftest.CITIES_BASEMAP: Italy and Iceland roughly), and
open_cities turns the street map off on this device (it is on by default), except where a test is about it.
"""

from __future__ import annotations

import datetime
import json
import math
import re
from zoneinfo import ZoneInfo

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

import browser_support
from browser_support import add_preload_script, assert_page_weighs_under, set_viewport, swipe, wait
from conftest import (CITIES_ARTICLE_EXTRACTS, CITIES_ARTICLE_FAILS, CITIES_FIXTURE, CITIES_HOME, CITIES_NEARBY,
                      CITIES_WEATHER_FAILS, CITIES_WITHOUT_ARTICLE)

API = "/api/v1/cities"
IDS = {name: gid for gid, name, *_ in CITIES_FIXTURE}
FIXTURE = {name: dict(zip(("id", "name", "lat", "lon", "country", "population", "tz"), row[:7])) for row in CITIES_FIXTURE for name in [row[1]]}
FAILING_WEATHER = re.compile(
    rf"{API}/{IDS[CITIES_WEATHER_FAILS]}/weather(\?refresh=1)? - Failed to load resource: the server responded with a status of 503"
)
ANDORRA = ["Andorra la Vella", "Escaldes-Engordany", "Encamp", "Sant Julià de Lòria"]
COUNT_FETCHES = """
(() => {
  const original = window.fetch;
  let inFlight = 0;
  window.__weather = { most: 0, urls: [] };
  window.fetch = function (input, init) {
    const url = String(input && input.url ? input.url : input);
    if (!/\\/weather(\\?|$)/.test(url)) return original.apply(this, arguments);
    inFlight += 1;
    window.__weather.urls.push(url);
    window.__weather.most = Math.max(window.__weather.most, inFlight);
    return original.apply(this, arguments).finally(() => { inFlight -= 1; });
  };
})();
"""


# ---------- Helpers ----------

def distance_km(lat1, lon1, lat2, lon2) -> float:
    r = math.pi / 180
    a = math.sin((lat2 - lat1) * r / 2) ** 2 + math.cos(lat1 * r) * math.cos(lat2 * r) * math.sin((lon2 - lon1) * r / 2) ** 2
    return 2 * 6371.0088 * math.asin(math.sqrt(a))


def allow_location(driver, base: str, latitude: float = CITIES_HOME[0], longitude: float = CITIES_HOME[1]) -> None:
    browser_support.allow_location(driver, base, latitude, longitude)


def refuse_location(driver, base: str) -> None:
    browser_support.refuse_location(driver, base)


def assert_no_console_errors(driver) -> None:
    """Fails on SEVERE console entries other than the failing weather row's 503."""
    severe = [e for e in browser_support.severe_console_entries(driver) if not FAILING_WEATHER.search(e.get("message", ""))]
    assert not severe, f"console errors ({browser_support.ENGINE}):\n" + "\n".join(e.get("message", str(e)) for e in severe)


def call(driver, method: str, path: str, body=None) -> tuple[int, object, dict]:
    """A request from inside the page (its cookie is the guest profile): (status, JSON or text, headers)."""
    result = driver.execute_async_script(
        """
        const [method, path, body, done] = arguments;
        const init = {method, credentials: 'same-origin', headers: {Accept: 'application/json'}};
        if (body !== null) { init.headers['Content-Type'] = 'application/json'; init.body = JSON.stringify(body); }
        fetch(path, init).then(r => r.text().then(t => done({status: r.status, body: t,
            headers: {type: r.headers.get('Content-Type'), disposition: r.headers.get('Content-Disposition')}})))
          .catch(e => done({status: 0, body: String(e), headers: {}}));
        """,
        method, path, body,
    )
    text = result["body"]
    try:
        parsed = json.loads(text) if text else None
    except ValueError:
        parsed = text
    return result["status"], parsed, result["headers"]


def collection(driver) -> list[dict]:
    status, body, _ = call(driver, "GET", f"{API}/collection")
    assert status == 200, f"GET collection answered {status}: {body}"
    return body["cities"]


def import_cities(driver, names: list[str], favourites: tuple[str, ...] = ()) -> None:
    payload = {"cities": [{"geonameid": IDS[n], "favourite": n in favourites} for n in names]}
    status, body, _ = call(driver, "POST", f"{API}/collection/import", payload)
    assert status == 200, f"import answered {status}: {body}"


STREET_OFF = "try { localStorage.setItem('trove.cities.street', 'off'); } catch {}"


def street_off(driver) -> None:
    """The street map off on this device from the next page on (tests have no internet for its tiles)."""
    if not getattr(driver, "trove_street_off", False):
        add_preload_script(driver, STREET_OFF)
        driver.trove_street_off = True


def open_cities(driver, base: str, street: bool = False) -> None:
    if not street:
        street_off(driver)
    driver.get(base + "/cities")
    wait(driver, lambda d: d.execute_script("return document.getElementById('cities').dataset.ready === 'true'"),
         "the City Roulette page never became ready")


def shown(driver, element_id: str) -> bool:
    return driver.execute_script("const e = document.getElementById(arguments[0]); return !!e && !e.hidden && e.offsetParent !== null", element_id)


def tap(driver, element) -> None:
    """Click a control after scrolling it to the middle of the screen (clear of toasts and the sticky map)."""
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()


def wait_for_scene(driver, title: str | None = None) -> None:
    wait(driver, lambda d: shown(d, "scene") and d.find_elements(By.CSS_SELECTOR, "#rows .cr-row"),
         f"no scene with cities opened; the page says {status_text(driver)!r}")
    if title is not None:
        assert driver.find_element(By.ID, "scene-title").text == title


def status_text(driver) -> str:
    return driver.execute_script("return document.getElementById('welcome-status')?.textContent ?? ''")


def names(driver) -> list[str]:
    """The names of the rows on screen, top to bottom."""
    return driver.execute_script(
        "return [...document.querySelectorAll('#rows .cr-row:not([hidden]) .cr-name')].map(a => a.textContent)")


def row(driver, name: str):
    rows = [r for r in driver.find_elements(By.CSS_SELECTOR, "#rows .cr-row") if r.find_element(By.CSS_SELECTOR, ".cr-name").get_attribute("textContent") == name]
    assert rows, f"no row for {name}; the rows are {names(driver)}"
    return rows[0]


def star(driver, name: str) -> None:
    tap(driver, row(driver, name).find_element(By.CSS_SELECTOR, ".cr-star"))


def starred(driver, name: str) -> bool:
    return row(driver, name).find_element(By.CSS_SELECTOR, ".cr-star").get_attribute("aria-pressed") == "true"


def choose(driver, name: str, value: str) -> None:
    """Pick a segmented-control option (a radio behind a label)."""
    radio = driver.find_element(By.CSS_SELECTOR, f"input[name='{name}'][value='{value}']")
    tap(driver, radio.find_element(By.XPATH, ".."))
    assert radio.is_selected()


def filter_for(driver, text: str) -> None:
    field = driver.find_element(By.ID, "filter")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", field)
    field.clear()
    if text:
        field.send_keys(text)
    else:
        field.send_keys(" ", Keys.BACKSPACE)


def around_me(driver, base: str) -> None:
    allow_location(driver, base)
    open_cities(driver, base)
    tap(driver, driver.find_element(By.ID, "around-me"))
    wait_for_scene(driver, "Around you")


def weather_settled(driver) -> bool:
    return driver.execute_script(
        "const cells = [...document.querySelectorAll('#rows .cr-row .cr-wx')];"
        "return cells.length > 0 && cells.every(c => !c.classList.contains('is-loading'))")


def weather_of(driver, name: str) -> dict:
    return driver.execute_script(
        """
        const cell = arguments[0].querySelector('.cr-wx');
        const svg = cell.querySelector('svg');
        return {icon: svg ? [...svg.classList].find(c => c.startsWith('wx-')) : null,
                label: svg ? svg.getAttribute('aria-label') : null,
                text: cell.querySelector('.cr-temp').textContent, title: cell.title};
        """,
        row(driver, name),
    )


def commit_button(driver):
    return driver.find_element(By.ID, "scene-commit")


def leave_dialog_open(driver) -> bool:
    return driver.execute_script("return document.getElementById('leave-dialog').open")


def answer_leave_dialog(driver, choice: str) -> str:
    """Waits for the "leave?" question, answers it ('stay' or 'leave') and returns what it asked."""
    wait(driver, leave_dialog_open, "no question was asked before leaving")
    question = driver.find_element(By.ID, "leave-title").text
    driver.find_element(By.CSS_SELECTOR, f"#leave-dialog button[value='{choice}']").click()
    wait(driver, lambda d: not leave_dialog_open(d), "the question did not close")
    return question


def map_pixels(driver) -> dict:
    """How many pixels of the map differ from its sea colour, and the colour at each city's dot."""
    return driver.execute_script(
        """
        const canvas = document.getElementById('map');
        const map = canvas.cityMap;
        const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
        const sea = [data[0], data[1], data[2]];
        let inked = 0;
        for (let i = 0; i < data.length; i += 4) {
          if (Math.abs(data[i] - sea[0]) + Math.abs(data[i + 1] - sea[1]) + Math.abs(data[i + 2] - sea[2]) > 30) inked += 1;
        }
        const scale = canvas.width / canvas.clientWidth;
        const dots = {};
        map.cities.forEach((c, i) => {
          const [x, y] = map.screen(i);
          const at = (Math.round(y * scale) * canvas.width + Math.round(x * scale)) * 4;
          // And the colours within 2 px: a label placed beside a dot may cover its very centre.
          const near = [];
          for (let dy = -2; dy <= 2; dy += 1) {
            for (let dx = -2; dx <= 2; dx += 1) {
              const k = (Math.round(y * scale + dy) * canvas.width + Math.round(x * scale + dx)) * 4;
              near.push([data[k], data[k + 1], data[k + 2]]);
            }
          }
          dots[c.name] = {x, y, rgb: [data[at], data[at + 1], data[at + 2]], near};
        });
        // The selection's colour as the canvas paints it, and whether a frame is still to be painted (the pixels
        // then show an older state than map.screen() places).
        const probe = document.createElement('canvas').getContext('2d');
        probe.fillStyle = getComputedStyle(canvas).getPropertyValue('--cr-sel').trim();
        probe.fillRect(0, 0, 1, 1);
        const selection = [...probe.getImageData(0, 0, 1, 1).data].slice(0, 3);
        return {inked, dots, width: canvas.clientWidth, height: canvas.clientHeight, worldPoints: map.world.length / 2,
                painted: !map.frame, selection};
        """
    )


# ---------- Around Me ----------

def test_around_me_lists_the_towns_within_10_km_nearest_first(cities_server, browser):
    around_me(browser, cities_server)

    listed = names(browser)
    assert set(listed) == set(CITIES_NEARBY), f"Around Me lists {listed}"
    assert "Prato" not in listed and "Impruneta" not in listed, "Prato and Impruneta are more than 10 km away"
    assert listed[0] == "Florence", "by default the largest city comes first"
    assert browser.find_element(By.ID, "list-status").text == f"{len(CITIES_NEARBY)} cities"

    choose(browser, "sort", "near")
    by_distance = sorted(CITIES_NEARBY, key=lambda n: distance_km(*CITIES_HOME, FIXTURE[n]["lat"], FIXTURE[n]["lon"]))
    assert names(browser) == by_distance, "Nearest puts the nearest first"
    shown_km = [float(re.search(r"([\d.]+) km away", row(browser, n).text).group(1)) for n in names(browser)]
    assert shown_km == sorted(shown_km), f"the distances shown are not ascending: {shown_km}"

    # The API itself answers nearest first, at most 30, within 10 km.
    status, body, _ = call(browser, "GET", f"{API}/nearby?lat={CITIES_HOME[0]}&lon={CITIES_HOME[1]}&radius_km=10&limit=30")
    assert status == 200
    assert [c["name"] for c in body["cities"]] == by_distance
    wait(browser, weather_settled, "the weather never finished loading")
    assert_no_console_errors(browser)


# A device's location service that keeps its last fix: Reykjavík two minutes ago, Florence now. It answers the old fix
# to a page that accepts one that old (maximumAge), as a phone does.
LOCATION_WITH_AN_OLD_FIX = """
const [here, before] = arguments;
const answer = (ok, options) => setTimeout(() => {
  const old = (options?.maximumAge ?? 0) >= 120000;
  const [latitude, longitude] = old ? before : here;
  ok({coords: {latitude, longitude, accuracy: 10, altitude: null, altitudeAccuracy: null, heading: null, speed: null},
      timestamp: Date.now() - (old ? 120000 : 0)});
}, 0);
Object.defineProperty(navigator, 'geolocation', {configurable: true, value: {
  getCurrentPosition(ok, fail, options) { answer(ok, options); },
  watchPosition(ok, fail, options) { answer(ok, options); return 1; },
  clearWatch() {},
}});
"""


def test_around_me_asks_for_a_fresh_position_not_one_minutes_old(cities_server, browser):
    """Issue 57: Around Me took a fix up to 5 minutes old: it answered for Reykjavík after the phone had moved on."""
    open_cities(browser, cities_server)
    browser.execute_script(LOCATION_WITH_AN_OLD_FIX, list(CITIES_HOME), [FIXTURE["Reykjavík"]["lat"], FIXTURE["Reykjavík"]["lon"]])
    tap(browser, browser.find_element(By.ID, "around-me"))
    wait_for_scene(browser, "Around you")
    assert set(names(browser)) == set(CITIES_NEARBY), f"Around Me answered for an old position: {names(browser)}"


def test_a_star_moves_the_city_to_the_top_and_the_search_filters_as_you_type(cities_server, browser):
    around_me(browser, cities_server)
    assert not starred(browser, "Compiobbi")
    star(browser, "Compiobbi")
    assert starred(browser, "Compiobbi")
    assert names(browser)[0] == "Compiobbi", f"a starred city goes to the top: {names(browser)}"
    assert names(browser)[1] == "Florence", "then the others by population"
    assert browser.switch_to.active_element == row(browser, "Compiobbi").find_element(By.CSS_SELECTOR, ".cr-star"), \
        "the star keeps the focus when its row moves"

    filter_for(browser, "sesto")
    wait(browser, lambda d: names(d) == ["Sesto Fiorentino"], f"typing 'sesto' shows {names(browser)}")
    filter_for(browser, "FI")
    wait(browser, lambda d: names(d) == ["Sesto Fiorentino", "Fiesole"], f"typing 'FI' shows {names(browser)}")
    assert "2 of 9 cities" in browser.find_element(By.ID, "list-status").text

    filter_for(browser, "")
    choose(browser, "scope", "favourites")
    assert names(browser) == ["Compiobbi"], "the Favourites scope shows only favourites"
    filter_for(browser, "flor")
    assert names(browser) == [], "Florence is not a favourite"
    choose(browser, "scope", "all")
    assert names(browser) == ["Florence"]
    assert_no_console_errors(browser)


def test_on_a_phone_on_its_side_the_welcome_shows_what_to_do_not_only_its_picture(cities_server, browser):
    set_viewport(browser, 667, 375)
    open_cities(browser, cities_server)
    picture = browser.execute_script("return document.querySelector('.cr-picture').getBoundingClientRect().toJSON()")
    assert picture["height"] <= 375 * 0.34 + 1, f"the picture is {picture['height']:.0f} px high on a 375 px screen"
    # Waited for: under CI's load the landscape layout can still be settling as the page opens.
    top = lambda d: d.execute_script("return document.getElementById('around-me').getBoundingClientRect().top")
    wait(browser, lambda d: top(d) < 375, "Around Me starts a screen down or more: the first screen is only the picture")


def test_refused_location_a_typed_place_and_accent_insensitive_filter(cities_server, browser):
    refuse_location(browser, cities_server)
    open_cities(browser, cities_server)
    tap(browser, browser.find_element(By.ID, "around-me"))
    wait(browser, lambda d: shown(d, "place-form"), "refusing the location offered no place field")
    assert "not shared" in status_text(browser)
    assert browser.switch_to.active_element.get_attribute("id") == "place", "the place field takes the focus"

    # On a phone the form is at the page's foot: what it finds must come into view, not open below the fold.
    browser.find_element(By.ID, "place").send_keys("se")
    wait(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#place-results button")) == 3, "'se' did not offer three places")
    wait(browser, lambda d: d.execute_script(
        "const r = document.getElementById('place-results').getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight"),
        "the places found opened below the fold, out of sight")
    assert browser.switch_to.active_element.get_attribute("id") == "place", "the field keeps the focus as the page scrolls"
    place = browser.find_element(By.ID, "place")
    place.clear()
    place.send_keys("sant julia")
    wait(browser, lambda d: "Sant Julià de Lòria" in d.find_element(By.ID, "place-results").text,
         "searching 'sant julia' did not offer Sant Julià de Lòria")
    place = browser.find_element(By.ID, "place")
    place.clear()
    place.send_keys("andorra")
    wait(browser, lambda d: "Andorra la Vella" in d.find_element(By.ID, "place-results").text, "searching 'andorra' found nothing")
    # Each place reads as one line of text, with its population to tell places of one name apart.
    listed = browser.find_element(By.XPATH, "//ul[@id='place-results']//button[contains(., 'Andorra la Vella')]").text
    assert listed == "Andorra la Vella, Andorra · 20,430 people", listed
    tap(browser, browser.find_element(By.XPATH, "//ul[@id='place-results']//button[contains(., 'Andorra la Vella')]"))
    wait_for_scene(browser, "Around Andorra la Vella")
    assert set(names(browser)) == set(ANDORRA)

    for typed in ("julia", "LÒRIA", "loria", "julià de"):
        filter_for(browser, typed)
        wait(browser, lambda d: names(d) == ["Sant Julià de Lòria"], f"typing {typed!r} shows {names(browser)}")

    # Coordinates work too, after leaving this scene (searching is no change: Back asks nothing).
    filter_for(browser, "")
    tap(browser, browser.find_element(By.ID, "scene-back"))
    wait(browser, lambda d: shown(d, "welcome"), "leaving did not show the welcome screen")
    assert not leave_dialog_open(browser)
    place = browser.find_element(By.ID, "place")
    place.clear()
    place.send_keys(Keys.ENTER)  # Enter on an empty field said nothing
    wait(browser, lambda d: "Type a place" in status_text(d), f"an empty search says {status_text(browser)!r}")
    place.send_keys("999, 999", Keys.ENTER)
    wait(browser, lambda d: "out of range" in status_text(d), f"999, 999 says {status_text(browser)!r}")
    assert "No place called" not in status_text(browser)
    place.clear()
    place.send_keys("43.78, 11.25", Keys.ENTER)
    wait_for_scene(browser, "Around these coordinates")
    assert set(names(browser)) == set(CITIES_NEARBY)
    assert_no_console_errors(browser)


def test_a_place_search_that_cannot_reach_the_server_says_so_in_sight_and_drops_the_last_places(cities_restartable, browser):
    """With the network gone, typing on in the place field left the last query's places listed and wrote its
    message above the screen, where the form had scrolled it: a person saw nothing change."""
    with cities_restartable() as base:
        refuse_location(browser, base)
        open_cities(browser, base)
        tap(browser, browser.find_element(By.ID, "around-me"))
        wait(browser, lambda d: shown(d, "place-form"), "refusing the location offered no place field")
        browser.find_element(By.ID, "place").send_keys("se")
        wait(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#place-results button")) == 3, "'se' did not offer three places")

    # The server is gone now: the next keystroke's search fails.
    browser.find_element(By.ID, "place").send_keys("r")
    unreachable = ("Could not reach Trove", "You seem to be offline")  # js/api.js's words, by navigator.onLine
    wait(browser, lambda d: status_text(d).startswith(unreachable), f"a failed search says {status_text(browser)!r}")
    assert not browser.find_elements(By.CSS_SELECTOR, "#place-results button"), "the places found for 'se' are still offered for 'ser'"
    in_sight = "const r = document.getElementById('welcome-status').getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight"
    wait(browser, lambda d: d.execute_script(in_sight), "the message that the search failed is out of sight")

    # Back online, typing on finds places again, and the message goes.
    with cities_restartable():
        browser.find_element(By.ID, "place").send_keys(Keys.BACKSPACE)
        wait(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#place-results button")) == 3, "back online, 'se' found nothing")
        assert not status_text(browser).startswith(unreachable), status_text(browser)
        assert browser.switch_to.active_element.get_attribute("id") == "place", "the field keeps the focus throughout"


def test_offline_a_city_card_never_opened_names_the_city_and_says_it_is_not_kept(cities_restartable, browser):
    """Issue 57: offline, a city whose card was never opened here showed Trove's home page (the worker's fallback) with
    no word that the page asked for is not on this device."""
    from test_offline import wait_until_kept
    with cities_restartable() as base:
        open_cities(browser, base)
        import_cities(browser, ["Prato", "Fiesole"])
        open_cities(browser, base)
        tap(browser, browser.find_element(By.ID, "browse"))
        wait_for_scene(browser, "My cities")
        wait_until_kept(browser, "/cities")

    # The server is stopped: Prato's card was never opened on this device.
    browser.get(f"{base}/cities/{IDS['Prato']}")
    notice = lambda d: d.execute_script(  # noqa: E731
        "const n = document.getElementById('shell-offline'); return n && !n.hidden ? n.textContent : ''")
    wait(browser, lambda d: "Prato" in notice(d) and "not kept on this device" in notice(d),
         f"offline, an unopened city's address shows {browser.title!r} saying {notice(browser)!r}")

    # Back online, the card that was asked for opens.
    with cities_restartable():
        browser.execute_script("window.dispatchEvent(new Event('online'))")
        wait(browser, lambda d: d.execute_script("return !!document.getElementById('how-far')"), "back online, the city's card did not open")


# ---------- Deleting and importing ----------

def test_delete_a_row_then_all_non_favourites_and_import(cities_server, browser):
    around_me(browser, cities_server)
    tap(browser, row(browser, "Compiobbi").find_element(By.CSS_SELECTOR, ".cr-del"))
    wait(browser, lambda d: "Compiobbi" not in names(d), "the deleted row is still listed")
    assert len(names(browser)) == 8
    assert browser.switch_to.active_element.get_attribute("class") == "cr-icon cr-del", "the focus moves to the next row's delete button"

    star(browser, "Fiesole")
    star(browser, "Settignano")
    assert not shown(browser, "delete-others"), "Delete all non-favourites waits for Edit"
    edit = browser.find_element(By.ID, "edit")
    tap(browser, edit)
    assert edit.get_attribute("aria-pressed") == "true"
    tap(browser, browser.find_element(By.ID, "delete-others"))
    wait(browser, lambda d: names(d) == ["Fiesole", "Settignano"], f"after deleting the others: {names(browser)}")
    assert not shown(browser, "delete-others"), "nothing left to delete, so the button goes"

    assert commit_button(browser).text == "Import" and commit_button(browser).is_enabled()
    tap(browser, commit_button(browser))
    wait(browser, lambda d: shown(d, "welcome"), "importing did not lead back to the welcome screen")
    wait(browser, lambda d: shown(d, "browse"), "after an import, 'Browse my cities' appears")
    assert "2 in your collection" in browser.find_element(By.ID, "browse").text
    assert {(c["name"], c["favourite"]) for c in collection(browser)} == {("Fiesole", True), ("Settignano", True)}
    assert_no_console_errors(browser)


def test_swiping_a_row_left_deletes_it(cities_server, browser):
    around_me(browser, cities_server)
    target = row(browser, "Scandicci")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", target)
    rect = browser.execute_script("const r = arguments[0].getBoundingClientRect(); return {x: r.left + r.width * 0.7, y: r.top + r.height - 12, w: r.width}", target)
    swipe(browser, (rect["x"], rect["y"]), [(rect["x"] - step * rect["w"] * 0.08, rect["y"]) for step in range(1, 9)])
    wait(browser, lambda d: "Scandicci" not in names(d), "a long swipe left did not delete the row")
    assert len(names(browser)) == len(CITIES_NEARBY) - 1


# ---------- Browsing and saving ----------

def test_a_save_from_my_cities_opened_before_keeps_what_another_device_changed_meanwhile(cities_server, browser):
    """My cities left open on a laptop while the phone adds a city, deletes one and stars one: the laptop's Save keeps
    the phone's changes as well as its own (it made the collection exactly what it showed, and the phone's were gone)."""
    open_cities(browser, cities_server)
    import_cities(browser, ["Florence", "Fiesole", "Prato", "Scandicci"])
    open_cities(browser, cities_server)
    tap(browser, browser.find_element(By.ID, "browse"))
    wait_for_scene(browser, "My cities")
    # The phone: Encamp added, Scandicci deleted, Florence starred.
    phone = [{"geonameid": IDS[n], "favourite": n == "Florence"} for n in ("Florence", "Fiesole", "Prato", "Encamp")]
    status, body, _ = call(browser, "PUT", f"{API}/collection", {"cities": phone})
    assert status == 200, body

    assert browser.find_element(By.ID, "scene-sub").text == "4 cities in your collection"
    star(browser, "Prato")
    tap(browser, row(browser, "Fiesole").find_element(By.CSS_SELECTOR, ".cr-del"))
    # Until Save, the line under the title does not call the changed list the collection.
    wait(browser, lambda d: d.find_element(By.ID, "scene-sub").text == "3 cities once you save: changes not saved yet",
         f"the line under the title reads {browser.find_element(By.ID, 'scene-sub').text!r}")
    tap(browser, commit_button(browser))
    wait(browser, lambda d: "added on another device" in d.find_element(By.CSS_SELECTOR, ".toast-region").text,
         "the save did not say a city was added elsewhere")
    saved = {c["name"]: c["favourite"] for c in collection(browser)}
    assert saved == {"Florence": True, "Prato": True, "Encamp": False}, saved
    wait(browser, lambda d: sorted(names(d)) == ["Encamp", "Florence", "Prato"], f"the list does not show the collection: {names(browser)}")
    assert starred(browser, "Florence")

    # And a save from there starts from the collection as it is now.
    star(browser, "Florence")
    tap(browser, commit_button(browser))
    wait(browser, lambda d: {c["name"]: c["favourite"] for c in collection(d)} == {"Florence": False, "Prato": True, "Encamp": False},
         f"the second save: {collection(browser)}")


def test_browse_save_stays_enabled_after_undo_and_the_saved_state_survives_a_reload(cities_server, browser):
    open_cities(browser, cities_server)
    assert not shown(browser, "browse"), "an empty collection has no Browse button"
    import_cities(browser, ["Florence", "Fiesole", "Scandicci", "Prato", "Encamp"], favourites=("Encamp",))
    open_cities(browser, cities_server)
    tap(browser, browser.find_element(By.ID, "browse"))
    wait_for_scene(browser, "My cities")
    assert names(browser) == ["Encamp", "Florence", "Prato", "Scandicci", "Fiesole"]
    save = commit_button(browser)
    assert save.text == "Save" and not save.is_enabled(), "Save waits for a change"

    star(browser, "Prato")
    assert save.is_enabled(), "a star enables Save"
    star(browser, "Prato")
    assert save.is_enabled(), "undoing the change leaves Save enabled"

    star(browser, "Fiesole")
    tap(browser, row(browser, "Scandicci").find_element(By.CSS_SELECTOR, ".cr-del"))
    star(browser, "Encamp")  # unfavourite
    filter_for(browser, "f")  # what is shown is filtered, but Save keeps every row of the scene
    tap(browser, save)
    wait(browser, lambda d: "Saved" in d.find_element(By.CSS_SELECTOR, ".toast-region").text, "no word that it was saved")
    assert save.is_enabled(), "Save stays enabled after saving"
    # The line under the title said "changes not saved yet" after the save, until a reload.
    wait(browser, lambda d: d.find_element(By.ID, "scene-sub").text == "4 cities in your collection",
         f"after the save, the line under the title reads {browser.find_element(By.ID, 'scene-sub').text!r}")

    saved = {c["name"]: c["favourite"] for c in collection(browser)}
    assert saved == {"Florence": False, "Fiesole": True, "Prato": False, "Encamp": False}

    browser.refresh()  # the address is /cities#browse: a reload opens my cities again, as saved
    wait_for_scene(browser, "My cities")
    assert names(browser) == ["Fiesole", "Florence", "Prato", "Encamp"]
    assert starred(browser, "Fiesole") and not starred(browser, "Encamp")
    assert not commit_button(browser).is_enabled(), "a new browse starts with Save disabled"

    links = {a.text: a.get_attribute("href") for a in browser.find_elements(By.CSS_SELECTOR, "#exports a")}
    assert links == {"GeoJSON": cities_server + f"{API}/collection.geojson", "CSV": cities_server + f"{API}/collection.csv"}
    for path in (f"{API}/collection.geojson", f"{API}/collection.csv"):
        status, body, headers = call(browser, "GET", path)
        assert status == 200 and "attachment" in (headers.get("disposition") or ""), f"{path}: {status} {headers}"
        assert "Fiesole" in json.dumps(body, ensure_ascii=False)
    assert_no_console_errors(browser)


def test_the_map_stuck_above_the_list_on_a_phone_leaves_most_of_the_screen_to_the_list(cities_server, browser):
    """The street map's credit wrapped to a line of its own under the "Street map" box, blank while no tile loads: the
    map stuck above the list took 43% of an iPhone SE's screen."""
    set_viewport(browser, 375, 667, mobile=True)
    around_me(browser, cities_server)
    if not browser.find_element(By.ID, "street").is_selected():
        browser.find_element(By.ID, "street").click()  # the credit keeps its line while the street map is on
    browser.execute_script("window.scrollTo(0, document.body.scrollHeight)")
    box = lambda d: d.execute_script(  # noqa: E731
        "const b = document.querySelector('.cr-split .cr-mapbox').getBoundingClientRect();"
        "return {top: b.top, height: b.height, screen: innerHeight}")
    wait(browser, lambda d: box(d)["top"] <= 1, f"the map does not stay above the list: {box(browser)}")
    stuck = box(browser)
    assert stuck["height"] <= 0.4 * stuck["screen"], f"the stuck map takes {stuck['height'] / stuck['screen']:.0%} of the screen"


def test_favourites_are_reordered_by_drag_and_by_keyboard_in_my_order(cities_server, browser):
    set_viewport(browser, 375, 812, mobile=True)  # three rows with their handles below the phone's sticky map
    open_cities(browser, cities_server)
    import_cities(browser, ["Florence", "Fiesole", "Scandicci", "Prato"], favourites=("Florence", "Fiesole", "Scandicci"))
    open_cities(browser, cities_server)
    tap(browser, browser.find_element(By.ID, "browse"))
    wait_for_scene(browser, "My cities")
    choose(browser, "sort", "mine")
    assert names(browser) == ["Florence", "Fiesole", "Scandicci", "Prato"]
    assert not commit_button(browser).is_enabled(), "changing how the list is sorted is not a change"
    assert not row(browser, "Prato").find_element(By.CSS_SELECTOR, ".cr-grip").is_displayed(), "only favourites are reordered by hand"

    # Drag Scandicci's handle above Florence.
    grip = row(browser, "Scandicci").find_element(By.CSS_SELECTOR, ".cr-grip")
    browser.execute_script("arguments[0].scrollIntoView({block: 'start'})", row(browser, "Florence"))  # below the sticky map
    top_of_florence, grip_centre = browser.execute_script(
        "const g = arguments[1].getBoundingClientRect();"
        "return [arguments[0].getBoundingClientRect().top + 4, g.top + g.height / 2]", row(browser, "Florence"), grip)
    assert grip_centre < browser.execute_script("return innerHeight"), "the handle is off screen"
    ActionChains(browser).click_and_hold(grip).move_by_offset(0, -20).move_by_offset(0, int(top_of_florence - grip_centre) + 20).release().perform()
    wait(browser, lambda d: names(d) == ["Scandicci", "Florence", "Fiesole", "Prato"], f"after the drag: {names(browser)}")
    assert commit_button(browser).is_enabled(), "a reorder enables Save"

    # The keyboard: Florence's handle, arrow down; then Fiesole's "move up" button.
    row(browser, "Florence").find_element(By.CSS_SELECTOR, ".cr-grip").send_keys(Keys.ARROW_DOWN)
    wait(browser, lambda d: names(d) == ["Scandicci", "Fiesole", "Florence", "Prato"], f"after arrow down: {names(browser)}")
    assert browser.switch_to.active_element.get_attribute("aria-label").startswith("Move Florence")
    tap(browser, row(browser, "Fiesole").find_element(By.CSS_SELECTOR, ".cr-up"))
    assert names(browser) == ["Fiesole", "Scandicci", "Florence", "Prato"]
    assert not row(browser, "Fiesole").find_element(By.CSS_SELECTOR, ".cr-up").is_enabled(), "the first cannot go higher"

    tap(browser, commit_button(browser))
    wait(browser, lambda d: [c["name"] for c in collection(d)] == ["Fiesole", "Scandicci", "Florence", "Prato"],
         f"the saved order is {[c['name'] for c in collection(browser)]}")
    assert [c["position"] for c in collection(browser)] == sorted(c["position"] for c in collection(browser))
    assert_no_console_errors(browser)


def test_leaving_with_unsaved_changes_asks_first(cities_server, browser):
    open_cities(browser, cities_server)
    import_cities(browser, ["Florence", "Fiesole"])
    open_cities(browser, cities_server)
    tap(browser, browser.find_element(By.ID, "browse"))
    wait_for_scene(browser, "My cities")

    # Nothing changed: Back leaves without a question.
    tap(browser, browser.find_element(By.ID, "scene-back"))
    wait(browser, lambda d: shown(d, "welcome"), "Back did not leave an unchanged scene")
    assert not leave_dialog_open(browser)

    tap(browser, browser.find_element(By.ID, "browse"))
    wait_for_scene(browser, "My cities")
    assert browser.current_url.endswith("#browse")
    star(browser, "Fiesole")
    tap(browser, browser.find_element(By.ID, "scene-back"))
    assert answer_leave_dialog(browser, "stay") == "Leave without saving?"
    assert shown(browser, "scene") and starred(browser, "Fiesole"), "Stay keeps the scene as it was"

    browser.back()  # the browser's own Back button asks the same
    answer_leave_dialog(browser, "stay")
    assert shown(browser, "scene") and starred(browser, "Fiesole")
    browser.back()
    answer_leave_dialog(browser, "leave")
    wait(browser, lambda d: shown(d, "welcome"), "Leave did not show the welcome screen")
    assert not any(c["favourite"] for c in collection(browser)), "leaving did not save"
    assert_no_console_errors(browser)


def test_another_profile_sees_none_of_the_collection(cities_server, browser):
    open_cities(browser, cities_server)
    import_cities(browser, ["Florence", "Fiesole"], favourites=("Fiesole",))
    open_cities(browser, cities_server)
    assert shown(browser, "browse")
    browser.delete_all_cookies()  # another person on this browser: a new guest profile
    open_cities(browser, cities_server)
    assert not shown(browser, "browse"), "another profile has no cities to browse"
    assert collection(browser) == []


# ---------- Weather ----------

def test_weather_icons_one_unavailable_row_units_and_refresh(cities_server, browser, open_meteo):
    add_preload_script(browser, COUNT_FETCHES)
    around_me(browser, cities_server)
    wait(browser, weather_settled, "the weather never finished loading")

    failing = weather_of(browser, CITIES_WEATHER_FAILS)
    assert failing["icon"] == "wx-unavailable" and failing["label"] == "Weather unavailable", failing
    assert failing["title"] == "Weather unavailable"
    icons = {name: weather_of(browser, name)["icon"] for name in CITIES_NEARBY if name != CITIES_WEATHER_FAILS}
    assert icons["Florence"] == "wx-clear" and icons["Compiobbi"] == "wx-thunderstorm" and icons["Scandicci"] == "wx-fog"
    assert icons["Settignano"] == "wx-rain" and icons["Ponte a Ema"] == "wx-snow"
    assert len(set(icons.values())) >= 6, f"the icons should differ with the weather: {icons}"
    assert weather_of(browser, "Florence")["text"] == "12\u00a0°C"
    assert weather_of(browser, "Ponte a Ema")["text"] == "-1\u00a0°C"

    counted = browser.execute_script("return window.__weather")
    assert 1 < counted["most"] <= 4, f"{counted['most']} weather requests were in flight at once"
    assert len(counted["urls"]) == len(CITIES_NEARBY), "one request per row"

    choose(browser, "unit", "F")
    assert weather_of(browser, "Florence")["text"] == "54\u00a0°F"

    before = open_meteo.count_for("Florence")
    tap(browser, browser.find_element(By.ID, "refresh"))
    wait(browser, lambda d: d.find_element(By.ID, "refresh").is_enabled() and weather_settled(d), "refreshing never finished")
    assert open_meteo.count_for("Florence") > before, "Refresh weather asked for fresh readings"
    assert any("refresh=1" in url for url in browser.execute_script("return window.__weather.urls"))
    assert weather_of(browser, "Florence")["text"] == "54\u00a0°F"

    # The unit is remembered: leave (untouched results go without a question), come back.
    tap(browser, browser.find_element(By.ID, "scene-back"))
    wait(browser, lambda d: shown(d, "welcome"), "Back did not leave the untouched results")
    assert not leave_dialog_open(browser)
    tap(browser, browser.find_element(By.ID, "around-me"))
    wait_for_scene(browser, "Around you")
    wait(browser, weather_settled, "the weather never loaded the second time")
    assert weather_of(browser, "Florence")["text"] == "54\u00a0°F"
    assert_no_console_errors(browser)


def test_an_unavailable_weather_says_why_on_tap_and_refresh_says_how_it_went(cities_server, browser):
    around_me(browser, cities_server)
    wait(browser, weather_settled, "the weather never finished loading")
    states = browser.execute_script(
        "return [...document.querySelectorAll('#rows .cr-row')].map(r => [r.querySelector('.cr-name').textContent,"
        " r.querySelector('.cr-wx').classList.contains('is-off'), r.querySelector('.cr-temp').textContent])")
    off = [(name, text) for name, is_off, text in states if is_off]
    assert off == [(CITIES_WEATHER_FAILS, "unavailable")], f"only the failing row says unavailable: {states}"
    assert all(text.endswith("°C") for name, is_off, text in states if not is_off), states

    tap(browser, row(browser, CITIES_WEATHER_FAILS).find_element(By.CSS_SELECTOR, ".cr-wx"))
    wait(browser, lambda d: any(f"No weather for {CITIES_WEATHER_FAILS}:" in t.text for t in d.find_elements(By.CSS_SELECTOR, ".toast-text")),
         "tapping 'unavailable' did not say why")

    tap(browser, browser.find_element(By.ID, "refresh"))
    wait(browser, lambda d: "Weather refreshed" in d.find_element(By.ID, "wx-status").text, "Refresh did not say how it went")
    assert browser.find_element(By.ID, "wx-status").text == f"Weather refreshed for {len(CITIES_NEARBY) - 1} cities; unavailable for 1."
    assert browser.find_element(By.ID, "refresh").text == "Refresh weather"
    assert_no_console_errors(browser)


def test_pulling_the_list_down_refreshes_the_weather(cities_server, browser, open_meteo):
    set_viewport(browser, 375, 1100, mobile=True)  # the top of the list on screen with the page at its top
    around_me(browser, cities_server)
    wait(browser, weather_settled, "the weather never finished loading")
    before = open_meteo.count_for("Fiesole")
    browser.execute_script("window.scrollTo(0, 0)")
    box = browser.execute_script(
        "const r = document.getElementById('rows').getBoundingClientRect(); return {x: r.left + r.width / 2, y: r.top + 10}")
    swipe(browser, (box["x"], box["y"]), [(box["x"], box["y"] + step * 20) for step in range(1, 8)])
    wait(browser, lambda d: open_meteo.count_for("Fiesole") > before, "pulling down did not refresh the weather")
    wait(browser, weather_settled, "the refreshed weather never showed")


# ---------- Map ----------

def test_the_map_draws_the_cities_and_selection_links_map_and_list(cities_server, browser):
    around_me(browser, cities_server)
    # Read once the map has painted what it holds: a frame still to come would show an older picture.
    first = wait(browser, lambda d: (p := map_pixels(d))["worldPoints"] == len(CITIES_FIXTURE) and p["painted"] and p,
                 "the world's city dots never loaded")
    assert first["inked"] > 200, f"the map looks blank ({first['inked']} inked pixels)"
    inside = [n for n, dot in first["dots"].items() if 0 <= dot["x"] <= first["width"] and 0 <= dot["y"] <= first["height"]]
    assert set(inside) == set(CITIES_NEARBY), f"the map starts fitted to the results; inside: {inside}"

    # A tap on Fiesole's dot selects its row and tells its population.
    dot = first["dots"]["Fiesole"]
    canvas = browser.find_element(By.ID, "map")
    browser.execute_script("window.scrollTo(0, 0)")
    ActionChains(browser).move_to_element_with_offset(canvas, int(dot["x"] - first["width"] / 2), int(dot["y"] - first["height"] / 2)).click().perform()
    wait(browser, lambda d: "is-selected" in row(d, "Fiesole").get_attribute("class"), "tapping the dot did not highlight the row")
    assert "Fiesole" in browser.find_element(By.ID, "map-status").text and "14,000" in browser.find_element(By.ID, "map-status").text
    # The map paints the selection in its next frame, which a loaded machine may take a while to give it.
    close = lambda a, b: sum(abs(x - y) for x, y in zip(a, b)) <= 24  # noqa: E731 (antialiasing)
    selected = first["selection"]
    assert not close(first["dots"]["Fiesole"]["rgb"], selected), "Fiesole's dot wore the selection's colour before the tap"
    wait(browser, lambda d: close(map_pixels(d)["dots"]["Fiesole"]["rgb"], selected), "tapping the dot did not mark it on the map")

    # Selecting a row highlights its dot: the selection colour moves there.
    tap(browser, row(browser, "Scandicci").find_element(By.CSS_SELECTOR, ".cr-where"))
    assert "is-selected" in row(browser, "Scandicci").get_attribute("class")
    assert "is-selected" not in row(browser, "Fiesole").get_attribute("class")
    wait(browser, lambda d: any(close(c, selected) for c in map_pixels(d)["dots"]["Scandicci"]["near"]),
         "the row's city is not highlighted on the map")
    assert not close(map_pixels(browser)["dots"]["Fiesole"]["rgb"], selected), "Fiesole still wears the selection"
    assert "Scandicci" in browser.find_element(By.ID, "map-status").text

    # Moved to the top right corner, under the zoom buttons, the selected city's label and the others stay clear of them.
    boxes = browser.execute_script(
        """
        const canvas = document.getElementById('map');
        const m = canvas.cityMap;
        const i = m.cities.findIndex((c) => c.name === 'Scandicci');
        const zoom = document.querySelector('.cr-zoom').getBoundingClientRect(), map = canvas.getBoundingClientRect();
        const [x, y] = m.screen(i);
        m.view = { ...m.view, cx: m.view.cx + (x - (zoom.left - map.left + 20)) / m.view.scale,
                   cy: m.view.cy + (y - (zoom.top - map.top + 60)) / m.view.scale };
        m.draw(true);
        return { zoom: [zoom.left - map.left, zoom.top - map.top, zoom.right - map.left, zoom.bottom - map.top],
                 tag: m.tag, labels: m.labels.map((l) => [l.text, l.box]) };
        """)
    overlap = lambda a, b: a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]  # noqa: E731
    assert boxes["tag"] and not overlap(boxes["tag"], boxes["zoom"]), f"Scandicci's label is under the zoom buttons: {boxes}"
    assert not [t for t, box in boxes["labels"] if overlap(box, boxes["zoom"])], f"a label is under the zoom buttons: {boxes}"

    # Zooming out changes the picture and shows more of the world.
    before = map_pixels(browser)
    tap(browser, browser.find_element(By.CSS_SELECTOR, "[data-zoom='out']"))
    browser.find_element(By.CSS_SELECTOR, "[data-zoom='out']").click()
    wait(browser, lambda d: map_pixels(d)["dots"]["Florence"] != before["dots"]["Florence"], "zooming out changed nothing")
    assert_no_console_errors(browser)


def map_state(driver) -> dict:
    """What the map shows: the basemap loaded, the labels placed, the tiles' state and the note."""
    return driver.execute_script(
        """
        const m = document.getElementById('map').cityMap;
        const note = document.getElementById('map-note');
        return {basemap: !!m.basemap, labels: m.labels.map(l => l.text), tiles: m.tiles, street: m.street,
                note: note.hidden ? '' : note.textContent, scale: m.scale ? m.scale.text : ''};
        """
    )


def map_colour_at(driver, latitude: float, longitude: float, dx: float = 0, dy: float = 0) -> list[int]:
    """The map's colour (r, g, b) at a place, `dx`, `dy` CSS px beside it."""
    return driver.execute_script(
        """
        const [lat, lon, dx, dy] = arguments;
        const canvas = document.getElementById('map');
        const m = canvas.cityMap;
        m.draw(true);
        const phi = lat * Math.PI / 180;
        const x = (lon + 180) / 360, y = (1 - Math.log(Math.tan(phi) + 1 / Math.cos(phi)) / Math.PI) / 2;
        const sx = (x - m.view.cx) * m.view.scale + m.width / 2 + dx, sy = (y - m.view.cy) * m.view.scale + m.height / 2 + dy;
        const k = canvas.width / m.width;
        return [...canvas.getContext('2d').getImageData(Math.round(sx * k), Math.round(sy * k), 1, 1).data].slice(0, 3);
        """,
        latitude, longitude, dx, dy,
    )


def canvas_colour(driver, x: float, y: float) -> list[int]:
    """The map's colour (r, g, b) at a point of the canvas, in CSS px from its top left."""
    return driver.execute_script(
        """
        const canvas = document.getElementById('map');
        canvas.cityMap.draw(true);
        const k = canvas.width / canvas.clientWidth;
        return [...canvas.getContext('2d').getImageData(Math.round(arguments[0] * k), Math.round(arguments[1] * k), 1, 1).data].slice(0, 3);
        """,
        x, y,
    )


def css_colour(driver, name: str) -> list[int]:
    """A custom property of the map's colours as (r, g, b), as the canvas paints it."""
    return driver.execute_script(
        """
        const c = document.createElement('canvas').getContext('2d');
        c.fillStyle = getComputedStyle(document.getElementById('map')).getPropertyValue(arguments[0]).trim();
        c.fillRect(0, 0, 1, 1);
        return [...c.getImageData(0, 0, 1, 1).data].slice(0, 3);
        """,
        name,
    )


def close(a: list[int], b: list[int], tolerance: int = 12) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b))


def test_the_offline_basemap_draws_land_sea_names_and_the_search_radius(cities_server, browser):
    around_me(browser, cities_server)
    wait(browser, lambda d: map_state(d)["basemap"], "the basemap never loaded (is it imported?)")
    wait(browser, lambda d: map_state(d)["labels"], "no city is named on the map")
    state = map_state(browser)
    assert "Florence" in state["labels"] and len(state["labels"]) >= 4, f"the cities are named on the map: {state['labels']}"
    assert state["scale"].endswith(" km") or state["scale"].endswith(" m"), f"a scale bar: {state['scale']!r}"

    # The 10 km circle around "you are here": its dashed blue line crosses the land at many angles.
    radius_px = browser.execute_script(
        "const m = document.getElementById('map').cityMap; return 10000 / (40075016.686 * Math.cos(m.here.latitude * Math.PI / 180) / m.view.scale)")
    blue = 0
    for step in range(24):
        angle = step * math.pi / 12
        r, g, b = map_colour_at(browser, *CITIES_HOME, radius_px * math.cos(angle), radius_px * math.sin(angle))
        blue += b - r > 80
    assert blue >= 6, f"the search radius is not drawn ({blue} of 24 points on it are blue)"

    land, sea = css_colour(browser, "--cr-land"), css_colour(browser, "--cr-sea")
    assert close(canvas_colour(browser, 6, 6), land), "around Florence, far from the labels, it is all land"
    kept = browser.execute_async_script(
        "const done = arguments[0]; caches.open('cities-basemap').then(c => c.match('/api/v1/cities/basemap')).then(r => done(!!r), () => done(false))")
    assert kept, "the basemap is kept on the device for offline use"

    # Out to Italy: inland is land, the Tyrrhenian Sea west of Naples is sea.
    browser.execute_script(
        """
        const m = document.getElementById('map').cityMap;
        const phi = 42 * Math.PI / 180;
        m.view = {cx: (12.5 + 180) / 360, cy: (1 - Math.log(Math.tan(phi) + 1 / Math.cos(phi)) / Math.PI) / 2, scale: m.width / (14 / 360)};
        m.draw(true);
        """
    )
    assert not close(land, sea), "land and sea have colours of their own"
    assert close(map_colour_at(browser, 42.3, 12.8), land), f"Lazio is land: {map_colour_at(browser, 42.3, 12.8)} vs {land}"
    assert close(map_colour_at(browser, 40.0, 11.5), sea), f"the Tyrrhenian Sea is sea: {map_colour_at(browser, 40.0, 11.5)} vs {sea}"
    assert_no_console_errors(browser)


TILES_FAIL = """
(() => {
  const src = Object.getOwnPropertyDescriptor(HTMLImageElement.prototype, 'src');
  window.__tiles = [];
  Object.defineProperty(HTMLImageElement.prototype, 'src', {
    configurable: true, get() { return src.get.call(this); },
    set(value) {
      if (String(value).includes('tile.openstreetmap.org')) { window.__tiles.push(String(value)); value = 'http://127.0.0.1:9/tile.png'; }
      src.set.call(this, value);
    },
  });
})();
"""


def test_street_map_tiles_that_cannot_load_fall_back_to_the_basemap_with_a_note(cities_server, browser):
    add_preload_script(browser, TILES_FAIL)  # the tile server unreachable (port 9 refuses)
    allow_location(browser, cities_server)
    open_cities(browser, cities_server, street=True)
    tap(browser, browser.find_element(By.ID, "around-me"))
    wait_for_scene(browser, "Around you")
    assert browser.find_element(By.ID, "street").is_selected(), "the street map is on by default"
    wait(browser, lambda d: "No street map" in map_state(d)["note"], f"no note that the tiles failed: {map_state(browser)}")
    state = map_state(browser)
    assert state["tiles"] == "failed" and state["basemap"] and "Florence" in state["labels"]
    assert close(canvas_colour(browser, 6, 6), css_colour(browser, "--cr-land")), "Trove's own map shows instead"
    assert shown(browser, "map-note")
    # One line, as narrow as its words: it covered the labels across the map's top on a phone.
    note = browser.execute_script("const n = document.getElementById('map-note').getBoundingClientRect(); "
                                  "const m = document.getElementById('map').getBoundingClientRect(); return [n.width, n.height, m.width]")
    assert note[1] < 30 and note[0] < note[2] * 0.75, f"the note is {note[0]} x {note[1]} px over a map {note[2]} px wide"
    assert not browser.find_element(By.CSS_SELECTOR, "[data-osm-credit]").is_displayed(), "no credit for tiles not shown"
    asked = browser.execute_script("return window.__tiles")
    assert 0 < len(asked) <= 12, f"only the tiles in view are asked for, no prefetching: {len(asked)}"
    assert all(re.search(r"/\d+/\d+/\d+\.png$", url) for url in asked), asked

    # Turned off, the note goes (the person chose Trove's map); the choice is remembered.
    tap(browser, browser.find_element(By.ID, "street"))
    wait(browser, lambda d: not map_state(d)["note"], "the note stayed with the street map off")
    assert browser.execute_script("return localStorage.getItem('trove.cities.street')") == "off"


def test_the_list_stays_put_whatever_the_street_maps_tiles_do(cities_server, browser):
    """The street map's credit keeps its line while the switch is on: a line that came as the tiles started to load
    and went when they failed moved the list under a finger about to tap a city's name (a WebKit flake)."""
    allow_location(browser, cities_server)
    open_cities(browser, cities_server, street=True)
    tap(browser, browser.find_element(By.ID, "around-me"))
    wait_for_scene(browser, "Around you")
    seen = {}
    for state in ("loading", "failed", "ok", "failed"):
        seen[state] = browser.execute_script(
            "document.getElementById('map').cityMap.setTiles(arguments[0]);"
            "const credit = document.querySelector('[data-osm-credit]');"
            "return [document.getElementById('rows').getBoundingClientRect().top + scrollY,"
            " getComputedStyle(credit).visibility === 'visible' && !credit.hidden]", state)
    assert len({top for top, _ in seen.values()}) == 1, f"the list moved with the tiles' state: {seen}"
    assert {state: credited for state, (_, credited) in seen.items()} == {"loading": True, "failed": False, "ok": True}, seen

    # Turned off by the person, the credit's line goes: their own tap, not a surprise.
    tap(browser, browser.find_element(By.ID, "street"))
    wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, "[data-osm-credit]").get_attribute("hidden") is not None,
         "the credit stayed with the street map off")


def test_a_city_opened_from_a_list_and_back_or_a_reload_find_the_list_as_it_was(cities_server, browser):
    around_me(browser, cities_server)
    star(browser, "Fiesole")
    tap(browser, row(browser, "Compiobbi").find_element(By.CSS_SELECTOR, ".cr-del"))
    wait(browser, lambda d: "Compiobbi" not in names(d), "the deleted row is still listed")
    choose(browser, "sort", "near")
    before = names(browser)
    assert before[0] == "Fiesole"

    tap(browser, row(browser, "Scandicci").find_element(By.CSS_SELECTOR, ".cr-name"))  # no question: the list is kept
    wait(browser, lambda d: d.current_url == f"{cities_server}/cities/{IDS['Scandicci']}", "the row did not open the card")
    browser.back()
    wait_for_scene(browser, "Around you")
    assert names(browser) == before, f"Back found {names(browser)}, not {before}"
    assert starred(browser, "Fiesole") and "Compiobbi" not in names(browser)
    assert browser.find_element(By.CSS_SELECTOR, "input[name='sort'][value='near']").is_selected()

    # A reload keeps it too (the browser may ask first: there are unsaved changes).
    browser.execute_script("location.reload()")
    try:
        wait(browser, lambda d: d.switch_to.alert, "", timeout=2)
        browser.switch_to.alert.accept()
    except Exception:
        pass
    wait(browser, lambda d: d.execute_script("return document.getElementById('cities')?.dataset.ready === 'true'"), "no page after the reload")
    wait_for_scene(browser, "Around you")
    assert names(browser) == before and starred(browser, "Fiesole")

    # Leaving for good asks once, and then the list is gone.
    tap(browser, browser.find_element(By.ID, "scene-back"))
    assert answer_leave_dialog(browser, "leave") == "Leave without importing?"
    wait(browser, lambda d: shown(d, "welcome"), "Leave did not show the welcome screen")
    assert not leave_dialog_open(browser)
    # Chromium notes that it did not ask before the reload (no tap since the page came back): that is its rule.
    severe = [e for e in browser_support.severe_console_entries(browser)
              if not FAILING_WEATHER.search(e.get("message", "")) and "beforeunload" not in e.get("message", "")]
    assert not severe, severe


def test_an_untouched_scene_leaves_without_a_question(cities_server, browser):
    around_me(browser, cities_server)
    filter_for(browser, "fi")  # looking is not changing
    tap(browser, browser.find_element(By.ID, "scene-back"))
    wait(browser, lambda d: shown(d, "welcome"), "the in-app Back did not leave")
    assert not leave_dialog_open(browser)
    tap(browser, browser.find_element(By.ID, "around-me"))
    wait_for_scene(browser, "Around you")
    browser.back()
    wait(browser, lambda d: shown(d, "welcome"), "the browser's Back did not leave")
    assert not leave_dialog_open(browser)
    assert_no_console_errors(browser)


def test_import_marks_collected_cities_and_says_which_stars_it_changes(cities_server, browser):
    allow_location(browser, cities_server)
    open_cities(browser, cities_server)
    import_cities(browser, ["Florence", "Fiesole"], favourites=("Florence",))
    tap(browser, browser.find_element(By.ID, "around-me"))
    wait_for_scene(browser, "Around you")
    mark = lambda d, name: d.execute_script(
        "const m = arguments[0].querySelector('.cr-have'); return m.hidden ? '' : m.textContent", row(d, name))
    wait(browser, lambda d: mark(d, "Florence") == "Starred in my cities", "Florence is not marked as collected and starred")
    # ("In my cities, starred" beside the import's own empty star read as a contradiction: the star is the import's.)
    assert mark(browser, "Fiesole") == "In my cities" and mark(browser, "Scandicci") == ""
    assert not starred(browser, "Florence"), "the import list shows its own stars"

    tap(browser, commit_button(browser))
    wait(browser, lambda d: d.execute_script("return document.getElementById('confirm-dialog').open"), "Import did not say what it replaces")
    text = browser.find_element(By.ID, "confirm-text").text
    assert "7 cities are new; 2 cities are already in your collection" in text and "Florence will lose its star." in text, text
    browser.find_element(By.ID, "confirm-cancel").click()
    assert shown(browser, "scene") and [c["favourite"] for c in collection(browser) if c["name"] == "Florence"] == [True]

    star(browser, "Florence")
    tap(browser, commit_button(browser))
    wait(browser, lambda d: d.execute_script("return document.getElementById('confirm-dialog').open"), "no confirmation the second time")
    assert "lose" not in browser.find_element(By.ID, "confirm-text").text
    browser.find_element(By.ID, "confirm-ok").click()
    wait(browser, lambda d: shown(d, "welcome"), "importing did not lead back to the welcome screen")
    assert len(collection(browser)) == 9 and [c["favourite"] for c in collection(browser) if c["name"] == "Florence"] == [True]
    assert_no_console_errors(browser)


def test_edit_done_the_count_and_the_caption_after_deleting_every_city(cities_server, browser):
    around_me(browser, cities_server)
    tap(browser, row(browser, "Fiesole").find_element(By.CSS_SELECTOR, ".cr-where"))
    assert "Fiesole" in browser.find_element(By.ID, "map-status").text
    edit = browser.find_element(By.ID, "edit")
    tap(browser, edit)
    assert edit.text == "Done" and edit.get_attribute("aria-pressed") == "true"
    tap(browser, browser.find_element(By.ID, "delete-others"))
    wait(browser, lambda d: names(d) == [], "deleting every non-favourite left rows")
    assert browser.find_element(By.ID, "scene-sub").text.startswith("0 cities within 10 km"), browser.find_element(By.ID, "scene-sub").text
    assert browser.find_element(By.ID, "map-status").text == "", "the caption still names a deleted city"
    assert edit.text == "Edit"
    assert_no_console_errors(browser)


def test_on_a_phone_the_map_stays_in_view_with_the_list(cities_server, browser):
    around_me(browser, cities_server)
    in_view = lambda d, el: d.execute_script(
        "const r = arguments[0].getBoundingClientRect(); return r.top >= -1 && r.bottom <= innerHeight + 1", el)
    canvas = browser.find_element(By.ID, "map")
    last = row(browser, names(browser)[-1])
    tap(browser, last.find_element(By.CSS_SELECTOR, ".cr-where"))  # far down the list
    assert in_view(browser, canvas), "selecting a row left the map off screen"
    dot = map_pixels(browser)["dots"][names(browser)[-1]]
    assert 0 <= dot["x"] <= map_pixels(browser)["width"] and 0 <= dot["y"] <= map_pixels(browser)["height"], "the row's dot is on the map"

    # A tap on Florence's dot shows its row below the map, without scrolling the map away.
    pixels = map_pixels(browser)
    florence = pixels["dots"]["Florence"]
    ActionChains(browser).move_to_element_with_offset(canvas, int(florence["x"] - pixels["width"] / 2), int(florence["y"] - pixels["height"] / 2)).click().perform()
    wait(browser, lambda d: "is-selected" in row(d, "Florence").get_attribute("class"), "tapping the dot did not select the row")
    # The list scrolls smoothly: under load the row passes through the screen behind the map before it settles.
    below = lambda d: d.execute_script(
        "return arguments[0].getBoundingClientRect().top >= document.getElementById('map').getBoundingClientRect().bottom - 1", row(d, "Florence"))
    wait(browser, lambda d: in_view(d, row(d, "Florence")) and below(d), "the selected row is not on screen below the map")
    assert in_view(browser, canvas), "the map left the screen"


def test_on_a_phone_on_its_side_the_map_stands_beside_the_list(cities_server, browser):
    """On its side, the map stuck above the list was 150 px high and left the list a row and a half. It now stands
    beside the list, most of the screen high, stays in view as the list scrolls, and a city's name keeps its words."""
    set_viewport(browser, 667, 375)
    around_me(browser, cities_server)
    canvas = browser.find_element(By.ID, "map")
    # Down the list, short of its end (where the page's foot comes in and takes the map up with the list).
    browser.execute_script("const s = document.querySelector('.cr-split'); scrollTo(0, scrollY + s.getBoundingClientRect().bottom - 1.5 * innerHeight)")
    assert browser.execute_script("return scrollY") > 200, "the list is too short to scroll down it"
    box = browser.execute_script("return arguments[0].getBoundingClientRect().toJSON()", canvas)
    assert box["top"] >= -1 and box["bottom"] <= 376, f"the map left the screen: {box}"
    assert box["height"] >= 0.7 * 375, f"the map is {box['height']:.0f} px high on a 375 px screen"
    rows = browser.execute_script("return [...document.querySelectorAll('.cr-row')].map(r => r.getBoundingClientRect().toJSON())")
    assert all(r["left"] >= box["right"] for r in rows), "a row is under the map, not beside it"
    assert browser.execute_script("return document.documentElement.scrollWidth <= innerWidth"), "the page scrolls sideways"
    split = browser.execute_script(browser_support.SPLIT_WORDS, ".cr-row .cr-name")
    assert not split, f"city names broken inside a word: {split}"


# ---------- Surprise Me ----------

def test_surprise_me_shows_cities_of_one_country(cities_server, browser):
    open_cities(browser, cities_server)
    countries = {"Italy": "IT", "Andorra": "AD", "San Marino": "SM", "Vatican": "VA", "Iceland": "IS"}
    for _ in range(6):
        tap(browser, browser.find_element(By.ID, "surprise-me"))
        wait(browser, lambda d: shown(d, "scene") or "Nothing was found" in status_text(d), "Surprise Me never answered")
        if shown(browser, "scene"):
            break
        assert "after 4 tries" in status_text(browser)
        assert shown(browser, "retry-row"), "nothing found offers to try again"
    title = browser.find_element(By.ID, "scene-title").text
    country = title.removeprefix("Surprise: ")
    assert country in countries, f"the scene is titled {title!r}"
    listed = names(browser)
    home = [n for n in listed if FIXTURE[n]["country"] == countries[country]]
    assert listed and len(home) * 2 > len(listed), f"the title names the country most cities are in: {country}: {listed}"
    abroad = browser.execute_script(
        "return [...document.querySelectorAll('#rows .cr-row.is-abroad .cr-name')].map(a => a.textContent)")
    assert sorted(abroad) == sorted(set(listed) - set(home)), f"cities of other countries are marked: {abroad}"
    assert country in browser.find_element(By.ID, "scene-sub").text
    assert commit_button(browser).text == "Import" and commit_button(browser).is_enabled()
    # Shown all together, a spin's cities are apart on the map (a 480 km view put ten towns on one dot).
    spread = browser.execute_script("""
      const m = document.getElementById('map').cityMap;
      m.fit();
      const at = m.cities.map((c, i) => m.screen(i));
      const span = (k) => Math.max(...at.map((p) => p[k])) - Math.min(...at.map((p) => p[k]));
      return Math.max(span(0) / m.width, span(1) / m.height);""")
    assert len(listed) < 2 or spread > 0.25, f"the spin's {len(listed)} cities take {spread:.0%} of the map"
    assert_no_console_errors(browser)


# ---------- City card and country pages ----------

def open_card(driver, base: str, name: str) -> None:
    street_off(driver)
    driver.get(f"{base}/cities/{IDS[name]}")
    wait(driver, lambda d: d.execute_script("return document.getElementById('city').dataset.ready === 'true'"), "the card never became ready")


def test_the_city_card_shows_local_time_sun_weather_and_links(cities_server, browser):
    allow_location(browser, cities_server)
    open_card(browser, cities_server, "Fiesole")
    assert browser.find_element(By.TAG_NAME, "h1").text == "Fiesole"

    clock = browser.find_element(By.ID, "local-time").text
    now = datetime.datetime.now(ZoneInfo("Europe/Rome"))
    allowed = {(now + datetime.timedelta(minutes=m)).strftime("%H:%M") for m in (-1, 0, 1)}
    assert clock in allowed, f"the local time reads {clock}, Rome's time is {now:%H:%M}"

    for sun in ("sunrise", "sunset"):
        element = browser.find_element(By.ID, sun)
        instant = element.get_attribute("datetime")
        assert instant, f"the server gave no {sun} for Fiesole"
        local = datetime.datetime.fromisoformat(instant.replace("Z", "+00:00")).astimezone(ZoneInfo("Europe/Rome"))
        assert element.text == local.strftime("%H:%M"), f"{sun} reads {element.text!r}, expected {local:%H:%M} in Rome"

    assert browser.find_element(By.ID, "country-link").get_attribute("href") == f"{cities_server}/cities/countries/IT"
    assert "GeoNames" in browser.find_element(By.CSS_SELECTOR, ".cr-credit").text

    wait(browser, lambda d: "is-loading" not in d.find_element(By.ID, "weather").get_attribute("class"), "the card's weather never loaded")
    assert browser.find_element(By.CSS_SELECTOR, "#weather svg").get_attribute("class") == "wx wx-partly_cloudy"
    assert browser.find_element(By.CSS_SELECTOR, "#weather .cr-temp").text == "11 °C"

    tap(browser, browser.find_element(By.ID, "how-far"))
    expected = distance_km(*CITIES_HOME, FIXTURE["Fiesole"]["lat"], FIXTURE["Fiesole"]["lon"])
    wait(browser, lambda d: "km from you" in d.find_element(By.ID, "distance").text, "How far am I? gave no distance")
    assert browser.find_element(By.ID, "distance").text == f"{expected:.1f} km from you"

    # Not in the collection yet: add it, then star it.
    assert not shown(browser, "favourite")
    tap(browser, browser.find_element(By.ID, "add"))
    wait(browser, lambda d: shown(d, "favourite"), "Add to my cities did not offer the star")
    assert [c["name"] for c in collection(browser)] == ["Fiesole"]
    favourite = browser.find_element(By.ID, "favourite")
    star_fill = "return getComputedStyle(document.querySelector('#favourite path')).fill"
    off = browser.execute_script(star_fill)
    tap(browser, favourite)
    wait(browser, lambda d: favourite.get_attribute("aria-pressed") == "true", "the star did not turn on")
    assert collection(browser)[0]["favourite"] is True
    # Seen, not only told: the star filled, as in the list (it looked the same on and off).
    assert off == "none" and browser.execute_script(star_fill) not in ("none", off), (off, browser.execute_script(star_fill))
    browser.refresh()
    wait(browser, lambda d: d.execute_script("return document.getElementById('city').dataset.ready === 'true'"), "no reload")
    assert browser.find_element(By.ID, "favourite").get_attribute("aria-pressed") == "true"
    assert not shown(browser, "add")
    assert_no_console_errors(browser)


def test_adding_a_city_on_its_card_says_so_without_covering_its_star_on_a_phone(cities_server, browser):
    """The toast saying "… is in your cities now" rose over the Favourite button that Add had just made, the next thing
    a person taps; what adding and starring did is now said under the buttons."""
    set_viewport(browser, 375, 667, mobile=True)
    open_card(browser, cities_server, "Fiesole")
    add = browser.find_element(By.ID, "add")
    browser.execute_script("arguments[0].scrollIntoView({block: 'end'})", add)  # reached by scrolling down to it
    add.click()
    wait(browser, lambda d: shown(d, "favourite"), "Add to my cities did not offer the star")
    said = lambda d: d.find_element(By.ID, "collection-said").text  # noqa: E731
    wait(browser, lambda d: said(d) == "Fiesole is in your cities now.", f"under the buttons: {said(browser)!r}")
    on_top = "const r = arguments[0].getBoundingClientRect(); return arguments[0].contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height - 4))"
    assert browser.execute_script(on_top, browser.find_element(By.ID, "favourite")), "something covers the Favourite button"
    browser.find_element(By.ID, "favourite").click()
    wait(browser, lambda d: said(d) == "Fiesole is a favourite.", f"under the buttons: {said(browser)!r}")
    assert not browser.find_elements(By.CSS_SELECTOR, ".toast"), browser.find_element(By.CSS_SELECTOR, ".toast").text


def test_the_card_of_a_city_whose_weather_fails_says_so(cities_server, browser):
    open_card(browser, cities_server, CITIES_WEATHER_FAILS)
    wait(browser, lambda d: d.find_element(By.ID, "weather-text").text.startswith("Weather unavailable: "), "no word that the weather is unavailable")
    assert len(browser.find_element(By.ID, "weather-text").text) > len("Weather unavailable: "), "the reason is given"
    assert browser.find_element(By.ID, "local-time").text != "--:--"
    assert_no_console_errors(browser)


def article_settled(driver) -> str | None:
    """What the card made of the city's article: "shown", "none" (no article, or none could be had), or None yet."""
    return driver.execute_script("return document.getElementById('city').dataset.article || null")


def test_a_city_with_an_article_shows_it_in_the_card_instead_of_the_search(cities_server, browser):
    open_card(browser, cities_server, "Florence")
    wait(browser, article_settled, "Florence's card never heard about its article")
    assert shown(browser, "article"), "Florence's card shows no article"
    article = browser.find_element(By.ID, "article")
    assert article.find_element(By.TAG_NAME, "h2").text == "From Wikipedia"
    assert browser.find_element(By.ID, "article-extract").text == CITIES_ARTICLE_EXTRACTS["Florence"]
    link = browser.find_element(By.ID, "article-link")
    assert link.text.startswith("Read more on Wikipedia")
    assert link.get_attribute("href") == "https://en.m.wikipedia.org/wiki/Florence"
    assert link.get_attribute("target") == "_blank" and "noopener" in link.get_attribute("rel")
    assert "Text from Wikipedia, CC BY-SA" in article.text, "the licence's attribution is missing"
    assert not shown(browser, "wikipedia") and "Search Wikipedia" not in browser.find_element(By.ID, "city").text, \
        "the search is still offered beside the article"
    assert_no_console_errors(browser)


@pytest.mark.parametrize("name, status", [(CITIES_WITHOUT_ARTICLE, 404), (CITIES_ARTICLE_FAILS, 503)],
                         ids=["no article", "Wikipedia fails"])
def test_without_an_article_the_card_offers_the_search_and_nothing_alarming(cities_server, browser, name, status):
    open_card(browser, cities_server, name)
    wait(browser, article_settled, f"{name}'s card never heard about its article")
    assert article_settled(browser) == "none"
    assert not shown(browser, "article"), f"{name}'s card shows an article section"
    search = browser.find_element(By.ID, "wikipedia")
    assert shown(browser, "wikipedia") and search.text == "Search Wikipedia"
    assert search.get_attribute("target") == "_blank" and "noopener" in search.get_attribute("rel")
    assert search.get_attribute("href").startswith("https://en.wikipedia.org/wiki/Special:Search?search=")
    assert not browser.find_elements(By.CSS_SELECTOR, ".toast"), "a toast says something went wrong"
    # The answer without an article (404) or without Wikipedia (503) is the one error the browser logs.
    expected = re.compile(rf"{API}/{IDS[name]}/article - Failed to load resource: the server responded with a status of {status}")
    severe = [e for e in browser_support.severe_console_entries(browser)
              if not expected.search(e.get("message", "")) and not FAILING_WEATHER.search(e.get("message", ""))]
    assert not severe, f"console errors ({browser_support.ENGINE}):\n" + "\n".join(e.get("message", str(e)) for e in severe)


def test_a_row_links_to_the_card_and_to_wikipedia(cities_server, browser):
    open_cities(browser, cities_server)
    import_cities(browser, ["Florence", "Fiesole"])
    open_cities(browser, cities_server)
    tap(browser, browser.find_element(By.ID, "browse"))
    wait_for_scene(browser, "My cities")
    florence = row(browser, "Florence")
    wiki = florence.find_element(By.CSS_SELECTOR, ".cr-wiki")
    assert wiki.get_attribute("target") == "_blank" and "noopener" in wiki.get_attribute("rel")
    assert "wikipedia.org" in wiki.get_attribute("href")
    tap(browser, florence.find_element(By.CSS_SELECTOR, ".cr-name"))
    wait(browser, lambda d: d.current_url == f"{cities_server}/cities/{IDS['Florence']}", "the row did not open the card")
    browser.back()
    wait_for_scene(browser, "My cities")  # the browser's Back returns to my cities


def test_the_country_page_lists_its_largest_cities(cities_server, browser):
    street_off(browser)
    browser.get(f"{cities_server}/cities/countries/AD")
    assert browser.find_element(By.TAG_NAME, "h1").text == "Andorra"
    items = browser.find_elements(By.CSS_SELECTOR, "#largest-cities a")
    assert [a.text for a in items] == ANDORRA, "largest first"
    assert items[0].get_attribute("href") == f"{cities_server}/cities/{IDS['Andorra la Vella']}"
    assert "Euro" in browser.find_element(By.CSS_SELECTOR, ".cr-facts").text
    assert "GeoNames" in browser.find_element(By.CSS_SELECTOR, ".cr-credit").text
    items[3].click()
    # The click navigates; WebKit may still show the country page's heading when the click returns.
    wait(browser, lambda d: d.find_element(By.TAG_NAME, "h1").text == "Sant Julià de Lòria", "the city's link did not open it")
    wait(browser, lambda d: d.find_element(By.ID, "city").get_attribute("data-article"), "the card never asked its article")
    assert_no_console_errors(browser)


# ---------- Empty states, phones, weight ----------

def test_an_empty_collection_has_no_browse_button(cities_server, browser):
    open_cities(browser, cities_server)
    assert shown(browser, "around-me") and shown(browser, "surprise-me")
    assert not shown(browser, "browse")
    assert browser.find_elements(By.ID, "not-imported") == [], "the cities are imported on this server"
    assert "GeoNames" in browser.find_element(By.CSS_SELECTOR, ".cr-credit").text


def test_without_imported_cities_the_page_says_how(server, browser):
    browser.get(server + "/cities")
    note = browser.find_element(By.ID, "not-imported").text
    assert "trove import cities" in note and "make run" in note
    assert not browser.find_element(By.ID, "around-me").is_enabled()


@pytest.mark.parametrize("path", ["/cities", "/cities/3176959", "/cities/countries/IT"])
def test_pages_fit_a_320px_phone(cities_server, browser, path):
    set_viewport(browser, 320, 640, mobile=True)
    if path == "/cities":
        around_me(browser, cities_server)
        wait(browser, weather_settled, "the weather never finished loading")
        tap(browser, browser.find_element(By.ID, "edit"))
        choose(browser, "sort", "mine")
        star(browser, "Florence")
    else:
        browser.get(cities_server + path)
    inner, scroll = browser.execute_script("return [window.innerWidth, document.documentElement.scrollWidth]")
    assert inner == 320 and scroll <= inner, f"at 320px {path} is {scroll}px wide"
    small = browser.execute_script(
        """
        return [...document.querySelectorAll('main button, main .cr-seg span')]
          .filter(el => el.offsetParent !== null && !el.closest('[hidden]'))
          .map(el => [el.getAttribute('aria-label') || el.textContent.trim(), el.getBoundingClientRect()])
          .filter(([, r]) => r.width < 40 || r.height < 40)
          .map(([name, r]) => `${name}: ${Math.round(r.width)}x${Math.round(r.height)}`);
        """
    )
    assert not small, f"controls too small to tap: {small}"


def test_the_pages_stay_within_the_weight_budget(cities_server, browser):
    around_me(browser, cities_server)
    wait(browser, lambda d: map_pixels(d)["worldPoints"] > 0, "the map points never loaded")
    assert_page_weighs_under(browser)
    open_card(browser, cities_server, "Florence")
    assert_page_weighs_under(browser)


def test_controls_are_labelled_and_focus_is_visible(cities_server, browser):
    around_me(browser, cities_server)
    unlabelled = browser.execute_script(
        """
        return [...document.querySelectorAll('#scene button, #scene input, #scene a, #scene canvas')]
          .filter(el => el.offsetParent !== null)
          .filter(el => !(el.getAttribute('aria-label') || el.textContent.trim() || el.labels?.length))
          .map(el => el.outerHTML.slice(0, 80));
        """
    )
    assert not unlabelled, f"controls without a name: {unlabelled}"
    star_button = row(browser, "Florence").find_element(By.CSS_SELECTOR, ".cr-star")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", star_button)
    row(browser, "Florence").find_element(By.CSS_SELECTOR, ".cr-name").send_keys(Keys.SHIFT, Keys.TAB)
    assert browser.switch_to.active_element == star_button
    outline = browser.execute_script("return getComputedStyle(document.activeElement).outlineStyle")
    assert outline != "none", "the focused star shows no focus ring"
    star_button.send_keys(Keys.ENTER)
    assert starred(browser, "Florence"), "Enter on the focused star stars the city"
