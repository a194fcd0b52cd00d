// Choose Your Destiny hub: pure logic for bylines, authors, the views' URLs, library progress and where the
// catalog's stories come from (no DOM, tested with node in tests/js/stories-hub.test.mjs).
import { plural } from '../js/format.js';
import { fold } from './logic.js';

/** The house author: stories that came with Trove and have no owner. */
export const HOUSE = 'Trove';

/**
 * A story with no cover of its own: the first letter of its title's first word past "The", "A" or "An" (so the
 * house's stories do not all read "T"), on a hue drawn from the title.
 */
export function coverMark(name) {
  const words = String(name).trim().split(/\s+/);
  const word = words.length > 1 && /^(the|a|an)$/i.test(words[0]) ? words[1] : words[0];
  const letter = [...word].find((c) => /[\p{L}\p{N}]/u.test(c)) || '?';
  let hash = 0;
  for (const c of String(name)) hash = (hash * 31 + c.codePointAt(0)) >>> 0;
  return { letter: letter.toUpperCase(), hue: COVER_HUES[hash % COVER_HUES.length] };
}

// Hues that stay clear when darkened for the white letter (yellows and olives turn muddy).
const COVER_HUES = [262, 215, 190, 165, 135, 345, 20, 295];

// ---------- Bylines and authors ----------

/**
 * Who a story is by: {name, account, house, penName}. `author` is the byline the server gives: the publishing
 * account's name, or for a story no account owns the name written in it (a GitHub author's), "Trove" when none;
 * `author_account` names the account (null without one); `pen_name` is the name written in the file when it
 * differs, shown beside the byline, never instead of it. A server from before bylines gives only `author`.
 */
export function byline(story) {
  const account = story.author_account || null;
  const name = String(story.author || account || '').trim() || HOUSE;
  const pen = typeof story.pen_name === 'string' ? story.pen_name.trim() : '';
  return { name, account, house: !account && name === HOUSE, penName: pen && fold(pen) !== fold(name) ? pen : null };
}

/** An author in a URL's query: {account} for an account's stories, {author} for a name without one, {house}. */
export function authorQuery(story) {
  const by = byline(story);
  if (by.account) return { account: by.account };
  return by.house ? { house: 'true' } : { author: by.name };
}

/** Does `story` belong to the author a view's query names? */
export function byAuthor(story, query) {
  const by = byline(story);
  if (query.house === 'true') return by.house;
  if (query.account) return by.account === query.account;
  if (query.author) return !by.account && !by.house && by.name === query.author;
  return true;
}

/**
 * The authors of the catalog's stories, as GET /api/v1/stories/authors lists them, with their stories:
 * [{name, account, house, query, stories}], the house first, then A to Z (case and accents aside).
 */
export function authorsOf(stories) {
  const groups = new Map();
  for (const story of stories) {
    const by = byline(story);
    const query = authorQuery(story);
    const key = JSON.stringify(query);
    if (!groups.has(key)) groups.set(key, { name: by.name, account: by.account, house: by.house, query, stories: [] });
    groups.get(key).stories.push(story);
  }
  return [...groups.values()].sort((a, b) => (a.house !== b.house ? (a.house ? -1 : 1) : fold(a.name).localeCompare(fold(b.name))));
}

/** The heading of the catalog narrowed to one author: "Stories by ada". */
export function authorHeading(stories, query) {
  if (query.house === 'true') return `Stories by ${HOUSE}`;
  const one = stories.find((s) => byAuthor(s, query));
  return `Stories by ${one ? byline(one).name : query.account || query.author}`;
}

// ---------- Views ----------

export const TABS = ['library', 'catalog', 'authors'];

/**
 * The hub's view from its URL hash (js/router.js parseView): {tab, query}. The catalog is the first view (no
 * hash); '#library', '#authors', and one author's stories: '#catalog?account=ada' (an account),
 * '#catalog?author=Jo%20Smith' (a name without an account: a GitHub author) or '#catalog?house=true'.
 */
export function hubView(parsed) {
  const tab = TABS.includes(parsed.name) ? parsed.name : 'catalog';
  const query = {};
  if (tab === 'catalog' && parsed.query) {
    if (parsed.query.house === 'true') query.house = 'true';
    else if (parsed.query.account) query.account = parsed.query.account;
    else if (parsed.query.author) query.author = parsed.query.author;
  }
  return { tab, query };
}

// ---------- Progress on library cards ----------

/**
 * A reader's progress in a story, from the server's summary (`progress`: {chapter_id, chapter_name, steps (the
 * choices made), endings_found (a count), finished}) or, when it has none (a server from before, or offline),
 * from this device's copy of the place ({chapter_id, chapter_name, path, endings_found: [ids], finished}). The copy
 * comes first when it is newer (`deviceFirst`: moves made offline wait, or the summary is an offline copy).
 * Null before the first choice.
 */
export function progressOf(summary, copy, deviceFirst = false) {
  const from = deviceFirst ? copy || summary : summary || copy;
  if (!from || !from.chapter_id) return null;
  const steps = Number.isFinite(from.steps) ? from.steps : Array.isArray(from.path) ? Math.max(0, from.path.length - 1) : 0;
  const endings = Array.isArray(from.endings_found) ? from.endings_found.length : Number(from.endings_found) || 0;
  if (!steps && !endings && !from.finished) return null;
  return { chapterId: from.chapter_id, chapterName: from.chapter_name || '', steps, endings, finished: !!from.finished };
}

/** The card's lines for a progress: "At: The Tower" (or "Finished at: …") and "Endings found: 1 of 4". */
export function progressLines(progress, endingCount) {
  if (!progress) return [];
  const where = progress.chapterName
    ? `${progress.finished ? 'Finished at' : 'At'}: ${progress.chapterName}`
    : `${plural(progress.steps, 'choice')} made`;
  return [where, `Endings found: ${progress.endings} of ${endingCount}`];
}

// ---------- Where the stories come from ----------

/**
 * "2 house stories · 1 uploaded by an account · 3 from GitHub authors": the catalog's stories counted by
 * where they come from (`source`: 'house' | 'upload' | 'github' when the server says; else an account's story is
 * an upload, one without an account is the house's when it is by "Trove" and a GitHub author's otherwise).
 */
export function sourcesLine(stories) {
  const count = { house: 0, upload: 0, github: 0 };
  for (const story of stories) {
    const by = byline(story);
    const source = ['house', 'upload', 'github'].includes(story.source)
      ? story.source
      : by.house
        ? 'house'
        : by.account
          ? 'upload'
          : 'github';
    count[source] += 1;
  }
  const parts = [];
  if (count.house) parts.push(`${plural(count.house, 'house story', 'house stories')} from ${HOUSE}`);
  if (count.upload)
    parts.push(`${plural(count.upload, 'story', 'stories')} published here by ${count.upload === 1 ? 'an account' : 'accounts'}`);
  if (count.github) parts.push(`${plural(count.github, 'story', 'stories')} from GitHub authors`);
  return parts.join(' · ');
}
