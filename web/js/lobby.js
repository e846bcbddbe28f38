// lobby.js: the first page: create a table, the tables to join or watch,
// and this browser's own games (from its stored seat tokens).

import * as store from './store.js';
import { esc, seatName, ratingText } from './panel.js';
import { inviteLink, copyField, copyLink, DEFAULT_NAME } from './tableview.js';
import { orderMyGames, turnWords, isMyTurn } from './mygames.js';
import { AccountBox } from './account.js';

const MAX_SEATS = 8; // Big Box 5's purple and pink after the six colours
const SEAT_CHOICES = [
  ['me', 'Me'], ['open', 'Open seat'], ['invite', 'Invited player'],
  ['mcts:level=easy', 'Computer: easy'], ['mcts:level=normal', 'Computer: normal'],
  ['mcts:level=hard', 'Computer: hard'], ['greedy', 'Computer: greedy (fast)'],
];
const RULES = [
  ['farms-first-edition', 'Farms of the first edition'], ['small-city', 'Small cities score less'],
  ['no-incomplete-scoring', 'No scoring of unfinished features'], ['bonus-turn', 'Bonus turn for filling a hole'],
];
// The expansions a table can add, and the rule variants that belong to one.
const EXPANSIONS = [
  ['river', 'The River: start from the spring, lay the 12 river tiles first'],
  ['inns-cathedrals', 'Inns & Cathedrals: 18 tiles with inns and cathedrals, and a large follower each'],
  ['traders-builders', 'Traders & Builders: 24 tiles with goods, a builder and a pig each'],
];
const EXPANSION_RULES = [['river-keep-start', 'river', 'The base start tile joins the pile']];
// The house rules of the rule texts (docs/record-extensions.md): the form
// field, one line of ours, and a short fact from the seed rule text. The
// server checks every combination and says why it refuses one.
const HOUSE_RULES = [
  { name: 'table', label: 'A bounded table',
    input: '<select name="table"><option value="">no edge</option><option>5x5</option><option>7x7</option><option selected>9x9</option><option>11x11</option><option>15x15</option></select>',
    line: 'tiles go only on a table of this many squares round the start tile',
    quote: 'The edge of the table limits the playing area: no tile past it.', source: 'seed 000, house rules (also Hunters & Gatherers)' },
  { name: 'table-edge-completes', needs: 'table', label: 'The edge completes features',
    line: 'a road or city end facing the edge counts as closed; a cloister counts the squares beyond as filled',
    quote: 'Table borders complete features as an abbey would.', source: 'seed 000, house rules' },
  { name: 'reshuffle', label: 'Unplayable tiles go back into the bag',
    line: 'a tile that fits nowhere is shuffled back and the same player draws again',
    quote: 'Unplayable tiles can be put back into the bag rather than set aside.', source: 'seed 000, house rules' },
  { name: 'start-in-pile', label: 'The start tile in the bag',
    line: 'all 72 tiles are shuffled and the first one drawn starts the board (not with The River)',
    quote: 'The original starting tile may be put into the bag.', source: 'seed 000, house rules' },
  { name: 'extra-start-tile', label: 'A separate start tile (Big Box 5)',
    line: 'an extra D starts the board and all 72 tiles go into the bag: 72 turns (not with The River, nor with the start tile in the bag)',
    quote: 'Big Box 5 actually includes these 72 tiles with standard backs as well as a separate starter tile.', source: 'seeds 000 and 003, a footnote' },
  { name: 'hand', label: 'A hand of tiles',
    input: '<select name="hand"><option value="3">3 tiles</option><option value="2">2 tiles</option><option value="1">1 tile</option></select>',
    line: 'each player holds tiles, plays one of them and draws back up',
    quote: 'Play with a three-tile hand, then draw back up to three tiles.', source: 'seed 000, house rules' },
  { name: 'open-hands', needs: 'hand', label: 'Hands shown to everyone',
    line: 'everyone sees every hand (else only its owner does)',
    quote: 'These tiles could be visible to all or hidden to the other players.', source: 'seed 000, house rules' },
];
const EXPANSION_NAMES = { river: 'The River', 'inns-cathedrals': 'Inns & Cathedrals', 'traders-builders': 'Traders & Builders' };

// A seat of a lobby entry in words: the player's name, "Computer
// (normal)" for a computer seat (its name is its player spec:
// "mcts:level=normal", "greedy"), "(open)", "(invited)".
// A lobby entry's seat in words, with its rating when it has one:
// "Ann (1662)", "Computer (greedy) (1200)", "Bob (1500?)".
export function lobbySeatWords(s) {
  const rating = ratingText(s);
  const name = s.kind === 'computer' ? seatName(s, 0) : s.name || (s.kind === 'open' ? '(open)' : s.kind === 'invite' ? '(invited)' : s.kind);
  return rating ? `${name} (${rating})` : name;
}

export class Lobby {
  // games: the page's MyGames (the title's count, notifications), or null.
  constructor(root, conn, open, games = null) {
    this.root = root;
    this.conn = conn;
    this.open = open; // open(tableId)
    this.games = games;
    this.seats = ['me', 'mcts:level=easy'];
    this.account = new AccountBox(root.querySelector('#account'));
    this.drawForm();
    // "Rated" only for a player logged in (the server refuses a guest's).
    this.account.ready.then((me) => (root.querySelector('#create .rated-choice').hidden = !me));
    this.timer = null;
  }

  show() {
    this.root.hidden = false;
    this.refresh();
    clearInterval(this.timer);
    this.timer = setInterval(() => this.refresh(), 5000);
  }

  hide() {
    this.root.hidden = true;
    clearInterval(this.timer);
  }

  drawForm() {
    const f = this.root.querySelector('#create');
    f.name.value = store.playerName();
    // Kept as it is typed: the quick-play links above use it too.
    f.name.oninput = () => store.keepName(f.name.value.trim());
    f.querySelector('.rules').innerHTML = RULES.map(([v, l]) =>
      `<label><input type="checkbox" name="rule" value="${v}"> ${l}</label>`).join('');
    const box = f.querySelector('.expansions');
    // Each expansion, then the variants that belong to it, under it.
    box.innerHTML = EXPANSIONS.map(([v, l]) =>
      `<label><input type="checkbox" name="expansion" value="${v}"> ${l}</label>` +
      EXPANSION_RULES.filter(([, x]) => x === v).map(([r, x, rl]) =>
        `<label class="sub" data-needs="${x}" hidden><input type="checkbox" name="rule" value="${r}"> ${rl}</label>`).join('')).join('');
    // A variant shows with its expansion only (the server refuses it alone).
    box.onchange = () => {
      for (const el of box.querySelectorAll('[data-needs]')) {
        const on = box.querySelector(`input[name=expansion][value="${el.dataset.needs}"]`).checked;
        el.hidden = !on;
        if (!on) el.querySelector('input').checked = false;
      }
    };
    this.drawHouseRules(f);
    this.drawSeats();
    f.onclick = (e) => {
      const act = e.target.closest('button[data-seat]')?.dataset.seat;
      if (act === 'add' && this.seats.length < MAX_SEATS) this.seats.push('open');
      else if (act === 'remove' && this.seats.length > 2) this.seats.pop();
      else return;
      this.drawSeats();
    };
    f.clock.onchange = () => {
      f.querySelector('.clock-custom').hidden = f.clock.value === 'none';
      // A days clock (correspondence) has its days a move, not seconds.
      for (const el of f.querySelectorAll('.clock-minutes')) el.hidden = f.clock.value === 'days';
      // Only a game clock has an increment: a move clock's is never sent.
      f.querySelector('.clock-increment').hidden = f.clock.value !== 'fischer';
      f.querySelector('.clock-days').hidden = f.clock.value !== 'days';
    };
    const notify = this.root.querySelector('#notify-lobby');
    if (notify && this.games) this.games.bindButton(notify, notify.parentElement.querySelector('.why-not'));
    f.onsubmit = (e) => {
      e.preventDefault();
      this.create(f);
    };
  }

  // Each house rule: a checkbox, its value when it has one, our line and
  // the rule text's fact a click away; a rule that needs another shows
  // under it once that one is on.
  drawHouseRules(f) {
    const box = f.querySelector('.house');
    box.innerHTML = HOUSE_RULES.map((r) =>
      `<div class="rule${r.needs ? ' sub' : ''}" data-rule="${r.name}"${r.needs ? ` data-needs="${r.needs}" hidden` : ''}>` +
      `<label><input type="checkbox" name="house" value="${r.name}"> ${esc(r.label)}</label> ${r.input || ''} ` +
      `<span class="line">— ${esc(r.line)}</span> <details><summary>rule text</summary>` +
      `<blockquote>“${esc(r.quote)}” <cite>(${esc(r.source)})</cite></blockquote></details></div>`).join('');
    box.onchange = () => {
      for (const el of box.querySelectorAll('[data-needs]')) {
        const on = box.querySelector(`input[name=house][value="${el.dataset.needs}"]`).checked;
        el.hidden = !on;
        if (!on) el.querySelector('input').checked = false;
      }
    };
  }

  // The house rules' names for `create`: valued ones as NAME=VALUE.
  houseRules(f) {
    return [...f.querySelectorAll('input[name=house]:checked')].map((c) =>
      c.value === 'table' ? `table=${f.table.value}` : c.value === 'hand' ? `hand=${f.hand.value}` : c.value);
  }

  drawSeats() {
    const list = this.root.querySelector('#create .seats');
    list.innerHTML = this.seats.map((v, i) => `<li><label>Seat ${i + 1} <select data-i="${i}" aria-label="seat ${i + 1}">` +
      SEAT_CHOICES.map(([val, l]) => `<option value="${val}"${val === v ? ' selected' : ''}>${l}</option>`).join('') + '</select></label></li>').join('');
    list.onchange = (e) => (this.seats[+e.target.dataset.i] = e.target.value);
  }

  async create(f) {
    const name = f.name.value.trim();
    const seats = [...this.seats];
    if (seats.filter((s) => s === 'me').length > 1) return this.message('Only one seat can be yours.');
    const rules = [...f.querySelectorAll('input[name=rule]:checked')].map((c) => c.value).concat(this.houseRules(f));
    const req = { seats, rules, info: f.info.value, listed: f.listed.checked, estimates: f.estimates.checked };
    if (f.first.value !== 'seat-order') req.first = f.first.value;
    if (f.rated.checked && !f.querySelector('.rated-choice').hidden) req.rated = true;
    const expansions = [...f.querySelectorAll('input[name=expansion]:checked')].map((c) => c.value);
    if (expansions.length) req.expansions = expansions;
    if (seats.includes('me')) req.name = name || DEFAULT_NAME; // a name is optional, as for quick play
    if (f.clock.value === 'days') req.clock = { mode: 'days', days: +f.days.value, on_timeout: f.timeout.value };
    else if (f.clock.value !== 'none') {
      req.clock = { mode: f.clock.value, seconds: +f.seconds.value, on_timeout: f.timeout.value };
      if (f.clock.value === 'fischer') req.clock.increment = +f.increment.value;
    }
    if (req.rated) {
      // A rated game: no hints, and a timeout loses (the server refuses otherwise).
      req.estimates = false;
      if (req.clock) req.clock.on_timeout = 'forfeit';
    }
    try {
      store.keepName(name);
      const ok = await this.conn.request('create', req);
      const invites = ok.invites && ok.invites.some((c) => c) ? ok.invites : null;
      store.keepSeat(ok.table, ok.seat ?? null, ok.token ?? null, invites);
      this.open(ok.table);
    } catch (e) {
      this.message(`The server refused: ${e.message}`);
    }
  }

  message(text) {
    this.root.querySelector('#create .message').textContent = text;
  }

  async refresh() {
    if (!this.conn.open) return;
    try {
      const [lobby, mine] = await Promise.all([
        this.conn.request('lobby'),
        this.conn.request('mine', { seats: store.seats().filter((s) => s.token).map(({ table, token }) => ({ table, token })) }),
      ]);
      this.drawList(this.root.querySelector('#tables'), lobby.tables, false);
      this.drawList(this.root.querySelector('#mine'), orderMyGames(mine.tables), true);
      this.games?.update(mine.tables);
      this.drawMadeForOthers();
    } catch {
      /* the next refresh tries again */
    }
  }

  drawList(el, tables, mine) {
    el.innerHTML = tables.map((t) => {
      const seats = t.seats.map((s) => esc(lobbySeatWords(s))).join(', ');
      const canJoin = !mine && t.status === 'waiting' && t.seats.some((s) => s.kind === 'open');
      const sets = (t.expansions || []).map((x) => `, ${esc(EXPANSION_NAMES[x] || x)}`).join('');
      // My games: whose turn and the time left ("your turn, 2 d 5 h left").
      const turn = mine ? turnWords(t, (p) => lobbySeatWords(t.seats[p])) : '';
      const clock = t.clock ? (t.clock.mode === 'days' ? `, ${t.clock.days} d a move` : ', clock') : '';
      // A finished game of mine is looked at again, not resumed.
      const act = mine ? (t.status === 'finished' ? 'View' : 'Resume') : canJoin ? 'Join' : 'Watch';
      return `<li${mine && isMyTurn(t) ? ' class="my-turn"' : ''}><span class="what"><strong>${t.status}</strong> ${seats}${t.turn ? `, turn ${t.turn}` : ''}${sets}${t.info === 'purist' ? ', purist' : ''}${clock}${t.estimates === false ? ', no hints' : ''}${t.rated ? ', <strong class="rated">rated</strong>' : ''}` +
        `${turn ? `<br><span class="turn-words">${esc(turn)}</span>` : ''}</span>` +
        `<a class="button" href="/?t=${encodeURIComponent(t.table)}" data-open="${esc(t.table)}">${act}</a></li>`;
    }).join('') || `<li class="empty">${mine ? 'No games in this browser yet.' : 'No table is waiting or playing.'}</li>`;
    el.onclick = (e) => {
      const a = e.target.closest('a[data-open]');
      if (!a) return;
      e.preventDefault();
      this.open(a.dataset.open);
    };
  }

  drawMadeForOthers() {
    const el = this.root.querySelector('#invites');
    const made = store.seats().filter((s) => !s.token && s.invites);
    el.innerHTML = made.map((s) => s.invites.map((code, i) => code && `<li>${esc(s.table)} seat ${i + 1}: ${copyField(inviteLink(s.table, code, i), `invite link of seat ${i + 1}`)}</li>`).join('')).join('');
    el.onclick = (e) => {
      const b = e.target.closest('button[data-copy]');
      if (b) copyLink(b);
    };
  }
}
