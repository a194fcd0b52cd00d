// YogiYogini: small DOM helpers shared by the tabs.
export const $ = (id) => document.getElementById(id);
export const txt = (id, value) => { $(id).textContent = value; };
export const show = (id, on = true) => { $(id).hidden = !on; };
/** An error's message into an error paragraph, or clears it. */
export const err = (id, error) => txt(id, error ? error.message || String(error) : '');

/** An element: props are attributes (className, text, dataset, on* handlers, boolean true/false). */
export function make(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'className') node.className = value;
    else if (key === 'text') node.textContent = value;
    else if (key === 'dataset') Object.assign(node.dataset, value);
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? '' : value);
  }
  node.append(...children.filter((c) => c !== null && c !== undefined && c !== false));
  return node;
}

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

/** A polite announcement for screen readers. */
export function say(message) {
  const region = $('yg-announce');
  region.textContent = '';
  setTimeout(() => { region.textContent = message; }, 50);
}

/**
 * Asks a yes/no question in the shared confirm dialog; resolves true for the OK button.
 * The dialog's Cancel button has the focus, so Enter never destroys by accident.
 */
export function confirmDialog({ title, text, ok = 'Delete', cancel = 'Keep it' }) {
  const dialog = $('confirm-dialog');
  $('confirm-title').textContent = title;
  $('confirm-text').textContent = text;
  $('confirm-ok').textContent = ok;
  $('confirm-cancel').textContent = cancel;
  dialog.returnValue = '';
  return new Promise((resolve) => {
    dialog.addEventListener('close', () => resolve(dialog.returnValue === 'ok'), { once: true });
    dialog.showModal();
    $('confirm-cancel').focus();
  });
}

const dateFormat = new Intl.DateTimeFormat(undefined, { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' });
const shortDate = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', year: 'numeric' });
const timeFormat = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });
const monthFormat = new Intl.DateTimeFormat(undefined, { month: 'short', year: 'numeric', timeZone: 'UTC' });

export const formatDate = (iso) => (iso ? dateFormat.format(new Date(iso)) : '');
export const formatTime = (iso) => (iso ? timeFormat.format(new Date(iso)) : '');
/** A "YYYY-MM-DD" day or an ISO instant as "22 Nov 2026"; null → fallback. */
export function formatDay(value, fallback = 'never') {
  if (!value) return fallback;
  const d = /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T12:00:00`) : new Date(value);
  return Number.isNaN(d.getTime()) ? value : shortDate.format(d);
}
export const formatMonth = (key) => monthFormat.format(new Date(`${key}-15T00:00:00Z`));

/** Marks a control busy while `work` runs, so a double tap cannot send twice. */
export async function busy(button, work) {
  if (button.disabled) return undefined;
  button.disabled = true;
  try {
    return await work();
  } finally {
    button.disabled = false;
  }
}
