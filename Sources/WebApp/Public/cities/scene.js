// City Roulette: the map + list scene of an import or of the collection; the rules are in logic.js.
import { toast, undoable } from '../js/api.js';
import { $, scrollBehavior } from '../js/dom.js';
import { backCloses } from '../js/back-closes.js';
import { formatNumber, plural } from '../js/format.js';
import { SceneState } from './logic.js';
import { CityMap, loadWorld, wireMapControls } from './map.js';
import { dropPending, getUnit, paintWeather, setUnit, weatherFor } from './weather.js';

export class SceneView {
  constructor({ onCommitted, onChange }) {
    this.onCommitted = onCommitted;
    this.onChange = onChange; // (scene snapshot) after every change, to keep it
    this.stored = null; // for an import: the collection, geonameid → favourite
    this.state = null;
    this.els = new Map(); // geonameid → <li>
    this.weather = new Map(); // geonameid → weather (null: unavailable)
    this.selected = null;
    this.editing = false;
    this.editLayer = backCloses(
      () => this.setEditing(false),
      () => this.editing,
    ); // Back ends Edit, as on a phone
    this.unit = getUnit();
    this.list = $('rows');
    this.template = $('row-template');
    this.commitButton = $('scene-commit');
    this.form = { filter: $('filter'), scope: 'all', sort: 'seed' };
    this.listen();
  }

  get open() {
    return !$('scene').hidden;
  }

  /**
   * Shows a scene: kind 'import' or 'browse', the cities, its labels { title, tail (after the count),
   * country (ISO code of the title's country), here ({ latitude, longitude, radiusKm } for Around Me) },
   * and a kept snapshot (from `snapshot()`) to continue instead, when there is one.
   */
  show(kind, cities, labels, kept = null) {
    this.close();
    this.labels = labels;
    this.state = kept?.state ? SceneState.from(kept.state) : new SceneState(kind, cities);
    this.selected = kept?.selected ?? null;
    this.setEditing(!!kept?.editing, { quiet: true });
    this.form.filter.value = kept?.form?.query ?? '';
    this.setRadio('scope', kept?.form?.scope ?? 'all');
    this.setRadio('sort', kept?.form?.sort ?? 'seed');
    if (this.form.sort === 'mine') this.gestures();
    this.setRadio('unit', this.unit);
    $('sort-near').hidden = ![...this.state.rows.values()].some((c) => typeof c.distance_km === 'number');
    $('scene-title').textContent = labels.title;
    this.commitButton.textContent = this.state.kind === 'import' ? 'Import' : 'Save';
    $('exports').hidden = this.state.kind !== 'browse';
    $('welcome').hidden = true;
    $('scene').hidden = false;
    $('map-status').textContent = '';
    if (!this.map) {
      this.map = new CityMap($('map'), { onSelect: (id) => this.select(id, 'map') });
      wireMapControls($('scene'), this.map);
      loadWorld().then((points) => this.map.setWorld(points));
    }
    const country = labels.country;
    this.map.labelOf = (c) => (country && c.country_code !== country ? `${c.name} (${c.country_name || c.country_code})` : c.name);
    this.map.setHere(labels.here ?? null);
    this.render();
    this.map.setCities(this.shownRows(), { fit: true });
    if (this.selected != null) this.select(this.selected, 'restore');
    $('scene-title').focus({ preventScroll: !!kept });
  }

  /** What `show` needs to continue this scene as it is. */
  snapshot() {
    const { state, labels, selected, editing, form } = this;
    return { labels, selected, editing, state: state.snapshot(), form: { query: form.filter.value, scope: form.scope, sort: form.sort } };
  }

  /** The collection's stars (geonameid → favourite), to mark the cities of an import already in it. */
  setStored(stored) {
    this.stored = stored;
    for (const [id, li] of this.els) this.markStored(id, li);
  }

  markStored(id, li) {
    const mark = li.querySelector('.cr-have');
    const have = this.state?.kind === 'import' && this.stored?.has(id);
    mark.hidden = !have;
    if (have) mark.textContent = this.stored.get(id) ? 'Starred in my cities' : 'In my cities';
  }

  /** Edit mode on or off (Back ends it); `quiet`: not drawn yet. */
  setEditing(on, { quiet = false } = {}) {
    if (on === this.editing) return;
    this.editing = on;
    if (on) this.editLayer.opened();
    else this.editLayer.closed();
    if (!quiet) this.render();
  }

  close() {
    this.setEditing(false, { quiet: true });
    dropPending();
    for (const li of this.els.values()) li.remove();
    this.els.clear();
    this.state = null;
    this.stored = null;
    $('wx-status').textContent = '';
    $('scene').hidden = true;
  }

  setRadio(name, value) {
    for (const input of document.getElementsByName(name)) input.checked = input.value === value;
    if (name !== 'unit') this.form[name] = value;
  }

  shownRows() {
    return this.state.visible({ sort: this.form.sort, query: this.form.filter.value, scope: this.form.scope });
  }

  // ---------- Drawing ----------

  render() {
    const { state, list } = this;
    if (!state) return;
    const active = document.activeElement;
    const shown = this.shownRows();
    const visible = new Set(shown.map((r) => r.geonameid));
    for (const [id, li] of this.els)
      if (!state.get(id)) {
        li.remove();
        this.els.delete(id);
      }
    const mine = this.form.sort === 'mine';
    const favourites = state
      .myOrder()
      .filter((r) => r.favourite)
      .map((r) => r.geonameid);
    state.sorted(this.form.sort).forEach((row, i) => {
      const li = this.els.get(row.geonameid) ?? this.makeRow(row);
      li.hidden = !visible.has(row.geonameid);
      const star = li.querySelector('.cr-star');
      star.setAttribute('aria-pressed', String(row.favourite));
      const rank = mine && row.favourite ? favourites.indexOf(row.geonameid) : -1;
      li.querySelector('.cr-grip').hidden = rank < 0;
      li.querySelector('.cr-move').hidden = rank < 0;
      li.querySelector('.cr-up').disabled = rank === 0;
      li.querySelector('.cr-down').disabled = rank === favourites.length - 1;
      if (list.children[i] !== li) list.insertBefore(li, list.children[i] ?? null);
    });
    if (active && list.contains(active) && document.activeElement !== active) active.focus();

    const total = state.size;
    const count = visible.size;
    // Changed here, My cities are not the collection until saved: the line says so.
    const unsaved = state.kind === 'browse' && state.unsaved;
    $('scene-sub').textContent =
      `${plural(total, 'city', 'cities')} ${unsaved ? 'once you save: changes not saved yet' : this.labels.tail}`;
    if (this.selected != null && !state.get(this.selected)) {
      this.selected = null;
      $('map-status').textContent = '';
    }
    $('list-status').textContent = !total
      ? 'No cities here.'
      : count === total
        ? plural(total, 'city', 'cities')
        : count
          ? `${count} of ${plural(total, 'city', 'cities')}`
          : `No city matches, of ${plural(total, 'city', 'cities')}.`;
    this.commitButton.disabled = !state.saveEnabled;
    $('edit').setAttribute('aria-pressed', String(this.editing));
    $('edit').textContent = this.editing ? 'Done' : 'Edit';
    $('edit-bar').hidden = !this.editing || !state.myOrder().some((r) => !r.favourite);
    $('order-hint').hidden = !mine;
    this.map?.setCities(shown, { fit: false });
    this.onChange?.(this.snapshot());
  }

  makeRow(row) {
    const id = row.geonameid;
    const li = this.template.content.firstElementChild.cloneNode(true);
    const q = (selector) => li.querySelector(selector);
    li.dataset.id = id;
    const name = q('.cr-name');
    name.href = `/cities/${id}`;
    name.textContent = row.name;
    const facts = [row.country_name || row.country_code];
    if (this.labels.country && row.country_code !== this.labels.country) li.classList.add('is-abroad');
    if (row.population) facts.push(`${formatNumber(row.population)} people`);
    if (typeof row.distance_km === 'number') facts.push(`${row.distance_km.toFixed(1)} km away`);
    q('.cr-where').textContent = facts.join(' · ');
    if (row.wikipedia_url) {
      const wiki = q('.cr-wiki');
      wiki.href = row.wikipedia_url;
      wiki.hidden = false;
      wiki.setAttribute('aria-label', `Search Wikipedia for ${row.name} (opens in a new tab)`);
    }
    this.markStored(id, li);
    q('.cr-star').setAttribute('aria-label', `Favourite: ${row.name}`);
    q('.cr-del').setAttribute('aria-label', `Delete ${row.name}`);
    q('.cr-grip').setAttribute('aria-label', `Move ${row.name}: drag it, or press the up and down arrow keys`);
    q('.cr-up').setAttribute('aria-label', `Move ${row.name} up`);
    q('.cr-down').setAttribute('aria-label', `Move ${row.name} down`);
    this.els.set(id, li);
    this.loadWeather(id, li, false);
    return li;
  }

  loadWeather(id, li, refresh) {
    const cell = li.querySelector('.cr-wx');
    const known = this.weather.get(id);
    paintWeather(cell, refresh ? undefined : known, this.unit);
    if (known !== undefined && !known.error && !refresh) return Promise.resolve();
    return weatherFor(id, refresh).then((data) => {
      if (data === undefined) return;
      this.weather.set(id, data);
      if (this.els.get(id) === li) paintWeather(cell, data, this.unit);
    });
  }

  select(id, from) {
    this.selected = id;
    for (const [key, li] of this.els) li.classList.toggle('is-selected', key === id);
    const row = this.state?.get(id);
    if (!row) return;
    $('map-status').textContent =
      `${row.name}, ${row.country_name || row.country_code}: ` +
      (row.population ? `population ${formatNumber(row.population)}` : 'population unknown');
    if (from === 'map') this.els.get(id)?.scrollIntoView({ block: 'nearest', behavior: scrollBehavior() });
    else this.map.select(id, { reveal: true });
    if (from === 'list') this.revealMap();
    if (from !== 'restore') this.onChange?.(this.snapshot());
  }

  /** On a phone the map sits above the list: when it is off screen, bring it back to show the dot. */
  revealMap() {
    const box = $('map').getBoundingClientRect();
    if (box.bottom < 40 || box.top > innerHeight - 40) $('map').scrollIntoView({ block: 'nearest', behavior: scrollBehavior() });
  }

  // ---------- Changes ----------

  toggle(id) {
    this.state.toggleFavourite(id);
    this.render();
  }

  remove(id) {
    const li = this.els.get(id);
    let next = li?.nextElementSibling;
    while (next && next.hidden) next = next.nextElementSibling;
    let prev = li?.previousElementSibling;
    while (prev && prev.hidden) prev = prev.previousElementSibling;
    const refocus = li?.contains(document.activeElement);
    const taken = this.state.take([id]);
    if (!taken.length) return;
    this.render();
    if (refocus) ((next || prev)?.querySelector('.cr-del') ?? this.form.filter).focus();
    this.offerUndo(`Deleted ${taken[0].row.name}.`, taken, id);
  }

  /** Undo for a deletion: rows back in place (Save/Import sends the list; saved meanwhile: saved again). */
  offerUndo(message, taken, focusID) {
    const { state } = this;
    const savedBefore = state.kind === 'browse' && !state.dirty;
    undoable(message, {
      undo: () => {
        if (this.state !== state || !state.restore(taken)) return;
        const savedSince = !savedBefore && state.kind === 'browse' && !state.dirty;
        this.render();
        const li = focusID !== undefined && this.els.get(focusID);
        (li && !li.hidden ? li.querySelector('.cr-del') : $('edit')).focus();
        if (savedSince) this.commit();
      },
      commit: () => {},
    });
  }

  move(id, delta, control) {
    if (this.state.moveFavourite(id, delta)) this.render();
    const button = this.els.get(id)?.querySelector(control);
    (button && !button.disabled ? button : this.els.get(id)?.querySelector('.cr-grip'))?.focus();
  }

  /** Import or Save: commit.js, loaded with the first. */
  async commit() {
    const { state } = this;
    if (!state?.saveEnabled) return;
    if (state.kind === 'import' && !state.size) {
      toast('There is nothing to import.');
      return;
    }
    this.commitButton.disabled = true;
    try {
      await (await import('./commit.js')).commit(this, state);
    } catch (error) {
      toast(error.message);
    } finally {
      if (this.state === state) this.commitButton.disabled = !state.saveEnabled;
    }
  }

  /** Refresh weather: the button says how far it got, then a line says how it went. */
  async refresh() {
    const { state } = this;
    if (!state || this.refreshing) return;
    this.refreshing = true;
    const button = $('refresh');
    const label = button.lastChild;
    const out = $('wx-status');
    button.setAttribute('aria-busy', 'true');
    const rows = [...this.els];
    let done = 0;
    label.textContent = `Refreshing 0 of ${rows.length}…`;
    out.textContent = 'Refreshing the weather…';
    await Promise.all(
      rows.map(([id, li]) =>
        this.loadWeather(id, li, true).then(() => {
          done += 1;
          label.textContent = `Refreshing ${done} of ${rows.length}…`;
        }),
      ),
    );
    label.textContent = 'Refresh weather';
    button.removeAttribute('aria-busy');
    this.refreshing = false;
    if (this.state !== state) return;
    const off = rows.filter(([id]) => this.weather.get(id)?.error);
    out.textContent = !off.length
      ? `Weather refreshed for ${plural(rows.length, 'city', 'cities')}.`
      : off.length === rows.length
        ? `The weather is unavailable: ${this.weather.get(off[0][0]).error}`
        : `Weather refreshed for ${plural(rows.length - off.length, 'city', 'cities')}; unavailable for ${off.length}.`;
  }

  // ---------- Listening ----------

  listen() {
    this.commitButton.addEventListener('click', () => this.commit());
    $('refresh').addEventListener('click', () => this.refresh());
    $('edit').addEventListener('click', () => this.setEditing(!this.editing));
    $('delete-others').addEventListener('click', () => {
      const taken = this.state.take(
        this.state
          .myOrder()
          .filter((r) => !r.favourite)
          .map((r) => r.geonameid),
      );
      const gone = taken.length;
      if (this.state.size === 0) this.setEditing(false, { quiet: true });
      this.render();
      $('edit').focus();
      if (gone) this.offerUndo(`Deleted ${plural(gone, 'city', 'cities')} that ${gone === 1 ? 'was' : 'were'} not favourites.`, taken);
    });
    this.form.filter.addEventListener('input', () => this.render());
    $('scene').addEventListener('change', (e) => {
      const { name, value } = e.target;
      if (name === 'scope' || name === 'sort') {
        this.form[name] = value;
        this.render();
      }
      if (value === 'mine') this.gestures();
      if (name === 'unit') {
        this.unit = value;
        setUnit(value);
        for (const [id, li] of this.els) if (this.weather.has(id)) paintWeather(li.querySelector('.cr-wx'), this.weather.get(id), value);
      }
    });

    const list = this.list;
    let swiped = false;
    list.addEventListener('click', (e) => {
      const li = e.target.closest('.cr-row');
      if (!li || swiped) {
        swiped = false;
        return;
      }
      const id = Number(li.dataset.id);
      const wx = e.target.closest('.cr-wx');
      if (wx)
        toast(
          wx.dataset.why && wx.classList.contains('is-off')
            ? `No weather for ${this.state.get(id).name}: ${wx.dataset.why}`
            : `${this.state.get(id).name}: ${wx.title}`,
        );
      else if (e.target.closest('.cr-star')) this.toggle(id);
      else if (e.target.closest('.cr-del')) this.remove(id);
      else if (e.target.closest('.cr-up')) this.move(id, -1, '.cr-up');
      else if (e.target.closest('.cr-down')) this.move(id, 1, '.cr-down');
      else if (!e.target.closest('a, button')) this.select(id, 'list');
    });
    list.addEventListener('focusin', (e) => {
      const li = e.target.closest('.cr-row');
      if (li && Number(li.dataset.id) !== this.selected) this.select(Number(li.dataset.id), 'list');
    });
    list.addEventListener('keydown', (e) => {
      if (!e.target.closest('.cr-grip') || (e.key !== 'ArrowUp' && e.key !== 'ArrowDown')) return;
      e.preventDefault();
      this.move(Number(e.target.closest('.cr-row').dataset.id), e.key === 'ArrowUp' ? -1 : 1, '.cr-grip');
    });
    list.addEventListener('pointerdown', (e) => {
      const li = e.target.closest('.cr-row');
      if (!li) return;
      const grip = e.target.closest('.cr-grip');
      if (grip) e.preventDefault();
      if (!grip && e.pointerType !== 'touch') return;
      this.gestures().then((g) =>
        grip
          ? g.drag(this, e, li)
          : g.swipe(this, e, li, () => {
              swiped = true;
              setTimeout(() => {
                swiped = false;
              }, 400);
            }),
      );
    });
    this.pullToRefresh();
  }

  gestures() {
    return (this.gesturesModule ??= import('./gestures.js'));
  }

  /** On touch, a downward drag while the page is at its top refreshes the weather. */
  pullToRefresh() {
    const box = $('listbox');
    const pull = $('pull');
    let y0 = null;
    box.addEventListener(
      'touchstart',
      (e) => {
        y0 = window.scrollY <= 0 && e.touches.length === 1 && !e.target.closest('.cr-grip') ? e.touches[0].clientY : null;
      },
      { passive: true },
    );
    box.addEventListener(
      'touchmove',
      (e) => {
        if (y0 !== null) pull.classList.toggle('is-pulling', e.touches[0].clientY - y0 > 80 && window.scrollY <= 0);
      },
      { passive: true },
    );
    const end = () => {
      if (pull.classList.contains('is-pulling')) this.refresh();
      pull.classList.remove('is-pulling');
      y0 = null;
    };
    box.addEventListener('touchend', end);
    box.addEventListener('touchcancel', () => {
      pull.classList.remove('is-pulling');
      y0 = null;
    });
  }
}
