// Choose Your Destiny: pure logic shared by the hub and the reader (no DOM, tested with node).
import { plural } from '../js/format.js';

// ---------- The path a reader took ----------

/** The path after choosing `next`: the walk so far plus the chosen chapter. */
export const advance = (path, next) => [...path, next];

/** The path one step back (the start stays). */
export const stepBack = (path) => (path.length > 1 ? path.slice(0, -1) : [...path]);

/** The path cut back to its `index`-th chapter (0 is the start), to take another branch from there. */
export function rewindTo(path, index) {
  if (!Number.isInteger(index) || index < 0 || index >= path.length) return [...path];
  return path.slice(0, index + 1);
}

/** The progress body that makes `path` the reader's place: {"chapter_id", "path"}. */
export function progressBody(path) {
  return { chapter_id: path[path.length - 1], path: [...path] };
}

/** The bodies for the reader's moves. */
export const chooseBody = (path, next) => progressBody(advance(path, next));
export const backBody = (path) => progressBody(stepBack(path));
export const rewindBody = (path, index) => progressBody(rewindTo(path, index));
export const restartBody = (startId) => progressBody([startId]);

/**
 * The trail of chapters taken, for the rewind list: one entry per step with the chapter's name
 * (or its id when it has none); the last entry is the current chapter.
 */
export function trail(path, chaptersById) {
  return path.map((id, index) => {
    const chapter = chaptersById.get(id);
    return { id, index, name: (chapter && chapter.name) || `Chapter ${id}`, current: index === path.length - 1 };
  });
}

/**
 * Where to resume: the progress's path when it is a walk of this story that ends at its chapter,
 * otherwise the start (a story updated since, or a progress from nowhere).
 */
export function resumePath(progress, story, chaptersById) {
  const start = story.start_chapter_id;
  const path = progress && Array.isArray(progress.path) ? progress.path : [];
  if (!path.length || path[0] !== start || path[path.length - 1] !== progress.chapter_id) return [start];
  for (let i = 1; i < path.length; i += 1) {
    const from = chaptersById.get(path[i - 1]);
    if (!from || !from.choices.some((c) => c.chapter_id === path[i])) return [start];
  }
  return chaptersById.has(path[path.length - 1]) ? [...path] : [start];
}

// ---------- Reading offline ----------

/**
 * The progress a move makes when the server cannot be reached: the body's place, with the chapter
 * added to the endings found when it is an ending (as the server does).
 */
export function localProgress(body, chaptersById, endingsFound) {
  const found = Array.isArray(endingsFound) ? [...endingsFound] : [];
  const chapter = chaptersById.get(body.chapter_id);
  if (chapter && chapter.is_ending && !found.includes(chapter.id)) found.push(chapter.id);
  return { chapter_id: body.chapter_id, path: [...body.path], endings_found: found };
}

/**
 * How a reading move goes through the offline layer (js/sync.js `send`, last writer wins per `replace`): the
 * latest move replaces the waiting moves of the same story (the path is the reader's place), but a move that
 * reached an ending stays queued, once per ending, so the server counts that ending found. Sent in order, they
 * leave the server where the reader is.
 */
export function moveOptions(storyId, storyName, body, reachesEnding) {
  return {
    scope: 'stories',
    label: `Your place in “${storyName}”`,
    replace: reachesEnding ? `stories-ending:${storyId}:${body.chapter_id}` : `stories-place:${storyId}`,
  };
}

/** The device's copy of a reader's place: the progress with the chapter's name (for the library's cards). */
export function placeCopy(progress, chaptersById) {
  const chapter = chaptersById.get(progress.chapter_id);
  return {
    chapter_id: progress.chapter_id,
    chapter_name: (chapter && chapter.name) || '',
    path: [...progress.path],
    endings_found: [...(progress.endings_found || [])],
    finished: !!(chapter && chapter.is_ending),
  };
}

/** Every chapter this reader has been to: the ones kept before plus the path and endings of `progress`. */
export function visitedAfter(before, progress) {
  const seen = new Set(Array.isArray(before) ? before : []);
  for (const id of (progress && progress.path) || []) seen.add(id);
  for (const id of progress && Array.isArray(progress.endings_found) ? progress.endings_found : []) seen.add(id);
  for (const id of progress && Array.isArray(progress.visited) ? progress.visited : []) seen.add(id);
  return [...seen];
}

// ---------- Words ----------

/** "You read 7 chapters" for a path of 7 (the ending included); "You read 3 chapters in 5 steps" with some read again. */
export function readLine(path) {
  const chapters = new Set(path).size;
  return `You read ${plural(chapters, 'chapter')}${path.length > chapters ? ` in ${plural(path.length, 'step')}` : ''}`;
}

/** "Endings found: 2 of 4". */
/** "Endings found: 2 of 4: The Lamp Relit, Adrift" (the endings found, by name, in the order found). */
export function endingsLine(found, total, chaptersById = new Map()) {
  const names = found.map((id) => chaptersById.get(id)?.name).filter(Boolean);
  const line = `Endings found: ${found.length} of ${total}`;
  return names.length === found.length && names.length ? `${line}: ${names.join(', ')}` : line;
}

/** "15 chapters · 4 endings". */
export const countsLine = (story) => `${plural(story.chapter_count, 'chapter')} · ${plural(story.ending_count, 'ending')}`;

// ---------- Search ----------

/** Lower case without accents, so "Élan" matches "elan". */
export function fold(text) {
  return String(text ?? '')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

/** Does the story match every word of the query in its title, author, description or summary? */
export function matches(story, query) {
  const words = fold(query).split(/\s+/).filter(Boolean);
  if (!words.length) return true;
  const haystack = fold([story.name, story.author, story.description, story.summary].filter(Boolean).join(' \n '));
  return words.every((word) => haystack.includes(word));
}

export const filterStories = (stories, query) => stories.filter((story) => matches(story, query));

// ---------- Publishing ----------

// A zip holds story.json and its pictures in resources/; a Twine 2 published file is HTML.
const TYPES = {
  json: 'application/json',
  twee: 'text/plain',
  tw: 'text/plain',
  txt: 'text/plain',
  zip: 'application/zip',
  html: 'text/html',
  htm: 'text/html',
};
export const ACCEPT = '.json,.twee,.tw,.txt,.zip,.html,.htm';

/** The Content-Type to upload a story file with, from its name; null for a kind Trove does not read. */
export function uploadType(filename) {
  const match = /\.([a-z0-9]+)$/i.exec(String(filename ?? ''));
  return (match && TYPES[match[1].toLowerCase()]) || null;
}

/**
 * A failed upload as the page prints it, each message once: {heading, items}. One problem is the heading
 * alone (the API repeats it as the message and as its only detail); several are listed under the message.
 */
export function errorReport(error) {
  const lines = [...new Set(errorLines(error))];
  if (lines.length === 1) return { heading: lines[0], items: [] };
  const message = String((error && error.message) || '').replace(/[.:]?\s*$/, '');
  return { heading: message ? `${message}:` : 'The story has problems:', items: lines.filter((line) => line !== error.message) };
}

/** The messages of a failed upload: the API's details, or its message when there are none. */
export function errorLines(error) {
  const details = error && Array.isArray(error.details) ? error.details.filter((d) => typeof d === 'string' && d) : [];
  if (details.length) return details;
  return [(error && error.message) || 'That did not work. Please try again.'];
}

// ---------- Interactive stories (played by the server: GET/POST /api/v1/stories/{id}/play) ----------

/** Is `answer` a step of a played story, as GET/POST …/play answer it? */
export function isPlayStep(answer) {
  return (
    !!answer &&
    Number.isInteger(answer.step) &&
    answer.step >= 0 &&
    typeof answer.passage === 'string' &&
    Array.isArray(answer.trail) &&
    answer.trail.length === answer.step + 1 &&
    Array.isArray(answer.choices)
  );
}

/** The URL's place of a played story, from the router's args ['Dock Again', '3']: {passage, step} (step null when absent). */
export function playPlace(args) {
  const passage = Array.isArray(args) && typeof args[0] === 'string' ? args[0] : null;
  const step = Array.isArray(args) && /^\d+$/.test(String(args[1] ?? '')) ? Number(args[1]) : null;
  return { passage, step };
}

/**
 * The choice indexes that made `answer`'s trail (index i: the choice taken at step i), from those of the trail
 * before (`before`, for `oldTrail`) and the choice just taken (`taken`: {step, index}, or null for a rewind).
 * Only the choices of the part both trails share are kept; unknown ones (a place resumed from the server) are null.
 */
export function choicesAfter(before, oldTrail, answer, taken) {
  const old = Array.isArray(oldTrail) ? oldTrail : [];
  let common = 0;
  while (common < old.length && common < answer.trail.length && old[common] === answer.trail[common]) common += 1;
  const list = (Array.isArray(before) ? before : []).slice(0, Math.max(0, common - 1));
  while (list.length < answer.step) list.push(null);
  if (taken && Number.isInteger(taken.index) && answer.step === taken.step + 1 && common >= taken.step + 1) list[taken.step] = taken.index;
  return list.slice(0, answer.step);
}

const sameStart = (trail, prefix) => prefix.every((name, i) => trail[i] === name);

/**
 * How to show the place `wanted` ({passage, step} from the URL, Back, Forward or a reload) when the reader is
 * at `now` ({step, trail}); `entry` is what that history entry kept ({trail, choices}) or null:
 * - {kind: 'stay'}: the reader is there already;
 * - {kind: 'rewind', step}: an earlier step of the trail (POST {"step": k}: the variables as they were there);
 * - {kind: 'replay', choices, trail}: a later step this reader reached before (Forward): the choices taken
 *   again from `now`, one by one, each expected to reach the entry's trail (the story is deterministic);
 * - {kind: 'here'}: not a place this reader can be; the URL goes back to the reader's place.
 */
export function playMove(now, wanted, entry) {
  const { passage, step } = wanted || {};
  const at = now.trail[now.step];
  if (!passage) return { kind: 'here' };
  if (step === null || step === undefined) {
    if (passage === at) return { kind: 'stay' };
    const index = now.trail.lastIndexOf(passage);
    return index >= 0 ? { kind: 'rewind', step: index } : { kind: 'here' };
  }
  if (step === now.step) return passage === at ? { kind: 'stay' } : { kind: 'here' };
  if (step < now.step) return now.trail[step] === passage ? { kind: 'rewind', step } : { kind: 'here' };
  const trail = entry && Array.isArray(entry.trail) ? entry.trail : [];
  const choices = entry && Array.isArray(entry.choices) ? entry.choices : [];
  if (trail.length !== step + 1 || trail[step] !== passage || !sameStart(trail, now.trail.slice(0, now.step + 1))) return { kind: 'here' };
  const taken = choices.slice(now.step, step);
  if (taken.length !== step - now.step || !taken.every((i) => Number.isInteger(i) && i >= 0)) return { kind: 'here' };
  return { kind: 'replay', choices: taken, trail: trail.slice(0, step + 1) };
}

/** The device's copy of a played story's place, in the shape of placeCopy (for the library's cards). */
export function playPlaceCopy(answer, chaptersById) {
  const copy = placeCopy({ chapter_id: answer.passage, path: answer.trail, endings_found: answer.endings_found || [] }, chaptersById);
  return { ...copy, finished: !!answer.is_ending }; // a passage may end the story on one path only
}

/** "You are offline. This story needs a connection to go on: here is the last passage you read." */
export const playOfflineLine = (hasPlace) =>
  hasPlace
    ? 'You are offline. This story needs a connection to go on; here is the last passage you read.'
    : 'You are offline. This story needs a connection to go on.';
