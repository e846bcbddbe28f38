// board.test.mjs: where the board's view goes (issue 35): at the start of
// the player's turn every square where the tile fits comes into view,
// clear of the tool buttons, and the view moves as little as it can.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { leavingFigures, viewShowing } from '../../../web/js/board.js';

// The squares' box on the page, in pixels, under view v.
const box = (v, squares) => {
  const xs = squares.map((q) => q[0]), ys = squares.map((q) => q[1]);
  return { left: Math.min(...xs) * 100 * v.s + v.tx, right: (Math.max(...xs) + 1) * 100 * v.s + v.tx,
    top: Math.min(...ys) * 100 * v.s + v.ty, bottom: (Math.max(...ys) + 1) * 100 * v.s + v.ty };
};

test('squares in sight: the view does not move', () => {
  const v = { s: 0.6, tx: 400, ty: 300 };
  assert.deepEqual(viewShowing(v, { w: 900, h: 700, top: 40 }, [[0, 0], [1, -1], [-2, 1]]), v);
});

test('squares off screen (the player panned away): the least pan brings them in, at the same zoom', () => {
  const v = { s: 0.6, tx: -2000, ty: 300 }, size = { w: 900, h: 700, top: 40 };
  const squares = [[0, 0], [1, -1], [-2, 1]];
  const n = viewShowing(v, size, squares);
  assert.equal(n.s, 0.6);
  const b = box(n, squares);
  assert.ok(b.left >= 6 && b.right <= 894 && b.top >= 40 && b.bottom <= 694, JSON.stringify(b));
  assert.equal(n.ty, 300, 'no vertical move where none was needed');
});

test('a phone: the squares come out from under the tool buttons (the board drifted under Fit and Centre)', () => {
  // 390 x 430 board, its top 43 px under the buttons, the squares' top row under them.
  const v = { s: 1.2, tx: 375, ty: -84.8 }, size = { w: 390, h: 430, top: 43 };
  const squares = [[-3, 1], [-2, 2], [-1, 1], [-2, 0]];
  const n = viewShowing(v, size, squares);
  const b = box(n, squares);
  assert.ok(b.top >= 43, `below the buttons (${b.top})`);
  assert.ok(b.left >= 0 && b.right <= 390 && b.bottom <= 430, JSON.stringify(b));
});

test('zoomed in too far for every square: zoom out until they fit, not below a tappable size', () => {
  const size = { w: 900, h: 700, top: 40 };
  const squares = [[-4, -3], [5, 3]];
  const n = viewShowing({ s: 3, tx: 0, ty: 0 }, size, squares);
  assert.ok(n.s < 3);
  const b = box(n, squares);
  assert.ok(b.left >= 5.9 && b.right <= 894.1 && b.top >= 39.9 && b.bottom <= 694.1, JSON.stringify(b));
  const far = viewShowing({ s: 1, tx: 0, ty: 0 }, { w: 390, h: 430, top: 43 }, [[-20, 0], [20, 0]]);
  assert.equal(far.s, 0.36, 'a square stays 36 px wide');
});

// Figures leaving the board (the leaving animation): a scored figure
// goes home with its tile still down; a figure whose tile went too was
// taken back with its move and just disappears.
test('a scored figure leaves with the animation; a taken-back one does not', () => {
  const fig = (square, player) => ({ square, player, x: 0, y: 0, lying: false, figure: 'follower' });
  const before = new Map([['0,1,2,0,follower,0', fig('0,1', 0)], ['1,0,4,1,follower,0', fig('1,0', 1)], ['0,0,1,1,follower,0', fig('0,0', 1)]]);
  // Red's road on (0, 1) scored (its tile stays); blue's tile at (1, 0) was taken back.
  const now = new Map([['0,0,1,1,follower,0', fig('0,0', 1)]]);
  const tiles = new Set(['0,0', '0,1']);
  assert.deepEqual(leavingFigures(before, now, tiles), [fig('0,1', 0)]);
  assert.deepEqual(leavingFigures(null, now, tiles), [], 'the first drawing animates nothing');
  assert.deepEqual(leavingFigures(before, before, tiles), [], 'nothing gone');
});
