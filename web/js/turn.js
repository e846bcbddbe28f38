// turn.js: the player's turn, built from the server's `legal` reply: a
// click (or the arrow keys) chooses a square where the tile fits, and the
// choice stays until another square is chosen; a click on the tile there
// (or R) turns it to its next legal rotation; Place (or Enter) puts it
// down; then the follower step (with a choice of figure when the server
// lists more than the follower: the large follower, the builder, the pig;
// a button each, or L, B, P); then confirm. Nothing is sent before
// confirm, and every step can be undone. With a hand of tiles (hand=N)
// the `legal` reply lists each tile of the hand (`hand`): a click on one
// in the side panel, a drag of one onto the board, or T (the next one)
// chooses the tile to place; a tile that fits nowhere may be discarded.

import { figureOnWords, figureWords, moveWords, plural, rotationWords } from './words.js';

const key = (x, y) => `${x},${y}`;

// The figures a move may carry besides the follower, with their key.
const FIGURE_KEYS = { l: 'large', b: 'builder', p: 'pig' };
const FIGURE_LABELS = { follower: 'Follower', large: 'Large follower', builder: 'Builder', pig: 'Pig' };

// The figure a turn starts with: the follower while the server lists it
// (or lists no figures at all: a server without expansions), else the
// large follower (a follower all the same: the move must say so). Never
// the builder or the pig: the player chooses them (null: no figure yet).
export function defaultFigure(figures) {
  if (!figures?.length || figures.includes('follower')) return 'follower';
  return figures.includes('large') ? 'large' : null;
}

// What a spot of this kind (road, city, field, cloister, river) is called.
const FEATURE = { road: 'the road', city: 'the city', field: 'the farm', farm: 'the farm', cloister: 'the cloister', river: 'the river' };
const NOT_IN_SUPPLY = {
  follower: 'no follower left: all are on the board',
  large: 'your large follower is on the board',
  builder: 'your builder is on the board',
  pig: 'your pig is on the board',
};

// Why `figure` cannot stand on a spot of this kind, in words; `inSupply`:
// whether the player still holds it. The client knows no rule: the
// server said the spot is not the figure's, and this says what that
// means (a follower's feature holds a follower already; the builder
// joins a follower of its player, the pig a farmer).
export function whyNot(figure, kind, inSupply = true) {
  if (!inSupply || !figure) return NOT_IN_SUPPLY[figure || 'follower'];
  if (kind === 'river') return 'nothing stands in the river';
  const feature = FEATURE[kind] || 'this part';
  if (figure === 'builder') return kind === 'road' || kind === 'city' ? `no follower of yours on ${feature}` : 'the builder goes on a road or a city with a follower of yours';
  if (figure === 'pig') return kind === 'field' || kind === 'farm' ? 'no farmer of yours on the farm' : 'the pig goes on a farm with a farmer of yours';
  return `${feature} is taken`;
}

// The bar's line when `figure` has no spot on the placed tile, whose
// segments are of `kinds`: "No follower can stand here: every road and
// city of this tile is taken", "No follower left: all are on the board",
// "The builder cannot stand here: no follower of yours on this tile's
// roads or cities".
export function noSpotWords(figure, kinds, inSupply = true) {
  if (!inSupply || !figure) return cap(NOT_IN_SUPPLY[figure || 'follower']);
  const has = (k) => kinds.includes(k);
  if (figure === 'builder') return `The builder cannot stand here: no follower of yours on this tile's ${has('road') && has('city') ? 'roads or cities' : has('road') ? 'roads' : has('city') ? 'cities' : 'roads or cities (it has none)'}`;
  if (figure === 'pig') return `The pig cannot stand here: ${has('field') ? 'no farmer of yours on this tile\'s farms' : 'this tile has no farm'}`;
  const taken = ['road', 'city', 'field'].filter(has).map((k) => ({ road: 'road', city: 'city', field: 'farm' }[k]));
  const who = figure === 'large' ? 'The large follower cannot stand here' : 'No follower can stand here';
  return taken.length ? `${who}: every ${listWords(taken)} of this tile is taken` : who;
}

// A hint on the bar: its number, what it does, and both figures of the
// search: the chance to win (what hints are ranked by) and the expected
// margin in points ("1: upright, a knight in the city (62% to win, +1.4
// points)").
export function hintText(h, i, what) {
  const margin = h.margin === undefined ? '' : `${h.margin > 0 ? '+' : ''}${h.margin} points`;
  const win = h.win === undefined ? '' : `${Math.round(100 * h.win)}% to win`;
  const figures = [win, margin].filter(Boolean).join(', ');
  return `${i + 1}: ${what}${figures ? ` (${figures})` : ''}`;
}

const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);
const listWords = (list) => (list.length < 2 ? list.join('') : `${list.slice(0, -1).join(', ')} and ${list.at(-1)}`);

// The record's move for a placement, a spot and a figure: the follower is
// the spot alone, another figure the spot and its word ("IH 0 -1 0 F large").
export function moveText(placement, spot, figure = 'follower') {
  if (!spot) return placement;
  return figure && figure !== 'follower' ? `${placement} ${spot} ${figure}` : `${placement} ${spot}`;
}

// The spots of a `legal` placement that take `figure`. The follower and
// the large follower take its `spots`; the builder and the pig (Traders &
// Builders) the spot names listed under their own name (`builder`,
// `pig`), often spots that are not in `spots`: their role is the one in
// `spots`, else the pig's field, else `roleOf(spot)` (the tile's segment).
export function spotsFor(placement, figure, roleOf = () => null) {
  if (figure !== 'builder' && figure !== 'pig') return placement.spots;
  const names = Array.isArray(placement[figure]) ? placement[figure].filter((n) => typeof n === 'string') : [];
  return names.map((spot) => placement.spots.find((s) => s.spot === spot) || { spot, role: figure === 'pig' ? 'field' : roleOf(spot) });
}

export class Turn {
  // board: Board; bar: the action bar element; send(move text) confirms.
  // askHint() (optional) resolves with the server's hint moves.
  constructor(board, bar, send, announce, askHint = null) {
    this.askHint = askHint;
    this.board = board;
    this.bar = bar;
    this.send = send;
    this.announce = announce;
    this.phase = 'wait';
    this.idle = ''; // the bar's line while it is not our turn (TableView)
    bar.addEventListener('click', (e) => {
      const b = e.target.closest('button[data-act]');
      if (b) this.act(b.dataset.act);
    });
  }

  // A `legal.ok` reply for our turn; `near` is the square to start from.
  start(legal, player, near = [0, 0]) {
    this.player = player;
    this.hand = Array.isArray(legal.hand) && legal.hand.length ? legal.hand : null;
    this.handIndex = 0;
    if (this.hand) {
      // The tile chosen last stays chosen when the hand still holds it.
      const kept = this.hand.findIndex((h) => h.tile === this.handTile);
      this.handIndex = kept >= 0 ? kept : 0;
      this.handTile = this.hand[this.handIndex].tile;
      return this.begin({ ...legal, ...this.hand[this.handIndex] }, near);
    }
    this.begin(legal, near);
  }

  // Chooses tile i of the hand (hand=N) to place: the placements are that
  // tile's; the square chosen stays when the tile fits there. False when
  // there is no such tile or no choice to make now.
  selectTile(i) {
    if (!this.hand || !this.hand[i] || !['place', 'discard', 'follower'].includes(this.phase)) return false;
    const near = this.cursor || this.chosen && [this.chosen.x, this.chosen.y] || [0, 0];
    this.handIndex = i;
    this.handTile = this.hand[i].tile;
    this.begin({ ...this.legal, ...this.hand[i], discard: this.hand[i].discard }, near);
    const n = this.hand[i].placements.length;
    this.announce(`tile ${this.handTile} chosen: ${n ? `${plural(this.squares.size, 'square')} where it fits` : `it fits nowhere: ${discardWords(touchInput())}`}`);
    return true;
  }

  // T: the next tile of the hand.
  nextTile() {
    return this.hand ? this.selectTile((this.handIndex + 1) % this.hand.length) : false;
  }

  // A hand tile dropped on square (x, y): it is chosen, and the square too
  // when the tile fits there.
  dropTile(i, x, y) {
    if (!this.selectTile(i)) return;
    if (this.phase === 'place' && this.squares.has(key(x, y))) {
      this.cursor = [x, y];
      this.render();
    }
  }

  begin(legal, near) {
    this.legal = legal;
    this.squares = new Map();
    for (const p of legal.placements) {
      const k = key(p.x, p.y);
      if (!this.squares.has(k)) this.squares.set(k, []);
      this.squares.get(k).push(p);
    }
    this.rot = new Map(); // square -> index into its placements
    this.hints = [];
    this.spot = null;
    this.why = ''; // why the last click or key placed nothing (the bar says it)
    this.figures = legal.figures || ['follower'];
    this.figure = defaultFigure(legal.figures);
    // Traders & Builders: this tile is the builder's second one.
    this.again = !!legal.second_part;
    this.chosen = null;
    this.phase = legal.placements.length ? 'place' : 'discard';
    this.cursor = this.nearest(near);
    this.render();
    this.changed?.();
    // The benchmark's "playable" moment: the first turn ready for input.
    if (!performance.getEntriesByName('carc-playable').length) performance.mark('carc-playable');
    // Every square where the tile fits in view, at the start of the turn
    // (only then: otherwise the board stays where the player put it).
    this.board.showSquares(this.targetSquares());
    if (this.cursor) this.board.showSquares([this.cursor]); // when they are too many to show at once
  }

  // The squares where the drawn tile fits, as [x, y].
  targetSquares() {
    return [...(this.squares?.keys() || [])].map((k) => k.split(',').map(Number));
  }

  stop() {
    this.phase = 'wait';
    this.legal = null;
    this.hand = null;
    this.render();
    this.changed?.();
  }

  nearest([x, y]) {
    let best = null, bestD = Infinity;
    for (const k of this.squares.keys()) {
      const [sx, sy] = k.split(',').map(Number);
      const d = Math.hypot(sx - x, sy - y);
      if (d < bestD) [best, bestD] = [[sx, sy], d];
    }
    return best;
  }

  placementAt(sq) {
    if (!sq) return null;
    const list = this.squares.get(key(...sq));
    return list ? list[(this.rot.get(key(...sq)) || 0) % list.length] : null;
  }

  // --- Input ------------------------------------------------------------------

  // A click or tap on a square; false when the turn has no use for it. A
  // legal square becomes the chosen one; a click on the chosen square
  // turns the tile there. Nothing is placed before Place or Enter.
  // In the follower step a click on the placed tile picks the spot
  // nearest to it (`pt`: the point in the square, {fx, fy}), or says why
  // the chosen figure cannot stand there.
  click(x, y, pt = null) {
    if (this.phase === 'follower') {
      const p = this.chosen, cat = this.board.cat;
      if (pt && cat && p && p.x === x && p.y === y) this.pick(cat.nearestSpot(this.legal.tile, p.rot, pt.fx, pt.fy));
      return true;
    }
    if (this.phase !== 'place' || !this.squares.has(key(x, y))) return false;
    if (this.cursor && this.cursor[0] === x && this.cursor[1] === y) this.rotate();
    else {
      this.cursor = [x, y];
      this.render();
    }
    return true;
  }

  // Arrow keys: the nearest legal square in that direction.
  step(dx, dy) {
    if (this.phase !== 'place' || !this.cursor) return false;
    const [cx, cy] = this.cursor;
    let best = null, bestD = Infinity;
    for (const k of this.squares.keys()) {
      const [x, y] = k.split(',').map(Number);
      const along = (x - cx) * dx + (y - cy) * dy, across = Math.abs((x - cx) * dy) + Math.abs((y - cy) * dx);
      if (along <= 0) continue;
      const d = along + 2 * across;
      if (d < bestD) [best, bestD] = [[x, y], d];
    }
    if (best) {
      this.cursor = best;
      this.render();
      this.board.centreIfHidden(...best);
    }
    return true;
  }

  rotate() {
    if (this.phase !== 'place' || !this.cursor) return;
    const k = key(...this.cursor);
    this.rot.set(k, ((this.rot.get(k) || 0) + 1) % this.squares.get(k).length);
    this.render();
    const p = this.placementAt(this.cursor);
    this.announce(`rotation ${p.rot * 90} degrees`);
  }

  // Puts the tile down: the follower step. The figure stays the one the
  // turn started with (the follower) even when it has no spot here: the
  // bar says why, and the player may choose another figure.
  choose() {
    if (this.phase !== 'place' || !this.cursor) return;
    this.chosen = this.placementAt(this.cursor);
    this.spot = null;
    this.why = '';
    this.phase = 'follower';
    this.render();
    const others = this.otherFigures().filter((f) => f !== this.figure && this.spotsOf(f).length);
    this.announce(placedWords(this.spots().length, others, this.noSpotLine(), touchInput()));
  }

  // Whether the player holds `figure` (a server that lists no figures:
  // the follower).
  holds(figure) {
    return !!figure && (!this.legal?.figures ? figure === 'follower' : this.figures.includes(figure));
  }

  // The segment kinds of the placed tile (road, city, field, ...).
  tileKinds() {
    const k = this.board.cat?.kinds?.[this.legal?.tile];
    return k ? k.segments.map((s) => s.kind) : [];
  }

  // The bar's line when the chosen figure has no spot on the placed tile.
  noSpotLine() {
    return noSpotWords(this.figure, this.tileKinds(), this.holds(this.figure));
  }

  // Why the chosen figure cannot stand on `spot` of the placed tile, and
  // which figure can: "The city is taken; the builder can go there (key B)".
  whyHere(spot) {
    const p = this.chosen, cat = this.board.cat;
    const kind = cat?.kinds && this.legal ? cat.kindOf(this.legal.tile, p.rot, spot) : null;
    const other = this.figures.find((f) => f !== this.figure && this.spotsOf(f).some((s) => s.spot === spot));
    return cap(whyNot(this.figure, kind, this.holds(this.figure))) + (other ? `; ${figureWords(other)} can go there (${figureAction(other, touchInput())})` : '');
  }

  // The spots of the placed tile where the chosen figure cannot go and the
  // builder or the pig can (their key drawn in a dashed circle): a click
  // there says why, and places nothing.
  otherSpots() {
    const mine = new Set(this.spots().map((s) => s.spot)), seen = new Set();
    const list = [];
    for (const f of this.figures.filter((x) => x === 'builder' || x === 'pig')) {
      if (f === this.figure) continue;
      for (const s of this.spotsOf(f)) {
        if (mine.has(s.spot) || seen.has(s.spot)) continue;
        seen.add(s.spot);
        list.push({ ...s, key: figureKey(f), figure: f });
      }
    }
    return list;
  }

  // The spots of the chosen placement that take the chosen figure.
  spots() {
    return this.spotsOf(this.figure);
  }

  // The spots of the chosen placement that take `figure`.
  spotsOf(figure, placement = this.chosen) {
    if (!placement || !figure) return [];
    const cat = this.board.cat, tile = this.legal?.tile;
    return spotsFor(placement, figure, (spot) => (cat && tile ? cat.kindOf(tile, placement.rot, spot) : null));
  }

  // The figures of this turn besides the follower.
  otherFigures() {
    return this.figures.filter((f) => f !== 'follower');
  }

  // Picks a spot for the chosen figure (null: none). A spot the figure
  // cannot take is not picked: the bar says why.
  pick(spot) {
    if (this.phase !== 'follower') return;
    if (spot && !this.spots().some((s) => s.spot === spot)) {
      this.why = this.whyHere(spot);
      this.render();
      this.announce(this.why);
      return;
    }
    this.spot = spot;
    this.why = '';
    this.render();
  }

  // Chooses the figure to stand on the spot; choosing the figure already
  // chosen goes back to the follower (when there is another to go back
  // to: with only the large follower left it stays the figure). A figure
  // with no spot here is not chosen: the bar says why.
  setFigure(figure) {
    if (this.phase !== 'follower' || !this.figures.includes(figure)) return;
    const others = this.figures.filter((f) => f !== figure);
    if (figure === this.figure && !others.length) return;
    if (figure !== this.figure && !this.spotsOf(figure).length) {
      this.why = noSpotWords(figure, this.tileKinds());
      this.render();
      this.announce(this.why);
      return;
    }
    this.figure = figure === this.figure && figure !== 'follower' ? defaultFigure(others) : figure;
    if (this.spot && !this.spots().some((s) => s.spot === this.spot)) this.spot = null;
    this.why = '';
    this.render();
    this.announce(this.figure ? `${figureWords(this.figure)} chosen` : 'no figure chosen');
  }

  digit(n) {
    if (this.phase !== 'follower') return;
    const spots = this.spots();
    if (n === 0) this.pick(null);
    else if (n <= spots.length) this.pick(spots[n - 1].spot);
  }

  undo() {
    if (this.phase === 'follower') {
      this.why = '';
      if (this.spot) this.spot = null;
      else this.phase = 'place';
      this.render();
    }
  }

  confirm() {
    if (this.phase === 'follower') {
      const text = moveText(this.chosen.move, this.spot, this.figure);
      this.phase = 'sent';
      this.render();
      this.send(text);
    } else if (this.phase === 'discard') {
      this.phase = 'sent';
      this.render();
      this.send(this.legal.discard || `discard ${this.legal.tile}`);
    }
  }

  enter() {
    if (this.phase === 'place') this.choose();
    else this.confirm();
  }

  async hint() {
    if (this.phase !== 'place' || !this.askHint) return;
    const turn = this.legal;
    this.announce('The engine is searching for hints…');
    const moves = await this.askHint();
    if (this.legal !== turn || this.phase !== 'place') return;
    this.hints = moves.map((m) => ({ ...m, ...parseHint(m.move) }))
      .filter((h) => this.squares.has(key(h.x, h.y)) && (!this.hand || h.tile === this.legal.tile))
      .map((h) => ({ ...h, role: this.roleOf(h) }));
    this.render();
    this.announce(this.hints.length ? `Hints: ${this.hints.map((h, i) => `${i + 1}, ${this.hintWords(h)}`).join('; ')}. ${touchInput() ? 'Tap one.' : 'Press a digit, or click one.'}` : 'No hint.');
  }

  // The role of a hint's follower spot (road, city, field, cloister), from
  // the legal placements; null without a follower.
  roleOf(h) {
    if (!h.spot) return null;
    const p = this.squares.get(key(h.x, h.y)).find((q) => q.rot === h.rot);
    return p ? this.spotsOf(h.figure, p).find((s) => s.spot === h.spot)?.role || null : null;
  }

  // A hint in words: where, how turned, which follower.
  hintWords(h) {
    return moveWords(h.move, () => h.role);
  }

  // Takes hint i: its square, its rotation, its follower spot.
  applyHint(i) {
    const h = this.hints[i];
    if (!h || this.phase !== 'place') return;
    const list = this.squares.get(key(h.x, h.y));
    this.cursor = [h.x, h.y];
    this.rot.set(key(h.x, h.y), Math.max(0, list.findIndex((p) => p.rot === h.rot)));
    this.choose();
    if (h.figure && h.figure !== this.figure) this.setFigure(h.figure);
    if (h.spot) this.pick(h.spot);
  }

  act(name) {
    if (name?.startsWith('hint-')) return this.applyHint(+name.slice(5));
    if (name?.startsWith('figure-')) return this.setFigure(name.slice(7));
    ({ hint: () => this.hint(), rotate: () => this.rotate(), place: () => this.choose(), none: () => this.pick(null), confirm: () => this.confirm(), undo: () => this.undo() })[name]?.();
  }

  // A key press; true when the turn used it.
  key(e) {
    if (this.phase === 'wait' || this.phase === 'sent') return false;
    const arrows = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (arrows[e.key] && this.phase === 'place') return this.step(...arrows[e.key]);
    if ((e.key === 't' || e.key === 'T') && this.hand) return this.nextTile();
    const figure = FIGURE_KEYS[e.key.toLowerCase()];
    if (figure && this.phase === 'follower' && this.figures.includes(figure)) this.setFigure(figure);
    else if (e.key === 'r' || e.key === 'R') this.rotate();
    else if ((e.key === 'h' || e.key === 'H') && this.askHint) this.hint();
    else if (this.phase === 'place' && /^[1-3]$/.test(e.key) && this.hints.length) this.applyHint(+e.key - 1);
    else if (e.key === 'Enter') this.enter();
    else if ((e.key === 'Escape' || e.key === 'Backspace') && this.phase === 'follower') this.undo();
    else if (/^[0-9]$/.test(e.key)) this.digit(+e.key);
    else return false;
    return true;
  }

  // --- Drawing ----------------------------------------------------------------

  render() {
    const b = this.board, letter = this.legal?.tile;
    document.body.dataset.phase = this.phase;
    if (this.phase === 'place') {
      const squares = [...this.squares.keys()].map((k) => k.split(',').map(Number));
      b.setTargets(squares, this.cursor, this.hints);
      const p = this.placementAt(this.cursor);
      b.setPreview(p && { letter, x: p.x, y: p.y, rot: p.rot });
      b.setSpots(null);
    } else if (this.phase === 'follower' || (this.phase === 'sent' && this.chosen)) {
      b.setTargets([]);
      const p = this.chosen;
      b.setPreview({ letter, x: p.x, y: p.y, rot: p.rot });
      const spots = this.phase === 'follower' ? this.spots().map((s, i) => ({ ...s, n: i + 1 })) : [];
      const chosen = this.spot && this.spots().find((s) => s.spot === this.spot);
      const others = this.phase === 'follower' ? this.otherSpots() : [];
      b.setSpots({ letter, x: p.x, y: p.y, rot: p.rot }, chosen && this.phase === 'sent' ? [{ ...chosen, n: 0 }] : spots, this.spot, this.player, this.figure, others);
    } else {
      b.setTargets([]);
      b.setPreview(null);
      b.setSpots(null);
    }
    this.renderBar();
  }

  // The bar's words on the hand: the tile chosen, and how to choose another.
  handWords() {
    if (!this.hand) return '';
    return `<span class="hint hand-choice">${esc(handChoiceWords(this.legal.tile, this.hand.length, touchInput()))}</span> `;
  }

  // A figure's button: pressed when chosen; disabled (its title saying
  // why) when the figure has no spot on the placed tile.
  figureButton(f) {
    const has = this.spotsOf(f).length > 0;
    const title = has ? (f === 'follower' ? 'the follower' : `key ${figureKey(f)}`) : noSpotWords(f, this.tileKinds());
    return `<button type="button" data-act="figure-${f}" aria-pressed="${f === this.figure}"${has ? '' : ' disabled aria-disabled="true"'} title="${esc(title)}">` +
      `${FIGURE_LABELS[f] || f}</button>`;
  }

  // The hints, best first by the search's chance to win (the server's
  // order), each with that chance and the expected margin.
  hintButtons() {
    const ranked = this.hints.some((h) => h.win !== undefined) ? 'best chance to win first' : 'the engine\'s order';
    return `<span class="hint hints-rank">Hints, ${ranked}:</span>` + this.hints.map((h, i) => {
      const what = `${rotationWords(h.rot)}, ${h.spot ? figureOnWords(h.figure, h.role) : 'no follower'}`;
      const title = `hint ${i + 1}, numbered on the board: ${this.hintWords(h)}; ${h.win === undefined ? '' : `${Math.round(100 * h.win)}% to win, `}expected margin ${h.margin}`;
      return `<button type="button" data-act="hint-${i}" title="${esc(title)}">${esc(hintText(h, i, what))}</button>`;
    }).join('');
  }

  renderBar() {
    const btn = (act, label, hint, primary = false) =>
      `<button type="button" data-act="${act}"${primary ? ' class="primary"' : ''} title="${hint}">${label}</button>`;
    let html = '';
    if (this.phase === 'place') {
      const n = this.cursor ? this.squares.get(key(...this.cursor)).length : 0;
      html = (this.again ? '<strong class="again">Builder: play again.</strong> ' : '') + this.handWords() +
        `<span class="hint">${esc(placeHint(this.squares.size, n, touchInput()))}</span>` +
        (n > 1 ? btn('rotate', '⟳ Rotate', 'R') : '') + btn('place', '✓ Place here', 'Enter', true) +
        (this.askHint ? (this.hints.length ? this.hintButtons() : btn('hint', 'Hint', 'H')) : '');
    } else if (this.phase === 'follower') {
      const n = this.spots().length;
      const others = this.otherFigures();
      const line = n ? `${others.length ? 'A figure' : 'A follower'}? Pick a spot` : this.noSpotLine();
      html = `<span class="hint">${esc(line)}</span>` + (this.why ? `<span class="why" role="alert">${esc(this.why)}</span>` : '') +
        (others.length ? `<span class="figure-choice" role="group" aria-label="figure">` + this.figures.map((f) => this.figureButton(f)).join('') + '</span>' : '') +
        (n ? btn('none', 'No follower', '0') : '') +
        btn('undo', '↶ Undo', 'Esc') + btn('confirm', '✓ Confirm', 'Enter', true);
    } else if (this.phase === 'discard') {
      html = `${this.handWords()}<span class="hint">${this.hand ? `${esc(this.legal.tile)} fits nowhere` : 'The tile fits nowhere'}</span>${btn('confirm', 'Discard it', 'Enter', true)}`;
    } else if (this.phase === 'sent') {
      html = '<span class="hint">Sending your move…</span>';
    } else {
      html = `<span class="hint">${this.idle}</span>`;
    }
    // The bar stays on screen, under the board: it never covers a square.
    this.bar.innerHTML = html;
    this.bar.hidden = false;
  }
}

// Whether the player plays by touch: the last pointer pressed was a finger
// (or a pen), or, before any, a screen with no hover and a coarse pointer.
// A mouse used afterwards brings the mouse's words back.
let lastPointer = null;
globalThis.addEventListener?.('pointerdown', (e) => (lastPointer = e.pointerType), { capture: true, passive: true });
export function touchInput() {
  if (lastPointer) return lastPointer !== 'mouse';
  return !!globalThis.matchMedia?.('(hover: none) and (pointer: coarse)').matches;
}

// The place step's hint: `squares` where the tile fits, `n` rotations on
// the chosen square; on a touch screen the touch action, not a click and
// a key.
export function placeHint(squares, n, touch = false) {
  const turn = touch ? 'tap the tile or ⟳ Rotate' : 'click the tile or R';
  return `Choose a square (${squares} fit)${n > 1 ? `; ${n} rotations here: ${turn}` : ''}`;
}

// The bar's words on a hand of `count` tiles (hand=N): the tile chosen,
// and how to choose another: T with a keyboard, a tap on another tile of
// the hand on a touch screen ("Tile W (T: next tile).").
export function handChoiceWords(tile, count, touch = false) {
  const other = count > 1 ? (touch ? ' (tap another tile of your hand)' : ' (T: next tile)') : '';
  return `Tile ${tile}${other}.`;
}

// How the player chooses `figure` (not the follower): its key, or on a
// touch screen a tap on its button ("key B", "tap Builder").
export function figureAction(figure, touch = false) {
  return touch ? `tap ${FIGURE_LABELS[figure] || figure}` : `key ${figureKey(figure)}`;
}

// How a tile that fits nowhere is discarded: Enter, or its button.
export function discardWords(touch = false) {
  return touch ? 'tap Discard it' : 'Enter discards it';
}

// What is said when the tile is down (the follower step): `n` spots for
// the chosen figure, the `others` figures with a spot here, `noSpot` the
// bar's line when there is no spot; the keys, or on a touch screen the
// taps ("tile placed; 2 follower spots: keys 1 to 2, 0 for none, Enter
// to confirm").
export function placedWords(n, others, noSpot, touch = false) {
  if (touch) {
    const choice = others.length ? `; ${others.map((f) => `${FIGURE_LABELS[f] || f} for ${figureWords(f)}`).join(', ')}` : '';
    return n ? `tile placed; ${plural(n, 'follower spot')}: tap one on the tile, or No follower${choice}; then ✓ Confirm`
      : `tile placed; ${noSpot}${choice}; then ✓ Confirm`;
  }
  const choice = others.length ? `; ${others.map((f) => `${figureKey(f)} for ${figureWords(f)}`).join(', ')}` : '';
  return n ? `tile placed; ${plural(n, 'follower spot')}: ${n === 1 ? 'key 1' : `keys 1 to ${n}`}, 0 for none${choice}, Enter to confirm`
    : `tile placed; ${noSpot}${choice}; Enter to confirm`;
}

// "E 0 -1 2 S" -> {tile, x, y, rot, spot, figure}.
function parseHint(text) {
  const w = text.split(/\s+/);
  return { tile: w[0], x: +w[1], y: +w[2], rot: +w[3], spot: w[4] || null, figure: w[4] ? w[5] || 'follower' : null };
}

const esc = (s) => String(s ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

// The key that chooses a figure ("L" for the large follower).
const figureKey = (figure) => Object.keys(FIGURE_KEYS).find((k) => FIGURE_KEYS[k] === figure)?.toUpperCase() || '';
