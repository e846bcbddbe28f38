// words.test.mjs: what the page says (issue 27): plurals and articles in
// the log, the tiles panel and the inspector; moves in words, not record
// notation; the final scoring marked as the end; the players' colours in
// the command line's order; the replay viewer's deal check.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { plural, article, moveWords } from '../../../web/js/words.js';
import { eventText, renderTilesLeft, renderLog, scoringReason } from '../../../web/js/panel.js';
import { featureWords } from '../../../web/js/inspector.js';
import { Table, isFinalScoring, isLogged } from '../../../web/js/game.js';
import { PLAYERS } from '../../../web/js/players.js';
import { dealNotice } from '../../../web/js/replay.js';
import { winnerText } from '../../../web/js/end.js';

globalThis.performance ??= { now: () => 0 };

const seats = [{ name: 'Ann', kind: 'human' }, { name: 'Bob', kind: 'human' }];
const ev = (fields) => ({ kind: 'city', complete: true, winners: [0], points: 4, tiles: 2, pennants: 0, x: 0, y: -1, ...fields });

test('plurals and articles', () => {
  assert.equal(plural(1, 'tile'), '1 tile');
  assert.equal(plural(0, 'tile'), '0 tiles');
  assert.equal(plural(1, 'city'), '1 city');
  assert.equal(plural(3, 'city'), '3 cities');
  assert.equal(plural(2, 'pennant'), '2 pennants');
  assert.equal(article('unfinished city'), 'an unfinished city');
  assert.equal(article('completed road'), 'a completed road');
});

test('the scoring log speaks in plurals and articles', () => {
  assert.equal(eventText(ev({ pennants: 1 }), seats), 'Ann +4 for a completed city (2 tiles, 1 pennant)');
  assert.equal(eventText(ev({ complete: false, points: 1, tiles: 1 }), seats), 'Ann +1 for an unfinished city (1 tile)');
  assert.equal(eventText(ev({ kind: 'farm', complete: false, points: 3, tiles: 1 }), seats), 'Ann +3 for a farm (1 city)');
  assert.equal(eventText(ev({ kind: 'farm', complete: false, points: 6, tiles: 2, winners: [0, 1] }), seats), 'Ann and Bob +6 for a farm (2 cities)');
});

test('the tiles panel: one tile, none', () => {
  const el = { innerHTML: '' };
  renderTilesLeft(el, { state: { tiles_left: 1, remaining: null }, moves: [] }, null);
  assert.equal(el.innerHTML, '<p>1 tile left (this table hides which).</p>');
  renderTilesLeft(el, { state: { tiles_left: 0, remaining: null }, moves: [] }, null);
  assert.equal(el.innerHTML, '<p>No tile left.</p>');
  renderTilesLeft(el, { state: { tiles_left: 0, remaining: {}, status: 'playing', dead: [[1, 1]] }, moves: [] }, null);
  assert.equal(el.innerHTML, '<p>This is the last tile.</p><p>1 dead spot (crossed out on the board): no tile left fits there.</p>');
});

test('the inspector: one open edge, and what a feature is worth, coherently', () => {
  const road = featureWords({ kind: 'road', complete: false, open_edges: 1, tiles: 1, pennants: 0, value: 2, value_at_end: 2 });
  assert.equal(road.state, 'open (1 open edge)');
  assert.equal(road.size, '1 tile');
  assert.equal(road.worth, 'Worth <strong>2</strong> if completed as it stands, <strong>2</strong> if the game ended now.');
  const cloister = featureWords({ kind: 'cloister', complete: false, open_edges: 1, tiles: 8, pennants: 0, value: 9, value_at_end: 8 });
  assert.equal(cloister.state, 'open (1 empty neighbour)');
  const city = featureWords({ kind: 'city', complete: true, open_edges: 0, tiles: 3, pennants: 1, value: 8, value_at_end: 8 });
  assert.equal(city.size, '3 tiles, 1 pennant');
  assert.equal(city.worth, 'Scored <strong>8</strong> when it was completed.');
  const farm = featureWords({ kind: 'farm', complete: false, open_edges: 0, tiles: 5, pennants: 0, value: 0, value_at_end: 3 });
  assert.match(farm.worth, /^Worth <strong>3<\/strong> if the game ended now/);
});

test('a move in words, not in record notation', () => {
  const kindOf = () => 'city';
  assert.equal(moveWords('P 0 -1 3 SSE', kindOf), 'tile P at 0, -1, turned a quarter left, a knight in the city');
  assert.equal(moveWords('V 2 0 0'), 'tile V at 2, 0, upright, no follower');
  assert.equal(moveWords('E 1 1 2 C', () => 'cloister'), 'tile E at 1, 1, upside down, a monk in the cloister');
  assert.match(moveWords('discard X'), /^tile X, discarded/);
});

// The final scoring comes with the last tile's move event, unmarked by
// the server: the library's `complete` (0: final scoring) marks it.
test('the final scoring is marked as the end, and 0-point lines are left out', () => {
  assert.ok(isFinalScoring(ev({ complete: false })));
  assert.ok(!isFinalScoring(ev({})));
  const t = new Table({
    type: 'state', table: 't', status: 'playing', you: 0, players: 2, seats: seats.map((s) => ({ ...s, score: 0, supply: 7 })),
    turn: 70, to_move: 0, tile: 'U', tiles_left: 1, start: { tile: 'D', x: 0, y: 0, rot: 0 }, moves: [],
  });
  t.applyMove({
    type: 'move', turn: 70, player: 0, move: 'U 1 0 1', events: [ev({}), ev({ complete: false, points: 2 }),
      ev({ kind: 'farm', complete: false, points: 0, tiles: 0 })],
    scores: [6, 0], supply: [7, 7], next: null, tiles_left: 0, followers: [],
  });
  assert.deepEqual(t.log.map((e) => [e.complete, e.end]), [[true, false], [false, true]]);
});

// The command line and the terminal name player 1 Red, player 2 Blue, ...
test('the page\'s colours are the command line\'s, in its order', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'carc-palette-'));
  try {
    const rec = path.join(dir, 'eight.rec');
    execFileSync(process.env.CARCASSONNE, ['selfplay', '--seed', '3', '--players', '8', '--record', rec]);
    const out = execFileSync(process.env.CARCASSONNE, ['replay', rec], { encoding: 'utf8' });
    const names = [...out.matchAll(/^player \d+ \((\w+)\)/gm)].map((m) => m[1]);
    assert.equal(names.length, 8, out);
    assert.deepEqual(PLAYERS.map((p) => p.name), names);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  // Each colour looks like its name: red is mostly red, blue mostly blue...
  const rgb = (hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  const [red, blue, yellow, green, black, grey, purple, pink] = PLAYERS.map((p) => rgb(p.colour));
  assert.ok(red[0] > 150 && red[0] > 2 * red[2], 'Red');
  assert.ok(blue[2] > 150 && blue[2] > 2 * blue[0], 'Blue');
  assert.ok(yellow[0] > 200 && yellow[1] > 200 && yellow[2] < 120, 'Yellow');
  assert.ok(green[1] > 120 && green[1] > 1.5 * green[0], 'Green');
  assert.ok(Math.max(...black) < 60, 'Black');
  assert.ok(Math.min(...grey) > 110 && Math.max(...grey) - Math.min(...grey) < 20, 'Grey');
  assert.ok(purple[2] > purple[1] + 50 && purple[0] > purple[1] + 20 && Math.max(...purple) < 180, 'Purple');
  assert.ok(pink[0] > 180 && pink[2] > 120 && pink[1] < pink[0] - 50, 'Pink');
});

// The replay viewer shows the server's check of a record's deal.
test('the deal check: an altered record warns, a verified deal has a badge, an unchecked one a note', () => {
  const bad = dealNotice({ status: 'mismatch', text: 'the deal from seed 12345 gives F, not V, at move 2' });
  assert.match(bad, /class="deal-check mismatch" role="alert"/);
  assert.match(bad, /this record was altered/);
  assert.match(bad, /not V, at move 2/);
  const ok = dealNotice({ status: 'verified', text: 'deal verified (seed, salt, commitment)' });
  assert.match(ok, /class="deal-check verified"/);
  assert.doesNotMatch(ok, /altered/);
  const none = dealNotice({ status: 'unchecked', text: 'no commitment: the deal was not checked' });
  assert.match(none, /class="deal-check unchecked"/);
  assert.match(none, /no commitment/);
  assert.match(dealNotice(undefined), /not checked/);
  assert.match(dealNotice({ status: 'mismatch', text: '<b>' }), /&#60;b&#62;/, 'the server\'s text is escaped');
});

test('the winner banner says who won', () => {
  const table = (winners, scores, you = 0) => ({ state: { you, seats, final: { winners, scores } } });
  assert.equal(winnerText(table([0], [85, 70])), 'You win with 85 points');
  assert.equal(winnerText(table([1], [0, 1], 0)), 'Bob wins with 1 point');
  assert.equal(winnerText(table([0, 1], [80, 80], null)), 'A tie: Ann and Bob, 80 points each');
});

// Issue 35: "Turn 90: Ann +4 for a completed road (2 tiles)" never said
// why a road scored double or a city triple, and a cathedral's city left
// unfinished vanished from the log (+0 lines were left out).
test('the log names why a road or a city scored what it did: an inn, a cathedral, the small-city rule', () => {
  const road = (f) => ev({ kind: 'road', pennants: 0, ...f });
  assert.equal(eventText(road({ tiles: 4, points: 8 }), seats), 'Ann +8 for a completed road of 4 tiles with an inn (2 points a tile)');
  assert.equal(eventText(road({ tiles: 4, points: 4 }), seats), 'Ann +4 for a completed road (4 tiles)');
  assert.equal(eventText(road({ tiles: 3, points: 0, complete: false }), seats),
    'Ann +0: a road with an inn left unfinished (3 tiles; an inn\'s road scores only when complete)');
  assert.equal(eventText(ev({ tiles: 4, pennants: 1, points: 15 }), seats),
    'Ann +15 for a completed city of 4 tiles and 1 pennant with a cathedral (3 points a tile and pennant)');
  assert.equal(eventText(ev({ tiles: 4, pennants: 1, points: 10 }), seats), 'Ann +10 for a completed city (4 tiles, 1 pennant)');
  assert.equal(eventText(ev({ tiles: 5, points: 0, complete: false }), seats),
    'Ann +0: a city with a cathedral left unfinished (5 tiles; a cathedral\'s city scores only when complete)');
  assert.equal(eventText(ev({ tiles: 2, points: 2 }), seats), 'Ann +2 for a completed city (2 tiles: a small city, 1 point a tile and pennant)');
  // The server's `marks`, when an event has them, decide.
  assert.equal(scoringReason(road({ tiles: 2, points: 4, marks: [] })), '');
  assert.equal(scoringReason(ev({ tiles: 2, points: 6, marks: ['cathedral'] })), 'cathedral');
  // Logged: the unfinished inn or cathedral (+0 to its holders), not a
  // farm of no city, not a feature no one held (no-incomplete-scoring).
  assert.ok(isLogged(ev({ tiles: 5, points: 0, complete: false })));
  assert.ok(!isLogged(ev({ kind: 'farm', tiles: 0, points: 0, complete: false })));
  assert.ok(!isLogged(ev({ tiles: 5, points: 0, complete: false, winners: [] })));
  // The final scoring's lines say it too.
  const t = new Table({ type: 'state', table: 't', status: 'playing', you: 0, players: 2, seats: seats.map((s) => ({ ...s, score: 0, supply: 7 })),
    turn: 70, to_move: 0, tile: 'U', tiles_left: 1, start: { tile: 'D', x: 0, y: 0, rot: 0 }, moves: [] });
  t.applyMove({ type: 'move', turn: 70, player: 0, move: 'U 1 0 1', events: [road({ tiles: 3, points: 0, complete: false, winners: [1] })],
    scores: [0, 0], supply: [7, 7], next: null, tiles_left: 0, followers: [] });
  const el = { innerHTML: '' };
  renderLog(el, t);
  assert.match(el.innerHTML, /End: Bob \+0: a road with an inn left unfinished/);
});

// Issue 35: a finished game's record with a commitment and no seed is
// "missing" (the server's `deal`): red like an altered one, in words.
test('the deal check: a finished game whose seed is missing warns in red', () => {
  const missing = dealNotice({ status: 'missing', text: 'deal unchecked: the seed is missing' });
  assert.match(missing, /class="deal-check mismatch missing" role="alert"/);
  assert.match(missing, /Warning: deal unchecked, the seed is missing/);
  assert.match(missing, /nobody can check that its tiles were dealt fairly/);
  assert.doesNotMatch(missing, /verified|altered/);
});
