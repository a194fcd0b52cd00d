// YogiYogini: the API, the data the tabs share, and change notices between them.
import { formatTemperature } from './logic.js';
import { yogaCall } from './local.js';

export const API = '/api/v1/yoga';
// Through the device's copy and the outbox (local.js), so every tab works offline.
export const call = (method, path, body) => yogaCall(method, path, body);

export const state = {
  settings: { temperature_unit: 'celsius', slipping_weeks: 3 },
  students: null, // once loaded
  types: null,
  sessions: null,
};

const listeners = new Map();
export function on(name, fn) {
  if (!listeners.has(name)) listeners.set(name, []);
  listeners.get(name).push(fn);
}
/** Tells the tabs that something changed ('students', 'sessions', 'settings'). */
export function emit(name, data) {
  for (const fn of listeners.get(name) || []) fn(data);
}

export const temperature = (celsius) => formatTemperature(celsius, state.settings.temperature_unit);

/** Students deleted a moment ago whose Undo has not run out: not deleted on the server yet, not shown. */
export const leaving = new Set();

let studentsRead = null; // a roster read on its way, which a call taking what is there shares
export function loadStudents(force = false) {
  if (!force && state.students) return Promise.resolve(state.students);
  if (!force && studentsRead) return studentsRead;
  const read = call('GET', '/students?active=all&sort=name&order=asc').then(
    (body) => (state.students = body.students.filter((s) => !leaving.has(s.id))),
  );
  studentsRead = read;
  read.finally(() => studentsRead === read && (studentsRead = null)).catch(() => {});
  return read;
}

export async function loadTypes(force = false) {
  if (!state.types || force) state.types = (await call('GET', '/student-types')).types;
  return state.types;
}

export async function loadSessions(force = false) {
  if (!state.sessions || force) state.sessions = (await call('GET', '/sessions?sort=date&order=desc')).sessions;
  return state.sessions;
}
on('sessions', () => {
  state.sessions = null;
});

/** Reloads the roster (and types) after a change and tells every tab. */
export function studentsChanged() {
  state.students = null;
  state.types = null;
  emit('students');
}
