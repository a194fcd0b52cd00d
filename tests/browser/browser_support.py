"""Helpers shared by the browser tests."""

from __future__ import annotations

MOBILE = (375, 667)
DESKTOP = (1280, 800)


def set_viewport(driver, width: int, height: int, mobile: bool | None = None) -> None:
    """Make the page's viewport exactly width x height CSS pixels.

    Window sizes are only a hint in headless Chromium, so this uses the
    DevTools device-metrics override. `mobile` (default: width < 768) turns on
    mobile emulation, where the page's <meta name=viewport> decides its layout
    width, as on a phone.
    """
    if mobile is None:
        mobile = width < 768
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile},
    )


def wait(driver, condition, message: str, timeout: float = 20):
    """Wait until `condition(driver)` is truthy, failing with `message` (generous: CI machines are busy)."""
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.support.ui import WebDriverWait

    try:
        return WebDriverWait(driver, timeout).until(condition)
    except TimeoutException:
        raise AssertionError(message) from None


def assert_page_weighs_under(driver, limit: int = 100_000) -> None:
    """The page's HTML, CSS and JS together stay under the budget (bytes before compression)."""
    sizes = driver.execute_script(
        """
        const [nav] = performance.getEntriesByType('navigation');
        const parts = performance.getEntriesByType('resource')
          .filter(e => /\\.(css|js)(\\?|$)/.test(new URL(e.name).pathname))
          .map(e => [new URL(e.name).pathname, e.decodedBodySize]);
        return [['html', nav.decodedBodySize], ...parts];
        """
    )
    total = sum(size for _, size in sizes)
    assert all(size > 0 for _, size in sizes), f"some sizes are unknown: {sizes}"
    assert total < limit, f"HTML + CSS + JS weigh {total} bytes: {sizes}"
