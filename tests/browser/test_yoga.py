"""YogiYogini: what an instructor does with the page, in a real browser.

The `yoga_server` fixture serves a fresh database whose venue search (Overpass) and weather (Open-Meteo) come
from one local fake (`yoga_providers`): two named yoga places near YOGA_HOME (Sunrise Yoga Loft, then Lotus
Studio) plus an unnamed one that must not show, and 18.5 °C everywhere. `yoga_providers_down` makes both
answer 500. Each test has a fresh browser, so a fresh guest profile with an empty roster and no class.
Locations are fixed with browser_support.allow_location (DevTools on Chromium, a stand-in navigator.geolocation on WebKit).
"""

from __future__ import annotations

import datetime
import re

from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

import browser_support
from browser_support import OFFLINE_WRITES, add_preload_script, Finger, assert_page_weighs_under, set_viewport, wait, wait_for_layout
from browser_support import call as page_call
from conftest import YOGA_HOME

API = "/api/v1/yoga"
CLOCK = re.compile(r"^\d{2}:\d{2}:\d{2}$")
# The only console errors a test may allow: the providers' 503s, which the page reports in words.
PROVIDER_503 = re.compile(rf"{API}/(venues/search|class/weather)\S* - Failed to load resource: the server responded with a status of 503")


# ---------- Helpers ----------

def call(driver, method: str, path: str, body=None):
    """A request to YogiYogini's API from inside the page (its cookie is the guest profile): (status, JSON or text)."""
    return page_call(driver, method, API + path, body)


def ok(driver, method: str, path: str, body=None, status: int = 200):
    got, answer = call(driver, method, path, body)
    assert got == status, f"{method} {path} answered {got}, expected {status}: {answer}"
    return answer


def add_student(driver, name: str, **fields) -> dict:
    return ok(driver, "POST", "/students", {"name": name, **fields}, 201)


def check_in(driver, venue: dict | None = None, attendees=(), venue_id: str | None = None) -> dict:
    body = {"venue_id": venue_id} if venue_id else {"venue": venue or {"name": "Community Hall", "address": "Via Verdi 1"}}
    body["attendees"] = list(attendees)
    return ok(driver, "POST", "/class", body, 201)["class"]


def save_class(driver) -> dict:
    return ok(driver, "POST", "/class/end", {"action": "save"}, 201)["session"]


def utc(moment: datetime.datetime) -> str:
    return moment.astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def open_yoga(driver, base: str, fragment: str = "") -> None:
    """Load the page afresh (a new hash alone would not reload it) and wait until it shows the class state."""
    driver.get("about:blank")
    driver.get(base + "/yoga" + fragment)
    wait(driver, lambda d: d.execute_script("return document.getElementById('yoga').dataset.ready === 'true'"),
         "the YogiYogini page never became ready")


def allow_location(driver, base: str, latitude: float = YOGA_HOME[0], longitude: float = YOGA_HOME[1]) -> None:
    browser_support.allow_location(driver, base, latitude, longitude)


def refuse_location(driver, base: str) -> None:
    browser_support.refuse_location(driver, base)


def shown(driver, element_id: str) -> bool:
    return driver.execute_script(
        "const e = document.getElementById(arguments[0]); return !!e && e.getClientRects().length > 0", element_id)


def text(driver, element_id: str) -> str:
    return driver.execute_script("return document.getElementById(arguments[0]).textContent.trim()", element_id)


def inner_text(driver, selector: str) -> str:
    """The rendered text of the first element matching `selector` ('' if none), read in one go (lists re-render)."""
    return driver.execute_script("return document.querySelector(arguments[0])?.innerText ?? ''", selector)


def tap(driver, element) -> None:
    """Click a control after scrolling it to the middle of the screen (clear of the bottom tab bar and toasts)."""
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()


def tap_id(driver, element_id: str) -> None:
    tap(driver, driver.find_element(By.ID, element_id))


def tap_text(driver, container_selector: str, label: str) -> None:
    """Click the button or link inside `container_selector` whose text starts with `label`."""
    find = lambda d: d.execute_script(  # noqa: E731
        "return [...document.querySelectorAll(arguments[0] + ' button, ' + arguments[0] + ' a')]"
        ".find(e => e.getClientRects().length && e.innerText.trim().startsWith(arguments[1])) ?? false",
        container_selector, label)
    for attempt in range(3):
        try:
            tap(driver, wait(driver, find, f"no {label!r} in {container_selector}"))
            return
        except StaleElementReferenceException:
            if attempt == 2:
                raise


def go(driver, tab: str) -> None:
    tap_id(driver, f"tab-{tab}")
    wait(driver, lambda d: shown(d, f"view-{tab}"), f"the {tab} tab did not open")


def list_texts(driver, selector: str, part: str = ".yg-item-title") -> list[str]:
    return driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].filter(e => e.getClientRects().length)"
        ".map(e => (arguments[1] ? e.querySelector(arguments[1]) : e)?.textContent.trim() ?? '')",
        selector, part)


def roster_names(driver) -> list[str]:
    return [n.split("\n")[0] for n in driver.execute_script(
        "return [...document.querySelectorAll('#student-list .yg-item-title')].map(e => e.firstChild.textContent.trim())")]


def attendee_names(driver) -> list[str]:
    return list_texts(driver, "#attendee-list li", ".yg-row-main")


def timer_seconds(driver) -> int:
    value = text(driver, "live-timer")
    assert CLOCK.match(value), f"the timer reads {value!r}, not hh:mm:ss"
    h, m, s = (int(x) for x in value.split(":"))
    return h * 3600 + m * 60 + s


def wait_in_session(driver, venue: str) -> None:
    wait(driver, lambda d: shown(d, "class-live") and text(d, "live-venue") == venue,
         f"the class at {venue!r} is not shown (the class tab shows {text(driver, 'view-class')[:200]!r})")


def fill(driver, element_id: str, value: str) -> None:
    field = driver.find_element(By.ID, element_id)
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", field)
    field.clear()
    field.send_keys(value)


def wait_settings(driver) -> None:
    """The settings form is open and has read the settings: its fields stay disabled until then (a field typed into
    before that was refused: WebKit's InvalidElementStateException)."""
    wait(driver, lambda d: shown(d, "settings-form") and d.execute_script("return !document.getElementById('slipping-weeks').disabled"),
         "the settings did not open, or their fields stayed disabled (the settings were never read)")


def choose(driver, element_id: str, label: str) -> None:
    """Pick an option of a <select> by its visible text, as a person does."""
    Select(driver.find_element(By.ID, element_id)).select_by_visible_text(label)


def no_horizontal_scroll(driver, width: int = 320) -> bool:
    """Nothing is wider than the screen: no sideways scroll, and no zoomed-out page (a phone widens its layout
    viewport to fit content that overflows)."""
    return driver.execute_script(
        "const e = document.documentElement; return innerWidth === arguments[0] && e.scrollWidth <= e.clientWidth", width)


def check_console(driver, allow_provider_errors: bool = False) -> None:
    severe = browser_support.severe_console_entries(driver)
    if allow_provider_errors:
        severe = [e for e in severe if not PROVIDER_503.search(e.get("message", ""))]
    assert not severe, "console errors:\n" + "\n".join(e.get("message", str(e)) for e in severe)


def retype(driver, selector: str, *keys: str) -> None:
    """Clear the field matching `selector` and type `keys`, finding it again if its list was drawn anew meanwhile."""
    for attempt in range(3):
        try:
            field = wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, selector), f"no {selector}")
            field.clear()
            field.send_keys(*keys)
            return
        except StaleElementReferenceException:
            if attempt == 2:
                raise


def dialog_open(driver, element_id: str) -> bool:
    return driver.execute_script("return document.getElementById(arguments[0]).open", element_id)


def open_student_form(driver, name: str) -> None:
    """From the roster, as a person edits a student: their row opens their page, whose Edit opens their form."""
    tap_text(driver, "#student-list", name)
    wait(driver, lambda d: shown(d, "student-show") and text(d, "student-heading") == name, f"{name}'s page did not open")
    tap_id(driver, "student-edit")
    wait(driver, lambda d: dialog_open(d, "student-dialog"), f"{name}'s form did not open")


def watch_dialog(driver, element_id: str) -> None:
    """Records, from now on, whether the dialog ever opens."""
    driver.execute_script(
        """
        const d = document.getElementById(arguments[0]);
        window.__opened = false;
        new MutationObserver(() => { if (d.open) window.__opened = true; }).observe(d, {attributes: true});
        """, element_id)


# ---------- Students ----------

def test_roster_add_students_with_a_type_search_and_sort(yoga_server, browser):
    open_yoga(browser, yoga_server)
    assert browser.find_element(By.ID, "tab-class").get_attribute("aria-current") == "page", "the Class tab opens first"
    go(browser, "students")
    wait(browser, lambda d: "No students yet" in text(d, "student-empty"), "an empty roster should say so")

    # A new student type.
    tap_id(browser, "types-open")
    wait(browser, lambda d: dialog_open(d, "types-dialog"), "the student types did not open")
    types = lambda d: d.execute_script("return [...document.querySelectorAll('#types-list input')].map(i => i.value)")  # noqa: E731
    wait(browser, lambda d: types(d) == ["drop-in", "member", "trial"], f"every profile starts with three types, got {types(browser)}")
    fill(browser, "type-name", "workshop")
    browser.find_element(By.ID, "type-name").send_keys(Keys.ENTER)
    wait(browser, lambda d: "workshop" in types(d), "the new type was not added")
    tap_id(browser, "types-done")

    for name, joined, kind in [("Carla Verdi", "2026-03-02", "trial"), ("Anna Bianchi", "2024-05-20", "workshop"), ("Bruno Rossi", "2025-01-10", "")]:
        tap_id(browser, "student-add")
        wait(browser, lambda d: dialog_open(d, "student-dialog"), "the new-student form did not open")
        fill(browser, "student-name", name)
        browser.execute_script("const f = document.getElementById('student-joined'); f.value = arguments[0];", joined)
        if kind:
            choose(browser, "student-type", kind)
        tap_id(browser, "student-save")
        wait(browser, lambda d, n=name: n in roster_names(d), f"{name} did not appear on the roster")

    assert roster_names(browser) == ["Anna Bianchi", "Bruno Rossi", "Carla Verdi"], "the roster is sorted by name"
    anna = inner_text(browser, "#student-list li:first-child")
    assert "workshop" in anna and "0 sessions" in anna, f"Anna's row reads {anna!r}"

    # Search as you type.
    field = browser.find_element(By.ID, "student-q")
    field.send_keys("bru")
    wait(browser, lambda d: roster_names(d) == ["Bruno Rossi"], f"searching 'bru' shows {roster_names(browser)}")
    field.send_keys(Keys.BACKSPACE * 3, "ver")
    wait(browser, lambda d: roster_names(d) == ["Carla Verdi"], f"searching 'ver' shows {roster_names(browser)}")
    field.send_keys(Keys.BACKSPACE * 3)
    wait(browser, lambda d: len(roster_names(d)) == 3, "clearing the search shows everyone again")

    # Sort by date joined: latest first, then flip.
    choose(browser, "student-sort", "Date joined")
    assert roster_names(browser) == ["Carla Verdi", "Bruno Rossi", "Anna Bianchi"]
    tap_id(browser, "student-order")
    assert roster_names(browser) == ["Anna Bianchi", "Bruno Rossi", "Carla Verdi"]

    # Deactivate Carla: she is marked, and the Active filter hides her.
    open_student_form(browser, "Carla Verdi")
    assert browser.find_element(By.ID, "student-name").get_attribute("value") == "Carla Verdi"
    # Read first: no field has the focus, so a phone raises no keyboard over her form.
    assert browser.execute_script("return document.activeElement.id") == "student-title"
    tap_id(browser, "student-active")
    tap_id(browser, "student-save")
    wait(browser, lambda d: "not active" in text(d, "student-kind"), "Carla's page does not say she is not active")
    browser.back()
    wait(browser, lambda d: "not active" in inner_text(d, "#student-list li:last-child"),
         "Carla is not marked as not active")
    choose(browser, "student-filter", "Active")
    assert roster_names(browser) == ["Anna Bianchi", "Bruno Rossi"]

    # It is stored on the server, not only on the page.
    students = ok(browser, "GET", "/students")["students"]
    assert {s["name"]: (s["active"], s["type_name"], s["joined_on"]) for s in students} == {
        "Anna Bianchi": (True, "workshop", "2024-05-20"), "Bruno Rossi": (True, None, "2025-01-10"), "Carla Verdi": (False, "trial", "2026-03-02")}
    check_console(browser)


# ---------- Checking in ----------

def test_check_in_near_here_shows_temperature_and_a_running_timer(yoga_server, browser):
    allow_location(browser, yoga_server)
    open_yoga(browser, yoga_server)
    assert shown(browser, "checkin") and not shown(browser, "end-class")
    tap_id(browser, "checkin")

    wait(browser, lambda d: len(list_texts(d, "#nearby-list li")) >= 2, "no venues near the fixed location were listed")
    assert list_texts(browser, "#nearby-list li") == ["Sunrise Yoga Loft", "Lotus Studio"], "the named venues, nearest first, and no unnamed one"
    meta = list_texts(browser, "#nearby-list li", ".yg-item-meta")
    assert "Via Roma" in meta[0] and re.search(r"\d+ m", meta[0]), f"Sunrise's line reads {meta[0]!r}"
    assert "© OpenStreetMap contributors" in text(browser, "nearby-credit")

    tap_text(browser, "#nearby-list", "Sunrise Yoga Loft")
    wait_in_session(browser, "Sunrise Yoga Loft")
    assert not shown(browser, "checkin"), "Check in gives way to End class"
    assert shown(browser, "end-class") and browser.find_element(By.ID, "end-class").text.startswith("End class")
    assert "Via Roma" in text(browser, "live-address")
    assert re.search(r"\d{1,2}:\d{2}", text(browser, "live-start")), f"the start time reads {text(browser, 'live-start')!r}"
    wait(browser, lambda d: text(d, "live-temp") == "18.5 °C", f"the temperature reads {text(browser, 'live-temp')!r}")

    first = timer_seconds(browser)
    wait(browser, lambda d: timer_seconds(d) >= first + 2, "the timer is not running", timeout=8)

    # The unit is a setting on the server: °F everywhere after switching.
    go(browser, "sessions")
    tap_text(browser, "#view-sessions", "Settings")
    wait_settings(browser)
    tap_id(browser, "unit-fahrenheit")
    wait(browser, lambda d: text(d, "settings-state") == "Saved", "the unit was not saved")
    assert ok(browser, "GET", "/settings")["temperature_unit"] == "fahrenheit"
    go(browser, "class")
    wait(browser, lambda d: text(d, "live-temp") == "65.3 °F", f"the temperature reads {text(browser, 'live-temp')!r} after switching to °F")

    open_yoga(browser, yoga_server)
    assert text(browser, "live-temp") == "65.3 °F", "the unit survives a reload"
    check_console(browser)


def test_attendees_and_a_reload_keep_the_class_running(yoga_server, browser):
    open_yoga(browser, yoga_server)
    for name in ["Anna Bianchi", "Bruno Rossi", "Carla Verdi"]:
        add_student(browser, name)
    add_student(browser, "Dario Gone", active=False)
    check_in(browser, {"name": "Lotus Studio", "address": "", "latitude": 43.772, "longitude": 11.253})
    open_yoga(browser, yoga_server)
    wait_in_session(browser, "Lotus Studio")
    assert attendee_names(browser) == [] and shown(browser, "attendee-empty")

    tap_id(browser, "add-attendees")
    wait(browser, lambda d: dialog_open(d, "picker-dialog") and len(list_texts(d, "#picker-list li")) == 3,
         "the roster's three active students are not offered")
    assert "Dario Gone" not in list_texts(browser, "#picker-list li"), "inactive students are not offered"
    tap_text(browser, "#picker-list", "Anna Bianchi")
    wait(browser, lambda d: attendee_names(d) == ["Anna Bianchi"], "Anna was not added")
    assert list_texts(browser, "#picker-list li") == ["Bruno Rossi", "Carla Verdi"], "who is here is no longer offered"
    tap_text(browser, "#picker-list", "Bruno Rossi")
    wait(browser, lambda d: attendee_names(d) == ["Anna Bianchi", "Bruno Rossi"], "Bruno was not added")
    tap_text(browser, "#picker-list", "Carla Verdi")
    wait(browser, lambda d: attendee_names(d) == ["Anna Bianchi", "Bruno Rossi", "Carla Verdi"], "Carla was not added")
    assert shown(browser, "picker-empty"), "with everyone here, the picker says so"
    tap_id(browser, "picker-done")
    assert text(browser, "attendee-count") == "3"

    browser.find_element(By.CSS_SELECTOR, "#attendee-list button[aria-label='Remove Bruno Rossi']").click()
    wait(browser, lambda d: attendee_names(d) == ["Anna Bianchi", "Carla Verdi"], "Bruno was not removed")

    notes = browser.find_element(By.ID, "class-notes")
    notes.send_keys("Hip openers; playlist: rain")
    wait(browser, lambda d: text(d, "notes-state") == "Saved", "the notes were not saved")

    # The timer has run on two seconds before the reload, and must not read less after it.
    before = timer_seconds(browser) + 2
    wait(browser, lambda d: timer_seconds(d) >= before, "the timer is not running", timeout=8)
    browser.refresh()
    open_yoga(browser, yoga_server)
    wait_in_session(browser, "Lotus Studio")
    assert attendee_names(browser) == ["Anna Bianchi", "Carla Verdi"], "the attendees survive a reload"
    assert browser.find_element(By.ID, "class-notes").get_attribute("value") == "Hip openers; playlist: rain"
    assert timer_seconds(browser) >= before, "the timer kept counting across the reload"
    klass = ok(browser, "GET", "/class")["class"]
    assert [a["name"] for a in klass["attendees"]] == ["Anna Bianchi", "Carla Verdi"]
    check_console(browser)


def test_a_class_survives_a_server_restart(yoga_restartable, browser):
    with yoga_restartable() as base:
        open_yoga(browser, base)
        anna = add_student(browser, "Anna Bianchi")
        check_in(browser, {"name": "Community Hall", "address": "Via Verdi 1"}, [anna["id"]])
        open_yoga(browser, base)
        wait_in_session(browser, "Community Hall")
        assert not shown(browser, "live-held"), "a class checked in online says it stays on this device"
        started = text(browser, "live-start")
    # A new server process on the same database (cookies ignore the port, so the profile is the same).
    with yoga_restartable() as base:
        open_yoga(browser, base)
        wait_in_session(browser, "Community Hall")
        assert attendee_names(browser) == ["Anna Bianchi"]
        assert text(browser, "live-start") == started
        assert timer_seconds(browser) >= 1
    check_console(browser)


# ---------- Ending a class ----------

def test_end_class_asks_and_save_puts_the_session_in_sessions(yoga_server, browser):
    open_yoga(browser, yoga_server)
    anna = add_student(browser, "Anna Bianchi")
    bruno = add_student(browser, "Bruno Rossi")
    check_in(browser, {"name": "Sunrise Yoga Loft", "address": "Via Roma 3", "latitude": 43.7701, "longitude": 11.2501},
             [anna["id"], bruno["id"]])
    open_yoga(browser, yoga_server)
    wait_in_session(browser, "Sunrise Yoga Loft")
    wait(browser, lambda d: text(d, "live-temp") == "18.5 °C", "no temperature")

    # With the keyboard: End class, then the dialog's Save.
    browser.execute_script("document.getElementById('end-class').focus()")
    ActionChains(browser).send_keys(Keys.ENTER).perform()
    wait(browser, lambda d: dialog_open(d, "end-dialog"), "End class did not ask what to do")
    assert "2 students" in text(browser, "end-summary")
    focused = browser.execute_script("return document.activeElement.id")
    assert focused == "end-save", f"the dialog's Save should have the focus, not {focused!r}"
    ActionChains(browser).send_keys(Keys.ENTER).perform()
    wait(browser, lambda d: shown(d, "checkin") and not dialog_open(d, "end-dialog"), "saving did not end the class")
    assert ok(browser, "GET", "/class")["class"] is None

    go(browser, "sessions")
    wait(browser, lambda d: list_texts(d, "#session-list li") == ["Sunrise Yoga Loft"], "the saved session is not listed")
    assert "2 students" in inner_text(browser, "#session-list li")
    assert "18.5 °C" in inner_text(browser, "#session-list li")
    tap_text(browser, "#session-list", "Sunrise Yoga Loft")
    wait(browser, lambda d: shown(d, "session-show"), "the session's details did not open")
    assert text(browser, "session-heading") == "Sunrise Yoga Loft"
    assert list_texts(browser, "#session-attendees li", "") == ["Anna Bianchi", "Bruno Rossi"]
    assert text(browser, "session-attendance") == "2 students"
    assert text(browser, "session-temp") == "18.5 °C"
    assert text(browser, "session-duration") in ("under a minute", "1 min")
    # Each attendee leads to their record.
    tap(browser, browser.find_element(By.XPATH, "//ul[@id='session-attendees']//a[.='Anna Bianchi']"))
    wait(browser, lambda d: shown(d, "student-show") and text(d, "student-heading") == "Anna Bianchi", "Anna's record did not open")
    check_console(browser)


def test_a_venue_typed_at_check_in_online_is_offered_at_the_next_check_in_offline(yoga_server, browser):
    """The server kept the typed place as a venue, the device's list did not: offline, check-in said "No saved venues
    yet" until the page was reloaded."""
    add_preload_script(browser, OFFLINE_WRITES)
    refuse_location(browser, yoga_server)
    open_yoga(browser, yoga_server)
    tap_id(browser, "checkin")
    wait(browser, lambda d: shown(d, "checkin-panel"), "check-in did not open")
    if not browser.find_element(By.ID, "typed").get_attribute("open"):
        tap(browser, browser.find_element(By.CSS_SELECTOR, "#typed summary"))
    fill(browser, "typed-name", "Lotus Studio")
    tap_id(browser, "typed-checkin")
    wait_in_session(browser, "Lotus Studio")
    browser.execute_script("document.getElementById('end-class').focus()")
    ActionChains(browser).send_keys(Keys.ENTER).perform()
    wait(browser, lambda d: dialog_open(d, "end-dialog"), "End class did not ask what to do")
    ActionChains(browser).send_keys(Keys.ENTER).perform()
    wait(browser, lambda d: shown(d, "checkin") and not dialog_open(d, "end-dialog"), "saving did not end the class")

    browser.execute_script("window.__troveOffline = 'all'")
    tap_id(browser, "checkin")
    wait(browser, lambda d: shown(d, "checkin-panel"), "check-in did not open offline")
    wait(browser, lambda d: "Lotus Studio" in list_texts(d, "#saved-list li"),
         f"offline, check-in does not offer the venue: {list_texts(browser, '#saved-list li')}, {text(browser, 'saved-empty')!r}")
    assert not shown(browser, "saved-empty")


KEPT_YOGA = """
const done = arguments[0];
const open = indexedDB.open('trove-sync');
open.onsuccess = () => {
  const get = open.result.transaction('copies').objectStore('copies').get('yoga');
  get.onsuccess = () => done(get.result ?? null);
  get.onerror = () => done(null);
};
open.onerror = () => done(null);
"""


def indicator(driver) -> str:
    return text(driver, "sync-status")


def check_in_offline(driver, venue: str) -> None:
    """With the server away (OFFLINE_WRITES, 'all'): check-in opens "Type a venue" itself (no venue is known on this
    device), and a typed venue checks in, held on this device."""
    tap_id(driver, "checkin")
    wait(driver, lambda d: shown(d, "checkin-panel"), "check-in did not open")
    wait(driver, lambda d: d.execute_script("return document.getElementById('typed').open"),
         f"offline, \"Type a venue\" stays closed; the panel says {text(driver, 'locate-status')!r}")
    fill(driver, "typed-name", venue)
    tap_id(driver, "typed-checkin")
    wait_in_session(driver, venue)


def test_offline_a_change_to_the_class_never_sets_its_timer_back(yoga_server, browser):
    """Issue 57: offline mid-class, each change (an attendee, the temperature, a note) set the timer back to 00:00:01:
    the device answered the change with the elapsed time it had read last. The timer counts from the class's start,
    and the saved session lasts from its start to its end."""
    add_preload_script(browser, OFFLINE_WRITES)
    refuse_location(browser, yoga_server)
    open_yoga(browser, yoga_server)
    browser.execute_script("window.__troveOffline = 'all'")
    check_in_offline(browser, "Basement Studio")
    wait(browser, lambda d: timer_seconds(d) >= 3, "the class timer does not run", timeout=10)
    ran = timer_seconds(browser)
    tap_id(browser, "temp-edit")
    fill(browser, "temp-input", "17")
    browser.find_element(By.ID, "temp-input").send_keys(Keys.ENTER)
    wait(browser, lambda d: text(d, "live-temp") == "17 °C", f"the typed temperature is not shown: {text(browser, 'live-temp')!r}")
    assert timer_seconds(browser) >= ran, f"typing the temperature set the timer back from {ran} s to {timer_seconds(browser)} s"
    fill(browser, "class-notes", "Cold floor")
    browser.execute_script("document.getElementById('class-notes').blur()")
    wait(browser, lambda d: text(d, "notes-state") == "Saved", "the notes were not kept")
    assert timer_seconds(browser) >= ran, f"a note set the timer back from {ran} s to {timer_seconds(browser)} s"

    browser.execute_script("document.getElementById('end-class').focus()")
    ActionChains(browser).send_keys(Keys.ENTER).perform()
    wait(browser, lambda d: dialog_open(d, "end-dialog"), "End class did not ask what to do")
    tap_id(browser, "end-save")
    wait(browser, lambda d: shown(d, "checkin") and not dialog_open(d, "end-dialog"), "saving did not end the class")
    session = browser.execute_async_script(KEPT_YOGA)["sessions"][0]
    start, end = (datetime.datetime.fromisoformat(session[k].replace("Z", "+00:00")) for k in ("started_at", "ended_at"))
    assert session["duration_seconds"] == round((end - start).total_seconds()) >= ran, session
    check_console(browser)


def test_offline_check_in_says_what_works_and_a_class_on_this_phone_only_is_not_all_saved(yoga_server, browser):
    """Issue 57: offline, check-in said "Trove's server cannot be reached, and this needs it", though a typed or saved
    venue checks in without it; and a class checked in offline, on this phone only, had the header say "All saved"."""
    add_preload_script(browser, OFFLINE_WRITES)
    allow_location(browser, yoga_server)
    open_yoga(browser, yoga_server)
    wait(browser, lambda d: indicator(d) == "All saved", f"the indicator says {indicator(browser)!r}")
    browser.execute_script("window.__troveOffline = 'all'")
    tap_id(browser, "checkin")
    wait(browser, lambda d: "check in offline" in text(d, "locate-status"),
         f"offline, the panel does not say check-in works: {text(browser, 'locate-status')!r}")
    said = [text(browser, "locate-status"), *browser.execute_script("return [...window.__troveSeen]")]
    assert not any("needs it" in line for line in said), f"offline, check-in says it needs the server: {said}"
    wait(browser, lambda d: d.execute_script("return document.getElementById('typed').open"), "offline, \"Type a venue\" stays closed")
    fill(browser, "typed-name", "Basement Studio")
    tap_id(browser, "typed-checkin")
    wait_in_session(browser, "Basement Studio")
    wait(browser, lambda d: indicator(d) == "1 change waiting",
         f"a class on this phone only has the header say {indicator(browser)!r}")
    browser.execute_script("window.__troveOffline = null; window.dispatchEvent(new Event('online'))")
    wait(browser, lambda d: not shown(d, "live-held"), "back online, the class stayed on the phone", timeout=30)
    wait(browser, lambda d: indicator(d) == "All saved", f"once the server has the class, the header says {indicator(browser)!r}")
    check_console(browser)


def test_a_long_press_on_end_class_saves_at_once(yoga_server, browser):
    open_yoga(browser, yoga_server)
    anna = add_student(browser, "Anna Bianchi")
    check_in(browser, {"name": "Community Hall", "address": ""}, [anna["id"]])
    open_yoga(browser, yoga_server)
    wait_in_session(browser, "Community Hall")
    watch_dialog(browser, "end-dialog")

    # A short press does not save: it asks.
    end = browser.find_element(By.ID, "end-class")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", end)
    ActionChains(browser).click_and_hold(end).pause(0.2).release().perform()
    wait(browser, lambda d: dialog_open(d, "end-dialog"), "a short press should open the dialog")
    tap_id(browser, "end-keep")
    assert ok(browser, "GET", "/class")["class"] is not None

    # A touch held for a second saves without a question, with progress shown while holding.
    watch_dialog(browser, "end-dialog")
    rect = browser.execute_script("const r = arguments[0].getBoundingClientRect(); return {x: r.left + r.width / 2, y: r.top + r.height / 2}", end)
    # Every progress the button shows while held, as the page writes it (the hold lasts 600 ms: a poll from here
    # could miss it).
    browser.execute_script(
        """const end = arguments[0], seen = window.__pressSeen = [];
        new MutationObserver(() => {
          if (end.classList.contains('is-pressing')) seen.push(parseFloat(end.style.getPropertyValue('--progress')) || 0);
        }).observe(end, {attributes: true, attributeFilter: ['style', 'class']});""", end)
    finger = Finger(browser).down(rect["x"], rect["y"])
    # Once full, the press saves while the finger is still down.
    wait(browser, lambda d: shown(d, "checkin"), "a long press did not end the class while held", timeout=5)
    finger.up()
    seen = browser.execute_script("return window.__pressSeen")
    # The progress moves with the page's animation frames; a loaded machine may give the 600 ms hold a single one
    # (seen once in a full WebKit run with other tests beside it), so a value between is asked for only then.
    assert seen, "holding does not show it is pressing"
    assert len(seen) < 3 or any(0 < progress < 1 for progress in seen), f"holding shows no progress (values shown while pressing: {seen})"
    assert not browser.execute_script("return window.__opened"), "a long press must not ask"
    sessions = ok(browser, "GET", "/sessions")["sessions"]
    assert len(sessions) == 1 and sessions[0]["attendance"] == 1, f"the class was not saved: {sessions}"

    # The mouse works the same way.
    check_in(browser, {"name": "Community Hall", "address": ""})
    open_yoga(browser, yoga_server)
    wait_in_session(browser, "Community Hall")
    watch_dialog(browser, "end-dialog")
    end = browser.find_element(By.ID, "end-class")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", end)
    ActionChains(browser).click_and_hold(end).pause(1.0).release().perform()
    wait(browser, lambda d: shown(d, "checkin"), "a long mouse press did not end the class")
    assert not browser.execute_script("return window.__opened")
    assert len(ok(browser, "GET", "/sessions")["sessions"]) == 2
    check_console(browser)


def test_discarding_a_class_asks_twice_and_keeps_nothing(yoga_server, browser):
    open_yoga(browser, yoga_server)
    check_in(browser)
    open_yoga(browser, yoga_server)
    wait_in_session(browser, "Community Hall")
    tap_id(browser, "end-class")
    wait(browser, lambda d: dialog_open(d, "end-dialog"), "End class did not ask")
    tap_id(browser, "end-discard")
    wait(browser, lambda d: dialog_open(d, "confirm-dialog"), "discarding did not ask to confirm")
    assert "Discard" in text(browser, "confirm-title")
    tap_id(browser, "confirm-cancel")
    assert shown(browser, "class-live"), "keeping it keeps the class"
    assert ok(browser, "GET", "/class")["class"] is not None

    tap_id(browser, "end-class")
    wait(browser, lambda d: dialog_open(d, "end-dialog"), "End class did not ask")
    tap_id(browser, "end-discard")
    wait(browser, lambda d: dialog_open(d, "confirm-dialog"), "discarding did not ask to confirm")
    tap_id(browser, "confirm-ok")
    wait(browser, lambda d: shown(d, "checkin"), "discarding did not end the class")
    assert ok(browser, "GET", "/class")["class"] is None
    go(browser, "sessions")
    wait(browser, lambda d: shown(d, "session-empty"), "a discarded class must not become a session")
    check_console(browser)


# ---------- Venues without a provider ----------

def test_provider_down_typed_venue_works_and_temperature_is_unavailable(yoga_server, browser, yoga_providers_down):
    # A place no earlier test searched, so no cached answer hides the outage.
    allow_location(browser, yoga_server, 45.07, 7.69)
    open_yoga(browser, yoga_server)
    tap_id(browser, "checkin")
    wait(browser, lambda d: "cannot be searched right now" in text(d, "locate-status"),
         f"the outage is not explained; the status reads {text(browser, 'locate-status')!r}")
    assert not shown(browser, "nearby")
    if not browser.find_element(By.ID, "typed").get_attribute("open"):
        tap(browser, browser.find_element(By.CSS_SELECTOR, "#typed summary"))
    fill(browser, "typed-name", "Parish Hall")
    fill(browser, "typed-address", "Via Po 12, Torino")
    fill(browser, "typed-lat", "45.07")
    fill(browser, "typed-lon", "7.69")
    tap_id(browser, "typed-checkin")
    wait_in_session(browser, "Parish Hall")
    assert text(browser, "live-address") == "Via Po 12, Torino"
    wait(browser, lambda d: text(d, "live-temp") == "temperature unavailable", f"the temperature reads {text(browser, 'live-temp')!r}")
    # Asking again (Try again, or on its own a while later) hid the reason and the button while it waited, and End
    # class, under them, jumped up 150 px and back on a phone, where a teacher's thumb was going.
    wait(browser, lambda d: shown(d, "temp-retry"), "no Try again")
    browser.execute_script("""
      const end = document.getElementById('end-class');
      const tops = window.__endTops = [];
      const sample = () => { tops.push(end.getBoundingClientRect().top + scrollY); if (tops.length < 2000) requestAnimationFrame(sample); };
      sample();""")
    tap_id(browser, "temp-retry")
    wait(browser, lambda d: "Trying again in 1 min" in text(d, "temp-why"), f"the second try's outcome is not said: {text(browser, 'temp-why')!r}")
    tops = browser.execute_script("return window.__endTops")
    assert max(tops) - min(tops) < 1, f"End class moved while the weather was asked again: from {min(tops)} to {max(tops)} px"
    first = timer_seconds(browser)
    wait(browser, lambda d: timer_seconds(d) > first, "the class's timer does not run", timeout=5)
    # The typed venue is saved for next time.
    assert "Parish Hall" in [v["name"] for v in ok(browser, "GET", "/venues")["venues"]]
    check_console(browser, allow_provider_errors=True)


def test_location_refused_offers_saved_venues_favourites_first(yoga_server, browser):
    refuse_location(browser, yoga_server)
    open_yoga(browser, yoga_server)
    ok(browser, "POST", "/venues", {"name": "Old Gym", "address": "Via Dante 4"}, 201)
    ok(browser, "POST", "/venues", {"name": "Riverside Hall", "address": "Lungarno 1"}, 201)
    tap_id(browser, "checkin")
    wait(browser, lambda d: "Location is off" in text(d, "locate-status"), f"the status reads {text(browser, 'locate-status')!r}")
    wait(browser, lambda d: set(list_texts(d, "#saved-list li")) == {"Old Gym", "Riverside Hall"}, "the saved venues are not offered")
    star = browser.find_element(By.CSS_SELECTOR, "#saved-list button[aria-label='Favourite: Riverside Hall']")
    tap(browser, star)
    wait(browser, lambda d: list_texts(d, "#saved-list li") == ["Riverside Hall", "Old Gym"], "a favourite should come first")
    assert browser.find_element(By.CSS_SELECTOR, "#saved-list button[aria-label='Favourite: Riverside Hall']").get_attribute("aria-pressed") == "true"
    # Typing filters her venues.
    browser.find_element(By.ID, "venue-q").send_keys("gym")
    wait(browser, lambda d: list_texts(d, "#saved-list li") == ["Old Gym"], "typing does not filter the saved venues")
    tap_text(browser, "#saved-list", "Old Gym")
    wait_in_session(browser, "Old Gym")
    wait(browser, lambda d: text(d, "live-temp") == "temperature unavailable", "a venue without a position has no temperature")
    assert [v["name"] for v in ok(browser, "GET", "/venues")["venues"]][0] == "Riverside Hall", "the favourite is stored"
    check_console(browser)


def test_a_venue_searched_for_and_not_found_is_checked_in_without_typing_its_name_again(yoga_server, browser):
    refuse_location(browser, yoga_server)
    open_yoga(browser, yoga_server)
    tap_id(browser, "checkin")
    wait(browser, lambda d: d.find_element(By.ID, "typed").get_attribute("open") is not None,
         "with no venues and no location, Type a venue should open")
    # She looks for her studio first; nothing is found, and the name she searched for is the one to type.
    browser.find_element(By.ID, "venue-q").send_keys("Studio Lotus")
    wait(browser, lambda d: d.find_element(By.ID, "typed-name").get_attribute("value") == "Studio Lotus",
         f"the name reads {browser.find_element(By.ID, 'typed-name').get_attribute('value')!r}")
    # A name she corrects there is hers: searching on leaves it.
    fill(browser, "typed-name", "Studio Lotus East")
    browser.find_element(By.ID, "venue-q").send_keys(" Hall")
    assert browser.find_element(By.ID, "typed-name").get_attribute("value") == "Studio Lotus East"
    tap_id(browser, "typed-checkin")
    wait_in_session(browser, "Studio Lotus East")
    # The next check-in, on the same page: the name follows the search again (checking in emptied the form).
    tap_id(browser, "end-class")
    wait(browser, lambda d: dialog_open(d, "end-dialog"), "End class did not ask what to do")
    tap_id(browser, "end-save")
    wait(browser, lambda d: shown(d, "checkin") and not dialog_open(d, "end-dialog"), "saving did not end the class")
    tap_id(browser, "checkin")
    wait(browser, lambda d: shown(d, "checkin-panel"), "check-in did not open")
    browser.find_element(By.ID, "venue-q").send_keys("Parish Hall")
    wait(browser, lambda d: d.find_element(By.ID, "typed-name").get_attribute("value") == "Parish Hall",
         f"the second time the name reads {browser.find_element(By.ID, 'typed-name').get_attribute('value')!r}")
    check_console(browser)


# ---------- Repeat last time ----------

def test_repeat_last_time_proposes_the_regulars(yoga_server, browser):
    allow_location(browser, yoga_server)
    open_yoga(browser, yoga_server)
    anna = add_student(browser, "Anna Bianchi")
    bruno = add_student(browser, "Bruno Rossi")
    carla = add_student(browser, "Carla Verdi")
    venue = {"name": "Sunrise Yoga Loft", "address": "Via Roma 3", "latitude": 43.7701, "longitude": 11.2501}
    first = check_in(browser, venue, [anna["id"], carla["id"]])
    save_class(browser)
    check_in(browser, venue_id=first["venue"]["id"], attendees=[anna["id"], bruno["id"]])
    save_class(browser)

    open_yoga(browser, yoga_server)
    wait(browser, lambda d: shown(d, "repeat"), "Repeat last time is not offered")
    assert "Sunrise Yoga Loft" in text(browser, "repeat")
    tap_id(browser, "repeat")
    checks = lambda d: d.execute_script(  # noqa: E731
        "return [...document.querySelectorAll('#repeat-list label')].map(l => [l.textContent.split(' · ')[0].trim(), l.querySelector('input').checked])")
    wait(browser, lambda d: len(checks(d)) == 3, f"the regulars are not proposed: {checks(browser)}")
    assert checks(browser)[0] == ["Anna Bianchi", True], "the most regular first, ticked: she came last time"
    assert dict(map(tuple, checks(browser))) == {"Anna Bianchi": True, "Bruno Rossi": True, "Carla Verdi": False}
    # Bruno is not here today.
    tap(browser, browser.find_element(By.XPATH, "//ul[@id='repeat-list']//label[contains(., 'Bruno Rossi')]"))
    tap_id(browser, "repeat-go")
    wait_in_session(browser, "Sunrise Yoga Loft")
    assert attendee_names(browser) == ["Anna Bianchi"]

    # After check-in the venue's regulars come first in the picker.
    tap_id(browser, "add-attendees")
    wait(browser, lambda d: len(list_texts(d, "#picker-list li")) == 2, "the picker did not list the others")
    metas = lambda d: list_texts(d, "#picker-list li", ".yg-item-meta")  # noqa: E731
    wait(browser, lambda d: all("Regular here" in m for m in metas(d)), f"the picker's lines read {metas(browser)}")
    tap_id(browser, "picker-done")

    # With a known location, the nearest saved venue is suggested at check-in.
    ok(browser, "POST", "/class/end", {"action": "discard"})
    open_yoga(browser, yoga_server)
    tap_id(browser, "checkin")
    wait(browser, lambda d: shown(d, "nearest") and text(d, "nearest-name") == "Sunrise Yoga Loft", "the nearest saved venue is not suggested")
    tap_id(browser, "nearest-checkin")
    wait_in_session(browser, "Sunrise Yoga Loft")
    check_console(browser)


# ---------- Sessions ----------

def test_a_session_can_be_corrected_and_deleted(yoga_server, browser):
    open_yoga(browser, yoga_server)
    anna = add_student(browser, "Anna Bianchi")
    bruno = add_student(browser, "Bruno Rossi")
    add_student(browser, "Carla Verdi")
    check_in(browser, {"name": "Lotus Studio", "address": "Via Dante 1"}, [anna["id"], bruno["id"]])
    session = save_class(browser)
    # It happened yesterday, 18:00 to 19:00 here.
    # Started at 18:00:40: corrected to end at 19:15, it read "1 h 14 min" under "6:00 PM – 7:15 PM".
    start = (datetime.datetime.now().astimezone() - datetime.timedelta(days=1)).replace(hour=18, minute=0, second=40, microsecond=0)
    session = ok(browser, "PUT", f"/sessions/{session['id']}", {
        "started_at": utc(start), "ended_at": utc(start + datetime.timedelta(hours=1)),
        "attendees": [anna["id"], bruno["id"]], "notes": ""})
    check_in(browser, {"name": "Old Gym", "address": ""}, [anna["id"]])
    save_class(browser)

    open_yoga(browser, yoga_server, "#sessions")
    wait(browser, lambda d: list_texts(d, "#session-list li") == ["Old Gym", "Lotus Studio"], "newest first")
    choose(browser, "session-sort", "Attendance")
    assert list_texts(browser, "#session-list li") == ["Lotus Studio", "Old Gym"], "sorted by attendance, most first"
    choose(browser, "session-sort", "Venue")
    assert list_texts(browser, "#session-list li") == ["Lotus Studio", "Old Gym"]
    tap_id(browser, "session-order")
    assert list_texts(browser, "#session-list li") == ["Old Gym", "Lotus Studio"]

    tap_text(browser, "#session-list", "Lotus Studio")
    wait(browser, lambda d: shown(d, "session-show"), "the details did not open")
    tap_id(browser, "session-edit")
    wait(browser, lambda d: shown(d, "session-form"), "the correction form did not open")
    tap(browser, browser.find_element(By.XPATH, "//ul[@id='edit-attendees']//label[contains(., 'Bruno Rossi')]"))
    tap(browser, browser.find_element(By.XPATH, "//ul[@id='edit-attendees']//label[contains(., 'Carla Verdi')]"))
    assert browser.find_element(By.ID, "edit-start").get_attribute("value") == start.strftime("%Y-%m-%dT18:00")
    browser.execute_script("document.getElementById('edit-end').value = arguments[0]", start.strftime("%Y-%m-%dT19:15"))
    fill(browser, "edit-notes", "Sun salutations")
    tap_id(browser, "session-save")
    wait(browser, lambda d: shown(d, "session-show") and list_texts(d, "#session-attendees li", "") == ["Anna Bianchi", "Carla Verdi"],
         "the corrected attendance is not shown")
    assert text(browser, "session-attendance") == "2 students"
    assert text(browser, "session-notes") == "Sun salutations"
    assert text(browser, "session-duration") == "1 h 15 min"
    stored = ok(browser, "GET", f"/sessions/{session['id']}")
    assert sorted(a["name"] for a in stored["attendees"]) == ["Anna Bianchi", "Carla Verdi"]

    tap_id(browser, "session-delete")
    wait(browser, lambda d: dialog_open(d, "confirm-dialog"), "deleting did not ask")
    tap_id(browser, "confirm-ok")
    wait(browser, lambda d: shown(d, "view-sessions") and list_texts(d, "#session-list li") == ["Old Gym"], "the session was not deleted")
    check_console(browser)
    assert call(browser, "GET", f"/sessions/{session['id']}")[0] == 404


def test_deleting_a_student_who_came_asks_first_and_keeps_the_head_count(yoga_server, browser):
    open_yoga(browser, yoga_server)
    anna = add_student(browser, "Anna Bianchi")
    bruno = add_student(browser, "Bruno Rossi")
    add_student(browser, "Carla Verdi")
    check_in(browser, {"name": "Lotus Studio", "address": ""}, [anna["id"], bruno["id"]])
    session = save_class(browser)

    open_yoga(browser, yoga_server, "#students")
    wait(browser, lambda d: len(roster_names(d)) == 3, "the roster did not load")
    # Carla never came: she goes at once.
    open_student_form(browser, "Carla Verdi")
    tap_id(browser, "student-delete")
    wait(browser, lambda d: roster_names(d) == ["Anna Bianchi", "Bruno Rossi"], "Carla was not deleted")

    open_student_form(browser, "Anna Bianchi")
    tap_id(browser, "student-delete")
    wait(browser, lambda d: dialog_open(d, "confirm-dialog"), "deleting a student who came to a class must ask first")
    assert "1 session" in text(browser, "confirm-text")
    tap_id(browser, "confirm-cancel")
    assert "Anna Bianchi" in roster_names(browser)
    wait(browser, lambda d: shown(d, "student-show") and text(d, "student-heading") == "Anna Bianchi", "not deleting left Anna's page")

    tap_id(browser, "student-edit")
    wait(browser, lambda d: dialog_open(d, "student-dialog"), "Anna's form did not open again")
    tap_id(browser, "student-delete")
    wait(browser, lambda d: dialog_open(d, "confirm-dialog"), "no question the second time")
    tap_id(browser, "confirm-ok")
    wait(browser, lambda d: roster_names(d) == ["Bruno Rossi"], "Anna was not deleted")

    go(browser, "sessions")
    wait(browser, lambda d: "2 students" in inner_text(d, "#session-list li"), "the head count changed")
    tap_text(browser, "#session-list", "Lotus Studio")
    wait(browser, lambda d: shown(d, "session-show"), "the details did not open")
    assert text(browser, "session-attendance") == "2 students"
    names = list_texts(browser, "#session-attendees li", "")
    assert "Anna Bianchi (no longer on the roster)" in names and "Bruno Rossi" in names, names
    assert ok(browser, "GET", f"/sessions/{session['id']}")["attendance"] == 2
    check_console(browser)


# ---------- Statistics ----------

def test_the_students_tab_opened_first_reads_the_roster_once(yoga_server, browser):
    """Opened on #students, the page read the roster twice at once: for the tab, and to keep it on the device."""
    open_yoga(browser, yoga_server)
    add_student(browser, "Anna Bianchi")
    open_yoga(browser, yoga_server, "#students")
    wait(browser, lambda d: roster_names(d) == ["Anna Bianchi"], "the roster did not load")
    reads = browser.execute_script(
        "return performance.getEntriesByType('resource').filter(e => e.name.includes('/api/v1/yoga/students?')).length")
    assert reads == 1, f"the roster was read {reads} times"


def test_a_student_edited_on_two_devices_keeps_both_changes(yoga_server, browser):
    """The laptop has Anna's form open while the phone gives her a type; the laptop then writes a note and saves.
    Both are kept (the form sends what it was opened on), and the page says the type came from elsewhere."""
    open_yoga(browser, yoga_server)
    anna = add_student(browser, "Anna Bianchi")
    trial = [t for t in ok(browser, "GET", "/student-types")["types"] if t["name"] == "trial"][0]
    open_yoga(browser, yoga_server, "#students")
    wait(browser, lambda d: roster_names(d) == ["Anna Bianchi"], "the roster did not load")
    open_student_form(browser, "Anna Bianchi")
    # Meanwhile, on the phone:
    ok(browser, "PUT", f"/students/{anna['id']}", {"name": "Anna Bianchi", "joined_on": anna["joined_on"], "active": True,
                                                   "type_id": trial["id"], "notes": ""})
    fill(browser, "student-notes", "Knee injury: no kneeling poses")
    tap_id(browser, "student-save")
    wait(browser, lambda d: not dialog_open(d, "student-dialog"), "the form did not save")
    stored = ok(browser, "GET", f"/students/{anna['id']}")
    assert stored["notes"] == "Knee injury: no kneeling poses", stored
    assert stored["type_id"] == trial["id"], f"the laptop's save undid the phone's type: {stored}"
    wait(browser, lambda d: "type changed on another device" in d.execute_script(
        "return [...document.querySelectorAll('.toast')].map(t => t.textContent).join(' ')"), "the page did not say what it kept")
    wait(browser, lambda d: "trial" in text(d, "student-kind"), "Anna's page does not show the type kept")
    browser.back()
    wait(browser, lambda d: "trial" in inner_text(d, "#student-list li"), "the roster does not show the type kept")


def notes_value(driver) -> str:
    return driver.find_element(By.ID, "class-notes").get_attribute("value")


def test_class_notes_written_on_two_devices_keep_both(yoga_server, browser):
    """The phone and the tablet both show a class's notes "Warm room". The tablet adds a line; the phone, still on
    "Warm room", adds its own. Both lines are kept, the phone shows them and says so, and its next words go on from
    there. Before, the phone's save wrote over the tablet's line."""
    open_yoga(browser, yoga_server)
    check_in(browser, {"name": "Lotus Studio", "address": ""})
    open_yoga(browser, yoga_server)
    wait_in_session(browser, "Lotus Studio")
    notes = browser.find_element(By.ID, "class-notes")
    notes.send_keys("Warm room")
    wait(browser, lambda d: text(d, "notes-state") == "Saved", "the notes were not saved")
    # Meanwhile, on the tablet:
    ok(browser, "PATCH", "/class", {"notes": "Warm room\nBring blocks", "was": "Warm room"})
    notes.send_keys(Keys.ENTER, "Anna: knee")
    wait(browser, lambda d: text(d, "notes-state") == "Changed on another device meanwhile: both notes are kept",
         "the phone did not say the tablet's line was kept")
    assert notes_value(browser) == "Warm room\nBring blocks\nAnna: knee", notes_value(browser)
    assert ok(browser, "GET", "/class")["class"]["notes"] == "Warm room\nBring blocks\nAnna: knee"
    # Typing on, at the caret (after "knee"): the phone's words replace its own, the tablet's line stays.
    notes.send_keys(", rest")
    wait(browser, lambda d: text(d, "notes-state") == "Saved", "the next words were not saved")
    assert ok(browser, "GET", "/class")["class"]["notes"] == "Warm room\nBring blocks\nAnna: knee, rest"
    browser.refresh()
    open_yoga(browser, yoga_server)
    wait_in_session(browser, "Lotus Studio")
    assert notes_value(browser) == "Warm room\nBring blocks\nAnna: knee, rest"
    check_console(browser)



def test_class_notes_kept_from_two_devices_past_the_limit_can_still_be_edited(yoga_server, browser):
    """The phone and the tablet each wrote 2,500 characters of notes: kept together they pass the 4,000 a box holds.
    The box then took no letter more, and the server refused the next save of them ("Not saved"), though neither
    device had written too much. An edit as long as the notes it was written over is saved now."""
    open_yoga(browser, yoga_server)
    check_in(browser, {"name": "Lotus Studio", "address": ""})
    open_yoga(browser, yoga_server)
    wait_in_session(browser, "Lotus Studio")
    notes = browser.find_element(By.ID, "class-notes")
    browser.execute_script("arguments[0].value = 'p'.repeat(2500); arguments[0].dispatchEvent(new Event('input'))", notes)
    wait(browser, lambda d: text(d, "notes-state") == "Saved", "the notes were not saved")
    ok(browser, "PATCH", "/class", {"notes": "t" * 2500, "was": ""})  # the tablet, from before the phone's words
    notes.send_keys(Keys.END, "!")
    wait(browser, lambda d: text(d, "notes-state") == "Changed on another device meanwhile: both notes are kept",
         "the phone did not say the tablet's words were kept")
    both = notes_value(browser)
    assert len(both) == 5002 and both.count("t") == 2500, len(both)
    notes.send_keys(Keys.BACKSPACE, Keys.BACKSPACE, "?")
    wait(browser, lambda d: text(d, "notes-state") == "Saved", f"the edit was not saved: {text(browser, 'notes-state')!r}")
    assert notes_value(browser) == ok(browser, "GET", "/class")["class"]["notes"] and len(notes_value(browser)) == 5001

def test_a_session_corrected_on_two_devices_keeps_both_corrections(yoga_server, browser):
    """The laptop has a session's correction form open while the tablet records the temperature and a note; the
    laptop takes Bruno off and writes its note. Both corrections are kept, and the page says what came from elsewhere."""
    open_yoga(browser, yoga_server)
    anna = add_student(browser, "Anna Bianchi")
    bruno = add_student(browser, "Bruno Rossi")
    check_in(browser, {"name": "Lotus Studio", "address": ""}, [anna["id"], bruno["id"]])
    session = save_class(browser)
    start = datetime.datetime.now().astimezone().replace(microsecond=0) - datetime.timedelta(hours=2)
    opened = {"started_at": utc(start), "ended_at": utc(start + datetime.timedelta(hours=1)),
              "attendees": [anna["id"], bruno["id"]], "notes": "", "temperature_c": None}
    ok(browser, "PUT", f"/sessions/{session['id']}", opened)
    open_yoga(browser, yoga_server, "#sessions")
    tap_text(browser, "#session-list", "Lotus Studio")
    wait(browser, lambda d: shown(d, "session-show"), "the details did not open")
    tap_id(browser, "session-edit")
    wait(browser, lambda d: shown(d, "session-form"), "the correction form did not open")
    # Meanwhile, on the tablet:
    ok(browser, "PUT", f"/sessions/{session['id']}", {**opened, "notes": "Bring blocks", "temperature_c": 14, "base": opened})
    tap(browser, browser.find_element(By.XPATH, "//ul[@id='edit-attendees']//label[contains(., 'Bruno Rossi')]"))
    fill(browser, "edit-notes", "Hips")
    tap_id(browser, "session-save")
    wait(browser, lambda d: shown(d, "session-show") and list_texts(d, "#session-attendees li", "") == ["Anna Bianchi"],
         "the corrected attendance is not shown")
    wait(browser, lambda d: "notes and temperature changed on another device" in d.execute_script(
        "return [...document.querySelectorAll('.toast')].map(t => t.textContent).join(' ')"), "the page did not say what it kept")
    assert text(browser, "session-notes") == "Bring blocks\nHips", text(browser, "session-notes")
    stored = ok(browser, "GET", f"/sessions/{session['id']}")
    assert stored["notes"] == "Bring blocks\nHips" and stored["temperature_c"] == 14, stored
    assert [a["name"] for a in stored["attendees"]] == ["Anna Bianchi"], stored
    check_console(browser)


def test_a_student_deleted_on_another_device_while_their_form_is_open_can_be_added_again(yoga_server, browser):
    """Save of a student deleted elsewhere meanwhile asks whether to add them again with what was typed, instead of
    leaving the words in a form that can only be closed."""
    open_yoga(browser, yoga_server)
    anna = add_student(browser, "Anna Bianchi")
    open_yoga(browser, yoga_server, "#students")
    wait(browser, lambda d: roster_names(d) == ["Anna Bianchi"], "the roster did not load")
    open_student_form(browser, "Anna Bianchi")
    ok(browser, "DELETE", f"/students/{anna['id']}", None, 204)  # meanwhile, on the phone
    fill(browser, "student-notes", "Back after the summer")
    tap_id(browser, "student-save")
    wait(browser, lambda d: dialog_open(d, "confirm-dialog"), "Save of a student deleted elsewhere did not ask")
    assert "deleted on another device" in text(browser, "confirm-title")
    tap_id(browser, "confirm-ok")
    wait(browser, lambda d: not dialog_open(d, "student-dialog"), "Add again did not save the form")
    students = ok(browser, "GET", "/students")["students"]
    assert [(s["name"], s["notes"]) for s in students] == [("Anna Bianchi", "Back after the summer")], students
    assert students[0]["id"] != anna["id"]
    wait(browser, lambda d: roster_names(d) == ["Anna Bianchi"], "the roster does not show Anna again")


def test_statistics_show_attendance_and_who_is_slipping_away(yoga_server, browser):
    open_yoga(browser, yoga_server)
    anna = add_student(browser, "Anna Bianchi")
    bruno = add_student(browser, "Bruno Rossi")
    add_student(browser, "Carla Verdi")
    check_in(browser, {"name": "Lotus Studio", "address": ""}, [anna["id"], bruno["id"]])
    old = save_class(browser)
    # That class was six weeks ago.
    start = datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(weeks=6)
    ok(browser, "PUT", f"/sessions/{old['id']}", {
        "started_at": utc(start), "ended_at": utc(start + datetime.timedelta(hours=1)),
        "attendees": [anna["id"], bruno["id"]], "notes": ""})
    check_in(browser, {"name": "Old Gym", "address": ""}, [anna["id"]])
    save_class(browser)

    open_yoga(browser, yoga_server, "#stats")
    wait(browser, lambda d: shown(d, "stats-body"), "the statistics did not load")
    rows = browser.execute_script(
        "return [...document.querySelectorAll('#stats-students tbody tr')].map(r => [...r.cells].map(c => c.textContent.trim()))")
    by_name = {r[0]: r[1:4] for r in rows}
    assert by_name["Anna Bianchi"] == ["1", "2", "2"], f"Anna's 30 days, 90 days, total: {by_name}"
    assert by_name["Bruno Rossi"] == ["0", "1", "1"], by_name
    slipping = list_texts(browser, "#slipping-list li", "")
    assert any(s.startswith("Bruno Rossi") and "6 weeks" in s for s in slipping), f"Bruno should be slipping away: {slipping}"
    assert not any(s.startswith("Anna Bianchi") for s in slipping)
    assert "3 weeks" in text(browser, "slipping-intro")
    # The charts are drawn.
    assert browser.find_elements(By.CSS_SELECTOR, "#chart-students svg rect.yg-bar")
    venues = browser.execute_script("return [...document.querySelectorAll('#chart-venues .yg-bar-label')].map(t => t.textContent)")
    assert sorted(venues) == ["Lotus Studio", "Old Gym"]
    assert browser.find_elements(By.CSS_SELECTOR, "#chart-months svg rect.yg-bar")

    # Eight weeks in the settings: Bruno is no longer slipping.
    tap_text(browser, "#view-stats", "Change the number of weeks")
    wait_settings(browser)
    fill(browser, "slipping-weeks", "8")
    tap_id(browser, "settings-save")
    wait(browser, lambda d: text(d, "settings-state") == "Saved", "the weeks were not saved")
    open_yoga(browser, yoga_server, "#stats")
    wait(browser, lambda d: shown(d, "stats-body") and "8 weeks" in text(d, "slipping-intro"), "the new number of weeks is not used")
    assert not any(s.startswith("Bruno Rossi") for s in list_texts(browser, "#slipping-list li", ""))
    check_console(browser)


def test_csv_exports_are_linked(yoga_server, browser):
    open_yoga(browser, yoga_server, "#sessions")
    for kind in ("sessions", "attendance"):
        link = browser.find_element(By.ID, f"export-{kind}")
        assert f"{API}/export.csv?kind={kind}&tz=" in link.get_attribute("href")
        status = browser.execute_async_script(
            "fetch(arguments[0]).then(r => arguments[1]([r.status, r.headers.get('Content-Type')]))", link.get_attribute("href"))
        assert status[0] == 200 and "csv" in (status[1] or ""), status
    check_console(browser)


# ---------- Privacy, size, small screens ----------

def test_another_profile_sees_none_of_it(yoga_server, browser):
    open_yoga(browser, yoga_server)
    anna = add_student(browser, "Anna Bianchi")
    check_in(browser, {"name": "Lotus Studio", "address": ""}, [anna["id"]])
    session = save_class(browser)
    check_in(browser, {"name": "Old Gym", "address": ""})

    browser.delete_all_cookies()
    open_yoga(browser, yoga_server)
    assert shown(browser, "checkin"), "someone else's class must not show"
    go(browser, "students")
    wait(browser, lambda d: "No students yet" in text(d, "student-empty"), "someone else's roster must not show")
    go(browser, "sessions")
    wait(browser, lambda d: shown(d, "session-empty"), "someone else's sessions must not show")
    assert call(browser, "GET", f"/sessions/{session['id']}")[0] == 404
    assert call(browser, "GET", f"/students/{anna['id']}")[0] == 404
    assert ok(browser, "GET", "/venues")["venues"] == []
    browser_support.severe_console_entries(browser)  # the two 404s above were asked for


def test_small_screens_light_page_and_keyboard(yoga_server, browser):
    set_viewport(browser, 320, 640)
    allow_location(browser, yoga_server)
    open_yoga(browser, yoga_server)
    assert_page_weighs_under(browser)
    assert no_horizontal_scroll(browser), "the Class tab scrolls sideways at 320 px"
    tab_bar = browser.execute_script("const r = document.querySelector('.yg-tabs').getBoundingClientRect(); return [r.bottom, innerHeight]")
    assert abs(tab_bar[0] - tab_bar[1]) < 2, f"on a phone the tabs sit at the bottom: {tab_bar}"

    tap_id(browser, "checkin")
    wait(browser, lambda d: len(list_texts(d, "#nearby-list li")) == 2, "no nearby venues")
    assert no_horizontal_scroll(browser), "the check-in panel scrolls sideways at 320 px"
    tap_text(browser, "#nearby-list", "Lotus Studio")
    wait_in_session(browser, "Lotus Studio")
    # Names with nowhere to break (an e-mail address, one long word) made every view wider than the phone, the
    # attendees' remove buttons and the tab bar off the screen.
    for name in ["Anna Bianchi-Lombardi de la Fuente", "margaret.oconnell.yoga@example.com", "Maximilianawilhelminakonstantinopoulou"]:
        ok(browser, "PATCH", "/class", {"add": [add_student(browser, name)["id"]]})
    open_yoga(browser, yoga_server)
    wait(browser, lambda d: len(list_texts(d, "#attendee-list li")) == 3, "the attendees are not listed")
    assert no_horizontal_scroll(browser), "the class with its attendees scrolls sideways at 320 px"
    save_class(browser)
    open_yoga(browser, yoga_server)
    for view in ("students", "sessions"):
        go(browser, view)
        wait_for_layout(browser, f"the {view} tab")
        assert no_horizontal_scroll(browser), f"the {view} tab scrolls sideways at 320 px"
    tap_text(browser, "#session-list", "Lotus Studio")
    wait(browser, lambda d: shown(d, "session-show"), "the session did not open")
    tap_id(browser, "session-edit")
    wait(browser, lambda d: shown(d, "session-form"), "the correction form did not open")
    assert no_horizontal_scroll(browser), "the session's correction form is wider than 320 px"
    go(browser, "students")
    tap_id(browser, "student-add")
    wait(browser, lambda d: dialog_open(d, "student-dialog"), "the student form did not open")
    assert no_horizontal_scroll(browser), "the student form is wider than 320 px"
    open_yoga(browser, yoga_server, "#stats")
    wait(browser, lambda d: shown(d, "stats-body"), "no statistics")
    assert no_horizontal_scroll(browser), "the statistics scroll sideways at 320 px"

    # Keyboard: the tabs are links in the tab order; Enter opens one; the focus ring shows.
    open_yoga(browser, yoga_server)
    browser.execute_script("document.getElementById('checkin').focus()")
    ActionChains(browser).key_down(Keys.SHIFT).send_keys(Keys.TAB).key_up(Keys.SHIFT).perform()
    assert browser.execute_script("return document.activeElement.id") == "tab-students", "the tabs are not in the tab order"
    ActionChains(browser).send_keys(Keys.ENTER).perform()
    wait(browser, lambda d: shown(d, "view-students"), "Enter on the Students tab did not open it")
    ActionChains(browser).send_keys(Keys.TAB).perform()
    focused = browser.execute_script("const e = document.activeElement; return [e.id, getComputedStyle(e).outlineStyle]")
    assert focused == ["student-add", "solid"], f"the focus should show on 'Add student': {focused}"
    check_console(browser)


# ---------- Issue 18: what the instructor found wrong ----------

def test_settings_show_what_is_stored_and_never_save_the_defaults(yoga_server, browser):
    open_yoga(browser, yoga_server)
    ok(browser, "PUT", "/settings", {"temperature_unit": "fahrenheit", "slipping_weeks": 6})
    # A reload on the settings view shows what is stored (it once showed 3 weeks and °C, and saved them back).
    open_yoga(browser, yoga_server, "#settings")
    wait(browser, lambda d: d.find_element(By.ID, "slipping-weeks").get_attribute("value") == "6",
         f"the weeks read {browser.find_element(By.ID, 'slipping-weeks').get_attribute('value')!r}, not the stored 6")
    assert browser.find_element(By.ID, "unit-fahrenheit").is_selected(), "°F is stored, so °F is chosen"
    tap_id(browser, "settings-save")
    wait(browser, lambda d: text(d, "settings-state") == "Saved", "Save did not save")
    assert ok(browser, "GET", "/settings") == {"temperature_unit": "fahrenheit", "slipping_weeks": 6}
    browser.refresh()
    wait(browser, lambda d: d.find_element(By.ID, "slipping-weeks").get_attribute("value") == "6", "a second reload lost the weeks")
    # A change is saved, and only what was shown.
    fill(browser, "slipping-weeks", "5")
    tap_id(browser, "settings-save")
    wait(browser, lambda d: text(d, "settings-state") == "Saved", "Save did not save")
    assert ok(browser, "GET", "/settings") == {"temperature_unit": "fahrenheit", "slipping_weeks": 5}
    check_console(browser)


def test_a_typed_venue_takes_my_position_and_a_temperature_can_be_typed(yoga_server, browser):
    allow_location(browser, yoga_server)
    open_yoga(browser, yoga_server)
    anna = add_student(browser, "Anna Bianchi")
    tap_id(browser, "checkin")
    wait(browser, lambda d: len(list_texts(d, "#nearby-list li")) >= 2, "the location was not used")
    tap(browser, browser.find_element(By.CSS_SELECTOR, "#typed summary"))
    value = lambda d, i: d.find_element(By.ID, i).get_attribute("value")  # noqa: E731
    wait(browser, lambda d: value(d, "typed-lat") and value(d, "typed-lon"), "the typed venue was not given my position")
    assert abs(float(value(browser, "typed-lat")) - YOGA_HOME[0]) < 1e-3 and abs(float(value(browser, "typed-lon")) - YOGA_HOME[1]) < 1e-3
    fill(browser, "typed-name", "Garden Studio")
    tap_id(browser, "typed-checkin")
    wait_in_session(browser, "Garden Studio")
    wait(browser, lambda d: text(d, "live-temp") == "18.5 °C", f"no temperature for the typed venue: {text(browser, 'live-temp')!r}")
    venue = ok(browser, "GET", "/class")["class"]["venue"]
    assert abs(venue["latitude"] - YOGA_HOME[0]) < 1e-3, venue
    ok(browser, "PATCH", "/class", {"add": [anna["id"]]})

    # The instructor's own thermometer says otherwise: typed on the running class, kept across a reload.
    tap_id(browser, "temp-edit")
    wait(browser, lambda d: shown(d, "temp-form"), "no field to type the temperature")
    fill(browser, "temp-input", "21")
    browser.find_element(By.ID, "temp-input").send_keys(Keys.ENTER)
    wait(browser, lambda d: text(d, "live-temp") == "21 °C", f"the typed temperature is not shown: {text(browser, 'live-temp')!r}")
    open_yoga(browser, yoga_server)
    wait_in_session(browser, "Garden Studio")
    assert text(browser, "live-temp") == "21 °C", "the typed temperature is lost on reload"
    tap_id(browser, "end-class")
    wait(browser, lambda d: dialog_open(d, "end-dialog"), "End class did not ask")
    tap_id(browser, "end-save")
    wait(browser, lambda d: shown(d, "checkin"), "the class was not saved")
    wait(browser, lambda d: ok(d, "GET", "/sessions")["sessions"][0]["temperature_c"] == 21, "the session does not keep the typed 21 °C")
    session = ok(browser, "GET", "/sessions")["sessions"][0]

    # And corrected on the saved session, in the unit chosen.
    ok(browser, "PUT", "/settings", {"temperature_unit": "fahrenheit", "slipping_weeks": 3})
    open_yoga(browser, yoga_server, f"#session/{session['id']}")
    wait(browser, lambda d: shown(d, "session-show") and text(d, "session-temp") == "69.8 °F", f"the session reads {text(browser, 'session-temp')!r}")
    tap_id(browser, "session-edit")
    wait(browser, lambda d: shown(d, "session-form"), "the correction form did not open")
    assert browser.find_element(By.ID, "edit-temp").get_attribute("value") == "69.8"
    assert "°F" in text(browser, "edit-temp-label")
    fill(browser, "edit-temp", "50")
    tap_id(browser, "session-save")
    wait(browser, lambda d: shown(d, "session-show") and text(d, "session-temp") == "50 °F", f"the corrected temperature reads {text(browser, 'session-temp')!r}")
    assert ok(browser, "GET", f"/sessions/{session['id']}")["temperature_c"] == 10
    assert [a["name"] for a in ok(browser, "GET", f"/sessions/{session['id']}")["attendees"]] == ["Anna Bianchi"]
    check_console(browser)


def test_the_weather_says_why_it_is_missing_and_is_asked_again(yoga_server, browser, yoga_providers):
    open_yoga(browser, yoga_server)
    yoga_providers.down = True
    try:
        # A place no other test asked about, so no kept answer hides the outage.
        check_in(browser, {"name": "Bologna Hall", "address": "", "latitude": 44.494, "longitude": 11.343})
        open_yoga(browser, yoga_server)
        wait_in_session(browser, "Bologna Hall")
        wait(browser, lambda d: "did not answer" in text(d, "temp-why"), f"no reason is given: {text(browser, 'temp-why')!r}")
        assert text(browser, "live-temp") == "temperature unavailable"
        assert "Trying again" in text(browser, "temp-why"), text(browser, "temp-why")
        assert shown(browser, "temp-retry")
    finally:
        yoga_providers.down = False
    tap_id(browser, "temp-retry")
    wait(browser, lambda d: text(d, "live-temp") == "18.5 °C", f"trying again did not fetch it: {text(browser, 'live-temp')!r}")
    assert not shown(browser, "temp-why") and not shown(browser, "temp-retry")

    # A venue without a position says so, and offers typing.
    ok(browser, "POST", "/class/end", {"action": "discard"})
    check_in(browser, {"name": "Nowhere Hall", "address": ""})
    open_yoga(browser, yoga_server)
    wait_in_session(browser, "Nowhere Hall")
    wait(browser, lambda d: "no position" in text(d, "temp-why"), f"the reason reads {text(browser, 'temp-why')!r}")
    assert not shown(browser, "temp-retry") and text(browser, "temp-edit") == "Type the temperature"
    check_console(browser, allow_provider_errors=True)


def test_nothing_to_tap_moves_when_a_list_loads(yoga_server, browser):
    # Issue 17: "Student types" sat below the roster, and the roster (or its empty box) pushed it down as it loaded,
    # so a tap aimed at it right after opening the tab landed on nothing. Every tool of a list sits above the list.
    tools = {"students": ["student-add", "types-open", "student-q", "student-order"],
             "sessions": ["session-sort", "session-order", "export-sessions", "export-attendance"]}
    where = lambda d, ids: d.execute_script(  # noqa: E731 (each tool's place on the page, and the top of its list)
        "return arguments[0].map(i => { const r = document.getElementById(i).getBoundingClientRect();"
        " return [i, Math.round(r.left + scrollX), Math.round(r.top + scrollY), Math.round(r.bottom + scrollY)]; })", ids)
    top = lambda d, id: d.execute_script("return document.getElementById(arguments[0]).getBoundingClientRect().top + scrollY", id)  # noqa: E731
    placed = {}
    for tab, ids in tools.items():
        open_yoga(browser, yoga_server, f"#{tab}")
        wait(browser, lambda d: shown(d, f"{tab[:-1]}-empty"), f"the empty {tab} list did not show")
        placed[tab] = where(browser, ids)
        below = [i for i, _, _, bottom in placed[tab] if bottom > top(browser, f"{tab[:-1]}-empty")]
        assert not below, f"{below} sit below the {tab} list, which moves them as it loads"
    for name in ("Ada Lovelace", "Grace Hopper", "Marco Rossi"):
        add_student(browser, name)
    open_yoga(browser, yoga_server, "#students")
    wait(browser, lambda d: roster_names(d) == ["Ada Lovelace", "Grace Hopper", "Marco Rossi"], "the roster did not load")
    assert where(browser, tools["students"]) == placed["students"], "the roster's tools moved when it filled"


# The browser's answer to "where am I?" held back until the test calls window.__releaseLocation() (on WebKit it wraps
# the stand-in geolocation that allow_location installs, which runs first).
HOLD_LOCATION = """
(() => {
  const geo = navigator.geolocation, held = [];
  window.__releaseLocation = () => held.splice(0).forEach((answer) => answer());
  Object.defineProperty(navigator, 'geolocation', {configurable: true, value: {
    getCurrentPosition: (ok, fail, options) => { held.push(() => geo.getCurrentPosition(ok, fail, options)); },
    watchPosition: (...args) => geo.watchPosition(...args), clearWatch: (id) => geo.clearWatch(id)}});
})();
"""


def test_nothing_to_tap_in_check_in_moves_when_the_places_near_you_come(yoga_server, browser):
    # Issue 17: "Nearest of your venues" and "Near you" came in above "Find a venue", "Your venues" and "Type a venue"
    # once the location and the venue lookups answered, and pushed them down under a finger about to tap. The
    # location is held back while the panel's tools are measured, then let through.
    allow_location(browser, yoga_server)
    browser_support.add_preload_script(browser, HOLD_LOCATION)
    open_yoga(browser, yoga_server)
    ok(browser, "POST", "/venues", {"name": "Sunrise Yoga Loft", "address": "Via Roma 3", "latitude": 43.7701, "longitude": 11.2501}, 201)
    ok(browser, "POST", "/venues", {"name": "Riverside Hall", "address": "Lungarno 1"}, 201)
    open_yoga(browser, yoga_server)
    tap_id(browser, "checkin")
    tools = ["#checkin-cancel", "#venue-q", "#typed > summary", "#checkin-panel a[href='#venues']"]
    mine = ["#saved-list li:nth-child(1) .yg-item", "#saved-list li:nth-child(1) .yg-star",
            "#saved-list li:nth-child(2) .yg-item", "#saved-list li:nth-child(2) .yg-star"]
    where = lambda d, selectors: d.execute_script(  # noqa: E731 (each one's place and size on the page)
        "return arguments[0].map(s => { const r = document.querySelector(s)?.getBoundingClientRect();"
        " return r ? [s, Math.round(r.left + scrollX), Math.round(r.top + scrollY), Math.round(r.width), Math.round(r.height)] : [s]; })",
        selectors)
    # Right after the panel is drawn (her venues may still be coming); under load WebKit draws it a little after the tap.
    drawn = lambda d: all(len(r) == 5 and r[3] > 0 for r in where(d, tools))  # noqa: E731
    wait(browser, drawn, "the check-in panel did not open")
    at_once = where(browser, tools)
    wait(browser, lambda d: len(list_texts(d, "#saved-list li")) == 2, "her venues are not listed")
    wait_for_layout(browser, "the check-in panel")
    placed = where(browser, tools + mine)
    assert text(browser, "locate-status") == "Finding where you are…", f"the top line reads {text(browser, 'locate-status')!r}"
    browser.execute_script("window.__releaseLocation()")
    wait(browser, lambda d: shown(d, "nearest") and text(d, "nearest-name") == "Sunrise Yoga Loft", "the nearest of her venues is not suggested")
    wait(browser, lambda d: list_texts(d, "#nearby-list li") == ["Sunrise Yoga Loft", "Lotus Studio"], "the places near her are not listed")
    wait_for_layout(browser, "the check-in panel")
    now = where(browser, tools + mine)
    moved = [f"{before} → {after}" for before, after in zip(at_once + placed, now[:len(tools)] + now) if before != after]
    assert not moved, "what a finger may aim at moved when the answers came: " + "; ".join(moved)
    assert text(browser, "locate-status") == "", "the suggestion replaces the line in place"
    tap_id(browser, "nearest-checkin")
    wait_in_session(browser, "Sunrise Yoga Loft")
    check_console(browser)


def test_student_types_rename_by_enter_or_leaving_and_refuse_a_duplicate(yoga_server, browser):
    # First #class: a first visit straight to #students can get the default types twice (a server race).
    open_yoga(browser, yoga_server)
    go(browser, "students")
    tap_id(browser, "types-open")
    types = lambda d: d.execute_script("return [...document.querySelectorAll('#types-list input')].map(i => i.value)")  # noqa: E731
    wait(browser, lambda d: types(d) == ["drop-in", "member", "trial"], f"the types read {types(browser)}")
    stored = lambda: sorted(t["name"] for t in ok(browser, "GET", "/student-types")["types"])  # noqa: E731

    # Enter (the phone keyboard's Done submits the same way).
    retype(browser, "#types-list input[aria-label='Name of the type member']", "regular", Keys.ENTER)
    wait(browser, lambda d: "regular" in stored(), f"Enter did not save the rename: {stored()}")
    wait(browser, lambda d: "regular" in types(d), "the renamed type is not shown")
    # Leaving the field.
    retype(browser, "#types-list input[aria-label='Name of the type trial']", "first month")
    browser.find_element(By.ID, "type-name").click()
    wait(browser, lambda d: "first month" in stored(), f"leaving the field did not save the rename: {stored()}")

    # A second "Regular" is refused, in words.
    fill(browser, "type-name", "Regular")
    browser.find_element(By.ID, "type-name").send_keys(Keys.ENTER)
    wait(browser, lambda d: "already a type called regular" in text(d, "types-error"), f"the refusal reads {text(browser, 'types-error')!r}")
    assert browser.find_element(By.ID, "type-name").get_attribute("aria-invalid") == "true"
    # One the page did not know of yet: the server's refusal is shown.
    ok(browser, "POST", "/student-types", {"name": "yin"}, 201)
    fill(browser, "type-name", "YIN")
    browser.find_element(By.ID, "type-name").send_keys(Keys.ENTER)
    wait(browser, lambda d: "already a type called yin" in text(d, "types-error").lower(), f"the server's refusal reads {text(browser, 'types-error')!r}")
    assert stored() == ["drop-in", "first month", "regular", "yin"]
    browser_support.severe_console_entries(browser)  # the 409 was asked for


def test_roster_warns_of_a_second_name_and_refuses_a_future_joining_date(yoga_server, browser):
    open_yoga(browser, yoga_server)
    add_student(browser, "Anna Bianchi", joined_on="2024-05-20")
    open_yoga(browser, yoga_server, "#students")
    wait(browser, lambda d: roster_names(d) == ["Anna Bianchi"], "the roster did not load")
    names = lambda: sorted(s["name"] for s in ok(browser, "GET", "/students")["students"])  # noqa: E731

    tap_id(browser, "student-add")
    wait(browser, lambda d: dialog_open(d, "student-dialog"), "the form did not open")
    fill(browser, "student-name", "anna bianchi")
    tap_id(browser, "student-save")
    wait(browser, lambda d: dialog_open(d, "confirm-dialog"), "a second Anna Bianchi is not warned about")
    assert "There is already" in text(browser, "confirm-title")
    tap_id(browser, "confirm-cancel")
    assert dialog_open(browser, "student-dialog") and names() == ["Anna Bianchi"], "going back adds nobody"
    tap_id(browser, "student-save")
    wait(browser, lambda d: dialog_open(d, "confirm-dialog"), "no warning the second time")
    tap_id(browser, "confirm-ok")
    wait(browser, lambda d: len(roster_names(d)) == 2, "the second Anna was not added after confirming")
    assert names() == ["Anna Bianchi", "anna bianchi"]

    # A joining date in the future: refused at the field by the page itself, so it holds offline too.
    tap_id(browser, "student-add")
    wait(browser, lambda d: dialog_open(d, "student-dialog"), "the form did not open")
    fill(browser, "student-name", "Zoe Later")
    later = (datetime.date.today() + datetime.timedelta(days=10)).isoformat()
    browser.execute_script("document.getElementById('student-joined').value = arguments[0]", later)
    tap_id(browser, "student-save")
    wait(browser, lambda d: "in the future" in text(d, "joined-error"), f"the date's error reads {text(browser, 'joined-error')!r}")
    assert browser.find_element(By.ID, "student-joined").get_attribute("aria-invalid") == "true"
    assert dialog_open(browser, "student-dialog") and "Zoe Later" not in names()
    browser.execute_script("document.getElementById('student-joined').value = arguments[0]", datetime.date.today().isoformat())
    tap_id(browser, "student-save")
    wait(browser, lambda d: "Zoe Later" in roster_names(d), "Zoe was not added with today's date")
    assert text(browser, "joined-error") == ""
    browser_support.severe_console_entries(browser)


def picker_with_an_inactive_student(browser, base: str) -> None:
    """A class running with Anna; Dario on the roster, not active; the picker open."""
    open_yoga(browser, base)
    anna = add_student(browser, "Anna Bianchi")
    add_student(browser, "Dario Gone", active=False)
    check_in(browser, attendees=[anna["id"]])
    open_yoga(browser, base)
    wait_in_session(browser, "Community Hall")
    tap_id(browser, "add-attendees")


def test_inactive_students_can_be_found_in_the_picker(yoga_server, browser):
    picker_with_an_inactive_student(browser, yoga_server)
    wait(browser, lambda d: dialog_open(d, "picker-dialog") and shown(d, "picker-empty"), "the picker did not say it is empty")
    assert "Show inactive" in text(browser, "picker-empty"), text(browser, "picker-empty")
    tap_id(browser, "picker-inactive")
    wait(browser, lambda d: [t.replace(" ", "") for t in list_texts(d, "#picker-list li")] == ["DarioGonenotactive"],
         f"the picker offers {list_texts(browser, '#picker-list li')}")
    tap_text(browser, "#picker-list", "Dario Gone")
    wait(browser, lambda d: attendee_names(d) == ["Anna Bianchi", "Dario Gone"], "Dario was not added")
    check_console(browser)


def test_someone_new_at_the_door_joins_the_roster_and_the_class_from_the_picker(yoga_server, browser):
    """Only students on the roster could be checked in: a newcomer mid-class meant leaving the class for the Students tab,
    adding them there and coming back. A name nobody has is offered in the picker as a new student."""
    picker_with_an_inactive_student(browser, yoga_server)
    wait(browser, lambda d: dialog_open(d, "picker-dialog") and shown(d, "picker-empty"), "the picker did not open")
    search = browser.find_element(By.ID, "picker-q")
    search.send_keys("dario gone")  # someone on the roster (inactive), whatever the case: not offered as new
    wait(browser, lambda d: "Show inactive" in text(d, "picker-empty"), f"the picker says {text(browser, 'picker-empty')!r}")
    assert list_texts(browser, "#picker-list li") == []
    search.clear()
    search.send_keys("anna bianchi")  # already here: said so, rather than that nobody matches
    wait(browser, lambda d: text(d, "picker-empty") == "Anna Bianchi is already in this class.",
         f"the picker says {text(browser, 'picker-empty')!r}")
    assert list_texts(browser, "#picker-list li") == []
    search.clear()
    search.send_keys("Elena Nuova")
    wait(browser, lambda d: len(list_texts(d, "#picker-list li")) == 1, "a new name is not offered")
    assert "Add “Elena Nuova”" in list_texts(browser, "#picker-list li")[0]
    tap_text(browser, "#picker-list", "Add “Elena Nuova”")
    wait(browser, lambda d: attendee_names(d) == ["Anna Bianchi", "Elena Nuova"], f"attending: {attendee_names(browser)}")
    assert browser.find_element(By.ID, "picker-q").get_attribute("value") == "", "the search is not ready for the next"
    assert dialog_open(browser, "picker-dialog"), "the picker closed: the next newcomer needs it too"
    roster = ok(browser, "GET", "/students?active=all")["students"]
    elena = [s for s in roster if s["name"] == "Elena Nuova"]
    assert len(elena) == 1 and elena[0]["active"], roster
    assert [a["name"] for a in ok(browser, "GET", "/class")["class"]["attendees"]] == ["Anna Bianchi", "Elena Nuova"]
    check_console(browser)


def test_a_class_started_on_another_device_shows_when_the_class_tab_is_opened(yoga_server, browser):
    """The laptop checks in while the phone shows the roster: the phone's Class tab said "No class in session" and
    offered Check in, since the class was read only as the page opened or came back into view."""
    open_yoga(browser, yoga_server, "#students")
    check_in(browser)  # the laptop
    tap_id(browser, "tab-class")
    wait_in_session(browser, "Community Hall")


def test_a_student_page_shows_their_attendance_history(yoga_server, browser):
    open_yoga(browser, yoga_server)
    anna = add_student(browser, "Anna Bianchi")
    check_in(browser, {"name": "Lotus Studio", "address": ""}, [anna["id"]])
    first = save_class(browser)
    start = datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(days=7)
    ok(browser, "PUT", f"/sessions/{first['id']}", {"started_at": utc(start), "ended_at": utc(start + datetime.timedelta(hours=1)),
                                                  "attendees": [anna["id"]], "notes": ""})
    check_in(browser, {"name": "Old Gym", "address": ""}, [anna["id"]])
    save_class(browser)

    # Her row in the roster opens her page (it opened her form, with the page one more tap away).
    open_yoga(browser, yoga_server, "#students")
    tap_text(browser, "#student-list", "Anna Bianchi")
    wait(browser, lambda d: shown(d, "student-show") and text(d, "student-heading") == "Anna Bianchi", "Anna's page did not open")
    assert not dialog_open(browser, "student-dialog")
    assert list_texts(browser, "#student-history li") == ["Old Gym", "Lotus Studio"], "her classes, newest first"
    assert text(browser, "student-attended") == "2"
    browser.refresh()
    wait(browser, lambda d: shown(d, "student-show") and list_texts(d, "#student-history li") == ["Old Gym", "Lotus Studio"], "a reload lost the page")
    tap_text(browser, "#student-history", "Lotus Studio")
    wait(browser, lambda d: shown(d, "session-show") and text(d, "session-heading") == "Lotus Studio", "the session did not open")
    browser.back()
    wait(browser, lambda d: shown(d, "student-show") and text(d, "student-heading") == "Anna Bianchi", "Back did not return to Anna's page")
    browser.back()
    wait(browser, lambda d: shown(d, "view-students"), "Back from her page did not return to the roster")
    # The statistics lead there too.
    open_yoga(browser, yoga_server, "#stats")
    wait(browser, lambda d: shown(d, "stats-body"), "no statistics")
    tap_text(browser, "#stats-students", "Anna Bianchi")
    wait(browser, lambda d: shown(d, "student-show") and text(d, "student-heading") == "Anna Bianchi", "the statistics do not lead to Anna's page")
    check_console(browser)


def test_venues_are_renamed_and_deleted_in_the_page(yoga_server, browser):
    open_yoga(browser, yoga_server)
    ok(browser, "POST", "/venues", {"name": "Old Gym", "address": "Via Dante 4"}, 201)
    ok(browser, "POST", "/venues", {"name": "Riverside Hall", "address": "Lungarno 1"}, 201)
    open_yoga(browser, yoga_server, "#sessions")
    tap_text(browser, "#view-sessions", "Venues")
    wait(browser, lambda d: shown(d, "view-venues") and len(d.find_elements(By.CSS_SELECTOR, "#venue-list input")) == 2, "the venues are not listed")
    stored = lambda: sorted(v["name"] for v in ok(browser, "GET", "/venues")["venues"])  # noqa: E731
    retype(browser, "#venue-list input[aria-label='Name of the venue Old Gym']", "New Gym", Keys.ENTER)
    wait(browser, lambda d: stored() == ["New Gym", "Riverside Hall"], f"the rename was not saved: {stored()}")
    tap(browser, wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, "button[aria-label='Delete the venue Riverside Hall']"), "no Delete"))
    wait(browser, lambda d: dialog_open(d, "confirm-dialog"), "deleting a venue did not ask")
    tap_id(browser, "confirm-ok")
    wait(browser, lambda d: stored() == ["New Gym"], "the venue was not deleted")
    wait(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#venue-list input")) == 1, "the deleted venue is still shown")

    # Starred on the phone meanwhile, renamed here from the list shown before: both are kept.
    gym = ok(browser, "GET", "/venues")["venues"][0]
    ok(browser, "PUT", f"/venues/{gym['id']}", {"name": "New Gym", "address": gym["address"], "favourite": True})
    retype(browser, "#venue-list input[aria-label='Name of the venue New Gym']", "Gym on Via Dante", Keys.ENTER)
    wait(browser, lambda d: stored() == ["Gym on Via Dante"], f"the rename was not saved: {stored()}")
    assert ok(browser, "GET", "/venues")["venues"][0]["favourite"] is True, "the rename undid the star given elsewhere"
    check_console(browser)


def test_statistics_at_320_px_the_sort_kept_the_csv_in_my_zone_and_one_time_format(yoga_server, browser):
    open_yoga(browser, yoga_server)
    anna = add_student(browser, "Zoë Wilhelmina Fitzgerald-Montgomery")  # wide letters: past an estimate of their width
    check_in(browser, {"name": "Lotus Studio", "address": ""}, [anna["id"]])
    session = save_class(browser)
    check_in(browser, {"name": "Old Gym", "address": ""}, [anna["id"]])
    save_class(browser)
    for width, height in ((375, 667), (320, 640)):
        set_viewport(browser, width, height)
        open_yoga(browser, yoga_server, "#stats")
        wait(browser, lambda d: shown(d, "stats-body"), "no statistics")
        wait_for_layout(browser, "the statistics")
        assert no_horizontal_scroll(browser, width), f"the statistics scroll sideways at {width} px"
        fits = browser.execute_script(
            "const w = document.querySelector('.yg-table-wrap'); return [w.scrollWidth, w.clientWidth, "
            "[...document.querySelectorAll('#stats-students td')].every(c => c.getBoundingClientRect().right <= innerWidth)]")
        assert fits[0] <= fits[1] and fits[2], f"the per-student table is cut off at {width} px: {fits}"
        label = browser.execute_script("return getComputedStyle(document.querySelector('#stats-students tbody td:last-child'), '::before').content")
        assert "Last seen" in label, f"the last figure is not named at {width} px: {label!r}"
        cut = browser.execute_script("return [...document.querySelectorAll('.yg-bar-label')]"
                                     ".filter(t => t.getComputedTextLength() > t.ownerSVGElement.viewBox.baseVal.width).map(t => t.textContent)")
        assert not cut, f"chart labels run off their chart at {width} px: {cut}"
    values = browser.execute_script("return [...document.querySelectorAll('#chart-venues .yg-bar-value')].map(t => t.textContent)")
    assert values == ["1 class · 1 per class", "1 class · 1 per class"], values

    # The sort survives a reload.
    open_yoga(browser, yoga_server, "#sessions")
    wait(browser, lambda d: len(list_texts(d, "#session-list li")) == 2, "the sessions did not load")
    choose(browser, "session-sort", "Venue")
    tap_id(browser, "session-order")
    assert list_texts(browser, "#session-list li") == ["Old Gym", "Lotus Studio"]
    browser.refresh()
    wait(browser, lambda d: list_texts(d, "#session-list li") == ["Old Gym", "Lotus Studio"], "the sort was forgotten on reload")
    assert Select(browser.find_element(By.ID, "session-sort")).first_selected_option.text == "Venue"
    assert text(browser, "session-order") == "Z to A"

    # The CSV in this browser's time zone and the chosen unit.
    zone = browser.execute_script("return Intl.DateTimeFormat().resolvedOptions().timeZone")
    ok(browser, "PUT", "/settings", {"temperature_unit": "fahrenheit", "slipping_weeks": 3})
    link = browser.find_element(By.ID, "export-sessions").get_attribute("href")
    assert link.endswith(f"kind=sessions&tz={zone.replace('/', '%2F')}"), link
    head = browser.execute_async_script("fetch(arguments[0]).then(r => r.text()).then(t => arguments[1](t.split('\\n')[0]))", link)
    assert "temperature_f" in head, head

    # One time format: the browser's own short time, as Strategies writes it.
    tap_text(browser, "#session-list", "Lotus Studio")
    wait(browser, lambda d: shown(d, "session-show"), "the session did not open")
    expected = browser.execute_script(
        "return new Intl.DateTimeFormat(undefined, {timeStyle: 'short'}).format(new Date(arguments[0]))", session["started_at"])
    assert text(browser, "session-start") == expected, f"{text(browser, 'session-start')!r} is not the browser's {expected!r}"
    check_console(browser)
