// panel.js: the side of the table: the score track (score, laps, followers
// in supply, whose turn, the clock), the drawn tile, the tiles left with
// their chances, and the log of scoring events.

import { PLAYERS, badge, meepleIcon } from './players.js';
import { plural, article, timeLeftWords } from './words.js';
import { GOODS } from './tiles.js';
import { GOODS_NAMES, goodsOf } from './game.js';

const esc = (s) => String(s ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
export { esc };

// A seat's name: a computer seat's is its player spec, said as
// "Computer (normal)" ("mcts:level=normal"), "Computer (greedy)".
// A seat that a player resigned (issue 36: the state's `resigned`) is the
// computer's and keeps the player's name: "Ann (resigned)".
export function seatName(seat, p) {
  if (seat.resigned) return `${seat.name || `Seat ${p + 1}`} (resigned)`;
  if (seat.kind === 'computer') return `Computer (${computerWords(seat.name)})`;
  return seat.name || `Seat ${p + 1} (${seat.kind})`;
}

// Whether a computer seat's name is its player spec (as the server names
// a computer seat: "mcts:level=easy", "greedy", "random", "engine:...").
export function isComputerSpec(name) {
  return /^(mcts|greedy|random|engine)(:|$)/.test(String(name));
}

// A computer player's spec in a word or two: "mcts:level=hard" -> "hard",
// "mcts:ms=1000" -> "mcts, 1000 ms a move", "greedy" -> "greedy".
export function computerWords(spec) {
  const text = String(spec || 'AI');
  const level = text.match(/^mcts:(?:.*[,+])?level=(\w+)/);
  if (level) return level[1];
  const ms = text.match(/^(\w[\w-]*):(?:.*[,+])?ms=(\d+)/);
  if (ms) return `${ms[1]}, ${ms[2]} ms a move`;
  return text;
}

// A minutes clock as m:ss; a days clock (correspondence) as "2 d 5 h left".
export function clockText(ms, mode = 'move') {
  if (mode === 'days') return timeLeftWords(ms);
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

// The time left of seat p now, counting down for the seat to move.
// A days clock shows only the seat to move, from its deadline.
export function clockLeft(table, p) {
  const c = table.state.clock;
  if (!c) return null;
  if (c.mode === 'days') return c.running === p && typeof c.deadline_ms === 'number' ? Math.max(0, c.deadline_ms - Date.now()) : null;
  let left = c.left_ms[p];
  if (c.running === p && table.clockAt) left -= performance.now() - table.clockAt;
  return left;
}

// A seat's rating in the table's category, as the server gives it beside
// an account's seat or a computer level: "1662", or "1500?" while it is
// provisional (a large RD); '' for a seat without one.
export function ratingText(seat) {
  return typeof seat?.rating === 'number' ? `${seat.rating}${seat.provisional ? '?' : ''}` : '';
}

// A seat's name at the table, with its rating. A person with a rating is
// an account (or every person at a rated table is), so the name links to
// the player page.
function nameHtml(seat, p, rated) {
  const text = esc(seatName(seat, p));
  if ((!rated && !ratingText(seat)) || seat.kind !== 'human' || !seat.name) return text;
  return `<a href="/?player=${encodeURIComponent(seat.name)}" title="${esc(seat.name)}'s player page: ratings and games">${text}</a>`;
}

function ratingHtml(seat) {
  const rating = ratingText(seat);
  return rating ? ` <span class="rating" title="rating${seat.provisional ? ' (provisional: few games yet)' : ''}">${rating}</span>` : '';
}

export function renderPlayers(el, table) {
  const s = table.state;
  el.innerHTML = s.seats.map((seat, p) => {
    const turn = s.status === 'playing' && s.to_move === p;
    const score = seat.score, lap = Math.floor(score / 50);
    const left = clockLeft(table, p);
    return `<li class="player${turn ? ' to-move' : ''}${seat.present || seat.kind !== 'human' ? '' : ' away'}" data-player="${p}">` +
      `${badge(p)}<span class="name">${nameHtml(seat, p, s.rated)}${p === s.you ? ' (you)' : ''}${ratingHtml(seat)}</span>` +
      `<span class="score" title="score">${score}</span>` +
      `<span class="track" aria-hidden="true"><span style="width:${(score % 50) * 2}%;background:${PLAYERS[p % PLAYERS.length].colour}"></span></span>` +
      `<span class="laps">${lap ? `lap ${lap + 1}` : ''}</span>` +
      `<span class="supply" title="followers in supply">${meepleIcon(p)}×${seat.supply}</span>` + extrasHtml(seat, p, s.expansions) +
      handHtml(s.hands?.[p], p === s.you) +
      (left !== null ? `<span class="clock${turn ? ' running' : ''}">${clockText(left, s.clock.mode)}</span>` : '') +
      (turn ? '<span class="turn-mark">to move</span>' : '') + '</li>';
  }).join('');
}

// A seat's hand (hand=N) on the score track: its tiles face up where the
// server shows them (open-hands, the end), else face down, one back each.
export function handHtml(hand, mine) {
  if (!hand) return '';
  const tiles = Array.isArray(hand.tiles) ? hand.tiles : null;
  const title = tiles ? `hand: ${tiles.join(', ') || 'empty'}` : `hand: ${plural(hand.count, 'tile')}, face down`;
  const faces = tiles
    ? tiles.map((t) => `<svg class="hand-tile" data-tile="${esc(t)}" viewBox="0 0 100 100" width="18" height="18" aria-hidden="true"><use href="#tile-${esc(t)}"/></svg>`)
    : Array.from({ length: hand.count }, () => '<span class="hand-back" aria-hidden="true"></span>');
  return `<span class="hand${mine ? ' mine' : ''}" data-count="${hand.count}" title="${esc(title)}"><span class="sr-only">${esc(title)}</span>${faces.join('')}</span>`;
}

// The figures besides the followers a seat holds in its supply, each
// shown only when the state has it and, when the table's `expansions` are
// known, only with its expansion (the server counts a large follower of 0
// in every game): the large follower (Inns & Cathedrals), the builder and
// the pig (Traders & Builders).
const FIGURE_WORDS = { large: 'large follower', builder: 'builder', pig: 'pig' };
const FIGURE_SET = { large: 'inns-cathedrals', builder: 'traders-builders', pig: 'traders-builders' };
export function figuresHtml(seat, p, expansions = null) {
  const played = (f) => !Array.isArray(expansions) || expansions.includes(FIGURE_SET[f]);
  return Object.keys(FIGURE_WORDS).filter((f) => typeof seat[f] === 'number' && played(f)).map((f) =>
    `<span class="supply figure-${f}" data-figure="${f}" title="${FIGURE_WORDS[f]}: ${seat[f] ? 'in the supply' : 'on the board'}">` +
    `${meepleIcon(p, 14, f)}×${seat[f]}</span>`).join('');
}

// The figures and goods of a seat, on a line of their own; nothing for a
// game without expansions.
function extrasHtml(seat, p, expansions) {
  const html = figuresHtml(seat, p, expansions) + goodsHtml(seat);
  return html ? `<span class="extras">${html}</span>` : '';
}

// A seat's goods tokens (Traders & Builders: `goods`, an object of counts
// by type, public), a token and a count each; nothing when the seat has
// no goods object (a game without the expansion).
export function goodsHtml(seat) {
  const goods = goodsOf(seat.goods);
  if (!goods) return '';
  return `<span class="goods-count" title="goods: ${GOODS_NAMES.map((g) => `${goods[g]} ${g}`).join(', ')}">` +
    GOODS_NAMES.map((g) => `<span class="good ${g}" data-good="${g}"><svg width="14" height="14" viewBox="-9 -9 18 18" aria-hidden="true">` +
      `${GOODS[g]}</svg>${goods[g]}</span>`).join('') + '</span>';
}

// The pile the next tile comes from, from a casual table's `remaining`
// (tiles left by kind) and `next_tiles` (what the next draw can give):
// with The River, the river pile while it lasts (the lake drawn last, so
// at 0% until it is the only one), else the main pile. Kinds in the
// catalogue's order. `cat` tells river tiles apart (Catalogue.isRiver).
export function pileOf(state, cat) {
  const next = state.next_tiles || state.remaining || {};
  const river = Object.keys(next).some((k) => next[k] > 0 && cat.isRiver(k));
  const total = Object.values(next).reduce((a, c) => a + c, 0);
  const kinds = cat.letters.filter((k) => (state.remaining[k] || 0) > 0 && cat.isRiver(k) === river)
    .map((k) => ({ id: k, left: state.remaining[k], chance: total ? (next[k] || 0) / total : 0 }));
  return { river, kinds, riverLeft: river ? kinds.reduce((a, k) => a + k.left, 0) : 0 };
}

// The tiles left: each kind with its count and draw chance (casual), or
// only the count (purist).
export function renderTilesLeft(el, table, cat) {
  const s = table.state;
  const n = s.tiles_left;
  const dead = s.dead?.length ? `<p>${plural(s.dead.length, 'dead spot')} (crossed out on the board): no tile left fits there.</p>` : '';
  if (!n) {
    el.innerHTML = `<p>${s.status === 'playing' ? 'This is the last tile.' : 'No tile left.'}</p>${dead}`;
    return;
  }
  if (!s.remaining) {
    el.innerHTML = `<p>${plural(n, 'tile')} left (this table hides which).</p>`;
    return;
  }
  const pile = pileOf(s, cat);
  const discards = table.moves.map((m) => [m, m.move.split(' ')]).filter(([, w]) => w[0] === 'discard')
    .map(([m, w]) => `${esc(w[1])} (turn ${m.turn + 1})`);
  // A hand game: the pile's size; the kinds count the hands we do not see too.
  const left = table.hand ? `${plural(n, 'tile')} in the pile (with the hidden hands, ${pile.kinds.reduce((a, k) => a + k.left, 0)} unseen)` : `${plural(n, 'tile')} left`;
  const head = pile.river
    ? `<p class="river-pile">${left}. <strong>The river</strong> comes first: ${plural(pile.riverLeft, 'river tile')}, the lake last; the chance of each next:</p>`
    : `<p>${left}; the chance of each kind next:</p>`;
  // The kinds of each tile set apart, each set folded (issue 35: with
  // every expansion about 65 kinds pushed the log and the chat far down);
  // a set opened stays open as the panel is drawn again.
  const sets = [...new Set(pile.kinds.map((k) => setOf(cat, k.id)))];
  const opened = new Set([...(el.querySelectorAll?.('details.pile-set[open]') || [])].map((d) => d.dataset.set));
  const list = (kinds) => `<ul class="kinds${pile.river ? ' river' : ''}">` + kinds.map(({ id, left, chance }) =>
    `<li title="${esc(id)}: ${left} left" data-kind="${esc(id)}"><svg viewBox="0 0 100 100" width="30" height="30"><use href="#tile-${esc(id)}"/></svg>` +
    `<span>${left}</span><span class="chance">${Math.round(100 * chance)}%</span></li>`).join('') + '</ul>';
  const groups = sets.length < 2 ? list(pile.kinds) : sets.map((set) => {
    const kinds = pile.kinds.filter((k) => setOf(cat, k.id) === set);
    const left = kinds.reduce((a, k) => a + k.left, 0), chance = kinds.reduce((a, k) => a + k.chance, 0);
    return `<details class="pile-set" data-set="${esc(set)}"${opened.has(set) ? ' open' : ''}><summary>${esc(SET_NAMES[set] || set)}: ` +
      `${plural(left, 'tile')} of ${plural(kinds.length, 'kind')}, ${Math.round(100 * chance)}% next</summary>${list(kinds)}</details>`;
  }).join('');
  el.innerHTML = head + groups +
    dead +
    (discards.length ? `<p>Discarded (fitted nowhere): ${discards.join(', ')}</p>` : '');
}

// The tile sets by name, for the tiles panel's groups.
const SET_NAMES = { base: 'The base game', river: 'The River', 'inns-cathedrals': 'Inns & Cathedrals', 'traders-builders': 'Traders & Builders' };
const setOf = (cat, id) => cat.kinds?.[id]?.set || 'base';

const KIND_WORD = { road: 'road', city: 'city', cloister: 'cloister', farm: 'farm' };

// "Ann +4 for a completed city (2 tiles, 1 pennant)"; the final scoring's
// "an unfinished road"; a farm counts the completed cities it serves.
// Traders & Builders' events carry a `bonus`: "pig", the pig's extra
// point a city after its farm's own event; "goods" with `complete`, the
// goods of a completed city given to the player who placed the tile
// (no points); "goods" in the final scoring, 10 points for the most of
// one type (`goods` then holds that type's top count).
// A road with an inn or a city with a cathedral scores by its own
// count (issue 35: the log never said why a road scored double). The
// event's `marks` says so when the server sends it; else the points
// tell it: only an inn doubles a completed road or leaves an unfinished
// one at 0, only a cathedral trebles a completed city or leaves an
// unfinished one at 0; a completed city of 2 tiles at a point a tile is
// the small-city rule. Returns 'inn', 'cathedral', 'small-city' or ''.
export function scoringReason(e) {
  const marks = Array.isArray(e.marks) ? e.marks : null;
  const units = e.tiles + (e.pennants || 0);
  if (e.bonus || !e.winners?.length || !units) return '';
  if (e.kind === 'road') {
    if (marks) return marks.includes('inn') ? 'inn' : '';
    return (e.complete && e.points === 2 * e.tiles) || (!e.complete && e.points === 0) ? 'inn' : '';
  }
  if (e.kind === 'city') {
    if (marks?.includes('cathedral')) return 'cathedral';
    if (!marks && ((e.complete && e.points === 3 * units) || (!e.complete && e.points === 0))) return 'cathedral';
    if (e.complete && e.tiles === 2 && e.points === units) return 'small-city';
  }
  return '';
}

export function eventText(e, seats) {
  const who = e.winners.length ? e.winners.map((w) => seatName(seats[w], w)).join(' and ') : 'nobody';
  if (e.bonus === 'goods' && e.complete) return `${who} ${e.winners.length > 1 ? 'take' : 'takes'} the city's goods (${goodsWords(e.goods, true) || 'none'}) for completing it`;
  if (e.bonus === 'goods') return `${who} +${e.points} for the most ${goodsWords(e.goods) || 'goods'}`;
  if (e.bonus === 'pig') return `${who} +${e.points} for the pig on a farm (${plural(e.tiles, 'city')})`;
  const kind = KIND_WORD[e.kind] || e.kind;
  const size = e.kind === 'farm' ? plural(e.tiles, 'city') : plural(e.tiles, 'tile');
  const pennants = e.pennants ? plural(e.pennants, 'pennant') : '';
  const reason = scoringReason(e);
  if (reason === 'inn') {
    return e.complete ? `${who} +${e.points} for a completed road of ${size} with an inn (2 points a tile)`
      : `${who} +0: a road with an inn left unfinished (${size}; an inn's road scores only when complete)`;
  }
  if (reason === 'cathedral') {
    return e.complete ? `${who} +${e.points} for a completed city of ${size}${pennants ? ` and ${pennants}` : ''} with a cathedral (3 points a tile and pennant)`
      : `${who} +0: a city with a cathedral left unfinished (${size}${pennants ? `, ${pennants}` : ''}; a cathedral's city scores only when complete)`;
  }
  const small = reason === 'small-city' ? ': a small city, 1 point a tile and pennant' : '';
  const what = `${e.complete ? 'completed' : 'unfinished'} ${kind}`;
  return `${who} +${e.points} for ${article(e.kind === 'farm' ? 'farm' : what)} (${size}${pennants ? `, ${pennants}` : ''}${small})`;
}

// {wine: 1, grain: 0, cloth: 2} -> "wine and cloth", or with counts "1 wine,
// 2 cloth"; '' for none.
function goodsWords(v, counts = false) {
  const goods = goodsOf(v);
  if (!goods) return '';
  const named = GOODS_NAMES.map((g) => [g, goods[g]]).filter(([, n]) => n > 0);
  return counts ? named.map(([g, n]) => `${n} ${g}`).join(', ') : named.map(([g]) => g).join(' and ');
}

export function renderLog(el, table) {
  const seats = table.state.seats;
  // How the first seat was chosen (a random draw, the draw-off), oldest: last.
  const first = table.state.first ? `<li class="first-seat">${badge(0, 14)} <span>${esc(table.state.first)}</span></li>` : '';
  el.innerHTML = (table.log.slice().reverse().map((e, i) => e.hand
    ? `<li class="hand-line" data-turn="${e.turn}"><span>Turn ${e.turn + 1}: ${esc(e.text)}</span></li>`
    : `<li><button type="button" data-log="${table.log.length - 1 - i}" data-x="${e.x}" data-y="${e.y}">` +
    `${e.winners.map((w) => badge(w, 14)).join('')} <span>${e.end ? 'End' : `Turn ${e.turn + 1}`}: ${esc(eventText(e, seats))}</span></button></li>`).join('') ||
    (first ? '' : '<li class="empty">No scores yet.</li>')) + first;
}
