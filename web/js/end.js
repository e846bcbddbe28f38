// end.js: the end of a game: the final scoring per player and kind, a
// chart of the scores over the game, the revealed deal and the record.

import { PLAYERS, badge } from './players.js';
import { esc, seatName } from './panel.js';
import { plural } from './words.js';

// An SVG line chart of each player's score after every turn.
export function scoreChart(history) {
  const W = 320, H = 160, pad = 24;
  const turns = history.length - 1 || 1;
  const top = Math.max(10, ...history.flat());
  const x = (i) => pad + ((W - pad - 6) * i) / turns, y = (v) => H - pad - ((H - pad - 8) * v) / top;
  const players = history[0].length;
  let lines = '';
  for (let p = 0; p < players; p++) {
    const pts = history.map((h, i) => `${x(i).toFixed(1)},${y(h[p]).toFixed(1)}`).join(' ');
    const dash = ['', '6 3', '2 3', '8 3 2 3', '1 2', '4 4', '6 2 1 2', '3 1'][p % PLAYERS.length];
    lines += `<polyline points="${pts}" fill="none" stroke="${PLAYERS[p % PLAYERS.length].colour}" stroke-width="2.2" stroke-dasharray="${dash}"/>`;
  }
  return `<svg class="chart" viewBox="0 0 ${W} ${H}" role="img" aria-label="scores over the game">` +
    `<line x1="${pad}" y1="${H - pad}" x2="${W - 4}" y2="${H - pad}" stroke="#888"/><line x1="${pad}" y1="8" x2="${pad}" y2="${H - pad}" stroke="#888"/>` +
    `<text x="${pad - 4}" y="14" text-anchor="end">${top}</text><text x="${pad - 4}" y="${H - pad}" text-anchor="end">0</text>` +
    `<text x="${W - 4}" y="${H - 8}" text-anchor="end">turn ${turns}</text>${lines}</svg>`;
}

// "You win with 85 points", "Ann wins with 85 points", "A tie: Ann and
// Bob, 80 points each", "Bob wins with 12 points: Ann resigned".
export function winnerText(table) {
  const s = table.state, f = s.final;
  if (!f || !f.winners.length) return '';
  const points = f.scores[f.winners[0]];
  if (f.winners.length > 1) return `A tie: ${f.winners.map((w) => w === s.you ? 'you' : seatName(s.seats[w], w)).join(' and ')}, ${plural(points, 'point')} each`;
  const w = f.winners[0];
  const resigned = f.forfeit_reason === 'resigned' && Number.isInteger(f.forfeit)
    ? `: ${f.forfeit === s.you ? 'you' : seatName(s.seats[f.forfeit], f.forfeit)} resigned` : '';
  return `${w === s.you ? 'You win' : `${seatName(s.seats[w], w)} wins`} with ${plural(points, 'point')}${resigned}`;
}

// The `create` request of a new game like this one, for its player: the
// same seats (this player's "me", each computer seat's spec, another
// player's seat open for them to join), rules, expansions, tile
// information, hints and clock; unlisted, as quick play's. Null for a
// spectator.
export function newGameRequest(state, name) {
  if (state.you === null || state.you === undefined) return null;
  const seats = state.seats.map((seat, p) => (p === state.you ? 'me' : seat.kind === 'computer' && seat.name ? seat.name : 'open'));
  const req = { seats, name, listed: false, rules: [...(state.rules || [])], info: state.info || 'casual' };
  if (state.expansions?.length) req.expansions = [...state.expansions];
  if (state.estimates === false) req.estimates = false;
  const k = state.clock;
  if (k && (k.mode === 'move' || k.mode === 'fischer')) {
    req.clock = { mode: k.mode, seconds: k.seconds, on_timeout: k.on_timeout };
    if (k.mode === 'fischer') req.clock.increment = k.increment;
  } else if (k?.mode === 'days') {
    req.clock = { mode: 'days', days: k.days || Math.round(k.seconds / 86400), on_timeout: k.on_timeout };
  }
  return req;
}

// The line under the final table for a seat that lost by forfeit.
export function forfeitText(state) {
  const f = state.final;
  if (f?.forfeit === null || f?.forfeit === undefined) return '';
  const who = seatName(state.seats[f.forfeit], f.forfeit);
  if (f.forfeit_reason === 'resigned') return `${who} resigned, and loses whatever the score.`;
  return f.forfeit_reason === 'abandoned'
    ? `${who} left the game: the computer played their turns until their clock ran out again, and they forfeited.`
    : `${who} forfeited on time.`;
}

// What "New game" does, beside "Rematch" (rematch.js) on the final card.
const NEW_GAME_TITLE = 'New game: a new table at once with the same opponents and rules, you in the same seat; another player\'s seat is left open for them to join by its link';

// The final card; its rematch box (p.rematch) is Rematch's to fill.
export function renderFinal(el, table) {
  const s = table.state, f = s.final;
  if (!f) {
    el.hidden = true;
    return;
  }
  // Goods (Traders & Builders) get a column when the server counts them.
  const goods = f.by_kind.some((k) => typeof k.goods === 'number');
  const rows = s.seats.map((seat, p) => {
    const k = f.by_kind[p];
    const won = f.winners.includes(p);
    return `<tr${won ? ' class="winner"' : ''}><th scope="row">${badge(p)} ${esc(seatName(seat, p))}${won ? ' <span class="won">winner</span>' : ''}</th>` +
      `<td>${k.roads}</td><td>${k.cities}</td><td>${k.cloisters}</td><td>${k.farms}</td>${goods ? `<td>${k.goods ?? 0}</td>` : ''}<td class="total">${f.scores[p]}</td></tr>`;
  }).join('');
  el.innerHTML = `<h2>Final scoring</h2><p class="winner-line">${esc(winnerText(table))}</p><table class="final-table${goods ? ' with-goods' : ''}"><thead><tr><th>Player</th><th>Roads</th><th>Cities</th><th>Cloisters</th><th>Farms</th>${goods ? '<th>Goods</th>' : ''}<th>Total</th></tr></thead>` +
    `<tbody>${rows}</tbody></table>${forfeitText(s) ? `<p>${esc(forfeitText(s))}</p>` : ''}` +
    '<p><button type="button" data-act="replay-end">Show each final scoring</button>' +
    (newGameRequest(s, '') ? ` <button type="button" data-act="new-game" class="primary" title="${NEW_GAME_TITLE}">New game</button>` : '') + '</p>' +
    '<p class="rematch" hidden></p>' +
    `<h3>Scores over the game</h3>${scoreChart(table.history)}` +
    `<h3>The fair deal</h3><dl class="deal"><dt>Seed</dt><dd><code>${esc(f.seed)}</code></dd><dt>Salt</dt><dd><code>${esc(f.salt)}</code></dd>` +
    `<dt>Commitment</dt><dd><code>${esc(f.commitment || s.commitment)}</code></dd></dl>` +
    `<p><a class="button" href="/?replay=${encodeURIComponent(s.table)}">Replay this game</a> <a class="button" href="/api/tables/${encodeURIComponent(s.table)}/record" download="${esc(s.table)}.carc">Download the record</a></p>`;
  el.hidden = false;
}
