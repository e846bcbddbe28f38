// game.test.mjs: a table folded from the server's events, with no rules:
// tiles, last tiles, scores after each turn and the log.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Table, parseMove } from '../../../web/js/game.js';

globalThis.performance ??= { now: () => 0 };

const state = () => ({
  type: 'state', table: 't1', status: 'playing', you: 0, players: 2,
  seats: [{ name: 'Ann', kind: 'human', present: true, score: 0, supply: 7 },
    { name: null, kind: 'computer', present: true, score: 0, supply: 7 }],
  turn: 1, to_move: 1, tile: 'U', tiles_left: 69, remaining: { U: 7, V: 9 },
  start: { tile: 'D', x: 0, y: 0, rot: 0 }, followers: [{ x: 0, y: -1, spot: 'S', player: 0 }],
  moves: [{ turn: 0, player: 0, move: 'E 0 -1 2 S', by: 'player', events: [] }],
});

test('a move of the record notation', () => {
  assert.deepEqual(parseMove('E 0 -1 2 S'), { letter: 'E', x: 0, y: -1, rot: 2, spot: 'S', figure: 'follower' });
  assert.deepEqual(parseMove('V 3 4 1'), { letter: 'V', x: 3, y: 4, rot: 1, spot: null, figure: null });
  assert.deepEqual(parseMove('IH 0 -1 0 F large'), { letter: 'IH', x: 0, y: -1, rot: 0, spot: 'F', figure: 'large' });
  assert.deepEqual(parseMove('discard X'), { discard: true, letter: 'X' });
  assert.deepEqual(parseMove('end'), { end: true });
});

test('a state: the start tile, the moves, the followers', () => {
  const t = new Table(state());
  assert.equal(t.tiles.length, 2);
  assert.deepEqual(t.last[0], { x: 0, y: -1, turn: 1, player: 0 });
  assert.ok(!t.myTurn);
  assert.deepEqual(t.followersOnTiles().map((f) => [f.letter, f.rot, f.spot, f.player]), [['E', 2, 'S', 0]]);
});

test('a move event: scores, supply, the next tile, the pile, the log', () => {
  const t = new Table(state());
  t.applyMove({
    type: 'move', turn: 1, player: 1, move: 'U 1 -1 1', by: 'computer',
    events: [{ kind: 'city', complete: true, winners: [0], points: 4, tiles: 2, pennants: 0, x: 0, y: -1, returned: [1, 0] }],
    scores: [4, 0], supply: [7, 7], next: { turn: 2, player: 0, tile: 'V' }, tiles_left: 68, followers: [],
  });
  assert.deepEqual(t.history, [[0, 0], [0, 0], [4, 0]]);
  assert.equal(t.state.seats[0].score, 4);
  assert.equal(t.state.remaining.V, 8);
  assert.equal(t.followers.length, 0);
  assert.equal(t.log.length, 1);
  assert.ok(t.myTurn);
  assert.equal(t.tiles.length, 3);
});
