// YogiYogini: small DOM helpers shared by the tabs.
import { $, make, announce } from '../js/dom.js';
import { formatTime } from '../js/time.js';

export { $, make, confirmDialog, busy, setSavedText } from '../js/dom.js';
export { formatTime };
export const txt = (id, value) => {
  $(id).textContent = value;
};
export const show = (id, on = true) => {
  $(id).hidden = !on;
};
/** An error's message into an error paragraph, or clears it. */
export const err = (id, error) => txt(id, error ? error.message || String(error) : '');

export const listen = (id, type, fn) => $(id).addEventListener(type, fn);
export const click = (id, fn) => listen(id, 'click', fn);
export const span = (className, text) => make('span', { className, text });

const NS = 'http://www.w3.org/2000/svg';
export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  node.append(...children);
  return node;
}

/** A row to tick in a list of people: a checkbox with `value`, labelled by what follows. */
export const checkRow = (value, checked, ...label) =>
  make('li', {}, make('label', { className: 'yg-check' }, make('input', { type: 'checkbox', value, checked }), make('span', {}, ...label)));

/** A polite announcement for screen readers. */
export const say = (message) => announce('yg-announce', message);

const dateFormat = new Intl.DateTimeFormat(undefined, { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' });
const shortDate = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', year: 'numeric' });
const monthFormat = new Intl.DateTimeFormat(undefined, { month: 'short', year: 'numeric', timeZone: 'UTC' });

export const formatDate = (iso) => (iso ? dateFormat.format(new Date(iso)) : '');
/** A "YYYY-MM-DD" day or an ISO instant as "22 Nov 2026"; null → fallback. */
export function formatDay(value, fallback = 'never') {
  if (!value) return fallback;
  const d = /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T12:00:00`) : new Date(value);
  return Number.isNaN(d.getTime()) ? value : shortDate.format(d);
}
export const formatMonth = (key) => monthFormat.format(new Date(`${key}-15T00:00:00Z`));
