// Unit tests for YogiYogini's long press ("End class" held 600 ms saves at once) and the notes debounce.
import { test, mock } from 'node:test';
import assert from 'node:assert/strict';

import { createLongPress, debounce } from '../../Sources/WebApp/Public/yoga/logic.js';

test('a press released before 600 ms is a short press (the ordinary click)', () => {
  const press = createLongPress(600);
  press.down(1000);
  assert.equal(press.pressing, true);
  assert.equal(press.due(1599), false);
  assert.equal(press.up(1599), 'short');
  assert.equal(press.pressing, false);
});

test('holding fires exactly once at 600 ms, and the release after it is long', () => {
  const press = createLongPress(600);
  press.down(0);
  assert.equal(press.due(300), false);
  assert.equal(press.due(600), true);
  assert.equal(press.due(700), false, 'never twice');
  assert.equal(press.up(900), 'long');
});

test('a release at 600 ms or later is long even if no check ran in between (a throttled frame)', () => {
  const press = createLongPress(600);
  press.down(10);
  assert.equal(press.up(610), 'long');
});

test('progress runs from 0 to 1 while pressed and is 0 otherwise', () => {
  const press = createLongPress(600);
  assert.equal(press.progress(50), 0);
  press.down(100);
  assert.equal(press.progress(100), 0);
  assert.equal(press.progress(400), 0.5);
  assert.equal(press.progress(5000), 1);
  assert.equal(press.progress(40), 0, 'a clock going back reads 0');
  press.cancel();
  assert.equal(press.progress(400), 0);
});

test('a cancelled press (finger moved away, pointercancel) neither fires nor counts as a click', () => {
  const press = createLongPress(600);
  press.down(0);
  press.cancel();
  assert.equal(press.due(1000), false);
  assert.equal(press.up(1000), 'none');
});

test('each press starts afresh', () => {
  const press = createLongPress(600);
  press.down(0);
  assert.equal(press.due(650), true);
  press.up(700);
  press.down(1000);
  assert.equal(press.due(1400), false);
  assert.equal(press.due(1600), true);
  assert.equal(press.up(1601), 'long');
  assert.equal(press.up(1700), 'none', 'a second release without a press is nothing');
});

test('debounce calls once with the last arguments after the pause; flush and cancel', () => {
  mock.timers.enable({ apis: ['setTimeout'] });
  try {
    const calls = [];
    const save = debounce((text) => calls.push(text), 800);
    save('a');
    save('ab');
    mock.timers.tick(799);
    assert.deepEqual(calls, []);
    assert.equal(save.pending(), true);
    mock.timers.tick(1);
    assert.deepEqual(calls, ['ab']);
    assert.equal(save.pending(), false);

    save('abc');
    save.flush();
    assert.deepEqual(calls, ['ab', 'abc'], 'flush runs the waiting call at once');
    mock.timers.tick(1000);
    assert.deepEqual(calls, ['ab', 'abc'], 'and not again later');

    save('abcd');
    save.cancel();
    mock.timers.tick(1000);
    assert.equal(save.flush(), undefined);
    assert.deepEqual(calls, ['ab', 'abc']);
  } finally {
    mock.timers.reset();
  }
});
