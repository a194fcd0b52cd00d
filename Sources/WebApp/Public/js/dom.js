// Trove shared DOM helpers for the apps' pages.
export const $ = (id) => document.getElementById(id);

/** Whether the person asked for reduced motion; scrollBehavior: how a page scrolls for them. */
export const reducedMotion = () => matchMedia('(prefers-reduced-motion: reduce)').matches;
export const scrollBehavior = () => (reducedMotion() ? 'auto' : 'smooth');

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

/**
 * A text field set to `text` as saved. Notes two devices wrote, kept together, can pass the field's maxlength; the
 * server takes an edit as long as the text it was written over, so the field lets it be that long too.
 */
export function setSavedText(field, text) {
  const limit = Number((field.dataset.maxlength ||= String(field.maxLength)));
  field.value = text;
  if (limit > 0) field.maxLength = Math.max(limit, text.length);
}

/** A polite announcement for screen readers, in the live region `regionId`. */
export function announce(regionId, message) {
  const region = $(regionId);
  if (!region) return;
  region.textContent = '';
  setTimeout(() => {
    region.textContent = message;
  }, 50);
}

/**
 * `dialog.showModal()`, which Back closes (./layers.js) unless `keeps()` answers true (it asks first, say); call it
 * before adding the page's own close listener.
 */
export function showModal(dialog, keeps) {
  dialog.showModal();
  const layer = import('./layers.js').then((layers) => layers.track(dialog, keeps));
  dialog.addEventListener('close', () => layer.then((l) => l?.closed()), { once: true });
}

/**
 * Asks a yes/no question in the page's confirm dialog; resolves true for the OK button.
 * Cancel has the focus, so Enter never destroys by accident. `safe`: OK destroys nothing, so it is not red.
 */
export function confirmDialog({ title, text, ok = 'Delete', cancel = 'Keep it', safe = false }) {
  const dialog = $('confirm-dialog');
  const button = $('confirm-ok');
  button.dataset.look ??= button.className;
  button.className = safe ? 'button primary' : button.dataset.look;
  $('confirm-title').textContent = title;
  $('confirm-text').textContent = text;
  button.textContent = ok;
  $('confirm-cancel').textContent = cancel;
  dialog.returnValue = '';
  return new Promise((resolve) => {
    showModal(dialog);
    dialog.addEventListener('close', () => resolve(dialog.returnValue === 'ok'), { once: true });
    $('confirm-cancel').focus();
  });
}

/**
 * Copies text to the clipboard; resolves whether it worked. Where the Clipboard API refuses, the old way: a hidden
 * text box selected and copied, which takes the focus, so it goes back to `returnTo` (what had it before).
 */
export async function copyText(text, returnTo = document.activeElement) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = make('textarea', { className: 'visually-hidden', readonly: true, 'aria-hidden': 'true' });
    area.value = text;
    document.body.append(area);
    area.select();
    let ok = false;
    try {
      ok = document.execCommand('copy');
    } catch {
      ok = false;
    }
    area.remove();
    returnTo?.focus?.();
    return ok;
  }
}

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
