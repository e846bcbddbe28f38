// ratings.js: the player page (/?player=NAME: the rating per category, a
// graph of the rating over the listed games, the games, each opening the
// replay viewer) and the leaderboard (/?leaderboard=CATEGORY), from the
// server's GET /api/players/NAME and GET /api/leaderboard?category=C
// (docs/server-protocol.md, "Ratings"). The rows and the graph's points
// are pure functions, for the unit tests; the pages only draw them.

import { esc } from './panel.js';
import { lobbySeatWords } from './lobby.js';

// The server's categories, in the order the pages show them.
export const CATEGORIES = [
  ['duel', 'Two players'],
  ['duel-variants', 'Two players, expansions and rules'],
  ['multi', '3 to 8 players'],
  ['multi-variants', '3 to 8 players, expansions and rules'],
];

export function categoryName(c) {
  return CATEGORIES.find(([k]) => k === c)?.[1] || c;
}

// "1662 ± 290": the rating and its deviation, rounded.
export function ratingText(r) {
  return `${Math.round(r.rating)} ± ${Math.round(r.rd)}`;
}

// "+162", "−12", "±0": a rating change, rounded.
export function changeText(change) {
  const d = Math.round(change.after - change.before);
  return d > 0 ? `+${d}` : d < 0 ? `−${-d}` : '±0';
}

// A date as 2026-01-31 (the same on every machine).
export function dayText(ms) {
  return new Date(ms).toISOString().slice(0, 10);
}

// The player page's ratings: one row a category played, in the
// categories' order.
export function ratingRows(player) {
  const order = (c) => { const i = CATEGORIES.findIndex(([k]) => k === c); return i < 0 ? CATEGORIES.length : i; };
  return [...(player.ratings || [])].sort((a, b) => order(a.category) - order(b.category)).map((r) => ({
    category: r.category, name: categoryName(r.category), rating: ratingText(r), games: r.games,
  }));
}

// The player page's games, newest first as the server lists them: the
// date, the category, each seat with its score ("Ann 12, Bob 9"), the
// rating change of a rated game, and the replay's address.
export function gameRows(player) {
  return (player.games || []).map((g) => ({
    table: g.table,
    date: dayText(g.ended_ms),
    category: categoryName(g.category),
    seats: g.seats.map((s, p) => `${lobbySeatWords(s)} ${g.scores?.[p] ?? ''}`.trim()).join(', '),
    rated: !!g.rated,
    change: g.rated && g.rating_change ? changeText(g.rating_change) : '',
    replay: `/?replay=${encodeURIComponent(g.table)}`,
  }));
}

// The rating graph's points: the rated games with a change, oldest first,
// numbered 1..count; each category a series starting from its first
// game's rating before (at that game's number less one), then each
// game's rating after. {count, series: {category: [{i, rating, table}]}}.
export function graphPoints(games) {
  const rated = (games || []).filter((g) => g.rated && g.rating_change).reverse();
  const series = {};
  rated.forEach((g, k) => {
    const s = (series[g.category] ??= []);
    if (!s.length) s.push({ i: k, rating: g.rating_change.before, table: null });
    s.push({ i: k + 1, rating: g.rating_change.after, table: g.table });
  });
  return { count: rated.length, series };
}

const GRAPH_COLOURS = { duel: '#1f5fbf', 'duel-variants': '#b3261e', multi: '#2e7d32', 'multi-variants': '#7a4fa0' };
const GRAPH_DASH = { duel: '', 'duel-variants': '6 3', multi: '2 3', 'multi-variants': '8 3 2 3' };

// A small SVG line chart of graphPoints: a line a category (its own
// colour and dash, named in its title), the lowest and highest rating on
// the left. '' without a rated game.
export function ratingGraph(games) {
  const { count, series } = graphPoints(games);
  if (!count) return '';
  const W = 320, H = 140, left = 40, pad = 10;
  const all = Object.values(series).flat().map((p) => p.rating);
  let lo = Math.floor(Math.min(...all) / 10) * 10, hi = Math.ceil(Math.max(...all) / 10) * 10;
  if (hi - lo < 20) { lo -= 10; hi += 10; }
  const x = (i) => left + ((W - left - pad) * i) / count, y = (v) => H - 18 - ((H - 18 - pad) * (v - lo)) / (hi - lo);
  let body = '';
  for (const [c, pts] of Object.entries(series)) {
    const colour = GRAPH_COLOURS[c] || '#555';
    body += `<polyline points="${pts.map((p) => `${x(p.i).toFixed(1)},${y(p.rating).toFixed(1)}`).join(' ')}" fill="none" stroke="${colour}" stroke-width="2.2" stroke-dasharray="${GRAPH_DASH[c] || ''}"><title>${esc(categoryName(c))}</title></polyline>` +
      pts.map((p) => `<circle cx="${x(p.i).toFixed(1)}" cy="${y(p.rating).toFixed(1)}" r="3" fill="${colour}"><title>${Math.round(p.rating)}</title></circle>`).join('');
  }
  return `<svg class="chart rating-graph" viewBox="0 0 ${W} ${H}" role="img" aria-label="rating over the last rated games">` +
    `<line x1="${left}" y1="${H - 18}" x2="${W - 4}" y2="${H - 18}" stroke="#888"/><line x1="${left}" y1="${pad}" x2="${left}" y2="${H - 18}" stroke="#888"/>` +
    `<text x="${left - 4}" y="${pad + 4}" text-anchor="end">${hi}</text><text x="${left - 4}" y="${H - 18}" text-anchor="end">${lo}</text>` +
    `<text x="${W - 4}" y="${H - 4}" text-anchor="end">${count === 1 ? '1 rated game' : `${count} rated games`}</text>${body}</svg>`;
}

// The leaderboard's rows, best first as the server lists them.
export function leaderboardRows(board) {
  return (board.players || []).map((p, i) => ({ rank: i + 1, name: p.name, rating: ratingText(p), games: p.games, href: playerHref(p.name) }));
}

export function playerHref(name) {
  return `/?player=${encodeURIComponent(name)}`;
}

// The player page's HTML for an answer of GET /api/players/NAME.
export function playerHtml(player) {
  const ratings = ratingRows(player);
  const games = gameRows(player);
  const table = ratings.length
    ? '<table class="ratings"><thead><tr><th>Category</th><th>Rating</th><th>Games</th></tr></thead><tbody>' +
      ratings.map((r) => `<tr data-category="${esc(r.category)}"><th scope="row"><a href="/?leaderboard=${esc(r.category)}">${esc(r.name)}</a></th><td class="rating">${esc(r.rating)}</td><td>${r.games}</td></tr>`).join('') + '</tbody></table>'
    : '<p class="empty">No rated game yet.</p>';
  const graph = ratingGraph(player.games);
  const list = games.map((g) => `<li data-table="${esc(g.table)}"><span class="what">${esc(g.date)}, ${esc(g.category)}: ${esc(g.seats)}` +
    `${g.rated ? `, rated${g.change ? ` <strong class="change">${esc(g.change)}</strong>` : ''}` : ''}</span>` +
    `<a class="button" href="${esc(g.replay)}">Replay</a></li>`).join('') || '<li class="empty">No finished game yet.</li>';
  return `<h2>${esc(player.name)}</h2><h3>Ratings</h3>${table}` +
    (graph ? `<h3>Rating over the last games</h3>${graph}` : '') +
    `<h3>Last games</h3><ul class="list games">${list}</ul>` +
    '<p><a class="button" href="/?leaderboard=duel">Leaderboard</a></p>';
}

// The leaderboard page's HTML: a tab a category, the players of one.
export function leaderboardHtml(board) {
  const rows = leaderboardRows(board);
  const body = rows.length
    ? '<table class="ratings leaderboard"><thead><tr><th>#</th><th>Player</th><th>Rating</th><th>Games</th></tr></thead><tbody>' +
      rows.map((r) => `<tr><td>${r.rank}</td><th scope="row"><a href="${esc(r.href)}">${esc(r.name)}</a></th><td class="rating">${esc(r.rating)}</td><td>${r.games}</td></tr>`).join('') + '</tbody></table>'
    : '<p class="empty">Nobody here yet: a player is listed once their rating is sure enough (a deviation of 110 or less, after several rated games).</p>';
  return `<h2>Leaderboard: ${esc(categoryName(board.category))}</h2>${categoryTabs(board.category)}${body}`;
}

// The leaderboard's four categories, the one shown pressed.
export function categoryTabs(category) {
  return '<nav class="tabs" aria-label="categories">' + CATEGORIES.map(([c, name]) =>
    `<a class="button${c === category ? ' primary' : ''}" href="/?leaderboard=${c}"${c === category ? ' aria-current="page"' : ''}>${esc(name)}</a>`).join(' ') + '</nav>';
}

async function getJson(url) {
  const r = await fetch(url, { credentials: 'same-origin', cache: 'no-store' });
  let data = null;
  try { data = await r.json(); } catch { /* no body */ }
  return { ok: r.ok, status: r.status, data };
}

// Fills `el` with the player page of `name`.
export async function showPlayer(el, name) {
  el.innerHTML = `<h2>${esc(name)}</h2><p>Loading…</p>`;
  const r = await getJson(`/api/players/${encodeURIComponent(name)}`);
  if (r.ok) el.innerHTML = playerHtml(r.data);
  else el.innerHTML = `<h2>${esc(name)}</h2><p class="error">${r.status === 404 ? 'No player has this name.' : esc(r.data?.message || `The server said ${r.status}.`)}</p>`;
  el.dataset.loaded = r.ok ? 'player' : 'error';
}

// Fills `el` with the leaderboard of `category`.
export async function showLeaderboard(el, category) {
  el.innerHTML = '<h2>Leaderboard</h2><p>Loading…</p>';
  const r = await getJson(`/api/leaderboard?category=${encodeURIComponent(category)}`);
  if (r.ok) el.innerHTML = leaderboardHtml(r.data);
  else el.innerHTML = `<h2>Leaderboard</h2>${categoryTabs(category)}<p class="error">${esc(r.data?.message || `The server said ${r.status}.`)}</p>`;
  el.dataset.loaded = r.ok ? 'leaderboard' : 'error';
}
