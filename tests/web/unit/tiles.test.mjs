// tiles.test.mjs: the tile drawings from the server's real catalogue: a
// follower stands inside its own segment on every tile, and a spot of the
// record names the segment it should at every rotation; the river is
// water; the tiles panel shows the pile the next tile comes from.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../lib.mjs';
import { Catalogue, insidePolygon, nearLine, rotatePoint, portIndex } from '../../../web/js/tiles.js';
import { pileOf } from '../../../web/js/panel.js';

let server, cat;
before(async () => {
  server = await startServer({ bin: process.env.CARCASSONNE, webDir: process.env.WEB_DIR });
  const r = await fetch(`${server.url}/api/tiles`);
  assert.equal(r.headers.get('content-type'), 'application/json');
  cat = new Catalogue(await r.json());
});
after(() => server.stop());

test('the catalogue has the base game, The River, Inns & Cathedrals and Traders & Builders', () => {
  const base = cat.letters.filter((l) => cat.kinds[l].set === 'base');
  const river = cat.letters.filter((l) => cat.isRiver(l));
  const inns = cat.letters.filter((l) => cat.kinds[l].set === 'inns-cathedrals');
  const traders = cat.letters.filter((l) => cat.kinds[l].set === 'traders-builders');
  assert.equal(base.length, 24); // tiles.md: A..X, 72 tiles
  assert.equal(base.reduce((n, l) => n + cat.kinds[l].count, 0), 72);
  assert.deepEqual(river, ['RA', 'RB', 'RC', 'RD', 'RE', 'RG', 'RH', 'RI', 'RK', 'RL']); // river.md
  assert.equal(river.reduce((n, l) => n + cat.kinds[l].count, 0), 12);
  assert.equal(inns.length, 17); // inns-cathedrals.md: IA..IQ, 18 tiles (IK twice)
  assert.equal(inns.reduce((n, l) => n + cat.kinds[l].count, 0), 18);
  assert.equal(traders.length, 24); // traders-builders.md: TA..TX, one of each
  assert.equal(traders.reduce((n, l) => n + cat.kinds[l].count, 0), 24);
  assert.equal(cat.letters.length, base.length + river.length + inns.length + traders.length);
  // IH: four one-edge cities around a field with no ports (spot F).
  const ih = cat.kinds.IH;
  assert.deepEqual(ih.segments.map((s) => [s.kind, s.ports.length]), [['city', 3], ['city', 3], ['city', 3], ['city', 3], ['field', 0]]);
  // RD: a straight river between two fields, river edges east and west.
  const rd = cat.kinds.RD;
  assert.deepEqual(rd.edges, { N: 'field', E: 'river', S: 'field', W: 'river' });
  assert.deepEqual(rd.segments[0], { kind: 'river', pennant: false, ports: ['E', 'W'], borders: [], marks: [] });
});

test('the river is drawn as water, under the roads that bridge it', () => {
  for (const l of cat.letters) {
    const svg = cat.kinds[l].svg;
    assert.equal(svg.includes('class="water"'), cat.isRiver(l), `${l}: water only on river tiles`);
    if (svg.includes('class="road"')) assert.ok(svg.lastIndexOf('class="water"') < svg.indexOf('class="road'), `${l}: roads over the water`);
  }
  // The spring and the lake end in a pool; the others run edge to edge.
  for (const l of ['RA', 'RL']) assert.ok(cat.kinds[l].svg.includes('<circle class="water"'), l);
  assert.ok(!cat.kinds.RD.svg.includes('<circle class="water"'), 'RD has no pool');
});

test('every follower stands on its own segment', () => {
  for (const l of cat.letters) {
    const t = cat.kinds[l];
    const cities = t.shapes.filter((s) => s.kind === 'city');
    const rivers = t.shapes.filter((s) => s.kind === 'river');
    t.segments.forEach((seg, i) => {
      const p = t.anchors[i];
      const where = `${l} segment ${i} (${seg.kind}) at ${p.map((v) => v.toFixed(1))}`;
      assert.ok(p[0] > 0 && p[0] < 100 && p[1] > 0 && p[1] < 100, `${where}: on the tile`);
      if (seg.kind === 'city') assert.ok(insidePolygon(p, t.shapes[i].poly), `${where}: inside its city`);
      if (seg.kind === 'road') assert.ok(nearLine(p, t.shapes[i].line, 1), `${where}: on its road`);
      if (seg.kind === 'river') assert.ok(nearLine(p, t.shapes[i].line, 1), `${where}: on its river`);
      if (seg.kind === 'field') {
        assert.ok(!cities.some((c) => insidePolygon(p, c.poly)), `${where}: in no city`);
        assert.ok(!rivers.some((r) => nearLine(p, r.line, 12)), `${where}: not in the water`);
        const near = t.segments.map((s, j) => [s, j]).filter(([s]) => s.kind === 'field' && s !== seg)
          .some(([, j]) => Math.hypot(t.anchors[j][0] - p[0], t.anchors[j][1] - p[1]) < 8);
        assert.ok(!near, `${where}: apart from the other fields' farmers`);
      }
    });
  }
});

test('a spot names its segment at every rotation', () => {
  for (const l of cat.letters) {
    const t = cat.kinds[l];
    for (let rot = 0; rot < 4; rot++) {
      t.segments.forEach((seg, i) => {
        const spot = cat.spotName(l, rot, i);
        assert.equal(cat.segmentOf(l, rot, spot), i, `${l} rot ${rot} segment ${i} (${spot})`);
        if (seg.ports.length) {
          const turned = (portIndex(seg.ports[0]) + 3 * rot) % 12;
          assert.ok(portIndex(spot) <= turned, `${l}: the first port in board directions`);
        }
      });
    }
  }
});

test('a quarter turn moves a point clockwise', () => {
  assert.deepEqual(rotatePoint([50, 0], 1), [100, 50]);
  assert.deepEqual(rotatePoint([100, 50], 1), [50, 100]);
  assert.deepEqual(rotatePoint([20, 30], 4), [20, 30]);
});

test('the tiles panel shows the river pile while it lasts, the lake at 0% until last', () => {
  // river.md: after the spring, 11 river tiles, the lake drawn last; 71 base tiles.
  const remaining = { RB: 1, RC: 1, RD: 2, RE: 1, RG: 1, RH: 1, RI: 1, RK: 1, RL: 1, A: 2, D: 3 };
  const next = { RB: 1, RC: 1, RD: 2, RE: 1, RG: 1, RH: 1, RI: 1, RK: 1 };
  const pile = pileOf({ remaining, next_tiles: next }, cat);
  assert.ok(pile.river);
  assert.equal(pile.riverLeft, 10);
  assert.deepEqual(pile.kinds.map((k) => k.id), ['RB', 'RC', 'RD', 'RE', 'RG', 'RH', 'RI', 'RK', 'RL']);
  assert.equal(pile.kinds.find((k) => k.id === 'RD').chance, 2 / 9);
  assert.equal(pile.kinds.find((k) => k.id === 'RL').chance, 0);
  // The lake alone: certain. Then the main pile, by its counts.
  const lake = pileOf({ remaining: { RL: 1, A: 2, D: 3 }, next_tiles: { RL: 1 } }, cat);
  assert.deepEqual(lake.kinds.map((k) => [k.id, k.chance]), [['RL', 1]]);
  const main = pileOf({ remaining: { A: 2, D: 3 }, next_tiles: { A: 2, D: 3 } }, cat);
  assert.ok(!main.river);
  assert.deepEqual(main.kinds.map((k) => [k.id, k.left, k.chance]), [['A', 2, 0.4], ['D', 3, 0.6]]);
});

// Issue 27: a cloister turned with its tile looked like a red shield
// upside down, and pennants were dots at the size of the tiles panel.
// Icons now have a drawing per rotation that turns them back upright.
test('cloisters and pennants stay upright on a turned tile; pennants are shields', () => {
  const defs = cat.defs();
  for (const l of cat.letters) {
    const k = cat.kinds[l];
    const hasIcon = k.segments.some((s) => s.kind === 'cloister' || s.pennant || s.marks?.length);
    for (const rot of [0, 1, 2, 3]) {
      const id = cat.tileId(l, rot);
      assert.equal(id, hasIcon && rot ? `tile-${l}-r${rot}` : `tile-${l}`, `${l} at ${rot}: its drawing`);
      const at = defs.indexOf(`id="${id}"`);
      assert.ok(at >= 0, `${id} is defined`);
      const def = defs.slice(at, defs.indexOf('id="tile-', at + 5) >>> 0 || undefined);
      const icons = [...def.matchAll(/<g class="icon" transform="translate\(([\d.]+),([\d.]+)\)(?: rotate\((-?\d+)\))?">/g)];
      const marks = k.segments.reduce((n, s) => n + (s.marks || []).length, 0);
      assert.equal(icons.length, k.segments.filter((s) => s.kind === 'cloister' || s.pennant).length + marks, `${id}: one icon per cloister, pennant or mark`);
      // The board turns the tile by rot quarters: the icon turns back by as many.
      for (const m of icons) assert.equal(+(m[3] || 0) + 90 * rot, 0, `${id}: the icon turns back upright`);
    }
  }
  const withPennant = cat.letters.find((l) => cat.kinds[l].segments.some((s) => s.pennant));
  const pennant = cat.kinds[withPennant].icons.find((i) => i.svg.includes('class="pennant"')).svg;
  const d = pennant.match(/class="pennant" d="([^"]+)"/)[1];
  assert.match(d, /C/, 'a shield has a curved point, not a dot');
  const xs = [...d.matchAll(/-?\d+(?:\.\d+)?/g)].map((m) => +m[0]);
  assert.ok(Math.max(...xs) - Math.min(...xs) >= 22, `the shield is large enough to read in the panel (${d})`);
});
