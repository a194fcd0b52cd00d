// Unit tests for Back over dialogs and sheets (Public/js/layers.js): `node --test tests/js/`.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { createLayers } from '../../Sources/WebApp/Public/js/layers.js';
import { createRouter } from '../../Sources/WebApp/Public/js/router.js';
import { fakeWindow } from './fake-window.mjs';

/** A <dialog> as the layers see it; its close event comes when `fireClose()` says, as a browser queues it. */
function fakeDialog() {
  const listeners = [];
  return {
    open: false,
    closes: 0,
    showModal() {
      this.open = true;
    },
    close() {
      if (!this.open) return;
      this.open = false;
      this.closes += 1;
      this.pending = true;
    },
    addEventListener(type, listener) {
      listeners.push(listener);
    },
    fireClose() {
      if (!this.pending) return;
      this.pending = false;
      for (const listener of listeners.splice(0)) listener({});
    },
  };
}

/** What dom.js's showModal does, once layers.js is loaded. */
function showModal(layers, dialog, keeps) {
  dialog.showModal();
  const layer = layers.track(dialog, keeps);
  dialog.addEventListener('close', () => layer.closed());
}

function page(href = 'https://trove.test/yoga#students') {
  const win = fakeWindow(href);
  const layers = createLayers(win);
  const router = createRouter({ win, layers: () => layers, onView: () => {} });
  router.start();
  return { win, router, layers };
}

test('Back closes an open dialog and stays on its view', () => {
  const { win, router, layers } = page();
  const dialog = fakeDialog();
  showModal(layers, dialog);
  assert.equal(win.entries.length, 2, 'the dialog has an entry of its own');
  assert.equal(win.location.hash, '#students', 'at the same address');
  win.history.back();
  dialog.fireClose();
  assert.equal(dialog.open, false);
  assert.equal(win.left, false, 'Back did not leave the page');
  assert.equal(router.view, 'students');
  assert.equal(win.index, 0);
  win.history.forward();
  assert.equal(win.index, 0, 'Forward onto the closed dialog comes straight back: there is nothing to show there');
});

test('a dialog closed by its own button takes its entry off, so the next Back leaves the view', () => {
  const { win, router, layers } = page();
  router.go('student/7');
  const dialog = fakeDialog();
  showModal(layers, dialog);
  dialog.close();
  dialog.fireClose();
  assert.equal(win.index, 1, 'back on the view the dialog opened over');
  assert.equal(win.location.hash, '#student/7');
  win.history.back();
  assert.equal(router.view, 'students', 'one Back, one view');
});

test('a dialog that opens as another closes has the one entry, and Back closes it', () => {
  const { win, layers } = page();
  const first = fakeDialog();
  showModal(layers, first);
  first.close(); // Discard: the end-of-class dialog closes and the confirm opens in the same tap
  const second = fakeDialog();
  showModal(layers, second);
  first.fireClose();
  assert.equal(win.index, 1, 'one entry for the one dialog open');
  assert.equal(win.history.state.troveLayer, 1);
  win.history.back();
  second.fireClose();
  assert.equal(second.open, false);
  assert.equal(win.index, 0);
});

test('a sheet under a dialog: each Back closes the newest', () => {
  const { win, layers } = page('https://trove.test/poetry#poem/x');
  let sheetOpen = true;
  const sheet = layers.openLayer({ close: () => (sheetOpen = false), isOpen: () => sheetOpen });
  const dialog = fakeDialog();
  showModal(layers, dialog);
  assert.equal(win.entries.length, 3);
  win.history.back();
  dialog.fireClose();
  assert.deepEqual([dialog.open, sheetOpen], [false, true]);
  win.history.back();
  assert.equal(sheetOpen, false);
  sheet.closed(); // what closing the sheet calls: Back already took its entry
  assert.equal(win.index, 0);
  assert.equal(win.left, false);
});

test('a view opened as its dialog closes takes the dialog entry, so Back returns to the view under it', () => {
  const { win, router, layers } = page();
  const dialog = fakeDialog();
  showModal(layers, dialog);
  dialog.close(); // "Open the student's page" closes the dialog and goes there at once
  router.go('student/7');
  dialog.fireClose();
  assert.equal(win.entries.length, 2, 'no entry left of the dialog');
  win.history.back();
  assert.equal(router.view, 'students');
  assert.equal(win.index, 0);
});

test('a view opened while the closed dialog is stepped back over comes after that step', () => {
  const { win, router, layers } = page();
  win.queued = []; // a browser runs history.go() later
  const dialog = fakeDialog();
  showModal(layers, dialog);
  dialog.close(); // "Delete" confirmed: the dialog's entry goes, and the app opens another view at once
  dialog.fireClose();
  router.go('student/7');
  assert.equal(router.view, 'student/7');
  win.flush();
  assert.equal(win.location.hash, '#student/7', 'the step back did not undo the new view');
  assert.equal(router.view, 'student/7', 'the router did not show the view under the dialog for that step');
  assert.deepEqual(
    win.entries.map((e) => e.url.hash),
    ['#students', '#student/7'],
  );
  win.history.back();
  assert.equal(router.view, 'students');
});

test('the in-app Back goes over an open sheet to the previous view', () => {
  const { win, router, layers } = page('https://trove.test/poetry');
  router.go('poem/x');
  let sheetOpen = true;
  layers.openLayer({ close: () => (sheetOpen = false), isOpen: () => sheetOpen });
  router.back();
  assert.equal(router.view, '');
  assert.equal(sheetOpen, false);
});

test('the in-app Back after a dialog closes goes to the previous view, once', () => {
  const { win, router, layers } = page();
  router.go('student/7');
  const dialog = fakeDialog();
  showModal(layers, dialog);
  dialog.close(); // "Leave without saving?" answered Leave: the close event comes, then the app goes back
  dialog.fireClose();
  router.back();
  assert.equal(router.view, 'students');
  assert.equal(win.index, 0);
});

test("the in-app Back as its dialog closes waits for the dialog's step, as WebKit runs one history.go() at a time", () => {
  const { win, router, layers } = page();
  router.go('student/7');
  win.queued = [];
  win.oneAtATime = true;
  const dialog = fakeDialog();
  showModal(layers, dialog);
  dialog.close(); // "Leave without saving?" answered Leave, then the app goes back at once
  dialog.fireClose();
  router.back();
  win.flush();
  assert.equal(router.view, 'students');
  assert.equal(win.index, 0);
});

test('a reload with a dialog open steps back to the view entry', () => {
  const { win, layers } = page();
  showModal(layers, fakeDialog());
  win.reload();
  const router = createRouter({ win, layers: () => createLayers(win), onView: () => {} });
  router.start();
  assert.equal(win.index, 0);
  assert.equal(win.location.hash, '#students');
  assert.equal(router.view, 'students');
});

test('a dialog with something typed stays open on Back, with its entry back, and closes once the person says so', () => {
  const { win, router, layers } = page();
  const form = fakeDialog();
  let asked = 0;
  const keeps = () => (asked += 1) === 1; // asks the first time: "Keep editing"; the second Back is a discard
  showModal(layers, form, keeps);
  win.history.back();
  assert.equal(form.open, true, 'Back with something typed did not keep the dialog');
  assert.equal(asked, 1);
  assert.equal(win.index, 1, 'the kept dialog has its entry again, for the next Back');
  assert.equal(win.left, false);
  win.history.back();
  form.fireClose();
  assert.equal(form.open, false);
  assert.equal(win.index, 0);
  assert.equal(router.view, 'students');
  win.history.back();
  assert.equal(win.left, true, 'the next Back leaves the view, no entry of the dialog is left over');
});

test('a kept dialog under a sheet: Back closes the sheet, then asks for the dialog', () => {
  const { win, layers } = page();
  const form = fakeDialog();
  const sheet = fakeDialog();
  showModal(layers, form, () => true);
  showModal(layers, sheet);
  win.history.back();
  sheet.fireClose();
  assert.equal(sheet.open, false);
  assert.equal(win.index, 1);
  win.history.back();
  assert.equal(form.open, true);
  assert.equal(win.index, 1, 'kept, with its entry');
  form.close();
  form.fireClose();
  assert.equal(win.index, 0, 'closed by its own button: its entry goes');
});
