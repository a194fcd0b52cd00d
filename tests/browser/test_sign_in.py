"""Signing in from an app: the link returns to where it was tapped, and what a guest made joins the account."""

from __future__ import annotations

import json
import secrets
import urllib.error
import urllib.request
from urllib.parse import urlencode, urlparse

from selenium.webdriver.common.by import By

from browser_support import call, wait
from test_home import PASSWORD, fill, submit_form_of, wait_for_path


def create_account(server: str, username: str) -> None:
    request = urllib.request.Request(
        server + "/api/v1/account/signup", method="POST",
        data=json.dumps({"username": username, "password": PASSWORD}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request) as response:
        assert response.status == 201


def test_a_guest_signing_in_is_told_what_comes_along_and_returns_to_the_app_with_it(server, browser, assert_no_console_errors):
    username = "g" + secrets.token_hex(4)
    create_account(server, username)

    browser.get(server + "/yoga")
    status, created = call(browser, "POST", "/api/v1/yoga/students", {"name": "Asha", "joined_on": "2026-01-05"})
    assert status == 201, created
    browser.get(server + "/yoga#roster")
    here = urlparse(browser.current_url)
    browser.find_element(By.ID, "account-link").click()

    wait_for_path(browser, "/login")
    view = here.path + (f"?{here.query}" if here.query else "") + (f"#{here.fragment}" if here.fragment else "")
    assert urlparse(browser.current_url).query == urlencode({"next": view}), (browser.current_url, view)
    note = wait(browser, lambda d: d.find_element(By.ID, "guest-work").is_displayed() and d.find_element(By.ID, "guest-work"),
                "the sign-in page does not say what will come along")
    assert note.text == "1 student from this device will join your account.", note.text

    fill(browser, "username", username)
    fill(browser, "password", PASSWORD)
    submit_form_of(browser, "username")
    wait_for_path(browser, "/yoga")
    assert urlparse(browser.current_url) == here, f"returned to {browser.current_url}, not {here.geturl()}"
    wait(browser, lambda d: d.find_element(By.ID, "account-link").get_attribute("textContent").strip() == username,
         f"back in the app, the header reads {browser.find_element(By.ID, 'account-link').get_attribute('textContent').strip()!r}")
    _, students = call(browser, "GET", "/api/v1/yoga/students")
    assert [s["name"] for s in students["students"]] == ["Asha"], students
    assert_no_console_errors(browser)


def test_the_link_to_sign_up_keeps_where_to_return(server, browser):
    browser.get(server + "/stories")
    browser.find_element(By.ID, "account-link").click()
    wait_for_path(browser, "/login")
    browser.find_element(By.CSS_SELECTOR, '.form-footer a[href^="/signup"]').click()
    wait_for_path(browser, "/signup")
    assert urlparse(browser.current_url).query == "next=%2Fstories"
    fill(browser, "username", "s" + secrets.token_hex(4))
    fill(browser, "password", PASSWORD)
    submit_form_of(browser, "username")
    wait_for_path(browser, "/stories")


def test_a_next_that_leaves_the_site_is_ignored(server, browser):
    username = "n" + secrets.token_hex(4)
    create_account(server, username)
    for hostile in ["//evil.example/", "https://evil.example/", "/%5Cevil.example", "%2F%2Fevil.example"]:
        browser.get(server + "/login?next=" + hostile)
        fill(browser, "username", username)
        fill(browser, "password", PASSWORD)
        submit_form_of(browser, "username")
        wait_for_path(browser, "/account")
        assert urlparse(browser.current_url).netloc == urlparse(server).netloc, (hostile, browser.current_url)
        call(browser, "POST", "/api/v1/account/logout")


def test_an_export_is_brought_into_a_new_account_on_the_profile_page(server, browser, tmp_path, assert_no_console_errors):
    """Moving between servers as a person does: download the data, make an account (on the other Trove: here a
    fresh browser profile on this one), choose the file on the profile page; it says what came in, and the
    apps show it. A second time, the profile is no longer empty and the page says so."""
    browser.get(server + "/yoga")
    assert call(browser, "POST", "/api/v1/yoga/students", {"name": "Bea", "joined_on": "2026-03-01"})[0] == 201
    assert call(browser, "POST", "/api/v1/strategies/mine", {"strategy": "Use an old idea"})[0] == 201
    status, export = call(browser, "GET", "/api/v1/account/export")
    assert status == 200, export
    path = tmp_path / "trove-export.json"
    path.write_text(json.dumps(export))

    browser.delete_all_cookies()
    username = "m" + secrets.token_hex(4)
    browser.get(server + "/")
    assert call(browser, "POST", "/api/v1/account/signup", {"username": username, "password": PASSWORD})[0] == 201
    browser.get(server + "/account")
    browser.find_element(By.ID, "import-file").send_keys(str(path))
    result = lambda d: d.find_element(By.ID, "import-result").text  # noqa: E731
    wait(browser, lambda d: "Brought in" in result(d), f"the page does not say what came in: {result(browser)!r}")
    assert result(browser).startswith("Brought in: 1 card of your own,"), result(browser)
    assert "1 student" in result(browser)
    _, students = call(browser, "GET", "/api/v1/yoga/students")
    assert [s["name"] for s in students["students"]] == ["Bea"], students
    _, mine = call(browser, "GET", "/api/v1/strategies/mine")
    assert [c["strategy"] for c in mine] == ["Use an old idea"], mine
    assert_no_console_errors(browser)

    browser.find_element(By.ID, "import-file").send_keys(str(path))
    wait(browser, lambda d: "nothing in it yet" in d.find_element(By.ID, "form-error").text,
         "a second import into a profile with things in it is not refused in words")


def test_a_tab_left_open_when_signing_out_in_another_writes_nothing_into_the_next_profile(server, browser):
    """On a shared device: signed out in one tab, a Poetry tab still open showed the account's poem, and its next tap
    kept that poem in the new guest's profile ("… was deleted on another device … kept as a new poem")."""
    username = "t" + secrets.token_hex(4)
    create_account(server, username)
    browser.get(server + "/login")
    fill(browser, "username", username)
    fill(browser, "password", PASSWORD)
    submit_form_of(browser, "username")
    wait_for_path(browser, "/account")
    browser.get(server + "/poetry")
    wait(browser, lambda d: d.find_element(By.ID, "board").get_attribute("data-ready") == "true", "Poetry did not open")
    status, poems = call(browser, "GET", "/api/v1/poetry/poems")
    assert status == 200 and len(poems) == 1, poems
    status, poem = call(browser, "GET", f"/api/v1/poetry/poems/{poems[0]['id']}")
    board = dict(poem["board"], magnets=[{"id": "m1", "word": "love", "x": 0.3, "y": 0.3, "rotation": 0, "z": 1}])
    status, body = call(browser, "PUT", f"/api/v1/poetry/poems/{poem['id']}", {"version": poem["version"], "title": "Mine", "board": board})
    assert status == 200, body
    browser.get(server + "/poetry")
    wait(browser, lambda d: d.find_element(By.ID, "board").get_attribute("data-ready") == "true", "Poetry did not open again")
    poetry = browser.current_window_handle

    browser.switch_to.new_window("tab")
    browser.get(server + "/account")
    wait(browser, lambda d: d.find_element(By.ID, "logout").is_displayed(), "no Sign out on the profile page")
    browser.find_element(By.ID, "logout").click()
    wait_for_path(browser, "/")

    browser.switch_to.window(poetry)
    # The tab loads again, as the guest now signed in: the account's poem is gone from it, and nothing of it was written.
    wait(browser, lambda d: d.find_element(By.ID, "account-link").get_attribute("textContent").strip() != username,
         "the Poetry tab still shows the account signed out")
    wait(browser, lambda d: d.find_element(By.ID, "board").get_attribute("data-ready") == "true", "Poetry did not open as the guest")
    browser.execute_script("document.querySelector('#tray-tiles .pm-tile:not([hidden])').click()")
    status, guest_poems = call(browser, "GET", "/api/v1/poetry/poems")
    titles = [p["title"] for p in guest_poems]
    assert "Mine" not in titles, f"the signed-out account's poem is in the guest's profile: {titles}"


def test_a_poem_only_opened_is_not_work_that_joins_an_account(server, browser):
    """Opening Magnetic Poetry makes an empty poem: the sign-in page said "1 poem from this device will join your
    account", and a new account that had opened it could not take an import ("a profile with nothing in it yet")."""
    browser.get(server + "/poetry")
    wait(browser, lambda d: d.find_element(By.ID, "board").get_attribute("data-ready") == "true", "Poetry did not open")
    status, poems = call(browser, "GET", "/api/v1/poetry/poems")
    assert status == 200 and len(poems) == 1, poems
    status, work = call(browser, "GET", "/api/v1/account/guest-work")
    assert status == 200 and work["items"] == [], work
    browser.get(server + "/login")
    wait(browser, lambda d: d.find_element(By.ID, "username").is_displayed(), "the sign-in page did not open")
    assert not browser.find_element(By.ID, "guest-work").is_displayed(), browser.find_element(By.ID, "guest-work").text


def test_a_sign_up_whose_answer_was_lost_is_sent_again_and_signs_in(server, browser, assert_no_console_errors):
    """The answer to a sign-up never reached the page (a reload, a phone's network): the account was made, the page
    is a guest again. Sending the same form again signs in to that account, with what the guest had made, instead of
    "That username is taken"."""
    username = "l" + secrets.token_hex(4)
    browser.get(server + "/yoga")
    status, _ = call(browser, "POST", "/api/v1/yoga/students", {"name": "Asha", "joined_on": "2026-01-05"})
    assert status == 201
    # The sign-up is made with the page's cookie, its answer (and new cookie) lost on the way back.
    guest = browser.get_cookie("trove_session")["value"]
    request = urllib.request.Request(
        server + "/api/v1/account/signup", method="POST",
        data=json.dumps({"username": username, "password": PASSWORD}).encode(),
        headers={"Content-Type": "application/json", "Cookie": f"trove_session={guest}"},
    )
    with urllib.request.urlopen(request) as response:
        assert response.status == 201
    browser.get(server + "/signup")
    fill(browser, "username", username)
    fill(browser, "password", PASSWORD)
    submit_form_of(browser, "username")
    wait_for_path(browser, "/account")
    wait(browser, lambda d: d.find_element(By.ID, "account-link").get_attribute("textContent").strip() == username,
         f"sent again, the sign-up left the header at {browser.find_element(By.ID, 'account-link').get_attribute('textContent').strip()!r}")
    _, students = call(browser, "GET", "/api/v1/yoga/students")
    assert [s["name"] for s in students["students"]] == ["Asha"], students
    assert_no_console_errors(browser)
    # Another password for that name is still told the name is taken (a 409 the console reports).
    status, _ = call(browser, "POST", "/api/v1/account/logout")
    assert status == 204
    browser.get(server + "/signup")
    fill(browser, "username", username)
    fill(browser, "password", PASSWORD + "x")
    submit_form_of(browser, "username")
    wait(browser, lambda d: "taken" in d.find_element(By.ID, "form-error").text, "another password was not told the name is taken")


def test_the_last_tries_before_sign_in_waits_are_announced(server, browser):
    """Five wrong passwords make sign-in wait 15 minutes; the form said nothing of it until it was refused."""
    username = "t" + secrets.token_hex(4)
    create_account(server, username)
    for _ in range(2):
        request = urllib.request.Request(
            server + "/api/v1/account/login", method="POST",
            data=json.dumps({"username": username, "password": "not the password"}).encode(),
            headers={"Content-Type": "application/json"},
        )
        try:
            urllib.request.urlopen(request)
            raise AssertionError("a wrong password signed in")
        except urllib.error.HTTPError as refused:
            assert refused.code == 401
    browser.get(server + "/login")
    fill(browser, "username", username)
    fill(browser, "password", "not the password")
    submit_form_of(browser, "username")
    wait(browser, lambda d: d.find_element(By.ID, "form-error").is_displayed(), "a wrong password is not said")
    message = browser.find_element(By.ID, "form-error").text
    assert message == "Wrong username or password. 2 more tries before sign-in waits 15 minutes.", message


def test_a_username_typed_with_capitals_says_how_it_is_kept(server, browser):
    """Issue 57: "Walker_A" became "walker_a" at sign-up without a word."""
    browser.get(server + "/signup")
    field = browser.find_element(By.ID, "username")
    field.send_keys("Walker_A")
    hint = lambda d: d.execute_script("return document.getElementById('username-hint')?.textContent ?? ''")  # noqa: E731
    wait(browser, lambda d: "walker_a" in hint(d), f"the form does not say the username is kept as walker_a: {hint(browser)!r}")
    described = browser.execute_script("return document.getElementById('username').getAttribute('aria-describedby')")
    assert described and "username-hint" in described.split(), "the field is not described by what it says"
