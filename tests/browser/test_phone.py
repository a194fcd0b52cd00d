"""Phone reach: every page at 320x568 and 375x667, as a phone lays it out (see browser_support.set_viewport), and at
375x667 with its text at 200% (a phone's larger text: the root font size, which every rem of the pages follows).

For each page (phone_pages.PAGES) and viewport: no horizontal scrolling; every visible control is at least 44x44 CSS
px (WCAG 2.5.5), lies inside the viewport's width (and, inside a box that scrolls sideways, inside the part of that
box on screen) and overlaps no other control; the text a person reads is at least 16 px; the outbox's line in the
header is there from the first paint, so filling it in moves nothing; with larger text, no control's word is split
across lines ("Tr|o|v|e"). The test id names the page and the viewport; a
failure's report adds the engine (conftest).
"""

from __future__ import annotations

import pytest

from browser_support import SPLIT_WORDS, set_viewport, wait, wait_for_layout
from phone_pages import PAGES, open_page

# (width, height, text size in %).
VIEWPORTS = [(320, 568, 100), (375, 667, 100), (320, 568, 200)]
CONTROLS = "a, button, summary, label, select, [role=tab]"

MIN_TARGET = 44
MIN_TEXT = 16

# Read text whose computed font size must be at least MIN_TEXT.
READ_TEXT = ", ".join([
    "p", "li", "label", "td", "th", "dd", "blockquote", "input", "select", "textarea",
    "#card-text",                         # the Oblique Strategies card
    ".story-text", "#chapter-text",       # a chapter of a story
    "#poem-text",                         # a published poem, as text
])

# Controls left out of the size and overlap checks, each for a reason.
FREE_CONTROLS = {
    # The magnets on the fridge door are the poem itself, not controls around it: their size (the poem's own font
    # size, scaled to the board's width) and where they lie (over each other, as the poet left them) are the
    # composition, WCAG 2.5.8's "essential" exception. Each is also reached with Tab and moved with the arrow keys
    # (test_poetry.py), and the published poem is read as text (#poem-text, checked for its size above).
    "#board .pm-magnet": "a word magnet on the board",
}

# Smaller text allowed, each for a reason: text that is secondary to what is read, and says so in its form.
SECONDARY_TEXT = {
    "small": "fine print by definition (an attribution, a unit, a hint under a field)",
    "figcaption": "a caption under a picture or map",
    ".site-footer p": "the page footer (a tagline and the profile link; not part of any app)",
    "[role=note]": "a footnote-style aside",
    ".visually-hidden, .sr-only": "not shown at all (read by screen readers only)",
}

CHECK = r"""
const [minTarget, minText, readText, secondary, free] = arguments;
const W = document.documentElement.clientWidth, innerW = innerWidth;
const sx = scrollX, sy = scrollY;
const problems = {scroll: null, small: [], outside: [], overlap: [], text: []};
const scrollWidth = document.documentElement.scrollWidth;
if (scrollWidth > innerW) problems.scroll = `scrollWidth ${scrollWidth} > innerWidth ${innerW}`;

const describe = (el) => {
  let s = el.tagName.toLowerCase();
  if (el.id) s += '#' + el.id;
  else if (el.classList.length) s += '.' + [...el.classList].slice(0, 2).join('.');
  const name = (el.getAttribute('aria-label') || el.textContent || el.value || el.getAttribute('placeholder') || '').trim().replace(/\s+/g, ' ');
  return name ? `${s} "${name.slice(0, 30)}"` : s;
};
const shown = (el) => {
  if (el.closest('[hidden], [inert]')) return false;
  if (el.checkVisibility && !el.checkVisibility({checkOpacity: true, checkVisibilityCSS: true})) return false;
  const cs = getComputedStyle(el);
  if (cs.visibility !== 'visible' || cs.display === 'none') return false;
  const r = el.getBoundingClientRect();
  return r.width > 0 && r.height > 0;
};
// Visually hidden (the "sr-only" pattern: 1 px, clipped, or moved off the page, as the skip link is until focused).
const visuallyHidden = (el, r) => {
  if (r.width <= 2 || r.height <= 2) return true;
  if (r.right + sx <= 0 || r.bottom + sy <= 0) return true;
  for (let e = el; e && e !== document.body; e = e.parentElement) {
    const cs = getComputedStyle(e);
    if ((cs.clip && cs.clip !== 'auto' && /rect\(0(px)?,? 0(px)?/.test(cs.clip)) || cs.clipPath === 'inset(50%)') return true;
  }
  return false;
};
const pageRect = (r) => ({left: r.left + sx, top: r.top + sy, right: r.right + sx, bottom: r.bottom + sy,
                          width: r.width, height: r.height});
// A control's target: itself, or for a checkbox or radio (often visually hidden inside its label), the largest of
// it and its labels, since tapping the label works the control (WCAG counts the label as the target).
const target = (el) => {
  let best = el.getBoundingClientRect();
  if (el.labels && /^(checkbox|radio|file|color|range)$/.test(el.type || '')) {
    for (const label of el.labels) {
      const r = label.getBoundingClientRect();
      if (shown(label) && r.width * r.height > best.width * best.height) best = r;
    }
  }
  return best;
};
// Inline links inside running text (a sentence in a p, li, dd, td, label …) are exempt from the target size, as
// WCAG 2.5.8's "inline" exception has it: their size is the line's, and the sentence's spacing keeps them apart.
const inlineLink = (el) => {
  if (el.tagName !== 'A' || getComputedStyle(el).display !== 'inline') return false;
  const block = el.parentElement && el.parentElement.closest('p, li, dd, td, label, small, figcaption, blockquote, span');
  if (!block) return false;
  return block.textContent.trim().length > el.textContent.trim().length;
};
// Controls floating over the page (position fixed or sticky: a toast, a bar) overlap what scrolls under them by
// design; the overlap check leaves those pairs out.
const floating = (el) => {
  for (let e = el; e; e = e.parentElement) {
    const p = getComputedStyle(e).position;
    if (p === 'fixed' || p === 'sticky') return true;
  }
  return false;
};
// A control inside a box that scrolls sideways (a row of chips or tabs) is measured against the part of that box
// a person sees: its padding box, inside the viewport. One that shows only once the row is scrolled is off-screen
// as much as one beyond the viewport (a thin scroll bar, if any, is all that hints at it).
const scroller = (el) => {
  for (let e = el.parentElement; e && e !== document.body; e = e.parentElement) {
    const o = getComputedStyle(e).overflowX;
    if ((o === 'auto' || o === 'scroll') && e.scrollWidth > e.clientWidth) return e;
  }
  return null;
};

const freeSelector = Object.keys(free).join(', ');
const SELECTOR = 'a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button], [tabindex]';
const controls = [];
for (const el of document.querySelectorAll(SELECTOR)) {
  // tabindex="-1" alone makes a programmatic focus target (the <main> the skip link moves to, a heading the page
  // focuses after a change), not a control.
  if (el.matches('[tabindex="-1"]') && !el.matches('a[href], button, input, select, textarea, summary, [role=button]')) continue;
  if (el.disabled || el.closest(freeSelector)) continue;
  if (!shown(el)) {
    // A visually hidden checkbox or radio is still worked through its label.
    const label = el.labels && /^(checkbox|radio|file)$/.test(el.type || '') && [...el.labels].find(shown);
    if (label) controls.push({el, r: pageRect(target(el)), name: describe(label)});
    continue;
  }
  const raw = el.getBoundingClientRect();
  if (visuallyHidden(el, raw) && !(el.labels && el.labels.length)) continue;
  const r = target(el);
  controls.push({el, r: pageRect(r), name: describe(el)});
}

for (const c of controls) {
  if (!inlineLink(c.el) && (c.r.width < minTarget - 0.5 || c.r.height < minTarget - 0.5)) {
    problems.small.push(`${c.name}: ${c.r.width.toFixed(1)}x${c.r.height.toFixed(1)}`);
  }
  const box = scroller(c.el);
  let [lo, hi, within] = [sx, sx + W, `viewport 0..${W}`];
  if (box) {
    const b = box.getBoundingClientRect();
    const left = Math.max(0, b.left + box.clientLeft), right = Math.min(W, b.left + box.clientLeft + box.clientWidth);
    [lo, hi, within] = [left + sx, right + sx, `the visible ${left.toFixed(1)}..${right.toFixed(1)} of ${describe(box)}, which scrolls sideways`];
  }
  if (c.r.left < lo - 0.5 || c.r.right > hi + 0.5) {
    problems.outside.push(`${c.name}: x ${(c.r.left - sx).toFixed(1)}..${(c.r.right - sx).toFixed(1)} (${within})`);
  }
}
for (let i = 0; i < controls.length; i++) {
  for (let j = i + 1; j < controls.length; j++) {
    const a = controls[i], b = controls[j];
    if (a.el.contains(b.el) || b.el.contains(a.el)) continue;            // nested: one control inside another
    if (a.el.labels && [...a.el.labels].some(l => l.contains(b.el) || b.el.contains(l))) continue;
    if (b.el.labels && [...b.el.labels].some(l => l.contains(a.el) || a.el.contains(l))) continue;
    if (floating(a.el) !== floating(b.el)) continue;
    // A map's own buttons (zoom in, zoom out) lie over the map they work, as on every map.
    if (a.el.tagName === 'CANVAS' || b.el.tagName === 'CANVAS') continue;
    const w = Math.min(a.r.right, b.r.right) - Math.max(a.r.left, b.r.left);
    const h = Math.min(a.r.bottom, b.r.bottom) - Math.max(a.r.top, b.r.top);
    if (w > 1 && h > 1) problems.overlap.push(`${a.name} and ${b.name} (${w.toFixed(1)}x${h.toFixed(1)})`);
  }
}

const exempt = Object.keys(secondary).join(', ');
for (const el of document.querySelectorAll(readText)) {
  if (!shown(el) || el.closest(exempt)) continue;
  if (el.matches('input[type=checkbox], input[type=radio], input[type=range], input[type=color]')) continue;  // no text
  const own = el.matches('input, select, textarea') ||
    [...el.childNodes].some(n => n.nodeType === Node.TEXT_NODE && n.textContent.trim());
  if (!own) continue;
  const size = parseFloat(getComputedStyle(el).fontSize);
  if (size < minText - 0.01) problems.text.push(`${describe(el)}: ${size}px`);
}
return problems;
"""


# The pages whose script keeps an outbox (js/sync.js) and so says in the header whether everything is saved.
PAGES_WITH_OUTBOX = {"strategies", "poetry", "cities", "cities-city", "yoga", "stories", "stories-reader", "stories-map"}

# Where <main> starts with the outbox's line filled in and with it emptied, and whether the served HTML has the line
# already (filled in by a script that reads IndexedDB first, a line added later would push the page down under a
# finger about to tap: a map's dot missed in the WebKit suite that way).
OUTBOX_LINE = """
const done = arguments[arguments.length - 1];
const line = document.getElementById('sync-status'), main = document.getElementById('main');
const filled = main.getBoundingClientRect().top;
const text = line.textContent;
line.textContent = '';
const empty = main.getBoundingClientRect().top;
line.textContent = text;
fetch(location.href, {credentials: 'same-origin'}).then(r => r.text())
  .then(html => done({filled, empty, served: html.includes('id="sync-status"')}), e => done({error: String(e)}));
"""


def _outbox_line_problems(browser, name: str) -> list[str]:
    if name not in PAGES_WITH_OUTBOX:
        present = browser.execute_script("return !!document.getElementById('sync-status')")
        return ["shows the outbox's line, but keeps no outbox"] if present else []
    wait(browser, lambda d: d.execute_script("return document.getElementById('sync-status')?.textContent"),
         f"{name} never said whether its changes are saved")
    line = browser.execute_async_script(OUTBOX_LINE)
    problems = []
    if not line.get("served"):
        problems.append(f"the outbox's line is not in the served page, so it is added later: {line}")
    if line.get("filled") != line.get("empty"):
        problems.append(f"filling in the outbox's line moves the page from y {line.get('empty')} to {line.get('filled')}")
    return problems


# A summary whose disclosure marker is gone (display: flex drops it) and has no drawn one reads as a heading.
UNMARKED_SUMMARIES = r"""
return [...document.querySelectorAll('summary')].filter((s) => s.getClientRects().length).filter((s) => {
  const own = getComputedStyle(s), drawn = getComputedStyle(s, '::before').content;
  return !(own.display === 'list-item' && own.listStyleType !== 'none') && ['none', 'normal', '""'].includes(drawn);
}).map((s) => `"${s.textContent.trim().slice(0, 40)}"`);
"""


def _unique(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=[f"{w}x{h}" + (f"-text{t}" if t != 100 else "") for w, h, t in VIEWPORTS])
@pytest.mark.parametrize("page", PAGES, ids=[p[0] for p in PAGES])
def test_page_fits_a_phone(request, browser, page, viewport):
    width, height, text = viewport
    set_viewport(browser, width, height)
    url = open_page(request, browser, page)
    if text != 100:
        browser.execute_script("document.documentElement.style.fontSize = arguments[0]", f"{text}%")
        wait_for_layout(browser, url)
    problems = browser.execute_script(CHECK, MIN_TARGET, MIN_TEXT, READ_TEXT, SECONDARY_TEXT, FREE_CONTROLS)
    found = []
    if problems["scroll"]:
        found.append(f"scrolls sideways: {problems['scroll']}")
    for key, what in (("small", f"controls smaller than {MIN_TARGET}x{MIN_TARGET}"),
                      ("outside", "controls outside the viewport's width"),
                      ("overlap", "controls overlapping"),
                      ("text", f"read text under {MIN_TEXT}px")):
        if problems[key]:
            found.append(f"{what}:\n    " + "\n    ".join(_unique(problems[key])))
    if split := browser.execute_script(SPLIT_WORDS, CONTROLS):
        found.append("words split across lines:\n    " + "\n    ".join(_unique(split)))
    if unmarked := browser.execute_script(UNMARKED_SUMMARIES):
        found.append("disclosures that do not show they open (no marker):\n    " + "\n    ".join(_unique(unmarked)))
    found += _outbox_line_problems(browser, page[0])
    where = f"{page[0]} ({url}) at {width}x{height}" + (f", text at {text}%" if text != 100 else "")
    assert not found, f"{where}:\n  " + "\n  ".join(found)
