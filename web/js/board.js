// board.js: the board as an SVG that pans and zooms (drag, wheel, pinch,
// keys). It knows no rules: it draws the tiles, followers, marks, legal
// squares and spots it is given, and reports where the player points.

import { SIZE } from './tiles.js';
import { PLAYERS, meepleSvg, shapeSvg } from './players.js';

const NS = 'http://www.w3.org/2000/svg';
const key = (x, y) => `${x},${y}`;

export class Board {
  constructor(svg, catalogue) {
    this.svg = svg;
    this.cat = catalogue;
    svg.innerHTML = '<g class="world">' +
      '<g class="edge"></g><g class="tiles"></g><g class="dead"></g><g class="marks"></g><g class="feature"></g><g class="targets"></g><g class="preview"></g><g class="hints"></g>' +
      '<g class="ghost"></g><g class="meeples"></g><g class="leaving"></g><g class="spots"></g><g class="gains"></g></g>';
    this.world = svg.querySelector('.world');
    this.layers = {};
    for (const name of ['edge', 'tiles', 'dead', 'marks', 'feature', 'targets', 'preview', 'hints', 'ghost', 'meeples', 'leaving', 'spots', 'gains']) this.layers[name] = svg.querySelector(`.${name}`);
    this.placed = new Map(); // "x,y" -> <use>
    this.view = { s: 0.6, tx: 0, ty: 0 };
    this.handlers = { hover() {}, click() {}, spot() {}, moved() {} }; // moved: the player panned or zoomed
    this.pointers = new Map();
    this.figures = null; // the figures drawn: "x,y,spot,player,figure" -> its point (animations)
    this.previewed = null; // the last square the drawn tile was shown on: our tile, which does not slide in
    this.listen();
    this.apply();
  }

  // --- Animations: short (MOTION_MS), skipped by any key or click, none
  // under prefers-reduced-motion (style.css; the figures' exit here).

  static motion() {
    return !globalThis.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
  }

  // Ends the board's running animations at once (their last frame).
  skipAnimations() {
    for (const a of this.svg.getAnimations?.({ subtree: true }) || []) if (MOTIONS.includes(a.animationName)) a.finish();
    this.layers.leaving.innerHTML = '';
  }

  on(name, f) {
    this.handlers[name] = f;
  }

  // --- The view ---------------------------------------------------------------

  apply() {
    const { s, tx, ty } = this.view;
    this.world.setAttribute('transform', `translate(${tx.toFixed(1)},${ty.toFixed(1)}) scale(${s.toFixed(4)})`);
  }

  size() {
    const r = this.svg.getBoundingClientRect();
    return { w: r.width || 300, h: r.height || 300, left: r.left, top: r.top };
  }

  pan(dx, dy) {
    this.view.tx += dx;
    this.view.ty += dy;
    this.apply();
  }

  zoom(factor, cx, cy) {
    const { s } = this.view;
    const ns = Math.min(3, Math.max(0.08, s * factor));
    const k = ns / s;
    if (cx === undefined) {
      const { w, h } = this.size();
      cx = w / 2;
      cy = h / 2;
    }
    this.view.tx = cx - (cx - this.view.tx) * k;
    this.view.ty = cy - (cy - this.view.ty) * k;
    this.view.s = ns;
    this.apply();
  }

  // The height of the board's top strip under its tool buttons (Fit,
  // Centre, zoom) and the winner banner, kept clear of squares when
  // fitting and centring.
  topInset() {
    const over = [...(this.svg.parentElement?.querySelectorAll('.board-tools, .banner:not([hidden])') || [])];
    const top = this.svg.getBoundingClientRect().top;
    return Math.max(0, ...over.map((e) => e.getBoundingClientRect().bottom - top + 4));
  }

  // Shows every tile (and a margin for the squares around them), below
  // the tool buttons.
  fit() {
    const squares = [...this.placed.keys()].map((k) => k.split(',').map(Number));
    if (!squares.length) squares.push([0, 0]);
    const xs = squares.map((p) => p[0]), ys = squares.map((p) => p[1]);
    const x0 = Math.min(...xs) - 1, x1 = Math.max(...xs) + 2, y0 = Math.min(...ys) - 1, y1 = Math.max(...ys) + 2;
    const { w, h: full } = this.size();
    const top = Math.min(this.topInset(), full / 3), h = full - top;
    const s = Math.min(1.2, Math.min(w / ((x1 - x0) * SIZE), h / ((y1 - y0) * SIZE)));
    this.view = { s, tx: w / 2 - ((x0 + x1) / 2) * SIZE * s, ty: top + h / 2 - ((y0 + y1) / 2) * SIZE * s };
    this.apply();
  }

  // Centres on a square, in the part of the board under the tool
  // buttons (centring on the whole height put it under them on a phone).
  centreOn(x, y) {
    const { w, h } = this.size();
    const { s } = this.view;
    const top = Math.min(this.topInset(), h / 3);
    this.view.tx = w / 2 - (x + 0.5) * SIZE * s;
    this.view.ty = top + (h - top) / 2 - (y + 0.5) * SIZE * s;
    this.apply();
  }

  // Centres on a square unless it is already well inside the view.
  centreIfHidden(x, y) {
    const { w, h } = this.size();
    const { s, tx, ty } = this.view;
    const left = x * SIZE * s + tx, top = y * SIZE * s + ty, side = SIZE * s, m = 0.1 * Math.min(w, h);
    if (left < m || top < Math.max(m, this.topInset()) || left + side > w - m || top + side > h - m) this.centreOn(x, y);
  }

  // Brings squares ([[x, y]]: where the drawn tile fits) into view,
  // clear of the tool buttons (viewShowing).
  showSquares(squares) {
    if (!squares.length) return;
    const { w, h } = this.size();
    this.view = viewShowing(this.view, { w, h, top: Math.min(this.topInset(), h / 3) }, squares);
    this.apply();
  }

  // The square under a point of the page.
  squareAt(clientX, clientY) {
    const { left, top } = this.size();
    const { s, tx, ty } = this.view;
    return [Math.floor((clientX - left - tx) / s / SIZE), Math.floor((clientY - top - ty) / s / SIZE)];
  }

  // --- Input ------------------------------------------------------------------

  listen() {
    const svg = this.svg;
    document.addEventListener('keydown', () => this.skipAnimations());
    svg.addEventListener('pointerdown', (e) => {
      this.skipAnimations();
      // The spot pressed, kept before the capture retargets the pointer's events.
      const spot = e.target.closest?.('[data-spot]');
      try {
        svg.setPointerCapture(e.pointerId);
      } catch {
        /* a pointer that cannot be captured still clicks and drags */
      }
      this.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY, x0: e.clientX, y0: e.clientY, spot });
      this.moved = false;
    });
    svg.addEventListener('pointermove', (e) => {
      const p = this.pointers.get(e.pointerId);
      if (!p) {
        if (e.pointerType === 'mouse') this.handlers.hover(...this.squareAt(e.clientX, e.clientY));
        return;
      }
      if (this.pointers.size === 2) {
        const [a, b] = [...this.pointers.values()];
        const before = Math.hypot(a.x - b.x, a.y - b.y);
        p.x = e.clientX;
        p.y = e.clientY;
        const after = Math.hypot(a.x - b.x, a.y - b.y);
        const { left, top } = this.size();
        if (before > 0) this.zoom(after / before, (a.x + b.x) / 2 - left, (a.y + b.y) / 2 - top);
        this.moved = true;
        this.handlers.moved();
        return;
      }
      const dx = e.clientX - p.x, dy = e.clientY - p.y;
      p.x = e.clientX;
      p.y = e.clientY;
      if (this.moved || Math.hypot(e.clientX - p.x0, e.clientY - p.y0) > 6) {
        this.moved = true;
        this.pan(dx, dy);
        this.handlers.moved();
      }
    });
    const up = (e) => {
      const p = this.pointers.get(e.pointerId);
      this.pointers.delete(e.pointerId);
      if (!p || this.moved || this.pointers.size) return;
      if (p.spot) this.handlers.spot(p.spot.dataset.spot);
      else this.handlers.click(...this.squareAt(e.clientX, e.clientY), e.pointerType, this.pointAt(e.clientX, e.clientY));
    };
    svg.addEventListener('pointerup', up);
    svg.addEventListener('pointercancel', (e) => this.pointers.delete(e.pointerId));
    svg.addEventListener('wheel', (e) => {
      e.preventDefault();
      const { left, top } = this.size();
      this.zoom(Math.exp(-e.deltaY * 0.0015), e.clientX - left, e.clientY - top);
      this.handlers.moved();
    }, { passive: false });
  }

  // --- What is drawn ------------------------------------------------------------

  // The tiles on the board: [{letter, x, y, rot}]; only new ones are added.
  // A tile that came by a move (one or two new tiles, not the one the
  // player previewed there) slides in.
  setTiles(tiles) {
    const want = new Set();
    const fresh = tiles.filter((t) => !this.placed.has(key(t.x, t.y)));
    const slide = this.placed.size > 0 && fresh.length <= 2;
    for (const t of tiles) {
      const k = key(t.x, t.y);
      want.add(k);
      if (this.placed.has(k)) continue;
      const use = document.createElementNS(NS, 'use');
      if (slide && k !== this.previewed) use.classList.add('arrive');
      use.setAttribute('href', `#${this.cat.tileId(t.letter, t.rot)}`);
      use.setAttribute('transform', tileTransform(t));
      use.dataset.square = k;
      this.layers.tiles.appendChild(use);
      this.placed.set(k, use);
    }
    for (const [k, el] of this.placed) if (!want.has(k)) {
      el.remove();
      this.placed.delete(k);
    }
  }

  // Figures: [{letter, rot, x, y, spot, player, figure}]; `figure` is
  // "follower" when absent (a server without expansions), else "large",
  // "builder" or "pig". A second figure on the same spot (a builder or a
  // pig beside its player's follower) stands aside, clear of the goods.
  // Figures that left the board since the last call (a scored feature's)
  // rise and fade on their way home, unless a jump took many at once;
  // one whose tile went too (a move taken back) just goes (leavingFigures).
  // Call after setTiles, which says which tiles stay.
  setFollowers(list) {
    const seen = new Map(), now = new Map();
    this.layers.meeples.innerHTML = list.map((f) => {
      const lying = this.cat.kindOf(f.letter, f.rot, f.spot) === 'field';
      const k = `${f.x},${f.y},${f.spot}`, n = seen.get(k) || 0;
      seen.set(k, n + 1);
      const [px, py] = n ? this.cat.besidePoint(f.letter, f.rot, f.spot) : this.cat.spotPoint(f.letter, f.rot, f.spot);
      const x = f.x * SIZE + px, y = f.y * SIZE + py, figure = f.figure || 'follower';
      now.set(`${k},${f.player},${figure},${n}`, { player: f.player, x, y, lying, figure, square: key(f.x, f.y) });
      return meepleSvg(f.player, x, y, lying, '', figure);
    }).join('');
    const gone = leavingFigures(this.figures, now, this.placed);
    this.figures = now;
    if (!gone.length || gone.length > 12 || !Board.motion()) return;
    const g = document.createElementNS(NS, 'g');
    g.innerHTML = gone.map((f) => `<g class="leave">${meepleSvg(f.player, f.x, f.y, f.lying, '', f.figure)}</g>`).join('');
    this.layers.leaving.appendChild(g);
    setTimeout(() => g.remove(), MOTION_MS + 100);
  }

  // A bounded table (table=WxH): the squares beyond its edge shaded, the
  // edge drawn; `edge` is the server's {min_x, max_x, min_y, max_y}, or
  // null. The server offers no square beyond it.
  setEdge(edge) {
    if (!edge) {
      this.layers.edge.innerHTML = '';
      return;
    }
    const x0 = edge.min_x * SIZE, y0 = edge.min_y * SIZE;
    const w = (edge.max_x - edge.min_x + 1) * SIZE, h = (edge.max_y - edge.min_y + 1) * SIZE;
    const far = 100 * SIZE;
    this.layers.edge.innerHTML = `<path class="beyond" fill-rule="evenodd" d="M${-far},${-far}H${far}V${far}H${-far}Z` +
      `M${x0},${y0}v${h}h${w}v${-h}Z"><title>beyond the table's edge</title></path>` +
      `<rect class="table-edge" x="${x0}" y="${y0}" width="${w}" height="${h}"/>`;
  }

  // Dead spots: squares no tile still to come fits, crossed out.
  setDead(squares) {
    this.layers.dead.innerHTML = squares.map(([x, y]) =>
      `<g class="dead-spot"><title>no tile left fits here</title><rect x="${x * SIZE + 6}" y="${y * SIZE + 6}" width="${SIZE - 12}" height="${SIZE - 12}"/>` +
      `<path d="M${x * SIZE + 25},${y * SIZE + 25}l50,50m0,-50l-50,50"/></g>`).join('');
  }

  // Each player's last tile, outlined in its colour with the turn number.
  setMarks(marks) {
    let html = '';
    for (const m of marks) {
      const c = PLAYERS[m.player % PLAYERS.length].colour;
      html += `<g class="last" data-player="${m.player}"><rect x="${m.x * SIZE + 2}" y="${m.y * SIZE + 2}" width="${SIZE - 4}" height="${SIZE - 4}" stroke="${c}"/>` +
        `<rect class="turn-tag" x="${m.x * SIZE + 2}" y="${m.y * SIZE + 2}" width="38" height="17" fill="${c}"/>` +
        `<g transform="translate(${m.x * SIZE + 11},${m.y * SIZE + 10.5}) scale(1.2)">${shapeSvg(m.player)}</g>` +
        `<text x="${m.x * SIZE + 29}" y="${m.y * SIZE + 15}" fill="${PLAYERS[m.player % PLAYERS.length].ink}">${m.turn}</text></g>`;
    }
    this.layers.marks.innerHTML = html;
  }

  // A feature shown whole: [{x, y, spot, kind}] and the tiles they are on.
  // Its tiles are tinted and each of its parts gets a small diamond of the
  // feature's colour: no white disc, which is what an empty follower spot
  // looks like.
  setFeature(parts, tiles) {
    const at = new Map(tiles.map((t) => [key(t.x, t.y), t]));
    const squares = new Set(parts.map((p) => key(p.x, p.y)));
    let html = [...squares].map((k) => {
      const [x, y] = k.split(',').map(Number);
      return `<rect class="feature-tile" x="${x * SIZE + 3}" y="${y * SIZE + 3}" width="${SIZE - 6}" height="${SIZE - 6}"/>`;
    }).join('');
    for (const p of parts) {
      const t = at.get(key(p.x, p.y));
      if (!t) continue;
      const [px, py] = this.cat.spotPoint(t.letter, t.rot, p.spot);
      html += `<path class="feature-part ${p.kind}" d="M${p.x * SIZE + px},${p.y * SIZE + py - 8}l8,8l-8,8l-8,-8z"/>`;
    }
    this.layers.feature.innerHTML = html;
  }

  // The middle of a feature's parts ([{x, y, spot}]) in board units, or null.
  partsCentre(parts, tiles) {
    const at = new Map(tiles.map((t) => [key(t.x, t.y), t]));
    const pts = parts.filter((p) => at.has(key(p.x, p.y))).map((p) => {
      const t = at.get(key(p.x, p.y));
      const [px, py] = this.cat.spotPoint(t.letter, t.rot, p.spot);
      return [p.x * SIZE + px, p.y * SIZE + py];
    });
    if (!pts.length) return null;
    return [pts.reduce((a, q) => a + q[0], 0) / pts.length, pts.reduce((a, q) => a + q[1], 0) / pts.length];
  }

  // Points just scored: [{at: [x, y] in board units, text: "+4", players}],
  // a label in the scorer's colour over each feature.
  // The feature shown (setFeature) glows once as its points appear.
  setGains(list) {
    this.layers.feature.classList.remove('glow');
    if (list.length) {
      this.layers.feature.getBoundingClientRect(); // restarts the glow
      this.layers.feature.classList.add('glow');
    }
    this.layers.gains.innerHTML = list.map((g) => {
      const p = PLAYERS[(g.players[0] ?? 0) % PLAYERS.length];
      const [x, y] = g.at;
      return `<g class="gain" data-players="${g.players.join(' ')}" transform="translate(${x.toFixed(1)},${y.toFixed(1)})">` +
        `<rect x="-24" y="-17" width="48" height="30" rx="8" fill="${p.colour}"/><text y="6" fill="${p.ink}">${g.text}</text></g>`;
    }).join('');
  }

  // The review's best move, drawn faint with a dashed frame: {letter, x,
  // y, rot, spot, player}, or null.
  setGhost(g, tag = 'best') {
    if (!g) {
      this.layers.ghost.innerHTML = '';
      return;
    }
    let html = `<g class="best-move"><use href="#${this.cat.tileId(g.letter, g.rot)}" transform="${tileTransform(g)}" class="ghost-tile"/>` +
      `<rect class="ghost-frame" x="${g.x * SIZE + 2}" y="${g.y * SIZE + 2}" width="${SIZE - 4}" height="${SIZE - 4}"/>` +
      `<text class="ghost-tag" x="${g.x * SIZE + 50}" y="${g.y * SIZE - 6}">${tag}</text>`;
    if (g.spot) {
      const [px, py] = this.cat.spotPoint(g.letter, g.rot, g.spot);
      html += meepleSvg(g.player, g.x * SIZE + px, g.y * SIZE + py, this.cat.kindOf(g.letter, g.rot, g.spot) === 'field', '', g.figure || 'follower');
    }
    this.layers.ghost.innerHTML = `${html}</g>`;
  }

  // The square and the point in it (0..100) under a point of the page.
  pointAt(clientX, clientY) {
    const { left, top } = this.size();
    const { s, tx, ty } = this.view;
    const ux = (clientX - left - tx) / s, uy = (clientY - top - ty) / s;
    const x = Math.floor(ux / SIZE), y = Math.floor(uy / SIZE);
    return { x, y, fx: ux - x * SIZE, fy: uy - y * SIZE };
  }

  // Squares where the drawn tile fits; `cursor` is the keyboard's square;
  // `hints` ([{x, y}]) are numbered.
  setTargets(squares, cursor = null, hints = []) {
    this.layers.targets.innerHTML = squares.map(([x, y]) => {
      const on = cursor && cursor[0] === x && cursor[1] === y ? ' cursor' : '';
      return `<rect class="target${on}" data-target="${key(x, y)}" x="${x * SIZE + 4}" y="${y * SIZE + 4}" width="${SIZE - 8}" height="${SIZE - 8}" rx="8"/>`;
    }).join('');
    const onSquare = new Map();
    this.layers.hints.innerHTML = hints.map((h, i) => {
      const k = onSquare.get(key(h.x, h.y)) || 0; // hints sharing a square sit side by side
      onSquare.set(key(h.x, h.y), k + 1);
      const cx = h.x * SIZE + 82 - 28 * k, cy = h.y * SIZE + 18;
      return `<g class="hint"><circle cx="${cx}" cy="${cy}" r="13"/><text x="${cx}" y="${cy + 5}">${i + 1}</text></g>`;
    }).join('');
  }

  // The drawn tile shown on a square: {letter, x, y, rot}, or null.
  setPreview(p) {
    if (p) this.previewed = key(p.x, p.y);
    this.layers.preview.innerHTML = p
      ? `<use href="#${this.cat.tileId(p.letter, p.rot)}" transform="${tileTransform(p)}" class="preview-tile"/>` +
        `<rect class="preview-frame" x="${p.x * SIZE}" y="${p.y * SIZE}" width="${SIZE}" height="${SIZE}"/>`
      : '';
  }

  // Follower spots on the placed tile: [{spot, n}], the chosen one, the
  // player, and the figure chosen (drawn on the chosen spot). `others`
  // ([{spot, role, key, figure}]): spots of another figure only (the
  // builder's, the pig's), a dashed circle with that figure's key; a
  // click on one reports the spot like any other.
  setSpots(tile, spots, chosen, player, figure = 'follower', others = []) {
    if (!tile) {
      this.layers.spots.innerHTML = '';
      return;
    }
    let html = '';
    for (const s of spots) {
      const [px, py] = this.cat.spotPoint(tile.letter, tile.rot, s.spot);
      const x = tile.x * SIZE + px, y = tile.y * SIZE + py;
      if (s.spot === chosen) {
        html += meepleSvg(player, x, y, s.role === 'field', ` data-spot="${s.spot}"`, figure);
      } else {
        html += `<g class="spot" data-spot="${s.spot}" role="button" aria-label="${s.role} ${s.spot}"><circle cx="${x}" cy="${y}" r="10"/>` +
          `<text x="${x}" y="${y + 4}">${s.n}</text></g>`;
      }
    }
    for (const s of others) {
      const [px, py] = this.cat.spotPoint(tile.letter, tile.rot, s.spot);
      const x = tile.x * SIZE + px, y = tile.y * SIZE + py;
      html += `<g class="spot-other" data-spot="${s.spot}" data-figure="${s.figure}" role="button" aria-label="${s.role} ${s.spot}: for ${s.figure} only">` +
        `<circle cx="${x}" cy="${y}" r="10"/><text x="${x}" y="${y + 4}">${s.key}</text></g>`;
    }
    this.layers.spots.innerHTML = html;
  }
}

// The figures drawn before (`before`, a Map of key -> {square, ...}, or
// null on the first drawing) that are not drawn now (`now`) and whose tile
// is still on the board (`tiles`: a Map or Set of "x,y"): those went home
// from a scored feature and get the leaving animation. A figure whose tile
// went with it was taken back with its move (a takeback, a replay stepping
// back): no animation, it was never scored.
export function leavingFigures(before, now, tiles) {
  if (!before) return [];
  return [...before].filter(([k, f]) => !now.has(k) && tiles.has(f.square)).map(([, f]) => f);
}

// The view ({s, tx, ty}) that shows squares ([[x, y]]) in a board of
// w x h pixels whose top `top` pixels are under its tool buttons: the
// same view when they all are in sight; else the least pan that brings
// them in, zooming out only when they do not fit at this zoom (no
// further than keeps a square `minSide` pixels wide; past that their
// box is centred).
export function viewShowing(view, { w, h, top = 0 }, squares, minSide = 36) {
  const m = 6;
  top = Math.max(top, m);
  const xs = squares.map((q) => q[0]), ys = squares.map((q) => q[1]);
  const x0 = Math.min(...xs) * SIZE, x1 = (Math.max(...xs) + 1) * SIZE, y0 = Math.min(...ys) * SIZE, y1 = (Math.max(...ys) + 1) * SIZE;
  let { s, tx, ty } = view;
  const fits = Math.min((w - 2 * m) / (x1 - x0), (h - top - m) / (y1 - y0));
  if (fits < s) {
    const ns = Math.max(fits, Math.min(s, minSide / SIZE));
    const k = ns / s; // zoom about the view's middle
    tx = w / 2 - (w / 2 - tx) * k;
    ty = h / 2 - (h / 2 - ty) * k;
    s = ns;
  }
  const shift = (lo, hi, min, max) => (hi - lo > max - min ? (min + max) / 2 - (lo + hi) / 2 : lo < min ? min - lo : hi > max ? max - hi : 0);
  tx += shift(x0 * s + tx, x1 * s + tx, m, w - m);
  ty += shift(y0 * s + ty, y1 * s + ty, top, h - m);
  return { s, tx, ty };
}

// The board's animations (style.css) and their length: each at most 300 ms.
export const MOTION_MS = 300;
const MOTIONS = ['arrive', 'leave', 'glow'];

function tileTransform(t) {
  return `translate(${t.x * SIZE},${t.y * SIZE}) rotate(${t.rot * 90},50,50)`;
}
