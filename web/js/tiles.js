// tiles.js: tiles drawn as SVG from the library's catalogue (GET /api/tiles).
// A tile is 100 x 100 units at rotation 0; every shape comes from the
// segments' ports, so no tile has artwork of its own.

import { countryside, roofs, grass, paving, battlements } from './art.js';

export const SIZE = 100;
const PORT_NAMES = ['NNW', 'N', 'NNE', 'ENE', 'E', 'ESE', 'SSE', 'S', 'SSW', 'WSW', 'W', 'WNW'];
const PORT_XY = [
  [25, 0], [50, 0], [75, 0], [100, 25], [100, 50], [100, 75],
  [75, 100], [50, 100], [25, 100], [0, 75], [0, 50], [0, 25],
];
const CORNER = [[0, 0], [100, 0], [100, 100], [0, 100]]; // an edge runs from CORNER[e] to CORNER[e+1]
const INWARD = [[0, 1], [-1, 0], [0, -1], [1, 0]]; // N E S W edges' inward normals
const CENTRE = [50, 50];
const CAP = 32; // depth of a one-edge city
const LENS = 30; // depth of a field cut into a city

export const portIndex = (name) => PORT_NAMES.indexOf(name);

// Quadratic Bézier from a via control c to b, as points (b included).
function quad(a, c, b, n = 12) {
  const pts = [];
  for (let i = 1; i <= n; i++) {
    const t = i / n, u = 1 - t;
    pts.push([u * u * a[0] + 2 * u * t * c[0] + t * t * b[0], u * u * a[1] + 2 * u * t * c[1] + t * t * b[1]]);
  }
  return pts;
}

const EDGE_MID = [[50, 0], [100, 50], [50, 100], [0, 50]];
// The point `depth` units inside the middle of edge e.
const edgeMid = (e, depth) => [EDGE_MID[e][0] + INWARD[e][0] * depth, EDGE_MID[e][1] + INWARD[e][1] * depth];

// The edges (0 N .. 3 W) a city segment covers.
const cityEdges = (seg) => [0, 1, 2, 3].filter((e) => seg.ports.includes(PORT_NAMES[3 * e + 1]));

// A city segment's outline: the path, the walls (its inner sides) and a
// polygon for hit tests.
// `closed`: the tile has a field with no ports amid its cities (IH, TC, TD,
// TF, TN): the cities are drawn shallower, so that the field shows
// between them and its farmer has room.
function cityShape(seg, closed = false) {
  const cap = closed ? 22 : CAP, lens = closed ? 42 : LENS, corner = closed ? 1.4 : 0.8;
  const edges = cityEdges(seg);
  const f = (p) => `${p[0].toFixed(1)},${p[1].toFixed(1)}`;
  if (edges.length === 4) {
    return { d: 'M0,0H100V100H0Z', walls: '', wallLines: [], poly: CORNER };
  }
  let d, walls = '', poly;
  const wallLines = []; // the walls as polylines, for their battlements (art.js)
  if (edges.length === 1 || (edges.length === 2 && (edges[1] - edges[0] === 1 || edges[1] - edges[0] === 3))) {
    // One edge, or two adjacent ones: along the tile's border, then one curve back.
    const first = edges.length === 2 && edges[1] - edges[0] === 3 ? edges[1] : edges[0];
    const last = (first + edges.length - 1) % 4;
    const start = CORNER[first], end = CORNER[(last + 1) % 4];
    const along = [start];
    for (let e = first, k = 0; k < edges.length; k++, e = (e + 1) % 4) along.push(CORNER[(e + 1) % 4]);
    let ctrl;
    if (edges.length === 1) ctrl = edgeMid(first, 2 * cap);
    else {
      const far = CORNER[(last + 2) % 4]; // the corner opposite the city's
      ctrl = [far[0] + corner * (CENTRE[0] - far[0]), far[1] + corner * (CENTRE[1] - far[1])];
    }
    const back = quad(end, ctrl, start);
    poly = along.concat(back);
    d = `M${along.map(f).join('L')}Q${f(ctrl)} ${f(start)}Z`;
    walls = `M${f(end)}Q${f(ctrl)} ${f(start)}`;
    wallLines.push([end, ...back]);
  } else {
    // Two opposite edges or three: the whole tile less a lens per field edge.
    poly = [CORNER[0]];
    d = `M${f(CORNER[0])}`;
    for (let e = 0; e < 4; e++) {
      const a = CORNER[e], b = CORNER[(e + 1) % 4];
      if (edges.includes(e)) {
        poly.push(b);
        d += `L${f(b)}`;
      } else {
        const ctrl = edgeMid(e, 2 * lens);
        poly.push(...quad(a, ctrl, b));
        d += `Q${f(ctrl)} ${f(b)}`;
        walls += `M${f(a)}Q${f(ctrl)} ${f(b)}`;
        wallLines.push([a, ...quad(a, ctrl, b)]);
      }
    }
    d += 'Z';
  }
  return { d, walls, wallLines, poly };
}

// A road or river segment as a path and a polyline: from edge middle to
// edge middle through the centre's pull, or from one edge middle to `end`
// (the centre, unless a bridge takes the road further).
function lineShape(seg, end = CENTRE) {
  const pts = seg.ports.map((p) => PORT_XY[portIndex(p)]);
  const f = (p) => `${p[0]},${p[1]}`;
  if (pts.length === 2) {
    return { d: `M${f(pts[0])}Q50,50 ${f(pts[1])}`, line: [pts[0], ...quad(pts[0], CENTRE, pts[1])] };
  }
  return { d: `M${f(pts[0])}L${f(end)}`, line: [pts[0], end] };
}

// The edge (0 N .. 3 W) of a one-edge road's port.
const edgeOf = (seg) => Math.floor(portIndex(seg.ports[0]) / 3);

// The River (river.md): a river that runs through the middle of a tile
// parts a road that ends there from what it serves. Such a road crosses
// on a bridge: to the city on the far side (RB), or to the cloister, which
// then stands on the far bank (RH). Returns where the road ends and where
// the cloister stands.
function riverLayout(tile) {
  const through = tile.segments.some((s) => s.kind === 'river' && s.ports.length === 2);
  const road = tile.segments.find((s) => s.kind === 'road' && s.ports.length === 1);
  if (!through || !road) return { roadEnd: CENTRE, cloister: [0, 0] };
  const e = edgeOf(road);
  if (tile.segments.some((s) => s.kind === 'cloister')) {
    const shift = [INWARD[e][0] * 24, INWARD[e][1] * 24];
    return { roadEnd: [50 + shift[0] * 0.42, 50 + shift[1] * 0.42], cloister: shift };
  }
  return { roadEnd: edgeMid((e + 2) % 4, 26), cloister: [0, 0] };
}

// The art asks the same grid points of the same polygons many times
// (each kind's trees, roofs, grass and paving): the answers for points
// of whole coordinates are kept with the polygon.
const known = new WeakMap();
function remembered(poly, p, which, compute) {
  const [x, y] = p;
  if (!Number.isInteger(x) || !Number.isInteger(y) || x < -512 || x > 511 || y < -512 || y > 511) return compute(p, poly);
  let memo = known.get(poly);
  if (!memo) known.set(poly, (memo = [new Map(), new Map()]));
  const key = (x + 512) * 1024 + y + 512;
  let v = memo[which].get(key);
  if (v === undefined) memo[which].set(key, (v = compute(p, poly)));
  return v;
}

function inside(p, poly) {
  let isIn = false;
  const px = p[0], py = p[1];
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const xi = poly[i][0], yi = poly[i][1], xj = poly[j][0], yj = poly[j][1];
    if (yi > py !== yj > py && px < ((xj - xi) * (py - yi)) / (yj - yi) + xi) isIn = !isIn;
  }
  return isIn;
}

export function insidePolygon(p, poly) {
  return remembered(poly, p, 0, inside);
}

export function nearLine(p, line, r) {
  for (let i = 1; i < line.length; i++) {
    const [ax, ay] = line[i - 1], [bx, by] = line[i];
    const dx = bx - ax, dy = by - ay;
    const t = Math.max(0, Math.min(1, ((p[0] - ax) * dx + (p[1] - ay) * dy) / (dx * dx + dy * dy || 1)));
    if (Math.hypot(ax + t * dx - p[0], ay + t * dy - p[1]) < r) return true;
  }
  return false;
}

const toward = (p, q, k) => [p[0] + k * (q[0] - p[0]), p[1] + k * (q[1] - p[1])];

// The cloister building, `shift` away from the centre, as a polygon.
const cloisterPoly = ([sx, sy]) => [[36, 64], [36, 44], [50, 32], [64, 44], [64, 64]].map(([x, y]) => [x + sx, y + sy]);

// Where a follower stands on each segment (rotation 0); a river segment
// (where no follower stands) gets the middle of its water, for pointing.
function anchors(tile, shapes, layout) {
  const cities = shapes.filter((s) => s.kind === 'city');
  const roads = shapes.filter((s) => s.kind === 'road');
  const rivers = shapes.filter((s) => s.kind === 'river');
  const hasCloister = tile.segments.some((s) => s.kind === 'cloister');
  const free = (p) => !cities.some((c) => insidePolygon(p, c.poly)) && !roads.some((r) => nearLine(p, r.line, 11)) &&
    !rivers.some((r) => nearLine(p, r.line, 15)) && !(hasCloister && insidePolygon(p, cloisterPoly(layout.cloister)));
  return tile.segments.map((seg, i) => {
    if (seg.kind === 'cloister') {
      const [sx, sy] = layout.cloister;
      return sx || sy ? [76 + sx, 44 + sy] : [66, 72]; // beside the building, not over it
    }
    if (seg.kind === 'field' && !seg.ports.length) return closedFieldAnchor(tile, seg, free);
    if (seg.kind === 'river') {
      const line = shapes[i].line;
      return line.length > 2 ? line[Math.floor(line.length / 2)] : toward(line[0], CENTRE, 0.6);
    }
    if (seg.kind === 'city') return cityAnchor(seg);
    if (seg.kind === 'road') {
      const line = shapes[i].line;
      return line.length > 2 ? line[Math.floor(line.length / 2)] : toward(line[0], CENTRE, 0.45);
    }
    const ports = seg.ports.map((p) => toward(PORT_XY[portIndex(p)], CENTRE, 0.3));
    const mid = [ports.reduce((a, p) => a + p[0], 0) / ports.length, ports.reduce((a, p) => a + p[1], 0) / ports.length];
    const candidates = [mid, ...ports, ...seg.ports.map((p) => toward(PORT_XY[portIndex(p)], CENTRE, 0.14))];
    return candidates.find(free) || candidates[candidates.length - 1];
  });
}

// Where a city's follower stands: amid the middles of its edges.
function cityAnchor(seg) {
  const edges = cityEdges(seg);
  // A whole-tile city: its follower stands low when a cathedral takes the middle (IK).
  if (edges.length === 4) return hasMark(seg, 'cathedral') ? [50, 80] : [50, 50];
  const pts = edges.map((e) => edgeMid(e, 16));
  return [pts.reduce((a, p) => a + p[0], 0) / pts.length, pts.reduce((a, p) => a + p[1], 0) / pts.length];
}

// A field with no ports (IH's amid four cities; TC, TD, TF, TN's between
// two or three): the free point, clear of every city by 6 units all
// round, nearest the middle of the cities it borders (on IH: the tile's
// centre).
function closedFieldAnchor(tile, seg, free) {
  const cities = (seg.borders || []).map((b) => tile.segments[b]).filter((c) => c?.kind === 'city').map(cityAnchor);
  const target = cities.length ? [cities.reduce((a, p) => a + p[0], 0) / cities.length, cities.reduce((a, p) => a + p[1], 0) / cities.length] : CENTRE;
  const clear = ([x, y]) => [[0, 0], [6, 0], [-6, 0], [0, 6], [0, -6]].every(([dx, dy]) => free([x + dx, y + dy]));
  let best = target, bestD = Infinity;
  for (let x = 12; x <= 88; x += 2) {
    for (let y = 12; y <= 88; y += 2) {
      const d = Math.hypot(x - target[0], y - target[1]);
      if (d < bestD && clear([x, y])) [best, bestD] = [[x, y], d];
    }
  }
  return best;
}

// The SVG of one tile kind (rotation 0) and its followers' anchors. The
// river is water with banks, under the roads (a road over it is a bridge);
// the spring and the lake end in a pool. The parts of class "art" (grass,
// trees, crops, battlements, roofs, ruts, ripples) are the
// illustrated theme's: the plain theme hides them (style.css), and they
// keep clear of every follower's spot and every icon (art.js).
function drawTile(tile) {
  const layout = riverLayout(tile);
  const closed = tile.segments.some((s) => s.kind === 'field' && !s.ports.length);
  const shapes = tile.segments.map((seg) => {
    if (seg.kind === 'city') return { kind: 'city', seg, ...cityShape(seg, closed) };
    if (seg.kind === 'road') return { kind: 'road', seg, ...lineShape(seg, layout.roadEnd) };
    if (seg.kind === 'river') return { kind: 'river', seg, ...lineShape(seg) };
    return { kind: seg.kind, seg };
  });
  const at = anchors(tile, shapes, layout);
  // Pennants and cloisters are icons: each drawn around its own centre,
  // so that a turned tile can keep them upright (Catalogue.defs).
  const icons = [];
  tile.segments.forEach((seg, i) => {
    icons.push(...markIcons(seg, at[i], shapes));
    if (seg.pennant) {
      const [x, y] = at[i];
      const clamp = (v) => Math.min(86, Math.max(14, v));
      icons.push({ at: [clamp(x + 22), clamp(y - 6)], svg: PENNANT }); // beside a follower, not under it
    }
    if (seg.kind === 'cloister') {
      const [sx, sy] = layout.cloister;
      icons.push({ at: [50 + sx, 48 + sy], svg: CLOISTER });
    }
  });
  const cloister = tile.segments.some((s) => s.kind === 'cloister') ? cloisterPoly(layout.cloister) : null;
  const room = { tile, shapes, anchors: at, icons, cloister, art: [] };
  let svg = `<rect class="field" width="100" height="100"/>${grass(room)}${countryside(room)}`;
  for (const s of shapes) {
    if (s.kind !== 'river') continue;
    const pool = s.line.length === 2 ? '<circle class="river-bank" cx="50" cy="50" r="17"/><circle class="water" cx="50" cy="50" r="14"/>' : '';
    svg += `<path class="river-bank" d="${s.d}"/>${pool}<path class="water" d="${s.d}"/><path class="art ripples" d="${s.d}"/>`;
  }
  for (const s of shapes) if (s.kind === 'road') svg += `<path class="road-edge" d="${s.d}"/><path class="road" d="${s.d}"/><path class="art ruts" d="${s.d}"/>`;
  for (const s of shapes) {
    if (s.kind === 'city') svg += `<path class="city" d="${s.d}"/>${battlements(s)}<path class="wall" d="${s.walls}"/>`;
  }
  svg += paving(room) + roofs(room);
  const deadEnds = tile.segments.filter((s) => s.kind === 'road' && s.ports.length === 1).length;
  if (deadEnds >= 3 && !cloister) svg += '<rect class="village" x="42" y="42" width="16" height="16"/>';
  return { svg, icons, anchors: at, shapes, art: room.art };
}

const hasMark = (seg, mark) => (seg.marks || []).includes(mark);
const clampIn = (v, m = 14) => Math.min(100 - m, Math.max(m, v));

// Where an inn stands: beside its road (on the side away from cities and
// other roads), about 20 units off the road's follower, never on it.
function innPoint(anchor, line, shapes) {
  let a = line[0], b = line[line.length - 1];
  const k = line.findIndex((p) => Math.hypot(p[0] - anchor[0], p[1] - anchor[1]) < 0.5);
  if (k > 0 && k < line.length - 1) [a, b] = [line[k - 1], line[k + 1]];
  const len = Math.hypot(b[0] - a[0], b[1] - a[1]) || 1;
  const normal = [-(b[1] - a[1]) / len, (b[0] - a[0]) / len];
  const candidates = [22, -22, 18, -18].map((d) => [clampIn(anchor[0] + normal[0] * d, 17), clampIn(anchor[1] + normal[1] * d, 17)]);
  const score = (p) => shapes.filter((s) => s.kind === 'city' && insidePolygon(p, s.poly)).length * 2 +
    shapes.filter((s) => (s.kind === 'road' || s.kind === 'river') && nearLine(p, s.line, 13)).length;
  return candidates.reduce((best, p) => (score(p) < score(best) ? p : best));
}

// The icons of a segment's marks (version 3 of the catalogue; goods came
// with version 4): an inn
// beside its road, a cathedral in its city, goods (Traders & Builders)
// in a row inside their city. Inert for a catalogue without marks.
function markIcons(seg, anchor, shapes) {
  const icons = [];
  const marks = seg.marks || [];
  if (!marks.length) return icons;
  const own = shapes.find((s) => s.seg === seg);
  if (hasMark(seg, 'inn') && own?.line) icons.push({ at: innPoint(anchor, own.line, shapes), svg: INN, mark: 'inn' });
  // What already stands in the city, each with the room it takes: the
  // follower (a figure is about 32 x 38 units), its pennant, a cathedral.
  const taken = [[...anchor, FIGURE_ROOM]];
  if (seg.pennant) taken.push([clampIn(anchor[0] + 22), clampIn(anchor[1] - 6), 13]); // where drawTile puts it
  if (hasMark(seg, 'cathedral')) {
    const at = cityEdges(seg).length === 4 ? [50, 38] : roomIn(own.poly, taken, 26);
    taken.push([...at, 24]);
    icons.push({ at, svg: CATHEDRAL, mark: 'cathedral', r: 24 });
  }
  // Goods: a token of their own beside the follower, never under it.
  for (const m of marks.filter((g) => GOODS[g])) {
    const at = roomIn(own.poly, taken, GOODS_RADIUS);
    taken.push([...at, GOODS_RADIUS]);
    icons.push({ at, svg: `<g transform="scale(${GOODS_SCALE})">${GOODS[m]}</g>`, mark: m, r: GOODS_RADIUS });
  }
  return icons;
}

// The room a figure takes round its spot, in tile units (half its size).
export const FIGURE_ROOM = 17;

// How far a point inside a polygon is from its outline.
function depth(p, poly) {
  let best = Infinity;
  const px = p[0], py = p[1];
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const ax = poly[j][0], ay = poly[j][1], dx = poly[i][0] - ax, dy = poly[i][1] - ay;
    const t = Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy || 1)));
    best = Math.min(best, Math.hypot(ax + t * dx - px, ay + t * dy - py));
  }
  return best;
}

export function depthIn(p, poly) {
  return remembered(poly, p, 1, depth);
}

// A point of a city's polygon whose disc of radius `gap` keeps clear of
// everything in `taken` ([x, y, the room it takes]: its follower, the
// icons already there), as deep in the city as the grid allows; the
// clearest point found when none is clear.
function roomIn(poly, taken, gap) {
  let best = null, bestD = -Infinity;
  for (let y = 14; y <= 86; y += 4) {
    for (let x = 14; x <= 86; x += 4) {
      if (!insidePolygon([x, y], poly)) continue;
      const d = Math.min(...taken.map(([tx, ty, room]) => Math.hypot(tx - x, ty - y) - room));
      const rank = Math.min(d, gap) * 10 + Math.min(depthIn([x, y], poly), 10); // apart first, then off the wall
      if (rank > bestD) [best, bestD] = [[x, y], rank];
    }
  }
  return best || taken[0].slice(0, 2);
}

// An inn: a tavern's sign, a cream board hanging from its post with a
// mug of beer on it, about 32 x 36 units around 0,0: nothing like the
// cloister's chapel (issue 35: both were red-roofed houses).
const INN = '<g transform="scale(1.2)"><path class="inn-post" d="M-13,15V-14H13"/><path class="inn-chain" d="M-5,-14V-9M9,-14V-9"/>' +
  '<rect class="inn" x="-9" y="-9" width="22" height="21" rx="3"/><path class="inn-mug-handle" d="M6,-1H9V6H6"/>' +
  '<rect class="inn-mug" x="-4" y="-3" width="10" height="12" rx="1.5"/><path class="inn-foam" d="M-5,-2C-4,-6 0,-6 1,-4C2,-7 6,-6 7,-2Z"/></g>';
// A cathedral: a nave and a tall spire with a cross, 36 x 48 units, around
// 0,0, drawn 1.45 times larger: the largest building of the game.
const CATHEDRAL = '<g transform="scale(1.45)"><path class="cathedral-aisle" d="M-19,16V4L-15,0H15L19,4V16Z"/><path class="cathedral" d="M-15,16V0L-6,-6V-12L0,-18L6,-12V-6L15,0V16Z"/>' +
  '<path class="cathedral-cross" d="M0,-24V-16M-3,-21H3"/><path class="cathedral-door" d="M-4,16V8A4,4 0 0 1 4,8V16Z"/></g>';
// Traders & Builders' goods, each a token 16 units wide with its own
// pictogram (not colour alone). On a tile a token is GOODS_SCALE times
// larger: 32 units, 19 px at the board's first zoom of 0.6, the zoom this
// project calls normal.
export const GOODS_SCALE = 2;
const GOODS_RADIUS = 8 * GOODS_SCALE;
// Each a pictogram on a disc of its colour: wine a bottle with its label,
// grain a sheaf of three ears tied, cloth a bolt unrolling.
export const GOODS = {
  wine: '<circle class="goods wine" r="8"/><path class="goods-mark" d="M-1.3,-6.4H1.3V-3.3C3.2,-2.5 3.5,-1.2 3.5,.4V6.1H-3.5V.4C-3.5,-1.2 -3.2,-2.5 -1.3,-3.3Z"/>' +
    '<path class="goods-band wine" d="M-3.5,1H3.5V3.8H-3.5Z"/>',
  grain: '<circle class="goods grain" r="8"/><path class="goods-stalk" d="M0,6.4V-2M-3.4,6L0,1L3.4,6M-3,-1L0,1L3,-1"/>' +
    '<ellipse class="goods-ear" cx="0" cy="-4.2" rx="1.5" ry="2.7"/><ellipse class="goods-ear" cx="-3.3" cy="-2.6" rx="1.3" ry="2.4" transform="rotate(-30,-3.3,-2.6)"/>' +
    '<ellipse class="goods-ear" cx="3.3" cy="-2.6" rx="1.3" ry="2.4" transform="rotate(30,3.3,-2.6)"/>',
  cloth: '<circle class="goods cloth" r="8"/><path class="goods-mark" d="M-5.6,-4.2H3V2.6H-5.6Z"/><path class="goods-mark" d="M-5.6,2.6L-4.6,6H4.8L3,2.6"/>' +
    '<ellipse class="goods-mark" cx="3" cy="-.8" rx="1.6" ry="3.4"/><path class="goods-band cloth" d="M-5.6,-1.8H3M-5.6,.6H3"/>',
};

// A pennant: a shield, 22 x 26 units, around 0,0.
const PENNANT = '<path class="pennant" d="M-11,-13H11V-1C11,7 5,11 0,14C-5,11 -11,7 -11,-1Z"/>' +
  '<path class="pennant-mark" d="M-6,-7H6M0,-7V8"/>';
// A cloister: a chapel, its nave and a bell tower with a cross and an
// arched door, about 28 x 44 units around 0,0.
const CLOISTER = '<path class="cloister" d="M-14,16V0L-6,-7H6L14,0V16Z"/><path class="cloister-tower" d="M-5,16V-12L0,-18L5,-12V16Z"/>' +
  '<path class="cloister-belfry" d="M-3,-3V-8.5A3,3 0 0 1 3,-8.5V-3Z"/><path class="cloister-bell" d="M-2.2,-3.6C-2.2,-5 -1.6,-7.6 0,-7.6C1.6,-7.6 2.2,-5 2.2,-3.6Z"/>' +
  '<path class="cloister-cross-edge" d="M0,-28V-18M-4,-24H4"/><path class="cloister-cross" d="M0,-28V-18M-4,-24H4"/><path class="door" d="M-3,16V9A3,3 0 0 1 3,9V16Z"/>';

// The catalogue, prepared for drawing: `kinds[id]` has the tile, its SVG
// and the anchors of its segments; `letters` lists the ids (one or two
// letters: "E", "RD") in the catalogue's order. Version 1 named the id
// `letter`; `set` ("base", "river") came with version 2.
// The parts of a kind that its drawing makes (drawTile).
const DRAWN = ['svg', 'icons', 'anchors', 'shapes', 'art'];

export class Catalogue {
  constructor(json) {
    this.kinds = {};
    for (const t of json.tiles) {
      const id = t.id ?? t.letter;
      // A kind is drawn the first time a part of its drawing is read: a
      // first load draws the few kinds on the board at once and the rest
      // while the page is idle (attachDefs), not all 75 before the table.
      const kind = { ...t, id, set: t.set ?? 'base' };
      let drawn = null;
      for (const key of DRAWN) {
        Object.defineProperty(kind, key, { enumerable: true, get: () => (drawn ??= drawTile(t))[key] });
      }
      this.kinds[id] = kind;
    }
    this.letters = json.tiles.map((t) => t.id ?? t.letter);
    this.defsEl = null;
    this.defined = new Set();
  }

  // Puts the tile drawings in the SVG <defs> `el`: a kind the moment a
  // drawing of it is asked for (tileId, ensure), every other kind a few
  // at a time while the page is idle, so that the board is drawn before
  // the catalogue is. Nothing is drawn twice.
  attachDefs(el) {
    this.defsEl = el;
    const rest = [...this.letters];
    // The tiles-left panel and the hands name kinds without asking
    // (#tile-X): they fill in as the idle steps define them.
    const idle = globalThis.requestIdleCallback
      ? (fn) => globalThis.requestIdleCallback(fn, { timeout: 100 })
      : (fn) => setTimeout(() => fn({ timeRemaining: () => 8, didTimeout: false }), 16);
    const step = (deadline) => {
      // At least one kind a step, even when the wait ran out.
      do this.ensure(rest.shift());
      while (rest.length && deadline.timeRemaining() > 2);
      if (rest.length) idle(step);
      else globalThis.performance?.mark?.('carc-art-all'); // scripts/web-bench.sh's timeline
    };
    idle(step);
  }

  // Makes sure the drawings of tile `id` are in the page's <defs>.
  ensure(id) {
    if (!this.defsEl || this.defined.has(id) || !this.kinds[id]) return;
    this.defined.add(id);
    this.defsEl.insertAdjacentHTML('beforeend', this.defsOf([id]));
  }

  // Whether a tile id is one of The River's.
  isRiver(id) {
    return this.kinds[id]?.set === 'river';
  }

  static async load(url = '/api/tiles') {
    const r = await fetch(url);
    if (!r.ok) throw new Error(`tiles: HTTP ${r.status}`);
    return new Catalogue(await r.json());
  }

  // <g> definitions of every tile, for a <defs>: `tile-X` at rotation 0,
  // and for a kind with icons (pennants, a cloister) `tile-X-rN` for each
  // other rotation N, whose icons turn back by N quarters so that the
  // tile turned by N (tileTransform) shows them upright.
  defs() {
    return this.defsOf(this.letters);
  }

  defsOf(letters) {
    return letters.map((l) => {
      const k = this.kinds[l];
      const rots = k.icons.length ? [0, 1, 2, 3] : [0];
      return rots.map((r) => `<g id="${this.tileId(l, r)}" class="tile">${k.svg}${k.icons.map((i) =>
        `<g class="icon" transform="translate(${i.at[0]},${i.at[1]})${r ? ` rotate(${-90 * r})` : ''}">${i.svg}</g>`).join('')}</g>`).join('');
    }).join('');
  }

  // The id of the drawing of tile `id` placed at `rot` (see defs).
  tileId(id, rot = 0) {
    this.ensure(id);
    return this.kinds[id]?.icons.length && rot % 4 ? `tile-${id}-r${rot % 4}` : `tile-${id}`;
  }

  // The segment that a spot of the record names on a tile placed at `rot`.
  segmentOf(letter, rot, spot) {
    const t = this.kinds[letter];
    if (spot === 'C') return t.segments.findIndex((s) => s.kind === 'cloister');
    if (spot === 'F') return t.segments.findIndex((s) => s.kind === 'field' && !s.ports.length);
    const local = PORT_NAMES[(portIndex(spot) - 3 * rot + 12) % 12];
    return t.segments.findIndex((s) => s.ports.includes(local));
  }

  // Where a spot's follower stands, in the tile's board frame (0..100).
  spotPoint(letter, rot, spot) {
    const seg = this.segmentOf(letter, rot, spot);
    const p = this.kinds[letter].anchors[Math.max(0, seg)];
    return rotatePoint(p, rot);
  }

  // The record's name of segment `seg` of a tile at `rot`: its first port in
  // board directions, "C" for a cloister or "F" for a field with no ports
  // (IH's, amid four cities), as the server names them.
  spotName(letter, rot, seg) {
    const s = this.kinds[letter].segments[seg];
    const ports = s.ports.map((p) => (portIndex(p) + 3 * rot) % 12);
    if (!ports.length) return s.kind === 'field' ? 'F' : 'C';
    return PORT_NAMES[Math.min(...ports)];
  }

  // The spot of the segment whose follower place is nearest to (fx, fy),
  // a point of the tile in board directions (0..100).
  nearestSpot(letter, rot, fx, fy) {
    const anchors = this.kinds[letter].anchors;
    let best = 0, bestD = Infinity;
    anchors.forEach((a, i) => {
      const [x, y] = rotatePoint(a, rot);
      const d = Math.hypot(x - fx, y - fy);
      if (d < bestD) [best, bestD] = [i, d];
    });
    return this.spotName(letter, rot, best);
  }

  // Where a second figure stands beside the first on a spot (a builder
  // or a pig beside its player's follower): the side clear of the tile's
  // goods and other icons, in the tile's board frame (0..100).
  besidePoint(letter, rot, spot) {
    const [x, y] = this.spotPoint(letter, rot, spot);
    const icons = this.kinds[letter].icons.map((i) => [...rotatePoint(i.at, rot), i.r || 12]);
    const sides = [[16, -6], [-16, -6], [0, 18], [0, -18]].map(([dx, dy]) => [x + dx, y + dy]);
    const room = (p) => Math.min(Infinity, ...icons.map(([ix, iy, r]) => Math.hypot(ix - p[0], iy - p[1]) - r));
    return sides.find((p) => room(p) >= FIGURE_ROOM - 3) || sides.reduce((a, b) => (room(b) > room(a) ? b : a));
  }

  kindOf(letter, rot, spot) {
    const seg = this.segmentOf(letter, rot, spot);
    return seg >= 0 ? this.kinds[letter].segments[seg].kind : 'field';
  }
}

// A point of the tile at rotation 0 after `rot` quarter turns clockwise.
export function rotatePoint([x, y], rot) {
  for (let i = 0; i < rot; i++) [x, y] = [100 - y, x];
  return [x, y];
}
