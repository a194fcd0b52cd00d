// YogiYogini: three tabs (Sessions, Class, Students) over the API under /api/v1/yoga.
// The hash names the view: #class (the default), #students, #sessions, #session/<id>, #stats, #settings.
import { $ } from './dom.js';
import { call, state, emit } from './store.js';
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

function route() {
  const [name, id] = location.hash.slice(1).split('/');
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
  show(id && decodeURIComponent(id));
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
  window.addEventListener('hashchange', route);
  route();
  await Promise.all([settings, classTab.ready()]);
  $('yoga').dataset.ready = 'true';
}

start();
