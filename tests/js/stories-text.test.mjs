// Unit tests for Choose Your Destiny's chapter text: paragraphs and the tiny Markdown subset.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { paragraphs, inline, chapterTree } from '../../Sources/WebApp/Public/stories/text.js';

test('paragraphs are separated by blank lines; extra blank lines and spaces vanish', () => {
  assert.deepEqual(paragraphs('One.\n\nTwo.\n\n\n\n  Three.  \n'), ['One.', 'Two.', 'Three.']);
  assert.deepEqual(paragraphs('Windows\r\n\r\nlines'), ['Windows', 'lines']);
  assert.deepEqual(paragraphs('A blank line\n   \nwith spaces'), ['A blank line', 'with spaces']);
  assert.deepEqual(paragraphs(''), []);
  assert.deepEqual(paragraphs(null), []);
});

test('a single line break stays inside its paragraph as a line break', () => {
  assert.deepEqual(inline('Roses are red,\nviolets are blue'), ['Roses are red,', { tag: 'br' }, 'violets are blue']);
});

test('*emphasis* and **strong** become elements, with the words as text', () => {
  assert.deepEqual(inline('It is *glowing* now'), ['It is ', { tag: 'em', children: ['glowing'] }, ' now']);
  assert.deepEqual(inline('the lamp is **dark**.'), ['the lamp is ', { tag: 'strong', children: ['dark'] }, '.']);
  assert.deepEqual(inline('**If the oil fails,** wake the bell'), [{ tag: 'strong', children: ['If the oil fails,'] }, ' wake the bell']);
});

test('emphasis nests inside strong and strong inside emphasis', () => {
  assert.deepEqual(inline('**a *b* c**'), [{ tag: 'strong', children: ['a ', { tag: 'em', children: ['b'] }, ' c'] }]);
  assert.deepEqual(inline('*a **b** c*'), [{ tag: 'em', children: ['a ', { tag: 'strong', children: ['b'] }, ' c'] }]);
});

test('stray or spaced asterisks stay as they are written', () => {
  assert.deepEqual(inline('2 * 3 * 4'), ['2 * 3 * 4']);
  assert.deepEqual(inline('a lone * here'), ['a lone * here']);
  assert.deepEqual(inline('**'), ['**']);
  assert.deepEqual(inline('****'), ['****']);
  assert.deepEqual(inline('*unclosed emphasis'), ['*unclosed emphasis']);
  assert.deepEqual(inline('** not strong **'), ['** not strong **']);
});

test('HTML in a chapter is only text: no element other than p, em, strong and br is ever made', () => {
  const tree = chapterTree('<img src=x onerror=alert(1)> and <b>bold</b>\n\n*<script>*');
  assert.deepEqual(tree, [
    { tag: 'p', children: ['<img src=x onerror=alert(1)> and <b>bold</b>'] },
    { tag: 'p', children: [{ tag: 'em', children: ['<script>'] }] },
  ]);
  const tags = new Set();
  const walk = (nodes) =>
    nodes.forEach((n) => {
      if (typeof n !== 'string') {
        tags.add(n.tag);
        walk(n.children || []);
      }
    });
  walk(chapterTree('**a** *b*\nc\n\nd'));
  assert.deepEqual([...tags].sort(), ['br', 'em', 'p', 'strong']);
});

test('the chapter tree takes the API’s paragraphs as they are, or splits the text', () => {
  assert.deepEqual(chapterTree(['First *one*', 'Second']), [
    { tag: 'p', children: ['First ', { tag: 'em', children: ['one'] }] },
    { tag: 'p', children: ['Second'] },
  ]);
  assert.deepEqual(chapterTree('First\n\nSecond'), [
    { tag: 'p', children: ['First'] },
    { tag: 'p', children: ['Second'] },
  ]);
});
