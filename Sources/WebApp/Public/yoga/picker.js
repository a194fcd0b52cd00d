// YogiYogini, Class tab: the attendee picker of the running class, loaded by class.js when first opened.
import { $, txt, show, err, make, span, listen, say, busy } from './dom.js';
import { state, call, loadStudents, studentsChanged } from './store.js';
import { fold, matches, pickerStudents, plural } from './logic.js';
import { localDate } from './lists.js';
import { running, patch, refocus } from './class.js';
import { showModal } from '../js/dom.js';

export async function openPicker() {
  $('picker-q').value = '';
  err('picker-error');
  showModal($('picker-dialog'));
  $('picker-list').replaceChildren(make('li', { className: 'yg-muted', text: 'Loading…' }));
  try {
    await loadStudents();
    renderPicker();
  } catch (error) {
    err('picker-error', error);
  }
}

function renderPicker() {
  const { klass, regulars } = running();
  if (!klass || !state.students) return;
  const times = new Map(regulars.map((r) => [r.id, r.times]));
  const inactive = $('picker-inactive').checked;
  const people = pickerStudents(
    state.students,
    klass.attendees.map((a) => a.id),
    regulars,
    inactive,
  ).filter((s) => matches(s.name, $('picker-q').value));
  // Someone new at the door: a name nobody on the roster has joins the roster and the class in one tap.
  const typed = $('picker-q').value.trim();
  const walkIn =
    typed && !state.students.some((s) => fold(s.name) === fold(typed))
      ? make(
          'li',
          {},
          make(
            'button',
            { className: 'yg-item', onclick: (e) => addWalkIn(typed, e.currentTarget) },
            make('span', { className: 'yg-item-title' }, `Add “${typed}”`),
            span('yg-item-meta', 'New to your roster, and here today'),
          ),
        )
      : null;
  $('picker-list').replaceChildren(
    ...people.map((s) =>
      make(
        'li',
        {},
        make(
          'button',
          { className: 'yg-item', onclick: (e) => addAttendee(s, e.currentTarget) },
          make('span', { className: 'yg-item-title' }, s.name, s.active ? null : span('badge yg-off', 'not active')),
          times.get(s.id) ? span('yg-item-meta', `Regular here · ${plural(times.get(s.id), 'time')}`) : null,
        ),
      ),
    ),
    ...(walkIn ? [walkIn] : []),
  );
  // Nobody to show: say whether inactive students could be shown, or whom the search leaves out.
  const hidden =
    !inactive &&
    pickerStudents(
      state.students,
      klass.attendees.map((a) => a.id),
      [],
      true,
    ).some((s) => !s.active && matches(s.name, $('picker-q').value));
  const here = typed && klass.attendees.find((a) => fold(a.name) === fold(typed));
  show('picker-empty', !people.length && !walkIn);
  txt(
    'picker-empty',
    hidden
      ? 'No active student left to add. Tick “Show inactive students” to find the others.'
      : here
        ? `${here.name} is already in this class.`
        : typed
          ? 'Nobody on your roster matches.'
          : 'Nobody else to add. Type a new student’s name to add them.',
  );
}

async function addAttendee(student, button) {
  const index = [...$('picker-list').children].indexOf(button.closest('li'));
  if (!(await busy(button, () => patch({ add: [student.id] })))) return;
  say(`${student.name} added`);
  renderPicker();
  refocus('picker-list', index, 'picker-q');
}

async function addWalkIn(name, button) {
  err('picker-error');
  const added = await busy(button, async () => {
    try {
      const student = await call('POST', '/students', { name, joined_on: localDate(), active: true });
      studentsChanged();
      await loadStudents();
      return (await patch({ add: [student.id] })) && student;
    } catch (error) {
      err('picker-error', error); // the name refused (too long, say): said under the list
      return null;
    }
  });
  if (!added) return;
  say(`${added.name} joined your roster and this class`);
  $('picker-q').value = '';
  renderPicker();
  $('picker-q').focus();
}

listen('picker-q', 'input', renderPicker);
listen('picker-inactive', 'change', renderPicker);
