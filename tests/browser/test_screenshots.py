"""`make screenshots`: every page (phone_pages.PAGES) at 375x667, saved to screenshots/<engine>/<page>.png.

Only `make screenshots` runs these (it sets TROVE_SCREENSHOTS=1); the normal suite does not collect this file
(conftest.py's collect_ignore): it takes pictures and checks nothing the other tests don't. The folder is
git-ignored; the README's pictures are copied from it to docs/screenshots/ by the same target.
"""

from __future__ import annotations

import pytest

from browser_support import ENGINE, set_viewport
from conftest import SCREENSHOTS
from phone_pages import PAGES, open_page

@pytest.mark.parametrize("page", PAGES, ids=[p[0] for p in PAGES])
def test_screenshot(request, browser, page):
    set_viewport(browser, 375, 667)
    open_page(request, browser, page)
    browser.execute_script("window.scrollTo(0, 0); document.activeElement?.blur?.()")
    folder = SCREENSHOTS / ENGINE
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{page[0]}.png"
    assert browser.save_screenshot(str(path)), f"{ENGINE}: no screenshot of {page[0]}"
    assert path.stat().st_size > 1000
