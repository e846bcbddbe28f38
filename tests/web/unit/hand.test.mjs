// hand.test.mjs: a hand game (hand=N) folded from the server's events:
// our hand and the others' sizes from `state` and `move`, the tiles left
// as this seat counts them, and the log's lines for a discard, a tile
// back into the pile, and our own draws (never another seat's tiles).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Table, handSize, handLines, handSlots } from '../../../web/js/game.js';
import { handHtml } from '../../../web/js/panel.js';

globalThis.performance ??= { now: () => 0 };

const seats = [{ name: 'Ann', kind: 'human', present: true, score: 0, supply: 7 },
  { name: 'Bob', kind: 'human', present: true, score: 0, supply: 7 }];

const state = (rules = ['hand=3']) => ({
  type: 'state', table: 't1', status: 'playing', you: 0, players: 2, rules, seats,
  turn: 1, to_move: 1, tile: null, tiles_left: 64, remaining: { U: 7, V: 9 },
  start: { tile: 'D', x: 0, y: 0, rot: 0 }, followers: [],
  hand: ['E', 'K', 'B'], hands: [{ count: 3, tiles: ['E', 'K', 'B'] }, { count: 3, tiles: null }],
  setup_draws: [{ player: 0, tile: 'E' }, { player: 0, tile: 'K' }, { player: 0, tile: 'U' },
    { player: 1, tile: null }, { player: 1, tile: null }, { player: 1, tile: null }],
  moves: [{ turn: 0, player: 0, move: 'U 1 0 1 W', by: 'player', events: [], draws: [{ player: 0, tile: 'B' }] }],
});

test('the hand size of the rules', () => {
  assert.equal(handSize({ rules: ['hand=3'] }), 3);
  assert.equal(handSize({ rules: ['small-city', 'hand=1', 'open-hands'] }), 1);
  assert.equal(handSize({ rules: [] }), 0);
  assert.equal(handSize({}), 0);
});

test('a state: our draws in the log, no line for the others', () => {
  const t = new Table(state());
  assert.equal(t.hand, 3);
  assert.deepEqual(t.log.map((e) => e.text), ['You drew B']);
  assert.ok(t.log.every((e) => e.hand && e.winners.length === 0));
});

test('a move event: the hands, the tiles left, a discard back into the pile', () => {
  const t = new Table(state(['hand=3', 'reshuffle']));
  t.applyMove({
    type: 'move', turn: 1, player: 1, move: 'discard X', by: 'player', events: [], returned: 'X',
    scores: [0, 0], supply: [7, 7], next: { turn: 2, player: 1, tile: null }, tiles_left: 63, followers: [],
    hand: ['E', 'K', 'B'], hands: [{ count: 3, tiles: ['E', 'K', 'B'] }, { count: 3, tiles: null }],
    draws: [{ player: 1, tile: null }], remaining: { U: 7, V: 8, X: 1 },
  });
  assert.deepEqual(t.state.remaining, { U: 7, V: 8, X: 1 }, 'the server counts the tiles left for this seat');
  assert.equal(t.state.tile, null, 'the other seat holds its tiles hidden');
  assert.deepEqual(t.log.map((e) => e.text), ['You drew B', 'Bob discarded X: X went back into the pile']);
});

test('the log says a discard set aside (without reshuffle, or once its returns are spent), and our own draws only', () => {
  const lines = handLines({ turn: 4, player: 0, move: 'discard W', draws: [{ player: 0, tile: 'L' }, { player: 1, tile: null }] }, seats, 0);
  assert.deepEqual(lines, ['You discarded W (it fits nowhere)', 'You drew L']);
  assert.deepEqual(handLines({ turn: 5, player: 1, move: 'V 0 1 0', draws: [{ player: 1, tile: null }] }, seats, 0), []);
  // With reshuffle, only the server's `returned` says the tile went back.
  assert.deepEqual(handLines({ turn: 6, player: 1, move: 'discard V', draws: [] }, seats, 0), ['Bob discarded V (it fits nowhere)']);
  assert.deepEqual(handLines({ turn: 6, player: 1, move: 'discard V', returned: 'V', draws: [] }, seats, 0), ['Bob discarded V: V went back into the pile']);
});

test('a seat\'s hand on the score track: face down, or face up where shown', () => {
  const hidden = handHtml({ count: 2, tiles: null }, false);
  assert.equal((hidden.match(/hand-back/g) || []).length, 2);
  assert.ok(!/tile-/.test(hidden));
  const open = handHtml({ count: 2, tiles: ['A', 'RD'] }, true);
  assert.ok(/#tile-A"/.test(open) && /#tile-RD"/.test(open));
  assert.equal(handHtml(undefined, false), '');
});

test('two tiles of a kind in the hand: one choice, one of them framed', () => {
  const legal = [{ tile: 'U', placements: [] }, { tile: 'W', placements: [] }];
  const framed = (slots) => slots.map((s, i) => (s.chosen ? i : -1)).filter((i) => i >= 0);
  assert.deepEqual(handSlots(['U', 'W', 'U'], legal, 0).map((s) => s.index), [0, 1, 0]);
  assert.deepEqual(framed(handSlots(['U', 'W', 'U'], legal, 0)), [0]);
  assert.deepEqual(framed(handSlots(['U', 'W', 'U'], legal, 0, 2)), [2], 'the U clicked');
  assert.deepEqual(framed(handSlots(['U', 'W', 'U'], legal, 1, 2)), [1], 'W chosen (T) after a click on a U');
  assert.deepEqual(framed(handSlots(['U', 'W', 'U'], null, 0)), [], 'not our turn: none');
});
