// tiles.test.mjs: the tile drawings from the server's real catalogue: a
// follower stands inside its own segment on every tile, and a spot of the
// record names the segment it should at every rotation.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../lib.mjs';
import { Catalogue, insidePolygon, nearLine, rotatePoint, portIndex } from '../../../web/js/tiles.js';

let server, cat;
before(async () => {
  server = await startServer({ bin: process.env.CARCASSONNE, webDir: process.env.WEB_DIR });
  const r = await fetch(`${server.url}/api/tiles`);
  assert.equal(r.headers.get('content-type'), 'application/json');
  cat = new Catalogue(await r.json());
});
after(() => server.stop());

test('the catalogue has the 24 kinds and 72 tiles of the base game', () => {
  assert.equal(cat.letters.length, 24);
  assert.equal(cat.letters.reduce((n, l) => n + cat.kinds[l].count, 0), 72);
});

test('every follower stands on its own segment', () => {
  for (const l of cat.letters) {
    const t = cat.kinds[l];
    const cities = t.shapes.filter((s) => s.kind === 'city');
    t.segments.forEach((seg, i) => {
      const p = t.anchors[i];
      const where = `${l} segment ${i} (${seg.kind}) at ${p.map((v) => v.toFixed(1))}`;
      assert.ok(p[0] > 0 && p[0] < 100 && p[1] > 0 && p[1] < 100, `${where}: on the tile`);
      if (seg.kind === 'city') assert.ok(insidePolygon(p, t.shapes[i].poly), `${where}: inside its city`);
      if (seg.kind === 'road') assert.ok(nearLine(p, t.shapes[i].line, 1), `${where}: on its road`);
      if (seg.kind === 'field') {
        assert.ok(!cities.some((c) => insidePolygon(p, c.poly)), `${where}: in no city`);
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
