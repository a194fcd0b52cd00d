"""What a person sees first: the home page, an account, and an installable app."""

from __future__ import annotations

import json
import secrets
import time
import urllib.request
from urllib.parse import urlparse

import pytest
from selenium.common.exceptions import TimeoutException, WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

from browser_support import CHROMIUM, DESKTOP, MOBILE, set_viewport, wait_for_layout

APPS = [
    ("Oblique Strategies", "/strategies"),
    ("YogiYogini", "/yoga"),
    ("Choose Your Destiny", "/stories"),
    ("Magnetic Poetry", "/poetry"),
    ("City Roulette", "/cities"),
]

PASSWORD = "correct horse battery"


def path_of(driver) -> str:
    return urlparse(driver.current_url).path


def wait_for_path(driver, path: str, timeout: float = 10) -> None:
    """Wait until the page at `path` is the one shown. WebKit may report a navigation's new URL while the page before
    is still the document (a CI run read the sign-in page's "Sign in" as the app's header): the document's own
    location is asked too, once it has loaded."""
    def arrived(d) -> bool:
        try:
            return path_of(d) == path and d.execute_script(
                "return location.pathname === arguments[0] && document.readyState !== 'loading'", path)
        except WebDriverException:  # the page went away as the script ran: not yet
            return False
    try:
        WebDriverWait(driver, timeout).until(arrived)
    except TimeoutException:
        raise AssertionError(f"expected to end on {path}, still on {driver.current_url}") from None


def submit_form_of(driver, field_id: str) -> None:
    """Click the submit button of the form that holds #field_id."""
    field = driver.find_element(By.ID, field_id)
    form = field.find_element(By.XPATH, "./ancestor::form")
    form.find_element(By.CSS_SELECTOR, "button[type=submit], button:not([type]), input[type=submit]").click()


def fill(driver, field_id: str, value: str) -> None:
    el = driver.find_element(By.ID, field_id)
    el.clear()
    el.send_keys(value)


@pytest.mark.parametrize("viewport", [MOBILE, DESKTOP], ids=["phone", "desktop"])
def test_home_page_links_to_the_five_apps(server, browser, assert_no_console_errors, viewport):
    set_viewport(browser, *viewport)
    browser.get(server + "/")

    links = browser.find_elements(By.CSS_SELECTOR, "#apps a.app-link")
    assert len(links) == len(APPS), [link.accessible_name for link in links]
    names = [link.accessible_name for link in links]
    for name, path in APPS:
        matching = [link for link in links if name in link.accessible_name]
        assert len(matching) == 1, f"expected one link named {name!r}, links are {names}"
        link = matching[0]
        href = link.get_attribute("href")
        assert urlparse(href).path.endswith(path), f"{name} links to {href}, expected …{path}"
        assert link.is_displayed(), f"the {name} link is not visible at {viewport}"

    assert_no_console_errors(browser)


def test_home_page_fits_a_320px_phone(server, browser):
    set_viewport(browser, 320, 640, mobile=True)
    browser.get(server + "/")
    wait_for_layout(browser, "the home page")
    inner, scroll = browser.execute_script(
        "return [window.innerWidth, document.documentElement.scrollWidth]"
    )
    # On a phone, a page without <meta name=viewport> is laid out 980px wide,
    # and content wider than the screen widens the layout viewport: either way
    # innerWidth is no longer 320 and the page looks zoomed out or scrolls.
    assert inner == 320 and scroll <= inner, (
        f"on a 320px phone the page is laid out {inner}px wide with scrollWidth {scroll}: "
        "content overflows, or <meta name=viewport content=width=device-width> is missing"
    )


def test_sign_up_sign_out_and_sign_in(server, browser, assert_no_console_errors):
    username = "u" + secrets.token_hex(4)

    browser.get(server + "/signup")
    fill(browser, "username", username)
    fill(browser, "password", PASSWORD)
    submit_form_of(browser, "username")
    wait_for_path(browser, "/account")
    assert username in browser.find_element(By.TAG_NAME, "body").text
    assert_no_console_errors(browser)

    browser.find_element(By.ID, "logout").click()
    wait_for_path(browser, "/")

    browser.get(server + "/login")
    fill(browser, "username", username)
    fill(browser, "password", PASSWORD)
    submit_form_of(browser, "username")
    wait_for_path(browser, "/account")
    assert username in browser.find_element(By.TAG_NAME, "body").text

    browser.find_element(By.ID, "logout").click()
    wait_for_path(browser, "/")

    browser.get(server + "/login")
    fill(browser, "username", username)
    fill(browser, "password", "not the password")
    submit_form_of(browser, "username")
    error = WebDriverWait(browser, 10).until(EC.visibility_of_element_located((By.ID, "form-error")))
    assert error.get_attribute("role") == "alert"
    assert error.text.strip(), "the error message is empty"
    assert path_of(browser) == "/login"


def test_a_refused_username_marks_its_field_and_back_after_signing_up_finds_the_profile(server, browser):
    """The username's rules outlined the password field; and Back after signing up showed the sign-up form to someone
    signed in, whose answer was "You are already signed in: sign out first" on a page with no way to sign out."""
    browser.get(server + "/signup")
    fill(browser, "username", "walker d")
    fill(browser, "password", PASSWORD)
    submit_form_of(browser, "username")
    WebDriverWait(browser, 10).until(EC.visibility_of_element_located((By.ID, "form-error")))
    invalid = [browser.find_element(By.ID, field).get_attribute("aria-invalid") for field in ("username", "password")]
    assert invalid == ["true", None], f"(username, password) aria-invalid: {invalid}"

    username = "u" + secrets.token_hex(4)
    fill(browser, "username", username)
    submit_form_of(browser, "username")
    wait_for_path(browser, "/account")
    browser.back()
    wait_for_path(browser, "/account")
    assert username in browser.find_element(By.TAG_NAME, "body").text


def test_service_worker_and_manifest_make_it_installable(server, browser):
    browser.get(server + "/")
    result = browser.execute_async_script(
        """
        const done = arguments[arguments.length - 1];
        if (!('serviceWorker' in navigator)) { done({error: 'no navigator.serviceWorker'}); return; }
        navigator.serviceWorker.ready
          .then(reg => done({scope: reg.scope, active: !!reg.active}))
          .catch(err => done({error: String(err)}));
        """
    )
    assert "error" not in result, result["error"]
    assert result["active"], result
    assert result["scope"] == server + "/", f"service worker scope {result['scope']} does not cover the site"

    link = browser.find_element(By.CSS_SELECTOR, "link[rel=manifest]")
    href = link.get_attribute("href")
    assert urlparse(href).path == "/manifest.webmanifest"
    with urllib.request.urlopen(server + "/manifest.webmanifest", timeout=5) as resp:
        assert resp.status == 200
        manifest = json.loads(resp.read().decode("utf-8"))
    assert manifest.get("name") == "Trove"
    assert manifest.get("short_name"), manifest
    assert urlparse(manifest.get("start_url", "")).path == "/", manifest.get("start_url")
    assert manifest.get("display") == "standalone", manifest.get("display")
    sizes = {icon.get("sizes") for icon in manifest.get("icons", []) if icon.get("type") == "image/png"}
    assert {"192x192", "512x512"} <= sizes, f"the manifest needs PNG icons of 192 and 512: {sizes}"
    for icon in manifest["icons"]:
        with urllib.request.urlopen(server + icon["src"], timeout=5) as resp:
            assert resp.status == 200, icon["src"]

    # The home-screen tags iOS reads (Safari ignores the manifest's icons and display).
    tags = browser.execute_script(
        """
        const meta = (name) => document.querySelector(`meta[name="${name}"]`)?.content ?? null;
        const icon = document.querySelector('link[rel="apple-touch-icon"]');
        return {icon: icon && [icon.getAttribute('sizes'), icon.href], capable: meta('apple-mobile-web-app-capable'),
                status: meta('apple-mobile-web-app-status-bar-style'), title: meta('apple-mobile-web-app-title')};
        """)
    assert tags["icon"] and tags["icon"][0] == "180x180", f"no 180x180 apple-touch-icon: {tags}"
    with urllib.request.urlopen(tags["icon"][1], timeout=5) as resp:
        assert resp.status == 200 and resp.headers.get_content_type() == "image/png"
        png = resp.read()
        assert png[16:24] == (180).to_bytes(4, "big") * 2, "the apple-touch-icon is not 180x180"
    assert tags["capable"] == "yes", tags
    assert tags["status"] in ("default", "black", "black-translucent"), tags
    assert tags["title"] == "Trove", tags

    # Chromium's own installability check, once the service worker is active (WebKit has no such check).
    if CHROMIUM:
        errors = []
        for _ in range(20):
            errors = browser.execute_cdp_cmd("Page.getInstallabilityErrors", {}).get("installabilityErrors", [])
            if not errors:
                break
            time.sleep(0.5)
        assert not errors, f"Chromium says the app is not installable: {errors}"
