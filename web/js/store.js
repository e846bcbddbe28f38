// store.js: what this browser keeps: the seat tokens of its games and the
// player's display name (localStorage).

const SEATS = 'carcassonne.seats';
const NAME = 'carcassonne.name';

function read() {
  try {
    return JSON.parse(localStorage.getItem(SEATS) || '[]');
  } catch {
    return [];
  }
}

export function seats() {
  return read();
}

export function seatOf(table) {
  return read().find((s) => s.table === table) || null;
}

// A seat taken (token) or a table made for others (invites only).
export function keepSeat(table, seat, token, invites = null) {
  const list = read().filter((s) => s.table !== table);
  list.unshift({ table, seat, token, invites });
  localStorage.setItem(SEATS, JSON.stringify(list.slice(0, 100)));
}

export function playerName() {
  return localStorage.getItem(NAME) || '';
}

export function keepName(name) {
  localStorage.setItem(NAME, name);
}
