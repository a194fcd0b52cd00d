"""One pattern for destructive actions: a small removal happens at once, with an Undo in the toast.

In each app (a favourite from Oblique Strategies' Favourites list, a story from the Library, a city from a City Roulette
list, a YogiYogini student without sessions) removing something takes it off the page at once and shows a toast with
Undo for at least 5 seconds. Undo puts it back where it was, and the server never lost it; without Undo the removal
reaches the server when the toast runs out, or at once when the page is left. Toasts are drawn above an open modal
dialog, can be clicked there and are read out (role=status).
"""

from __future__ import annotations

import time

from selenium.webdriver.common.by import By

import browser_support
from browser_support import call, swipe, wait
from conftest import CITIES_FIXTURE, CITIES_HOME

UNDO_SECONDS = 5  # the least an Undo stays offered
CITY_IDS = {name: gid for gid, name, *_ in CITIES_FIXTURE}


# ---------- Helpers ----------



def ok(driver, method: str, path: str, body=None):
    status, answer = call(driver, method, path, body)
    assert 200 <= status < 300, f"{method} {path} answered {status}: {answer}"
    return answer


def tap(driver, element) -> None:
    """Click a control after scrolling it to the middle of the screen (clear of the toasts at the bottom)."""
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()


def undo_button(driver):
    """The Undo of the newest toast, once one shows (and is not leaving)."""
    return wait(driver, lambda d: d.execute_script(
        "const b = [...document.querySelectorAll('.toast:not(.leaving) .toast-action')].pop();"
        "return b && b.getClientRects().length ? b : false"), "no toast offers Undo")


def toast_texts(driver) -> list[str]:
    return driver.execute_script("return [...document.querySelectorAll('.toast:not(.leaving) .toast-text')].map(t => t.textContent)")


def assert_undo_lasts(driver, started: float) -> None:
    """The Undo is still offered at least UNDO_SECONDS after the removal."""
    while time.monotonic() - started < UNDO_SECONDS - 0.3:
        assert driver.execute_script("return !!document.querySelector('.toast:not(.leaving) .toast-action')"), \
            f"the Undo went after {time.monotonic() - started:.1f} s"
        time.sleep(0.5)


def ready(driver, root_id: str, what: str) -> None:
    wait(driver, lambda d: d.execute_script(f"return document.getElementById('{root_id}')?.dataset.ready === 'true'"),
         f"{what} never became ready")


def announced(driver) -> bool:
    """The toasts are in a polite live region (a screen reader reads them out)."""
    return driver.execute_script(
        "const r = document.querySelector('.toast-region');"
        "return !!r && r.getAttribute('role') === 'status' && r.getAttribute('aria-live') === 'polite'")


# ---------- Oblique Strategies ----------

STRATEGIES = "/api/v1/strategies"


def favourite_texts(driver) -> list[str]:
    return driver.execute_script(
        "return [...document.querySelectorAll('#favourites-list li .os-item span:first-child')].map(s => s.textContent)")


def open_favourites(driver, base: str) -> None:
    driver.get("about:blank")
    driver.get(base + "/strategies")
    wait(driver, lambda d: d.execute_script(
        "return document.getElementById('draw').classList.contains('is-prompt') || document.getElementById('card-meta').textContent !== ''"),
        "the strategies page never became ready")
    driver.execute_script("document.getElementById('tab-favourites').click()")
    wait(driver, lambda d: d.execute_script(
        "const v = document.getElementById('view-favourites'); return !!v && !v.hidden"), "the Favourites view did not open")


def server_favourites(driver) -> list[str]:
    return [card["strategy"] for card in ok(driver, "GET", f"{STRATEGIES}/favourites")]


def test_strategies_a_removed_favourite_comes_back_in_its_place_with_undo(strategies_server, browser):
    browser.get(strategies_server + "/strategies")
    cards = ok(browser, "GET", STRATEGIES)[:3]
    for card in cards:
        ok(browser, "PUT", f"{STRATEGIES}/{card['id']}/favourite")
    before = server_favourites(browser)
    assert len(before) == 3

    open_favourites(browser, strategies_server)
    wait(browser, lambda d: favourite_texts(d) == before, f"the Favourites list reads {favourite_texts(browser)}")
    middle = before[1]
    remove = browser.find_element(By.CSS_SELECTOR, f"#favourites-list li:nth-child(2) [data-remove]")
    started = time.monotonic()
    tap(browser, remove)
    wait(browser, lambda d: favourite_texts(d) == [before[0], before[2]], "the favourite did not go at once")
    wait(browser, lambda d: any(middle in t for t in toast_texts(d)), f"no toast names {middle!r}: {toast_texts(browser)}")
    assert announced(browser)
    assert_undo_lasts(browser, started)
    tap(browser, undo_button(browser))
    wait(browser, lambda d: favourite_texts(d) == before, f"Undo did not put it back in its place: {favourite_texts(browser)}")
    time.sleep(2.5)  # past the toast's time: nothing was sent
    assert server_favourites(browser) == before, "the server lost the favourite that was put back"

    # Without Undo, the removal reaches the server once the toast runs out.
    tap(browser, browser.find_element(By.CSS_SELECTOR, "#favourites-list li:nth-child(2) [data-remove]"))
    wait(browser, lambda d: favourite_texts(d) == [before[0], before[2]], "the favourite did not go at once")
    wait(browser, lambda d: server_favourites(d) == [before[0], before[2]], "the removal never reached the server", timeout=20)

    # Leaving the page at once sends it too.
    tap(browser, browser.find_element(By.CSS_SELECTOR, "#favourites-list li:nth-child(1) [data-remove]"))
    wait(browser, lambda d: favourite_texts(d) == [before[2]], "the favourite did not go at once")
    browser.get(strategies_server + "/")
    wait(browser, lambda d: server_favourites(d) == [before[2]], "leaving the page lost the removal", timeout=10)


# ---------- Choose Your Destiny ----------

STORIES = "/api/v1/stories"


def library_titles(driver) -> list[str]:
    return driver.execute_script("return [...document.querySelectorAll('#library-list .st-title')].map(h => h.textContent)")


def server_library(driver) -> list[str]:
    return [story["name"] for story in ok(driver, "GET", f"{STORIES}/library")["stories"]]


def open_library(driver, base: str) -> None:
    driver.get("about:blank")
    driver.get(base + "/stories#library")
    ready(driver, "stories", "the stories hub")
    driver.execute_script("document.getElementById('tab-library').click()")
    wait(driver, lambda d: d.execute_script("return !document.getElementById('panel-library').hidden"), "the Library did not open")


def test_stories_removing_from_the_library_by_button_and_by_swipe_can_be_undone(stories_server, browser):
    browser.get(stories_server + "/stories")
    # The two sample stories (the shared server's catalog also holds what other tests published).
    for story in ok(browser, "GET", STORIES)["stories"]:
        if story["id"] in ("gull-rock", "after-closing"):
            ok(browser, "PUT", f"{STORIES}/{story['id']}/library")
    before = server_library(browser)
    assert len(before) == 2, before

    open_library(browser, stories_server)
    wait(browser, lambda d: library_titles(d) == before, f"the Library reads {library_titles(browser)}")
    started = time.monotonic()
    tap(browser, browser.find_element(By.CSS_SELECTOR, "#library-list li:first-child .st-remove"))
    wait(browser, lambda d: library_titles(d) == before[1:], "Remove did not take the story out at once")
    wait(browser, lambda d: any(before[0] in t for t in toast_texts(d)), f"no toast names {before[0]!r}: {toast_texts(browser)}")
    assert_undo_lasts(browser, started)
    tap(browser, undo_button(browser))
    wait(browser, lambda d: library_titles(d) == before, f"Undo did not put it back in its place: {library_titles(browser)}")
    assert browser.switch_to.active_element.get_attribute("class").startswith("button st-remove"), \
        "the focus goes back to the story's Remove"
    time.sleep(2.5)
    assert server_library(browser) == before, "the server lost the story that was put back"

    # A swipe left removes it the same way, and Undo works there too.
    target = browser.find_element(By.CSS_SELECTOR, "#library-list li:first-child .st-summary")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", target)
    rect = browser.execute_script(
        "const r = arguments[0].getBoundingClientRect(); return {x: r.left + r.width * 0.8, y: r.top + r.height / 2, w: r.width}", target)
    swipe(browser, (rect["x"], rect["y"]), [(rect["x"] - step * rect["w"] * 0.08, rect["y"]) for step in range(1, 9)])
    wait(browser, lambda d: library_titles(d) == before[1:], "a swipe left did not remove the story")
    tap(browser, undo_button(browser))
    wait(browser, lambda d: library_titles(d) == before, "Undo after a swipe did not put the story back")

    # Without Undo, the server hears of it when the toast runs out; a reload agrees.
    tap(browser, browser.find_element(By.CSS_SELECTOR, "#library-list li:first-child .st-remove"))
    wait(browser, lambda d: server_library(d) == before[1:], "the removal never reached the server", timeout=20)
    open_library(browser, stories_server)
    wait(browser, lambda d: library_titles(d) == before[1:], "after a reload the removed story is back")

    # Leaving the page at once sends it too.
    tap(browser, browser.find_element(By.CSS_SELECTOR, "#library-list li:first-child .st-remove"))
    wait(browser, lambda d: library_titles(d) == [], "Remove did not take the story out at once")
    browser.get(stories_server + "/")
    wait(browser, lambda d: server_library(d) == [], "leaving the page lost the removal", timeout=10)


# ---------- City Roulette ----------

def city_names(driver) -> list[str]:
    return driver.execute_script(
        "return [...document.querySelectorAll('#rows .cr-row')].filter(li => !li.hidden).map(li => li.querySelector('.cr-name').textContent)")


def around_me(driver, base: str) -> None:
    browser_support.allow_location(driver, base, *CITIES_HOME)
    driver.get(base + "/cities")
    ready(driver, "cities", "the City Roulette page")
    tap(driver, driver.find_element(By.ID, "around-me"))
    wait(driver, lambda d: len(city_names(d)) > 3, "no city list opened")
    # The rows settle once their weather is in (a row's height can change with it).
    wait(driver, lambda d: d.execute_script(
        "return [...document.querySelectorAll('#rows .cr-row .cr-wx')].every(c => c.textContent.trim() !== '')"),
        "the weather never settled")


def city_row(driver, name: str):
    return driver.execute_script(
        "return [...document.querySelectorAll('#rows .cr-row')].find(li => li.querySelector('.cr-name').textContent === arguments[0])", name)


def test_cities_a_deleted_city_comes_back_in_its_place_with_undo_after_a_tap_or_a_swipe(cities_server, browser):
    around_me(browser, cities_server)
    before = city_names(browser)
    third = before[2]
    started = time.monotonic()
    tap(browser, city_row(browser, third).find_element(By.CSS_SELECTOR, ".cr-del"))
    wait(browser, lambda d: third not in city_names(d), "the city did not go at once")
    wait(browser, lambda d: any(third in t for t in toast_texts(d)), f"no toast names {third!r}: {toast_texts(browser)}")
    assert_undo_lasts(browser, started)
    tap(browser, undo_button(browser))
    wait(browser, lambda d: city_names(d) == before, f"Undo did not put it back in its place: {city_names(browser)}")

    # By swipe.
    target = city_row(browser, third)
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", target)
    rect = browser.execute_script(
        "const r = arguments[0].getBoundingClientRect(); return {x: r.left + r.width * 0.7, y: r.top + r.height - 12, w: r.width}", target)
    swipe(browser, (rect["x"], rect["y"]), [(rect["x"] - step * rect["w"] * 0.08, rect["y"]) for step in range(1, 9)])
    wait(browser, lambda d: third not in city_names(d), "a swipe left did not delete the city")
    tap(browser, undo_button(browser))
    wait(browser, lambda d: city_names(d) == before, "Undo after a swipe did not put the city back")

    # Every non-favourite at once, and back (a moment after the swipe, as a finger would).
    time.sleep(0.6)
    tap(browser, city_row(browser, before[1]).find_element(By.CSS_SELECTOR, ".cr-star"))
    tap(browser, browser.find_element(By.ID, "edit"))
    tap(browser, browser.find_element(By.ID, "delete-others"))
    wait(browser, lambda d: city_names(d) == [before[1]], f"only the favourite should stay: {city_names(browser)}")
    tap(browser, undo_button(browser))
    wait(browser, lambda d: len(city_names(d)) == len(before), "Undo did not bring the other cities back")

    # What is imported is what the list shows: the city put back is in.
    tap(browser, browser.find_element(By.ID, "scene-commit"))
    wait(browser, lambda d: d.execute_script("return !document.getElementById('welcome').hidden"), "Import did not finish")
    collection = ok(browser, "GET", "/api/v1/cities/collection")
    names = {c["name"] for c in (collection["cities"] if isinstance(collection, dict) else collection)}
    assert names == set(before), f"the collection holds {sorted(names)}"


def test_cities_a_toast_sits_above_the_leave_dialog_and_its_undo_works_there(cities_server, browser):
    browser.get(cities_server + "/cities")
    ok(browser, "POST", "/api/v1/cities/collection/import",
       {"cities": [{"geonameid": CITY_IDS[name], "favourite": False} for name in ("Florence", "Fiesole")]})
    browser.get("about:blank")
    browser.get(cities_server + "/cities")
    ready(browser, "cities", "the City Roulette page")
    tap(browser, browser.find_element(By.ID, "browse"))
    wait(browser, lambda d: len(city_names(d)) == 2, "my cities did not open")
    before = city_names(browser)
    tap(browser, city_row(browser, before[0]).find_element(By.CSS_SELECTOR, ".cr-del"))
    undo_button(browser)
    tap(browser, browser.find_element(By.ID, "scene-back"))  # unsaved: it asks first
    wait(browser, lambda d: d.execute_script("return document.getElementById('leave-dialog').open"), "leaving did not ask")

    # The toast is in the dialog (the top layer), drawn above its backdrop, and the thing at its Undo's centre is the Undo.
    assert browser.execute_script("return !!document.querySelector('#leave-dialog .toast-region .toast-action')"), \
        "the toast is not above the open dialog"
    assert announced(browser)
    on_top = browser.execute_script(
        "const b = document.querySelector('#leave-dialog .toast-action'); const r = b.getBoundingClientRect();"
        "return document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) === b")
    assert on_top, "something covers the toast's Undo while the dialog is open"
    browser.find_element(By.CSS_SELECTOR, "#leave-dialog .toast-action").click()
    wait(browser, lambda d: city_names(d) == before, "Undo from above the dialog did not put the city back")
    assert browser.execute_script("return document.getElementById('leave-dialog').open"), "the dialog stays for its own answer"
    browser.find_element(By.CSS_SELECTOR, "#leave-dialog button[value='stay']").click()
    wait(browser, lambda d: not d.execute_script("return document.getElementById('leave-dialog').open"), "Stay did not close")
    assert browser.execute_script("return document.querySelector('.toast-region')?.parentElement === document.body"), \
        "the toasts go back to the page once the dialog closes"


# ---------- YogiYogini ----------

YOGA = "/api/v1/yoga"


def roster(driver) -> list[str]:
    return driver.execute_script(
        "return [...document.querySelectorAll('#student-list .yg-item-title')].map(t => t.firstChild.textContent.trim())")


def server_roster(driver) -> list[str]:
    return [s["name"] for s in ok(driver, "GET", f"{YOGA}/students?active=all&sort=name&order=asc")["students"]]


def open_students(driver, base: str) -> None:
    driver.get("about:blank")
    driver.get(base + "/yoga#students")
    ready(driver, "yoga", "the YogiYogini page")
    wait(driver, lambda d: d.execute_script("return !document.getElementById('view-students').hidden"), "the Students tab did not open")


def delete_from_form(driver, name: str) -> None:
    """A student's row opens their page, whose Edit opens the form with Delete."""
    # The roster may be drawn again meanwhile (the server's answer after the device's copy): click what is there now.
    wait(driver, lambda d: d.execute_script(
        "const b = [...document.querySelectorAll('#student-list .yg-item')].find(b => b.textContent.startsWith(arguments[0]));"
        "if (b && !document.getElementById('view-students').hidden) { b.scrollIntoView({block: 'center'}); b.click(); }"
        "return document.getElementById('student-heading').textContent === arguments[0]"
        " && !document.getElementById('student-show').hidden", name), f"{name}'s page did not open")
    tap(driver, driver.find_element(By.ID, "student-edit"))
    wait(driver, lambda d: d.execute_script("return document.getElementById('student-dialog').open"), f"{name}'s form did not open")
    tap(driver, driver.find_element(By.ID, "student-delete"))


def test_yoga_a_student_without_sessions_goes_at_once_and_undo_brings_them_back(yoga_server, browser):
    browser.get(yoga_server + "/yoga")
    ada = ok(browser, "POST", f"{YOGA}/students", {"name": "Ada Undo", "notes": "front row"})
    ok(browser, "POST", f"{YOGA}/students", {"name": "Bea Undo"})
    open_students(browser, yoga_server)
    wait(browser, lambda d: "Ada Undo" in roster(d), "the roster does not list Ada")

    started = time.monotonic()
    delete_from_form(browser, "Ada Undo")
    assert not browser.execute_script("return document.getElementById('confirm-dialog').open"), \
        "a student without sessions is removed without a question"
    wait(browser, lambda d: "Ada Undo" not in roster(d), "Ada did not go at once")
    wait(browser, lambda d: any("Ada Undo" in t for t in toast_texts(d)), f"no toast names Ada: {toast_texts(browser)}")
    assert_undo_lasts(browser, started)
    tap(browser, undo_button(browser))
    wait(browser, lambda d: "Ada Undo" in roster(d), "Undo did not bring Ada back")
    time.sleep(2.5)
    status, back = call(browser, "GET", f"{YOGA}/students/{ada['id']}")
    assert status == 200 and back["name"] == "Ada Undo" and back.get("notes") == "front row", \
        f"Ada is not the same student on the server: {status} {back}"

    # Without Undo, the server hears of it once the toast runs out.
    delete_from_form(browser, "Ada Undo")
    wait(browser, lambda d: "Ada Undo" not in roster(d), "Ada did not go at once")
    wait(browser, lambda d: "Ada Undo" not in server_roster(d), "the removal never reached the server", timeout=20)

    # Leaving the page at once sends it too.
    delete_from_form(browser, "Bea Undo")
    wait(browser, lambda d: "Bea Undo" not in roster(d), "Bea did not go at once")
    browser.get(yoga_server + "/")
    wait(browser, lambda d: "Bea Undo" not in server_roster(d), "leaving the page lost the removal", timeout=10)

