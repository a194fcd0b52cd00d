// A temperature typed by the instructor, in her unit; the picker's inactive students; one time format (issue 18).
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { parseTemperature, temperatureValue, formatTemperature, pickerStudents } from '../../Sources/WebApp/Public/yoga/logic.js';
import { formatTime, formatDateTime } from '../../Sources/WebApp/Public/js/time.js';

test('a typed temperature becomes Celsius, whichever unit it was typed in', () => {
  assert.equal(parseTemperature('21', 'celsius'), 21);
  assert.equal(parseTemperature(' -3,5 ', 'celsius'), -3.5);
  assert.equal(parseTemperature('−2', 'celsius'), -2);
  assert.equal(parseTemperature('65', 'fahrenheit'), 18.33);
  assert.equal(parseTemperature('', 'celsius'), null);
  assert.ok(Number.isNaN(parseTemperature('warm', 'celsius')));
  assert.ok(Number.isNaN(parseTemperature('1e3', 'celsius')));
});

test('a stored temperature goes back into the form as it is shown', () => {
  assert.equal(temperatureValue(null, 'celsius'), '');
  assert.equal(temperatureValue(18.5, 'celsius'), '18.5');
  assert.equal(temperatureValue(21, 'fahrenheit'), '69.8');
  // 65 °F typed is shown as 65 °F again, not 64.9.
  assert.equal(formatTemperature(parseTemperature('65', 'fahrenheit'), 'fahrenheit'), '65 °F');
  assert.equal(temperatureValue(parseTemperature('65', 'fahrenheit'), 'fahrenheit'), '65');
  assert.equal(temperatureValue(-0.01, 'celsius'), '0');
});

test('the picker shows inactive students only when asked', () => {
  const students = [
    { id: 'a', name: 'Anna', active: true },
    { id: 'd', name: 'Dario', active: false },
  ];
  assert.deepEqual(
    pickerStudents(students, ['a']).map((s) => s.id),
    [],
  );
  assert.deepEqual(
    pickerStudents(students, ['a'], [], true).map((s) => s.id),
    ['d'],
  );
});

test('one time format: the locale short time, the same as Intl gives', () => {
  const at = '2026-11-25T03:27:00Z';
  assert.equal(formatTime(at), new Intl.DateTimeFormat(undefined, { timeStyle: 'short' }).format(new Date(at)));
  assert.equal(formatDateTime(at), new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(at)));
  assert.equal(formatTime(''), '');
  assert.equal(formatDateTime('not a date'), 'not a date');
});
