// YogiYogini: three tabs (Sessions, Class, Students) over the API under /api/v1/yoga.
// The hash names the view: #class (the default), #students, #sessions, #session/<id>, #stats, #settings.
import { $ } from './dom.js';
import { createRouter, parseView } from '../js/router.js';
import { call, state, emit, studentsChanged } from './store.js';
import * as classTab from './class.js';
import * as studentsTab from './students.js';
import * as sessionsTab from './sessions.js';

const VIEWS = {
  class: ['class', classTab.showTab],
  students: ['students', studentsTab.show],
  sessions: ['sessions', sessionsTab.showList],
  session: ['sessions', sessionsTab.showDetail],
  stats: ['sessions', sessionsTab.showStats],
  settings: ['sessions', sessionsTab.showSettings],
};
let currentView = null;

// The views are URLs through the shared router (js/router.js): the tabs and links are plain '#…' links,
// each a history entry, so Back and Forward move between them, and a reload or a pasted link opens the same.
const router = createRouter({ home: 'class', onView: route });

function route(hash) {
  const { name, args: [id] } = parseView(hash);
  const view = VIEWS[name] && (name !== 'session' || id) ? name : 'class';
  const [tab, show] = VIEWS[view];
  for (const key of Object.keys(VIEWS)) $(`view-${key}`).hidden = key !== view;
  for (const key of ['sessions', 'class', 'students']) {
    if (key === tab) $(`tab-${key}`).setAttribute('aria-current', 'page');
    else $(`tab-${key}`).removeAttribute('aria-current');
  }
  $('yoga').dataset.view = view;
  if (currentView !== view) window.scrollTo(0, 0);
  currentView = view;
  show(id);
}

async function start() {
  document.body.classList.add('yg-body');
  const settings = call('GET', '/settings').then((body) => {
    state.settings = body;
    emit('settings');
  }).catch(() => {});
  classTab.init();
  studentsTab.init();
  sessionsTab.init();
  if (!location.hash) history.replaceState(history.state, '', '#class'); // the first view has one name
  router.start();
  await Promise.all([settings, classTab.ready()]);
  $('yoga').dataset.ready = 'true';
}

// What was done offline reached the server: the tabs read again (the server's ids and figures).
addEventListener('trove:synced', ({ detail }) => {
  if (!detail.scopes.includes('yoga')) return;
  emit('sessions');
  studentsChanged();
});

start();
