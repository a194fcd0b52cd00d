"""Each view is a URL, in all five apps (issue 17), on both engines.

For every app: open a deep view by its URL, move through three views, Back twice, Forward once and reload,
each time checking the view a person sees (not only the address). A deep link opened directly is the app's
first entry (nothing is pushed without a person's action: WebKit skips such entries on Back), so Back from
it leaves the app, and an app's own Back button shows its first view instead. Oblique Strategies' seven
tabs are all reachable at 320 px without a sideways scroll ("More" holds four of them on a phone).
"""

from __future__ import annotations

from urllib.parse import quote

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from browser_support import call, set_viewport, wait
from conftest import CITIES_HOME, CITIES_NEARBY


# ---------- Helpers ----------



def ok(driver, method: str, path: str, body=None, status: int = 200):
    got, answer = call(driver, method, path, body)
    assert got == status, f"{method} {path} answered {got}, expected {status}: {answer}"
    return answer


def tap(driver, element) -> None:
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()


def tap_text(driver, selector: str, label: str) -> None:
    """Click the first visible element matching `selector` whose text starts with `label`."""
    element = wait(driver, lambda d: d.execute_script(
        "return [...document.querySelectorAll(arguments[0])]"
        ".find(e => e.getClientRects().length && e.textContent.trim().startsWith(arguments[1])) ?? false",
        selector, label), f"nothing {label!r} matches {selector}")
    tap(driver, element)


def expect(driver, read, wanted, when: str) -> None:
    """Wait until the view read from the page is `wanted`."""
    wait(driver, lambda d: read(d) == wanted, f"{when}: expected the view {wanted!r}, the page shows {read(driver)!r}")


def fresh(driver, url: str) -> None:
    """Open `url` as a link pasted into the address bar (a new document even when only the hash differs)."""
    driver.get("about:blank")
    driver.get(url)


def hash_of(driver) -> str:
    return driver.execute_script("return decodeURIComponent(location.hash)")


# ---------- Oblique Strategies ----------

def strategies_view(driver) -> str:
    """'all', 'favourites', …; on the draw view 'draw' (the prompt) or 'card:<text>'."""
    return driver.execute_script(
        """
        if (!document.getElementById('strategies')) return 'elsewhere: ' + location.href;
        const view = [...document.querySelectorAll('.os-view')].find(v => !v.hidden);
        const name = view ? view.id.replace('view-', '') : '';
        if (name !== 'draw') return name;
        if (document.getElementById('draw').classList.contains('is-prompt')) return 'draw';
        return 'card:' + document.getElementById('card-text').textContent.trim();
        """
    )


def strategies_tab(driver, name: str) -> None:
    """Click a tab the way a person would: through "More" when the tab is in that menu on this screen."""
    tab = driver.find_element(By.ID, f"tab-{name}")
    if not tab.is_displayed():
        tap(driver, driver.find_element(By.ID, "tab-more"))
        wait(driver, lambda d: tab.is_displayed(), f"'More' did not show the {name} tab")
    tab.click()


def test_strategies_tabs_and_a_chosen_card_are_urls(strategies_server, browser, assert_no_console_errors):
    base = strategies_server
    fresh(browser, base + "/strategies#all")
    expect(browser, strategies_view, "all", "opening /strategies#all")
    tap_text(browser, "#all-list .os-item", "Whisper the loud part")
    expect(browser, strategies_view, "card:Whisper the loud part", "choosing a card in All")
    assert hash_of(browser).startswith("#card/"), f"the chosen card is not in the URL: {hash_of(browser)!r}"
    strategies_tab(browser, "favourites")
    expect(browser, strategies_view, "favourites", "the Favourites tab")
    strategies_tab(browser, "history")
    expect(browser, strategies_view, "history", "the History tab (in 'More' on a phone)")
    assert browser.find_element(By.ID, "tab-more").text.strip() == "History", "'More' does not name the view it holds"

    browser.back()
    expect(browser, strategies_view, "favourites", "Back once")
    browser.back()
    expect(browser, strategies_view, "card:Whisper the loud part", "Back twice")
    browser.forward()
    expect(browser, strategies_view, "favourites", "Forward")
    browser.refresh()
    expect(browser, strategies_view, "favourites", "reload")

    browser.back()
    browser.back()
    expect(browser, strategies_view, "all", "Back to the deep link")
    assert_no_console_errors(browser)


def test_a_drawn_card_survives_a_reload_and_back_returns_within_the_app(strategies_server, browser, assert_no_console_errors):
    fresh(browser, strategies_server + "/strategies")
    expect(browser, strategies_view, "draw", "opening /strategies")
    tap(browser, browser.find_element(By.ID, "draw"))
    wait(browser, lambda d: strategies_view(d).startswith("card:"), "tapping the card drew nothing")
    drawn = strategies_view(browser)
    assert hash_of(browser).startswith("#card/"), f"the drawn card is not in the URL: {hash_of(browser)!r}"
    history = ok(browser, "GET", "/api/v1/strategies/history")
    assert len(history) == 1 and f"card:{history[0]['card']['strategy']}" == drawn, f"the draw was not recorded: {history}"
    browser.refresh()
    expect(browser, strategies_view, drawn, "reloading a drawn card")

    # Draw → All → pick a card → Back goes back within the app.
    strategies_tab(browser, "all")
    expect(browser, strategies_view, "all", "the All tab")
    tap_text(browser, "#all-list .os-item", "Take a walk around the problem")
    expect(browser, strategies_view, "card:Take a walk around the problem", "choosing a card")
    browser.back()
    expect(browser, strategies_view, "all", "Back from the chosen card")
    browser.back()
    expect(browser, strategies_view, drawn, "Back to the drawn card")
    assert_no_console_errors(browser)


def test_a_search_refines_all_without_a_history_entry_and_survives_a_reload(strategies_server, browser):
    fresh(browser, strategies_server + "/strategies")
    strategies_tab(browser, "all")
    expect(browser, strategies_view, "all", "the All tab")
    length = browser.execute_script("return history.length")
    browser.find_element(By.ID, "search").send_keys("walk")
    wait(browser, lambda d: hash_of(d) == "#all?q=walk", f"the search is not in the URL: {hash_of(browser)!r}")
    assert browser.execute_script("return history.length") == length, "typing a search added history entries"
    browser.refresh()
    expect(browser, strategies_view, "all", "reloading a search")
    assert browser.find_element(By.ID, "search").get_attribute("value") == "walk"
    wait(browser, lambda d: [b.text.split("\n")[0] for b in d.find_elements(By.CSS_SELECTOR, "#all-list .os-item") if b.is_displayed()]
         == ["Take a walk around the problem"], "the reloaded search does not filter the list")


def test_every_strategies_tab_is_reachable_at_320px(strategies_server, browser, assert_no_console_errors):
    set_viewport(browser, 320, 568, mobile=True)
    fresh(browser, strategies_server + "/strategies")
    expect(browser, strategies_view, "draw", "opening /strategies")
    for name in ["all", "favourites", "today", "mine", "popular", "history", "draw"]:
        strategies_tab(browser, name)
        expect(browser, strategies_view, name, f"the {name} tab at 320 px")
        problems = browser.execute_script(
            """
            const out = [];
            if (document.documentElement.scrollWidth > innerWidth) out.push(`page ${document.documentElement.scrollWidth}px wide`);
            const nav = document.querySelector('.os-tabs');
            if (nav.scrollWidth > nav.clientWidth) out.push('the tab bar scrolls sideways');
            for (const tab of nav.querySelectorAll('button')) {
              const r = tab.getBoundingClientRect();
              if (!r.width) continue;
              if (r.left < 0 || r.right > innerWidth) out.push(`${tab.textContent.trim()} is outside the screen`);
              if (r.width < 44 || r.height < 44) out.push(`${tab.textContent.trim()} is ${Math.round(r.width)}x${Math.round(r.height)}`);
            }
            return out;
            """
        )
        assert not problems, f"at 320 px on {name}: {problems}"
    assert_no_console_errors(browser)


# ---------- Choose Your Destiny ----------

def stories_view(driver) -> str:
    """The hub's tab ('library' or 'catalog'), or the reader's chapter ('chapter:<id>')."""
    return driver.execute_script(
        """
        const reader = document.getElementById('reader');
        if (reader) return reader.dataset.ready === 'true' && !reader.hasAttribute('aria-busy') ? 'chapter:' + (reader.dataset.chapter || '') : 'loading';
        const hub = document.getElementById('stories');
        if (!hub) return 'elsewhere: ' + location.href;
        return ['library', 'catalog'].find(t => !document.getElementById('panel-' + t).hidden) || '';
        """
    )


def chapter_choices(driver) -> list[str]:
    return driver.execute_script("return [...document.querySelectorAll('#choices .st-choice')].map(b => b.dataset.next)")


def take_first_choice(driver) -> str:
    before = stories_view(driver)
    nxt = chapter_choices(driver)[0]
    tap(driver, driver.find_element(By.CSS_SELECTOR, "#choices .st-choice"))
    expect(driver, stories_view, f"chapter:{nxt}", f"choosing from {before}")
    return nxt


def test_stories_tabs_are_urls_and_a_typed_hash_switches_them(stories_server, browser, assert_no_console_errors):
    fresh(browser, stories_server + "/stories#library")
    expect(browser, stories_view, "library", "opening /stories#library")
    tap(browser, browser.find_element(By.ID, "tab-catalog"))
    expect(browser, stories_view, "catalog", "the Catalog tab")
    browser.execute_script("location.hash = '#library'")  # a hash changed by hand
    expect(browser, stories_view, "library", "a hash typed by hand")
    tap(browser, browser.find_element(By.ID, "tab-catalog"))
    expect(browser, stories_view, "catalog", "the Catalog tab again")
    browser.back()
    expect(browser, stories_view, "library", "Back once")
    browser.back()
    expect(browser, stories_view, "catalog", "Back twice")
    browser.forward()
    expect(browser, stories_view, "library", "Forward")
    browser.refresh()
    expect(browser, stories_view, "library", "reload")
    assert_no_console_errors(browser)


def test_story_chapters_are_urls_back_goes_to_the_chapter_before(stories_server, browser, assert_no_console_errors):
    base = stories_server
    fresh(browser, base + "/stories#catalog")
    expect(browser, stories_view, "catalog", "opening the catalog")
    reader_link = wait(browser, lambda d: d.execute_script(
        "return document.querySelector('#catalog-list a.st-read[href$=\"/gull-rock\"]') ?? false"), "no Read link for Gull Rock")
    tap(browser, reader_link)
    wait(browser, lambda d: stories_view(d).startswith("chapter:") and stories_view(d) != "chapter:", "the reader did not open")
    first = stories_view(browser)
    assert hash_of(browser) == "#" + first.replace(":", "/"), f"the chapter is not in the URL: {hash_of(browser)!r}"
    second = take_first_choice(browser)
    third = take_first_choice(browser)
    fourth = take_first_choice(browser)

    browser.back()
    expect(browser, stories_view, f"chapter:{third}", "Back once")
    browser.back()
    expect(browser, stories_view, f"chapter:{second}", "Back twice")
    browser.forward()
    expect(browser, stories_view, f"chapter:{third}", "Forward")
    browser.refresh()
    expect(browser, stories_view, f"chapter:{third}", "reload")
    progress = ok(browser, "GET", "/api/v1/stories/gull-rock/progress")
    assert progress["chapter_id"] == third, f"the reader's saved place is {progress}"

    # The page's own Back goes to the chapter before too, and the browser's Forward returns.
    tap(browser, browser.find_element(By.ID, "back"))
    expect(browser, stories_view, f"chapter:{second}", "the reader's Back button")
    browser.forward()
    expect(browser, stories_view, f"chapter:{third}", "Forward after the reader's Back")
    take_first_choice(browser)  # a new branch from here drops the Forward entries, as a browser does
    assert fourth  # (the chapter reached before is just one of the possible next ones)

    # Back through the first chapter leaves the reader for the catalog.
    for _ in range(3):
        browser.back()
    expect(browser, stories_view, first, "Back to the first chapter")
    browser.back()
    expect(browser, stories_view, "catalog", "Back from the first chapter")
    assert_no_console_errors(browser)


def test_a_chapter_link_in_another_browser_opens_that_readers_own_place(stories_server, browser, assert_no_console_errors):
    # A fresh guest has read nothing: a link to a chapter deep in the story opens its first chapter.
    fresh(browser, stories_server + "/stories/gull-rock#chapter/13")
    wait(browser, lambda d: stories_view(d).startswith("chapter:") and stories_view(d) != "chapter:", "the reader did not open")
    story = ok(browser, "GET", "/api/v1/stories/gull-rock")
    assert stories_view(browser) == f"chapter:{story['start_chapter_id']}"
    assert hash_of(browser) == f"#chapter/{story['start_chapter_id']}"
    assert_no_console_errors(browser)


# ---------- Magnetic Poetry ----------

def poetry_view(driver) -> str:
    """The open poem's id, once its board is loaded and saved ('' before)."""
    return driver.execute_script(
        """
        const board = document.getElementById('board');
        if (!board) return 'elsewhere: ' + location.href;
        if (board.dataset.ready !== 'true' || document.getElementById('save-state').dataset.state !== 'saved') return '';
        const open = document.querySelector('#poems [aria-current="true"]');
        return open ? open.dataset.open : '';
        """
    )


def test_the_open_poem_is_a_url(server, browser):
    fresh(browser, server + "/poetry")
    wait(browser, poetry_view, "the poetry page never showed a poem")
    ids = [poetry_view(browser)]
    for _ in range(2):
        tap(browser, browser.find_element(By.ID, "new-poem"))
        wait(browser, lambda d: poetry_view(d) not in ("", *ids), "New poem did not open a new poem")
        ids.append(poetry_view(browser))
    a, b, c = ids

    fresh(browser, f"{server}/poetry#poem/{quote(a)}")
    expect(browser, poetry_view, a, "opening a poem's URL")
    tap(browser, browser.find_element(By.CSS_SELECTOR, f'#poems [data-open="{b}"]'))
    expect(browser, poetry_view, b, "opening a poem from the list")
    tap(browser, browser.find_element(By.CSS_SELECTOR, f'#poems [data-open="{c}"]'))
    expect(browser, poetry_view, c, "opening another poem")
    assert hash_of(browser) == f"#poem/{c}"
    tap(browser, browser.find_element(By.ID, "new-poem"))
    wait(browser, lambda d: poetry_view(d) not in ("", a, b, c), "New poem did not open a new poem")

    browser.back()
    expect(browser, poetry_view, c, "Back once")
    browser.back()
    expect(browser, poetry_view, b, "Back twice")
    browser.forward()
    expect(browser, poetry_view, c, "Forward")
    browser.refresh()
    expect(browser, poetry_view, c, "reload")


# ---------- City Roulette ----------

def cities_view(driver) -> str:
    """'welcome', 'scene:<title>' (once its rows are drawn), or the path of another City Roulette page."""
    return driver.execute_script(
        """
        const root = document.getElementById('cities');
        if (!root) return location.pathname;
        if (root.dataset.ready !== 'true') return 'loading';
        const scene = document.getElementById('scene');
        if (scene.hidden) return document.getElementById('welcome').hidden ? '' : 'welcome';
        return document.querySelector('#rows .cr-row') ? 'scene:' + document.getElementById('scene-title').textContent.trim() : 'loading';
        """
    )


def import_cities(driver, base: str, ids: list[int]) -> None:
    fresh(driver, base + "/cities")
    expect(driver, cities_view, "welcome", "opening City Roulette")
    ok(driver, "POST", "/api/v1/cities/collection/import", {"cities": [{"geonameid": i, "favourite": False} for i in ids]})


def test_my_cities_is_a_url_and_back_returns_to_it_from_a_city(cities_server, browser):
    import_cities(browser, cities_server, [3176959, 3176883, 3168070])  # Florence, Fiesole, San Marino
    fresh(browser, cities_server + "/cities#browse")
    expect(browser, cities_view, "scene:My cities", "opening /cities#browse")
    tap_text(browser, "#rows .cr-name", "Fiesole")
    expect(browser, cities_view, "/cities/3176883", "a city of the list")
    tap(browser, browser.find_element(By.ID, "country-link"))
    expect(browser, cities_view, "/cities/countries/IT", "the city's country")
    tap_text(browser, "main a", "Florence")
    expect(browser, cities_view, "/cities/3176959", "a city of the country")

    browser.back()
    expect(browser, cities_view, "/cities/countries/IT", "Back once")
    browser.back()
    expect(browser, cities_view, "/cities/3176883", "Back twice")
    browser.forward()
    expect(browser, cities_view, "/cities/countries/IT", "Forward")
    browser.refresh()
    expect(browser, cities_view, "/cities/countries/IT", "reload")

    browser.back()
    browser.back()
    expect(browser, cities_view, "scene:My cities", "Back to the list")
    # The list was the first entry: its own Back button shows the welcome screen in its place.
    tap(browser, browser.find_element(By.ID, "scene-back"))
    expect(browser, cities_view, "welcome", "the list's Back button")
    tap(browser, browser.find_element(By.ID, "browse"))
    expect(browser, cities_view, "scene:My cities", "Browse my cities")
    assert hash_of(browser) == "#browse"
    browser.back()
    expect(browser, cities_view, "welcome", "Back from the list")
    browser.forward()
    expect(browser, cities_view, "scene:My cities", "Forward to the list")


def test_back_ends_edit_mode_in_my_cities_before_it_leaves_the_list(cities_server, browser):
    """As Back ends a selection mode on a phone: with My cities in Edit, Back ends Edit and stays on the list; Done
    leaves no step behind; the next Back leaves the list."""
    import_cities(browser, cities_server, [3176959, 3176883])
    fresh(browser, cities_server + "/cities")
    expect(browser, cities_view, "welcome", "City Roulette")
    tap(browser, browser.find_element(By.ID, "browse"))
    expect(browser, cities_view, "scene:My cities", "Browse my cities")
    editing = lambda d: d.find_element(By.ID, "edit").get_attribute("aria-pressed") == "true"  # noqa: E731
    tap(browser, browser.find_element(By.ID, "edit"))
    wait(browser, editing, "Edit did not start")
    back_over_layer(browser)
    wait(browser, lambda d: not editing(d), "Back did not end Edit")
    expect(browser, cities_view, "scene:My cities", "Back in Edit")
    assert browser.find_element(By.ID, "edit").text == "Edit"

    tap(browser, browser.find_element(By.ID, "edit"))
    wait(browser, editing, "Edit did not start again")
    tap(browser, browser.find_element(By.ID, "edit"))  # Done
    wait(browser, lambda d: not editing(d) and layers_settled(d), "Done did not end Edit and its step")
    browser.back()
    expect(browser, cities_view, "welcome", "Back after Done leaves the list")


def test_a_scene_of_cities_around_a_place_is_a_url(cities_server, browser):
    lat, lon = CITIES_HOME
    fresh(browser, f"{cities_server}/cities#around/{lat:.4f},{lon:.4f}?title=Around%20Florence")
    expect(browser, cities_view, "scene:Around Florence", "opening a scene's URL")
    names = browser.execute_script("return [...document.querySelectorAll('#rows .cr-name')].map(a => a.textContent)")
    assert sorted(names) == sorted(CITIES_NEARBY), f"the scene lists {names}"
    browser.refresh()
    expect(browser, cities_view, "scene:Around Florence", "reload")
    # Untouched, its Back button leaves without asking (issue 21: only real unsaved changes ask) and shows the
    # welcome screen in its place.
    tap(browser, browser.find_element(By.ID, "scene-back"))
    expect(browser, cities_view, "welcome", "Back from the scene opened by its URL")
    assert not browser.execute_script("return document.getElementById('leave-dialog').open"), "an untouched scene asked before leaving"


# ---------- YogiYogini ----------

def yoga_view(driver) -> str:
    """The view the page shows ('class', 'students', 'sessions', 'session:<venue>', …)."""
    return driver.execute_script(
        """
        const root = document.getElementById('yoga');
        if (!root || root.dataset.ready !== 'true') return 'loading';
        const view = root.dataset.view;
        if (view !== 'session') return view;
        const detail = document.getElementById('view-session');
        const title = detail.querySelector('h2, h1');
        return 'session:' + (title ? title.textContent.trim() : '');
        """
    )


def test_yogiyogini_views_and_a_session_are_urls(yoga_server, browser):
    fresh(browser, yoga_server + "/yoga")
    wait(browser, lambda d: yoga_view(d) == "class", f"the YogiYogini page shows {yoga_view(browser)!r}")
    ok(browser, "POST", "/api/v1/yoga/class", {"venue": {"name": "Community Hall", "address": "Via Verdi 1"}, "attendees": []}, 201)
    session = ok(browser, "POST", "/api/v1/yoga/class/end", {"action": "save"}, 201)["session"]

    fresh(browser, yoga_server + "/yoga#students")
    expect(browser, yoga_view, "students", "opening /yoga#students")
    tap(browser, browser.find_element(By.ID, "tab-sessions"))
    expect(browser, yoga_view, "sessions", "the Sessions tab")
    tap(browser, wait(browser, lambda d: d.execute_script(
        "return document.querySelector(`#view-sessions a.yg-item[data-id=\"${arguments[0]}\"]`) ?? false", str(session["id"])),
        "the saved session is not listed"))
    wait(browser, lambda d: yoga_view(d).startswith("session:") and "Community Hall" in yoga_view(d), "the session did not open")
    detail = yoga_view(browser)
    assert hash_of(browser) == f"#session/{session['id']}"
    tap(browser, browser.find_element(By.ID, "tab-class"))
    expect(browser, yoga_view, "class", "the Class tab")

    browser.back()
    expect(browser, yoga_view, detail, "Back once")
    browser.back()
    expect(browser, yoga_view, "sessions", "Back twice")
    browser.forward()
    expect(browser, yoga_view, detail, "Forward")
    browser.refresh()
    expect(browser, yoga_view, detail, "reload")

    browser.back()
    browser.back()
    expect(browser, yoga_view, "students", "Back to the deep link")


# ---------- Back over dialogs and sheets ----------

def open_layers(driver) -> list[str]:
    """The dialogs and poetry sheets open on the page, by id."""
    return driver.execute_script(
        "return [...document.querySelectorAll('dialog[open], .pm-sheet:not([hidden])')].map(e => e.id)")


def layers_settled(driver) -> bool:
    """The entry of a dialog closed by its own button is gone (a person's next Back comes later than this)."""
    return driver.execute_script("return !history.state?.troveLayer")


def back_over_layer(driver) -> None:
    """Back, once each open layer has its entry and no more: layers.js loads with the first layer and then pushes
    it, and steps back over a closed one's, either of which a busy machine can hold back longer than a test takes
    to press Back."""
    wait(driver, lambda d: d.execute_script(
        "const open = globalThis.troveLayers?.openCount() ?? 0; return open > 0 && history.state?.troveLayer === open"),
        "the open layers' entries are not what they are")
    driver.back()


def open_add_student(driver) -> None:
    tap(driver, driver.find_element(By.ID, "student-add"))
    wait(driver, lambda d: open_layers(d) == ["student-dialog"], "Add student did not open its dialog")


def add_student_again(driver) -> None:
    """Forward to the Students tab from the Class tab, and Add student."""
    driver.forward()
    expect(driver, yoga_view, "students", "Forward")
    open_add_student(driver)


def test_back_closes_an_open_dialog_before_it_leaves_the_view(yoga_server, browser):
    """As a phone's Back does: an open dialog is one step, closed without leaving its view; one closed by its own
    button leaves no step behind; a dialog that opens as another closes is one step; a reload drops it."""
    fresh(browser, yoga_server + "/yoga#class")
    expect(browser, yoga_view, "class", "opening /yoga#class")
    tap(browser, browser.find_element(By.ID, "tab-students"))
    expect(browser, yoga_view, "students", "the Students tab")

    open_add_student(browser)
    back_over_layer(browser)
    wait(browser, lambda d: open_layers(d) == [], "Back did not close the dialog")
    expect(browser, yoga_view, "students", "Back with the dialog open")
    browser.back()
    expect(browser, yoga_view, "class", "the next Back")

    # Something typed: Back, Escape and Cancel ask before it is lost; "Keep editing" keeps it, with its step of Back.
    add_student_again(browser)
    browser.find_element(By.ID, "student-name").send_keys("Ada")
    browser.find_element(By.ID, "student-notes").send_keys("Knee injury: no kneeling poses")
    back_over_layer(browser)
    wait(browser, lambda d: open_layers(d) == ["student-dialog", "confirm-dialog"], f"Back with Ada typed did not ask: {open_layers(browser)}")
    assert "Ada" in browser.find_element(By.ID, "confirm-text").text
    tap(browser, browser.find_element(By.ID, "confirm-cancel"))  # Keep editing
    wait(browser, lambda d: open_layers(d) == ["student-dialog"], "Keep editing did not go back to the form")
    assert browser.find_element(By.ID, "student-notes").get_attribute("value") == "Knee injury: no kneeling poses"
    browser.find_element(By.ID, "student-name").send_keys(Keys.ESCAPE)
    wait(browser, lambda d: open_layers(d) == ["student-dialog", "confirm-dialog"], "Escape with Ada typed did not ask")
    tap(browser, browser.find_element(By.ID, "confirm-cancel"))
    wait(browser, lambda d: open_layers(d) == ["student-dialog"], "Keep editing did not go back to the form")
    back_over_layer(browser)
    wait(browser, lambda d: open_layers(d) == ["student-dialog", "confirm-dialog"], "the second Back did not ask")
    tap(browser, browser.find_element(By.ID, "confirm-ok"))  # Discard
    wait(browser, lambda d: open_layers(d) == [] and layers_settled(d), "Discard did not close the form and its steps")
    expect(browser, yoga_view, "students", "Discard")
    assert ok(browser, "GET", "/api/v1/yoga/students")["students"] == [], "a discarded form saved a student"
    browser.back()
    expect(browser, yoga_view, "class", "the next Back, after a Discard")

    add_student_again(browser)
    tap(browser, browser.find_element(By.ID, "student-cancel"))
    wait(browser, lambda d: open_layers(d) == [] and layers_settled(d), "Cancel did not close the dialog and its entry")
    browser.back()
    expect(browser, yoga_view, "class", "Back after Cancel, one step")

    add_student_again(browser)
    wait(browser, lambda d: not layers_settled(d), "the dialog pushed no entry")  # so the reload is on its entry
    browser.refresh()
    expect(browser, yoga_view, "students", "a reload with the dialog open")
    assert open_layers(browser) == []
    browser.back()
    expect(browser, yoga_view, "class", "Back after the reload")

    tap(browser, browser.find_element(By.ID, "checkin"))  # the check-in panel is a step of Back too
    wait(browser, lambda d: d.find_element(By.ID, "checkin-panel").is_displayed(), "Check in did not open its panel")
    back_over_layer(browser)
    wait(browser, lambda d: not d.find_element(By.ID, "checkin-panel").is_displayed(), "Back did not close the check-in")
    expect(browser, yoga_view, "class", "Back during the check-in")
    assert browser.find_element(By.ID, "checkin").is_displayed(), "Back did not return to the idle class"
    assert hash_of(browser) == "#class"

    ok(browser, "POST", "/api/v1/yoga/class", {"venue": {"name": "Community Hall", "address": "Via Verdi 1"}, "attendees": []}, 201)
    browser.refresh()
    wait(browser, lambda d: d.find_element(By.ID, "end-class").is_displayed(), "the running class is not shown")
    tap(browser, browser.find_element(By.ID, "end-class"))
    wait(browser, lambda d: open_layers(d) == ["end-dialog"], "End class did not ask")
    tap(browser, browser.find_element(By.ID, "end-discard"))
    wait(browser, lambda d: open_layers(d) == ["confirm-dialog"], "Discard did not ask to confirm")
    back_over_layer(browser)
    wait(browser, lambda d: open_layers(d) == [], "Back did not close the confirmation")
    expect(browser, yoga_view, "class", "Back on the confirmation")
    assert browser.find_element(By.ID, "end-class").is_displayed(), "Back discarded the class"
    assert ok(browser, "GET", "/api/v1/yoga/class")["class"] is not None


def test_back_closes_the_open_poetry_sheet(server, browser):
    fresh(browser, server + "/poetry")
    wait(browser, poetry_view, "the poetry page never showed a poem")
    first = poetry_view(browser)
    tap(browser, browser.find_element(By.ID, "new-poem"))
    wait(browser, lambda d: poetry_view(d) not in ("", first), "New poem did not open a new poem")
    poem = poetry_view(browser)

    tap(browser, browser.find_element(By.CSS_SELECTOR, "[data-sheet='sheet-words']"))
    tap(browser, browser.find_element(By.CSS_SELECTOR, "[data-sheet='sheet-style']"))
    wait(browser, lambda d: open_layers(d) == ["sheet-style"], "Font did not take the Words sheet's place")
    back_over_layer(browser)
    wait(browser, lambda d: open_layers(d) == [], "Back did not close the sheet")
    expect(browser, poetry_view, poem, "Back with a sheet open")
    browser.back()
    expect(browser, poetry_view, first, "the next Back")


def more_menu_open(driver) -> bool:
    return driver.execute_script("return document.getElementById('tab-more').getAttribute('aria-expanded') === 'true'")


def test_back_closes_the_strategies_more_menu(strategies_server, browser):
    fresh(browser, strategies_server + "/strategies#all")
    expect(browser, strategies_view, "all", "opening /strategies#all")
    strategies_tab(browser, "favourites")
    expect(browser, strategies_view, "favourites", "the Favourites tab")

    tap(browser, browser.find_element(By.ID, "tab-more"))
    wait(browser, more_menu_open, "'More' did not open its menu")
    back_over_layer(browser)
    wait(browser, lambda d: not more_menu_open(d), "Back did not close the 'More' menu")
    expect(browser, strategies_view, "favourites", "Back with the menu open")

    # Closed by choosing a tab in it, the menu leaves no step behind: Back goes to the view before.
    strategies_tab(browser, "today")
    expect(browser, strategies_view, "today", "Today, chosen in 'More'")
    wait(browser, layers_settled, "the menu's entry stayed after a tab in it was chosen")
    browser.back()
    expect(browser, strategies_view, "favourites", "Back from Today")
    browser.back()
    expect(browser, strategies_view, "all", "the next Back")
