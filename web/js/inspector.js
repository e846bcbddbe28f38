// inspector.js: a feature pointed at (or just scored) shown whole: every
// segment of it on the board, its owners, its value now and at the end.
// The server says what a feature is (`features`); this only draws it.

import { badge } from './players.js';
import { esc, seatName } from './panel.js';
import { GOODS_NAMES } from './game.js';
import { plural } from './words.js';

const NAMES = { road: 'Road', city: 'City', farm: 'Farm', cloister: 'Cloister' };

// A feature of the `features` answer in words: its state ("open (1 open
// edge)"), its size, and what it is worth: `value` if it were completed
// now, `value_at_end` if the game ended now (carc_feature).
export function featureWords(f) {
  const state = f.kind === 'farm' ? 'scores at the end' : f.complete ? 'complete'
    : `open (${f.kind === 'cloister' ? plural(f.open_edges, 'empty neighbour') : plural(f.open_edges, 'open edge')})`;
  const size = `${plural(f.tiles, 'tile')}${f.pennants ? `, ${plural(f.pennants, 'pennant')}` : ''}`;
  let worth;
  if (f.kind === 'farm') worth = `Worth <strong>${f.value_at_end}</strong> if the game ended now (3 for each completed city it serves).`;
  else if (f.complete) worth = `Scored <strong>${f.value}</strong> when it was completed.`;
  else worth = `Worth <strong>${f.value}</strong> if completed as it stands, <strong>${f.value_at_end}</strong> if the game ended now.`;
  return { state, size, worth, marks: marksWords(f) };
}

// What the followers' count on a feature is, at a table that plays Inns
// & Cathedrals (its `expansions`): " (strength: the large follower counts
// 2)"; '' elsewhere, though the server counts a large follower of 0 in
// every game (a server that sends no `expansions`: when the seats have
// `large` and the feature `marks`).
export function strengthWords(f, state) {
  const ex = state.expansions;
  const plays = Array.isArray(ex) ? ex.includes('inns-cathedrals') : f.marks !== undefined && state.seats.some((s) => typeof s.large === 'number');
  return plays ? ' (strength: the large follower counts 2)' : '';
}

// What a feature's marks (`features[].marks`) do to its worth: the inn
// (Inns & Cathedrals) and the cathedral, and the goods (Traders &
// Builders); '' without marks.
export function marksWords(f) {
  const marks = f.marks || [];
  const lines = [];
  const inns = marks.filter((m) => m === 'inn').length, cathedrals = marks.filter((m) => m === 'cathedral').length;
  if (inns) lines.push(`${inns > 1 ? `${plural(inns, 'inn')} on this road` : 'An inn on this road'}: 2 points a tile when complete, nothing if it is unfinished at the end.`);
  if (cathedrals) lines.push(`${cathedrals > 1 ? `${plural(cathedrals, 'cathedral')} in this city` : 'A cathedral in this city'}: 3 points a tile and pennant when complete, nothing if it is unfinished at the end.`);
  // features.ok names each goods type the city holds once.
  const goods = GOODS_NAMES.filter((g) => marks.includes(g));
  if (goods.length) lines.push(`Goods: ${goods.join(', ')}, to the player who completes it (whoever holds it); 10 points for the most of each type at the end.`);
  return lines.join(' ');
}

export class Inspector {
  constructor(view, card) {
    this.view = view; // the TableView: conn, id, board, table
    this.card = card;
    this.cache = null; // {turn, features}
  }

  async features() {
    const t = this.view.table;
    const stamp = `${t.state.turn}:${t.state.status}`;
    if (this.cache?.stamp !== stamp) {
      const ok = await this.view.conn.request('features', { table: this.view.id });
      this.cache = { stamp, features: ok.features };
    }
    return this.cache.features;
  }

  // The feature of the segment nearest to a point of square (x, y).
  async inspectAt(x, y, fx, fy) {
    const tile = this.view.table.tiles.find((t) => t.x === x && t.y === y);
    if (!tile) return this.clear();
    const cat = this.view.board.cat;
    const spot = cat.nearestSpot(tile.letter, tile.rot, fx, fy);
    if (cat.kindOf(tile.letter, tile.rot, spot) === 'river') return this.showRiver();
    const list = await this.features();
    const f = list.find((g) => g.parts.some(([px, py, s]) => px === x && py === y && s === spot));
    if (f) this.show([f], true);
    else this.clear();
  }

  // The features of a scoring event: of its kind, on its tile.
  async forEvent(e) {
    const list = await this.features().catch(() => []);
    const found = list.filter((f) => f.kind === e.kind && f.parts.some(([x, y]) => x === e.x && y === e.y));
    this.show(found, false);
    return found;
  }

  show(features, describe) {
    const parts = features.flatMap((f) => f.parts.map(([x, y, spot]) => ({ x, y, spot, kind: f.kind })));
    this.view.board.setFeature(parts, this.view.table.tiles);
    if (!describe || !features.length) {
      this.card.hidden = true;
      return;
    }
    const f = features[0], seats = this.view.table.state.seats;
    const holders = f.followers.map((n, p) => (n ? `${badge(p, 14)} ${esc(seatName(seats[p], p))}: ${n}` : '')).filter(Boolean);
    const owners = f.owners.map((p) => esc(seatName(seats[p], p))).join(' and ');
    const { state, size, worth, marks } = featureWords(f);
    const strength = strengthWords(f, this.view.table.state);
    this.card.innerHTML = `<h2>${NAMES[f.kind] || f.kind}</h2><button type="button" class="close" aria-label="close the inspector">×</button>` +
      `<p>${state}; ${size}</p>` +
      `<p>Followers${strength}: ${holders.length ? holders.join(', ') : 'none'}${owners ? `<br>Held by ${owners}` : ''}</p>` +
      `<p>${worth}</p>${marks ? `<p class="marks">${marks}</p>` : ''}`;
    this.card.hidden = false;
    this.card.querySelector('.close').onclick = () => this.clear();
    this.view.say(`${NAMES[f.kind]}: ${state}. ${worth.replace(/<\/?strong>/g, '')}${marks ? ` ${marks}` : ''}${owners ? ` Held by ${owners}.` : ''}`);
  }

  // The river is no feature (river.md): nothing to show on the board.
  showRiver() {
    this.view.board.setFeature([], []);
    this.card.innerHTML = '<h2>The river</h2><button type="button" class="close" aria-label="close the inspector">×</button>' +
      '<p>No feature: no follower stands on it and it never scores. It parts the fields on its banks.</p>';
    this.card.hidden = false;
    this.card.querySelector('.close').onclick = () => this.clear();
    this.view.say('The river: no follower, never scored.');
  }

  clear() {
    this.view.board.setFeature([], []);
    this.card.hidden = true;
  }
}
