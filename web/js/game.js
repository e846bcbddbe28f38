// game.js: a table as the server tells it, folded from its `state` and
// `move` events: the tiles on the board, the followers, the scores after
// each turn and the scoring log. It checks no rule.

// "E 0 -1 2 S" -> {letter, x, y, rot, spot, figure}; "discard X" and
// "end" too. `letter` is the tile's id, of one or two letters ("RD 1 0
// 0"); `figure` the word after the spot ("IH 0 -1 0 F large"), or
// "follower" for a spot alone, null without a spot.
export function parseMove(text) {
  const w = text.trim().split(/\s+/);
  if (w[0] === 'discard') return { discard: true, letter: w[1] };
  if (w[0] === 'end') return { end: true };
  const spot = w[4] || null;
  return { letter: w[0], x: +w[1], y: +w[2], rot: +w[3], spot, figure: spot ? w[5] || 'follower' : null };
}

// The figures besides the followers that a seat may hold, each a count in
// the seat (`state.seats[p]`) and a list per player in a `move` event:
// `large` (Inns & Cathedrals), `builder` and `pig` (Traders & Builders).
// A server or a table without them leaves them out.
export const FIGURES = ['large', 'builder', 'pig'];

// A `move` event's figure counts and goods into the seats; absent fields
// change nothing. `goods` (Traders & Builders) is one object a seat,
// `{"wine":0,"grain":2,"cloth":1}`, as in `state.seats[p].goods`.
export function applySupplies(seats, ev) {
  for (const name of FIGURES) if (Array.isArray(ev[name])) ev[name].forEach((v, p) => (seats[p][name] = v));
  if (Array.isArray(ev.goods)) ev.goods.forEach((v, p) => (seats[p].goods = goodsOf(v)));
}

// The goods types of Traders & Builders, in the library's order.
export const GOODS_NAMES = ['wine', 'grain', 'cloth'];

// A goods object of the server (`{"wine":1,"grain":0,"cloth":2}`) with a
// count for each type; null for anything else (a game without goods).
export function goodsOf(v) {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return null;
  return Object.fromEntries(GOODS_NAMES.map((g) => [g, Number.isInteger(v[g]) && v[g] > 0 ? v[g] : 0]));
}

// Whether an event is worth a line of the log: points scored, goods
// given to the player who completed a city (`bonus` "goods", no points),
// or a road with an inn or a city with a cathedral left unfinished at the
// end (0 points to its holders, said so).
export function isLogged(e) {
  return e.points > 0 || (e.bonus === 'goods' && !!e.complete && !!goodsOf(e.goods)) || wastedAtEnd(e);
}

// An unfinished road or city at the end that scored 0 for those who held
// it: an inn's or a cathedral's (the server's `marks` when it sends them).
function wastedAtEnd(e) {
  if (e.points !== 0 || e.complete || e.bonus || !e.winners?.length || !(e.tiles > 0)) return false;
  if (Array.isArray(e.marks)) return e.marks.includes('inn') || e.marks.includes('cathedral');
  return e.kind === 'road' || e.kind === 'city';
}

// Whether a scoring event is of the final scoring. The server sends the
// final scoring with the last tile's move (or with `end`, when a game is
// ended early) and does not mark it; the library does: `complete` is 1
// for a feature completed in play, 0 for the final scoring (unfinished
// roads, cities and cloisters, and every farm).
export function isFinalScoring(e, mv = {}) {
  return !!mv.end || !e.complete;
}

// A hand game (the house rule hand=N): the N of the table's rules, 0
// without a hand.
export function handSize(state) {
  const rule = (state.rules || []).find((r) => /^hand=\d$/.test(r));
  return rule ? +rule.slice(5) : 0;
}

// Our hand's tiles as shown (`shown`: a tile a slot, the same kind twice
// when the hand holds it twice) against the `legal` reply's hand (each
// kind once, `chosen` the index of the one to place): each slot's index
// in `hand` (-1 for none) and whether it is the one framed as chosen:
// `slot` (the one clicked) when it holds the chosen kind, else the first
// that does. Never two slots framed.
export function handSlots(shown, hand, chosen, slot = -1) {
  const index = shown.map((tile) => (hand ? hand.findIndex((h) => h.tile === tile) : -1));
  const tile = hand?.[chosen]?.tile;
  const framed = tile !== undefined && shown[slot] === tile ? slot : shown.indexOf(tile);
  return shown.map((t, i) => ({ index: index[i], chosen: i === framed && index[i] >= 0 }));
}

// The lines a move of a hand game adds to the log: a discarded hand tile
// (with `reshuffle` it may have gone back into the pile: the server says
// so in `returned`), and the tiles that `you` drew after it (the others'
// draws are hidden: only counted).
export function handLines(m, seats, you) {
  const lines = [];
  const mv = parseMove(m.move);
  const who = (p) => (p === you ? 'You' : seatName(seats[p], p));
  if (mv.discard) {
    const back = !!m.returned;
    lines.push(`${who(m.player)} discarded ${mv.letter}${back ? `: ${mv.letter} went back into the pile` : ' (it fits nowhere)'}`);
  }
  const mine = (m.draws || []).filter((d) => d.player === you && d.tile).map((d) => d.tile);
  if (mine.length) lines.push(`You drew ${mine.join(', ')}`);
  return lines;
}

function seatName(seat, p) {
  if (seat?.kind === 'computer') return `Computer (${(seat.name || 'AI').replace(/^mcts:level=/, '')})`;
  return seat?.name || `Seat ${p + 1}`;
}

export class Table {
  constructor(state) {
    this.load(state);
  }

  // A whole `state` event.
  load(state) {
    this.state = state;
    this.id = state.table;
    this.tiles = [];
    this.history = [new Array(state.players).fill(0)];
    this.log = [];
    this.last = {}; // player -> {x, y, turn}
    this.moves = [];
    this.hand = handSize(state); // hand=N: N, else 0
    if (state.start) this.tiles.push({ letter: state.start.tile, x: state.start.x, y: state.start.y, rot: state.start.rot, turn: -1 });
    for (const m of state.moves || []) this.addMove(m);
    this.followers = state.followers || [];
  }

  // A move (from `state.moves` or a `move` event): its tile and scores.
  addMove(m) {
    this.moves.push(m);
    const mv = parseMove(m.move);
    if (this.hand) {
      const s = this.state;
      for (const text of handLines(m, s.seats, s.you)) this.log.push({ hand: true, text, turn: m.turn, winners: [] });
    }
    if (!mv.discard && !mv.end) {
      this.tiles.push({ letter: mv.letter, x: mv.x, y: mv.y, rot: mv.rot, turn: m.turn, player: m.player });
      this.last[m.player] = { x: mv.x, y: mv.y, turn: m.turn + 1, player: m.player };
    }
    const scores = [...this.history[this.history.length - 1]];
    for (const e of m.events || []) {
      for (const w of e.winners) scores[w] += e.points;
      if (isLogged(e)) this.log.push({ ...e, turn: m.turn, end: isFinalScoring(e, mv) });
    }
    this.history.push(scores);
  }

  // A `move` event: everything it changes.
  applyMove(ev) {
    const s = this.state;
    this.addMove(ev);
    this.followers = ev.followers || this.followers;
    ev.scores.forEach((v, p) => (s.seats[p].score = v));
    ev.supply.forEach((v, p) => (s.seats[p].supply = v));
    applySupplies(s.seats, ev);
    s.turn = ev.next ? ev.next.turn : ev.turn + 1;
    s.to_move = ev.next ? ev.next.player : null;
    s.tile = ev.next ? ev.next.tile : null;
    // Traders & Builders: the next move is the same seat's second tile.
    s.second_part = !!ev.next?.second_part;
    s.tiles_left = ev.tiles_left;
    if (ev.clock) s.clock = ev.clock;
    if (ev.dead) s.dead = ev.dead;
    if (this.hand) {
      // A hand game's event has the hands and the tiles left as this seat counts them.
      if (ev.hand) s.hand = ev.hand;
      if (ev.hands) s.hands = ev.hands;
      if (ev.remaining) s.remaining = ev.remaining;
    } else if (s.remaining && ev.next && s.remaining[ev.next.tile] > 0) s.remaining[ev.next.tile] -= 1;
    if (ev.next_tiles) s.next_tiles = ev.next_tiles;
    this.clockAt = performance.now();
  }

  get you() {
    return this.state.you;
  }

  // Not for a seat its player resigned (the computer plays it: issue 36).
  get myTurn() {
    const s = this.state;
    return s.status === 'playing' && s.you !== null && s.to_move === s.you && s.seats[s.you]?.kind !== 'computer';
  }

  // The followers with the tile they stand on, for drawing.
  followersOnTiles() {
    const at = new Map(this.tiles.map((t) => [`${t.x},${t.y}`, t]));
    return this.followers.map((f) => ({ ...f, ...at.get(`${f.x},${f.y}`), spot: f.spot, player: f.player }))
      .filter((f) => f.letter);
  }

  lastTiles() {
    return Object.values(this.last);
  }
}
