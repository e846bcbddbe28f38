// mygames.js: this browser's games seen from any screen: which of them wait
// for the player (the server's `mine` entries), "your turn" games first,
// the count in the page title ("(2) Carcassonne"), and a notification when
// a game becomes the player's turn while the tab is in the background.
//
// A lobby entry's `to_move` is the seat to move of a game being played
// (clock or not); its clock's `deadline_ms` gives the time left.

import { timeLeftWords } from './words.js';
import * as store from './store.js';

const POLL_MS = 30000;

// Whether a `mine` entry waits for its player: playing, and the seat to
// move is the entry's seat.
export function isMyTurn(entry) {
  return entry.status === 'playing' && Number.isInteger(entry.seat) && entry.to_move === entry.seat;
}

// The time left to move in an entry, from its `deadline_ms` (a lobby
// entry's `left_ms` is counted at the turn's start), or null.
export function timeLeftOf(entry, now = Date.now()) {
  const d = entry.clock?.deadline_ms;
  return typeof d === 'number' ? Math.max(0, d - now) : null;
}

// The player's games in the order to show them: those waiting for the
// player first, the least time left first (a game without a deadline
// after those with one); then the others as the server listed them.
export function orderMyGames(tables, now = Date.now()) {
  const left = (t) => timeLeftOf(t, now) ?? Infinity;
  const mine = tables.filter(isMyTurn).sort((a, b) => left(a) - left(b));
  return mine.concat(tables.filter((t) => !isMyTurn(t)));
}

// What a `mine` entry adds to its line: "your turn, 2 d 5 h left", "Bob to
// move, 1 d left", "your turn" (no clock), or '' (not playing).
export function turnWords(entry, name = (p) => `seat ${p + 1}`, now = Date.now()) {
  if (entry.status !== 'playing' || !Number.isInteger(entry.to_move)) return '';
  const left = timeLeftOf(entry, now);
  const who = isMyTurn(entry) ? 'your turn' : `${name(entry.to_move)} to move`;
  return left === null ? who : `${who}, ${timeLeftWords(left)}`;
}

// How many games wait for the player, leaving out `except` (the table on
// screen: its own title says whether it is the player's turn).
export function waitingCount(tables, except = null) {
  return tables.filter((t) => isMyTurn(t) && t.table !== except).length;
}

// The page title with the count of waiting games before it.
export function pageTitle(base, waiting) {
  return waiting > 0 ? `(${waiting}) ${base}` : base;
}

// The "Notify me when it's my turn" button as the browser allows it:
// `support` whether the page has the Notification API, `permission`
// Notification.permission. {label, enabled, why}.
export function notifyChoice(support, permission) {
  if (!support) return { label: "Notify me when it's my turn", enabled: false, why: 'this browser cannot show notifications' };
  if (permission === 'granted') return { label: 'Notifications on', enabled: false, why: 'you are told when it becomes your turn while this tab is in the background' };
  if (permission === 'denied') return { label: "Notify me when it's my turn", enabled: false, why: "notifications are blocked for this site: allow them in the browser's site settings" };
  return { label: "Notify me when it's my turn", enabled: true, why: '' };
}

// The entries of `tables` that became the player's turn since `seen` (a
// Set of "table:turn" keys already told), for a notification each.
export function newTurns(tables, seen) {
  return tables.filter((t) => isMyTurn(t) && !seen.has(`${t.table}:${t.turn}`));
}

// The game list kept between screens: the lobby hands it each `mine`
// reply; away from the lobby it asks every POLL_MS itself. It owns the
// page title (screens give it their base title) and the notifications.
export class MyGames {
  constructor(conn, win = globalThis) {
    this.conn = conn;
    this.win = win;
    this.tables = [];
    this.base = 'Carcassonne';
    this.current = null; // the table on screen
    this.told = new Set(); // "table:turn" notified or seen while visible
    this.primed = false; // the first list: its waiting games are not news
    this.updatedAt = 0;
    this.timer = setInterval(() => this.poll(), POLL_MS);
  }

  // The `mine` request for this browser's seats.
  request() {
    return this.conn.request('mine', { seats: store.seats().filter((s) => s.token).map(({ table, token }) => ({ table, token })) });
  }

  async poll() {
    if (!this.conn.open || Date.now() - this.updatedAt < POLL_MS / 2) return; // the lobby asked lately
    try {
      this.update((await this.request()).tables);
    } catch {
      /* the next poll tries again */
    }
  }

  // A fresh `mine` list: the title, and a notification for each game that
  // became the player's turn (the one on screen tells its own).
  update(tables) {
    this.tables = tables;
    this.updatedAt = Date.now();
    for (const t of newTurns(tables, this.told)) {
      if (!this.primed) this.told.add(`${t.table}:${t.turn}`);
      else if (t.table !== this.current) this.notify(t.table, t.turn, 'It is your turn');
    }
    this.primed = true;
    this.showTitle();
  }

  // The base title of the screen (the count goes before it) and the
  // table on screen (null for the lobby and the replay).
  setTitle(base, current = null) {
    this.base = base;
    this.current = current;
    this.showTitle();
  }

  showTitle() {
    this.win.document.title = pageTitle(this.base, waitingCount(this.tables, this.current));
  }

  // It became the player's turn at `table` (move `turn`): a notification
  // while the tab is in the background and the player allowed them; once
  // per turn. A turn seen in a visible tab is not told later.
  notify(table, turn, text) {
    const key = `${table}:${turn}`;
    if (this.told.has(key)) return;
    this.told.add(key);
    const N = this.win.Notification;
    if (!this.win.document.hidden || !N || N.permission !== 'granted') return;
    try {
      const n = new N(`Carcassonne: ${text}`, { body: `Table ${table}, move ${turn + 1}`, tag: `carcassonne-${table}` });
      n.onclick = () => {
        this.win.focus?.();
        this.win.location.href = `/?t=${encodeURIComponent(table)}`;
      };
    } catch {
      /* a browser that allows them only from a service worker (Chrome on Android) */
    }
  }

  // The button that asks the permission (a click is the user gesture the
  // browsers require); `el` a <button>, `why` where its reason goes.
  bindButton(el, why) {
    const draw = () => {
      const N = this.win.Notification;
      const c = notifyChoice(!!N, N?.permission);
      el.textContent = c.label;
      el.disabled = !c.enabled;
      why.textContent = c.why;
    };
    el.onclick = async () => {
      try {
        await this.win.Notification.requestPermission();
      } catch {
        /* refused or not offered */
      }
      draw();
    };
    draw();
  }
}
