// art.js: the illustrated theme's countryside on a tile: trees or crops
// in its fields, blades of grass, roofs in its cities (seen from above,
// so that they read the same at every rotation), battlements along the
// walls. Each is one path or a few small groups: no pattern, no clip path,
// no filter, which cost a software renderer dearly on every frame of a
// pan (a 124-tile board fell from 60 to about 25 fps with them).
// Everything here is of class "art", which the plain theme hides; none of
// it ever stands where a follower stands or over an icon.

import { insidePolygon, nearLine, depthIn } from './tiles.js';

// A deterministic order of the candidate points of a tile kind: the same
// tile is always drawn the same, two kinds differ.
function seeded(id) {
  let h = 2166136261;
  for (const c of String(id)) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
  return () => {
    h = Math.imul(h ^ (h >>> 15), 2246822507) ^ Math.imul(h ^ (h >>> 13), 3266489909);
    return ((h >>>= 0) % 10000) / 10000;
  };
}

// The grid's points (made once, never changed by their users), in the
// order of the tile kind's seed: a stable sort of the grid, row by row,
// by one draw of the seed each.
const GRID = [];
for (let y = 12; y <= 88; y += 4) for (let x = 12; x <= 88; x += 4) GRID.push([x, y]);
function candidates(id) {
  const rnd = seeded(id), keys = new Float64Array(GRID.length);
  for (let i = 0; i < GRID.length; i++) keys[i] = rnd();
  return Array.from(GRID.keys()).sort((a, b) => keys[a] - keys[b]).map((i) => GRID[i]);
}

const far = (p, q, d) => Math.hypot(p[0] - q[0], p[1] - q[1]) >= d;

// Whether point p keeps `gap` units off every follower's spot and every
// icon (the room of an icon: its r, or 14).
function clearOfFigures(room, p, gap) {
  return room.anchors.every((a) => far(p, a, gap + 10)) && room.icons.every((i) => far(p, i.at, gap + (i.r || 15)));
}

// Whether p is open country: a field, `gap` units from cities, roads,
// the river and a cloister.
function inField(room, p, gap) {
  for (const s of room.shapes) {
    if (s.kind === 'city' && (insidePolygon(p, s.poly) || depthIn(p, s.poly) < gap)) return false;
    if (s.kind === 'road' && nearLine(p, s.line, 6 + gap)) return false;
    if (s.kind === 'river' && nearLine(p, s.line, 12 + gap)) return false;
  }
  return !(room.cloister && (insidePolygon(p, room.cloister) || depthIn(p, room.cloister) < gap));
}

// Up to n points of `ok`, at least `apart` units from each other.
function pick(id, ok, n, apart) {
  const chosen = [];
  for (const p of candidates(id)) {
    if (chosen.length >= n) break;
    if (ok(p) && chosen.every((q) => far(p, q, apart))) chosen.push(p);
  }
  return chosen;
}

const f1 = (v) => v.toFixed(1);

// Each kind of part is one path for the whole tile (a circle as two
// arcs, a turned rectangle as its polygon): a few elements a tile.
const disc = ([x, y], rx, ry = rx) => `M${f1(x - rx)},${f1(y)}a${f1(rx)},${f1(ry)} 0 1 0 ${f1(2 * rx)},0a${f1(rx)},${f1(ry)} 0 1 0 ${f1(-2 * rx)},0Z`;
// The polygon of the rectangle [x0, y0, x1, y1] about `at`, turned by `turn` degrees.
function box(at, [x0, y0, x1, y1], turn) {
  const c = Math.cos((turn * Math.PI) / 180), s = Math.sin((turn * Math.PI) / 180);
  const pt = (x, y) => `${f1(at[0] + x * c - y * s)},${f1(at[1] + x * s + y * c)}`;
  return `M${pt(x0, y0)}L${pt(x1, y0)}L${pt(x1, y1)}L${pt(x0, y1)}Z`;
}
const paths = (parts) => Object.entries(parts).filter(([, d]) => d).map(([cls, d]) => `<path class="${cls}" d="${d}"/>`).join('');

// The fields' trees (seen from above: a shadow, a crown of two greens)
// and a patch of crops (rows of a ploughed field): two or three, never
// near a spot or an icon. Each is listed in room.art ({kind, at}).
export function countryside(room) {
  const id = room.tile.id ?? room.tile.letter;
  const ok = (p) => p[0] > 9 && p[0] < 91 && p[1] > 9 && p[1] < 91 && inField(room, p, 9) && clearOfFigures(room, p, 16);
  const rnd = seeded(`${id}#`);
  const d = { 'art art-shadow': '', 'art art-crown': '', 'art art-leaf': '', 'art art-soil': '', 'art art-row': '' };
  pick(id, ok, 3, 24).forEach((p, i) => {
    if (rnd() < 0.3 && i === 0) {
      const turn = Math.round(rnd() * 60 - 30);
      d['art art-soil'] += box(p, [-9, -7, 9, 7], turn);
      for (const y of [-4.5, -1.5, 1.5, 4.5]) d['art art-row'] += box(p, [-7, y - 0.4, 7, y + 0.4], turn);
      room.art.push({ kind: 'crops', at: p });
      return;
    }
    const r = rnd() < 0.5 ? 8 : 6.5;
    d['art art-shadow'] += disc([p[0] + r * 0.35, p[1] + r * 0.45], r, r * 0.8);
    d['art art-crown'] += disc(p, r);
    d['art art-leaf'] += disc([p[0] - r * 0.3, p[1] - r * 0.3], r * 0.5);
    room.art.push({ kind: 'tree', at: p });
  });
  return paths(d);
}

// The roofs of a tile's cities, houses seen from above (a roof with its
// ridge, a shaded side, a chimney, a shadow): deep inside a city, clear
// of spots and icons.
export function roofs(room) {
  const id = room.tile.id ?? room.tile.letter;
  const cities = room.shapes.filter((s) => s.kind === 'city');
  if (!cities.length) return '';
  const ok = (p) => cities.some((c) => insidePolygon(p, c.poly) && depthIn(p, c.poly) > 11) && clearOfFigures(room, p, 12);
  const rnd = seeded(`${id}^`);
  const d = { 'art art-shadow': '', 'art art-roof': '', 'art art-roof-shade': '', 'art art-ridge': '', 'art art-chimney': '' };
  for (const p of pick(`${id}^`, ok, 3, 24)) {
    const turn = [0, 90, 8, -8, 82][Math.floor(rnd() * 5)];
    d['art art-shadow'] += box(p, [-7.5, -4, 11.5, 9], turn);
    d['art art-roof'] += box(p, [-9.5, -6.5, 9.5, 6.5], turn);
    d['art art-roof-shade'] += box(p, [-9.5, 0, 9.5, 6.5], turn);
    d['art art-ridge'] += box(p, [-9.5, -0.5, 9.5, 0.5], turn);
    d['art art-chimney'] += box(p, [3.5, -5, 6.5, -2], turn);
    room.art.push({ kind: 'roof', at: p });
  }
  return paths(d);
}

// Tufts of grass in the fields: short strokes in one path.
export function grass(room) {
  const id = room.tile.id ?? room.tile.letter;
  const ok = (p) => inField(room, p, 2);
  const tufts = pick(`${id}~`, ok, 14, 11);
  return tufts.length ? `<path class="art grass" d="${tufts.map(([x, y]) => `M${x - 1.5},${y}l-.8,-3M${x},${y}l.2,-3.6M${x + 1.5},${y}l.9,-2.8`).join('')}"/>` : '';
}

// The battlements of a city's walls: small squares every 7 units along
// each wall, just inside the city (one path).
export function battlements(city) {
  let d = '';
  for (const line of city.wallLines) {
    let run = 3.5;
    for (let i = 1; i < line.length; i++) {
      const [ax, ay] = line[i - 1], [bx, by] = line[i];
      const len = Math.hypot(bx - ax, by - ay);
      if (!len) continue;
      const t = [(bx - ax) / len, (by - ay) / len];
      for (; run <= len; run += 7) {
        const p = [ax + t[0] * run, ay + t[1] * run];
        let n = [-t[1], t[0]];
        if (!insidePolygon([p[0] + n[0] * 4, p[1] + n[1] * 4], city.poly)) n = [-n[0], -n[1]];
        const c = [p[0] + n[0] * 3.4, p[1] + n[1] * 3.4], h = 1.9;
        const corner = (u, v) => `${f1(c[0] + t[0] * u + n[0] * v)},${f1(c[1] + t[1] * u + n[1] * v)}`;
        d += `M${corner(-h, -h)}L${corner(h, -h)}L${corner(h, h)}L${corner(-h, h)}Z`;
      }
      run -= len;
    }
  }
  return d ? `<path class="art battlements" d="${d}"/>` : '';
}

// Paving in the cities: a few pairs of joints, in one path.
export function paving(room) {
  const id = room.tile.id ?? room.tile.letter;
  const cities = room.shapes.filter((s) => s.kind === 'city');
  const ok = (p) => cities.some((c) => insidePolygon(p, c.poly) && depthIn(p, c.poly) > 5);
  const stones = cities.length ? pick(`${id}=`, ok, 12, 10) : [];
  return stones.length ? `<path class="art paving" d="${stones.map(([x, y]) => `M${x - 3},${y}h5M${x - 1},${y + 2.6}h5`).join('')}"/>` : '';
}
