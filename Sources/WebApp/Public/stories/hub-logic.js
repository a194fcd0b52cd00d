// Choose Your Destiny hub: pure logic for bylines, authors, the views' URLs, library progress and where the
// catalog's stories come from (no DOM, tested with node in tests/js/stories-hub.test.mjs).
import { plural } from '../js/format.js';
import { fold } from './logic.js';

/** The house author: stories that came with Trove and have no owner. */
export const HOUSE = 'Trove';

// ---------- Bylines and authors ----------

/**
 * Who a story is by: {name, account, house, penName}. `author` is the byline the server gives (the account's
 * name; "Trove" only for a story without an owner); `author_account` names the account (null for the house);
 * `pen_name` is the name written in the file when it differs, shown beside the byline, never instead of it.
 * A server from before bylines (no `author_account` key) gives only `author`: it stands for itself.
 */
export function byline(story) {
  const known = Object.prototype.hasOwnProperty.call(story, 'author_account');
  const account = known ? story.author_account || null : null;
  const name = String(story.author || account || '').trim() || HOUSE;
  const house = known ? account === null : name === HOUSE;
  const pen = typeof story.pen_name === 'string' ? story.pen_name.trim() : '';
  return { name, account, house, penName: pen && fold(pen) !== fold(name) ? pen : null };
}

/** The key of an author in a URL's query: {author: account-or-name} or {house: 'true'}. */
export function authorQuery(story) {
  const by = byline(story);
  return by.house ? { house: 'true' } : { author: by.account || by.name };
}

/** Does `story` belong to the author a view's query names ({author} or {house})? */
export function byAuthor(story, query) {
  const by = byline(story);
  if (query.house === 'true') return by.house;
  if (!query.author) return true;
  return !by.house && (by.account || by.name) === query.author;
}

/**
 * The authors of the catalog's stories, as GET /api/v1/stories/authors lists them plus their stories:
 * [{name, account, house, query, stories}], the house first, then A to Z (case and accents aside).
 */
export function authorsOf(stories) {
  const groups = new Map();
  for (const story of stories) {
    const by = byline(story);
    const key = by.house ? '\u0000house' : `@${by.account || by.name}`;
    if (!groups.has(key)) groups.set(key, { name: by.name, account: by.account, house: by.house, query: authorQuery(story), stories: [] });
    groups.get(key).stories.push(story);
  }
  return [...groups.values()].sort((a, b) => (a.house !== b.house ? (a.house ? -1 : 1) : fold(a.name).localeCompare(fold(b.name))));
}

/** The heading of the catalog narrowed to one author: "Stories by ada". */
export function authorHeading(stories, query) {
  if (query.house === 'true') return `Stories by ${HOUSE}`;
  const one = stories.find((s) => byAuthor(s, query));
  return `Stories by ${one ? byline(one).name : query.author}`;
}

// ---------- Views ----------

export const TABS = ['library', 'catalog', 'authors'];

/**
 * The hub's view from its URL hash (js/router.js parseView): {tab, query}. The catalog is the first view (no
 * hash); '#library', '#authors', and '#catalog?author=ada' (or '?house=true') for one author's stories.
 */
export function hubView(parsed) {
  const tab = TABS.includes(parsed.name) ? parsed.name : 'catalog';
  const query = {};
  if (tab === 'catalog' && parsed.query) {
    if (parsed.query.house === 'true') query.house = 'true';
    else if (parsed.query.author) query.author = parsed.query.author;
  }
  return { tab, query };
}

// ---------- Progress on library cards ----------

/**
 * A reader's progress in a story, from the server's summary (`progress`: {chapter_id, chapter_name, steps,
 * endings_found, finished}) or, when it has none (a server from before, or offline), from this device's copy
 * of the place ({chapter_id, chapter_name, path, endings_found, finished}). Null before the first choice.
 */
export function progressOf(summary, copy) {
  const from = summary || copy;
  if (!from || !from.chapter_id) return null;
  const steps = Number.isFinite(from.steps) ? from.steps : Array.isArray(from.path) ? from.path.length : 1;
  const endings = Array.isArray(from.endings_found) ? from.endings_found.length : Number(from.endings_found) || 0;
  if (steps <= 1 && !endings && !from.finished) return null;
  return { chapterId: from.chapter_id, chapterName: from.chapter_name || '', steps, endings, finished: !!from.finished };
}

/** The card's lines for a progress: "At: The Tower" (or "Finished at: …") and "Endings found: 1 of 4". */
export function progressLines(progress, endingCount) {
  if (!progress) return [];
  const where = progress.chapterName ? `${progress.finished ? 'Finished at' : 'At'}: ${progress.chapterName}` : progress.finished ? 'Finished' : `${plural(progress.steps, 'chapter')} read`;
  return [where, `Endings found: ${progress.endings} of ${endingCount}`];
}

// ---------- Where the stories come from ----------

/**
 * "2 house stories · 1 uploaded by an account · 3 from GitHub authors": the catalog's stories counted by
 * where they come from (`source`: 'house' | 'upload' | 'github' when the server says; else the house is the
 * stories without an owner and the rest are uploads).
 */
export function sourcesLine(stories) {
  const count = { house: 0, upload: 0, github: 0 };
  for (const story of stories) {
    const source = ['house', 'upload', 'github'].includes(story.source) ? story.source : byline(story).house ? 'house' : 'upload';
    count[source] += 1;
  }
  const parts = [];
  if (count.house) parts.push(`${plural(count.house, 'house story', 'house stories')} from ${HOUSE}`);
  if (count.upload) parts.push(`${plural(count.upload, 'story', 'stories')} published here by ${count.upload === 1 ? 'an account' : 'accounts'}`);
  if (count.github) parts.push(`${plural(count.github, 'story', 'stories')} from GitHub authors`);
  return parts.join(' · ');
}
