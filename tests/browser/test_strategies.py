"""Oblique Strategies: what a person does with the deck, in a real browser.

The `strategies_server` fixture serves a database holding the small test deck from conftest.py
(STRATEGIES_DECK_INI): Edition 1 and 2 with four cards each, and an "Extra" section with one.
Each test has a fresh browser, so a fresh guest profile with no favourites.
"""

from __future__ import annotations

import html
import json
import time

import pytest
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from browser_support import (
    OFFLINE_WRITES, Finger, add_preload_script, assert_page_weighs_under, call, emulate_media, outbox, set_viewport, wait, wait_for_layout,
)

PROMPT = "Tap for an Oblique Strategy"
DECK = {
    "Honour the accident as a plan",
    "Begin with the ending",
    "Make it smaller, then smaller again",
    "Whisper the loud part",
    "Honor the accident as a plan",
    "Émphasize the seams",
    "Leave a gap for the listener",
    "Take a walk around the problem",
}
DECK_SIZE = 9  # "Begin with the ending" is in both editions
ALL_ROWS = 8  # … and one row in All, naming both



def open_strategies(driver, server: str, fragment: str = "") -> None:
    driver.get(server + "/strategies" + fragment)
    # The module has run once the prompt card is marked as such (or a deep-linked card is shown).
    wait(driver, lambda d: d.execute_script(
        "const draw = document.getElementById('draw');"
        "return draw.classList.contains('is-prompt') || document.getElementById('card-meta').textContent !== ''"
    ), "the strategies page never became ready")


def card_text(driver) -> str:
    return driver.find_element(By.ID, "card-text").text.strip()


def favourite_buttons(driver) -> tuple[bool, bool]:
    """(add enabled, remove enabled)."""
    return (
        driver.find_element(By.ID, "fav-add").is_enabled(),
        driver.find_element(By.ID, "fav-remove").is_enabled(),
    )


def wait_for_one_favourite_button(driver) -> tuple[bool, bool]:
    def exactly_one(d):
        state = favourite_buttons(d)
        return state if state[0] != state[1] else False

    try:
        return WebDriverWait(driver, 10).until(exactly_one)
    except TimeoutException:
        raise AssertionError(
            f"exactly one favourite button should be enabled once a card shows; (add, remove) = {favourite_buttons(driver)}"
        ) from None


def draw_by_tapping(driver) -> str:
    """Tap the prompt card and wait for the first card to show."""
    driver.find_element(By.ID, "draw").click()
    wait(
        driver,
        # The new card fades in from transparent, and WebDriver reads no text while it is (WebKit catches that moment).
        lambda d: card_text(d) not in (PROMPT, "") and d.find_element(By.ID, "draw").get_attribute("aria-busy") is None,
        f"tapping the card did not show a card (it still reads {card_text(driver)!r})",
    )
    return card_text(driver)


def watch_favourite_buttons(driver) -> None:
    """Records, from now on, whether both favourite buttons are ever enabled at the same moment."""
    driver.execute_script(
        """
        const add = document.getElementById('fav-add');
        const remove = document.getElementById('fav-remove');
        window.__bothEnabled = !add.disabled && !remove.disabled;
        const check = () => { if (!add.disabled && !remove.disabled) window.__bothEnabled = true; };
        const observer = new MutationObserver(check);
        observer.observe(add, { attributes: true });
        observer.observe(remove, { attributes: true });
        """
    )


def both_were_ever_enabled(driver) -> bool:
    return bool(driver.execute_script("return window.__bothEnabled"))


def fetch_json(driver, path: str):
    """GET an API path from inside the page, with its cookies (the guest profile)."""
    result = driver.execute_async_script(
        """
        const [path, done] = arguments;
        fetch(path, {credentials: 'same-origin', headers: {Accept: 'application/json'}})
          .then(r => r.text().then(t => done({status: r.status, body: t})))
          .catch(e => done({status: 0, body: String(e)}));
        """,
        path,
    )
    assert result["status"] == 200, f"GET {path} answered {result['status']}: {result['body'][:300]}"
    return json.loads(result["body"])


def visible_all_items(driver) -> list[str]:
    return [b.text.strip() for b in driver.find_elements(By.CSS_SELECTOR, "#all-list .os-item-text") if b.is_displayed()]


def open_tab(driver, name: str) -> None:
    """Click a tab as a person would: through "More" when the tab is in that menu at this width (a phone)."""
    tab = driver.find_element(By.ID, f"tab-{name}")
    if not tab.is_displayed():
        driver.find_element(By.ID, "tab-more").click()
        wait(driver, lambda d: tab.is_displayed(), f"'More' did not show the {name} tab")
    tab.click()


def test_tapping_the_card_draws_a_strategy(strategies_server, browser, assert_no_console_errors):
    open_strategies(browser, strategies_server)
    assert card_text(browser) == PROMPT
    assert favourite_buttons(browser) == (False, False), "before a draw neither favourite button may be enabled"
    assert not browser.find_element(By.ID, "share").is_enabled(), "nothing to share before a draw"

    text = draw_by_tapping(browser)

    assert text in DECK, f"the card shows {text!r}, which is not in the deck"
    meta = browser.find_element(By.ID, "card-meta").text
    labels = [section["label"] for section in fetch_json(browser, "/api/v1/strategies/editions")]
    assert meta.startswith(tuple(f"{label} · card " for label in labels)), f"the meta line reads {meta!r}; the editions are {labels}"
    add, remove = wait_for_one_favourite_button(browser)
    assert add and not remove, "a fresh profile has no favourites, so only 'Add to favourites' fits"
    assert browser.find_element(By.ID, "share").is_enabled(), "a drawn card can be shared"
    assert_no_console_errors(browser)


def test_a_finger_tap_on_the_card_draws_a_strategy(strategies_server, browser, assert_no_console_errors):
    """The seed's gesture, by touch: a finger taps the card (the button alternative is the card itself, a <button>,
    clicked above and pressed with Space below)."""
    open_strategies(browser, strategies_server)
    draw = browser.find_element(By.ID, "draw")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", draw)
    rect = browser.execute_script(
        "const r = arguments[0].getBoundingClientRect(); return {x: r.left + r.width / 2, y: r.top + r.height / 2}", draw)
    Finger(browser).down(rect["x"], rect["y"]).up()
    wait(browser, lambda d: card_text(d) in DECK and d.find_element(By.ID, "draw").get_attribute("aria-busy") is None,
         f"a finger's tap did not draw a card (it reads {card_text(browser)!r})")
    assert_no_console_errors(browser)


def test_space_draws_a_card(strategies_server, browser, assert_no_console_errors):
    open_strategies(browser, strategies_server)
    ActionChains(browser).send_keys(Keys.SPACE).perform()
    wait(browser, lambda d: card_text(d) in DECK, f"Space did not draw a card; the card shows {card_text(browser)!r}")
    wait_for_one_favourite_button(browser)
    assert_no_console_errors(browser)


def test_a_favourite_survives_a_reload_and_is_listed(strategies_server, browser, assert_no_console_errors):
    open_strategies(browser, strategies_server)
    text = draw_by_tapping(browser)
    wait_for_one_favourite_button(browser)
    browser.find_element(By.ID, "fav-add").click()
    wait(browser, lambda d: favourite_buttons(d) == (False, True),
         f"after 'Add to favourites' only 'Remove' should be enabled; (add, remove) = {favourite_buttons(browser)}")
    # The card itself says it is a favourite.
    wait(browser, lambda d: d.find_element(By.ID, "card-fav").is_displayed(), "the card does not show that it is a favourite")
    assert browser.find_element(By.ID, "card-fav").text.strip() == "Favourite"

    favourites = fetch_json(browser, "/api/v1/strategies/favourites")
    assert [card["strategy"] for card in favourites] == [text], f"the server keeps {favourites}, expected {text!r}"
    card_id = favourites[0]["id"]

    browser.get(strategies_server + "/")  # leave the page, so the deep link is a fresh load
    open_strategies(browser, strategies_server, f"#card-{card_id}")
    wait(browser, lambda d: card_text(d) == text, f"the deep link #card-{card_id} shows {card_text(browser)!r}, not {text!r}")
    wait(browser, lambda d: favourite_buttons(d) == (False, True),
         f"after a reload the favourite should still show as one; (add, remove) = {favourite_buttons(browser)}")
    assert browser.find_element(By.ID, "card-fav").is_displayed(), "after a reload the card no longer shows it is a favourite"

    browser.find_element(By.ID, "tab-favourites").click()
    wait(browser, lambda d: text in [li.text for li in d.find_elements(By.CSS_SELECTOR, "#favourites-list li")][0]
         if d.find_elements(By.CSS_SELECTOR, "#favourites-list li") else False,
         "the Favourites view does not list the favourite")

    # Removing it there updates the list at once and shows the empty state.
    browser.find_element(By.CSS_SELECTOR, "#favourites-list [data-remove]").click()
    wait(browser, lambda d: not d.find_elements(By.CSS_SELECTOR, "#favourites-list li"), "the removed favourite is still listed")
    assert browser.find_element(By.ID, "favourites-empty").is_displayed(), "no empty-state text after removing the last favourite"
    wait(browser, lambda d: fetch_json(d, "/api/v1/strategies/favourites") == [], "the server still has the removed favourite")
    assert_no_console_errors(browser)


def test_the_favourite_buttons_are_never_both_enabled(strategies_server, browser, assert_no_console_errors):
    open_strategies(browser, strategies_server)
    watch_favourite_buttons(browser)
    assert favourite_buttons(browser) == (False, False), "before a draw"

    draw_by_tapping(browser)
    assert wait_for_one_favourite_button(browser) == (True, False), "after a draw"

    browser.find_element(By.ID, "fav-add").click()
    wait(browser, lambda d: favourite_buttons(d) == (False, True), f"after adding: {favourite_buttons(browser)}")
    # Focus moves to the button that is now enabled, so the keyboard is never stranded.
    assert browser.switch_to.active_element.get_attribute("id") == "fav-remove"

    browser.find_element(By.ID, "fav-remove").click()
    wait(browser, lambda d: favourite_buttons(d) == (True, False), f"after removing: {favourite_buttons(browser)}")

    # F toggles the favourite of the shown card.
    browser.execute_script("document.activeElement.blur()")
    ActionChains(browser).send_keys("f").perform()
    wait(browser, lambda d: favourite_buttons(d) == (False, True), f"after pressing F: {favourite_buttons(browser)}")

    assert not both_were_ever_enabled(browser), "'Add to favourites' and 'Remove from favourites' were enabled together"
    assert_no_console_errors(browser)


def test_all_cards_filter_as_you_type(strategies_server, browser, assert_no_console_errors):
    open_strategies(browser, strategies_server)
    browser.find_element(By.ID, "tab-all").click()
    wait(browser, lambda d: len(visible_all_items(d)) == ALL_ROWS,
         f"the All view should list {ALL_ROWS} texts; it shows {visible_all_items(browser)}")
    # Grouped under the editions' labels (with their years where the deck has them), a text in both editions once.
    labels = [section["label"] for section in fetch_json(browser, "/api/v1/strategies/editions")]
    headings = [h.text for h in browser.find_elements(By.CSS_SELECTOR, "#all-list h3")]
    assert headings == labels, f"cards are grouped under {headings}; the editions are {labels}"
    both = browser.find_element(By.XPATH, "//*[@id='all-list']//button[span[.='Begin with the ending']]")
    assert both.find_element(By.CLASS_NAME, "os-item-meta").text == f"In {labels[0]}, {labels[1]}"
    count_before = browser.find_element(By.ID, "all-count").text

    search = browser.find_element(By.ID, "search")
    search.send_keys("EMPHA")  # different case, no accent: still finds "Émphasize"
    wait(browser, lambda d: visible_all_items(d) == ["Émphasize the seams"],
         f"searching 'EMPHA' shows {visible_all_items(browser)}")
    count_after = browser.find_element(By.ID, "all-count").text
    assert count_after != count_before and "1" in count_after, f"the count still reads {count_after!r}"
    assert not browser.find_element(By.XPATH, f"//h3[.='{labels[0]}']").is_displayed(), "an edition with no match still shows"

    search.clear()
    search.send_keys("honour")
    wait(browser, lambda d: visible_all_items(d) == ["Honour the accident as a plan"],
         f"searching 'honour' shows {visible_all_items(browser)}")

    # Choosing a card shows it on the draw view with the right favourite state.
    browser.find_element(By.XPATH, "//*[@id='all-list']//button[.='Honour the accident as a plan']").click()
    wait(browser, lambda d: d.find_element(By.ID, "draw").is_displayed() and card_text(d) == "Honour the accident as a plan",
         "choosing a card did not show it on the draw view")
    assert wait_for_one_favourite_button(browser) == (True, False)
    assert browser.find_element(By.ID, "card-meta").text == f"{labels[0]} · card 1"

    # "/" goes back to the search.
    browser.execute_script("document.activeElement.blur()")
    ActionChains(browser).send_keys("/").perform()
    wait(browser, lambda d: d.switch_to.active_element.get_attribute("id") == "search", "'/' did not focus the search")
    assert browser.find_element(By.ID, "view-all").is_displayed()
    assert_no_console_errors(browser)


def test_the_permalink_page_shows_the_card_and_tells_link_previews(strategies_server, browser, assert_no_console_errors):
    open_strategies(browser, strategies_server)
    cards = fetch_json(browser, "/api/v1/strategies")
    card = next(c for c in cards if c["strategy"] == "Honour the accident as a plan")

    browser.get(f"{strategies_server}/strategies/{card['id']}")
    assert browser.find_element(By.ID, "card-text").text.strip() == card["strategy"]
    description = browser.find_element(By.CSS_SELECTOR, 'meta[property="og:description"]').get_attribute("content")
    assert html.unescape(description) == card["strategy"], f"og:description is {description!r}"
    og_url = browser.find_element(By.CSS_SELECTOR, 'meta[property="og:url"]').get_attribute("content")
    assert og_url.endswith(f"/strategies/{card['id']}"), f"og:url is {og_url!r}"
    assert browser.find_element(By.CSS_SELECTOR, 'meta[property="og:title"]').get_attribute("content") == "Oblique Strategies"
    assert browser.find_element(By.CSS_SELECTOR, 'meta[name="twitter:card"]').get_attribute("content") == "summary_large_image"

    # The same strategy in Edition 2, with the changed word marked.
    others = browser.find_element(By.ID, "others")
    assert "2nd edition (1978)" in others.text
    assert [e.text for e in others.find_elements(By.TAG_NAME, "ins")] == ["Honor"], others.get_attribute("innerHTML")
    assert [e.text for e in others.find_elements(By.TAG_NAME, "del")] == ["Honour"], others.get_attribute("innerHTML")

    # "Open in the deck" shows it on the draw view.
    browser.find_element(By.ID, "open-in-deck").click()
    wait(browser, lambda d: d.find_elements(By.ID, "draw") and card_text(d) == card["strategy"],
         "'Open in the deck' did not show the card")
    assert_no_console_errors(browser)


def test_a_card_only_in_one_edition_says_so(strategies_server, browser):
    open_strategies(browser, strategies_server)
    cards = fetch_json(browser, "/api/v1/strategies")
    card = next(c for c in cards if c["strategy"] == "Whisper the loud part")
    browser.get(f"{strategies_server}/strategies/{card['id']}")
    assert "Only in this edition" in browser.find_element(By.CSS_SELECTOR, ".os-others").text


def test_the_draw_screen_fits_a_320px_phone(strategies_server, browser, assert_no_console_errors):
    set_viewport(browser, 320, 640, mobile=True)
    open_strategies(browser, strategies_server)
    draw_by_tapping(browser)
    inner, scroll = browser.execute_script("return [window.innerWidth, document.documentElement.scrollWidth]")
    assert inner == 320 and scroll <= inner, f"at 320px the page is {scroll}px wide"
    small = browser.execute_script(
        """
        return [...document.querySelectorAll('#view-draw button, .os-tabs button, #view-draw summary')]
          .filter(el => el.offsetParent !== null)
          .map(el => [el.id || el.textContent.trim(), el.getBoundingClientRect()])
          .filter(([, r]) => r.width < 44 || r.height < 44)
          .map(([name, r]) => `${name}: ${Math.round(r.width)}x${Math.round(r.height)}`);
        """
    )
    assert not small, f"controls smaller than 44x44 px: {small}"
    size = browser.execute_script("return parseFloat(getComputedStyle(document.getElementById('card-text')).fontSize)")
    assert size >= 24, f"the card text is only {size}px"
    assert_no_console_errors(browser)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_card_is_black_in_both_themes(strategies_server, browser, scheme):
    emulate_media(browser, color_scheme=scheme)
    open_strategies(browser, strategies_server)
    background = browser.execute_script("return getComputedStyle(document.getElementById('draw')).backgroundColor")
    assert background == "rgb(0, 0, 0)", f"in the {scheme} theme the card is {background}"


def mine_fetches(driver) -> int:
    """How many requests to /api/v1/strategies/mine the page has had answered."""
    return driver.execute_script(
        "return performance.getEntriesByType('resource').filter(e => new URL(e.name).pathname === '/api/v1/strategies/mine').length")


def test_writing_editing_and_deleting_my_own_card(strategies_server, browser, assert_no_console_errors):
    open_strategies(browser, strategies_server)
    open_tab(browser, "mine")
    text_box = browser.find_element(By.ID, "mine-text")
    wait(browser, lambda d: d.find_element(By.ID, "mine-empty").is_displayed(), "no empty state for a profile without cards")

    # An empty card is refused with a message a screen reader announces.
    browser.find_element(By.ID, "mine-add").click()
    error = browser.find_element(By.ID, "mine-error")
    wait(browser, lambda d: error.text.strip() != "", "adding an empty card shows no error")
    assert error.get_attribute("role") == "alert"

    text_box.send_keys("Turn the page upside down")
    assert browser.find_element(By.ID, "mine-count").text.startswith("25 of 280"), browser.find_element(By.ID, "mine-count").text
    browser.find_element(By.ID, "mine-add").click()
    wait(browser, lambda d: [p.text for p in d.find_elements(By.CSS_SELECTOR, "#mine-list .os-mine-text")] == ["Turn the page upside down"],
         "the new card is not listed")
    assert error.text.strip() == "", "the error stays after a successful add"

    # Edit it inline.
    browser.find_element(By.CSS_SELECTOR, '#mine-list [data-action="edit"]').click()
    editor = wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, "#mine-list textarea"), "no inline editor")
    editor.clear()
    editor.send_keys("Turn the page around")
    editor.find_element(By.XPATH, "./ancestor::form").find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait(browser, lambda d: [p.text for p in d.find_elements(By.CSS_SELECTOR, "#mine-list .os-mine-text")] == ["Turn the page around"],
         "the edited card is not listed with its new words")

    # Drawing from "My cards" gives that card.
    browser.find_element(By.ID, "tab-draw").click()
    browser.find_element(By.CSS_SELECTOR, "#settings summary").click()
    browser.find_element(By.CSS_SELECTOR, '#source option[value="mine"]').click()
    draw_by_tapping(browser)
    assert card_text(browser) == "Turn the page around"
    assert browser.find_element(By.ID, "card-meta").text == "My card"

    # Delete it, after confirming. Showing the tab fetches the cards again while the list drawn before is on screen;
    # with nothing changed, the Delete button drawn before must still be the one on screen once they are back (a
    # list drawn again would swap it under the finger: a stale element here).
    delete = browser.find_element(By.CSS_SELECTOR, '#mine-list [data-action="delete"]')
    fetches = mine_fetches(browser)
    open_tab(browser, "mine")
    wait(browser, lambda d: mine_fetches(d) > fetches, "showing My cards did not fetch the cards again")
    wait_for_layout(browser, "My cards")
    delete.click()
    wait(browser, lambda d: d.find_element(By.ID, "confirm-ok").is_displayed(), "no confirmation before deleting")
    browser.find_element(By.ID, "confirm-ok").click()
    wait(browser, lambda d: not d.find_elements(By.CSS_SELECTOR, "#mine-list li"), "the deleted card is still listed")
    assert fetch_json(browser, "/api/v1/strategies/mine") == []
    assert_no_console_errors(browser)


def sync_indicator(driver) -> str:
    """The shared offline layer's line in the header (js/sync.js): "All saved", "N changes waiting"."""
    return driver.execute_script("const b = document.getElementById('sync-status'); return b ? b.textContent : ''")


def mine_texts(driver) -> list[str]:
    return [p.text for p in driver.find_elements(By.CSS_SELECTOR, "#mine-list .os-mine-text")]


def test_offline_draws_from_the_deck_and_favourites_wait_for_the_network(strategies_restartable, browser):
    # Offline is the server gone (stopped, then started again on the same port and database): the same on both engines.
    with strategies_restartable() as base:
        open_strategies(browser, base)
        # The deck loads after the first paint; the All view shows when it is in memory.
        browser.find_element(By.ID, "tab-all").click()
        wait(browser, lambda d: len(visible_all_items(d)) == ALL_ROWS, "the deck never loaded")
        browser.find_element(By.ID, "tab-draw").click()
        wait(browser, lambda d: sync_indicator(d) == "All saved", f"the indicator reads {sync_indicator(browser)!r}")

    # The server is stopped here.
    draw_by_tapping(browser)
    assert card_text(browser) in DECK
    wait(browser, lambda d: d.find_element(By.ID, "offline-note").is_displayed(), "no notice that the card was drawn offline")
    wait_for_one_favourite_button(browser)
    browser.find_element(By.ID, "fav-add").click()
    wait(browser, lambda d: favourite_buttons(d) == (False, True), "adding a favourite offline did not show at once")
    wait(browser, lambda d: d.find_element(By.ID, "sync-note").is_displayed(), "no note that the favourite waits")
    # Both wait in the shared outbox (js/sync.js), not in a queue of the page's own: the draw (for the history) and
    # the favourite.
    wait(browser, lambda d: sync_indicator(d) == "2 changes waiting", f"the indicator reads {sync_indicator(browser)!r}")
    assert browser.execute_script("return localStorage.getItem('trove.strategies.pendingFavourites')") is None
    drawn = card_text(browser)
    with strategies_restartable():
        browser.execute_script("window.dispatchEvent(new Event('online'))")
        wait(browser, lambda d: sync_indicator(d) == "All saved", f"the queued changes were never sent: {sync_indicator(browser)!r}",
             timeout=30)
        favourites = fetch_json(browser, "/api/v1/strategies/favourites")
        assert [card["strategy"] for card in favourites] == [drawn]
        # The draw made offline is in the history once, as it was drawn.
        history = fetch_json(browser, "/api/v1/strategies/history")
        assert [entry["card"]["strategy"] for entry in history] == [drawn], f"the history holds {history}"
        wait(browser, lambda d: not d.find_element(By.ID, "sync-note").is_displayed(), "the note that favourites wait stayed")


def history_notes(driver) -> list[str]:
    return driver.execute_script("return [...document.querySelectorAll('#history-list input[name=note]')].map(i => i.value)")


def test_own_cards_favourites_and_notes_made_offline_reach_the_server_once_even_after_a_reload(strategies_restartable, browser):
    """A card written, edited and favourited offline, a note on a draw, and a reload while offline: back online, the
    server has the card once, with its last words, as a favourite (the favourite named the card's temporary id),
    and the note."""
    with strategies_restartable() as base:
        kept = visit_and_wait_until_kept(browser, base)
        assert kept is True, f"the service worker did not keep the page for offline use: {kept}"
        open_strategies(browser, base)  # now through the worker, which keeps the views that load when first shown
        drawn = draw_by_tapping(browser)  # recorded in the history
        open_tab(browser, "history")
        wait(browser, lambda d: history_notes(d) == [""], f"the draw is not in the history: {history_notes(browser)}")
        open_tab(browser, "mine")
        wait(browser, lambda d: d.find_element(By.ID, "mine-empty").is_displayed(), "My cards did not open")
        wait(browser, lambda d: d.execute_async_script(
            "const done = arguments[0]; Promise.all([...document.scripts].filter(s => s.src.endsWith('/strategies/strategies.js'))"
            ".map(s => caches.match(s.src.replace(/strategies\\.js$/, 'mine.js')))).then(r => done(r.length > 0 && r.every(Boolean)))"),
            "the service worker did not keep mine.js")

    # The server is stopped here: write a card, edit it, show it and make it a favourite.
    text_box = browser.find_element(By.ID, "mine-text")
    text_box.send_keys("Walk the dog backwards")
    browser.find_element(By.ID, "mine-add").click()
    wait(browser, lambda d: mine_texts(d) == ["Walk the dog backwards"], f"offline, the new card is not listed: {mine_texts(browser)}")
    browser.find_element(By.CSS_SELECTOR, '#mine-list [data-action="edit"]').click()
    editor = wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, "#mine-list textarea"), "no inline editor")
    editor.clear()
    editor.send_keys("Walk the cat backwards")
    editor.find_element(By.XPATH, "./ancestor::form").find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait(browser, lambda d: mine_texts(d) == ["Walk the cat backwards"], f"offline, the edit did not show: {mine_texts(browser)}")
    browser.find_element(By.CSS_SELECTOR, '#mine-list [data-action="show"]').click()
    wait(browser, lambda d: card_text(d) == "Walk the cat backwards", "Show did not put the card on the draw view")
    assert browser.find_element(By.ID, "card-meta").text == "My card"
    wait_for_one_favourite_button(browser)
    browser.find_element(By.ID, "fav-add").click()
    wait(browser, lambda d: favourite_buttons(d) == (False, True), "offline, the favourite did not show at once")
    wait(browser, lambda d: sync_indicator(d) == "3 changes waiting", f"the indicator reads {sync_indicator(browser)!r}")

    # A note on the draw made before, in the history kept on the device.
    open_tab(browser, "history")
    wait(browser, lambda d: history_notes(d) == [""], f"offline, the kept history is not shown: {history_notes(browser)}")
    note = browser.find_element(By.CSS_SELECTOR, "#history-list input[name=note]")
    note.send_keys("Tried it on the bridge")
    note.find_element(By.XPATH, "./ancestor::form").find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, "#history-list .os-saved").text.startswith("Saved"), "offline, the note was not kept")
    wait(browser, lambda d: sync_indicator(d) == "4 changes waiting", f"the indicator reads {sync_indicator(browser)!r}")

    # Closed and opened again while offline: the changes are still on the device, and so is the card and the note.
    browser.get("about:blank")
    browser.get(base + "/strategies#mine")
    wait(browser, lambda d: mine_texts(d) == ["Walk the cat backwards"], f"offline after a reload, My cards shows {mine_texts(browser)}")
    assert sync_indicator(browser) == "4 changes waiting", sync_indicator(browser)
    open_tab(browser, "history")
    wait(browser, lambda d: history_notes(d) == ["Tried it on the bridge"], f"offline after a reload, the note reads {history_notes(browser)}")

    with strategies_restartable():
        browser.execute_script("window.dispatchEvent(new Event('online'))")
        wait(browser, lambda d: sync_indicator(d) == "All saved", f"back online, the outbox did not empty: {sync_indicator(browser)!r}",
             timeout=30)
        mine = fetch_json(browser, "/api/v1/strategies/mine")
        assert [card["strategy"] for card in mine] == ["Walk the cat backwards"], f"the server has {mine}"
        favourites = fetch_json(browser, "/api/v1/strategies/favourites")
        assert [card["id"] for card in favourites] == [mine[0]["id"]], f"the favourite did not follow the card: {favourites}"
        history = fetch_json(browser, "/api/v1/strategies/history")
        assert [(entry["card"]["strategy"], entry["note"]) for entry in history] == [(drawn, "Tried it on the bridge")], history
        open_tab(browser, "mine")
        # The page goes by the server's id now: the card's Show opens its URL.
        wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, "#mine-list li").get_attribute("data-mine") == str(mine[0]["id"]),
             "the listed card still has its temporary id")


def edit_own_card(driver, server: str, words: str) -> dict:
    """Writes a card, opens its editor in Mine and types `words`; the card is deleted on another device meanwhile."""
    open_strategies(driver, server)
    status, card = call(driver, "POST", "/api/v1/strategies/mine", {"strategy": "Walk the dog backwards"})
    assert status == 201, card
    open_strategies(driver, server, "#mine")
    wait(driver, lambda d: mine_texts(d) == ["Walk the dog backwards"], f"My cards shows {mine_texts(driver)}")
    driver.find_element(By.CSS_SELECTOR, '#mine-list [data-action="edit"]').click()
    editor = wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "#mine-list textarea"), "no inline editor")
    editor.clear()
    editor.send_keys(words)
    status, body = call(driver, "DELETE", f"/api/v1/strategies/mine/{card['id']}")  # on the phone
    assert status == 204, body
    return card


def test_an_own_card_edited_here_and_deleted_on_another_device_can_be_added_again(strategies_server, browser):
    """Saving the edit said only "The card was not found": the words typed had nowhere to go."""
    edit_own_card(browser, strategies_server, "Walk the cat backwards")
    browser.find_element(By.CSS_SELECTOR, "#mine-list form button[type=submit]").click()
    dialog = wait(browser, lambda d: d.find_element(By.ID, "confirm-dialog").is_displayed() and d.find_element(By.ID, "confirm-dialog"),
                  "saving did not ask what to do with a card deleted elsewhere")
    assert "deleted on another device" in dialog.text and "Walk the cat backwards" in dialog.text, dialog.text
    assert "danger" not in browser.find_element(By.ID, "confirm-ok").get_attribute("class"), "'Add again' is drawn as a danger"
    browser.find_element(By.ID, "confirm-ok").click()
    wait(browser, lambda d: mine_texts(d) == ["Walk the cat backwards"], f"My cards shows {mine_texts(browser)}")
    mine = fetch_json(browser, "/api/v1/strategies/mine")
    assert [card["strategy"] for card in mine] == ["Walk the cat backwards"], f"the server has {mine}"
    wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, "#mine-list li").get_attribute("data-mine") == str(mine[0]["id"]),
         "the listed card does not go by its new id")
    # The dialog's next question, a deletion, is drawn as a danger again.
    browser.find_element(By.CSS_SELECTOR, '#mine-list [data-action="delete"]').click()
    wait(browser, lambda d: d.find_element(By.ID, "confirm-dialog").is_displayed(), "Delete did not ask")
    assert "danger" in browser.find_element(By.ID, "confirm-ok").get_attribute("class")


def test_an_own_card_edited_offline_and_deleted_on_another_device_is_kept_as_a_new_card(strategies_server, browser):
    add_preload_script(browser, OFFLINE_WRITES)
    edit_own_card(browser, strategies_server, "Walk the cat backwards")
    browser.execute_script("window.__troveOffline = true")
    browser.find_element(By.CSS_SELECTOR, "#mine-list form button[type=submit]").click()
    wait(browser, lambda d: sync_indicator(d) == "1 change waiting", f"the indicator reads {sync_indicator(browser)!r}")
    browser.execute_script("window.__troveOffline = false; window.dispatchEvent(new Event('online'))")
    wait(browser, lambda d: sync_indicator(d) == "All saved", f"the outbox did not empty: {sync_indicator(browser)!r}")
    wait(browser, lambda d: [c["strategy"] for c in fetch_json(d, "/api/v1/strategies/mine")] == ["Walk the cat backwards"],
         f"the edit made offline was lost: {fetch_json(browser, '/api/v1/strategies/mine')}")
    wait(browser, lambda d: mine_texts(d) == ["Walk the cat backwards"], f"My cards shows {mine_texts(browser)}")
    seen = browser.execute_script("return [...window.__troveSeen]")
    assert any("kept as a new card" in text for text in seen), f"the page did not say where the edit went: {seen}"
    assert not [text for text in seen if "Not saved" in text], f"the page said: {seen}"


def test_an_own_card_with_a_long_word_keeps_the_page_as_wide_as_the_phone(strategies_server, browser):
    """A card of one's own with a word longer than the screen made My cards 654 px wide on a 375 px phone."""
    set_viewport(browser, 375, 667)
    open_strategies(browser, strategies_server)
    words = "Try Pneumonoultramicroscopicsilicovolcanoconiosisandthensomemore now"
    status, card = call(browser, "POST", "/api/v1/strategies/mine", {"strategy": words})
    assert status == 201, card
    for fragment in ("#mine", f"#card/{card['id']}"):
        open_strategies(browser, strategies_server, fragment)
        wait(browser, lambda d: words in d.find_element(By.TAG_NAME, "main").text, f"{fragment} does not show the card")
        wait_for_layout(browser)
        width = browser.execute_script("return document.documentElement.scrollWidth")
        assert width <= 375, f"{fragment} is {width} px wide on a 375 px phone"


def test_after_one_visit_the_page_works_offline(strategies_restartable, browser):
    with strategies_restartable() as base:
        kept = visit_and_wait_until_kept(browser, base)
    assert kept is True, f"the service worker did not keep the page for offline use: {kept}"

    # The server is stopped now: offline on both engines.
    browser.get(base + "/strategies")
    wait(browser, lambda d: d.find_elements(By.ID, "draw") and card_text(d) == PROMPT,
         "offline, the strategies page did not load from the cache")
    browser.find_element(By.ID, "draw").click()
    wait(browser, lambda d: card_text(d) in DECK, f"offline, tapping showed {card_text(browser)!r}")
    assert browser.find_element(By.ID, "offline-note").is_displayed()



def test_a_favourite_added_online_is_listed_offline(strategies_restartable, browser):
    """The Favourites view offline shows the list the device kept: it must hold a favourite added (and sent) since
    the list was last read, not only the list as it was then."""
    with strategies_restartable() as base:
        assert visit_and_wait_until_kept(browser, base) is True
        text = draw_by_tapping(browser)
        wait_for_one_favourite_button(browser)
        browser.find_element(By.ID, "fav-add").click()
        wait(browser, lambda d: [c["strategy"] for c in fetch_json(d, "/api/v1/strategies/favourites")] == [text],
             "the favourite did not reach the server")
    browser.get(base + "/strategies")
    wait(browser, lambda d: d.find_elements(By.ID, "draw") and card_text(d) == PROMPT, "offline, the page did not load")
    browser.find_element(By.ID, "tab-favourites").click()
    listed = lambda d: [li.text for li in d.find_elements(By.CSS_SELECTOR, "#favourites-list li")]  # noqa: E731
    wait(browser, lambda d: any(text in item for item in listed(d)), f"offline, the Favourites view lists {listed(browser)}")

def test_a_favourite_removed_offline_and_left_before_its_undo_runs_out_is_removed_when_back(strategies_restartable, browser):
    """Leaving the page commits a removal waiting for its Undo. Offline it cannot be sent, and a page being left
    cannot write IndexedDB: the shared layer keeps it in localStorage and the next page queues it."""
    with strategies_restartable() as base:
        assert visit_and_wait_until_kept(browser, base) is True
        cards = fetch_json(browser, "/api/v1/strategies")[:2]
        for card in cards:
            assert call(browser, "PUT", f"/api/v1/strategies/{card['id']}/favourite")[0] in (200, 201, 204)
        open_strategies(browser, base, "#favourites")
        # In one call: the list may be drawn again between finding a button and reading it.
        listed = lambda d: d.execute_script(  # noqa: E731
            "return [...document.querySelectorAll('#favourites-list [data-remove]')].map((b) => b.dataset.remove)")
        wait(browser, lambda d: sorted(listed(d)) == sorted(str(c["id"]) for c in cards), f"the list is {listed(browser)}")
    kept, doomed = listed(browser)
    browser.find_element(By.CSS_SELECTOR, f'#favourites-list [data-remove="{doomed}"]').click()
    wait(browser, lambda d: listed(d) == [kept], "the removed favourite is still listed")
    # The toast follows the list's redraw: waited for, not asserted at once (WebKit was faster to check).
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, ".toast .toast-action"), "no Undo to leave")
    browser.get(base + "/strategies")
    wait(browser, lambda d: [(e["method"], e["path"]) for e in outbox(d)] == [("DELETE", f"/api/v1/strategies/{doomed}/favourite")],
         f"the removal made as the page went is not waiting: {outbox(browser)}")
    wait(browser, lambda d: sync_indicator(d) == "1 change waiting", f"the indicator reads {sync_indicator(browser)!r}")
    with strategies_restartable():
        browser.execute_script("window.dispatchEvent(new Event('online'))")
        wait(browser, lambda d: [str(c["id"]) for c in fetch_json(d, "/api/v1/strategies/favourites")] == [kept],
             "the favourite removed offline is still on the server", timeout=30)
        wait(browser, lambda d: sync_indicator(d) == "All saved", f"the removal still waits: {sync_indicator(browser)!r}")


def test_own_cards_added_and_deleted_online_are_listed_so_offline(strategies_restartable, browser):
    """My cards offline shows the list the device kept: with a card added and one deleted (both sent) since the
    list was last read, not the list as it was then (a deleted card back with its buttons, a new one missing)."""
    with strategies_restartable() as base:
        assert visit_and_wait_until_kept(browser, base) is True
        open_tab(browser, "mine")
        text_box = browser.find_element(By.ID, "mine-text")
        for words in ("Card kept", "Card deleted"):
            text_box.send_keys(words)
            browser.find_element(By.ID, "mine-add").click()
            wait(browser, lambda d: words in mine_texts(d), f"{words!r} is not listed")
        open_tab(browser, "draw")
        open_tab(browser, "mine")  # read again: the device's copy holds both
        wait(browser, lambda d: mine_texts(d) == ["Card deleted", "Card kept"], f"My cards lists {mine_texts(browser)}")
        text_box.send_keys("Card added")
        browser.find_element(By.ID, "mine-add").click()
        wait(browser, lambda d: "Card added" in mine_texts(d), "the third card is not listed")
        item = [li for li in browser.find_elements(By.CSS_SELECTOR, "#mine-list li") if "Card deleted" in li.text][0]
        item.find_element(By.CSS_SELECTOR, '[data-action="delete"]').click()
        wait(browser, lambda d: d.find_element(By.ID, "confirm-ok").is_displayed(), "no confirmation before deleting")
        browser.find_element(By.ID, "confirm-ok").click()
        wait(browser, lambda d: sorted(c["strategy"] for c in fetch_json(d, "/api/v1/strategies/mine")) == ["Card added", "Card kept"],
             "the changes did not reach the server")
    browser.get(base + "/strategies")
    wait(browser, lambda d: d.find_elements(By.ID, "draw") and card_text(d) == PROMPT, "offline, the page did not load")
    open_tab(browser, "mine")
    wait(browser, lambda d: mine_texts(d) == ["Card added", "Card kept"], f"offline, My cards lists {mine_texts(browser)}")


# The history kept on the device (js/sync.js: IndexedDB 'trove-sync', store 'copies'), or null.
KEPT_HISTORY = """
const done = arguments[0];
const open = indexedDB.open('trove-sync');
open.onupgradeneeded = () => open.transaction.abort();  // no database yet: do not make an empty one
open.onerror = () => done(null);
open.onsuccess = () => {
  const get = open.result.transaction('copies').objectStore('copies').get('/api/v1/strategies/history');
  get.onsuccess = () => { open.result.close(); done(get.result ?? null); };
  get.onerror = () => done(null);
};
"""


def test_a_note_saved_online_is_in_the_history_offline(strategies_restartable, browser):
    """History offline shows the history the device kept: it must hold a note saved (and sent) since the history was
    last read, not the draw as it was then, without its note."""
    with strategies_restartable() as base:
        assert visit_and_wait_until_kept(browser, base) is True
        draw_by_tapping(browser)  # recorded in the history
        open_tab(browser, "history")  # read, and kept on the device without a note
        wait(browser, lambda d: history_notes(d) == [""], f"the draw is not in the history: {history_notes(browser)}")
        note = browser.find_element(By.CSS_SELECTOR, "#history-list input[name=note]")
        note.send_keys("Tried it on the bridge")
        note.find_element(By.XPATH, "./ancestor::form").find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, "#history-list .os-saved").text == "Saved", "no word that it was saved")
        wait(browser, lambda d: [e.get("note") for e in d.execute_async_script(KEPT_HISTORY) or []] == ["Tried it on the bridge"],
             "the device's copy of the history never took the note")
    browser.get(base + "/strategies")
    wait(browser, lambda d: d.find_elements(By.ID, "draw") and card_text(d) == PROMPT, "offline, the page did not load")
    open_tab(browser, "history")
    wait(browser, lambda d: history_notes(d) == ["Tried it on the bridge"], f"offline, the note reads {history_notes(browser)}")


def save_note(driver, text: str) -> None:
    """Types `text` over the first history row's note and saves it."""
    note = driver.find_element(By.CSS_SELECTOR, "#history-list input[name=note]")
    note.clear()
    note.send_keys(text)
    note.find_element(By.XPATH, "./ancestor::form").find_element(By.CSS_SELECTOR, "button[type=submit]").click()


def send_waiting_note(driver) -> None:
    """With the server back: the note saved offline (which said so) is sent."""
    wait(driver, lambda d: "until the connection is back" in d.find_element(By.CSS_SELECTOR, "#history-list .os-saved").text,
         "offline, no word that the note waits on this device")
    driver.execute_script("window.dispatchEvent(new Event('online'))")
    wait(driver, lambda d: sync_indicator(d) == "All saved", f"the note was never sent: {sync_indicator(driver)!r}", timeout=30)


def test_a_note_kept_from_two_devices_past_the_limit_can_still_be_edited(strategies_restartable, browser):
    """Two devices' notes kept together can pass a note's 500 characters. The page then refused every edit of them
    ("A note holds at most 500 characters"), and the field took no more letters, until the person cut words that
    neither device had written too long. An edit as long as what it was written over is saved now."""
    with strategies_restartable() as base:
        assert visit_and_wait_until_kept(browser, base) is True
        draw_by_tapping(browser)
        open_tab(browser, "history")
        wait(browser, lambda d: history_notes(d) == [""], f"the draw is not in the history: {history_notes(browser)}")
        mine, theirs = "a" * 300, "b" * 300
        save_note(browser, mine[:-1])
        wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, "#history-list .os-saved").text == "Saved", "no word that it was saved")
        entry = fetch_json(browser, "/api/v1/strategies/history")[0]["id"]
        assert call(browser, "PATCH", f"/api/v1/strategies/history/{entry}", {"note": theirs, "was": mine[:-1]})[0] == 200
        note = browser.find_element(By.CSS_SELECTOR, "#history-list input[name=note]")
        note.send_keys("a", Keys.ENTER)
        both = f"{theirs} · {mine}"
        wait(browser, lambda d: history_notes(d) == [both], f"the notes were not kept together: {history_notes(browser)}")
        # The person takes one letter off and adds a word's end: as long as the note was, so it is saved.
        note = browser.find_element(By.CSS_SELECTOR, "#history-list input[name=note]")
        note.send_keys(Keys.END, Keys.BACKSPACE, Keys.BACKSPACE, "z", Keys.ENTER)
        wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, "#history-list .os-saved").text == "Saved",
             f"the edit was not saved: {browser.find_element(By.CSS_SELECTOR, '#history-list form').text!r}")
        assert fetch_json(browser, "/api/v1/strategies/history")[0]["note"] == both[:-2] + "z"


def test_a_note_changed_on_another_device_meanwhile_is_kept_beside_this_ones(strategies_restartable, browser):
    """A note written here over one another device changed meanwhile used to replace it: the last save won, and the
    other device's words were gone without a word. Online or sent from the outbox later, both are kept now."""
    with strategies_restartable() as base:
        assert visit_and_wait_until_kept(browser, base) is True
        draw_by_tapping(browser)
        open_tab(browser, "history")
        wait(browser, lambda d: history_notes(d) == [""], f"the draw is not in the history: {history_notes(browser)}")
        save_note(browser, "river")
        wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, "#history-list .os-saved").text == "Saved", "no word that it was saved")
        entry = fetch_json(browser, "/api/v1/strategies/history")[0]["id"]

        # Another device (the same profile) changes the note; this page still shows "river".
        assert call(browser, "PATCH", f"/api/v1/strategies/history/{entry}", {"note": "call Ann", "was": "river"})[0] == 200
        save_note(browser, "bridge")
        wait(browser, lambda d: history_notes(d) == ["call Ann · bridge"], f"online, the note reads {history_notes(browser)}")
        assert "both notes are kept" in browser.find_element(By.CSS_SELECTOR, "#history-list .os-saved").text
        assert call(browser, "PATCH", f"/api/v1/strategies/history/{entry}", {"note": "tea", "was": "call Ann · bridge"})[0] == 200

    # Offline, this page writes over "call Ann · bridge", which the other device changed to "tea" meanwhile.
    save_note(browser, "stone")
    with strategies_restartable():
        send_waiting_note(browser)
        assert fetch_json(browser, "/api/v1/strategies/history")[0]["note"] == "tea · stone"
        wait(browser, lambda d: history_notes(d) == ["tea · stone"], f"back online, the note reads {history_notes(browser)}")

    # Offline again, with nobody else writing: once the note is sent, the next one here replaces it, not joins it.
    save_note(browser, "moss")
    with strategies_restartable():
        send_waiting_note(browser)
        # The row now knows the server's note is "moss" (History is read again once the outbox is sent).
        wait(browser, lambda d: d.execute_script("return document.querySelector('#history-list li').dataset.was") == "moss",
             "the row never learnt that its note was sent")
        assert browser.find_element(By.CSS_SELECTOR, "#history-list .os-saved").text == "Saved"  # no longer "until the connection is back"
        save_note(browser, "fern")
        wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, "#history-list .os-saved").text == "Saved",
             lambda: f"saving 'fern' says {browser.find_element(By.CSS_SELECTOR, '#history-list .os-saved').text!r}")
        assert history_notes(browser) == ["fern"] and fetch_json(browser, "/api/v1/strategies/history")[0]["note"] == "fern"


def test_a_note_saved_while_the_outbox_finds_nothing_to_send_is_sent_at_once(strategies_server, browser):
    """A retry set for a write that has since been sent still ran, and a note saved in that moment waited in the
    outbox and said "until the connection is back" with the server answering (CI caught it on a busy machine). The
    moment is held open here: the outbox's lock is taken and a flush started, and the note is saved meanwhile."""
    open_strategies(browser, strategies_server)
    draw_by_tapping(browser)
    open_tab(browser, "history")
    wait(browser, lambda d: history_notes(d) == [""], f"the draw is not in the history: {history_notes(browser)}")
    assert browser.execute_async_script(HOLD_A_FLUSH) is True
    save_note(browser, "lantern")
    time.sleep(0.5)  # the save meets the flush on its way
    browser.execute_script("window.releaseFlush()")
    wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, "#history-list .os-saved").text == "Saved",
         lambda: f"the note says {browser.find_element(By.CSS_SELECTOR, '#history-list .os-saved').text!r}", timeout=10)
    assert fetch_json(browser, "/api/v1/strategies/history")[0]["note"] == "lantern"


# Takes the outbox's lock (js/outbox.js `flush` runs under it) and starts a flush, which then waits for
# `window.releaseFlush()` with nothing to send.
HOLD_A_FLUSH = """
const done = arguments[arguments.length - 1];
if (!navigator.locks) { done('no Web Locks'); return; }
const url = performance.getEntriesByType('resource').map((e) => e.name).find((n) => n.endsWith('/js/sync.js'));
navigator.locks.request('trove-sync', () => {
  import(url.replace(/sync[.]js$/, 'outbox.js')).then((outbox) => { outbox.flush(); done(true); }, (e) => done(String(e)));
  return new Promise((release) => { window.releaseFlush = release; });
});
"""


def history_rows(driver) -> list[tuple[str, bool]]:
    """The History view's rows: each one's card and whether it takes a note (a draw that waits to be sent does not)."""
    return driver.execute_script(
        "return [...document.querySelectorAll('#history-list li')].map(li => [li.querySelector('.os-item span').textContent,"
        " !!li.querySelector('input[name=note]')])")


def test_draws_made_since_the_history_was_read_are_in_it_offline(strategies_restartable, browser):
    """History offline shows the history the device kept: it must hold the draws made online since it was read, and
    list a draw made offline (waiting to be sent) on top; back online, that draw joins the history and takes a note."""
    with strategies_restartable() as base:
        assert visit_and_wait_until_kept(browser, base) is True
        first = draw_by_tapping(browser)
        open_tab(browser, "history")  # read, and kept on the device with one draw
        wait(browser, lambda d: history_notes(d) == [""], f"the draw is not in the history: {history_notes(browser)}")
        open_tab(browser, "draw")
        second = draw_by_tapping(browser)
        wait(browser, lambda d: len(d.execute_async_script(KEPT_HISTORY) or []) == 2,
             "the device's copy of the history never took the draw made after it was read")
        assert [e["card"]["strategy"] for e in browser.execute_async_script(KEPT_HISTORY)] == [second, first]
    browser.get(base + "/strategies")
    wait(browser, lambda d: d.find_elements(By.ID, "draw") and card_text(d) == PROMPT, "offline, the page did not load")
    offline = draw_by_tapping(browser)
    wait(browser, lambda d: d.find_element(By.ID, "offline-note").is_displayed(), "no notice that the card was drawn offline")
    open_tab(browser, "history")
    wait(browser, lambda d: history_rows(d) == [[offline, False], [second, True], [first, True]],
         f"offline, History lists {history_rows(browser)}")
    assert "joins your history when the connection is back" in browser.find_element(By.ID, "history-list").text

    with strategies_restartable():
        browser.execute_script("window.dispatchEvent(new Event('online'))")
        wait(browser, lambda d: sync_indicator(d) == "All saved", f"the draw was never sent: {sync_indicator(browser)!r}", timeout=30)
        # The view is read again: the draw is the server's now, and takes a note.
        wait(browser, lambda d: history_rows(d) == [[offline, True], [second, True], [first, True]],
             f"back online, History lists {history_rows(browser)}")
        assert [e["card"]["strategy"] for e in fetch_json(browser, "/api/v1/strategies/history")] == [offline, second, first]


def test_the_card_of_the_day_and_the_ranking_are_there_offline(strategies_restartable, browser):
    """Without the server, Today shows the card the server chose for today (chosen on the device from the deck it
    keeps), and Popular the ranking last read, not notes that they need a connection."""
    today = lambda d: d.find_element(By.ID, "today-text").text  # noqa: E731
    popular = lambda d: [li.find_element(By.CSS_SELECTOR, ".os-item span").text for li in d.find_elements(By.CSS_SELECTOR, "#popular-list li")]  # noqa: E731
    with strategies_restartable() as base:
        assert visit_and_wait_until_kept(browser, base) is True
        open_strategies(browser, base)  # now through the worker, which keeps each view's module when it first loads
        favourite = draw_by_tapping(browser)
        wait_for_one_favourite_button(browser)
        browser.find_element(By.ID, "fav-add").click()
        wait(browser, lambda d: favourite_buttons(d) == (False, True), "the favourite did not show")
        open_tab(browser, "popular")
        wait(browser, lambda d: popular(d) == [favourite], f"Popular lists {popular(browser)}")
        open_tab(browser, "today")
        wait(browser, lambda d: today(d) in DECK, f"Today reads {today(browser)!r}")
        chosen = today(browser)
    browser.get(base + "/strategies")
    wait(browser, lambda d: d.find_elements(By.ID, "draw") and card_text(d) == PROMPT, "offline, the page did not load")
    open_tab(browser, "today")
    wait(browser, lambda d: today(d) == chosen, f"offline, Today reads {today(browser)!r}, not {chosen!r}")
    browser.find_element(By.ID, "today-show").click()
    wait(browser, lambda d: card_text(d) == chosen, "offline, Show it did not put the card of the day on the draw view")
    open_tab(browser, "popular")
    wait(browser, lambda d: popular(d) == [favourite], f"offline, Popular lists {popular(browser)}")


def visit_and_wait_until_kept(browser, base: str):
    """Open the page and wait until the service worker has kept the page, its assets and the deck."""
    open_strategies(browser, base)
    return browser.execute_async_script(
        """
        const done = arguments[arguments.length - 1];
        const deadline = Date.now() + 12000;  // under the driver's 15 s script timeout, for a clear message
        (async function poll() {
          const page = await caches.match('/strategies', {ignoreVary: true});
          const deck = await caches.match('/api/v1/strategies', {ignoreVary: true});
          const script = [...document.scripts].find(s => s.src.endsWith('/strategies/strategies.js'));
          const js = script && await caches.match(script.src);
          // The worker must also be active, or an offline navigation would bypass it.
          const registration = await navigator.serviceWorker.getRegistration();
          const active = !!(registration && registration.active && registration.active.state === 'activated');
          if (page && deck && js && active) return done(true);
          if (Date.now() > deadline) return done({page: !!page, deck: !!deck, js: !!js, active});
          setTimeout(poll, 200);
        })();
        """
    )


def test_the_page_stays_within_the_weight_budget(strategies_server, browser):
    open_strategies(browser, strategies_server)
    assert_page_weighs_under(browser)
