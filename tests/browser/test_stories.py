"""Choose Your Destiny: what a reader and an author do with the pages, in a real browser.

The `stories_server` fixture serves a database holding the three sample stories: "The Lamp at Gull Rock"
(gull-rock: 15 chapters, 4 endings, pictures), "The Library After Closing" (after-closing: 14 chapters,
3 endings, no pictures) and "The Night Ferry" (a Twine 2 Harlowe story with variables, played through the
server's /play; its passages are described before its tests at the end of this file). Each test has a fresh browser, so a fresh guest profile with an empty library and
no progress. Gull Rock's map: 1 → 2 | 3; 2 → 4 | 5; 4 → 8 | 9; 8 → 13 (an ending, "The Green Light") | 10;
9 → 8 | 14 (an ending, "Aground"); 3 → 6 | 7; 7 → 10 | 12 (an ending, "Morning Harbour").
"""

from __future__ import annotations

import json
import re
import secrets
import tempfile
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

import browser_support
from browser_support import call, assert_page_weighs_under, outbox, set_viewport, swipe, wait

API = "/api/v1/stories"
PASSWORD = "correct horse battery"
LAMP = "The Lamp at Gull Rock"
LIBRARY = "The Library After Closing"
FERRY = "The Night Ferry"  # samples/stories/twine-harlowe/story.html, an interactive story (see the end of this file)
# The only console errors a test may allow: the refused upload's 422, which the page lists in words.
REFUSED_422 = re.compile(rf"{API}\S* - Failed to load resource: the server responded with a status of 422")


# ---------- Helpers ----------



def open_hub(driver, base: str, tab: str = "") -> None:
    driver.get("about:blank")
    driver.get(base + "/stories" + (f"#{tab}" if tab else ""))
    wait(driver, lambda d: d.execute_script("return document.getElementById('stories').dataset.ready === 'true'"),
         "the stories page never became ready")


def open_story(driver, base: str, story_id: str = "gull-rock") -> None:
    driver.get("about:blank")
    driver.get(f"{base}/stories/{story_id}")
    wait(driver, lambda d: d.execute_script("return document.getElementById('reader').dataset.ready === 'true'"),
         "the reader never became ready")


@pytest.mark.parametrize("size", [(667, 375), (375, 667)], ids=["on-its-side", "upright"])
def test_a_chapters_picture_leaves_room_for_its_words(stories_server, browser, size):
    """On a phone on its side a chapter's picture took the screen's whole width and more than its height: the first
    screen was a picture and nothing to read. It takes at most half the screen's height now, whole, centred."""
    set_viewport(browser, *size)
    open_story(browser, stories_server)
    picture = browser.execute_script("return document.querySelector('.st-picture').getBoundingClientRect().toJSON()")
    assert picture["height"] <= size[1] / 2 + 1, f"the picture is {picture['height']:.0f} px high on a {size[1]} px screen"
    assert abs(picture["width"] / picture["height"] - 1.6) < 0.02, f"the picture is cut to {picture['width']:.0f}x{picture['height']:.0f}"
    assert abs((picture["left"] + picture["right"]) / 2 - size[0] / 2) <= 1, "the picture is not centred"


def shown(driver, element_id: str) -> bool:
    return driver.execute_script(
        "const e = document.getElementById(arguments[0]); return !!e && e.getClientRects().length > 0", element_id)


def text(driver, element_id: str) -> str:
    return driver.execute_script("return document.getElementById(arguments[0])?.innerText.trim() ?? ''", element_id)


def tap(driver, element) -> None:
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()


def tab(driver, name: str) -> None:
    tap(driver, driver.find_element(By.ID, f"tab-{name}"))
    wait(driver, lambda d: shown(d, f"panel-{name}"), f"the {name} tab did not open")


def titles(driver, where: str) -> list[str]:
    return driver.execute_script(
        "return [...document.querySelectorAll(`#${arguments[0]}-list .st-title`)].map(e => e.textContent.trim())", where)


def card(driver, where: str, title: str):
    return wait(driver, lambda d: d.execute_script(
        "return [...document.querySelectorAll(`#${arguments[0]}-list .st-card`)]"
        ".find(li => li.querySelector('.st-title').textContent.trim() === arguments[1]) ?? false", where, title),
        f"{title!r} is not in the {where}")


def card_button(driver, where: str, title: str, label: str):
    return wait(driver, lambda d: d.execute_script(
        "const li = [...document.querySelectorAll(`#${arguments[0]}-list .st-card`)]"
        ".find(li => li.querySelector('.st-title').textContent.trim() === arguments[1]);"
        "return li ? [...li.querySelectorAll('button, a')].find(b => b.textContent.trim() === arguments[2]) ?? false : false",
        where, title, label), f"no {label!r} for {title!r} in the {where}")


def search(driver, where: str, query: str) -> None:
    field = driver.find_element(By.ID, f"{where}-q")
    field.clear()
    field.send_keys(query)


def chapter(driver) -> str:
    return driver.execute_script("return document.getElementById('reader').dataset.chapter ?? ''")


def heading(driver) -> str:
    return text(driver, "chapter-title")


def choose(driver, label: str) -> None:
    """Take the choice whose text starts with `label` and wait for the next chapter."""
    driver.execute_script("window.beforeChoice = document.getElementById('chapter-text').firstChild")
    button = wait(driver, lambda d: d.execute_script(
        "return [...document.querySelectorAll('#choices .st-choice')].find(b => b.textContent.startsWith(arguments[0])) ?? false",
        label), f"no choice {label!r} in chapter {chapter(driver)!r}: {text(driver, 'choices')!r}")
    tap(driver, button)
    wait(driver, lambda d: d.execute_script(
        "return document.getElementById('chapter-text').firstChild !== window.beforeChoice && !document.getElementById('reader').hasAttribute('aria-busy')"),
        f"choosing {label!r} did not show the next chapter")


def picture_loaded(driver) -> bool:
    return driver.execute_script(
        "const i = document.querySelector('#picture img'); return !!i && i.complete && i.naturalWidth > 0")


def watch_text_top(driver) -> None:
    """From now on, records where the chapter's text starts at the moment each new chapter is drawn
    (before its picture can have loaded: the mutation is seen in the same task that draws it)."""
    driver.execute_script(
        """
        window.textTops = [];
        const text = document.getElementById('chapter-text');
        new MutationObserver(() => {
          window.textTops.push(text.getBoundingClientRect().top + scrollY);
        }).observe(text, {childList: true});
        """
    )


def text_top(driver) -> float:
    return driver.execute_script("return document.getElementById('chapter-text').getBoundingClientRect().top + scrollY")


def no_horizontal_scroll(driver, width: int = 320) -> bool:
    return driver.execute_script(
        "const e = document.documentElement; return innerWidth === arguments[0] && e.scrollWidth <= e.clientWidth", width)


def check_console(driver, allow_refused: bool = False) -> None:
    severe = browser_support.severe_console_entries(driver)
    if allow_refused:
        severe = [e for e in severe if not REFUSED_422.search(e.get("message", ""))]
    assert not severe, "console errors:\n" + "\n".join(e.get("message", str(e)) for e in severe)


def confirm(driver, accept: bool) -> None:
    wait(driver, lambda d: d.execute_script("return document.getElementById('confirm-dialog').open"), "no question was asked")
    driver.find_element(By.ID, "confirm-ok" if accept else "confirm-cancel").click()
    wait(driver, lambda d: not d.execute_script("return document.getElementById('confirm-dialog').open"), "the question stayed open")


def sign_up(driver, base: str) -> str:
    driver.get(base + "/stories")
    username = "author" + secrets.token_hex(3)
    status, body = call(driver, "POST", "/api/v1/account/signup", {"username": username, "password": PASSWORD})
    assert status in (200, 201), f"sign-up answered {status}: {body}"
    return username


def story_file(content: str, suffix: str) -> str:
    folder = Path(tempfile.mkdtemp(prefix="trove-story-upload-"))
    path = folder / f"upload{suffix}"
    path.write_text(content, encoding="utf-8")
    return str(path)


# ---------- The hub ----------

def test_the_catalog_lists_both_samples_with_covers_and_counts(stories_server, browser):
    open_hub(browser, stories_server)
    assert titles(browser, "catalog") == [LAMP, LIBRARY, FERRY]
    lamp = card(browser, "catalog", LAMP)
    assert "15 chapters · 4 endings" in lamp.text and "by Trove" in lamp.text
    assert "ship heading for the reef" in lamp.text, "the summary shows"
    # A Twine file has no summary: its card shows the opening as a reader first sees it.
    ferry = card(browser, "catalog", FERRY).find_element(By.CSS_SELECTOR, ".st-summary")
    assert ferry.text.startswith("The last ferry leaves at midnight."), ferry.text
    cover = lamp.find_element(By.CSS_SELECTOR, "img.st-cover")
    assert cover.get_attribute("loading") == "lazy"
    wait(browser, lambda d: d.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0", cover),
         "the cover picture did not load")
    ratio = browser.execute_script("const r = arguments[0].getBoundingClientRect(); return r.width / r.height", cover)
    assert abs(ratio - 1.6) < 0.02, f"the cover is not 16:10 ({ratio:.3f})"
    library = card(browser, "catalog", LIBRARY)
    assert "14 chapters · 3 endings" in library.text
    assert not library.find_elements(By.CSS_SELECTOR, "img"), "a story without a cover shows a drawn placeholder, not a broken picture"
    # The house's stories all begin "The": each placeholder shows its own word's letter, on a colour of its own.
    marks = browser.execute_script(
        "return [...document.querySelectorAll('#catalog-list .st-cover-none')].map(c => [c.textContent, getComputedStyle(c).backgroundImage])")
    assert [letter for letter, _ in marks] == ["L", "N"], marks
    assert marks[0][1] != marks[1][1] and "gradient" in marks[0][1], marks

    tab(browser, "library")
    assert titles(browser, "library") == []
    assert "empty" in text(browser, "library-empty")

    assert "Sign in to publish" in text(browser, "publish"), "a guest is asked to sign in to publish"
    assert not browser.find_elements(By.ID, "publish-file")
    assert_page_weighs_under(browser)
    check_console(browser)


def test_the_tabs_work_from_the_keyboard(stories_server, browser):
    open_hub(browser, stories_server)
    catalog = browser.find_element(By.ID, "tab-catalog")
    catalog.send_keys(Keys.ARROW_LEFT)
    wait(browser, lambda d: shown(d, "panel-library") and not shown(d, "panel-catalog"), "the left arrow did not open the Library")
    assert browser.switch_to.active_element.get_attribute("id") == "tab-library"
    assert browser.find_element(By.ID, "tab-library").get_attribute("aria-selected") == "true"
    browser.switch_to.active_element.send_keys(Keys.ARROW_RIGHT)
    wait(browser, lambda d: shown(d, "panel-catalog"), "the right arrow did not go back to the Catalog")


def test_search_narrows_the_list_as_you_type(stories_server, browser):
    open_hub(browser, stories_server)
    search(browser, "catalog", "lighthouse")
    wait(browser, lambda d: titles(d, "catalog") == [LAMP], "searching the summary for 'lighthouse' did not narrow to Gull Rock")
    search(browser, "catalog", "owl clock")
    wait(browser, lambda d: titles(d, "catalog") == [LIBRARY], "searching the description did not find the library story")
    search(browser, "catalog", "trove")
    wait(browser, lambda d: titles(d, "catalog") == [LAMP, LIBRARY, FERRY], "searching by author keeps the house stories")
    search(browser, "catalog", "dragons of mars")
    wait(browser, lambda d: titles(d, "catalog") == [], "a search nothing matches still lists stories")
    assert "No story matches" in text(browser, "catalog-empty")
    browser.find_element(By.ID, "catalog-q").clear()
    browser.find_element(By.ID, "catalog-q").send_keys(" ")
    wait(browser, lambda d: len(titles(d, "catalog")) == 3, "clearing the search brings every story back")

    tap(browser, card_button(browser, "catalog", LAMP, "Add to library"))
    # Once added, the page moves the focus (and so the scroll) to that card's Remove button: wait for it, or the
    # second tap may land where the page has just moved from (WebKit is slow enough to show that race).
    card_button(browser, "catalog", LAMP, "Remove")
    tap(browser, card_button(browser, "catalog", LIBRARY, "Add to library"))
    wait(browser, lambda d: card_button(d, "catalog", LIBRARY, "Remove"), "the second add did not land")
    tab(browser, "library")
    search(browser, "library", "GULL")
    wait(browser, lambda d: titles(d, "library") == [LAMP], "the library's search did not narrow")
    assert "1 of 2 stories" in text(browser, "library-count")
    check_console(browser)


def test_add_to_library_then_remove_with_the_button_keeps_it_in_the_catalog(stories_server, browser):
    open_hub(browser, stories_server)
    tap(browser, card_button(browser, "catalog", LIBRARY, "Add to library"))
    wait(browser, lambda d: card_button(d, "catalog", LIBRARY, "Remove"), "after adding, the catalog offers Remove")
    tab(browser, "library")
    assert titles(browser, "library") == [LIBRARY]

    open_hub(browser, stories_server, "library")
    assert titles(browser, "library") == [LIBRARY], "the library survives a reload"
    tap(browser, card_button(browser, "library", LIBRARY, "Remove"))
    wait(browser, lambda d: titles(d, "library") == [], "Remove did not take the story out of the library")
    # The last story gone, the focus is not put in the search field: on a phone its keyboard covered the Undo.
    focused = browser.execute_script("return document.activeElement.id")
    assert focused == "tab-library", f"the focus went to {focused!r}"
    tab(browser, "catalog")
    assert titles(browser, "catalog") == [LAMP, LIBRARY, FERRY], "a story removed from a library stays in the catalog"
    assert card_button(browser, "catalog", LIBRARY, "Add to library")
    check_console(browser)


def test_swiping_a_library_story_left_removes_it(stories_server, browser):
    open_hub(browser, stories_server)
    tap(browser, card_button(browser, "catalog", LAMP, "Add to library"))
    wait(browser, lambda d: card_button(d, "catalog", LAMP, "Remove"), "adding did not land")
    tab(browser, "library")
    target = card(browser, "library", LAMP).find_element(By.CSS_SELECTOR, ".st-summary")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", target)
    rect = browser.execute_script(
        "const r = arguments[0].getBoundingClientRect(); return {x: r.left + r.width * 0.8, y: r.top + r.height / 2, w: r.width}", target)
    swipe(browser, (rect["x"], rect["y"]), [(rect["x"] - step * rect["w"] * 0.08, rect["y"]) for step in range(1, 9)])
    wait(browser, lambda d: titles(d, "library") == [], "a long swipe left did not remove the story")
    # The removal is sent once its Undo runs out (test_undo.py checks the Undo).
    wait(browser, lambda d: call(d, "GET", f"{API}/library")[1]["stories"] == [], "the removal never reached the server")
    tab(browser, "catalog")
    assert LAMP in titles(browser, "catalog")
    check_console(browser)


def test_a_started_story_removed_among_several_stays_removed(stories_server, browser):
    """Issue 57: with several stories begun in the Library, Remove took the card away with no toast: moving the focus to
    the next card's Read (a begun story has Continue instead) threw, so the removal stopped before it was sent and the
    story came back with a reload."""
    open_hub(browser, stories_server)
    for story, path in (("gull-rock", ["1", "2"]), ("after-closing", ["start", "stacks"])):
        for method, suffix, body in (("PUT", "library", None), ("PUT", "progress", {"chapter_id": path[-1], "path": path})):
            status, answer = call(browser, method, f"{API}/{story}/{suffix}", body)
            assert status in (200, 201, 204), f"{method} {suffix} answered {status}: {answer}"
    open_hub(browser, stories_server, "library")
    assert sorted(titles(browser, "library")) == sorted([LAMP, LIBRARY])
    first = titles(browser, "library")[0]
    other = titles(browser, "library")[1]
    card_button(browser, "library", other, "Continue")
    tap(browser, card_button(browser, "library", first, "Remove"))
    wait(browser, lambda d: titles(d, "library") == [other], "Remove did not take the story out of the library")
    wait(browser, lambda d: any(f"Removed “{first}”" in t for t in d.execute_script(
        "return [...document.querySelectorAll('.toast')].map(t => t.textContent)")), "the removal offers no Undo")
    focused = browser.execute_script("return document.activeElement.textContent.trim()")
    assert focused == "Continue", f"the focus went to {focused!r}, not the next card's Continue"
    check_console(browser)
    # Leaving the page sends the removal at once (its Undo would have run out): the server has it, and a reload agrees.
    open_hub(browser, stories_server, "library")
    wait(browser, lambda d: [s["name"] for s in call(d, "GET", f"{API}/library")[1]["stories"]] == [other],
         "the removal never reached the server")
    open_hub(browser, stories_server, "library")
    assert titles(browser, "library") == [other], "the removed story came back after a reload"
    check_console(browser)


# ---------- Reading ----------

def test_reading_from_the_first_chapter_to_an_ending(stories_server, browser):
    open_story(browser, stories_server)
    assert heading(browser) == "The Dark Lamp"
    assert browser.find_element(By.CSS_SELECTOR, "#chapter-text strong").get_attribute("textContent") == "dark", "**dark** shows as strong text"
    assert "**" not in text(browser, "chapter-text")
    wait(browser, picture_loaded, "the first chapter's picture did not load")
    assert not browser.find_element(By.ID, "back").is_enabled(), "nothing to go back to on the first chapter"
    # "‹ All stories" reads as one back control: its chevron was underlined apart from its words.
    assert browser.execute_script(
        "return getComputedStyle(document.querySelector('.st-backlink')).textDecorationLine") == "none"

    watch_text_top(browser)
    for label, expected in (("Climb the tower", "One Hundred and Seventeen Steps"), ("Follow the glowing moth", "The Lantern Moth")):
        choose(browser, label)
        assert heading(browser) == expected
        assert browser.switch_to.active_element.get_attribute("id") == "chapter-title", "the focus moves to the new chapter's heading"
        wait(browser, picture_loaded, f"the picture of {expected!r} did not load")
        drawn = browser.execute_script("return window.textTops.at(-1)")
        assert drawn is not None
        assert abs(text_top(browser) - drawn) < 1, f"the text moved from {drawn} to {text_top(browser)} when the picture loaded"
    ratio = browser.execute_script("const r = document.getElementById('picture').getBoundingClientRect(); return r.width / r.height")
    assert abs(ratio - 1.6) < 0.02, f"the picture's box is not 16:10 ({ratio:.3f})"
    assert "*" not in text(browser, "chapter-text"), "the moth's *tap* shows as emphasis, not asterisks"

    # From the keyboard: Tab to the first choice and press Enter.
    first = browser.find_element(By.CSS_SELECTOR, "#choices .st-choice")
    # The chapter fades in (st-fade); WebDriver reads no text while it is transparent.
    wait(browser, lambda d: first.text.startswith("Set the sea-glass lens"), f"the first choice reads {first.text!r}")
    first.send_keys(Keys.ENTER)
    wait(browser, lambda d: heading(d) == "The Sea-Glass Light", "Enter on a choice did not take it")
    assert not shown(browser, "picture"), "a chapter without a picture shows no empty box"
    choose(browser, "Let the green light shine")
    assert heading(browser) == "The Green Light"
    wait(browser, lambda d: shown(d, "ending"), "the ending's panel did not show")
    assert text(browser, "ending-title") == "The End"
    assert "You read 5 chapters" in text(browser, "ending")
    assert "Endings found: 1 of 4" in text(browser, "ending")
    assert not browser.find_elements(By.CSS_SELECTOR, "#choices .st-choice"), "an ending offers no choices"
    # Read once the ending has faded in: WebKit reads text that is still fading in as empty.
    wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, "#ending a[href='/stories']").text == "Back to stories",
         "the ending offers no 'Back to stories' link")

    assert_page_weighs_under(browser)
    check_console(browser)


def test_reload_resumes_and_the_trail_rewinds_to_take_another_branch(stories_server, browser):
    open_story(browser, stories_server)
    choose(browser, "Climb the tower")
    choose(browser, "Follow the glowing moth")
    open_story(browser, stories_server)
    assert heading(browser) == "The Lantern Moth", "a reload resumes at the same chapter"
    wait(browser, lambda d: shown(d, "trail-box"), "the trail of chapters taken is not offered")
    browser.find_element(By.CSS_SELECTOR, "#trail-box summary").click()
    steps = browser.execute_script("return [...document.querySelectorAll('#trail li')].map(li => li.innerText.trim())")
    assert steps == ["The Dark Lamp", "One Hundred and Seventeen Steps", "The Lantern Moth"]

    # Back one chapter, then forward along the other branch.
    tap(browser, browser.find_element(By.ID, "back"))
    wait(browser, lambda d: heading(d) == "One Hundred and Seventeen Steps", "Back did not return to the previous chapter")
    choose(browser, "Hurry down to the cellar")
    assert heading(browser) == "The Cellar"

    # Rewind to the first chapter through the trail and take the other way.
    browser.execute_script("document.getElementById('trail-box').open = true")
    tap(browser, browser.find_element(By.CSS_SELECTOR, "#trail button[aria-label='Go back to The Dark Lamp']"))
    wait(browser, lambda d: heading(d) == "The Dark Lamp", "rewinding through the trail did not go back to the first chapter")
    choose(browser, "Run down to the boathouse")
    choose(browser, "Ring the fog bell")
    choose(browser, "Keep ringing")
    assert heading(browser) == "Morning Harbour"
    assert "You read 4 chapters" in text(browser, "ending")
    _, progress = call(browser, "GET", f"{API}/gull-rock/progress")
    assert progress["path"] == ["1", "3", "7", "12"], f"the server kept the rewound path: {progress}"

    open_story(browser, stories_server)
    assert heading(browser) == "Morning Harbour" and shown(browser, "ending"), "an ending is resumed too"
    check_console(browser)


def test_endings_found_add_up_and_restart_asks_first(stories_server, browser):
    open_story(browser, stories_server)
    choose(browser, "Run down to the boathouse")
    choose(browser, "Ring the fog bell")
    choose(browser, "Keep ringing")
    assert "Endings found: 1 of 4" in text(browser, "ending")

    tap(browser, browser.find_element(By.ID, "ending-restart"))
    confirm(browser, accept=False)
    assert heading(browser) == "Morning Harbour", "keeping on reading after the question changes nothing"

    tap(browser, browser.find_element(By.ID, "ending-restart"))
    confirm(browser, accept=True)
    wait(browser, lambda d: heading(d) == "The Dark Lamp", "Restart did not return to the first chapter")
    assert not shown(browser, "ending")
    assert browser.switch_to.active_element.get_attribute("id") == "chapter-title"

    choose(browser, "Climb the tower")
    choose(browser, "Follow the glowing moth")
    choose(browser, "Ask the moth")
    choose(browser, "Catch the moth")
    assert heading(browser) == "Aground"
    assert "You read 5 chapters" in text(browser, "ending")
    assert "Endings found: 2 of 4" in text(browser, "ending"), "a second, different ending is counted"

    tap(browser, browser.find_element(By.ID, "restart"))
    confirm(browser, accept=True)
    wait(browser, lambda d: heading(d) == "The Dark Lamp", "the top Restart did not return to the first chapter")
    _, progress = call(browser, "GET", f"{API}/gull-rock/progress")
    assert progress["path"] == ["1"] and sorted(progress["endings_found"]) == ["12", "14"], progress
    check_console(browser)


def test_a_story_without_pictures_reads_and_another_profile_starts_afresh(stories_server, browser):
    open_story(browser, stories_server, "after-closing")
    assert heading(browser) == "Closing Time"
    assert not shown(browser, "picture")
    assert browser.find_element(By.CSS_SELECTOR, "#chapter-text em").get_attribute("textContent") == "rustle"
    choose(browser, "Go to the issue desk")
    choose(browser, "Follow Pilcrow")
    assert heading(browser) == "Following Pilcrow"
    open_hub(browser, stories_server)
    assert card_button(browser, "catalog", LIBRARY, "Remove"), "reading a story from the catalog puts it in the library"
    assert LIBRARY in [s["name"] for s in call(browser, "GET", f"{API}/library")[1]["stories"]]

    browser.delete_all_cookies()  # another person on this device: a new guest profile
    open_hub(browser, stories_server, "library")
    assert titles(browser, "library") == [], "another profile sees nobody else's library"
    open_story(browser, stories_server, "after-closing")
    assert heading(browser) == "Closing Time", "another profile starts at chapter one"
    assert not shown(browser, "trail-box")
    check_console(browser)


def test_pages_fit_a_320px_phone(stories_server, browser):
    set_viewport(browser, 320, 640)
    open_hub(browser, stories_server)
    assert no_horizontal_scroll(browser), "the hub scrolls sideways at 320px"
    open_story(browser, stories_server)
    choose(browser, "Climb the tower")
    assert no_horizontal_scroll(browser), "the reader scrolls sideways at 320px"
    width = browser.execute_script("return document.querySelector('#choices .st-choice').getBoundingClientRect().width")
    assert width >= 250, f"choices are large buttons across the screen ({width}px)"
    check_console(browser)


# ---------- Publishing ----------

UNREACHABLE_JSON = {
    "story": {
        "id": "", "name": "", "summary": "A tiny test story.", "author": "A. Tester",
        "chapters": [
            {"id": "a", "name": "Fork", "is_first_chapter": True, "text": "Two roads.\n\nPick one.",
             "choices": [{"chapter_id": "b", "text": "Left"}, {"chapter_id": "c", "text": "Right"}]},
            {"id": "b", "name": "Left end", "text": "You went left. The end.", "video_url": "https://video.example/left.mp4"},
            {"id": "c", "name": "Right end", "text": "You went right. The end."},
            {"id": "z", "name": "Forgotten", "text": "Nothing leads here."},
        ],
    }
}

BROKEN_JSON = {
    "story": {
        "id": "", "name": "Broken", "summary": "",
        "chapters": [
            {"id": "1", "name": "One", "text": "", "choices": [{"chapter_id": "9", "text": "Into nowhere"}]},
            {"id": "2", "name": "Two", "text": "Also no start.", "choices": [{"chapter_id": "1", "text": ""}]},
        ],
    }
}

TWEE = """:: StoryTitle
{title}

:: StoryData
{{"start": "Gate"}}

:: Gate
A fox sits at the garden gate, *watching* you.

[[Open the gate->Garden]]
[[Go back inside->Inside]]

:: Garden
The fox trots in and curls up under the apple tree. **Friends**, then.

:: Inside
You close the door. Later, the fox is gone.
"""


def publish(driver, path: str) -> None:
    field = driver.find_element(By.ID, "publish-file")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", field)
    field.send_keys(path)
    tap(driver, driver.find_element(By.ID, "publish-submit"))


def test_a_signed_in_account_publishes_json_and_twee_sees_warnings_and_every_error(stories_server, browser):
    sign_up(browser, stories_server)
    open_hub(browser, stories_server)
    assert shown(browser, "publish-form"), "a signed-in account sees the publish form"
    suffix = secrets.token_hex(3)

    # A story.json with a chapter nothing leads to: published, with a warning that names it.
    story = json.loads(json.dumps(UNREACHABLE_JSON))
    story["story"]["id"] = f"fork-{suffix}"
    story["story"]["name"] = f"Fork in the Road {suffix}"
    publish(browser, story_file(json.dumps(story), ".json"))
    wait(browser, lambda d: shown(d, "publish-result"), "publishing did not succeed: " + text(browser, 'publish-errors-box'))
    assert f"Fork in the Road {suffix}" in text(browser, "publish-ok")
    read_it = browser.find_element(By.ID, "publish-read")
    assert read_it.get_attribute("href").endswith(f"/stories/fork-{suffix}"), "the story published has no way to read it"
    warnings = text(browser, "publish-warnings")
    assert '"z"' in warnings and "cannot be reached" in warnings, f"the unreachable chapter is not warned about: {warnings!r}"
    assert f"Fork in the Road {suffix}" in titles(browser, "catalog"), "the new story is in the catalog at once"
    assert "2 endings" in card(browser, "catalog", f"Fork in the Road {suffix}").text

    # A Twee file.
    title = f"The Fox at the Gate {suffix}"
    publish(browser, story_file(TWEE.format(title=title), ".twee"))
    wait(browser, lambda d: title in text(d, "publish-ok"), "the Twee story was not published")
    assert title in titles(browser, "catalog")
    own = browser.execute_script("return [...document.querySelectorAll('#own-list .st-own-name')].map(e => e.textContent)")
    assert set(own) == {f"Fork in the Road {suffix}", title}, f"the author's own stories: {own}"

    # A broken file: every problem is listed, and nothing is published.
    broken = json.loads(json.dumps(BROKEN_JSON))
    broken["story"]["id"] = f"broken-{suffix}"
    publish(browser, story_file(json.dumps(broken), ".json"))
    wait(browser, lambda d: shown(d, "publish-errors-box"), "a broken story showed no errors")
    errors = browser.execute_script("return [...document.querySelectorAll('#publish-errors li')].map(e => e.textContent)")
    joined = "\n".join(errors)
    assert len(errors) >= 4, f"not every error is listed: {errors}"
    assert "first" in joined, joined
    assert 'Chapter "1" (One) has no text.' in errors, joined
    assert '"9"' in joined and "does not exist" in joined, joined
    assert "no ending" in joined.lower(), joined
    assert browser.find_element(By.ID, "publish-errors-box").get_attribute("role") == "alert"
    assert "Broken" not in titles(browser, "catalog")

    # Read the JSON story to its left ending: the chapter's video shows with controls, loaded only on play.
    tap(browser, card_button(browser, "catalog", f"Fork in the Road {suffix}", "Read"))
    wait(browser, lambda d: d.execute_script("return document.getElementById('reader')?.dataset.ready === 'true'"), "the reader did not open")
    assert not browser.find_elements(By.CSS_SELECTOR, "#video video")
    choose(browser, "Left")
    video = browser.find_element(By.CSS_SELECTOR, "#video video")
    assert video.get_attribute("src") == "https://video.example/left.mp4"
    assert video.get_attribute("controls") is not None and video.get_attribute("playsinline") is not None
    assert video.get_attribute("preload") == "none", "nothing is downloaded before the reader presses play"
    open_hub(browser, stories_server)

    # Read the Twee story: its links became choices.
    tap(browser, card_button(browser, "catalog", title, "Read"))
    wait(browser, lambda d: d.execute_script("return document.getElementById('reader')?.dataset.ready === 'true'"), "the reader did not open")
    assert heading(browser) == "Gate"
    assert browser.find_element(By.CSS_SELECTOR, "#chapter-text em").get_attribute("textContent") == "watching"
    choose(browser, "Open the gate")
    assert "Friends" in browser.find_element(By.CSS_SELECTOR, "#chapter-text strong").get_attribute("textContent")
    assert "Endings found: 1 of 2" in text(browser, "ending")

    # Withdraw the Twee story: asked first, then it leaves the catalog.
    open_hub(browser, stories_server)
    withdraw = browser.find_element(By.CSS_SELECTOR, f"#own-list button[aria-label='Withdraw {title}']")
    tap(browser, withdraw)
    confirm(browser, accept=False)
    assert title in titles(browser, "catalog")
    tap(browser, browser.find_element(By.CSS_SELECTOR, f"#own-list button[aria-label='Withdraw {title}']"))
    confirm(browser, accept=True)
    wait(browser, lambda d: title not in titles(d, "catalog"), "a withdrawn story stayed in the catalog")
    wait(browser, lambda d: title not in titles(d, "library"), "a withdrawn story stayed in the library")
    open_hub(browser, stories_server)
    assert title not in titles(browser, "library"), "a withdrawn story is in the library read again"
    check_console(browser, allow_refused=True)


def test_an_author_updates_a_story_and_a_guest_cannot_publish(stories_server, browser):
    sign_up(browser, stories_server)
    open_hub(browser, stories_server)
    suffix = secrets.token_hex(3)
    story = json.loads(json.dumps(UNREACHABLE_JSON))
    story["story"]["id"] = f"update-{suffix}"
    story["story"]["name"] = f"First Draft {suffix}"
    publish(browser, story_file(json.dumps(story), ".json"))
    wait(browser, lambda d: f"First Draft {suffix}" in titles(d, "catalog"), "the first draft was not published")

    story["story"]["name"] = f"Second Draft {suffix}"
    story["story"]["chapters"].pop()  # the unreachable chapter goes
    browser.execute_script("HTMLInputElement.prototype.click = function () {};")  # no native file chooser in a headless run
    tap(browser, browser.find_element(By.CSS_SELECTOR, f"#own-list button[aria-label='Update First Draft {suffix}']"))
    browser.find_element(By.ID, "update-file").send_keys(story_file(json.dumps(story), ".json"))
    wait(browser, lambda d: f"Second Draft {suffix}" in titles(d, "catalog"), "updating did not replace the story")
    assert f"First Draft {suffix}" not in titles(browser, "catalog")
    assert "Updated" in text(browser, "publish-ok") and not shown(browser, "publish-warnings-box")

    browser.delete_all_cookies()  # a guest now
    open_hub(browser, stories_server)
    assert "Sign in to publish" in text(browser, "publish")
    assert browser.find_element(By.CSS_SELECTOR, "#publish a[href='/login']")
    status, body = call(browser, "POST", API, {"story": {}})
    assert status == 403 and body["error"]["code"] == "sign_in_required", (status, body)
    assert f"Second Draft {suffix}" in titles(browser, "catalog"), "a guest reads published stories"
    assert not browser.find_elements(By.CSS_SELECTOR, "#own-list li"), "a guest owns nothing"


def test_the_story_map_shows_every_chapter_with_its_endings(stories_server, browser):
    open_story(browser, stories_server)
    browser.find_element(By.ID, "story-map-link").click()
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "svg.sm-svg"), "the story map never appeared")
    nodes = browser.find_elements(By.CSS_SELECTOR, "svg.sm-svg g.sm-node")
    assert len(nodes) == 15, "one box per chapter of Gull Rock"
    assert len(browser.find_elements(By.CSS_SELECTOR, "svg.sm-svg g.sm-ending")) == 4
    assert len(browser.find_elements(By.CSS_SELECTOR, "svg.sm-svg g.sm-start")) == 1
    assert not browser.find_elements(By.CSS_SELECTOR, "svg.sm-svg g.sm-unreachable")
    assert "15 chapters, 4 endings" in browser.find_element(By.TAG_NAME, "main").text
    check_console(browser)


# ---------- Offline ----------

def take(driver, next_id: str) -> None:
    """Take the choice leading to chapter `next_id` and wait until it is drawn."""
    button = wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, f"#choices .st-choice[data-next='{next_id}']"),
                  f"no choice leads to {next_id!r} from chapter {chapter(driver)!r}")[0]
    tap(driver, button)
    wait(driver, lambda d: chapter(d) == next_id and not d.execute_script(
        "return document.getElementById('reader').hasAttribute('aria-busy')"), f"chapter {next_id!r} was not drawn")


def kept_for_offline(driver) -> bool | dict:
    """Waits until the service worker holds Gull Rock's JSON, a picture, its reader page and script, the library and
    the hub's own script (which WebKit, unlike Chromium, does not find in its HTTP cache offline)."""
    return driver.execute_async_script(
        """
        const done = arguments[arguments.length - 1];
        const deadline = Date.now() + 12000;
        const hub = [...document.scripts].find(s => s.src.endsWith('/stories/hub.js'));
        const readerScript = hub && hub.src.replace(/hub\\.js$/, 'reader.js');
        (async function poll() {
          const found = {
            story: !!(await caches.match('/api/v1/stories/gull-rock', {ignoreVary: true})),
            picture: !!(await caches.match('/api/v1/stories/gull-rock/resources/bell.svg')),
            page: !!(await caches.match('/stories/gull-rock', {ignoreVary: true})),
            script: !!(readerScript && await caches.match(readerScript)),
            hubScript: !!(hub && await caches.match(hub.src)),
            library: ((await (await caches.match('/api/v1/stories/library', {ignoreVary: true}))?.text()) ?? '').includes('gull-rock'),
            active: !!(await navigator.serviceWorker.getRegistration())?.active,
          };
          if (Object.values(found).every(Boolean)) return done(true);
          if (Date.now() > deadline) return done(found);
          setTimeout(poll, 200);
        })();
        """
    )


def test_signing_out_forgets_the_downloaded_library(stories_server, browser):
    """The next person on this device must not find, offline, the stories and library of whoever signed out."""
    sign_up(browser, stories_server)
    open_hub(browser, stories_server)
    tap(browser, card_button(browser, "catalog", LAMP, "Add to library"))
    wait(browser, lambda d: card_button(d, "catalog", LAMP, "Remove"), "Gull Rock was not added")
    assert kept_for_offline(browser) is True
    browser.get(stories_server + "/account")
    browser.find_element(By.ID, "logout").click()
    wait(browser, lambda d: d.execute_script("return location.pathname") == "/", "signing out did not go home")
    left = browser.execute_async_script(
        """
        const done = arguments[arguments.length - 1];
        Promise.all([caches.has('trove-stories'), caches.match('/api/v1/stories/library', {ignoreVary: true})])
          .then(([stories, library]) => done({stories, library: !!library}));
        """
    )
    assert left == {"stories": False, "library": False}, f"after signing out the device still holds: {left}"


def test_a_library_story_reads_with_the_server_down_and_the_place_reaches_it_later(stories_restartable, browser):
    with stories_restartable() as base:
        open_hub(browser, base)
        tap(browser, card_button(browser, "catalog", LAMP, "Add to library"))
        wait(browser, lambda d: card_button(d, "catalog", LAMP, "Remove"), "Gull Rock was not added")
        kept = kept_for_offline(browser)
        assert kept is True, f"the service worker did not keep the story for offline reading: {kept}"
        open_story(browser, base)
        take(browser, "3")
        open_hub(browser, base)  # the library as the server last knew it (at chapter 3), kept by the worker
        wait(browser, lambda d: d.execute_script(
            "return [...document.querySelectorAll('.st-continue')].some(a => a.getAttribute('href').endsWith('#chapter/3'))"),
            "the library does not continue at chapter 3")

    # The server is stopped: the page, the story and its pictures come from the service worker.
    open_story(browser, base)
    assert chapter(browser) == "3", "offline, the reader did not resume where this device left it"
    assert shown(browser, "offline-note"), "the reader does not say it is offline"
    take(browser, "7")
    wait(browser, lambda d: picture_loaded(d), "offline, the chapter's picture did not load")
    take(browser, "12")
    assert shown(browser, "ending") and text(browser, "ending-found") == "Endings found: 1 of 4: Morning Harbour"
    queue = outbox(browser)
    assert [(e["method"], e["path"], e["body"]["chapter_id"]) for e in queue] == [("PUT", f"{API}/gull-rock/progress", "7"), ("PUT", f"{API}/gull-rock/progress", "12")], \
        f"the offline moves are not in the device's outbox (the place, and the ending reached): {queue}"
    assert all(e["key"] and e["scope"] == "stories" for e in queue)

    open_hub(browser, base)
    assert shown(browser, "offline-note"), "the hub does not say it is offline"
    assert titles(browser, "library") == [LAMP], "offline, the library does not list the downloaded story"
    # The card is where the reader is now, not where the server last heard: its Continue led back to chapter 3, and
    # that rewind, sent with the offline moves, lost them.
    continues = browser.execute_script(
        "return [...document.querySelectorAll('#library-list .st-continue, #panel-library .st-continue')].map(a => a.getAttribute('href'))")
    assert continues and all(h.endswith("#chapter/12") for h in continues), f"offline, the library's Continue leads to {continues}"

    with stories_restartable():
        open_story(browser, base)
        wait(browser, lambda d: outbox(d) == [], "the moves made offline were never sent")
        wait(browser, lambda d: not shown(d, "offline-note"), "the reader still says it is offline")
        assert chapter(browser) == "12"
        status, progress = call(browser, "GET", f"{API}/gull-rock/progress")
        assert status == 200 and progress["path"] == ["1", "3", "7", "12"], progress
        assert progress["endings_found"] == ["12"], progress


def test_going_offline_while_reading_says_so_at_once(stories_server, browser):
    """The reader, the Twine player and the hub said they were offline only once a choice failed (or on the next
    visit): the browser's offline event now shows their note at once, and back online it goes."""
    def offline_and_back(what: str) -> None:
        assert not shown(browser, "offline-note"), f"online, {what} says it is offline"
        browser.execute_script("dispatchEvent(new Event('offline'))")
        wait(browser, lambda d: shown(d, "offline-note"), f"gone offline, {what} does not say so")
        browser.execute_script("dispatchEvent(new Event('online'))")
        wait(browser, lambda d: not shown(d, "offline-note"), f"back online, {what} still says it is offline")

    ferry = ferry_id(browser, stories_server)
    offline_and_back("the hub")
    open_story(browser, stories_server)
    take(browser, "3")
    offline_and_back("the reader")
    assert chapter(browser) == "3", "back online, the reader lost its place"
    open_story(browser, stories_server, ferry)
    choose(browser, "Search the warehouse")
    offline_and_back("the Twine player")
    assert at(browser, "Warehouse", 1), "back online, the player lost its place"
    check_console(browser)


# ---------- Issue 22: moving like an app, a library that remembers, authors, the map, publishing ----------

def hub_view(driver) -> str:
    """The hub's view as a reader sees it: the open tab, and the author heading when the catalog is narrowed."""
    return driver.execute_script(
        "const open = ['library', 'catalog', 'authors'].find(n => !document.getElementById('panel-' + n).hidden);"
        "const filter = document.getElementById('author-filter');"
        "return open === 'catalog' && !filter.hidden ? 'catalog:' + document.getElementById('catalog-heading').textContent : open")


def test_back_after_a_choice_goes_to_the_chapter_before_and_undoes_that_step(stories_server, browser):
    open_story(browser, stories_server)
    take(browser, "3")
    take(browser, "7")
    browser.back()
    wait(browser, lambda d: chapter(d) == "3" and not d.execute_script(
        "return document.getElementById('reader').hasAttribute('aria-busy')"), "Back did not show the chapter before")
    wait(browser, lambda d: call(d, "GET", f"{API}/gull-rock/progress")[1]["path"] == ["1", "3"],
         "Back did not undo the step as the trail's rewind does")
    assert len(browser.find_elements(By.CSS_SELECTOR, "#trail li")) == 2
    browser.forward()
    wait(browser, lambda d: chapter(d) == "7", "Forward did not return to the chapter")
    browser.refresh()
    wait(browser, lambda d: d.execute_script("return document.getElementById('reader').dataset.ready === 'true'"), "the reader never became ready")
    assert chapter(browser) == "7" and browser.execute_script("return location.hash") == "#chapter/7", "a reload returns to the same chapter"
    check_console(browser)


def test_library_catalog_authors_and_one_author_are_urls_that_reload_to_the_same_view(stories_server, browser):
    open_hub(browser, stories_server, "library")
    assert hub_view(browser) == "library"
    tab(browser, "authors")
    assert browser.execute_script("return location.hash") == "#authors"
    authors = browser.execute_script("return [...document.querySelectorAll('#authors-list .st-author-name')].map(e => e.textContent)")
    assert "Trove" in authors, f"the house author is not listed: {authors}"
    house = browser.execute_script(
        "return [...document.querySelectorAll('#authors-list .st-author-item')].find(li => li.querySelector('.st-author-name').textContent === 'Trove')"
        ".innerText")
    assert LAMP in house and LIBRARY in house, f"the authors view lists each author's stories: {house!r}"
    tap(browser, browser.find_element(By.XPATH, "//a[contains(@class, 'st-author-link') and text()='Trove']"))
    wait(browser, lambda d: hub_view(d) == "catalog:Stories by Trove", "an author's name did not narrow the catalog to their stories")
    assert browser.execute_script("return location.hash") == "#catalog?house=true"
    assert set(titles(browser, "catalog")) == {LAMP, LIBRARY, FERRY}
    browser.refresh()
    wait(browser, lambda d: d.execute_script("return document.getElementById('stories').dataset.ready === 'true'"), "not ready")
    assert hub_view(browser) == "catalog:Stories by Trove", "a reload keeps the author"
    browser.back()
    wait(browser, lambda d: hub_view(d) == "authors", "Back did not return to the Authors")
    browser.back()
    wait(browser, lambda d: hub_view(d) == "library", "Back did not return to the Library")
    browser.forward()
    wait(browser, lambda d: hub_view(d) == "authors", "Forward did not return to the Authors")
    browser.refresh()
    wait(browser, lambda d: d.execute_script("return document.getElementById('stories').dataset.ready === 'true'"), "not ready")
    assert hub_view(browser) == "authors", "a reload keeps the Authors"
    # A byline on a card goes to its author's stories.
    tab(browser, "catalog")
    byline = card(browser, "catalog", LAMP).find_element(By.CSS_SELECTOR, ".st-byline")
    assert byline.text == "Trove"
    tap(browser, byline)
    wait(browser, lambda d: hub_view(d) == "catalog:Stories by Trove", "a byline did not lead to its author's stories")
    check_console(browser)


def test_a_library_card_shows_where_the_reader_is_and_continue_resumes(stories_server, browser):
    open_hub(browser, stories_server)
    tap(browser, card_button(browser, "catalog", LAMP, "Read"))
    wait(browser, lambda d: d.execute_script("return document.getElementById('reader')?.dataset.ready === 'true'"), "the reader did not open")
    take(browser, "3")
    take(browser, "7")
    take(browser, "12")  # an ending: Morning Harbour
    tap(browser, browser.find_element(By.ID, "ending-restart"))
    confirm(browser, accept=True)
    wait(browser, lambda d: chapter(d) == "1", "restart did not go to the first chapter")
    take(browser, "2")
    heading_now = heading(browser)

    open_hub(browser, stories_server, "library")
    assert titles(browser, "library") == [LAMP], "reading from the catalog put the story in the library"
    progress = card(browser, "library", LAMP).find_element(By.CSS_SELECTOR, ".st-progress").text
    assert f"At: {heading_now}" in progress and "Endings found: 1 of 4" in progress, progress
    tap(browser, card_button(browser, "library", LAMP, "Continue"))
    wait(browser, lambda d: d.execute_script("return document.getElementById('reader')?.dataset.ready === 'true'"), "Continue did not open the reader")
    assert chapter(browser) == "2" and heading(browser) == heading_now, "Continue resumes at the reader's chapter"
    assert len(browser.find_elements(By.CSS_SELECTOR, "#trail li")) == 2
    check_console(browser)


def map_labels(driver) -> list[dict]:
    """Every chapter label the map shows (the tree's names, the drawing's texts), with its computed font size."""
    return driver.execute_script(
        """
        return [...document.querySelectorAll('#map-tree .sm-name, svg.sm-svg g.sm-node text')]
          // WebKit gives client rects to SVG text inside a display:none group, so a hidden ancestor is looked for too.
          .filter(e => e.getClientRects().length > 0 && !e.closest('.sm-hidden, [hidden]'))
          .map(e => ({text: e.textContent, size: parseFloat(getComputedStyle(e).fontSize), height: e.getBoundingClientRect().height}));
        """
    )


def test_the_map_is_readable_at_320px_and_shows_only_the_chapters_visited(stories_server, browser):
    set_viewport(browser, 320, 568)
    open_story(browser, stories_server)
    take(browser, "3")
    take(browser, "7")
    browser.find_element(By.ID, "story-map-link").click()
    wait(browser, lambda d: d.execute_script("return document.getElementById('story-map')?.dataset.ready === 'true'"), "the map never became ready")
    labels = map_labels(browser)
    assert sorted(label["text"] for label in labels) == sorted(["The Dark Lamp", "The Boathouse", "The Fog Bell"]), \
        f"the map shows chapters not visited: {labels}"
    assert all(label["size"] >= 12 and label["height"] >= 12 for label in labels), f"labels too small at 320 px: {labels}"
    assert no_horizontal_scroll(browser), "the map scrolls sideways at 320 px"
    main = browser.find_element(By.TAG_NAME, "main").text
    assert "Morning Harbour" not in main and "Aground" not in main, "an ending not found is named"
    here = browser.find_element(By.CSS_SELECTOR, "#map-tree [aria-current='location']")
    assert "The Fog Bell" in here.text, "the map does not mark where the reader is"

    tap(browser, browser.find_element(By.ID, "map-all"))
    wait(browser, lambda d: len(map_labels(d)) == 15, "Show all did not show every chapter")
    assert browser.find_element(By.ID, "map-all").get_attribute("aria-pressed") == "true"
    assert all(label["size"] >= 12 for label in map_labels(browser))
    assert no_horizontal_scroll(browser)
    browser.refresh()
    wait(browser, lambda d: d.execute_script("return document.getElementById('story-map')?.dataset.ready === 'true'"), "not ready")
    assert len(map_labels(browser)) == 15, "'show all' is a URL a reload keeps"
    browser.back()
    wait(browser, lambda d: len(map_labels(d)) == 3, "Back returns to the reader's own map")

    # A tablet sees the drawing at its own size (scrolled, not squeezed), with the same chapters.
    set_viewport(browser, 768, 1024)
    wait(browser, lambda d: len(map_labels(d)) == 3, "the wide map shows other chapters")
    assert all(label["size"] >= 12 and label["height"] >= 12 for label in map_labels(browser)), map_labels(browser)
    check_console(browser)


def zip_story(story: dict, pictures: dict[str, str]) -> str:
    import zipfile
    folder = Path(tempfile.mkdtemp(prefix="trove-story-zip-"))
    path = folder / "my-story.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("my-story/story.json", json.dumps(story))
        for name, content in pictures.items():
            archive.writestr(f"my-story/resources/{name}", content)
    return str(path)


PICTURE_SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="80" height="50" viewBox="0 0 80 50"><rect width="80" height="50" fill="#36c"/></svg>'
MISSING_COVER = re.compile(r"/resources/missing-cover\.svg - Failed to load resource: the server responded with a status of 404")


def test_an_author_publishes_a_zip_with_a_picture_from_a_phone(stories_server, browser):
    sign_up(browser, stories_server)
    open_hub(browser, stories_server)
    suffix = secrets.token_hex(3)
    story = json.loads(json.dumps(UNREACHABLE_JSON))
    story["story"].update(id=f"zip-{suffix}", name=f"Pictures {suffix}", pic_path="resources/missing-cover.svg")
    story["story"]["chapters"].pop()
    story["story"]["chapters"][0]["pic_path"] = "resources/fork.svg"
    publish(browser, zip_story(story, {"fork.svg": PICTURE_SVG}))
    try:
        wait(browser, lambda d: shown(d, "publish-result"), "the zip was not published: " + text(browser, "publish-errors-box"))
        assert f"Pictures {suffix}" in text(browser, "publish-ok")
        # A cover that cannot load shows the placeholder, not a broken picture (covers load as they scroll in).
        browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", card(browser, "catalog", f"Pictures {suffix}"))
        wait(browser, lambda d: d.execute_script(
            "const li = [...document.querySelectorAll('#catalog-list .st-card')].find(li => li.textContent.includes(arguments[0]));"
            "return !!li && !!li.querySelector('.st-cover-none') && !li.querySelector('img.st-cover')", f"Pictures {suffix}"),
            "a cover that cannot load does not show the placeholder")
        tap(browser, card_button(browser, "catalog", f"Pictures {suffix}", "Read"))
        wait(browser, lambda d: d.execute_script("return document.getElementById('reader')?.dataset.ready === 'true'"), "the reader did not open")
        wait(browser, picture_loaded, "the zip's picture does not load in the reader")
        severe = [e for e in browser_support.severe_console_entries(browser) if not MISSING_COVER.search(e.get("message", ""))]
        assert not severe, severe
    finally:
        # Withdrawn, so that no later page on this shared server asks for its missing cover.
        call(browser, "DELETE", f"{API}/zip-{suffix}")


def test_a_parse_error_is_printed_once(stories_server, browser):
    sign_up(browser, stories_server)
    open_hub(browser, stories_server)
    publish(browser, story_file('{"story": {"id": "x", ', ".json"))
    wait(browser, lambda d: shown(d, "publish-errors-box"), "a broken file showed no error")
    box = text(browser, "publish-errors-box")
    assert box.count("not valid JSON") == 1, f"the error is printed more than once: {box!r}"
    check_console(browser, allow_refused=True)


def test_the_byline_of_an_uploaded_story_is_its_accounts(stories_server, browser):
    """An upload whose file says it is by "Trove" (the house) is shown under its account, the file's name beside it."""
    username = sign_up(browser, stories_server)
    open_hub(browser, stories_server)
    suffix = secrets.token_hex(3)
    story = json.loads(json.dumps(UNREACHABLE_JSON))
    story["story"].update(id=f"byline-{suffix}", name=f"Byline {suffix}", author="Trove")
    publish(browser, story_file(json.dumps(story), ".json"))
    wait(browser, lambda d: f"Byline {suffix}" in titles(d, "catalog"), "the story was not published")
    line = card(browser, "catalog", f"Byline {suffix}").find_element(By.CSS_SELECTOR, ".st-author").text
    assert line == f"by {username} (writing as Trove)", f"the byline is not the account's: {line!r}"
    assert card_button(browser, "library", f"Byline {suffix}", "Remove"), "a published story joins its author's library"
    browser.execute_script("arguments[0].click()", card(browser, "catalog", f"Byline {suffix}").find_element(By.CSS_SELECTOR, ".st-byline"))
    wait(browser, lambda d: hub_view(d) == f"catalog:Stories by {username}", "the byline does not lead to the author's stories")
    assert titles(browser, "catalog") == [f"Byline {suffix}"]
    check_console(browser)


def test_the_new_views_pass_axe(stories_server, browser):
    from test_accessibility import assert_accessible  # the one axe-core check, not a copy

    open_story(browser, stories_server)
    take(browser, "3")
    open_hub(browser, stories_server, "library")
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#library-list .st-progress"), "the library card shows no progress")
    assert_accessible(browser, "the library with a story's progress")
    tab(browser, "authors")
    assert_accessible(browser, "the authors")
    tap(browser, browser.find_element(By.CSS_SELECTOR, "#authors-list .st-author-link"))
    wait(browser, lambda d: hub_view(d).startswith("catalog:Stories by"), "an author's stories did not open")
    browser.execute_script("document.getElementById('sources').open = true")
    assert_accessible(browser, "one author's stories, with where the stories come from")
    browser.get(stories_server + "/stories/gull-rock/map#all")
    wait(browser, lambda d: d.execute_script("return document.getElementById('story-map')?.dataset.ready === 'true'"), "the map never became ready")
    assert_accessible(browser, "the map with every chapter shown")


# ---------- Interactive stories: Twine with variables and conditions, played by the server ----------
# "The Night Ferry" (samples/stories/twine-harlowe/story.html, Harlowe 3): you start with 2 coins on the Dock;
# the Warehouse has a coin to pick up and a lantern to take (each once, remembered in $foundCoin and $lantern);
# from Dock Again you pay 3 coins for the Crossing, which ends "You are home." only with the lantern and
# otherwise (goto:)es Adrift ("cold and lost").


def ferry_id(driver, base: str) -> str:
    # The hub finishes its start (it keeps the catalog on the device) before the test opens a reader, as a person's
    # would: once, in a CI run of WebKit beside Chromium, a reader opened while the hub was starting never became
    # ready (its cause not pinned down; the test alone passed every time).
    driver.get(base + "/stories")
    wait(driver, lambda d: d.execute_script("return document.getElementById('stories').dataset.ready === 'true'"),
         "the stories page never became ready")
    status, body = call(driver, "GET", API)
    assert status == 200, body
    stories = body["stories"] if isinstance(body, dict) else body
    found = [s["id"] for s in stories if s["name"] == FERRY]
    assert found, f"{FERRY!r} is not in the catalog: {[s['name'] for s in stories]}"
    return found[0]


def step(driver) -> int:
    return int(driver.execute_script("return document.getElementById('reader').dataset.step ?? '-1'"))


def at(driver, passage: str, number: int) -> bool:
    return chapter(driver) == passage and step(driver) == number and not driver.execute_script(
        "return document.getElementById('reader').hasAttribute('aria-busy')")


def choice_texts(driver) -> list[str]:
    return driver.execute_script("return [...document.querySelectorAll('#choices .st-choice')].map(b => b.textContent.trim())")


def story_text(driver) -> str:
    return text(driver, "chapter-text")


def test_the_night_ferry_ends_home_only_with_the_lantern_taken_early(stories_server, browser):
    story = ferry_id(browser, stories_server)
    status, summary = call(browser, "GET", f"{API}/{story}")
    assert status == 200 and summary["interactive"] is True, summary.get("interactive")
    open_story(browser, stories_server, story)
    assert at(browser, "Dock", 0) and "you have 2" in story_text(browser), story_text(browser)
    choose(browser, "Search the warehouse")
    choose(browser, "Take the old lantern")
    assert at(browser, "Dock Again", 2)
    assert "a lantern that still holds oil" in story_text(browser), "the variable set in the warehouse is printed"
    assert "Pay the ferryman" not in choice_texts(browser), "2 coins are not enough"
    choose(browser, "Search the warehouse again")
    assert "Take the old lantern from its hook" not in choice_texts(browser), "the lantern is taken already"
    choose(browser, "Pick up the coin")
    choose(browser, "Pay the ferryman")
    assert "You are home." in story_text(browser) and "cold and lost" not in story_text(browser)
    assert shown(browser, "ending") and text(browser, "ending-found").startswith("Endings found: 1 of ")
    assert len(browser.find_elements(By.CSS_SELECTOR, "#trail li")) == step(browser) + 1 == 6

    # Without the lantern, the same crossing is the other ending; the endings found add up.
    tap(browser, browser.find_element(By.ID, "ending-restart"))
    confirm(browser, True)
    wait(browser, lambda d: at(d, "Dock", 0), "restart did not go back to the Dock")
    choose(browser, "Search the warehouse")
    choose(browser, "Pick up the coin")
    assert "a lantern" not in story_text(browser)
    choose(browser, "Pay the ferryman")
    assert "cold and lost" in story_text(browser) and "You are home." not in story_text(browser)
    found = text(browser, "ending-found")
    assert shown(browser, "ending") and found.startswith("Endings found: 2 of ") and found.endswith(": Crossing, Adrift"), \
        f"the ending does not name the two endings found: {found!r}"
    _, played = call(browser, "GET", f"{API}/{story}/play")
    assert played["is_ending"] and len(played["endings_found"]) == 2, played
    check_console(browser)


def test_a_choice_on_a_page_left_behind_does_not_take_another_passages_choice(stories_server, browser):
    """The story read on elsewhere (a phone) while this page still shows the dock: its first choice there must not be
    taken as the first choice of the passage the phone reached. The page says so and shows that place instead."""
    story = ferry_id(browser, stories_server)
    open_story(browser, stories_server, story)
    assert at(browser, "Dock", 0)
    status, phone = call(browser, "POST", f"{API}/{story}/play", {"choice": 0, "at": 0})  # the phone: to the warehouse
    assert status == 200 and phone["passage"] == "Warehouse", phone
    choose_from = browser.execute_script("return document.querySelector('#choices .st-choice').textContent.trim()")
    assert choose_from.startswith("Search the warehouse"), choose_from
    tap(browser, browser.find_element(By.CSS_SELECTOR, "#choices .st-choice"))
    wait(browser, lambda d: "changed elsewhere" in d.execute_script(
        "return [...document.querySelectorAll('.toast')].map(t => t.textContent).join(' ')"), "no word that the place moved")
    wait(browser, lambda d: at(d, "Warehouse", 1), "the page does not show the place the story was read to")
    _, played = call(browser, "GET", f"{API}/{story}/play")
    assert played["step"] == 1 and played["trail"] == ["Dock", "Warehouse"], f"a choice was taken from the wrong passage: {played}"


def test_back_in_a_played_story_restores_the_variables_and_reload_keeps_the_place(stories_server, browser):
    story = ferry_id(browser, stories_server)
    open_story(browser, stories_server, story)
    choose(browser, "Search the warehouse")
    choose(browser, "Take the old lantern")
    choose(browser, "Search the warehouse again")
    choose(browser, "Pick up the coin")
    assert at(browser, "Dock Again", 4) and "You have 3 coins and a lantern" in story_text(browser), story_text(browser)
    assert browser.execute_script("return location.hash") == "#chapter/Dock%20Again/4"

    browser.back()
    wait(browser, lambda d: at(d, "Warehouse", 3), "Back did not show the passage before")
    assert "Pick up the coin glinting on the floor" in choice_texts(browser), "Back did not undo picking up the coin"
    browser.back()
    browser.back()
    wait(browser, lambda d: at(d, "Warehouse", 1), "two more Backs did not reach the first visit to the warehouse")
    assert "Take the old lantern from its hook" in choice_texts(browser), "the lantern is not back on its hook"
    _, played = call(browser, "GET", f"{API}/{story}/play")
    assert played["step"] == 1 and played["trail"] == ["Dock", "Warehouse"], played
    browser.forward()
    wait(browser, lambda d: at(d, "Dock Again", 2), "Forward did not take the lantern again")
    assert "a lantern that still holds oil" in story_text(browser)
    browser.back()
    wait(browser, lambda d: at(d, "Warehouse", 1), "Back did not return to the warehouse")

    # Another branch from there: without the lantern the crossing ends adrift.
    choose(browser, "Pick up the coin")
    assert at(browser, "Dock Again", 2) and "lantern" not in story_text(browser)
    browser.refresh()
    wait(browser, lambda d: d.execute_script("return document.getElementById('reader').dataset.ready === 'true'"), "the reader never became ready")
    assert at(browser, "Dock Again", 2), "a reload did not keep the place"
    assert browser.execute_script("return location.hash") == "#chapter/Dock%20Again/2"
    assert "You have 3 coins" in story_text(browser)
    choose(browser, "Pay the ferryman")
    assert "cold and lost" in story_text(browser), "the ending did not follow the variables restored by Back"

    # The in-app Back and the trail rewind the same way.
    tap(browser, browser.find_element(By.ID, "back"))
    wait(browser, lambda d: at(d, "Dock Again", 2), "the Back button did not go back a step")
    browser.execute_script("document.getElementById('trail-box').open = true")
    tap(browser, browser.find_element(By.CSS_SELECTOR, "#trail li:first-child button"))
    wait(browser, lambda d: at(d, "Dock", 0), "the trail did not rewind to the start")
    assert "you have 2" in story_text(browser)
    check_console(browser)


def test_a_played_story_fits_a_phone_and_passes_axe(stories_server, browser):
    story = ferry_id(browser, stories_server)
    set_viewport(browser, 375, 667)
    open_story(browser, stories_server, story)
    choose(browser, "Search the warehouse")
    assert no_horizontal_scroll(browser, 375)
    small = browser.execute_script(
        "return [...document.querySelectorAll('#choices .st-choice, #back, #restart')].filter(b => {"
        " const r = b.getBoundingClientRect(); return r.width < 44 || r.height < 44 }).map(b => b.textContent)")
    assert not small, f"controls under 44 px: {small}"
    from test_accessibility import assert_accessible  # the one axe-core check, not a copy

    browser.execute_script("document.getElementById('trail-box').open = true")
    assert_accessible(browser, "a played story with its trail open")
    assert_page_weighs_under(browser)
    check_console(browser)


@pytest.fixture
def ferry_restartable():
    """The Night Ferry alone on a server this test can stop and start again (the same port and database)."""
    from conftest import STORY_SAMPLES, _run_trove, _running_trove, _trove_binary, free_port

    binary = _trove_binary()
    workdir = Path(tempfile.mkdtemp(prefix="trove-ferry-restart-"))
    database = workdir / "trove.sqlite"
    _run_trove(binary, "migrate", "--database", str(database))
    _run_trove(binary, "import", "story", str(STORY_SAMPLES / "twine-harlowe" / "story.html"), "--database", str(database))
    port = free_port()
    return lambda: _running_trove(binary, workdir, database, port=port)


def ferry_kept(driver, story: str) -> bool | dict:
    """Waits until the service worker holds the story's JSON, its reader page and the reader's scripts."""
    return driver.execute_async_script(
        """
        const [story, done] = arguments;
        const deadline = Date.now() + 12000;
        const reader = [...document.scripts].find(s => s.src.endsWith('/stories/reader.js'));
        (async function poll() {
          const found = {
            story: !!(await caches.match('/api/v1/stories/' + story, {ignoreVary: true})),
            page: !!(await caches.match('/stories/' + story, {ignoreVary: true})),
            reader: !!(reader && await caches.match(reader.src)),
            play: !!(reader && await caches.match(reader.src.replace(/reader\\.js$/, 'play.js'))),
            active: !!(await navigator.serviceWorker.getRegistration())?.active,
          };
          if (Object.values(found).every(Boolean)) return done(true);
          if (Date.now() > deadline) return done(found);
          setTimeout(poll, 200);
        })();
        """, story)


def test_offline_a_played_story_says_it_needs_a_connection_and_shows_the_last_passage(ferry_restartable, browser):
    with ferry_restartable() as base:
        story = ferry_id(browser, base)
        open_hub(browser, base)  # the service worker is installed before the story is opened
        open_story(browser, base, story)
        choose(browser, "Search the warehouse")
        choose(browser, "Take the old lantern")
        kept = ferry_kept(browser, story)
        assert kept is True, f"the service worker did not keep the story: {kept}"

    # The server is stopped: the page and the story come from the service worker, the variables cannot.
    open_story(browser, base, story)
    assert at(browser, "Dock Again", 2), "offline, the reader did not show the last passage read"
    assert "a lantern that still holds oil" in story_text(browser)
    assert shown(browser, "offline-note") and "needs a connection" in text(browser, "offline-note")
    tap(browser, wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#choices .st-choice"), "no choices offline")[0])
    wait(browser, lambda d: not d.execute_script("return document.getElementById('reader').hasAttribute('aria-busy')"), "the choice never settled")
    assert at(browser, "Dock Again", 2) and shown(browser, "offline-note"), "offline, a choice moved without the server"

    with ferry_restartable():
        choose(browser, "Search the warehouse again")
        wait(browser, lambda d: at(d, "Warehouse", 3), "with the server back, the story did not go on")
        assert not shown(browser, "offline-note"), "the reader still says it is offline"
        assert "Take the old lantern from its hook" not in choice_texts(browser), "the server's variables were lost"
