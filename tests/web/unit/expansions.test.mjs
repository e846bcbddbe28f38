// expansions.test.mjs: what the browser draws and says for Inns &
// Cathedrals and Traders & Builders, from the server's real catalogue
// (version 4) and events in the server's field names
// (docs/server-protocol.md): marks on the tiles, the figures, the figure
// step (the builder's and the pig's own spots), the builder's second
// tile, the panel, the words. Every field is optional: without it
// nothing changes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../lib.mjs';
import { Catalogue, insidePolygon, nearLine, rotatePoint, FIGURE_ROOM, GOODS_SCALE } from '../../../web/js/tiles.js';
import { meepleSvg, meepleIcon } from '../../../web/js/players.js';
import { renderPlayers, eventText, renderLog } from '../../../web/js/panel.js';
import { Table, parseMove, goodsOf, isLogged } from '../../../web/js/game.js';
import { renderFinal } from '../../../web/js/end.js';
import { playsAgain } from '../../../web/js/replay.js';
import { Turn, defaultFigure, moveText, spotsFor, whyNot, noSpotWords, hintText } from '../../../web/js/turn.js';
import { readFileSync } from 'node:fs';
import { marksWords, featureWords, strengthWords } from '../../../web/js/inspector.js';
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

// Issue 35: inns and cloisters were both red-roofed houses.
test('an inn is a tavern sign with a mug, a cloister a chapel with a cross: nothing alike', () => {
  const [inn] = iconsOf(cat.kinds.IA, 'inn');
  const chapel = cat.kinds.B.icons.find((i) => /class="cloister"/.test(i.svg));
  assert.ok(chapel, 'the cloister tile B draws a chapel');
  assert.match(inn.svg, /class="inn-mug"/);
  assert.match(inn.svg, /class="inn-foam"/);
  assert.match(inn.svg, /class="inn-post"/);
  assert.doesNotMatch(inn.svg, /roof|cloister|cross/);
  assert.match(chapel.svg, /class="cloister-tower"/);
  assert.match(chapel.svg, /class="cloister-cross"/);
  assert.doesNotMatch(chapel.svg, /inn|mug/);
  const css = readFileSync(new URL('../../../web/style.css', import.meta.url), 'utf8');
  const fill = (cls) => css.match(new RegExp(`\\.tile \\.${cls}[ ,][^{]*\\{[^}]*fill: (#[0-9a-f]+)`, 'i'))?.[1];
  assert.ok(fill('inn') && fill('cloister') && fill('inn') !== fill('cloister'), `of other colours (${fill('inn')}, ${fill('cloister')})`);
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

const GOODS = ['wine', 'grain', 'cloth'];

test('goods marks of the real catalogue: a token inside its city, clear of the knight, on the 20 tiles with goods', () => {
  const withGoods = cat.letters.filter((l) => cat.kinds[l].segments.some((s) => s.marks?.some((m) => GOODS.includes(m))));
  assert.equal(withGoods.length, 20); // traders-builders.md: one goods sign on 20 of the 24 tiles
  assert.ok(withGoods.every((l) => cat.kinds[l].set === 'traders-builders'));
  const count = Object.fromEntries(GOODS.map((g) => [g, 0]));
  for (const l of withGoods) {
    const k = cat.kinds[l];
    const city = k.segments.findIndex((s) => s.marks?.some((m) => GOODS.includes(m)));
    assert.equal(k.segments[city].kind, 'city', `${l}: goods are in a city`);
    const tokens = k.icons.filter((i) => GOODS.includes(i.mark));
    assert.equal(tokens.length, 1, `${l}: one token`);
    const [t] = tokens;
    count[t.mark]++;
    assert.ok(insidePolygon(t.at, k.shapes[city].poly), `${l}: ${t.mark} at ${t.at} is in the city`);
    // Issue 35: tokens sat under the followers and were 8 px dots at a
    // whole board's zoom. Each is now 24 units or more (14 px at the
    // board's first zoom of 0.6), and has a spot of its own: its disc
    // keeps clear of the knight's and of a builder's beside it, at every
    // rotation (a turned tile keeps its icons upright, not its figures).
    assert.ok(2 * t.r >= 24 && 2 * t.r * 0.6 >= 14, `${l}: the token is ${2 * t.r} units wide`);
    assert.match(t.svg, new RegExp(`scale\\(${GOODS_SCALE}\\)`));
    for (let rot = 0; rot < 4; rot++) {
      const spot = cat.spotName(l, rot, city), at = rotatePoint(t.at, rot);
      assert.ok(dist(at, cat.spotPoint(l, rot, spot)) - t.r >= FIGURE_ROOM, `${l} at ${rot}: ${t.mark} is clear of the knight`);
      assert.ok(dist(at, cat.besidePoint(l, rot, spot)) - t.r >= FIGURE_ROOM - 3, `${l} at ${rot}: ${t.mark} is clear of a builder beside the knight`);
    }
    assert.match(t.svg, new RegExp(`class="goods ${t.mark}"`));
    assert.match(cat.defs(), new RegExp(`id="tile-${l}-r1"[^]*?class="goods ${t.mark}"`), `${l}: upright on a turned tile`);
  }
  assert.deepEqual(count, { wine: 9, grain: 6, cloth: 5 }); // the spec's 9 wine, 6 grain, 5 cloth
  // TC, TD, TF, TN: a closed field (spot F).
  for (const l of ['TC', 'TD', 'TF', 'TN']) assert.ok(cat.kinds[l].segments.some((s) => s.kind === 'field' && !s.ports.length), l);
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
  renderPlayers(el, new Table(stateOf(seats.map((s) => ({ ...s, large: 1, builder: 1, pig: 0, goods: { wine: 2, grain: 0, cloth: 1 } })))));
  assert.match(el.innerHTML, /data-figure="builder"/);
  assert.match(el.innerHTML, /data-figure="pig" title="pig: on the board"/);
  assert.match(el.innerHTML, /title="goods: 2 wine, 0 grain, 1 cloth"/);
  assert.match(el.innerHTML, /data-good="wine">.*?<\/svg>2</);
  // The server counts a large follower (0) in every game: with the
  // table's expansions known, each figure shows only with its expansion.
  renderPlayers(el, new Table({ ...stateOf(seats.map((s) => ({ ...s, large: 0 }))), expansions: [] }));
  assert.doesNotMatch(el.innerHTML, /extras|data-figure/, 'a base game of the real server: no large follower');
  renderPlayers(el, new Table({ ...stateOf(seats.map((s) => ({ ...s, large: 0, builder: 1, pig: 1, goods: { wine: 0, grain: 0, cloth: 0 } }))), expansions: ['traders-builders'] }));
  assert.doesNotMatch(el.innerHTML, /data-figure="large"/);
  assert.match(el.innerHTML, /data-figure="builder"[^]*data-figure="pig"[^]*data-good="cloth"/);
});

test('a move event brings the large followers, the goods and the figures of each player; without them nothing changes', () => {
  const t = new Table(stateOf(seats.map((s) => ({ ...s, large: 1 }))));
  const ev = { type: 'move', turn: 2, player: 0, move: 'IK 0 -1 0 N large', by: 'player', events: [], scores: [3, 0], supply: [6, 7],
    large: [0, 1], next: { turn: 3, player: 1, tile: 'A' }, tiles_left: 79, followers: [{ x: 0, y: -1, spot: 'N', player: 0, figure: 'large' }] };
  t.applyMove(ev);
  assert.deepEqual(t.state.seats.map((s) => s.large), [0, 1]);
  assert.deepEqual(t.followersOnTiles().map((f) => [f.letter, f.spot, f.figure]), [['IK', 'N', 'large']]);
  const goods = [{ wine: 1, grain: 0, cloth: 0 }, { wine: 0, grain: 0, cloth: 2 }];
  t.applyMove({ ...ev, turn: 3, player: 1, move: 'A 5 5 0', large: undefined, followers: undefined, goods, builder: [1, 0], pig: [0, 1] });
  assert.deepEqual(t.state.seats.map((s) => [s.large, s.goods, s.builder, s.pig]), [[0, goods[0], 1, 0], [1, goods[1], 0, 1]]);
  assert.equal(t.state.second_part, false);
  // The builder's second tile: the same seat moves again.
  t.applyMove({ ...ev, turn: 4, player: 0, move: 'A 6 5 0', large: undefined, next: { turn: 5, player: 0, tile: 'U', second_part: true } });
  assert.equal(t.state.second_part, true);
  assert.equal(t.state.to_move, 0);
  assert.ok(t.myTurn);
  // goods: the server's objects; anything else is no goods.
  assert.deepEqual(goodsOf({ wine: 2, cloth: 1 }), { wine: 2, grain: 0, cloth: 1 });
  assert.equal(goodsOf([1, 0, 0]), null);
  assert.equal(goodsOf(null), null);
  assert.deepEqual(goodsOf({ wine: -1, grain: 'x', cloth: 1.5 }), { wine: 0, grain: 0, cloth: 0 });
  assert.equal(parseMove('T 1 1 0 N builder').figure, 'builder');
});

test('the follower step: a figure choice when the large follower is legal (button or L), the move carries its word', () => {
  globalThis.document ??= { body: { dataset: {} } };
  const board = { setTargets() {}, setPreview() {}, setSpots(...a) { this.spots = a; }, centreIfHidden() {}, showSquares() {} };
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
  assert.equal(board.spots[4], 'large', 'the chosen spot shows the large follower');
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
  assert.equal(defaultFigure(['builder', 'pig']), null, 'never the builder or the pig by itself');
  assert.equal(moveText('E 0 1 0', null, 'large'), 'E 0 1 0');
  assert.equal(moveText('E 0 1 0', 'S', 'follower'), 'E 0 1 0 S');
  assert.equal(moveText('E 0 1 0', 'S', 'pig'), 'E 0 1 0 S pig');
  // legal.ok's placement (a real one, tile K): the builder's and the pig's
  // spots are their own lists, often spots that are not the follower's.
  const k = { x: 1, y: 1, rot: 3, move: 'K 1 1 3', spots: [{ spot: 'E', role: 'road' }, { spot: 'ESE', role: 'field' }, { spot: 'NNW', role: 'field' }],
    builder: ['WSW'], pig: ['ESE'] };
  const role = (spot) => cat.kindOf('K', 3, spot);
  assert.deepEqual(spotsFor(k, 'follower'), k.spots);
  assert.deepEqual(spotsFor(k, 'large'), k.spots);
  assert.deepEqual(spotsFor(k, 'builder', role), [{ spot: 'WSW', role: 'city' }], 'the builder joins a follower in the city');
  assert.deepEqual(spotsFor(k, 'pig', role), [{ spot: 'ESE', role: 'field' }]);
  assert.deepEqual(spotsFor({ ...k, builder: [] }, 'builder'), []);
  assert.deepEqual(spotsFor({ move: 'K 1 1 3', spots: k.spots }, 'pig'), [], 'a placement without the list has no pig spot');
  assert.deepEqual(spotsFor({ ...k, pig: ['NNE'] }, 'pig').map((s) => s.role), ['field'], 'a pig spot not among the follower\'s is a field');
});

test('the builder and the pig: their own spots in the figure step, B and P, the move with its word; a second tile says "Builder: play again"', () => {
  globalThis.document ??= { body: { dataset: {} } };
  const board = { cat, setTargets() {}, setPreview() {}, setSpots(...a) { this.args = a; }, centreIfHidden() {}, showSquares() {} };
  const bar = { innerHTML: '', hidden: false, addEventListener() {} };
  const sent = [], said = [];
  const turn = new Turn(board, bar, (m) => sent.push(m), (t) => said.push(t));
  const press = (key) => turn.key({ key });
  const k = { x: 1, y: 1, rot: 3, move: 'K 1 1 3', spots: [{ spot: 'E', role: 'road' }, { spot: 'NNW', role: 'field' }], builder: ['WSW'], pig: ['ESE'] };
  turn.start({ turn: 8, player: 0, tile: 'K', placements: [k], figures: ['follower', 'builder', 'pig'], second_part: false }, 0);
  assert.doesNotMatch(bar.innerHTML, /play again/);
  press('Enter');
  assert.match(bar.innerHTML, /data-act="figure-builder" aria-pressed="false" title="key B">Builder/);
  assert.match(bar.innerHTML, /data-act="figure-pig" aria-pressed="false" title="key P">Pig/);
  assert.ok(said.at(-1).includes('B for the builder') && said.at(-1).includes('P for the pig'), said.at(-1));
  assert.deepEqual(board.args[1].map((s) => s.spot), ['E', 'NNW'], 'the follower\'s spots first');
  press('b');
  assert.equal(turn.figure, 'builder');
  assert.deepEqual(board.args[1].map((s) => [s.spot, s.role, s.n]), [['WSW', 'city', 1]], 'the builder\'s own spot, numbered');
  assert.equal(board.args[4], 'builder', 'drawn as the builder');
  press('1');
  press('Enter');
  assert.deepEqual(sent, ['K 1 1 3 WSW builder']);
  // The pig by its button; a figure with no spot on this placement is disabled.
  turn.start({ turn: 10, player: 0, tile: 'K', placements: [{ ...k, builder: [] }], figures: ['follower', 'builder', 'pig'] }, 0);
  press('Enter');
  assert.match(bar.innerHTML, /data-act="figure-builder" aria-pressed="false" disabled/);
  press('b');
  assert.equal(turn.figure, 'follower', 'B does nothing where the builder has no spot');
  turn.act('figure-pig');
  press('1');
  press('Enter');
  assert.equal(sent.at(-1), 'K 1 1 3 ESE pig');
  // The builder's second tile: the bar says so. No follower is left, only
  // the pig: no figure is chosen for the player (issue 35: the step chose
  // one by itself); the bar says why, a key picks nothing, P chooses the pig.
  turn.start({ turn: 11, player: 0, tile: 'K', placements: [{ ...k, spots: [], builder: [] }], figures: ['pig'], second_part: true }, 0);
  assert.match(bar.innerHTML, /Builder: play again/);
  press('Enter');
  assert.equal(turn.figure, null, 'no figure chosen by itself');
  assert.match(bar.innerHTML, /No follower left: all are on the board/);
  assert.match(bar.innerHTML, /data-act="figure-pig" aria-pressed="false" title="key P">Pig/);
  press('1');
  assert.equal(turn.spot, null, 'a digit picks no spot for no figure');
  press('p');
  assert.equal(turn.figure, 'pig');
  press('1');
  press('Enter');
  assert.equal(sent.at(-1), 'K 1 1 3 ESE pig');
  // The follower has no spot on this placement and the builder has: the
  // step stays on the follower (issue 35), the bar says why, and the
  // builder's spot is drawn as the builder's (B) but is not picked.
  turn.start({ turn: 13, player: 0, tile: 'K', placements: [{ ...k, spots: [] }], figures: ['follower', 'builder', 'pig'] }, 0);
  press('Enter');
  assert.equal(turn.figure, 'follower');
  assert.match(bar.innerHTML, /data-act="figure-follower" aria-pressed="true"/);
  assert.match(bar.innerHTML, /data-act="figure-builder" aria-pressed="false" title="key B"/);
  assert.match(bar.innerHTML, /No follower can stand here: every road, city and farm of this tile is taken/);
  assert.deepEqual(board.args[5].map((s) => [s.spot, s.key]), [['WSW', 'B'], ['ESE', 'P']], 'the builder\'s and the pig\'s spots, marked with their keys');
  turn.pick('WSW');
  assert.equal(turn.spot, null, 'a click on the builder\'s spot places nothing');
  assert.match(bar.innerHTML, /class="why" role="alert">The city is taken; the builder can go there \(key B\)/);
  press('b');
  press('1');
  press('Enter');
  assert.equal(sent.at(-1), 'K 1 1 3 WSW builder', 'B then a digit: the builder');
});

// Issue 35: with the follower's city taken, a click on IK's city put the
// builder there (`IK -1 2 3 NNW builder`): the figure step had switched
// to the builder by itself.
test('the figure step never switches figure: a click where the follower cannot stand says why and places nothing', () => {
  globalThis.document ??= { body: { dataset: {} } };
  const board = { cat, setTargets() {}, setPreview() {}, setSpots(...a) { this.args = a; }, centreIfHidden() {}, showSquares() {} };
  const bar = { innerHTML: '', hidden: false, addEventListener() {} };
  const sent = [], said = [];
  const turn = new Turn(board, bar, (m) => sent.push(m), (t) => said.push(t));
  const ik = { x: -1, y: 2, rot: 3, move: 'IK -1 2 3', spots: [], builder: ['NNW'], pig: [] };
  turn.start({ turn: 20, player: 0, tile: 'IK', placements: [ik], figures: ['follower', 'large', 'builder', 'pig'] }, 0);
  turn.key({ key: 'Enter' });
  assert.equal(turn.figure, 'follower', 'the follower stays the figure');
  assert.match(bar.innerHTML, /No follower can stand here: every city of this tile is taken/);
  assert.match(said.at(-1), /No follower can stand here[^]*B for the builder/);
  // A click on the city (the tile's middle): nothing placed, the reason said.
  assert.ok(turn.click(-1, 2, { fx: 50, fy: 50 }));
  assert.equal(turn.spot, null);
  assert.match(bar.innerHTML, /The city is taken; the builder can go there \(key B\)/);
  assert.match(said.at(-1), /The city is taken/);
  // The pig and the large follower have no spot: disabled, saying why.
  assert.match(bar.innerHTML, /data-act="figure-pig" aria-pressed="false" disabled aria-disabled="true" title="The pig cannot stand here: this tile has no farm"/);
  assert.match(bar.innerHTML, /data-act="figure-large" aria-pressed="false" disabled aria-disabled="true" title="The large follower cannot stand here: every city of this tile is taken"/);
  turn.key({ key: 'p' });
  assert.equal(turn.figure, 'follower', 'P does not choose a pig with no spot');
  assert.match(bar.innerHTML, /The pig cannot stand here/);
  turn.key({ key: 'Enter' });
  assert.deepEqual(sent, ['IK -1 2 3'], 'confirmed with no figure: never the builder by itself');
  // No figure left at all: the bar says so, not "No follower can stand here".
  turn.start({ turn: 22, player: 0, tile: 'IK', placements: [{ ...ik, builder: [] }], figures: [] }, 0);
  turn.key({ key: 'Enter' });
  assert.match(bar.innerHTML, /No follower left: all are on the board/);
  assert.doesNotMatch(bar.innerHTML, /can stand here/);
});

test('why a figure cannot stand on a spot, in words', () => {
  assert.equal(whyNot('follower', 'road'), 'the road is taken');
  assert.equal(whyNot('large', 'city'), 'the city is taken');
  assert.equal(whyNot('follower', 'field'), 'the farm is taken');
  assert.equal(whyNot('follower', 'city', false), 'no follower left: all are on the board');
  assert.equal(whyNot('builder', 'road'), 'no follower of yours on the road');
  assert.equal(whyNot('builder', 'field'), 'the builder goes on a road or a city with a follower of yours');
  assert.equal(whyNot('builder', 'road', false), 'your builder is on the board');
  assert.equal(whyNot('pig', 'field'), 'no farmer of yours on the farm');
  assert.equal(whyNot('pig', 'city'), 'the pig goes on a farm with a farmer of yours');
  assert.equal(whyNot('follower', 'river'), 'nothing stands in the river');
  assert.equal(noSpotWords('builder', ['road', 'field']), 'The builder cannot stand here: no follower of yours on this tile\'s roads');
  assert.equal(noSpotWords('follower', ['road', 'field', 'road']), 'No follower can stand here: every road and farm of this tile is taken');
  assert.equal(noSpotWords('large', ['city'], false), 'Your large follower is on the board');
  // A disabled button looks disabled: greyed, dashed, not-allowed.
  const css = readFileSync(new URL('../../../web/style.css', import.meta.url), 'utf8');
  const rule = css.match(/\.actions button:disabled[^{]*\{([^}]*)\}/);
  assert.ok(rule, 'a rule for the bar\'s disabled buttons');
  assert.match(rule[1], /cursor: not-allowed/);
  assert.ok(+rule[1].match(/opacity: ([\d.]+)/)[1] <= 0.5, 'faded');
});

test('the replay says "Builder: play again" when the same seat moves twice in a Traders & Builders game', () => {
  const m = (player, move = 'A 0 1 0') => ({ player, move, events: [] });
  const data = { expansions: ['traders-builders'], rules: [], moves: [m(0), m(0), m(1)] };
  assert.match(playsAgain(data, 1), /^Builder: play again/);
  assert.equal(playsAgain(data, 2), '');
  assert.equal(playsAgain(data, 3), '');
  assert.equal(playsAgain(data, 0), '');
  assert.equal(playsAgain({ ...data, rules: ['bonus-turn'] }, 1), 'The same player plays again');
  assert.equal(playsAgain({ ...data, moves: [m(0), { player: -1, move: 'end', events: [] }] }, 1), '');
  assert.equal(playsAgain({ ...data, moves: [m(0, 'discard TX'), m(0), m(1)] }, 1), '', 'a discarded tile is drawn again, no builder');
});

test('the end table has a Goods column when the server sends goods points', () => {
  const t = new Table({ ...stateOf(seats.map((s) => ({ ...s }))), status: 'finished', to_move: null,
    final: { scores: [70, 52], winners: [0], by_kind: [{ roads: 5, cities: 15, cloisters: 0, farms: 4, goods: 20 }, { roads: 29, cities: 9, cloisters: 10, farms: 4, goods: 0 }] } });
  const el = { innerHTML: '', querySelector: () => null };
  renderFinal(el, t);
  assert.match(el.innerHTML, /<th>Farms<\/th><th>Goods<\/th><th>Total<\/th>/);
  assert.match(el.innerHTML, /<td>4<\/td><td>20<\/td><td class="total">70<\/td>/);
  const base = new Table({ ...t.state, final: { ...t.state.final, by_kind: t.state.final.by_kind.map(({ goods, ...k }) => k) } });
  renderFinal(el, base);
  assert.doesNotMatch(el.innerHTML, /Goods/);
});

test('words: the large follower in a move; what an inn, a cathedral and goods do to the worth; goods and pig scorings', () => {
  assert.equal(moveWords('IK 0 -2 0 N large', () => 'city'), 'tile IK at 0, -2, upright, the large follower as a knight in the city');
  assert.equal(moveWords('T 1 0 0 E builder', () => 'road'), 'tile T at 1, 0, upright, the builder on the road');
  assert.equal(moveWords('T 1 0 0 SSW pig', () => 'field'), 'tile T at 1, 0, upright, the pig on the farm');
  assert.match(marksWords({ marks: ['inn'] }), /^An inn on this road: 2 points a tile when complete, nothing if it is unfinished at the end\.$/);
  assert.match(marksWords({ marks: ['cathedral'] }), /3 points a tile and pennant when complete, nothing if it is unfinished/);
  assert.equal(marksWords({ marks: [] }), '');
  assert.equal(marksWords({}), '');
  assert.equal(marksWords({ marks: ['wine', 'cloth'] }), 'Goods: wine, cloth, to the player who completes it (whoever holds it); 10 points for the most of each type at the end.');
  const road = { kind: 'road', complete: false, open_edges: 1, tiles: 4, pennants: 0, value: 8, value_at_end: 0, marks: ['inn'] };
  assert.match(featureWords(road).worth, /Worth <strong>8<\/strong> if completed as it stands, <strong>0<\/strong> if the game ended now/);
  assert.match(featureWords(road).marks, /inn/);
  const who = [{ name: 'Ann' }, { name: 'Bob' }];
  // The server's events (docs/server-protocol.md, "Traders & Builders").
  const given = { kind: 'city', complete: true, winners: [1], points: 0, tiles: 0, pennants: 0, x: -2, y: -1, returned: [0, 0], bonus: 'goods', goods: { wine: 0, grain: 2, cloth: 1 } };
  const most = { kind: 'city', complete: false, winners: [0, 1], points: 10, tiles: 0, pennants: 0, x: 0, y: 0, returned: [0, 0], bonus: 'goods', goods: { wine: 3, grain: 0, cloth: 0 } };
  const pig = { kind: 'farm', complete: false, winners: [1], points: 3, tiles: 3, pennants: 0, x: -2, y: -2, returned: [0, 0], bonus: 'pig' };
  assert.equal(eventText(given, who), 'Bob takes the city\'s goods (2 grain, 1 cloth) for completing it');
  assert.equal(eventText(most, who), 'Ann and Bob +10 for the most wine');
  assert.equal(eventText(pig, who), 'Bob +3 for the pig on a farm (3 cities)');
  assert.ok(isLogged(given) && isLogged(most) && isLogged(pig));
  assert.ok(!isLogged({ ...given, goods: undefined }), 'an event of no points and no goods is not logged');
  // The log: goods given in play, the majorities and the pig at the end.
  const t = new Table(stateOf(seats.map((s) => ({ ...s }))));
  t.applyMove({ type: 'move', turn: 2, player: 1, move: 'TA 0 -1 0', by: 'player', events: [{ ...given, kind: 'city', bonus: undefined, goods: undefined, complete: true, winners: [], points: 0 }, given],
    scores: [3, 0], supply: [6, 7], next: { turn: 3, player: 0, tile: 'A', second_part: false }, tiles_left: 70 });
  t.applyMove({ type: 'move', turn: 3, player: 0, move: 'A 0 2 0', by: 'player', events: [pig, most], scores: [13, 13], supply: [6, 7], next: null, tiles_left: 0 });
  assert.deepEqual(t.history.at(-1), [10, 13]);
  const el = { innerHTML: '' };
  renderLog(el, t);
  assert.match(el.innerHTML, /Turn 3: Bob takes the city&#39;s goods \(2 grain, 1 cloth\) for completing it/);
  assert.match(el.innerHTML, /End: Bob \+3 for the pig on a farm/);
  assert.match(el.innerHTML, /End: Ann and Bob \+10 for the most wine/);
  assert.doesNotMatch(el.innerHTML, /\+0/);
  assert.equal(eventText({ kind: 'city', complete: 1, winners: [0], points: 4, tiles: 2, pennants: 0 }, who), 'Ann +4 for a completed city (2 tiles)');
});

// Issue 35: hints are ranked by the chance to win but were labelled with
// the margin alone, so "1 … (+1.4)" sat above "2 … (+2.3)".
test('the inspector names the large follower only at a table that plays Inns & Cathedrals', () => {
  const f = { kind: 'city', marks: [] };
  const seats = [{ large: 0 }, { large: 0 }]; // the server counts a large follower of 0 in every game
  assert.equal(strengthWords(f, { expansions: [], seats }), '');
  assert.equal(strengthWords(f, { expansions: ['river', 'traders-builders'], seats }), '');
  assert.equal(strengthWords(f, { expansions: ['inns-cathedrals'], seats: [{ large: 1 }, { large: 0 }] }), ' (strength: the large follower counts 2)');
  assert.equal(strengthWords({ kind: 'city' }, { seats: [{ supply: 7 }] }), '', 'a server without expansions nor large');
});

test('hints show the chance to win they are ranked by and the margin, and say which ranks', () => {
  globalThis.document ??= { body: { dataset: {} } };
  assert.equal(hintText({ win: 0.62, margin: 1.4 }, 0, 'upright, a knight in the city'), '1: upright, a knight in the city (62% to win, +1.4 points)');
  assert.equal(hintText({ margin: -2 }, 1, 'upside down, no follower'), '2: upside down, no follower (-2 points)');
  const board = { cat, setTargets() {}, setPreview() {}, setSpots() {}, centreIfHidden() {}, showSquares() {} };
  const bar = { innerHTML: '', hidden: false, addEventListener() {} };
  const hints = [{ move: 'K 1 1 3', win: 0.7, margin: 1.4 }, { move: 'K 1 1 3 E', win: 0.6, margin: 2.3 }];
  const turn = new Turn(board, bar, () => {}, () => {}, async () => hints);
  const k = { x: 1, y: 1, rot: 3, move: 'K 1 1 3', spots: [{ spot: 'E', role: 'road' }] };
  turn.start({ turn: 3, player: 0, tile: 'K', placements: [k], figures: ['follower'] }, 0);
  return turn.hint().then(() => {
    assert.match(bar.innerHTML, /Hints, best chance to win first:/);
    assert.match(bar.innerHTML, /data-act="hint-0"[^>]*>1: turned a quarter left, no follower \(70% to win, \+1.4 points\)/);
    assert.match(bar.innerHTML, /data-act="hint-1"[^>]*>2: turned a quarter left, a thief on the road \(60% to win, \+2.3 points\)/);
  });
});
