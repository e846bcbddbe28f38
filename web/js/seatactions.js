// seatactions.js: what a seated player does besides moving: take back
// their last move (at once against the computer, asked of the others
// between people), answer another player's ask (Accept, Decline), resign,
// and, at a correspondence table, the days clock and the notification
// button. When each is allowed is the server's rule (docs/server-
// protocol.md, `takeback` and `resign`); the buttons say beforehand what
// the server would refuse, and why.

import { seatName, esc } from './panel.js';
import { timeLeftWords, plural } from './words.js';

// Whether the seat of this page has resigned (the state's `resigned`: the
// computer plays it now; it keeps its player's token, so `you` stays).
export function resignedMe(state) {
  return state.you !== null && state.you !== undefined && state.seats[state.you]?.resigned === true;
}

// Whether every other seat is the computer's: a takeback is then done at
// once, else asked of the other people (a resigned seat is the computer's).
export function onlyComputers(state) {
  return state.seats.every((seat, p) => p === state.you || seat.kind === 'computer');
}

// The moves this seat made itself (not the computer for it on time).
export function ownMoves(moves, you) {
  return moves.filter((m) => m.player === you && m.by === 'player' && m.move !== 'end').length;
}

// The takeback button: {shown, label, enabled, why, start}. `moves` the
// moves that stand (with their `by`), `asked` whether our ask waits for an
// answer; `start`: disabled only because we have not moved yet (nothing to
// say under it: nothing went wrong).
export function takebackButton(state, moves, asked = false) {
  const label = onlyComputers(state) ? 'Undo my last move' : 'Ask to take back my last move';
  if (state.status !== 'playing' || state.you === null || state.you === undefined) return { shown: false, label, enabled: false, why: '' };
  const no = (why) => ({ shown: true, label, enabled: false, why });
  if (resignedMe(state)) return no('you resigned');
  if (state.rated) return no('no takebacks in a rated game');
  if (asked) return no('asked: waiting for the others to answer');
  if (!ownMoves(moves, state.you)) {
    const forMe = moves.some((m) => m.player === state.you && m.by !== 'player');
    if (forMe) return no('the computer made your moves (your time ran out): none of yours to take back');
    return { ...no('you have made no move to take back yet'), start: true };
  }
  return { shown: true, label, enabled: true, why: '' };
}

// The resign button: {shown, enabled, why}.
export function resignButton(state) {
  if (state.status !== 'playing' || state.you === null || state.you === undefined) return { shown: false, enabled: false, why: '' };
  if (resignedMe(state)) return { shown: false, enabled: false, why: 'you resigned' };
  return { shown: true, enabled: true, why: '' };
}

// The question before resigning, for a table of `players` seats.
export function resignQuestion(players) {
  return players === 2 ? 'Resign this game? With two players you lose it, whatever the score.'
    : `Resign this game? With ${players} players the computer plays your seat from now on, and you can no longer move.`;
}

// The takeback ask a state shows waiting (its `takeback`: {seat, agreed}
// with `agreed` a bit per seat): {ask: another seat's ask for us to answer
// ({seat, turn}) or null, asked: our own ask's turn or null, agreed:
// whether we agreed to another's ask already}.
export function takebackAsk(state) {
  const w = state.takeback, none = { ask: null, asked: null, agreed: false };
  if (!w || state.status !== 'playing' || state.you === null || state.you === undefined) return none;
  if (w.seat === state.you) return { ...none, asked: state.turn };
  const agreed = ((w.agreed >> state.you) & 1) === 1;
  return { ask: agreed ? null : { seat: w.seat, turn: state.turn }, asked: null, agreed };
}

// "Ann asks to take back their last move".
export function askText(state, seat) {
  return `${seatName(state.seats[seat], seat)} asks to take back their last move`;
}

// A days clock in words: "2 days a move", with the time left of the
// seat to move ("Ann: 1 d 23 h left") and when that runs out.
export function daysClockWords(state, now = Date.now()) {
  const k = state.clock;
  if (k?.mode !== 'days') return '';
  const days = k.days || Math.round(k.seconds / 86400);
  let text = `Correspondence game: ${plural(days, 'day')} a move`;
  if (state.status === 'playing' && Number.isInteger(k.running) && typeof k.deadline_ms === 'number') {
    const who = k.running === state.you ? 'you have' : `${seatName(state.seats[k.running], k.running)} has`;
    text += `; ${who} ${timeLeftWords(k.deadline_ms - now)} (until ${new Date(k.deadline_ms).toLocaleString([], { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' })})`;
  }
  return text;
}

export class SeatActions {
  // view: the TableView; el: the card.
  constructor(view, el) {
    this.view = view;
    this.el = el;
    this.ask = null; // another seat's ask: {seat, turn (the table's turn then)}
    this.asked = null; // our own ask's table turn, while it waits
    this.note = ''; // the last thing that happened to an ask or a resignation
    this.noteError = false; // whether it is something the player tried that failed (red)
    this.confirming = false;
    el.addEventListener('click', (e) => {
      const b = e.target.closest('button[data-act]');
      if (b && !b.disabled) this.act(b.dataset.act);
    });
  }

  get state() {
    return this.view.table.state;
  }

  act(what) {
    if (what === 'takeback') this.takeback();
    else if (what === 'accept') this.answer(true);
    else if (what === 'decline') this.answer(false);
    else if (what === 'resign') this.confirming = true;
    else if (what === 'resign-no') this.confirming = false;
    else if (what === 'resign-yes') this.resign();
    this.render();
  }

  // U: the takeback, when its button is enabled; when it is shown but
  // disabled, the reason, as something the player tried that failed.
  // True when used.
  key(e) {
    if (e.key !== 'u' && e.key !== 'U') return false;
    const tb = takebackButton(this.state, this.view.table.moves, this.asked !== null);
    if (!tb.shown) return false;
    if (tb.enabled) this.takeback();
    else this.setNote(`${tb.label}: ${tb.why}.`, true);
    return true;
  }

  async takeback() {
    const conn = this.view.conn;
    try {
      const ok = await conn.request('takeback', { table: this.view.id });
      if (ok.what === 'asked') {
        this.asked = this.state.turn;
        this.setNote('You asked to take back your last move: waiting for the others to answer.');
      }
    } catch (e) {
      this.setNote(`No takeback: ${e.message}`, true);
    }
  }

  async answer(accept) {
    const ask = this.ask;
    this.ask = null;
    this.render();
    try {
      const ok = await this.view.conn.request('takeback', { table: this.view.id, accept });
      if (ok.what === 'agreed') this.setNote('You agreed; the others are still to answer.');
    } catch (e) {
      if (ask) this.setNote(`Your answer was not taken: ${e.message}`, true);
    }
  }

  async resign() {
    this.confirming = false;
    try {
      const ok = await this.view.conn.request('resign', { table: this.view.id });
      if (ok.what === 'computer') this.setNote('You resigned: the computer plays your seat from now on.');
    } catch (e) {
      this.setNote(`Not resigned: ${e.message}`, true);
    }
  }

  setNote(text, error = false) {
    this.note = text;
    this.noteError = error;
    if (text) this.view.say(text);
    this.render();
  }

  // A `takeback` event: asked, declined or done.
  onTakeback(ev) {
    const s = this.state, mine = ev.seat === s.you;
    const who = seatName(s.seats[ev.seat], ev.seat);
    if (ev.what === 'asked') {
      if (mine) return;
      this.ask = { seat: ev.seat, turn: s.turn };
      this.setNote('');
      this.view.say(`${askText(s, ev.seat)}.`);
    } else if (ev.what === 'declined') {
      const by = seatName(s.seats[ev.by], ev.by);
      this.ask = null;
      if (mine) this.asked = null;
      this.setNote(mine ? `${by} declined: your move stands.` : `${by} declined ${who}'s takeback.`);
    } else if (ev.what === 'done') {
      this.ask = null;
      this.asked = null;
      const n = ev.moves ? ` (${plural(ev.moves, 'move')} undone)` : '';
      this.setNote(mine ? `Your last move is taken back${n}: play it again.` : `${who}'s last move is taken back${n}.`);
      this.view.legalTurn = -1; // the same turn number may come again, with the board as it was
    }
  }

  // A `resign` event (three or more players: the computer plays the seat,
  // marked `resigned` as the next state will say).
  onResign(ev) {
    const s = this.state;
    if (s.seats[ev.seat]) s.seats[ev.seat].resigned = true;
    if (ev.seat === s.you) this.setNote('You resigned: the computer plays your seat from now on; you can no longer move.');
    else this.setNote(`${seatName(s.seats[ev.seat], ev.seat)} resigned: the computer plays their seat.`);
  }

  // A move was made: an ask waiting lapses, a failure said goes.
  moveMade() {
    if (this.noteError) this.setNote(''); // what failed is behind us
    if (this.ask === null && this.asked === null) return;
    this.ask = null;
    this.asked = null;
    this.note = 'The takeback ask lapsed: a move was made.';
    this.noteError = false;
  }

  // A whole state (a reload, a sync, a takeback done): its `takeback` is
  // the ask that waits, if any (takebackAsk says whose and whether ours
  // is still to give).
  stateCame() {
    const w = takebackAsk(this.state);
    this.ask = w.ask;
    this.asked = w.asked;
    if (w.agreed && !this.note) {
      this.note = 'You agreed; the others are still to answer.';
      this.noteError = false;
    }
  }

  render() {
    const el = this.el, s = this.state, moves = this.view.table.moves;
    const tb = takebackButton(s, moves, this.asked !== null), rs = resignButton(s);
    const days = daysClockWords(s);
    let html = '';
    if (s.status !== 'playing') this.note = ''; // the final card says the rest
    if (this.ask && s.status === 'playing') {
      const answer = s.you !== null && !resignedMe(s)
        ? ' <button type="button" data-act="accept" class="primary">Accept</button> <button type="button" data-act="decline">Decline</button>' : '';
      html += `<div class="ask" role="alert"><span>${esc(askText(s, this.ask.seat))}.</span>${answer}</div>`;
    }
    if (this.note) html += `<p class="note${this.noteError ? ' error' : ''}" role="status">${esc(this.note)}</p>`;
    if (tb.shown || rs.shown) {
      html += '<p class="seat-buttons">' +
        (tb.shown ? `<button type="button" data-act="takeback"${tb.enabled ? '' : ' disabled'} title="${esc(tb.enabled ? `${tb.label} (U)` : tb.why)}">${esc(tb.label)}</button> ` : '') +
        (rs.shown ? `<button type="button" data-act="resign"${this.confirming ? ' aria-expanded="true"' : ''}>Resign</button>` : '') + '</p>';
      // Why it is disabled, in grey: a state, not an error. Nothing at the
      // start of a game (no move of ours yet): the button's title says it.
      if (tb.shown && !tb.enabled && !tb.start) html += `<p class="why-not state">${esc(tb.label)}: ${esc(tb.why)}.</p>`;
    }
    if (this.confirming && rs.shown) {
      html += `<div class="confirm" role="alertdialog" aria-label="resign"><p>${esc(resignQuestion(s.players))}</p>` +
        '<button type="button" data-act="resign-yes" class="danger">Yes, resign</button> <button type="button" data-act="resign-no">Keep playing</button></div>';
    }
    if (days) html += `<p class="days-clock">${esc(days)}</p>`;
    if (days && s.you !== null && s.status === 'playing') html += '<p class="notify-line"><button type="button" class="notify"></button> <span class="why-not"></span></p>';
    el.innerHTML = html;
    el.hidden = !html;
    const nb = el.querySelector('button.notify');
    if (nb) this.view.games?.bindButton(nb, el.querySelector('.notify-line .why-not'));
  }
}
