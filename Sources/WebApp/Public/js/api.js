// Trove shared front-end helpers: JSON fetch with uniform errors, and toasts (from toast.js).

/**
 * Sends a request and returns the Response when it is OK (2xx).
 * Otherwise throws an Error with `.status`, `.code`, `.message` and `.details` (from the JSON body
 * {"error":{"code","message","details"}} when there is one) and `.retryAfter` (seconds, or null).
 * With `contentType`, the body (a File or Blob) is sent as it is instead of as JSON.
 * With `keepalive`, the request goes on after the page is closed.
 */
export async function request(method, path, body, contentType, { keepalive = false } = {}) {
  // Signed in or out in another tab: nothing goes to the new profile (js/shell.js).
  if (globalThis.troveStale && method !== 'GET') throw apiError(409, 'profile_changed', 'You signed in or out in another tab.');
  const init = {
    method,
    credentials: 'same-origin',
    headers: { Accept: 'application/json' },
  };
  if (keepalive) init.keepalive = true; // outlives the page (a removal sent as the page is left)
  if (body !== undefined) {
    init.headers['Content-Type'] = contentType || 'application/json';
    init.body = contentType ? body : JSON.stringify(body);
  }

  let response;
  try {
    response = await fetch(path, init);
  } catch {
    throw apiError(
      0,
      'network',
      navigator.onLine === false
        ? 'You seem to be offline. Check your connection and try again.'
        : 'Could not reach Trove. Please try again.',
    );
  }
  if (response.ok) return response;

  let code = `http_${response.status}`;
  let message = '';
  let details = [];
  try {
    const data = await response.json();
    if (data && data.error) {
      code = data.error.code || code;
      message = data.error.message || '';
      details = Array.isArray(data.error.details) ? data.error.details : [];
    }
  } catch {
    // Not JSON: keep the generic message.
  }
  const error = apiError(response.status, code, message || fallbackMessage(response.status));
  error.details = details;
  const retryAfter = Number.parseInt(response.headers.get('Retry-After') ?? '', 10);
  error.retryAfter = Number.isFinite(retryAfter) ? retryAfter : null;
  throw error;
}

/**
 * JSON request. Resolves with the parsed body, or null for an empty answer (204).
 */
export async function api(method, path, body, options) {
  const response = await request(method, path, body, undefined, options);
  if (response.status === 204) return null;
  const text = await response.text();
  return text ? JSON.parse(text) : null;
}

function apiError(status, code, message) {
  const error = new Error(message);
  error.name = 'ApiError';
  error.status = status;
  error.code = code;
  error.retryAfter = null;
  error.details = [];
  return error;
}

function fallbackMessage(status) {
  if (status === 401) return 'Please sign in first.';
  if (status === 403) return 'That is not allowed.';
  if (status === 404) return 'That could not be found.';
  if (status === 429) return 'Too many tries. Please wait a moment.';
  if (status >= 500) return 'Something went wrong on our side. Please try again.';
  return 'That did not work. Please try again.';
}

// Toasts live in toast.js, loaded with the first toast (out of every page's first load; the worker keeps it).
let toasts;
const toastModule = () => (toasts ??= import('./toast.js'));

export function toast(message, options) {
  toastModule().then((m) => m.toast(message, options));
}

/** toast.js `undoable`, also when the page is left before toast.js came. */
export function undoable(message, options) {
  let handle = null;
  let early = null;
  const leave = () => {
    if (!handle && !early) {
      early = 'gone';
      options.commit({ keepalive: true });
    }
  };
  addEventListener('pagehide', leave);
  toastModule().then((m) => {
    removeEventListener('pagehide', leave);
    if (early === 'gone') return;
    handle = m.undoable(message, options);
    if (early) handle[early]();
  });
  return {
    undo: () => (handle ? handle.undo() : (early ||= 'undo')),
    commit: () => (handle ? handle.commit() : (early ||= 'commit')),
  };
}
