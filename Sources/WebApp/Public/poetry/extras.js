// Magnetic Poetry: what the page needs only when asked (loaded on first use, outside the first load's
// budget): Undo and Redo, the poem as text for the clipboard, its picture (share.js), the background picture, the
// public link and deleting a poem (with Undo). Each function takes the page's context `c` (poetry.js): ui, state, board, saver, …
import { api, toast, undoable } from '../js/api.js';
import { prepare, send, waitingNow } from '../js/sync.js';
import { copyText } from './dom.js';
import { linesOf } from './spelling.js';
import { isTemp, SCOPE, UNTITLED } from './save.js';
import { withAPIKeys } from './board.js';
import { toast as note } from '../js/toast.js';

const titleOf = (c) => c.ui.poemTitle.value.trim() || UNTITLED;

/** "Copy as text": the words on the board in reading order, suffixes joined (spelling.js). */
export async function copyPoem(c) {
  const text = linesOf(c.board.snapshot().items).join('\n');
  c.ui.poemText.textContent = text;
  if (!text) return toast('The board is empty: put some words on it first.');
  toast((await copyText(text)) ? 'Poem copied as text' : text);
}

/** The board as a PNG with the poem's title, and share.js. */
async function picture(c) {
  const share = await import('./share.js');
  const dark = matchMedia('(prefers-color-scheme: dark)').matches;
  const png = await share.renderPNG(c.board.snapshot(), {
    background: c.state.poem.has_background ? c.ui.boardBg : null,
    dark,
    title: titleOf(c),
  });
  return [png, share];
}

export async function share(c) {
  const [png, module] = await picture(c);
  const result = await module.shareOrDownload(png, { title: titleOf(c), link: c.ui.pngLink });
  if (result === 'downloaded') toast(`Picture saved as ${c.ui.pngLink.download}`);
}

export async function download(c) {
  const [png, module] = await picture(c);
  module.download(png, c.ui.pngLink, titleOf(c));
}

export async function uploadBackground(c, file) {
  const poem = c.state.poem;
  const error = c.ui.backgroundError;
  error.textContent = '';
  if (!file || !poem) return;
  if (isTemp(poem.id)) return void (error.textContent = 'This poem is not on Trove yet. Add a picture once you are back online.');
  if (file.size > 10 * 1024 * 1024) return void (error.textContent = 'That picture is larger than 10 MB. Please choose a smaller one.');
  await c.saver.flush();
  let response;
  let data = null;
  try {
    response = await fetch(`${c.poemPath(poem)}/background`, {
      method: 'POST',
      credentials: 'same-origin',
      body: file,
      headers: { 'Content-Type': file.type || 'application/octet-stream', Accept: 'application/json' },
    });
    data = await response.json().catch(() => null);
  } catch {
    return void (error.textContent = 'Could not reach Trove. Please try again.');
  }
  if (!response.ok) {
    error.textContent =
      (data && data.error && data.error.message) ||
      (response.status === 413 ? 'That picture is larger than 10 MB.' : 'That picture could not be used.');
    return;
  }
  if (data && !c.saver.running) c.saver.keepCopy(data);
  if (c.state.poem !== poem) return;
  poem.has_background = true;
  if (data && typeof data.version === 'number' && !c.saver.running) c.saver.poem.version = poem.version = data.version;
  c.showBackground();
  c.say('Background set');
}

/** After a 204 that may have raised the version; the poem as the server now has it is the device's copy. */
async function refreshVersion(c, poem) {
  const fresh = await api('GET', c.poemPath(poem)).catch(() => null);
  if (!fresh || c.saver.running) return;
  c.saver.keepCopy(fresh);
  if (c.state.poem === poem) c.saver.poem.version = poem.version = fresh.version;
}

export async function removeBackground(c) {
  const poem = c.state.poem;
  try {
    await api('DELETE', `${c.poemPath(poem)}/background`);
  } catch (error) {
    if (error.status !== 404) return c.fail(error);
  }
  poem.has_background = false;
  c.showBackground();
  c.ui.backgroundInput.value = '';
  c.ui.backgroundInput.focus();
  c.say('Background removed');
  await refreshVersion(c, poem);
}

export async function publish(c) {
  const poem = c.state.poem;
  await c.saver.flush();
  if (isTemp(poem.id) || waitingNow(SCOPE)) return toast('This poem is not on Trove yet. Publish it once you are back online.');
  const saved = await api('POST', `${c.poemPath(poem)}/publish`);
  if (!c.saver.running) c.saver.keepCopy(saved);
  poem.public_id = saved.public_id;
  if (typeof saved.version === 'number' && !c.saver.running) c.saver.poem.version = poem.version = saved.version;
  c.showPublished();
  c.ui.sharePanel.open = true;
  toast((await copyText(c.ui.publishLink.href)) ? 'Published. Link copied.' : 'Published.');
  c.ui.unpublish.focus();
}

export async function unpublish(c) {
  const poem = c.state.poem;
  try {
    await api('DELETE', `${c.poemPath(poem)}/publish`);
  } catch (error) {
    if (error.status !== 404) return c.fail(error);
  }
  poem.public_id = null;
  c.showPublished();
  c.ui.publish.focus();
  c.say('The link no longer works');
  await refreshVersion(c, poem);
}

export async function copyLink(c) {
  toast((await copyText(c.ui.publishLink.href)) ? 'Link copied' : c.ui.publishLink.href);
}

/**
 * Deletes a poem at once, with Undo: the DELETE is sent (or queued, offline) when the Undo runs out or the page is
 * left (toast.js `undoable`), so Undo puts the poem back as it was. When it was the open one, the newest left opens meanwhile.
 */
export async function deletePoem(c, id) {
  const poem = c.state.poems.find((p) => p.id === id);
  if (!poem) return;
  prepare(); // leaving the page commits the DELETE, which then starts at once (js/sync.js)
  const open = c.state.poem && c.state.poem.id === id;
  const index = c.state.poems.indexOf(poem);
  const leaving = (c.state.leaving ??= new Set()); // off the list while its Undo runs (refresh.js too)
  const back = () => {
    leaving.delete(id);
    if (!c.state.poems.some((p) => p.id === id)) c.state.poems.splice(Math.min(index, c.state.poems.length), 0, poem);
    c.renderPoems();
  };
  if (open) await c.saver.flush();
  leaving.add(id);
  c.state.poems = c.state.poems.filter((p) => p.id !== id);
  if (open) {
    c.state.poem = null;
    c.saver.close();
    await c.openNewest(); // the deleted poem's address is gone
  }
  c.renderPoems();
  undoable(`“${poem.title}” deleted`, {
    undo: async () => {
      back();
      if (open) {
        await c.openPoem(id);
        c.address();
      }
      c.say('Poem restored');
    },
    // Without a signal the DELETE waits in the outbox, in place of any save of the poem still waiting there.
    commit: async ({ keepalive }) => {
      const label = `the deletion of “${poem.title}”`;
      try {
        await send('DELETE', c.poemPath(poem), undefined, {
          scope: SCOPE,
          replace: `poem:${id}`,
          label,
          resolves: ['not_found'],
          keepalive,
        });
      } catch (error) {
        if (error.status !== 404) {
          back();
          return toast(`Not deleted: “${poem.title}”. ${error.message}`);
        }
      }
      leaving.delete(id);
      c.saver.dropCopy(id);
      c.forgetUndo(id);
    },
  });
}

/** The board as it was before the last step; what it replaced comes back with Redo, until the next change. */
export function undo(c) {
  const last = c.state.undo.pop();
  if (!last) return;
  c.state.redo.push(JSON.stringify(c.board.data));
  step(c, last.board);
  offerRedo(c, 'Undone');
}

export function redo(c) {
  const next = c.state.redo.pop();
  if (!next) return;
  c.state.undo.push({ key: null, at: 0, board: JSON.stringify(c.board.data) });
  if (c.state.undo.length > 20) c.state.undo.shift();
  step(c, next);
  if (c.state.redo.length) offerRedo(c, 'Redone');
  else {
    offerRedo(c, null);
    c.say('Redone');
  }
}

/** One toast with Redo (a phone has no keyboard) while there is something to redo; each step replaces the last. */
let offered = null;
function offerRedo(c, message) {
  if (offered) {
    offered.stopped = true; // not shown yet, it never will be
    offered.stop?.();
    offered.remove();
  }
  offered = message && note(message, { timeout: 8000, action: { label: 'Redo', run: c.redo, keys: 'Control+Shift+Z Meta+Shift+Z' } });
}

function step(c, board) {
  c.keepUndo();
  c.board.load(withAPIKeys(JSON.parse(board)));
  c.sync();
  c.changed();
}
