// Sign up, sign in, and the account page (sign out, download and bring in data, delete profile).
import { api, request, toast } from './api.js';
import { safeNext } from './next.js';
import { showModal } from './dom.js';

const errorBox = document.getElementById('form-error');

function showError(message) {
  if (errorBox) errorBox.textContent = message;
  else toast(message);
}

function clearError() {
  if (errorBox) errorBox.textContent = '';
}

// Pages cached by the service worker show who is signed in: drop them when that changes. Its stories
// cache holds the profile's library and downloaded stories: dropped too, unless the profile stays the same
// (signing up keeps the guest's profile). The stories page keeps the library again when next opened online.
async function forgetCachedPages(sameProfile = false) {
  if (!('caches' in window)) return;
  try {
    const names = await caches.keys();
    const personal = (name) => name.startsWith('trove-pages-') || (!sameProfile && name === 'trove-stories');
    await Promise.all(names.filter(personal).map((name) => caches.delete(name)));
  } catch {
    // Storage may be unavailable (private mode); nothing to forget then.
  }
}

// The device's copies and outbox (js/sync.js) belong to one profile: what waits is sent first, to the profile it
// was made in (a few seconds at most), and once the profile changes both are emptied, so the next profile never
// sends or sees them.
const sync = () => import('./sync.js');
const sendWaiting = () =>
  sync()
    .then((m) =>
      Promise.race([
        m.flush(),
        new Promise((resolve) => {
          setTimeout(resolve, 5000);
        }),
      ]),
    )
    .catch(() => {});
const forgetDevice = () => {
  try {
    localStorage.setItem('trove.profile-changed', String(Date.now())); // the other tabs load again (js/shell.js)
  } catch {
    // Storage unavailable: the other tabs cannot be told.
  }
  return sync()
    .then((m) => m.forget())
    .catch(() => {});
};

function seconds(n) {
  if (n < 60) return n === 1 ? '1 second' : `${n} seconds`;
  const minutes = Math.ceil(n / 60);
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}

function messageFor(error, form) {
  if (error.status === 429) {
    return error.retryAfter ? `Too many attempts. Please try again in ${seconds(error.retryAfter)}.` : error.message;
  }
  if (error.status === 401 && form.id === 'login-form') {
    return error.message || 'That username and password do not match.';
  }
  return error.message;
}

function wireCredentialsForm(form, path) {
  const username = form.elements.namedItem('username');
  const password = form.elements.namedItem('password');
  const submit = form.querySelector('[type="submit"]');

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearError();
    username.removeAttribute('aria-invalid');
    password.removeAttribute('aria-invalid');
    if (!form.reportValidity()) return;

    submit.disabled = true;
    form.setAttribute('aria-busy', 'true');
    try {
      await sendWaiting(); // a guest's queued work reaches the guest profile, which signing in brings along
      await api('POST', path, { username: username.value.trim(), password: password.value });
      await forgetCachedPages(form.id === 'signup-form');
      await forgetDevice();
      window.location.assign(next ?? '/account');
    } catch (error) {
      showError(messageFor(error, form));
      // The field the refusal is about: both for wrong credentials, the username's own rules or a taken name, else
      // the password.
      const aboutUsername = error.code === 'invalid_username' || error.status === 401 || error.status === 409;
      if (aboutUsername) username.setAttribute('aria-invalid', 'true');
      if (error.status === 401 || (error.status === 422 && !aboutUsername)) password.setAttribute('aria-invalid', 'true');
      submit.disabled = false;
      form.removeAttribute('aria-busy');
    }
  });
}

// Back to the page sign-in was opened from; the link to the other form keeps it.
const next = safeNext(new URLSearchParams(location.search).get('next'), location.origin);
if (next) {
  for (const link of document.querySelectorAll('.form-footer a[href="/signup"], .form-footer a[href="/login"]')) {
    link.setAttribute('href', `${link.pathname}?${new URLSearchParams({ next })}`);
  }
}

// A guest signing in is told what comes along to the account.
const guestWork = document.getElementById('guest-work');
if (guestWork) {
  api('GET', '/api/v1/account/guest-work').then(
    ({ summary }) => {
      if (!summary) return;
      guestWork.textContent = `${summary} from this device will join your account.`;
      guestWork.hidden = false;
    },
    () => {},
  );
}

const signupForm = document.getElementById('signup-form');
if (signupForm) wireCredentialsForm(signupForm, '/api/v1/account/signup');

// Usernames are kept in small letters (the server lower-cases them, and signing in ignores case): a name typed with
// capitals is shown as it will be kept, before the account is made, not changed without a word.
const usernameHint = document.getElementById('username-hint');
if (signupForm && usernameHint) {
  const field = signupForm.elements.namedItem('username');
  const rules = usernameHint.textContent;
  field.addEventListener('input', () => {
    const typed = field.value.trim();
    const kept = typed.toLowerCase();
    usernameHint.textContent =
      typed === kept ? rules : `Your username will be “${kept}”: usernames are kept in small letters. You can sign in as “${typed}” too.`;
  });
}

const loginForm = document.getElementById('login-form');
if (loginForm) wireCredentialsForm(loginForm, '/api/v1/account/login');

// --- Account page ---

const logoutButton = document.getElementById('logout');
if (logoutButton) {
  logoutButton.addEventListener('click', async () => {
    clearError();
    logoutButton.disabled = true;
    try {
      await sendWaiting();
      await api('POST', '/api/v1/account/logout');
      await forgetCachedPages();
      await forgetDevice();
      window.location.assign('/');
    } catch (error) {
      showError(error.message);
      logoutButton.disabled = false;
    }
  });
}

const exportLink = document.getElementById('export');
if (exportLink) {
  exportLink.addEventListener('click', async (event) => {
    event.preventDefault();
    if (exportLink.getAttribute('aria-disabled') === 'true') return;
    clearError();
    exportLink.setAttribute('aria-disabled', 'true');
    try {
      const response = await request('GET', '/api/v1/account/export');
      const blob = new Blob([await response.blob()], { type: 'application/json' });
      const url = URL.createObjectURL(blob);
      const anchor = document.createElement('a');
      anchor.href = url;
      anchor.download = 'trove-export.json';
      anchor.hidden = true;
      document.body.append(anchor);
      anchor.click();
      anchor.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10000);
      toast('Your data is downloading as trove-export.json.');
    } catch (error) {
      showError(error.message);
    } finally {
      exportLink.removeAttribute('aria-disabled');
    }
  });
}

// Bringing in an export (from this Trove or another) into a profile that holds nothing yet.
const importButton = document.getElementById('import');
const importFile = document.getElementById('import-file');
const KINDS = {
  own_cards: ['card of your own', 'cards of your own'],
  favourite_cards: ['favourite card', 'favourite cards'],
  draws: ['drawn card', 'drawn cards'],
  word_sets: ['word set', 'word sets'],
  poems: ['poem', 'poems'],
  cities: ['city', 'cities'],
  students: ['student', 'students'],
  venues: ['venue', 'venues'],
  sessions: ['class session', 'class sessions'],
  class_in_session: ['class in session', 'classes in session'],
  published_stories: ['published story', 'published stories'],
  stories: ['story in your library', 'stories in your library'],
  reading_places: ['reading place', 'reading places'],
};
if (importButton && importFile) {
  importButton.addEventListener('click', () => importFile.click());
  importFile.addEventListener('change', async () => {
    const file = importFile.files[0];
    if (!file) return;
    clearError();
    const result = document.getElementById('import-result');
    result.replaceChildren();
    importButton.disabled = true;
    try {
      const response = await request('POST', '/api/v1/account/import', await file.text(), 'application/json');
      const report = await response.json();
      const order = Object.keys(KINDS);
      const added = Object.entries(report.added)
        .sort(([a], [b]) => order.indexOf(a) - order.indexOf(b))
        .map(([kind, n]) => `${n} ${(KINDS[kind] || [kind, kind])[n === 1 ? 0 : 1]}`);
      const summary = document.createElement('p');
      summary.textContent = added.length ? `Brought in: ${added.join(', ')}.` : 'The file held nothing to bring in.';
      result.append(summary);
      if (report.skipped.length) {
        const list = document.createElement('ul');
        for (const line of report.skipped) list.append(Object.assign(document.createElement('li'), { textContent: line }));
        result.append(Object.assign(document.createElement('p'), { textContent: 'Left out:' }), list);
      }
      await forgetCachedPages(true);
    } catch (error) {
      showError(error.message);
    } finally {
      importButton.disabled = false;
      importFile.value = '';
    }
  });
}

async function deleteProfile(button) {
  clearError();
  button.disabled = true;
  try {
    await api('DELETE', '/api/v1/account');
    await forgetCachedPages();
    await forgetDevice();
    window.location.assign('/');
  } catch (error) {
    showError(error.message);
    button.disabled = false;
  }
}

const deleteButton = document.getElementById('delete-profile');
const deleteDialog = document.getElementById('delete-dialog');
if (deleteButton) {
  deleteButton.addEventListener('click', () => {
    if (deleteDialog && typeof deleteDialog.showModal === 'function') {
      deleteDialog.returnValue = '';
      showModal(deleteDialog);
    } else if (window.confirm('Delete your profile and everything saved in it? This cannot be undone.')) {
      deleteProfile(deleteButton);
    }
  });
}
if (deleteDialog) {
  deleteDialog.addEventListener('close', () => {
    if (deleteDialog.returnValue === 'delete') deleteProfile(deleteButton);
    else deleteButton.focus();
  });
}
