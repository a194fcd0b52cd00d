// Unit tests for the story map's tree (stories/map-logic.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { mapTree, shownIds } from '../../Sources/WebApp/Public/stories/map-logic.js';

// 1 → 2 | 3; 2 → 4; 3 → 4 | 5 | 1; 4 and 5 are endings; 9 is reached by nothing.
const story = {
  start_chapter_id: '1',
  chapters: [
    { id: '1', name: 'Start', choices: [{ chapter_id: '2' }, { chapter_id: '3' }] },
    { id: '2', name: 'Left', choices: [{ chapter_id: '4' }] },
    { id: '3', name: '', choices: [{ chapter_id: '4' }, { chapter_id: '5' }, { chapter_id: '1' }] },
    { id: '4', name: 'Home', is_ending: true, choices: [] },
    { id: '5', name: 'Lost', is_ending: true, choices: [] },
    { id: '9', name: 'Forgotten', choices: [] },
  ],
};

const names = (node) => [node.name, ...node.children.flatMap(names)];

test('show all: every chapter once, under the first that reaches it; other choices are references', () => {
  const tree = mapTree(story, { showAll: true, here: '3' });
  assert.deepEqual(names(tree.root), ['Start', 'Left', 'Home', 'Chapter 3', 'Lost']);
  const three = tree.root.children[1];
  assert.deepEqual(
    three.refs.map((r) => r.name),
    ['Home', 'Start'],
    'choices to chapters shown elsewhere',
  );
  assert.equal(three.here, true);
  assert.equal(tree.root.kind, 'start');
  assert.equal(three.children[0].kind, 'ending');
  assert.deepEqual(
    tree.unreachable.map((n) => n.name),
    ['Forgotten'],
  );
  assert.equal(tree.shown, 6);
  assert.equal(tree.total, 6);
});

test('a reader sees only the chapters visited; choices elsewhere are only counted', () => {
  const tree = mapTree(story, { visited: ['1', '3', '5'], here: '5' });
  assert.deepEqual(names(tree.root), ['Start', 'Chapter 3', 'Lost']);
  assert.equal(tree.root.unexplored, 1, 'Left is not named');
  assert.equal(tree.root.children[0].unexplored, 1, 'Home is not named');
  assert.deepEqual(
    tree.root.children[0].refs.map((r) => r.name),
    ['Start'],
  );
  assert.deepEqual(tree.unreachable, [], 'nothing unreachable is revealed');
  assert.equal(tree.shown, 3);
  assert.equal(JSON.stringify(tree).includes('Home'), false, 'no unvisited title in the tree at all');
});

test('a new reader sees the first chapter; an ending found on a walk this device did not see is listed apart', () => {
  assert.deepEqual(names(mapTree(story, {}).root), ['Start']);
  const tree = mapTree(story, { visited: ['1', '4'] });
  assert.deepEqual(names(tree.root), ['Start']);
  assert.deepEqual(
    tree.others.map((n) => n.name),
    ['Home'],
  );
});

test("the drawing shows the visited chapters, the reader's and the start", () => {
  assert.deepEqual([...shownIds(story, { visited: ['3'], here: '5' })].sort(), ['1', '3', '5']);
  assert.equal(shownIds(story, { showAll: true }).size, 6);
});

test('a story without its first chapter draws nothing', () => {
  assert.equal(mapTree({ start_chapter_id: 'x', chapters: [] }).root, null);
});
