// rematch.js: the final card's rematch: ask for one, answer another
// player's ask (Accept, Decline) with the time left to answer, and go to
// the new table once everyone agreed (docs/server-protocol.md, `rematch`).
// The pure parts (the request, the events folded, the words) are
// exported for the unit tests; Rematch draws its box in the final card.

import { seatName, esc } from './panel.js';
import * as store from './store.js';

// Whether this page's seat may ask or answer a rematch: seated at a
// finished table as a person (one who resigned still is).
export function canRematch(state) {
  const seat = state.you === null || state.you === undefined ? null : state.seats[state.you];
  return state.status === 'finished' && !!seat && (seat.kind !== 'computer' || seat.resigned === true);
}

// The fields of the `rematch` request: asking (or agreeing), or declining.
export function rematchRequest(table, accept = true) {
  return accept ? { table } : { table, accept: false };
}

// Whether every other seat is the computer's: the rematch is then made at
// once, without an ask.
export function againstComputerOnly(state) {
  return state.seats.every((seat, p) => p === state.you || (seat.kind === 'computer' && !seat.resigned));
}

// The rematch as it stands after the table's `rematch` event `ev`:
// {what: 'asked', seat, agreed, until_ms} | {what: 'declined', by} |
// {what: 'ready', new_table, seat, token} (seat and token only for a
// person of the old table).
export function foldRematch(ev) {
  if (ev.what === 'asked') return { what: 'asked', seat: ev.seat, agreed: [...(ev.agreed || [])], until_ms: ev.until_ms };
  if (ev.what === 'declined') return { what: 'declined', by: ev.seat };
  if (ev.what === 'ready') {
    const rm = { what: 'ready', new_table: ev.new_table };
    if (Number.isInteger(ev.seat) && ev.token) Object.assign(rm, { seat: ev.seat, token: ev.token });
    return rm;
  }
  return null;
}

// "1:45": the time left to answer, rounded up to the second.
export function countdown(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

// What the rematch box shows: {text, buttons} where buttons lists
// 'ask', 'accept', 'decline'. `rm` the folded rematch (or null), `now`
// the clock (ms since 1970).
export function rematchView(state, rm, now = Date.now()) {
  const seated = canRematch(state);
  const name = (p) => (p === state.you ? 'you' : seatName(state.seats[p], p));
  const ask = seated ? ['ask'] : [];
  if (!rm) return { text: '', buttons: ask };
  if (rm.what === 'declined') return { text: `${cap(name(rm.by))} declined the rematch.`, buttons: ask };
  if (rm.what === 'ready') {
    return { text: rm.token ? 'The rematch is ready: going to the new table…' : 'The rematch has begun at a new table.', buttons: [], table: rm.new_table };
  }
  if (now >= rm.until_ms) return { text: 'The rematch ask lapsed: nobody answered in time.', buttons: ask };
  const left = countdown(rm.until_ms - now);
  const waiting = state.seats.map((seat, p) => p).filter((p) => !rm.agreed.includes(p) && isPerson(state.seats[p]));
  const wanted = rm.agreed.filter((p) => p !== state.you).map(name);
  if (seated && rm.agreed.includes(state.you)) {
    return { text: `You want a rematch: waiting for ${waiting.map(name).join(' and ')} (${left} left to answer).`, buttons: [] };
  }
  const who = wanted.length ? `${joinNames(wanted)} ${wanted.length > 1 ? 'want' : 'wants'}` : 'A rematch is asked';
  return { text: `${cap(who)} a rematch (${left} left to answer).`, buttons: seated ? ['accept', 'decline'] : [] };
}

function isPerson(seat) {
  return seat.kind !== 'computer' || seat.resigned === true;
}

function joinNames(list) {
  return list.length < 3 ? list.join(' and ') : `${list.slice(0, -1).join(', ')} and ${list[list.length - 1]}`;
}

function cap(text) {
  return text[0].toUpperCase() + text.slice(1);
}

// The titles of the final card's two buttons: what each does.
export function rematchTitle(state) {
  return againstComputerOnly(state)
    ? 'Rematch: the same game again at once, the seats turned by one (who played second plays first)'
    : 'Rematch: the same players, rules and clock at a new table, the seats turned by one; every player must accept within 2 minutes';
}

export class Rematch {
  // view: the TableView (its conn, id, table, say); go(url): to another address.
  constructor(view, go) {
    this.view = view;
    this.go = go;
    this.rm = null;
    this.error = '';
    this.timer = null;
  }

  get state() {
    return this.view.table.state;
  }

  async send(accept) {
    this.error = '';
    try {
      const ok = await this.view.conn.request('rematch', rematchRequest(this.view.id, accept));
      // 'ready' comes with the `rematch` event too, which carries our token.
      if (ok.what === 'declined') this.rm = { what: 'declined', by: this.state.you };
    } catch (e) {
      this.error = `No rematch: ${e.message}`;
      this.view.say(this.error);
    }
    this.render();
  }

  // A `rematch` event of the table.
  onEvent(ev) {
    this.rm = foldRematch(ev);
    this.error = '';
    const v = rematchView(this.state, this.rm);
    if (v.text) this.view.say(v.text);
    if (this.rm?.what === 'ready' && this.rm.token) {
      store.keepSeat(this.rm.new_table, this.rm.seat, this.rm.token);
      this.go(`/?t=${encodeURIComponent(this.rm.new_table)}`);
      return;
    }
    this.render();
  }

  // The box inside the final card (drawn again after each renderFinal);
  // a countdown while an ask waits.
  render() {
    const box = this.view.root.querySelector('#final .rematch');
    clearInterval(this.timer);
    this.timer = null;
    if (!box) return;
    const v = rematchView(this.state, this.rm);
    const b = (act, label, cls = '') => `<button type="button" data-rematch="${act}"${cls ? ` class="${cls}"` : ''}${act === 'ask' ? ` title="${esc(rematchTitle(this.state))}"` : ''}>${label}</button>`;
    const buttons = v.buttons.map((a) => (a === 'ask' ? b('ask', 'Rematch', 'primary') : a === 'accept' ? b('accept', 'Accept', 'primary') : b('decline', 'Decline'))).join(' ');
    const watch = v.table && !this.rm.token ? ` <a class="button" href="/?t=${encodeURIComponent(v.table)}">Watch the rematch</a>` : '';
    const text = v.text ? `<span class="rematch-text">${esc(v.text)}</span>` : '';
    box.innerHTML = `${text}${watch}${buttons ? ` ${buttons}` : ''}${this.error ? `<span class="error" role="alert">${esc(this.error)}</span>` : ''}`;
    box.hidden = !box.innerHTML;
    box.classList.toggle('asked', this.rm?.what === 'asked' && v.buttons.includes('accept'));
    box.onclick = (e) => {
      const act = e.target.closest('button[data-rematch]')?.dataset.rematch;
      if (act) this.send(act !== 'decline');
    };
    if (this.rm?.what === 'asked' && Date.now() < this.rm.until_ms) this.timer = setInterval(() => this.tick(), 1000);
  }

  // The countdown: only the box's words change, not its buttons (a click
  // in progress is not lost), until the ask lapses.
  tick() {
    const el = this.view.root.querySelector('#final .rematch .rematch-text');
    if (!el || !this.rm || Date.now() >= this.rm.until_ms) return this.render();
    el.textContent = rematchView(this.state, this.rm).text;
  }

  close() {
    clearInterval(this.timer);
  }
}
