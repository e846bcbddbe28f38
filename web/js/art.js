// art.js: the illustrated theme's countryside on a tile: trees or crops
// in its fields, roofs in its cities (seen from above, so that they read
// the same at every rotation), and the patterns behind grass and paving.
// Everything here is of class "art", which the plain theme hides; none of
// it ever stands where a follower stands or over an icon.

import { insidePolygon, nearLine, depthIn } from './tiles.js';

// The patterns the tiles' art fills with, once for the whole board (put
// in the board's <defs> before the tiles).
export const PATTERNS =
  '<pattern id="art-grass" width="20" height="20" patternUnits="userSpaceOnUse">' +
  '<path class="art-blade" d="M3,6l1,-3M5,6l-0.5,-3.2M13,15l1,-3M15,15l-0.5,-3.2M11,4l0.8,-2.4M6,17l0.6,-2.5"/></pattern>' +
  '<pattern id="art-paving" width="14" height="10" patternUnits="userSpaceOnUse">' +
  '<path class="art-joint" d="M0,0H14M0,5H14M4,0V5M11,5V10"/></pattern>';

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

// The grid's points, shuffled by the tile kind's seed.
function candidates(id, lo = 12, hi = 88, step = 4) {
  const rnd = seeded(id), pts = [];
  for (let y = lo; y <= hi; y += step) for (let x = lo; x <= hi; x += step) pts.push([x, y, rnd()]);
  return pts.sort((a, b) => a[2] - b[2]).map(([x, y]) => [x, y]);
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

// A tree seen from above: its shadow, a crown of two greens.
function tree([x, y], big) {
  const r = big ? 8 : 6.5;
  return `<g class="art tree" transform="translate(${x},${y})"><ellipse class="art-shadow" cx="${f1(r * 0.35)}" cy="${f1(r * 0.45)}" rx="${r}" ry="${f1(r * 0.8)}"/>` +
    `<circle class="art-crown" r="${r}"/><circle class="art-leaf" cx="${f1(-r * 0.3)}" cy="${f1(-r * 0.3)}" r="${f1(r * 0.5)}"/></g>`;
}

// A patch of crops: rows of a ploughed field, turned with the tile kind.
function crops([x, y], turn) {
  return `<g class="art crops" transform="translate(${x},${y}) rotate(${turn})"><rect class="art-soil" x="-9" y="-7" width="18" height="14" rx="2"/>` +
    '<path class="art-row" d="M-7,-4.5H7M-7,-1.5H7M-7,1.5H7M-7,4.5H7"/></g>';
}

// The fields' trees and crops: two or three, never near a spot or an icon.
export function countryside(room) {
  const id = room.tile.id ?? room.tile.letter;
  const ok = (p) => p[0] > 9 && p[0] < 91 && p[1] > 9 && p[1] < 91 && inField(room, p, 9) && clearOfFigures(room, p, 16);
  const rnd = seeded(`${id}#`);
  const spots = pick(id, ok, 3, 24);
  return spots.map((p, i) => (rnd() < 0.3 && i === 0 ? crops(p, Math.round(rnd() * 60 - 30)) : tree(p, rnd() < 0.5))).join('');
}

// A house of a city seen from above: a roof with its ridge and a shaded side.
function roof([x, y], turn) {
  return `<g class="art roof" transform="translate(${x},${y}) rotate(${turn})"><rect class="art-shadow" x="-7.5" y="-4" width="19" height="13" rx="1"/><rect class="art-roof" x="-9.5" y="-6.5" width="19" height="13" rx="1"/>` +
    '<path class="art-roof-shade" d="M-9.5,0H9.5V5.5A1,1 0 0 1 8.5,6.5H-8.5A1,1 0 0 1 -9.5,5.5Z"/><path class="art-ridge" d="M-9.5,0H9.5"/>' +
    '<path class="art-chimney" d="M3.5,-5h3v3h-3Z"/></g>';
}

// The roofs of a tile's cities: deep inside a city, clear of spots and icons.
export function roofs(room) {
  const id = room.tile.id ?? room.tile.letter;
  const cities = room.shapes.filter((s) => s.kind === 'city');
  if (!cities.length) return '';
  const ok = (p) => cities.some((c) => insidePolygon(p, c.poly) && depthIn(p, c.poly) > 11) && clearOfFigures(room, p, 12);
  const rnd = seeded(`${id}^`);
  return pick(`${id}^`, ok, 3, 24).map((p) => roof(p, [0, 90, 8, -8, 82][Math.floor(rnd() * 5)])).join('');
}
