// lobby.test.mjs: what the lobby and the end of a game say and send
// (issue 35): computer seats in words, not player specs; the tiles panel
// folded by tile set; the final card's "New game" request.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lobbySeatWords, Lobby } from '../../../web/js/lobby.js';
import { computerWords, renderTilesLeft } from '../../../web/js/panel.js';
import { newGameRequest, renderFinal, forfeitText } from '../../../web/js/end.js';
import { Table } from '../../../web/js/game.js';

globalThis.performance ??= { now: () => 0 };

test('the lobby names a computer seat by its level, not its spec', () => {
  assert.deepEqual([{ name: 'Hana', kind: 'human' }, { name: 'mcts:level=normal', kind: 'computer' }].map(lobbySeatWords), ['Hana', 'Computer (normal)']);
  assert.equal(lobbySeatWords({ name: 'greedy', kind: 'computer' }), 'Computer (greedy)');
  assert.equal(lobbySeatWords({ name: null, kind: 'open' }), '(open)');
  assert.equal(lobbySeatWords({ name: null, kind: 'invite' }), '(invited)');
  assert.equal(computerWords('mcts:threads=2,level=hard'), 'hard');
  assert.equal(computerWords('mcts:ms=1000'), 'mcts, 1000 ms a move');
});

test('a seat with a rating shows it, a provisional one with a question mark', () => {
  assert.equal(lobbySeatWords({ name: 'Ann', kind: 'human', rating: 1662, provisional: false }), 'Ann (1662)');
  assert.equal(lobbySeatWords({ name: 'Bob', kind: 'human', rating: 1500, provisional: true }), 'Bob (1500?)');
  assert.equal(lobbySeatWords({ name: 'greedy', kind: 'computer', rating: 1200, provisional: false }), 'Computer (greedy) (1200)');
  assert.equal(lobbySeatWords({ name: 'Gus', kind: 'human' }), 'Gus');
});

test('My games: Resume a game being played, View a finished one', () => {
  const el = { innerHTML: '' };
  const seats = [{ name: 'Ann', kind: 'human' }, { name: 'greedy', kind: 'computer' }];
  const tables = [{ table: 'tp', status: 'playing', seats, turn: 5, to_move: 1 }, { table: 'tf', status: 'finished', seats, turn: 71 }];
  Lobby.prototype.drawList.call({ open() {} }, el, tables, true);
  const acts = [...el.innerHTML.matchAll(/data-open="(\w+)">([^<]*)<\/a>/g)].map((m) => [m[1], m[2]]);
  assert.deepEqual(acts, [['tp', 'Resume'], ['tf', 'View']]);
});

// A catalogue stand-in: kinds with their sets.
const cat = {
  letters: ['A', 'B', 'IA', 'IB', 'TA'],
  kinds: { A: { set: 'base' }, B: { set: 'base' }, IA: { set: 'inns-cathedrals' }, IB: { set: 'inns-cathedrals' }, TA: { set: 'traders-builders' } },
  isRiver: () => false,
};

test('the tiles left are folded by tile set when there are several (about 65 kinds with every expansion)', () => {
  const el = { innerHTML: '' };
  const table = (remaining) => ({ state: { status: 'playing', tiles_left: 10, remaining }, moves: [] });
  renderTilesLeft(el, table({ A: 2, B: 3, IA: 1, IB: 2, TA: 2 }), cat);
  const groups = [...el.innerHTML.matchAll(/<details class="pile-set" data-set="([\w-]+)"( open)?><summary>([^<]*)<\/summary>/g)];
  assert.deepEqual(groups.map((g) => [g[1], !!g[2], g[3]]), [
    ['base', false, 'The base game: 5 tiles of 2 kinds, 50% next'],
    ['inns-cathedrals', false, 'Inns &#38; Cathedrals: 3 tiles of 2 kinds, 30% next'],
    ['traders-builders', false, 'Traders &#38; Builders: 2 tiles of 1 kind, 20% next'],
  ]);
  assert.equal((el.innerHTML.match(/data-kind=/g) || []).length, 5, 'each kind inside its set');
  renderTilesLeft(el, table({ A: 2, B: 3 }), cat);
  assert.doesNotMatch(el.innerHTML, /pile-set/, 'one set: the kinds as before');
});

const seats = [{ name: 'Ann', kind: 'human', score: 60, supply: 3 }, { name: 'mcts:level=hard', kind: 'computer', score: 70, supply: 2 }];
const finished = { type: 'state', table: 't1', status: 'finished', you: 0, players: 2, seats, rules: ['small-city'], expansions: ['river', 'inns-cathedrals'],
  info: 'purist', estimates: false, turn: 80, to_move: null, tiles_left: 0, start: { tile: 'D', x: 0, y: 0, rot: 0 }, moves: [],
  final: { scores: [60, 70], winners: [1], by_kind: [{ roads: 1, cities: 2, cloisters: 3, farms: 4 }, { roads: 1, cities: 2, cloisters: 3, farms: 4 }], seed: '1', salt: 'a', commitment: 'b' } };

test('the final card: "New game" asks for a table like this one, with the same opponents and options', () => {
  assert.deepEqual(newGameRequest(finished, 'Ann'), { seats: ['me', 'mcts:level=hard'], name: 'Ann', listed: false, rules: ['small-city'], info: 'purist',
    expansions: ['river', 'inns-cathedrals'], estimates: false });
  assert.deepEqual(newGameRequest({ ...finished, you: 1, seats: [{ name: 'Bob', kind: 'human' }, { name: 'Ann', kind: 'human' }] }, 'Ann').seats, ['open', 'me'],
    'another player\'s seat is open for them');
  assert.equal(newGameRequest({ ...finished, you: null }, 'Eve'), null, 'a spectator has no new game');
  const el = { innerHTML: '', querySelector: () => null };
  renderFinal(el, new Table(finished));
  assert.match(el.innerHTML, /<button type="button" data-act="new-game" class="primary"[^>]*>New game<\/button>/);
  renderFinal(el, new Table({ ...finished, you: null }));
  assert.doesNotMatch(el.innerHTML, /new-game/);
});

test('New game keeps the clock; a forfeit says why', () => {
  const base = { you: 0, seats: [{ name: 'Ann', kind: 'human' }, { name: 'greedy', kind: 'computer' }], rules: [], info: 'casual' };
  const fischer = { mode: 'fischer', seconds: 300, increment: 5, on_timeout: 'computer', left_ms: [1, 2], running: null };
  assert.deepEqual(newGameRequest({ ...base, clock: fischer }, 'Ann').clock, { mode: 'fischer', seconds: 300, increment: 5, on_timeout: 'computer' });
  assert.deepEqual(newGameRequest({ ...base, clock: { mode: 'move', seconds: 30, increment: 0, on_timeout: 'forfeit' } }, 'Ann').clock,
    { mode: 'move', seconds: 30, on_timeout: 'forfeit' });
  assert.equal(newGameRequest({ ...base, clock: null }, 'Ann').clock, undefined);
  assert.equal(forfeitText({ ...base, final: { forfeit: null } }), '');
  assert.match(forfeitText({ ...base, final: { forfeit: 0, forfeit_reason: 'time' } }), /^Ann forfeited on time\.$/);
  assert.match(forfeitText({ ...base, final: { forfeit: 0, forfeit_reason: 'abandoned' } }), /^Ann left the game: .*forfeited\.$/);
});
