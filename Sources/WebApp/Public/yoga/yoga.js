// YogiYogini: three tabs (Sessions, Class, Students) over the API under /api/v1/yoga.
// The hash names the view: #class (the default), #students, #student/<id>, #sessions, #session/<id>, #stats,
// #venues, #settings.
import { $ } from './dom.js';
import { createRouter, parseView } from '../js/router.js';
import { call, state, emit, studentsChanged, loadStudents } from './store.js';
import * as classTab from './class.js';

// The Class tab comes with the page; the Students and Sessions tabs load when one of their views is first shown
// (the page's weight budget), each set up (`init`) once. The service worker keeps both from the first visit
// (fetched by the worker, not the page), so they open offline too.
const tabs = { class: Promise.resolve(classTab) };
const lazy = { students: './students.js', sessions: './sessions.js' };
function tab(name) {
  return (tabs[name] ??= import(lazy[name]).then(
    (m) => {
      m.init();
      return m;
    },
    (error) => {
      tabs[name] = null;
      throw error;
    },
  ));
}
// The same for what the tabs import that the page has not (lists.js) and the Class tab's check-in panels and
// attendee picker (class.js loads checkin.js and picker.js when they open).
navigator.serviceWorker?.ready.then(
  ({ active }) =>
    active?.postMessage({
      type: 'trove:keep',
      urls: [...Object.values(lazy), './lists.js', './checkin.js', './picker.js'].map((path) => new URL(path, import.meta.url).pathname),
    }),
  () => {},
);

const VIEWS = {
  class: ['class', 'showTab'],
  students: ['students', 'show'],
  student: ['students', 'showStudent'],
  sessions: ['sessions', 'showList'],
  session: ['sessions', 'showDetail'],
  stats: ['sessions', 'showStats'],
  settings: ['sessions', 'showSettings'],
  venues: ['sessions', 'showVenues'],
};
let currentView = null;
let routed = 0;

// The views are URLs through the shared router (js/router.js): the tabs and links are plain '#…' links,
// each a history entry, so Back and Forward move between them, and a reload or a pasted link opens the same.
const router = createRouter({ home: 'class', onView: route });

function route(hash) {
  const {
    name,
    args: [id],
  } = parseView(hash);
  const view = VIEWS[name] && ((name !== 'session' && name !== 'student') || id) ? name : 'class';
  const [part, show] = VIEWS[view];
  const seq = ++routed;
  // The view shows once its tab's module is in, together with what that module draws into it.
  tab(part).then(
    (m) => {
      if (seq !== routed) return; // another view was asked for meanwhile
      for (const key of Object.keys(VIEWS)) $(`view-${key}`).hidden = key !== view;
      for (const key of ['sessions', 'class', 'students']) {
        if (key === part) $(`tab-${key}`).setAttribute('aria-current', 'page');
        else $(`tab-${key}`).removeAttribute('aria-current');
      }
      $('yoga').dataset.view = view;
      const from = currentView;
      if (from !== view) window.scrollTo(0, 0);
      currentView = view;
      m[show](id, from);
    },
    (error) => console.warn(`The ${part} tab did not load:`, error),
  );
}

async function start() {
  document.body.classList.add('yg-body');
  const settings = call('GET', '/settings')
    .then((body) => {
      state.settings = body;
      emit('settings');
    })
    .catch(() => {});
  classTab.init();
  if (!location.hash) history.replaceState(history.state, '', '#class'); // the first view has one name
  router.start();
  await Promise.all([settings, classTab.ready()]);
  $('yoga').dataset.ready = 'true';
  // The roster kept on the device from every visit, not only from one to the Students tab: without it, a class
  // taken offline has nobody to offer in its attendee picker.
  loadStudents().catch(() => {});
}

// What was done offline reached the server: the tabs read again (the server's ids and figures).
addEventListener('trove:synced', ({ detail }) => {
  if (!detail.scopes.includes('yoga')) return;
  emit('sessions');
  studentsChanged();
});

start();
