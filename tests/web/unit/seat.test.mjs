// seat.test.mjs: issue 36 in the browser's pure logic: the time left of a
// days clock in words, "your turn" games first, the title's count, the
// notification button, which of the takeback and resign buttons are
// enabled and why, and what the final card says of a resignation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { durationWords, timeLeftWords } from '../../../web/js/words.js';
import { isMyTurn, timeLeftOf, orderMyGames, turnWords, waitingCount, pageTitle, notifyChoice, newTurns, MyGames } from '../../../web/js/mygames.js';
import { takebackButton, resignButton, resignQuestion, askText, ownMoves, onlyComputers, resignedMe, daysClockWords, takebackAsk } from '../../../web/js/seatactions.js';
import { seatName, clockText, isComputerSpec } from '../../../web/js/panel.js';
import { forfeitText, winnerText, newGameRequest } from '../../../web/js/end.js';
import { Table } from '../../../web/js/game.js';

const H = 3600 * 1000, D = 24 * H;

test('the time left of a days clock in words, rounded down', () => {
  assert.equal(timeLeftWords(2 * D + 5 * H + 59 * 60000), '2 d 5 h left');
  assert.equal(durationWords(3 * D), '3 d');
  assert.equal(durationWords(D - 1), '23 h 59 min');
  assert.equal(durationWords(5 * H), '5 h');
  assert.equal(durationWords(12 * 60000 + 59000), '12 min');
  assert.equal(durationWords(59000), 'less than a minute');
  assert.equal(timeLeftWords(0), 'no time left');
  assert.equal(timeLeftWords(-5), 'no time left');
  // The player's row: m:ss for the minutes clocks, words for a days clock.
  assert.equal(clockText(65000), '1:05');
  assert.equal(clockText(14 * D, 'days'), '14 d left');
});

// `mine` entries as the server sends them: `to_move` the seat to move
// (null when not playing), the clock's `running` the same seat, its
// `deadline_ms` when that seat's time runs out. `toMove` without a clock:
// a game with no clock says whose turn it is too.
const NOW = 1_800_000_000_000;
const entry = (table, seat, running, left, extra = {}) => ({
  table, seat, status: 'playing', turn: 4, seats: [{ name: 'Ann', kind: 'human' }, { name: 'Bob', kind: 'human' }],
  to_move: running ?? null,
  clock: running === undefined ? null : { mode: 'days', days: 3, left_ms: [3 * D, 3 * D], running, deadline_ms: NOW + left }, ...extra,
});

test('"your turn" games first, the least time left first, then those without a clock; the others as listed', () => {
  const list = [
    entry('a', 0, 1, 2 * D), // Bob to move
    entry('b', 1, 1, 2 * D), // ours, 2 days
    entry('c', 0, undefined, 0, { to_move: 1 }), // no clock, Bob to move
    entry('d', 0, 0, 5 * H), // ours, 5 hours
    entry('e', 0, null, 0, { status: 'waiting' }),
    entry('f', 1, undefined, 0, { to_move: 1 }), // no clock, ours
  ];
  assert.deepEqual(list.map(isMyTurn), [false, true, false, true, false, true]);
  assert.deepEqual(orderMyGames(list, NOW).map((t) => t.table), ['d', 'b', 'f', 'a', 'c', 'e']);
  // The clock's `running` is not what says whose turn it is: `to_move` is.
  assert.equal(isMyTurn(entry('g', 0, 1, D, { to_move: 0 })), true);
  assert.equal(isMyTurn(entry('h', 0, 0, D, { to_move: 1 })), false);
  assert.equal(timeLeftOf(list[3], NOW), 5 * H);
  assert.equal(timeLeftOf(list[2], NOW), null);
  assert.equal(timeLeftOf(entry('x', 0, 0, -10), NOW), 0);
  const name = (p) => ['Ann', 'Bob'][p];
  assert.equal(turnWords(list[3], name, NOW), 'your turn, 5 h left');
  assert.equal(turnWords(list[0], name, NOW), 'Bob to move, 2 d left');
  assert.equal(turnWords(list[2], name, NOW), 'Bob to move');
  assert.equal(turnWords(list[5], name, NOW), 'your turn');
  assert.equal(turnWords(list[4], name, NOW), '');
});

test('the title counts the games waiting for the player, not the one on screen, clock or not', () => {
  const list = [entry('a', 0, 0, D), entry('b', 1, 1, D), entry('c', 0, 1, D), entry('n', 1, undefined, 0, { to_move: 1 })];
  assert.equal(waitingCount(list), 3);
  assert.equal(waitingCount(list, 'a'), 2);
  assert.equal(pageTitle('Carcassonne', 2), '(2) Carcassonne');
  assert.equal(pageTitle('Carcassonne', 0), 'Carcassonne');
  assert.equal(pageTitle('Your turn: Carcassonne', 1), '(1) Your turn: Carcassonne');
  // A game is news once per turn.
  const seen = new Set(['a:4']);
  assert.deepEqual(newTurns(list, seen).map((t) => t.table), ['b', 'n']);
});

// A window stand-in: the title, whether the tab is hidden, and a
// Notification that records what it was asked to show.
function fakeWindow(permission = 'granted') {
  const shown = [];
  class Notification {
    static permission = permission;
    constructor(title, opts) {
      shown.push({ title, ...opts });
    }
  }
  return { shown, document: { title: '', hidden: true }, Notification };
}

test('the title and the notifications follow the `mine` lists', () => {
  const win = fakeWindow();
  const games = new MyGames({ open: false }, win);
  clearInterval(games.timer);
  games.setTitle('Carcassonne');
  games.update([entry('a', 0, 0, D), entry('b', 0, 1, D)]);
  assert.equal(win.document.title, '(1) Carcassonne');
  assert.equal(win.shown.length, 0, 'a game already waiting when the page opened is not news');
  games.update([entry('a', 0, 0, D), entry('b', 0, 0, D, { turn: 5 })]);
  assert.equal(win.document.title, '(2) Carcassonne');
  assert.deepEqual(win.shown.map((n) => n.body), ['Table b, move 6']);
  games.update([entry('a', 0, 0, D), entry('b', 0, 0, D, { turn: 5 })]);
  assert.equal(win.shown.length, 1, 'once per turn');
  // At table b: its own title says it; the count leaves it out.
  games.setTitle('Your turn: Carcassonne', 'b');
  assert.equal(win.document.title, '(1) Your turn: Carcassonne');
  // A visible tab is not notified, nor later for the same turn.
  win.document.hidden = false;
  games.notify('c', 7, 'Your turn');
  win.document.hidden = true;
  games.notify('c', 7, 'Your turn');
  assert.equal(win.shown.length, 1);
  // Without the permission: nothing.
  const denied = fakeWindow('default');
  const g2 = new MyGames({ open: false }, denied);
  clearInterval(g2.timer);
  g2.notify('a', 1, 'Your turn');
  assert.equal(denied.shown.length, 0);
});

test('the notification button as the browser allows it', () => {
  assert.deepEqual(notifyChoice(true, 'default'), { label: "Notify me when it's my turn", enabled: true, why: '' });
  assert.equal(notifyChoice(true, 'granted').enabled, false);
  assert.equal(notifyChoice(true, 'granted').label, 'Notifications on');
  assert.match(notifyChoice(true, 'denied').why, /blocked/);
  assert.match(notifyChoice(false).why, /cannot/);
});

// A table's state: Ann (seat 0) against `other`.
const state = (other, extra = {}) => ({
  table: 't', status: 'playing', you: 0, players: 2, turn: 2, to_move: 0, rules: [], expansions: [],
  seats: [{ name: 'Ann', kind: 'human', score: 0, supply: 7 }, { score: 0, supply: 7, ...other }], moves: [], ...extra,
});
const computer = { name: 'mcts:level=easy', kind: 'computer' }, bob = { name: 'Bob', kind: 'human' };
const moved = [{ turn: 0, player: 0, move: 'E 0 -1 2', by: 'player', events: [] }, { turn: 1, player: 1, move: 'D 1 0 0', by: 'computer', events: [] }];

test('the takeback button: undo against the computer, ask between people, disabled with the reason', () => {
  assert.equal(onlyComputers(state(computer)), true);
  assert.equal(onlyComputers(state(bob)), false);
  assert.equal(ownMoves(moved, 0), 1);
  assert.deepEqual(takebackButton(state(computer), moved), { shown: true, label: 'Undo my last move', enabled: true, why: '' });
  assert.deepEqual(takebackButton(state(bob), moved), { shown: true, label: 'Ask to take back my last move', enabled: true, why: '' });
  // The start of a game: disabled, with the reason for its title, marked
  // `start` so that nothing is said under it (it is no error).
  assert.deepEqual(takebackButton(state(computer), []), { shown: true, label: 'Undo my last move', enabled: false, why: 'you have made no move to take back yet', start: true });
  // Moves the computer made for the seat on time are not the player's.
  const onTime = [{ ...moved[0], by: 'computer' }, moved[1]];
  assert.match(takebackButton(state(computer), onTime).why, /the computer made your moves/);
  assert.equal(takebackButton(state(computer), onTime).start, undefined);
  assert.equal(takebackButton(state(bob), moved, true).why, 'asked: waiting for the others to answer');
  assert.equal(takebackButton(state(bob, { rated: true }), moved).why, 'no takebacks in a rated game');
  assert.equal(takebackButton(state(bob, { status: 'finished' }), moved).shown, false);
  assert.equal(takebackButton(state(bob, { you: null }), moved).shown, false);
  // A resigned seat (the state's `resigned`) is the computer's: nothing to
  // take back, no resign.
  const resigned = state(bob, { seats: [{ name: 'Ann', kind: 'computer', resigned: true }, bob], you: 0 });
  assert.equal(resignedMe(resigned), true);
  assert.equal(resignedMe(state(bob)), false);
  assert.equal(takebackButton(resigned, moved).why, 'you resigned');
  assert.equal(resignButton(resigned).shown, false);
  assert.deepEqual(resignButton(state(bob)), { shown: true, enabled: true, why: '' });
  assert.equal(resignButton(state(bob, { status: 'waiting' })).shown, false);
  assert.equal(askText(state(bob), 1), 'Bob asks to take back their last move');
});

test('resigning: the question, the seat that resigned, the final card', () => {
  assert.match(resignQuestion(2), /^Resign this game\? With two players you lose/);
  assert.match(resignQuestion(3), /With 3 players the computer plays your seat/);
  // A resigned seat of three is the computer's and keeps the player's name;
  // the state says `resigned`, so a player named like a level is no guess.
  assert.equal(seatName({ name: 'Bob', kind: 'computer', resigned: true }, 1), 'Bob (resigned)');
  assert.equal(seatName({ name: 'greedy', kind: 'computer', resigned: true }, 1), 'greedy (resigned)');
  assert.equal(seatName({ name: 'mcts:level=easy', kind: 'computer' }, 1), 'Computer (easy)');
  assert.equal(isComputerSpec('engine:./bot'), true);
  assert.equal(isComputerSpec('Ann'), false);
  // Its player no longer moves, though the seat is still theirs.
  const t = new Table(state(bob, { seats: [{ name: 'Ann', kind: 'computer', resigned: true, score: 0, supply: 7 }, { ...bob, score: 0, supply: 7 }] }));
  assert.equal(t.myTurn, false);
  assert.equal(new Table(state(bob)).myTurn, true);
  // Two players: the game ends, the final card says who resigned.
  const over = state(bob, { status: 'finished', to_move: null, final: { scores: [12, 3], winners: [1], forfeit: 0, forfeit_reason: 'resigned' } });
  assert.equal(forfeitText(over), 'Ann resigned, and loses whatever the score.');
  assert.equal(winnerText({ state: over }), 'Bob wins with 3 points: you resigned');
  assert.equal(winnerText({ state: { ...over, you: 1 } }), 'You win with 3 points: Ann resigned');
});

test('a days clock: its words at the table, kept by New game', () => {
  const clock = { mode: 'days', seconds: 2 * 86400, days: 2, increment: 0, on_timeout: 'forfeit', left_ms: [2 * D, 2 * D], running: 1, deadline_ms: NOW + D + 5 * H };
  const s = state(bob, { clock, to_move: 1 });
  assert.match(daysClockWords(s, NOW), /^Correspondence game: 2 days a move; Bob has 1 d 5 h left \(until .+\)$/);
  assert.match(daysClockWords({ ...s, clock: { ...clock, running: 0 } }, NOW), /; you have 1 d 5 h left/);
  assert.equal(daysClockWords(state(bob)), '');
  assert.deepEqual(newGameRequest(s, 'Ann').clock, { mode: 'days', days: 2, on_timeout: 'forfeit' });
});

test('a takeback ask that waits, from the state (a reload shows it)', () => {
  const s = (takeback, extra = {}) => state(bob, { takeback, turn: 5, ...extra });
  assert.deepEqual(takebackAsk(s(undefined)), { ask: null, asked: null, agreed: false });
  // Bob asked, Ann (seat 0) has not answered: hers to answer.
  assert.deepEqual(takebackAsk(s({ seat: 1, agreed: 0 })), { ask: { seat: 1, turn: 5 }, asked: null, agreed: false });
  // Ann agreed already (bit 0): nothing to answer.
  assert.deepEqual(takebackAsk(s({ seat: 1, agreed: 1 })), { ask: null, asked: null, agreed: true });
  // Ann's own ask waits: the button says so.
  assert.deepEqual(takebackAsk(s({ seat: 0, agreed: 0 })), { ask: null, asked: 5, agreed: false });
  // A spectator answers nothing; a finished game has no ask.
  assert.deepEqual(takebackAsk(s({ seat: 1, agreed: 0 }, { you: null })), { ask: null, asked: null, agreed: false });
  assert.deepEqual(takebackAsk(s({ seat: 1, agreed: 0 }, { status: 'finished' })), { ask: null, asked: null, agreed: false });
});
