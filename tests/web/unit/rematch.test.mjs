// rematch.test.mjs: the final card's rematch (issue 36): who may ask, the
// request sent, the table's `rematch` events folded into what the box
// says and offers, with the countdown to the ask's lapse.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { canRematch, rematchRequest, foldRematch, rematchView, countdown, againstComputerOnly, rematchTitle } from '../../../web/js/rematch.js';
import { renderFinal } from '../../../web/js/end.js';
import { Table } from '../../../web/js/game.js';

globalThis.performance ??= { now: () => 0 };

const ann = { name: 'Ann', kind: 'human' }, bob = { name: 'Bob', kind: 'human' }, cpu = { name: 'mcts:level=easy', kind: 'computer' };
const over = (seats, you = 0, extra = {}) => ({ table: 't1', status: 'finished', you, players: seats.length, seats, ...extra });
const NOW = 1_800_000_000_000;

test('who may ask a rematch: a person seated at a finished table', () => {
  assert.equal(canRematch(over([ann, bob])), true);
  assert.equal(canRematch(over([ann, bob], null)), false, 'a spectator');
  assert.equal(canRematch(over([ann, bob], 0, { status: 'playing' })), false, 'before the end');
  // A player who resigned at a table of three still is a person.
  assert.equal(canRematch(over([{ name: 'Ann', kind: 'computer', resigned: true }, bob, cpu])), true);
  assert.equal(againstComputerOnly(over([ann, cpu])), true);
  assert.equal(againstComputerOnly(over([ann, bob])), false);
  assert.equal(againstComputerOnly(over([ann, cpu, { name: 'Bob', kind: 'computer', resigned: true }])), false, 'a resigned player is asked too');
  assert.match(rematchTitle(over([ann, cpu])), /at once, the seats turned by one/);
  assert.match(rematchTitle(over([ann, bob])), /every player must accept within 2 minutes/);
});

test('the request: ask (or agree), or decline with accept:false', () => {
  assert.deepEqual(rematchRequest('t1'), { table: 't1' });
  assert.deepEqual(rematchRequest('t1', true), { table: 't1' });
  assert.deepEqual(rematchRequest('t1', false), { table: 't1', accept: false });
});

test('an ask: who wants it, Accept and Decline, the time left; ours waits for the others', () => {
  const ev = { type: 'rematch', table: 't1', what: 'asked', seat: 1, agreed: [1], until_ms: NOW + 105000 };
  const rm = foldRematch(ev);
  assert.deepEqual(rm, { what: 'asked', seat: 1, agreed: [1], until_ms: NOW + 105000 });
  assert.deepEqual(rematchView(over([ann, bob]), rm, NOW), { text: 'Bob wants a rematch (1:45 left to answer).', buttons: ['accept', 'decline'] });
  // Ann's own view of her ask.
  const mine = foldRematch({ ...ev, seat: 0, agreed: [0] });
  assert.deepEqual(rematchView(over([ann, bob]), mine, NOW + 100), { text: 'You want a rematch: waiting for Bob (1:45 left to answer).', buttons: [] });
  // Three people: two agreed, the third answers.
  const three = over([ann, bob, { name: 'Cy', kind: 'human' }], 2);
  assert.equal(rematchView(three, foldRematch({ ...ev, agreed: [0, 1] }), NOW).text, 'Ann and Bob want a rematch (1:45 left to answer).');
  // A spectator is told, with no buttons.
  assert.deepEqual(rematchView(over([ann, bob], null), rm, NOW).buttons, []);
  // Lapsed: a new ask may be made.
  assert.deepEqual(rematchView(over([ann, bob]), rm, NOW + 105000), { text: 'The rematch ask lapsed: nobody answered in time.', buttons: ['ask'] });
  assert.equal(countdown(59001), '1:00');
  assert.equal(countdown(-5), '0:00');
});

test('declined, and ready: the new table, with the seat and token for a person only', () => {
  const no = foldRematch({ type: 'rematch', table: 't1', what: 'declined', seat: 1, agreed: [], until_ms: NOW });
  assert.deepEqual(rematchView(over([ann, bob]), no, NOW), { text: 'Bob declined the rematch.', buttons: ['ask'] });
  assert.equal(rematchView(over([ann, bob], 1), no, NOW).text, 'You declined the rematch.');
  const ready = foldRematch({ type: 'rematch', table: 't1', what: 'ready', new_table: 't2', seat: 1, token: 'ab12' });
  assert.deepEqual(ready, { what: 'ready', new_table: 't2', seat: 1, token: 'ab12' });
  assert.match(rematchView(over([ann, bob]), ready, NOW).text, /going to the new table/);
  const watching = foldRematch({ type: 'rematch', table: 't1', what: 'ready', new_table: 't2' });
  assert.deepEqual(watching, { what: 'ready', new_table: 't2' });
  assert.deepEqual(rematchView(over([ann, bob], null), watching, NOW), { text: 'The rematch has begun at a new table.', buttons: [], table: 't2' });
  assert.deepEqual(rematchView(over([ann, bob]), null, NOW), { text: '', buttons: ['ask'] });
});

test('the final card: its rematch box, and New game saying what it does', () => {
  const seats = [{ ...ann, score: 3, supply: 7 }, { ...bob, score: 9, supply: 7 }];
  const st = { type: 'state', ...over(seats), rules: [], expansions: [], info: 'casual', turn: 4, to_move: null, tiles_left: 60, start: { tile: 'D', x: 0, y: 0, rot: 0 }, moves: [],
    final: { scores: [3, 9], winners: [1], forfeit: 0, forfeit_reason: 'resigned', by_kind: [{ roads: 0, cities: 0, cloisters: 0, farms: 0 }, { roads: 0, cities: 0, cloisters: 0, farms: 0 }], seed: '1', salt: 'a', commitment: 'b' } };
  const el = { innerHTML: '', querySelector: () => null };
  renderFinal(el, new Table(st));
  assert.match(el.innerHTML, /<p class="rematch" hidden><\/p>/);
  assert.match(el.innerHTML, /data-act="new-game" class="primary" title="New game: a new table at once with the same opponents and rules, you in the same seat/);
});
