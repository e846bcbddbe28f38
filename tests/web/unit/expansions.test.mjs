// expansions.test.mjs: what the browser draws and says for Inns &
// Cathedrals (from the server's real catalogue) and, from fake data in
// the names proposed for its server side, Traders & Builders: marks on
// the tiles, the figures, the figure step, the panel, the words. Every
// field is optional: without it nothing changes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../lib.mjs';
import { Catalogue, insidePolygon, nearLine } from '../../../web/js/tiles.js';
import { meepleSvg, meepleIcon } from '../../../web/js/players.js';
import { renderPlayers, eventText } from '../../../web/js/panel.js';
import { Table, parseMove } from '../../../web/js/game.js';
import { Turn, defaultFigure, moveText, spotsFor } from '../../../web/js/turn.js';
import { marksWords, featureWords } from '../../../web/js/inspector.js';
import { moveWords } from '../../../web/js/words.js';

globalThis.performance ??= { now: () => 0 };

let server, json, cat;
before(async () => {
  server = await startServer({ bin: process.env.CARCASSONNE, webDir: process.env.WEB_DIR });
  json = await (await fetch(`${server.url}/api/tiles`)).json();
  cat = new Catalogue(json);
});
after(() => server.stop());

const dist = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1]);
const iconsOf = (k, mark) => k.icons.filter((i) => i.mark === mark);

test('an inn stands beside its road: off every road, in no city, apart from the road\'s follower', () => {
  const withInn = cat.letters.filter((l) => cat.kinds[l].segments.some((s) => s.marks?.includes('inn')));
  assert.deepEqual(withInn, ['IA', 'IB', 'IC', 'IL', 'IM', 'IN']); // inns-cathedrals.md
  for (const l of withInn) {
    const k = cat.kinds[l];
    const i = k.segments.findIndex((s) => s.marks?.includes('inn'));
    const [inn] = iconsOf(k, 'inn');
    assert.ok(inn, `${l}: an inn is drawn`);
    assert.ok(nearLine(inn.at, k.shapes[i].line, 26), `${l}: the inn ${inn.at} is beside its road`);
    for (const s of k.shapes) {
      if (s.kind === 'road') assert.ok(!nearLine(inn.at, s.line, 9), `${l}: the inn ${inn.at} is not on a road`);
      if (s.kind === 'city') assert.ok(!insidePolygon(inn.at, s.poly), `${l}: the inn ${inn.at} is not in a city`);
    }
    assert.ok(dist(inn.at, k.anchors[i]) >= 14, `${l}: the road's follower does not cover the inn`);
    assert.match(inn.svg, /class="inn"/);
  }
});

test('a cathedral stands in its city, clear of the follower; IK is a whole-tile city', () => {
  const ik = cat.kinds.IK;
  assert.equal(ik.count, 2);
  assert.deepEqual(ik.segments.map((s) => [s.kind, s.ports.length, s.marks]), [['city', 12, ['cathedral']]]);
  assert.equal(ik.shapes[0].d, 'M0,0H100V100H0Z', 'IK is city from edge to edge');
  const [c] = iconsOf(ik, 'cathedral');
  assert.ok(insidePolygon(c.at, ik.shapes[0].poly));
  assert.ok(dist(c.at, ik.anchors[0]) >= 30, `the knight (${ik.anchors[0]}) stands clear of the cathedral (${c.at})`);
  assert.match(c.svg, /class="cathedral"/);
  // IH: the closed field's farmer stands in the middle, in none of the four cities.
  const ih = cat.kinds.IH;
  const f = ih.segments.findIndex((s) => s.kind === 'field');
  assert.equal(cat.spotName('IH', 1, f), 'F');
  assert.deepEqual(cat.spotPoint('IH', 3, 'F'), [50, 50]);
  assert.equal(cat.kindOf('IH', 0, 'F'), 'field');
  assert.ok(!ih.shapes.some((s) => s.kind === 'city' && insidePolygon(ih.anchors[f], s.poly)));
  assert.equal(cat.nearestSpot('IH', 0, 52, 48), 'F');
});

// A catalogue as the Traders & Builders server is proposed to send it:
// a city with goods marks.
function tradersCatalogue(marks) {
  const p = json.tiles.find((t) => t.id === 'P');
  const tb = { ...p, id: 'TX', letter: 'TX', set: 'traders-builders', segments: p.segments.map((s) => (s.kind === 'city' ? { ...s, marks } : s)) };
  return new Catalogue({ ...json, tiles: [...json.tiles, tb] });
}

test('goods marks: a token each inside their city, apart from each other and the knight', () => {
  const c = tradersCatalogue(['wine', 'grain', 'cloth']);
  const k = c.kinds.TX, city = k.segments.findIndex((s) => s.kind === 'city');
  const tokens = k.icons.filter((i) => ['wine', 'grain', 'cloth'].includes(i.mark));
  assert.deepEqual(tokens.map((t) => t.mark), ['wine', 'grain', 'cloth']);
  for (const t of tokens) {
    assert.ok(insidePolygon(t.at, k.shapes[city].poly), `${t.mark} at ${t.at} is in the city`);
    assert.ok(dist(t.at, k.anchors[city]) >= 14, `${t.mark} is clear of the knight`);
    assert.match(t.svg, new RegExp(`class="goods ${t.mark}"`));
  }
  for (let i = 0; i < tokens.length; i++) for (let j = i + 1; j < tokens.length; j++) assert.ok(dist(tokens[i].at, tokens[j].at) >= 12, 'tokens do not overlap');
  // Upright on a turned tile, like every icon.
  assert.match(c.defs(), /id="tile-TX-r1"[^]*class="goods wine"/);
  // Inert: a catalogue without marks (version 2) draws no mark.
  const v2 = new Catalogue({ ...json, tiles: json.tiles.map(({ segments, ...t }) => ({ ...t, segments: segments.map(({ marks, ...s }) => s) })) });
  assert.ok(v2.letters.every((l) => v2.kinds[l].icons.every((i) => !i.mark)));
  assert.equal(v2.kinds.P.svg, cat.kinds.P.svg);
});

const scaleOf = (svg) => +svg.match(/scale\(([\d.]+)\)/)[1];

test('figures: the large follower is drawn larger, with an outline; the builder and the pig have their own shapes', () => {
  const plain = meepleSvg(0, 10, 10), large = meepleSvg(0, 10, 10, false, '', 'large');
  assert.equal(meepleSvg(0, 10, 10, false, '', 'follower'), plain, 'the follower is drawn as before');
  assert.ok(scaleOf(large) >= 1.4 * scaleOf(plain), 'the large follower is at least 40% larger');
  assert.match(large, /class="meeple large"/);
  assert.match(large, /data-figure="large"/);
  const path = (svg) => [...svg.matchAll(/<path d="([^"]+)" fill="#/g)].map((m) => m[1]);
  const builder = meepleSvg(1, 0, 0, false, '', 'builder'), pig = meepleSvg(1, 0, 0, true, '', 'pig');
  assert.notDeepEqual(path(builder), path(plain));
  assert.notDeepEqual(path(pig), path(plain));
  assert.notDeepEqual(path(pig), path(builder));
  assert.doesNotMatch(pig, /farmer/, 'the pig does not lie down like a farmer');
  assert.ok(+meepleIcon(0, 14, 'large').match(/width="(\d+)"/)[1] > 14, 'the supply\'s large follower is larger too');
});

const seats = [{ name: 'Ann', kind: 'human', present: true, score: 3, supply: 6 }, { name: 'Bob', kind: 'human', present: true, score: 0, supply: 7 }];
const stateOf = (seatList) => ({ type: 'state', table: 't', status: 'playing', you: 0, players: 2, seats: seatList, turn: 2, to_move: 0, tile: 'IK',
  tiles_left: 80, start: { tile: 'D', x: 0, y: 0, rot: 0 }, followers: [], moves: [] });

test('the panel: the large follower in each supply; goods, builder and pig only when the state has them', () => {
  const el = { innerHTML: '' };
  renderPlayers(el, new Table(stateOf(seats.map((s) => ({ ...s })))));
  assert.doesNotMatch(el.innerHTML, /extras|large|goods/, 'a base game shows only the followers');
  renderPlayers(el, new Table(stateOf(seats.map((s, p) => ({ ...s, large: p })))));
  assert.match(el.innerHTML, /data-figure="large" title="large follower: on the board"><svg class="meeple-icon large"[^]*×0/);
  assert.match(el.innerHTML, /title="large follower: in the supply"/);
  renderPlayers(el, new Table(stateOf(seats.map((s) => ({ ...s, large: 1, builder: 1, pig: 0, goods: [2, 0, 1] })))));
  assert.match(el.innerHTML, /data-figure="builder"/);
  assert.match(el.innerHTML, /data-figure="pig" title="pig: on the board"/);
  assert.match(el.innerHTML, /title="goods: 2 wine, 0 grain, 1 cloth"/);
  assert.match(el.innerHTML, /data-good="wine">.*?<\/svg>2</);
});

test('a move event brings the large followers, the goods and the figures of each player; without them nothing changes', () => {
  const t = new Table(stateOf(seats.map((s) => ({ ...s, large: 1 }))));
  const ev = { type: 'move', turn: 2, player: 0, move: 'IK 0 -1 0 N large', by: 'player', events: [], scores: [3, 0], supply: [6, 7],
    large: [0, 1], next: { turn: 3, player: 1, tile: 'A' }, tiles_left: 79, followers: [{ x: 0, y: -1, spot: 'N', player: 0, figure: 'large' }] };
  t.applyMove(ev);
  assert.deepEqual(t.state.seats.map((s) => s.large), [0, 1]);
  assert.deepEqual(t.followersOnTiles().map((f) => [f.letter, f.spot, f.figure]), [['IK', 'N', 'large']]);
  t.applyMove({ ...ev, turn: 3, player: 1, move: 'A 5 5 0', large: undefined, followers: undefined, goods: [[1, 0, 0], [0, 0, 2]], builder: [1, 0], pig: [0, 1] });
  assert.deepEqual(t.state.seats.map((s) => [s.large, s.goods, s.builder, s.pig]), [[0, [1, 0, 0], 1, 0], [1, [0, 0, 2], 0, 1]]);
  assert.equal(parseMove('T 1 1 0 N builder').figure, 'builder');
});

test('the follower step: a figure choice when the large follower is legal (button or L), the move carries its word', () => {
  globalThis.document ??= { body: { dataset: {} } };
  const board = { setTargets() {}, setPreview() {}, setSpots(...a) { this.spots = a; }, centreIfHidden() {} };
  const bar = { innerHTML: '', hidden: false, addEventListener() {} };
  const sent = [], said = [];
  const turn = new Turn(board, bar, (m) => sent.push(m), (t) => said.push(t));
  const placement = { x: 0, y: -1, rot: 0, move: 'IK 0 -1 0', spots: [{ spot: 'N', role: 'city' }] };
  const press = (key) => turn.key({ key });
  turn.start({ turn: 2, player: 0, tile: 'IK', placements: [placement], figures: ['follower', 'large'] }, 0);
  press('Enter');
  assert.equal(turn.phase, 'follower');
  assert.match(bar.innerHTML, /data-act="figure-follower" aria-pressed="true"/);
  assert.match(bar.innerHTML, /data-act="figure-large" aria-pressed="false" title="key L">Large follower/);
  assert.ok(said.at(-1).includes('L for the large follower'), said.at(-1));
  assert.ok(press('l'));
  assert.equal(turn.figure, 'large');
  assert.match(bar.innerHTML, /data-act="figure-large" aria-pressed="true"/);
  press('1');
  assert.equal(board.spots.at(-1), 'large', 'the chosen spot shows the large follower');
  press('Enter');
  assert.deepEqual(sent, ['IK 0 -1 0 N large']);
  // L again goes back to the follower; the button does the same.
  turn.start({ turn: 4, player: 0, tile: 'IK', placements: [placement], figures: ['follower', 'large'] }, 0);
  press('Enter');
  press('l');
  press('L');
  assert.equal(turn.figure, 'follower');
  turn.act('figure-large');
  press('1');
  press('Enter');
  assert.equal(sent.at(-1), 'IK 0 -1 0 N large');
  // Only the large follower left: it is the figure, shown pressed, alone.
  turn.start({ turn: 6, player: 0, tile: 'IK', placements: [placement], figures: ['large'] }, 0);
  press('Enter');
  assert.match(bar.innerHTML, /data-act="figure-large" aria-pressed="true"/, 'the bar says which figure goes');
  assert.doesNotMatch(bar.innerHTML, /figure-follower/);
  press('l'); // no follower to go back to: it stays the large follower
  assert.equal(turn.figure, 'large');
  press('1');
  press('Enter');
  assert.equal(sent.at(-1), 'IK 0 -1 0 N large');
  // A server without figures: the move is the spot alone, and L does nothing.
  turn.start({ turn: 8, player: 0, tile: 'IK', placements: [placement] }, 0);
  press('Enter');
  assert.doesNotMatch(bar.innerHTML, /figure-/);
  assert.ok(!press('l'));
  press('1');
  press('Enter');
  assert.equal(sent.at(-1), 'IK 0 -1 0 N');
});

test('figures in moves and spots: the default, the move text, the spots a figure may take', () => {
  assert.equal(defaultFigure(undefined), 'follower');
  assert.equal(defaultFigure(['follower', 'large']), 'follower');
  assert.equal(defaultFigure(['large', 'builder']), 'large');
  assert.equal(moveText('E 0 1 0', null, 'large'), 'E 0 1 0');
  assert.equal(moveText('E 0 1 0', 'S', 'follower'), 'E 0 1 0 S');
  assert.equal(moveText('E 0 1 0', 'S', 'pig'), 'E 0 1 0 S pig');
  const spots = [{ spot: 'N', role: 'road', figures: ['follower', 'builder'] }, { spot: 'S', role: 'field', figures: ['follower', 'pig'] }, { spot: 'C', role: 'cloister' }];
  assert.deepEqual(spotsFor(spots, 'builder').map((s) => s.spot), ['N', 'C']);
  assert.deepEqual(spotsFor(spots, 'pig').map((s) => s.spot), ['S', 'C']);
  assert.equal(spotsFor(spots, 'follower').length, 3);
});

test('words: the large follower in a move; what an inn, a cathedral and goods do to the worth; goods and pig scorings', () => {
  assert.equal(moveWords('IK 0 -2 0 N large', () => 'city'), 'tile IK at 0, -2, upright, the large follower as a knight in the city');
  assert.equal(moveWords('T 1 0 0 E builder', () => 'road'), 'tile T at 1, 0, upright, the builder on the road');
  assert.equal(moveWords('T 1 0 0 SSW pig', () => 'field'), 'tile T at 1, 0, upright, the pig on the farm');
  assert.match(marksWords({ marks: ['inn'] }), /^An inn on this road: 2 points a tile when complete, nothing if it is unfinished at the end\.$/);
  assert.match(marksWords({ marks: ['cathedral'] }), /3 points a tile and pennant when complete, nothing if it is unfinished/);
  assert.equal(marksWords({ marks: [] }), '');
  assert.equal(marksWords({}), '');
  assert.match(marksWords({ marks: ['wine', 'wine', 'cloth'] }), /Goods: 2 wine, 1 cloth, to whoever completes it/);
  const road = { kind: 'road', complete: false, open_edges: 1, tiles: 4, pennants: 0, value: 8, value_at_end: 0, marks: ['inn'] };
  assert.match(featureWords(road).worth, /Worth <strong>8<\/strong> if completed as it stands, <strong>0<\/strong> if the game ended now/);
  assert.match(featureWords(road).marks, /inn/);
  const who = [{ name: 'Ann' }, { name: 'Bob' }];
  assert.equal(eventText({ kind: 'goods', bonus: 'goods', goods: [1, 0, 0], winners: [0, 1], points: 10, complete: 0 }, who), 'Ann and Bob +10 for the most wine');
  assert.equal(eventText({ kind: 'farm', bonus: 'pig', complete: 0, winners: [1], points: 8, tiles: 2, pennants: 0 }, who), 'Bob +8 for a farm (2 cities, with the pig)');
  assert.equal(eventText({ kind: 'city', complete: 1, winners: [], points: 0, tiles: 3, pennants: 0, goods: [0, 2, 1] }, who),
    'nobody +0 for a completed city (3 tiles); its goods (2 grain, 1 cloth) go to the player who completed it');
  assert.equal(eventText({ kind: 'city', complete: 1, winners: [0], points: 4, tiles: 2, pennants: 0 }, who), 'Ann +4 for a completed city (2 tiles)');
});
