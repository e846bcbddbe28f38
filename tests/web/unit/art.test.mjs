// art.test.mjs: the illustrated theme's art on the real catalogue: trees
// and crops stand in the fields, roofs in the cities, none of them near a
// follower's spot (or a second figure's) or an icon, and every tile kind
// is drawn the same each time, with nothing costly to redraw.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../lib.mjs';
import { Catalogue, insidePolygon, FIGURE_ROOM } from '../../../web/js/tiles.js';

let server, json, cat;
before(async () => {
  server = await startServer({ bin: process.env.CARCASSONNE, webDir: process.env.WEB_DIR });
  json = await (await fetch(`${server.url}/api/tiles`)).json();
  cat = new Catalogue(json);
});
after(() => server.stop());

const dist = (p, q) => Math.hypot(p[0] - q[0], p[1] - q[1]);

test('trees and crops in the fields, roofs in the cities, clear of every spot and icon', () => {
  let trees = 0, roofs = 0;
  for (const l of cat.letters) {
    const k = cat.kinds[l];
    const cities = k.shapes.filter((s) => s.kind === 'city');
    for (const a of k.art) {
      const where = `${l}: a ${a.kind} at ${a.at}`;
      const inCity = cities.some((c) => insidePolygon(a.at, c.poly));
      assert.equal(inCity, a.kind === 'roof', `${where}: ${a.kind === 'roof' ? 'in' : 'out of'} a city`);
      for (const p of k.anchors) assert.ok(dist(a.at, p) >= FIGURE_ROOM + 4, `${where}: clear of the spot at ${p}`);
      for (const i of k.icons) assert.ok(dist(a.at, i.at) >= (i.r || 15) + 8, `${where}: clear of the icon at ${i.at}`);
      if (a.kind === 'roof') roofs++;
      else trees++;
    }
  }
  assert.ok(trees > 100 && roofs > 60, `art on most tiles (${trees} trees and crops, ${roofs} roofs)`);
});

test('each tile kind is drawn the same every time, and none is raster or fetched', () => {
  const again = new Catalogue(json);
  for (const l of cat.letters) assert.equal(again.kinds[l].svg, cat.kinds[l].svg, l);
  const defs = cat.defs();
  assert.doesNotMatch(defs, /<image|href="(?!#)|url\((?!#)/);
  // Nothing that a software renderer redraws dearly on every frame of a pan.
  assert.doesNotMatch(defs, /<pattern|<clipPath|<filter|<mask/);
  assert.ok(cat.letters.filter((l) => cat.kinds[l].shapes.some((s) => s.kind === 'city' && s.walls)).every((l) => /class="art battlements"/.test(cat.kinds[l].svg)), 'battlements on every city wall');
});
