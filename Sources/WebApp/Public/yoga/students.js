// YogiYogini, Students tab: the roster (search as you type, sort, filter), a student's form, and types.
import { toast, undoable } from '../js/api.js';
import {
  $,
  txt,
  show as reveal,
  err,
  make,
  span,
  listen,
  click,
  say,
  busy,
  formatDay,
  formatDate,
  formatTime,
  confirmDialog,
  setSavedText,
} from './dom.js';
import { call, state, on, temperature, loadStudents, loadTypes, studentsChanged, leaving } from './store.js';
import { plural, shownDuration, keptFromElsewhere } from './logic.js';
import { KEY, sendAsLeaving } from './local.js';
import { sortStudents, filterStudents, defaultOrder, localDate } from './lists.js';
import { showModal } from '../js/dom.js';

const view = { sort: 'name', order: 'asc' };
const ORDER = {
  name: ['A to Z', 'Z to A'],
  joined: ['Earliest first', 'Latest first'],
  attended: ['Fewest first', 'Most first'],
  last_seen: ['Longest ago first', 'Most recent first'],
};
let editing = null; // the student in the dialog, or null for a new one
let shown = false;
let drawn = ''; // the roster's rows as last drawn

export async function show() {
  shown = true;
  try {
    await Promise.all([loadStudents(true), loadTypes(true)]);
  } catch (error) {
    txt('student-count', `Could not load the roster: ${error.message}`);
    return;
  }
  render();
}

function render() {
  if (!state.students) return;
  const list = sortStudents(filterStudents(state.students, $('student-q').value, $('student-filter').value), view.sort, view.order);
  txt('student-order', ORDER[view.sort][view.order === 'asc' ? 0 : 1]);
  // The roster is read again after many things (a kept student, another tab's change, sync): rows that did not
  // change stay as they are. Redrawn, they were replaced under a finger already on one, and that tap was lost
  // (pressed on the old row, let go on the new one: no click).
  const rows = JSON.stringify(list);
  if (rows !== drawn) {
    drawn = rows;
    $('student-list').replaceChildren(...list.map(row));
  }
  const total = state.students.length;
  txt('student-count', list.length === total ? plural(total, 'student') : `${list.length} of ${plural(total, 'student')}`);
  $('student-empty').hidden = list.length > 0;
  txt('student-empty', total ? 'Nobody matches.' : 'No students yet. Add the people who come to your classes.');
}

/** A student's row in the roster: it opens their page (who they are, every class they came to, and Edit). */
const row = (s) =>
  make(
    'li',
    {},
    make(
      'a',
      { className: 'yg-item', dataset: { id: s.id }, href: `#student/${encodeURIComponent(s.id)}` },
      make(
        'span',
        { className: 'yg-item-title' },
        s.name,
        s.type_name ? span('badge', s.type_name) : null,
        s.active ? null : span('badge yg-off', 'not active'),
      ),
      span(
        'yg-item-meta',
        `${plural(s.sessions_attended, 'session')} · last seen ${formatDay(s.last_seen)} · joined ${formatDay(s.joined_on)}`,
      ),
    ),
  );

function fillTypes(selected) {
  $('student-type').replaceChildren(
    make('option', { value: '', text: 'No type' }),
    ...(state.types || []).map((t) => make('option', { value: t.id, text: t.name, selected: t.id === selected })),
  );
}

async function openStudent(student) {
  editing = student;
  try {
    await loadTypes();
  } catch {
    /* the form still works without types */
  }
  txt('student-title', student ? student.name : 'New student');
  $('student-name').value = student ? student.name : '';
  $('student-joined').value = student ? student.joined_on : localDate();
  $('student-active').checked = student ? student.active : true;
  setSavedText($('student-notes'), student ? student.notes || '' : '');
  fillTypes(student ? student.type_id : '');
  reveal('student-delete', student);
  err('student-error');
  joinedError();
  opened = typed();
  showModal($('student-dialog'), asksFirst);
  // A new student starts with their name; one opened from the roster is read first, without a keyboard over it.
  $(student ? 'student-title' : 'student-name').focus();
}

// The form as it was opened: closed without Save (Back, Escape or Cancel) with something typed since, it asks first.
let opened = '';
const typed = () =>
  JSON.stringify(
    ['student-name', 'student-joined', 'student-active', 'student-type', 'student-notes'].map((id) => $(id).value + $(id).checked),
  );

/** Whether the form stays open to ask "Discard your changes?" (and asks); false when there is nothing to lose. */
function asksFirst() {
  const dialog = $('student-dialog');
  if (!dialog.open || typed() === opened) return false;
  const who = $('student-name').value.trim() || 'this student';
  confirmDialog({
    title: 'Discard your changes?',
    text: `What you typed for ${who} is not saved.`,
    ok: 'Discard',
    cancel: 'Keep editing',
  }).then((discard) => (discard ? dialog.close() : $('student-name').focus()));
  return true;
}

// An edit sends the student as its form was opened (`base`): the server keeps what another device changed meanwhile
// in the fields this form left alone.
const FIELDS = { name: 'name', joined_on: 'joining date', active: 'active setting', type_id: 'type', notes: 'notes' };
const asOpened = (s) => ({ name: s.name, joined_on: s.joined_on, active: s.active, type_id: s.type_id ?? null, notes: s.notes || '' });

/**
 * An edit of `student`. One deleted on another device since the form opened is added again with what was typed, if
 * the person says so (nothing typed is lost without their word); undefined when they go back to the form.
 */
async function saveEdit(student, body) {
  try {
    return await call('PUT', `/students/${encodeURIComponent(student.id)}`, { ...body, base: asOpened(student) });
  } catch (error) {
    if (error.status !== 404) throw error;
    const again = await confirmDialog({
      title: `${student.name} was deleted on another device`,
      text: `Add ${body.name} to the roster again, with what you typed?`,
      ok: 'Add again',
      cancel: 'Go back',
      safe: true,
    });
    if (again) editing = null; // the form now adds a student
    return again ? call('POST', '/students', body) : undefined;
  }
}

async function saveStudent(event) {
  event.preventDefault();
  const name = $('student-name').value.trim();
  if (!name) {
    err('student-error', new Error('A student needs a name.'));
    $('student-name').focus();
    return;
  }
  const body = {
    name,
    joined_on: $('student-joined').value || localDate(),
    active: $('student-active').checked,
    type_id: $('student-type').value || null,
    notes: $('student-notes').value.trim(), // as the server keeps them
  };
  joinedError();
  err('student-error');
  // Said here, not only by the server: offline the change would wait in the outbox and be refused later.
  if (body.joined_on > localDate()) {
    joinedError(new Error('A joining date cannot be in the future.'));
    return;
  }
  await busy($('student-save'), async () => {
    // Two students may share a name, but only on purpose.
    const twin =
      editing?.name !== name && state.students?.find((s) => s.id !== editing?.id && s.name.trim().toLowerCase() === name.toLowerCase());
    if (
      twin &&
      !(await confirmDialog({
        title: `There is already a ${twin.name}`,
        text: `${twin.name} joined ${formatDay(twin.joined_on)}. ${editing ? 'Give this student the same name' : 'Add a second student with this name'}?`,
        ok: editing ? 'Save anyway' : 'Add anyway',
        cancel: 'Go back',
      }))
    ) {
      $('student-name').focus();
      return;
    }
    try {
      const saved = editing ? await saveEdit(editing, body) : await call('POST', '/students', body);
      if (!saved) return; // deleted elsewhere, and the person went back to the form
      $('student-dialog').close();
      const kept = editing ? keptFromElsewhere(body, saved, FIELDS) : '';
      if (kept) toast(`${saved.name} saved, with the ${kept} changed on another device meanwhile.`);
      else say(editing ? `${saved.name} saved` : `${saved.name} added`);
      await refreshAll(saved.id);
      if (!$('view-student').hidden) showStudent(saved.id);
    } catch (error) {
      // The server's word on the joining date goes under that field.
      if (error.code === 'validation_failed' && /joining date/i.test(error.message)) joinedError(error);
      else err('student-error', error);
    }
  });
}

function joinedError(error) {
  err('joined-error', error);
  if (error) {
    $('student-joined').setAttribute('aria-invalid', 'true');
    $('student-joined').focus();
  } else $('student-joined').removeAttribute('aria-invalid');
}

let page = null; // the student on their page (#student/<id>)

/** A student's page: who they are and every class they came to, newest first. */
export async function showStudent(id) {
  page = null;
  txt('student-heading', 'Student');
  reveal('student-loading');
  txt('student-loading', 'Loading…');
  reveal('student-show', false);
  let sessions;
  try {
    const [students, answer] = await Promise.all([loadStudents(true), call('GET', `/students/${encodeURIComponent(id)}/sessions`)]);
    page = students.find((s) => s.id === id);
    sessions = answer.sessions;
  } catch (error) {
    if (error.status !== 404) {
      txt('student-loading', `Could not load this student: ${error.message}`);
      return;
    }
  }
  if (!page) {
    txt('student-loading', 'This student is not on your roster (any more).');
    return;
  }
  const s = page;
  txt('student-heading', s.name);
  txt('student-joined-on', formatDay(s.joined_on));
  txt('student-kind', [s.type_name || 'No type', s.active ? '' : 'not active'].filter(Boolean).join(', '));
  txt('student-attended', String(s.sessions_attended ?? sessions.length));
  txt('student-last-seen', formatDay(s.last_seen));
  txt('student-about', s.notes || '');
  $('student-history').replaceChildren(
    ...sessions.map((x) =>
      make(
        'li',
        {},
        make(
          'a',
          { className: 'yg-item', href: `#session/${encodeURIComponent(x.id)}` },
          span('yg-item-title', x.venue.name),
          span('yg-item-meta', `${formatDate(x.started_at)} · ${formatTime(x.started_at)}`),
          span(
            'yg-item-meta',
            [plural(x.attendance, 'student'), shownDuration(x.started_at, x.ended_at), temperature(x.temperature_c)]
              .filter(Boolean)
              .join(' · '),
          ),
        ),
      ),
    ),
  );
  reveal('student-history-empty', !sessions.length);
  reveal('student-loading', false);
  reveal('student-show');
  $('student-heading').focus();
}

async function deleteStudent() {
  const student = editing;
  const path = `/students/${encodeURIComponent(student.id)}`;
  const ask = (who = student) =>
    confirmDialog({
      title: `Delete ${who.name}?`,
      text: `${who.name} came to ${plural(who.sessions_attended, 'session')}. Those sessions keep their head count and show the name as no longer on the roster.`,
    });
  $('student-dialog').close();
  if (!(student.sessions_attended > 0)) {
    leavePage();
    removeAtOnce(student, path, ask);
    return;
  }
  // A student with sessions is a large removal: ask first.
  try {
    if (!(await ask())) return refreshAll(student.id);
    leavePage();
    await call('DELETE', `${path}?confirm=1`);
    toast(`${student.name} deleted`);
    await refreshAll();
  } catch (error) {
    toast(error.message);
  }
}

/** A student deleted from their page: that page's address is gone, its entry becomes the roster. */
function leavePage() {
  if ($('view-student').hidden) return;
  const roster = () => {
    history.replaceState(history.state, '', '#students');
    dispatchEvent(new HashChangeEvent('hashchange'));
  };
  // The form (or the question) just closed still has its own entry above the page's (js/layers.js steps back over
  // it on the dialog's close event): the page's entry becomes the roster once that step is done.
  const layers = globalThis.troveLayers;
  if (layers && (history.state?.troveLayer ?? 0) > layers.openCount()) addEventListener('popstate', roster, { once: true });
  else roster();
}

/**
 * A student without sessions goes at once, with an Undo in the toast: the DELETE is sent when the Undo runs
 * out (or the page is left), so Undo brings the student back as they were, same id, without asking the server.
 */
function removeAtOnce(student, path, ask) {
  leaving.add(student.id);
  if (state.students) state.students = state.students.filter((s) => s.id !== student.id);
  render();
  $('student-add').focus();
  const back = () => {
    leaving.delete(student.id);
    return refreshAll(student.id);
  };
  undoable(`${student.name} deleted`, {
    undo: () => {
      say(`${student.name} is back`);
      back();
    },
    commit: async ({ keepalive }) => {
      try {
        if (keepalive) {
          sendAsLeaving('DELETE', path); // the page is being left: sent now, and again when it opens (offline too)
          return;
        }
        try {
          await call('DELETE', path);
        } catch (error) {
          // Checked in to a class since: now it is a large removal, so ask.
          if (error.code !== 'student_has_sessions') throw error;
          await back();
          if (!(await ask(state.students?.find((s) => s.id === student.id)))) return;
          leaving.add(student.id);
          await call('DELETE', `${path}?confirm=1`);
          toast(`${student.name} deleted`);
        }
        leaving.delete(student.id);
        // The roster already shows them gone: redrawing it now would move rows under a finger about to tap one.
        // Only the types' head counts are stale; they are read again when next shown.
        state.types = null;
      } catch (error) {
        if (keepalive) return;
        await back();
        toast(error.message);
      }
    },
  });
}

async function refreshAll(focusID) {
  studentsChanged();
  await show();
  const target = focusID && $('student-list').querySelector(`[data-id="${CSS.escape(focusID)}"]`);
  (target || $('student-add')).focus();
}

async function openTypes() {
  err('types-error');
  showModal($('types-dialog'));
  await renderTypes(true);
  $('type-name').focus();
}

async function renderTypes(force) {
  try {
    await loadTypes(force);
  } catch (error) {
    err('types-error', error);
    return;
  }
  // A redraw (after a rename, or when the list is read again) keeps what is being typed in another row, and
  // where: the row is drawn anew, but the person's words and focus stay.
  const typing = new Map(
    [...$('types-list').querySelectorAll('input')].filter((i) => i.value !== i.defaultValue).map((i) => [i.dataset.id, i.value]),
  );
  const focused = document.activeElement?.closest('#types-list input')?.dataset.id;
  // A rename is saved however it is confirmed: Enter, the phone keyboard's Done (a submit, or leaving the
  // field) or the Rename button.
  $('types-list').replaceChildren(
    ...state.types.map((t) => {
      const input = make('input', {
        className: 'input',
        value: t.name,
        maxlength: '100',
        'aria-label': `Name of the type ${t.name}`,
        autocomplete: 'off',
        enterkeyhint: 'done',
        dataset: { id: t.id },
      });
      const rename = make('button', { className: 'button' }, 'Rename');
      // Enter fires both the form's submit and the field's change: one rename is sent, not two (the second
      // redrew the list under the next field being typed in).
      let sent = t.name;
      const save = (event) => {
        event.preventDefault();
        const name = input.value.trim();
        if (!name || name === sent) return; // an emptied field keeps the name
        sent = name;
        typeChange(rename, 'PUT', t, { name }, input);
      };
      input.addEventListener('change', save);
      input.addEventListener('blur', save); // also words kept across a redraw, which 'change' does not count
      return make(
        'li',
        {},
        make(
          'form',
          { className: 'yg-type', novalidate: true, onsubmit: save },
          input,
          span('yg-muted', plural(t.student_count, 'student')),
          rename,
          make(
            'button',
            {
              type: 'button',
              className: 'button quiet',
              'aria-label': `Delete the type ${t.name}`,
              onclick: (e) => deleteType(t, e.currentTarget),
            },
            'Delete',
          ),
        ),
      );
    }),
  );
  for (const input of $('types-list').querySelectorAll('input')) {
    if (typing.has(input.dataset.id)) input.value = typing.get(input.dataset.id);
    if (input.dataset.id === focused) input.focus();
  }
}

async function typeChange(button, method, type, body, field) {
  err('types-error');
  for (const f of $('types-dialog').querySelectorAll('[aria-invalid]')) f.removeAttribute('aria-invalid');
  const refuse = (error) => {
    err('types-error', error);
    if (field) field.setAttribute('aria-invalid', 'true');
  };
  // Names are unique whatever their case (the server refuses a second "Member" with 409 student_type_exists).
  const same = body && state.types?.find((t) => t.id !== type?.id && t.name.toLowerCase() === body.name.toLowerCase());
  if (same) return refuse(new Error(`There is already a type called ${same.name}.`));
  await busy(button, async () => {
    try {
      await call(method, type ? `/student-types/${encodeURIComponent(type.id)}` : '/student-types', body);
      say(method === 'POST' ? `Type ${body.name} added` : method === 'PUT' ? `Renamed to ${body.name}` : `Type ${type.name} deleted`);
      studentsChanged();
      await renderTypes(true);
    } catch (error) {
      refuse(error);
    }
  });
}

async function deleteType(type, button) {
  if (
    type.student_count > 0 &&
    !(await confirmDialog({
      title: `Delete the type ${type.name}?`,
      text: `${plural(type.student_count, 'student')} of this type will have no type.`,
    }))
  )
    return;
  await typeChange(button, 'DELETE', type);
  $('type-name').focus();
}

// A change made here to a student deleted on another device meanwhile, refused as the outbox sent it: the student is
// added again with it (as Poetry keeps a poem), and the page says so; a removal of one already gone is simply done.
addEventListener('trove:sync-dropped', ({ detail: { entry, error } }) => {
  if (entry.scope !== KEY || error.code !== 'not_found' || entry.method !== 'PUT' || !/\/students\/[^/]+$/.test(entry.path)) return;
  const { base, ...student } = entry.body;
  call('POST', '/students', student).then(
    (added) => {
      toast(`${added.name} was deleted on another device, and is added again with the changes made here.`);
      studentsChanged();
    },
    (e) => toast(`Not saved: ${entry.label}. ${e.message}`),
  );
});

export function init() {
  listen('student-q', 'input', render);
  listen('student-filter', 'change', render);
  listen('student-sort', 'change', () => {
    view.sort = $('student-sort').value;
    view.order = defaultOrder(view.sort);
    render();
  });
  click('student-order', () => {
    view.order = view.order === 'asc' ? 'desc' : 'asc';
    render();
  });
  click('student-add', () => openStudent(null));
  listen('student-form', 'submit', saveStudent);
  click('student-cancel', () => asksFirst() || $('student-dialog').close());
  listen('student-dialog', 'cancel', (event) => asksFirst() && event.preventDefault()); // Escape
  click('student-delete', deleteStudent);
  // The student page's body is drawn here, with the tab, not in every first load.
  const fact = (dt, id) => make('div', {}, make('dt', { text: dt }), make('dd', { id }));
  $('student-show').append(
    make(
      'dl',
      { className: 'yg-facts yg-start' },
      fact('Joined', 'student-joined-on'),
      fact('Type', 'student-kind'),
      fact('Classes', 'student-attended'),
      fact('Last seen', 'student-last-seen'),
    ),
    make('p', { className: 'yg-prewrap', id: 'student-about' }),
    make('p', {}, make('button', { className: 'button', id: 'student-edit', onclick: () => page && openStudent(page) }, 'Edit')),
    make('h3', { id: 'history-heading', text: 'Attendance' }),
    make('ul', { className: 'yg-list', id: 'student-history', 'aria-labelledby': 'history-heading' }),
    make('p', { className: 'yg-empty', id: 'student-history-empty', hidden: true, text: 'No classes yet.' }),
  );
  click('types-open', openTypes);
  click('types-done', () => $('types-dialog').close());
  listen('type-form', 'submit', (event) => {
    event.preventDefault();
    const name = $('type-name').value.trim();
    if (!name) return;
    typeChange(event.submitter || $('type-form').querySelector('button'), 'POST', null, { name }, $('type-name')).then(() => {
      if (!$('types-error').textContent) $('type-name').value = '';
    });
  });
  listen('types-dialog', 'close', () => {
    if (shown) show();
  });
  on('students', () => {
    if (!$('view-students').hidden) show();
  });
}
