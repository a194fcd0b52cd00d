"""Accessibility as a gate: every page and every main state passes axe-core with no violation, on both engines.

axe-core 4.9.1 is the copy that PyPI's selenium-axe-python 2.2.0 ships (scripts/install-test-deps.sh pins it). The
page's Content-Security-Policy forbids inline <script> elements, but a WebDriver script is not the page's: the
test runs axe.min.js with `execute_script` (it defines `window.axe`), then `axe.run()` over the whole document with
axe's default rules (WCAG 2.x A and AA, and the best practices). A failure lists each violation with the elements it
found and what axe says is wrong with each.

The pages are those of the phone checks (`phone_pages.PAGES`); the states are what a person sees once they use the
app: a drawn card, the lists of Oblique Strategies; a running class and each tab of YogiYogini; a story chapter and the
Library; a poem with all its tools open; a city list and a city card with its Wikipedia article in City Roulette; a
toast with its Undo above an open dialog.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import selenium_axe_python
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from browser_support import call, emulate_media, wait, wait_for_layout
from conftest import CITIES_HOME, YOGA_HOME
from phone_pages import PAGES, open_page
import browser_support

AXE_SOURCE = (Path(selenium_axe_python.__file__).parent / "axe-core" / "axe.min.js").read_text(encoding="utf-8")


def axe_violations(driver) -> list[dict]:
    """Runs axe-core over the page as it is now; returns its violations (id, impact, help, nodes)."""
    if not driver.execute_script("return typeof window.axe === 'object' && typeof window.axe.run === 'function'"):
        driver.execute_script(AXE_SOURCE)
        assert driver.execute_script("return typeof window.axe === 'object' && window.axe.version"), \
            "axe-core did not load into the page"
    driver.set_script_timeout(60)
    result = driver.execute_async_script(
        """
        const done = arguments[arguments.length - 1];
        axe.run(document, { resultTypes: ['violations'] }).then(
          (r) => done({ violations: r.violations.map((v) => ({
            id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.map((n) => ({ target: n.target.join(' '), html: n.html.slice(0, 160), summary: n.failureSummary })),
          })) }),
          (e) => done({ error: String(e && e.stack || e) }));
        """)
    assert "error" not in result, f"axe.run failed: {result.get('error')}"
    return result["violations"]


def describe(violations: list[dict]) -> str:
    lines = []
    for v in violations:
        lines.append(f"- {v['id']} ({v['impact']}): {v['help']}")
        for node in v["nodes"][:8]:
            summary = " ".join((node["summary"] or "").split())
            lines.append(f"    {node['target']}  {node['html']!r}\n      {summary[:400]}")
        if len(v["nodes"]) > 8:
            lines.append(f"    … and {len(v['nodes']) - 8} more")
    return "\n".join(lines)


ANIMATIONS_ENDED = """
const done = arguments[arguments.length - 1];
const ending = document.getAnimations()
  .filter((a) => a.playState === 'running' && a.effect?.getComputedTiming().iterations !== Infinity)
  .map((a) => a.finished.catch(() => {}));
Promise.race([Promise.all(ending).then(() => true), new Promise((r) => setTimeout(() => r(false), 5000))]).then(done);
"""


def assert_accessible(driver, what: str) -> None:
    wait_for_layout(driver, what)
    # axe reads colours as drawn now: a card fading in (700 ms) measures as grey on black until it ends.
    assert driver.execute_async_script(ANIMATIONS_ENDED), f"an animation on {what} did not end within 5 s"
    violations = axe_violations(driver)
    assert not violations, f"axe-core finds {len(violations)} kind(s) of violation on {what} " \
                           f"({driver.current_url}):\n{describe(violations)}"




def tap(driver, element) -> None:
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()


def shown(driver, element_id: str) -> bool:
    return driver.execute_script(
        "const e = document.getElementById(arguments[0]); return !!e && e.getClientRects().length > 0", element_id)


def ready(driver, root_id: str, what: str) -> None:
    wait(driver, lambda d: d.execute_script(f"return document.getElementById('{root_id}')?.dataset.ready === 'true'"),
         f"{what} never became ready")


# ---------- The check itself ----------

def test_axe_runs_in_the_page_despite_the_csp_and_sees_a_fault(server, browser):
    """The pages forbid inline scripts; a WebDriver script still runs, and axe then catches a real fault."""
    browser.get(server + "/")
    wait_for_layout(browser, "the home page")
    assert axe_violations(browser) == [], "the home page itself should pass"
    browser.execute_script(
        "const b = document.createElement('button'); b.id = 'nameless'; b.innerHTML = '<svg width=\"44\" height=\"44\"></svg>';"
        "document.querySelector('main').append(b)")
    found = {v["id"]: v for v in axe_violations(browser)}
    assert "button-name" in found and any("#nameless" in n["target"] for n in found["button-name"]["nodes"]), \
        f"axe did not see a button without a name: {describe(list(found.values()))}"


# ---------- Every page ----------

@pytest.mark.parametrize("page", PAGES, ids=[page[0] for page in PAGES])
def test_every_page_passes_axe(request, browser, page):
    open_page(request, browser, page)
    assert_accessible(browser, f"the {page[0]} page")


@pytest.mark.parametrize("page", [p for p in PAGES if p[0] in ("home", "strategies", "yoga", "stories-reader", "poetry", "cities")],
                         ids=lambda p: p[0])
def test_main_pages_pass_axe_in_the_dark(request, browser, page):
    emulate_media(browser, color_scheme="dark")
    open_page(request, browser, page)
    assert browser.execute_script("return matchMedia('(prefers-color-scheme: dark)').matches"), "the page is not dark"
    assert_accessible(browser, f"the {page[0]} page in the dark")


def test_the_error_page_passes_axe(server, browser):
    browser.get(server + "/no/such/page")
    assert_accessible(browser, "the 404 page")


# ---------- Oblique Strategies ----------

def test_strategies_a_drawn_card_and_the_lists_pass_axe(strategies_server, browser):
    browser.get(strategies_server + "/strategies")
    wait(browser, lambda d: d.execute_script(
        "return document.getElementById('draw').classList.contains('is-prompt') || document.getElementById('card-meta').textContent !== ''"),
        "the strategies page never became ready")
    browser.find_element(By.ID, "draw").click()
    wait(browser, lambda d: d.find_element(By.ID, "card-meta").text.strip() != ""
         and d.find_element(By.ID, "draw").get_attribute("aria-busy") is None, "tapping the card drew nothing")
    wait(browser, lambda d: d.find_element(By.ID, "fav-add").is_enabled(), "Add to favourites never became possible")
    assert_accessible(browser, "a drawn card")

    browser.find_element(By.ID, "fav-add").click()
    wait(browser, lambda d: d.find_element(By.ID, "fav-remove").is_enabled(), "the card did not become a favourite")
    for view in ("all", "favourites", "today", "mine", "popular", "history"):
        opened = browser.execute_script(
            "const tab = document.getElementById('tab-' + arguments[0]);"
            "if (!tab) return false; tab.click(); return true;", view)
        if not opened:
            continue
        wait(browser, lambda d: shown(d, f"view-{view}") or shown(d, view), f"the {view} view did not open")
        assert_accessible(browser, f"the {view} view of Oblique Strategies")


# ---------- YogiYogini ----------

def test_yoga_a_running_class_and_every_tab_pass_axe(yoga_server, browser):
    browser_support.allow_location(browser, yoga_server, *YOGA_HOME)
    browser.get(yoga_server + "/yoga")
    ready(browser, "yoga", "the YogiYogini page")
    status, student = call(browser, "POST", "/api/v1/yoga/students", {"name": "Ada Lovelace"})
    assert status == 201, student
    status, _ = call(browser, "POST", "/api/v1/yoga/students", {"name": "Grace Hopper"})
    assert status == 201
    # A session in the past, for the Sessions and Statistics tabs.
    status, answer = call(browser, "POST", "/api/v1/yoga/class",
                          {"venue": {"name": "Community Hall", "address": "Via Verdi 1"}, "attendees": [student["id"]]})
    assert status == 201, answer
    status, answer = call(browser, "POST", "/api/v1/yoga/class/end", {"action": "save"})
    assert status == 201, answer
    # A class running now, with one student in.
    status, answer = call(browser, "POST", "/api/v1/yoga/class",
                          {"venue": {"name": "Sunrise Yoga Loft", "address": "Via Roma 2"}, "attendees": [student["id"]]})
    assert status == 201, answer
    browser.get("about:blank")
    browser.get(yoga_server + "/yoga")
    ready(browser, "yoga", "the YogiYogini page")
    wait(browser, lambda d: shown(d, "end-class"), "the running class is not shown")
    wait(browser, lambda d: d.find_element(By.ID, "live-start").text.strip() != "", "the running class shows no start time")
    assert_accessible(browser, "a running class")
    tap(browser, browser.find_element(By.ID, "temp-edit"))
    wait(browser, lambda d: shown(d, "temp-form"), "the temperature's field did not open")
    assert_accessible(browser, "a running class with its temperature being typed")

    for tab in ("students", "sessions"):
        tap(browser, browser.find_element(By.ID, f"tab-{tab}"))
        wait(browser, lambda d: shown(d, f"view-{tab}"), f"the {tab} tab did not open")
        wait(browser, lambda d: d.execute_script(
            "return document.querySelectorAll('#view-' + arguments[0] + ' li').length > 0", tab), f"the {tab} tab lists nothing")
        assert_accessible(browser, f"YogiYogini's {tab} tab")

    for view in ("stats", "venues", "settings"):
        tap(browser, browser.find_element(By.ID, "tab-sessions"))
        wait(browser, lambda d: shown(d, "view-sessions"), "the sessions tab did not open")
        link = browser.find_elements(By.CSS_SELECTOR, f'#view-sessions a[href="#{view}"]')
        if not link:
            continue
        tap(browser, link[0])
        wait(browser, lambda d: shown(d, f"view-{view}"), f"the {view} view did not open")
        wait_for_layout(browser, view)
        assert_accessible(browser, f"YogiYogini's {view} view")

    # A student's page, with their attendance, opened from the roster.
    tap(browser, browser.find_element(By.ID, "tab-students"))
    wait(browser, lambda d: shown(d, "view-students"), "the students tab did not open")
    # The roster may be drawn again (the server's answer after the device's copy): click the one drawn now.
    wait(browser, lambda d: d.execute_script(
        "const b = document.querySelector('#student-list .yg-item'); if (b) b.click();"
        "return !document.getElementById('student-show').hidden"), "the student's page did not open")
    assert_accessible(browser, "a student's page")

    # Their form, open in its dialog.
    tap(browser, browser.find_element(By.ID, "student-edit"))
    wait(browser, lambda d: d.execute_script("return document.getElementById('student-dialog').open"), "the student's form did not open")
    assert_accessible(browser, "a student's form")


# ---------- Choose Your Destiny ----------

def test_stories_a_chapter_and_the_library_pass_axe(stories_server, browser):
    browser.get(stories_server + "/stories/gull-rock")
    ready(browser, "reader", "the reader")
    button = wait(browser, lambda d: d.execute_script("return document.querySelector('#choices .st-choice') ?? false"),
                  "the first chapter has no choice")
    browser.execute_script("window.beforeChoice = document.getElementById('chapter-text').firstChild")
    tap(browser, button)
    wait(browser, lambda d: d.execute_script(
        "return document.getElementById('chapter-text').firstChild !== window.beforeChoice"
        " && !document.getElementById('reader').hasAttribute('aria-busy')"), "choosing did not show the next chapter")
    assert_accessible(browser, "a story's second chapter")

    browser.get(stories_server + "/stories")
    ready(browser, "stories", "the stories hub")
    add = wait(browser, lambda d: d.execute_script(
        "return document.querySelector('#catalog-list .st-add') ?? false"), "the catalog offers nothing to add")
    tap(browser, add)
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#catalog-list .st-remove"), "adding to the library did not land")
    tap(browser, browser.find_element(By.ID, "tab-library"))
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#library-list .st-card"), "the library lists nothing")
    assert_accessible(browser, "the stories library")


# ---------- Magnetic Poetry ----------

def test_poetry_a_poem_with_its_tools_open_passes_axe(server, browser):
    browser.get(server + "/poetry")
    wait(browser, lambda d: d.execute_script("return document.getElementById('board')?.dataset.ready === 'true'"),
         "the poetry board never became ready")
    browser.execute_script("for (const d of document.querySelectorAll('main details')) d.open = true")
    assert_accessible(browser, "a poem with every tool open")


# ---------- City Roulette ----------

def test_cities_a_city_list_passes_axe(cities_server, browser):
    browser_support.allow_location(browser, cities_server, *CITIES_HOME)
    browser.get(cities_server + "/cities")
    ready(browser, "cities", "the City Roulette page")
    tap(browser, browser.find_element(By.ID, "around-me"))
    wait(browser, lambda d: shown(d, "scene") and d.find_elements(By.CSS_SELECTOR, "#rows .cr-row"), "no city list opened")
    wait(browser, lambda d: d.execute_script(
        "return [...document.querySelectorAll('#rows .cr-row .cr-wx')].every(c => c.textContent.trim() !== '')"),
        "the weather never settled")
    assert_accessible(browser, "a city list")
    tap(browser, browser.find_element(By.ID, "edit"))
    tap(browser, browser.find_element(By.CSS_SELECTOR, "#rows .cr-row .cr-star"))
    tap(browser, browser.find_element(By.CSS_SELECTOR, "input[name=sort][value=mine]").find_element(By.XPATH, ".."))
    assert_accessible(browser, "a city list in my order, while editing")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_cities_a_card_with_its_wikipedia_article_passes_axe(cities_server, browser, scheme):
    if scheme == "dark":
        emulate_media(browser, color_scheme="dark")
    browser.get(cities_server + "/cities/3176959")
    wait(browser, lambda d: shown(d, "article"), "Florence's card never showed its Wikipedia article")
    assert_accessible(browser, f"a city card with its article ({scheme})")


# ---------- A toast above a dialog ----------

def test_an_undo_toast_above_an_open_dialog_passes_axe(cities_server, browser):
    browser_support.allow_location(browser, cities_server, *CITIES_HOME)
    browser.get(cities_server + "/cities")
    ready(browser, "cities", "the City Roulette page")
    tap(browser, browser.find_element(By.ID, "around-me"))
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#rows .cr-row"), "no city list opened")
    tap(browser, browser.find_element(By.CSS_SELECTOR, "#rows .cr-row .cr-del"))
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, ".toast .toast-action"), "no Undo after deleting a city")
    browser.execute_script("document.getElementById('leave-dialog').showModal()")
    wait(browser, lambda d: d.execute_script(
        "return !!document.querySelector('#leave-dialog .toast-region .toast-action')"), "the toast did not move into the dialog")
    assert_accessible(browser, "an Undo toast above an open dialog")


# ---------- Keyboard focus is never hidden (WCAG 2.2, 2.4.11) ----------

FOCUS_OBSCURED = """
const a = document.activeElement;
if (!a || a === document.body) return null;
const r = a.getBoundingClientRect();
const x = Math.min(Math.max(r.x + r.width / 2, 0), innerWidth - 1), y = Math.min(Math.max(r.y + r.height / 2, 0), innerHeight - 1);
const top = document.elementFromPoint(x, y);
if (top && (a.contains(top) || top.contains(a))) return null;
return `${a.tagName} ${(a.getAttribute('aria-label') || a.textContent).trim().slice(0, 40)} (top ${Math.round(r.top)}) under ${top?.tagName} #${top?.id} .${top?.className}`;
"""


def hidden_focus_while_tabbing(driver, presses: int, backwards: bool = False) -> list[str]:
    """Presses Tab (or Shift+Tab) and returns, for each focused control whose centre another element covers, what."""
    hidden = []
    for _ in range(presses):
        keys = ActionChains(driver)
        if backwards:
            keys = keys.key_down(Keys.SHIFT).send_keys(Keys.TAB).key_up(Keys.SHIFT)
        else:
            keys = keys.send_keys(Keys.TAB)
        keys.perform()
        if (what := driver.execute_script(FOCUS_OBSCURED)) is not None:
            hidden.append(what)
    return hidden


def test_on_a_phone_a_control_reached_by_tab_is_never_behind_a_bar(yoga_server, cities_server, browser):
    """YogiYogini's tab bar is fixed at the bottom; City Roulette's map sticks at the top above its list. A field
    reached with Tab was scrolled only as far as the screen's edge: behind the tab bar (the typed venue's address at
    check-in), and going up the list with Shift+Tab, behind the map (47 of 80 controls)."""
    browser_support.refuse_location(browser, yoga_server)
    browser.get(yoga_server + "/yoga")
    ready(browser, "yoga", "the YogiYogini page")
    tap(browser, browser.find_element(By.ID, "checkin"))
    wait(browser, lambda d: shown(d, "typed"), "check-in did not open")
    if not browser.find_element(By.ID, "typed").get_attribute("open"):
        tap(browser, browser.find_element(By.CSS_SELECTOR, "#typed summary"))
    wait(browser, lambda d: shown(d, "typed-name"), "no venue to type")
    browser.execute_script("scrollTo(0, 0); document.getElementById('typed-name').focus()")
    hidden = hidden_focus_while_tabbing(browser, 8)
    assert not hidden, "at check-in, Tab left a control behind the tab bar:\n" + "\n".join(hidden)

    browser_support.allow_location(browser, cities_server, *CITIES_HOME)
    browser.get(cities_server + "/cities")
    ready(browser, "cities", "the City Roulette page")
    tap(browser, browser.find_element(By.ID, "around-me"))
    wait(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#rows .cr-row")) > 5, "no city list opened")
    wait_for_layout(browser, "the city list")
    last = browser.find_elements(By.CSS_SELECTOR, "#rows .cr-row .cr-name")[-1]
    browser.execute_script("arguments[0].focus(); scrollTo(0, document.body.scrollHeight)", last)
    hidden = hidden_focus_while_tabbing(browser, 30, backwards=True)
    assert not hidden, "going up the city list, Shift+Tab left a control behind the map:\n" + "\n".join(hidden)
