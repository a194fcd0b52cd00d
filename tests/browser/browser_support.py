"""Helpers shared by the browser tests, for either engine.

The suite runs on Chromium (headless, driven by chromedriver, with DevTools at hand) or on WebKit (WebKitGTK's
MiniBrowser driven by WebKitWebDriver under Xvfb), chosen by $TROVE_BROWSER (`chromium`, the default, or `webkit`).
WebKitWebDriver speaks plain W3C WebDriver only: no DevTools, no browser log, no touch input. Each helper here does
one thing on both engines; where WebKit lacks the DevTools way, the helper says what it does instead.
"""

from __future__ import annotations

import json
import os
import time

MOBILE = (375, 667)
DESKTOP = (1280, 800)

ENGINE = os.environ.get("TROVE_BROWSER", "chromium").strip().lower() or "chromium"
if ENGINE not in ("chromium", "webkit"):
    raise RuntimeError(f"TROVE_BROWSER={ENGINE!r}: expected chromium or webkit")
WEBKIT = ENGINE == "webkit"
CHROMIUM = ENGINE == "chromium"


# ---------- Viewport ----------

def set_viewport(driver, width: int, height: int, mobile: bool | None = None) -> None:
    """Make the page's viewport exactly width x height CSS pixels.

    Chromium: window sizes are only a hint in headless Chromium, so this uses the DevTools device-metrics
    override. `mobile` (default: width < 768) turns on mobile emulation, where the page's <meta name=viewport>
    decides its layout width, as on a phone.

    WebKit: no device emulation; the MiniBrowser window is resized until window.innerWidth/innerHeight are the
    requested size (the window's own toolbar is measured once per session, from a window whose resize has settled,
    and added; measured again if a resize gives another viewport). `mobile` changes nothing there: WebKitGTK
    lays a page out at the window's width, as a phone does with <meta name=viewport content=width=device-width>.
    """
    if mobile is None:
        mobile = width < 768
    driver.trove_viewport = (width, height)
    if CHROMIUM:
        driver.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile},
        )
        return
    # The window's own chrome (MiniBrowser's toolbar) is measured once per browser session, from a settled window,
    # and again whenever a resize does not give the viewport asked for.
    chrome = getattr(driver, "trove_window_chrome", None)
    if chrome is None:
        outer, inner = _settled_window(driver)
        chrome = (outer[0] - inner[0], outer[1] - inner[1])
    tried = []
    for _ in range(5):
        window = (width + chrome[0], height + chrome[1])
        driver.set_window_rect(width=window[0], height=window[1])
        outer, inner = _settled_window(driver, (width, height), window)
        tried.append(f"window {outer[0]}x{outer[1]} gave {inner[0]}x{inner[1]}")
        if inner == (width, height):
            driver.trove_window_chrome = chrome
            return
        chrome = (outer[0] - inner[0], outer[1] - inner[1])
    raise AssertionError(f"webkit: could not make the viewport {width}x{height}; it is {inner[0]}x{inner[1]} "
                         f"({'; '.join(tried)})")


def assert_viewport(driver, what: str = "") -> None:
    """Fail loudly unless the page's viewport is still the size set_viewport made it (a test measuring a layout
    says so before it measures: a window resized behind its back must not pass for another size)."""
    if not hasattr(driver, "trove_viewport"):
        return
    inner = tuple(driver.execute_script("return [innerWidth, innerHeight]"))
    if inner != tuple(driver.trove_viewport):
        raise AssertionError(f"{ENGINE}: the viewport is {inner[0]}x{inner[1]}, not the {driver.trove_viewport[0]}x"
                             f"{driver.trove_viewport[1]} set_viewport made{' ' + what if what else ''}")


def _settled_window(driver, goal: tuple[int, int] | None = None, window: tuple[int, int] | None = None,
                    timeout: float = 5) -> tuple[tuple[int, int], tuple[int, int]]:
    """WebKit: the window's size and the page's viewport once a resize has settled. set_window_rect returns before
    the page has seen the new size (it arrives some frames later), so both are read after two animation frames,
    until the viewport is `goal`, or the readings agree (see below)."""

    deadline = time.monotonic() + timeout
    last, same = None, 0
    while True:
        try:
            inner = driver.execute_async_script(
                "const done = arguments[0]; requestAnimationFrame(() => requestAnimationFrame(() => done([innerWidth, innerHeight])))")
        except Exception:  # no page yet, or one mid-navigation: read at once
            inner = driver.execute_script("return [innerWidth, innerHeight]")
        rect = driver.get_window_rect()
        reading = ((rect["width"], rect["height"]), (inner[0], inner[1]))
        same = same + 1 if reading == last else 0
        # Settled: two readings in a row agree and show the viewport or the window asked for (one reading of the
        # viewport at its goal could be a resize passing through it), or four agree (a window that cannot take
        # that size, such as one narrower than the toolbar allows, stays as it is).
        if (same and (reading[1] == goal or window in (None, reading[0]))) or same >= 3 or time.monotonic() > deadline:
            return reading
        last = reading


# ---------- Waiting, weighing ----------

def wait(driver, condition, message, timeout: float = 20):
    """Wait until `condition(driver)` is truthy, failing with `message` (generous: CI machines are busy). An
    element the page replaced while the condition read it (a list redrawn) means: not yet, look again. A message
    that reads the page is a function, so that it says what the page shows when the wait gives up."""
    from selenium.common.exceptions import StaleElementReferenceException, TimeoutException
    from selenium.webdriver.support.ui import WebDriverWait

    try:
        return WebDriverWait(driver, timeout, ignored_exceptions=(StaleElementReferenceException,)).until(condition)
    except TimeoutException:
        raise AssertionError(message() if callable(message) else message) from None


# The layout has settled when two animation frames in a row (after the fonts have loaded) measure the same: the
# viewport, the document's scroll size, how many resources the page has fetched, and the box of every element
# `selector` finds (by default every control and every text a layout check reads).
LAYOUT_SETTLED = r"""
const [selector, timeout, done] = arguments;
const measure = () => JSON.stringify([
  innerWidth, innerHeight, document.documentElement.scrollWidth, document.documentElement.scrollHeight,
  performance.getEntriesByType('resource').length,
  [...document.querySelectorAll(selector)].map((e) => {
    const r = e.getBoundingClientRect();
    return [r.left, r.top, r.width, r.height].map((v) => Math.round(v * 10));
  }),
]);
const deadline = performance.now() + timeout;
document.fonts.ready.then(() => {
  let last = null;
  const frame = () => {
    const now = measure();
    if (now === last) return done(true);
    last = now;
    if (performance.now() > deadline) return done(false);
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
});
"""
LAYOUT_ELEMENTS = "body *"


# Each word of the controls matched by arguments[0] that the page splits across lines ("Ba|ck"), as "label: word";
# text cut short on one line (white-space: nowrap, an ellipsis) is left out, and so is a word wider than its whole
# line (a long username at 200% text on the smallest phone), which must break or overflow the screen.
SPLIT_WORDS = """
const room = (node) => {
  let box = node.parentElement;
  while (box.parentElement && getComputedStyle(box).display.startsWith('inline')) box = box.parentElement;
  const style = getComputedStyle(box);
  return box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
};
const out = [];
for (const el of document.querySelectorAll(arguments[0])) {
  if (!el.getClientRects().length) continue;
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let n; (n = walker.nextNode()); ) {
    if (getComputedStyle(n.parentElement).whiteSpace === 'nowrap') continue;
    let at = 0;
    for (const word of n.textContent.split(/[\\s-]+/).filter(Boolean)) {
      const i = n.textContent.indexOf(word, at);
      at = i + word.length;
      const range = document.createRange();
      range.setStart(n, i);
      range.setEnd(n, at);
      const parts = [...range.getClientRects()].filter((r) => r.width > 0);
      if (parts.length > 1 && parts.reduce((sum, r) => sum + r.width, 0) <= room(n)) out.push(`${el.textContent.trim()}: ${word}`);
    }
  }
}
return out;
"""


def wait_for_layout(driver, what: str = "the page", selector: str = LAYOUT_ELEMENTS, timeout: float = 10) -> None:
    """Wait until the page's layout has settled (LAYOUT_SETTLED: fonts loaded, then two consecutive animation
    frames with the same measurements), instead of sleeping a fixed time before measuring it."""
    if not driver.execute_async_script(LAYOUT_SETTLED, selector, timeout * 1000):
        raise AssertionError(f"the layout of {what} was still moving after {timeout:.0f} s")


def assert_page_weighs_under(driver, limit: int = 50_000, parsed_limit: int = 128_000) -> None:
    """What a phone downloads for the page stays under budget: its HTML, CSS and JS as they travel (gzip, which the
    server sends to every browser that asks), under `limit` (50 KB: under a second on a slow 3G link of 400 kbit/s);
    and as the browser must parse them, uncompressed, under `parsed_limit`. Each part is fetched again here with and without Accept-Encoding, so both engines are measured
    the same way whatever their caches did. What a page loads on purpose after its first view (City Roulette's
    offline layer, 3 s on, at its `trove:after-first-view` mark) is not counted: on a slow machine the test
    measured after it."""
    import urllib.request

    paths = driver.execute_script(
        """
        const after = performance.getEntriesByName('trove:after-first-view')[0]?.startTime ?? Infinity;
        // WebKit lists the service worker's script (/sw.js, fetched by the registration, not by the page)
        // among the page's resources; Chromium does not. It is not part of the page.
        return [location.pathname, ...new Set(performance.getEntriesByType('resource')
          .filter(e => e.startTime < after)
          .map(e => new URL(e.name))
          .filter(u => u.origin === location.origin && /\\.(css|js)$/.test(u.pathname) && u.pathname !== '/sw.js')
          .map(u => u.pathname))];
        """
    )
    origin = driver.execute_script("return location.origin")
    sizes = []
    for path in paths:
        wire = urllib.request.urlopen(urllib.request.Request(origin + path, headers={"Accept-Encoding": "gzip"}), timeout=10).read()
        raw = urllib.request.urlopen(urllib.request.Request(origin + path), timeout=10).read()
        sizes.append((path, len(wire), len(raw)))
    wire_total, raw_total = sum(s[1] for s in sizes), sum(s[2] for s in sizes)
    assert wire_total < limit, f"HTML + CSS + JS travel as {wire_total} bytes (budget {limit}): {sizes}"
    assert raw_total < parsed_limit, f"HTML + CSS + JS weigh {raw_total} bytes uncompressed (budget {parsed_limit}): {sizes}"


# ---------- Typing ----------

def type_text(driver, element, *keys: str) -> None:
    """element.send_keys(*keys), except that on WebKit characters beyond U+FFFF (most emoji), which WebKitWebDriver
    drops, are typed with document.execCommand('insertText') into the focused field (input events as typing)."""
    if CHROMIUM:
        element.send_keys(*keys)
        return
    import re

    for key in keys:
        for part in re.split(r"([\U00010000-\U0010FFFF]+)", key):
            if not part:
                continue
            if ord(part[0]) > 0xFFFF:
                driver.execute_script("arguments[0].focus(); document.execCommand('insertText', false, arguments[1])", element, part)
            else:
                element.send_keys(part)


# ---------- Console errors ----------

# WebKit has no browser log over WebDriver, so each page gets this capture as soon as it has loaded (see
# after_navigation). It records what Chromium's log calls SEVERE: uncaught errors, unhandled rejections,
# console.error, Content-Security-Policy violations, and resources answered with 4xx/5xx (in Chromium's wording,
# "<url> - Failed to load resource: the server responded with a status of 404 (Not Found)", so the tests' filters
# match on both engines). Failed answers that came before the capture are found in the page's resource timing.
CONSOLE_CAPTURE = r"""
(() => {
  if (window.__troveConsole) return;
  const log = window.__troveConsole = [];
  const add = (message) => log.push({level: 'SEVERE', message, source: 'webkit-capture'});
  const text = (v) => {
    if (v instanceof Error) return `${v.name}: ${v.message}`;
    if (typeof v === 'string') return v;
    try { return JSON.stringify(v); } catch (e) { return String(v); }
  };
  const failed = (url, status, statusText) =>
    add(`${url} - Failed to load resource: the server responded with a status of ${status}${statusText ? ` (${statusText})` : ''}`);
  const realError = console.error;
  console.error = function (...args) { add(`console.error: ${args.map(text).join(' ')}`); return realError.apply(this, args); };
  addEventListener('error', (e) => {
    if (e instanceof ErrorEvent) add(`${e.filename}:${e.lineno}:${e.colno} Uncaught ${e.message}`);
    else if (e.target && e.target !== window) add(`${e.target.currentSrc || e.target.src || e.target.href} - Failed to load resource`);
  }, true);
  addEventListener('unhandledrejection', (e) => add(`Uncaught (in promise) ${text(e.reason)}`));
  document.addEventListener('securitypolicyviolation', (e) =>
    add(`Refused by the Content-Security-Policy (${e.violatedDirective}): ${e.blockedURI}`));
  // What went wrong while the page loaded, before this capture: js/shell.js (every page's first module) keeps the
  // page's first uncaught errors, unhandled rejections and CSP violations in troveEarlyErrors. They are taken once;
  // from here on this capture's own listeners see them. (Importing a module again to see the error its evaluation
  // threw does not work here: WebKit resolves such an import.)
  const early = window.troveEarlyErrors;
  if (early) {
    for (const message of early.splice(0)) add(`${message} (while the page loaded)`);
    early.push = () => 0;
  }
  const timing = typeof PerformanceResourceTiming !== 'undefined' && 'responseStatus' in PerformanceResourceTiming.prototype;
  const seen = new Set();
  const entry = (e) => { if (e.responseStatus >= 400 && !seen.has(e)) { seen.add(e); failed(e.name, e.responseStatus, ''); } };
  if (timing) {
    performance.getEntriesByType('navigation').forEach(entry);
    performance.getEntriesByType('resource').forEach(entry);
    new PerformanceObserver((list) => list.getEntries().forEach(entry)).observe({type: 'resource'});
  } else {
    const realFetch = window.fetch;
    window.fetch = function (input, init) {
      const url = new URL(input && input.url ? input.url : String(input), location.href).href;
      return realFetch.apply(this, arguments).then((r) => {
        if (r.status >= 400) failed(url, r.status, r.statusText);
        return r;
      });
    };
    const open = XMLHttpRequest.prototype.open;
    XMLHttpRequest.prototype.open = function (method, url) {
      this.addEventListener('loadend', () => { if (this.status >= 400) failed(new URL(url, location.href).href, this.status, this.statusText); });
      return open.apply(this, arguments);
    };
  }
})();
"""


def severe_console_entries(driver) -> list[dict]:
    """Console entries at SEVERE level since the last read (reading drains them).

    Chromium: the browser log. WebKit: what CONSOLE_CAPTURE recorded on the current page since it loaded, with what
    the page kept of its load (troveEarlyErrors, see CONSOLE_CAPTURE; a page reached by a click rather than by
    driver.get/refresh/back gets the capture at this read)."""
    if CHROMIUM:
        return [e for e in driver.get_log("browser") if e.get("level") == "SEVERE"]
    read = "const log = window.__troveConsole; if (!log) return null; return log.splice(0, log.length);"
    entries = driver.execute_script(read)
    if entries is None:
        after_navigation(driver)
        entries = driver.execute_script(read) or []
    return entries


# ---------- Things a page gets before (Chromium) or right after (WebKit) it loads ----------

def _geolocation_stub(position) -> str:
    """A navigator.geolocation that answers `position` ((latitude, longitude)) or refuses (None)."""
    return """
    (() => {
      const position = %s;
      const answer = (ok, fail) => setTimeout(() => {
        if (position) ok({coords: {latitude: position[0], longitude: position[1], accuracy: 10, altitude: null,
                                   altitudeAccuracy: null, heading: null, speed: null}, timestamp: Date.now()});
        else if (fail) fail({code: 1, message: 'User denied Geolocation', PERMISSION_DENIED: 1, POSITION_UNAVAILABLE: 2, TIMEOUT: 3});
      }, 0);
      const fake = {
        getCurrentPosition(ok, fail) { answer(ok, fail); },
        watchPosition(ok, fail) { answer(ok, fail); return 1; },
        clearWatch() {},
      };
      Object.defineProperty(navigator, 'geolocation', {value: fake, configurable: true});
    })();
    """ % json.dumps(list(position) if position else None)


def after_navigation(driver) -> None:
    """WebKit: give the current page the console capture, the location and the scripts the test asked for.
    The WebKit driver (conftest.TroveWebKit) calls this after get, refresh, back and forward."""
    if CHROMIUM:
        return
    scripts = [CONSOLE_CAPTURE]
    location = getattr(driver, "trove_location", "unset")
    if location != "unset":
        scripts.append(_geolocation_stub(location))
    scripts.extend(getattr(driver, "trove_preload", []))
    try:
        driver.execute_script("\n;\n".join(scripts))
    except Exception:  # a page still on about:blank or mid-navigation; the next read installs it
        pass


# The page's own writes (those with an Idempotency-Key: the outbox's, and a save sent as the page goes) fail as with
# no network while window.__troveOffline is set; the test's requests (`call`, no key) still reach the server, as
# another device's would. Set to 'all', every request fails (the page's reads too, and `call`). Every toast and save
# state the page shows is kept, even one gone before the test looks.
OFFLINE_WRITES = """
(() => {
  const real = window.fetch.bind(window);
  window.fetch = (input, init) => (window.__troveOffline
    && (window.__troveOffline === 'all' || (init && init.headers && init.headers['Idempotency-Key']))
    ? Promise.reject(new TypeError('Failed to fetch')) : real(input, init));
  const seen = window.__troveSeen = new Set();
  new MutationObserver(() => {
    for (const node of document.querySelectorAll('.toast, #save-state')) seen.add(node.textContent.trim());
  }).observe(document, {childList: true, subtree: true, characterData: true});
})();
"""


def add_preload_script(driver, source: str) -> None:
    """Run `source` in every page the test opens from now on.

    Chromium: before the page's own scripts (DevTools Page.addScriptToEvaluateOnNewDocument). WebKit: WebDriver
    has no such thing, so it runs as soon as the page has loaded (after driver.get/refresh/back), before the test
    does anything there; it is also run at once in the current page."""
    if CHROMIUM:
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": source})
        return
    driver.trove_preload = [*getattr(driver, "trove_preload", []), source]
    try:
        driver.execute_script(source)
    except Exception:
        pass


def allow_location(driver, base: str, latitude: float, longitude: float) -> None:
    """The browser says the person is at (latitude, longitude) and the site may know it.

    Chromium: DevTools permission and geolocation override. WebKit (whose geolocation comes from GeoClue, which a
    test machine lacks): navigator.geolocation is replaced, in each page, by one that answers this place."""
    if CHROMIUM:
        driver.execute_cdp_cmd("Browser.grantPermissions", {"permissions": ["geolocation"], "origin": base})
        driver.execute_cdp_cmd("Emulation.setGeolocationOverride", {"latitude": latitude, "longitude": longitude, "accuracy": 10})
        return
    driver.trove_location = (latitude, longitude)
    after_navigation(driver)


def refuse_location(driver, base: str) -> None:
    """The person refuses to share their location (WebKit: a navigator.geolocation that answers PERMISSION_DENIED)."""
    if CHROMIUM:
        driver.execute_cdp_cmd("Browser.setPermission", {"permission": {"name": "geolocation"}, "setting": "denied", "origin": base})
        return
    driver.trove_location = None
    after_navigation(driver)


def allow_clipboard(driver, base: str) -> None:
    """The site may read and write the clipboard. Chromium: DevTools permission. WebKit: MiniBrowser is started with
    --javascript-can-access-clipboard=true (conftest), which lets navigator.clipboard read without a paste prompt."""
    if CHROMIUM:
        driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": base, "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]})


def emulate_media(driver, color_scheme: str | None = None, reduced_motion: bool = False) -> None:
    """prefers-color-scheme and prefers-reduced-motion as a person sets them. Call it before opening a page.

    Chromium: DevTools Emulation.setEmulatedMedia. WebKit: MiniBrowser takes them when it starts (--dark-mode, and
    GTK's gtk-enable-animations setting for reduced motion), so the browser is started again with them (a fresh
    profile: no cookies, nothing stored)."""
    if CHROMIUM:
        features = []
        if color_scheme:
            features.append({"name": "prefers-color-scheme", "value": color_scheme})
        if reduced_motion:
            features.append({"name": "prefers-reduced-motion", "value": "reduce"})
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": features})
        return
    driver.relaunch(dark=color_scheme == "dark", reduced_motion=reduced_motion)


# ---------- Touch ----------

# WebKitWebDriver has no touch input (a "touch" pointer in W3C actions arrives as a mouse: pointerType "mouse", no
# touch events), so on WebKit a finger is played by the page's own events: pointer events with pointerType "touch"
# (implicitly captured by the element first touched, as a real finger's are) and touch events (all fingers down in
# `touches`), dispatched at the element first touched. Pointer capture calls on these pointers are accepted without
# effect, since the browser knows no such pointer. A short touch that does not move ends with a click, as a tap does.
SYNTHETIC_FINGER = r"""
const [kind, x, y, id] = arguments;
const all = window.__troveFingers || (window.__troveFingers = {active: new Map(), patched: false});
if (!all.patched) {
  all.patched = true;
  const ours = (pointerId) => pointerId >= 90 && pointerId < 100;
  for (const name of ['setPointerCapture', 'releasePointerCapture']) {
    const real = Element.prototype[name];
    Element.prototype[name] = function (pointerId) { if (ours(pointerId)) return; return real.apply(this, arguments); };
  }
  const has = Element.prototype.hasPointerCapture;
  Element.prototype.hasPointerCapture = function (pointerId) {
    return ours(pointerId) ? all.active.get(pointerId)?.target === this : has.apply(this, arguments);
  };
}
const f = kind === 'start' ? {id} : all.active.get(id);
if (!f) throw new Error(`finger ${id} is not down`);
if (kind !== 'end') Object.assign(f, {x, y});
const point = (p) => ({clientX: p.x, clientY: p.y, screenX: p.x, screenY: p.y, pageX: p.x + scrollX, pageY: p.y + scrollY});
const primary = () => [...all.active.keys()][0] === id || all.active.size === 0;
const pointer = (type, buttons) => f.target.dispatchEvent(new PointerEvent(type, {
  bubbles: true, cancelable: true, composed: true, view: window,
  pointerId: id, pointerType: 'touch', isPrimary: primary(), width: 10, height: 10, pressure: buttons ? 0.5 : 0,
  button: type === 'pointermove' ? -1 : 0, buttons, ...point(f)}));
const touchOf = (p) => { try { return new Touch({identifier: p.id, target: p.target, radiusX: 5, radiusY: 5, force: 0.5, ...point(p)}); } catch (e) { return null; } };
const touch = (type) => {
  const list = [...all.active.values()].map(touchOf);
  const changed = touchOf(f);
  const init = {bubbles: true, cancelable: true, composed: true, view: window};
  let event;
  if (changed && list.every(Boolean) && typeof TouchEvent !== 'undefined') {
    event = new TouchEvent(type, {...init, touches: list, targetTouches: list.filter((t) => t.target === f.target), changedTouches: [changed]});
  } else {  // no Touch constructor: an event that reads the same
    event = new UIEvent(type, init);
    const plain = (p) => ({identifier: p.id, target: p.target, ...point(p)});
    Object.defineProperty(event, 'touches', {value: [...all.active.values()].map(plain)});
    Object.defineProperty(event, 'changedTouches', {value: [plain(f)]});
  }
  return f.target.dispatchEvent(event);
};
if (kind === 'start') {
  f.target = document.elementFromPoint(x, y) || document.body;
  Object.assign(f, {x0: x, y0: y, t0: performance.now(), moved: false});
  const first = all.active.size === 0;
  all.active.set(id, f);
  f.isPrimary = first;
  f.prevented = !pointer('pointerdown', 1);
  touch('touchstart');
} else if (kind === 'move') {
  if (Math.hypot(x - f.x0, y - f.y0) > 10) f.moved = true;
  pointer('pointermove', 1);
  touch('touchmove');
} else {
  pointer('pointerup', 0);
  all.active.delete(id);
  const go = touch('touchend');
  if (!f.moved && go && !f.prevented && all.active.size === 0 && performance.now() - f.t0 < 500) {
    const over = document.elementFromPoint(f.x, f.y) || f.target;
    over.dispatchEvent(new MouseEvent('click', {bubbles: true, cancelable: true, composed: true, view: window, detail: 1, ...point(f)}));
  }
}
"""


class Finger:
    """One finger on the screen, at viewport (CSS px) coordinates: down, move, up.

    Chromium: DevTools Input.dispatchTouchEvent (real touch input; one finger at a time: for two, use W3C actions
    with two touch pointers, which chromedriver supports). WebKit: SYNTHETIC_FINGER (see above); `number` (0-9)
    tells fingers apart, so several can be down at once."""

    def __init__(self, driver, number: int = 1):
        self.driver = driver
        self.id = 90 + number
        self.at = None

    def _send(self, kind: str, x: float | None = None, y: float | None = None) -> None:
        if CHROMIUM:
            cdp = {"start": "touchStart", "move": "touchMove", "end": "touchEnd"}[kind]
            points = [] if kind == "end" else [{"x": x, "y": y}]
            self.driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": cdp, "touchPoints": points})
        else:
            self.driver.execute_script(SYNTHETIC_FINGER, kind, x, y, self.id)

    def down(self, x: float, y: float) -> "Finger":
        self.at = (x, y)
        self._send("start", x, y)
        return self

    def move(self, x: float, y: float) -> "Finger":
        self.at = (x, y)
        self._send("move", x, y)
        return self

    def up(self) -> "Finger":
        self._send("end")
        self.at = None
        return self


def swipe(driver, start: tuple[float, float], steps: list[tuple[float, float]]) -> None:
    """A finger goes down at `start`, moves through `steps`, and lifts."""
    finger = Finger(driver).down(*start)
    for point in steps:
        finger.move(*point)
    finger.up()


def outbox(driver) -> list[dict]:
    """The writes waiting in the device's outbox (js/sync.js: IndexedDB 'trove-sync')."""
    return driver.execute_async_script(
        """
        const done = arguments[arguments.length - 1];
        const open = indexedDB.open('trove-sync');
        open.onupgradeneeded = () => open.transaction.abort();  // no database yet: do not make an empty one
        open.onerror = () => done([]);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('outbox')) { db.close(); return done([]); }
          const all = db.transaction('outbox').objectStore('outbox').getAll();
          all.onsuccess = () => { db.close(); done(all.result); };
          all.onerror = () => { db.close(); done([]); };
        };
        """
    )


def call(driver, method: str, path: str, body=None):
    """A request from inside the page, with its cookie (the page's profile): (status, JSON, or text that is not JSON).

    A GET that never got an answer (status 0: WebKit's "Load failed", once on a loaded CI machine) is asked once
    more: it is the test's own look at the server, and a browser asks an idempotent request again too. A failure
    says where the page was, to tell a page going away from the network."""
    script = """
        const [method, path, body, done] = arguments;
        const init = {method, credentials: 'same-origin', headers: {Accept: 'application/json'}};
        if (body !== null) { init.headers['Content-Type'] = 'application/json'; init.body = JSON.stringify(body); }
        fetch(path, init).then(r => r.text().then(t => done({status: r.status, body: t})))
          .catch(e => done({status: 0, body: `${e} (on ${location.pathname}${location.hash}, ${document.readyState})`}));
        """
    result = driver.execute_async_script(script, method, path, body)
    if result["status"] == 0 and method == "GET":
        time.sleep(0.5)
        result = driver.execute_async_script(script, method, path, body)
    text = result["body"]
    try:
        return result["status"], (json.loads(text) if text else None)
    except ValueError:
        return result["status"], text
