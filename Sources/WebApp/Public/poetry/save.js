// Magnetic Poetry: poems saved whole through Trove's offline layer (js/sync.js): sent at once, or queued with an
// Idempotency-Key (a newer save of a poem replaces a waiting one), so a poem written offline arrives exactly once.
// A save unsent as the page goes away is sent with keepalive and kept to go through the outbox next time.
import { api, toast } from '../js/api.js';
import { send, all, waitingNow, update, keep, kept, unkeep } from '../js/sync.js';

export const SCOPE = 'poetry';
// As js/sync-logic.js names records made on a device (that module loads with the outbox, on the first write).
export const UNTITLED = 'Untitled poem';
/** What the title field shows: nothing, under its placeholder "Untitled poem", for a poem not given a title. */
export const shownTitle = (title) => (title === UNTITLED ? '' : title || '');
export const isTemp = (id) => typeof id === 'string' && id.startsWith('tmp-');
const tempId = () => `tmp-${crypto.randomUUID()}`;
export const idOf = (path) => decodeURIComponent(path.slice(path.lastIndexOf('/') + 1));
const LEFT = 'trove.poetry.left';

const readLeft = () => {
  try {
    return JSON.parse(localStorage.getItem(LEFT)) || [];
  } catch {
    return [];
  }
};
const writeLeft = (list) => {
  try {
    localStorage.setItem(LEFT, JSON.stringify(list));
  } catch {
    /* private mode */
  }
};

export class Saver {
  /**
   * `body()` gives {title, board}; `onSaved(poem)` the server's answer; `onState(kind)` saved, saving, offline or
   * error; `elsewhere(name, arg)` runs elsewhere.js's `name`: what another device did meanwhile, met by a save.
   */
  constructor({ base, body, onSaved, onState, elsewhere }) {
    this.base = base;
    this.body = body;
    this.onSaved = onSaved;
    this.onState = onState;
    this.elsewhere = elsewhere;
    this.poem = null; // {id, version, title}
    this.dirty = false;
    this.timer = 0;
    this.running = null;
    this.queued = false; // the open poem's latest save waits in the outbox
    this.noted = false;
    this.copying = Promise.resolve(); // the device's copies of poems, written in order (inOrder)
    addEventListener('trove:synced', ({ detail }) => {
      if (detail.scopes.includes(SCOPE)) this.synced();
    });
    addEventListener('trove:sync-dropped', ({ detail }) => {
      if (detail.entry.scope === SCOPE) this.elsewhere('dropped', detail);
    });
    addEventListener('trove:sync-id', ({ detail }) => {
      if (detail.scope === SCOPE) this.moveCopy(detail.temp, detail.id);
    });
  }

  path(id = this.poem.id) {
    return `${this.base}/poems/${encodeURIComponent(id)}`;
  }

  // The device keeps a copy of each poem as last saved or queued here, the copy a start opens with no network or
  // while changes wait (js/sync.js, read). Without it a poem made here and never read back could not open offline,
  // and one saved since it was read opened as it was when read: an older board, which a later save then put back.
  // The copies are written one after another, in the order of the saves, and no save waits for its copy. The
  // server's answer to a change made online only (a background, a publish) is kept the same way (extras.js).

  /** Runs `work` after the copies asked for before it. */
  inOrder(work) {
    this.copying = this.copying.then(work).catch(() => {});
    return this.copying;
  }

  /** Keeps the server's answer to a save or a read as the device's copy. */
  keepCopy(poem) {
    return this.inOrder(() => keep(this.path(poem.id), poem));
  }

  /** Keeps a save that waits in the outbox ({version, title, board}) over the copy it changes. */
  keepWritten(id, written) {
    const path = this.path(id);
    return this.inOrder(async () => keep(path, { ...(await kept(path)), ...written, id, updated_at: new Date().toISOString() }));
  }

  /** A poem made here got its id from the server: its copy moves to the poem's address. */
  moveCopy(temp, id) {
    return this.inOrder(async () => {
      const copy = await kept(this.path(temp));
      if (copy) await keep(this.path(id), { ...copy, id });
      await unkeep(this.path(temp));
    });
  }

  /** A deleted poem's copy goes with it. */
  dropCopy(id) {
    return this.inOrder(() => unkeep(this.path(id)));
  }

  /** Starts with another poem: nothing of the one before is pending any more (flush it first). */
  open(poem) {
    clearTimeout(this.timer);
    this.poem = { id: poem.id, version: poem.version, title: poem.title };
    Object.assign(this, { dirty: false, noted: false, queued: waitingNow(SCOPE) });
    this.onState(this.queued ? 'offline' : 'saved');
  }

  close() {
    clearTimeout(this.timer);
    this.poem = null;
    this.dirty = false;
  }

  /** After every change of the board or the title. */
  changed() {
    if (!this.poem) return;
    this.dirty = true;
    if (!this.queued) this.onState('saving');
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.saveNow(), 300);
  }

  /** A version conflict or a poem deleted elsewhere, met in the outbox, is Poetry's to resolve (elsewhere.js). */
  options(poem, title) {
    const label = `the poem “${title || UNTITLED}”`;
    return { scope: SCOPE, replace: `poem:${poem.id}`, label, resolves: ['version_conflict', 'not_found'] };
  }

  async saveNow() {
    clearTimeout(this.timer);
    const poem = this.poem;
    if (!poem || !this.dirty || this.running) return this.running;
    this.dirty = false;
    this.running = (async () => {
      const body = this.body();
      try {
        const result = await this.put(poem, body);
        if (result.queued) this.keepWritten(poem.id, { version: poem.version, ...body });
        else this.keepCopy(result.data);
        if (poem !== this.poem) return;
        if (result.queued) {
          this.queued = true;
          this.onState('offline');
        } else {
          this.queued = false;
          poem.version = result.data.version;
          this.onSaved(result.data);
          if (!this.dirty) this.onState('saved');
        }
      } catch (error) {
        if (error.code === 'not_found') await this.gone(poem.id, body);
        else {
          this.onState('error', error.message);
          toast(`Not saved: ${error.message}`);
        }
      } finally {
        this.running = null;
      }
      if (this.dirty) await this.saveNow();
    })();
    return this.running;
  }

  /** PUT through the outbox; a version conflict (sent at once) takes the server's version and sends again. */
  async put(poem, body, attempt = 0) {
    const { title, board } = body;
    try {
      return await send('PUT', this.path(poem.id), { version: poem.version, title, board }, this.options(poem, title));
    } catch (error) {
      if (error.code !== 'version_conflict' || attempt >= 3) throw error;
      poem.version = (await api('GET', this.path(poem.id))).version;
      if (!this.noted) toast('This poem was also changed somewhere else. Your version is kept.');
      this.noted = true;
      return this.put(poem, body, attempt + 1);
    }
  }

  /** Waits until the open poem's changes are saved or queued. */
  async flush() {
    while (this.poem && (this.running || this.dirty)) await (this.running || this.saveNow());
  }

  /** A new poem: made at once, or on this device (a tmp- id) with its create queued. */
  async create(title, board) {
    if (!waitingNow(SCOPE)) {
      try {
        const made = await api('POST', `${this.base}/poems`, { title, board });
        this.keepCopy(made);
        return made;
      } catch (error) {
        if (error.status) throw error; // no answer: the outbox keeps it
      }
    }
    const id = tempId();
    const result = await send(
      'POST',
      `${this.base}/poems`,
      { title, board },
      { scope: SCOPE, creates: id, idFrom: 'id', label: `the new poem “${title}”` },
    );
    const made = result.data ?? {
      id,
      title,
      version: 1,
      updated_at: new Date().toISOString(),
      has_background: false,
      public_id: null,
      board,
    };
    this.keepCopy(made);
    return made;
  }

  /** The outbox sent Poetry's writes: the open poem takes the version the server has now. */
  async synced() {
    if (!this.poem || isTemp(this.poem.id) || waitingNow(SCOPE)) return;
    const poem = this.poem;
    const fresh = await api('GET', this.path(poem.id)).catch(() => null);
    if (!fresh || poem !== this.poem) return;
    if (!this.running) {
      poem.version = fresh.version;
      this.keepCopy(fresh);
    }
    this.onSaved(fresh);
    if (this.queued) {
      this.queued = false;
      if (!this.dirty && !this.running) this.onState('saved');
    }
    if (this.dirty) this.saveNow();
  }

  /** A save met a poem deleted elsewhere: its words are kept as a new poem, not lost. */
  gone(id, { title, board }) {
    return this.elsewhere('keepAsNew', { id, title, board }).catch((error) => toast(`Not saved: ${error.message}`));
  }

  /** The page goes away: what is not saved yet is sent with keepalive and kept for the next visit. */
  leaving() {
    const poem = this.poem;
    if (!poem || !(this.dirty || this.running) || globalThis.troveStale) return; // stale: js/shell.js
    clearTimeout(this.timer);
    const { title, board } = this.body();
    const body = { version: this.running ? poem.version + 1 : poem.version, title, board };
    const key = crypto.randomUUID();
    const path = this.path(poem.id);
    writeLeft([...readLeft().filter((w) => w.path !== path), { path, body, key, ...this.options(poem, title) }]);
    this.dirty = false;
    const payload = JSON.stringify(body);
    if (isTemp(poem.id) || payload.length > 60000) return; // keepalive bodies are limited to 64 KB
    fetch(path, {
      method: 'PUT',
      keepalive: true,
      credentials: 'same-origin',
      body: payload,
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'Idempotency-Key': key },
    })
      .then((response) => (response.ok ? response.json() : Promise.reject(response)))
      .then((saved) => {
        writeLeft(readLeft().filter((w) => w.key !== key));
        this.keepCopy(saved);
        if (poem === this.poem) {
          poem.version = saved.version;
          this.onSaved(saved);
          if (!this.dirty) this.onState('saved');
        }
      })
      .catch(() => {
        if (document.visibilityState === 'visible' && poem === this.poem) {
          this.dirty = true;
          this.saveNow();
        }
      });
  }

  /** Saves kept as a page went away go through the outbox now (the server answers a repeat as the first). */
  async sendLeft() {
    for (const w of readLeft()) {
      const { path, body, key, ...options } = w;
      await send('PUT', path, body, { ...options, key }).catch((error) => error.code === 'not_found' && this.gone(idOf(path), body));
      writeLeft(readLeft().filter((x) => x.key !== key));
    }
    await update();
  }
}

/** Poetry's waiting writes as the device's newer copy: Map id → {title, board, created} (poems made here by tmp id). */
export async function pendingPoems(base) {
  const found = new Map();
  for (const entry of await all()) {
    if (entry.scope !== SCOPE || !entry.body) continue;
    if (entry.method === 'POST' && entry.path === `${base}/poems` && entry.creates) {
      found.set(entry.creates, { title: entry.body.title, board: entry.body.board, created: true });
    } else if (entry.method === 'PUT' && entry.path.startsWith(`${base}/poems/`)) {
      const id = decodeURIComponent(entry.path.slice(`${base}/poems/`.length));
      found.set(id, { ...found.get(id), title: entry.body.title, board: entry.body.board });
    }
  }
  return found;
}
