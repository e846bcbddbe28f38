// puzzles.js: the puzzles (/puzzles, /?puzzle=daily): positions of real
// games where one move is clearly best (docs/puzzles.md). The puzzle
// comes from the server's HTTP API (the puzzle of the day, or the next one
// near the solver's puzzle rating); its board and legal moves from
// `replay` and `position`, as the tutorial sets a step up; the move is
// chosen with the table's own Board and Turn and sent as an attempt,
// whose answer says right or wrong, the best move (drawn faint on the
// board), what it scores and why, and the new ratings. An account's
// rating and streak are kept by the server; a guest's in the browser
// (localStorage), the server only computing each update.

import { Board } from './board.js';
import { Turn } from './turn.js';
import { parseMove } from './game.js';
import { esc } from './panel.js';
import { badge, PLAYERS } from './players.js';
import { moveWords } from './words.js';
import { whoAmI } from './account.js';
import { askPosition, drawReplay, showPosition } from './position.js';

const KEY = 'carc.puzzles';
const RECENT = 40; // a guest's last puzzles, not offered again soon

// A guest's puzzle rating, streak and recent puzzles.
export function loadGuest() {
  try {
    const g = JSON.parse(localStorage.getItem(KEY));
    if (g && Number.isFinite(g.rating)) return { recent: [], ...g };
  } catch { /* a new guest */ }
  return { rating: 1500, rd: 350, volatility: 0.06, streak: 0, best_streak: 0, attempts: 0, recent: [] };
}

function saveGuest(g) {
  try { localStorage.setItem(KEY, JSON.stringify(g)); } catch { /* private mode: this visit only */ }
}

async function api(path, body) {
  const r = await fetch(path, body ? {
    method: 'POST', credentials: 'same-origin', cache: 'no-store',
    headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
  } : { credentials: 'same-origin', cache: 'no-store' });
  const data = await r.json().catch(() => ({}));
  if (!r.ok) throw new Error(data.message || `the server answered ${r.status}`);
  return data;
}

export class PuzzleView {
  constructor(root, conn, catalogue) {
    this.root = root;
    this.conn = conn;
    this.el = (s) => root.querySelector(s);
    this.board = new Board(this.el('#puzzle-board'), catalogue);
    this.turn = new Turn(this.board, this.el('#puzzle-actions'), (m) => this.played(m).catch((e) => this.trouble(e)), (t) => this.say(t));
    this.board.on('click', (x, y, _type, pt) => this.turn.click(x, y, pt));
    this.board.on('spot', (s) => this.turn.pick(s));
    this.onKey = (e) => {
      if (e.target.closest?.('input, select, textarea')) return;
      if ((e.key === 'Enter' || e.key === ' ') && e.target.closest?.('button, a[href]')) return;
      if (this.turn.key(e)) e.preventDefault();
      else if (e.key === 'f' || e.key === 'F') this.board.fit();
    };
    document.addEventListener('keydown', this.onKey);
    this.el('#puzzle-next').onclick = () => this.open('next').catch((e) => this.trouble(e));
    this.el('#puzzle-daily').onclick = () => this.open('daily').catch((e) => this.trouble(e));
    this.el('#puzzle-fit').onclick = () => this.board.fit();
    this.guest = loadGuest();
  }

  close() {
    document.removeEventListener('keydown', this.onKey);
    this.turn.stop();
  }

  event() {}

  // Opens the puzzle of the day ('daily') or the next one near the
  // solver's rating ('next').
  async open(which) {
    if (this.me === undefined) this.me = await whoAmI();
    this.root.dataset.state = 'loading';
    this.feedback('', null);
    let path = '/api/puzzles/daily';
    if (which !== 'daily') {
      const q = this.me ? '' : `?rating=${Math.round(this.guest.rating)}&exclude=${this.guest.recent.join(',')}`;
      path = `/api/puzzles/next${q}`;
    }
    const puzzle = await api(path);
    if (puzzle.solver) this.showRating(puzzle.solver);
    else this.showRating(this.guest);
    await this.load(puzzle, which === 'daily');
  }

  // Sets the puzzle's position up: the board from the record's replay,
  // the turn from the position's legal moves.
  async load(puzzle, daily) {
    this.puzzle = puzzle;
    this.root.dataset.puzzle = puzzle.id;
    this.board.setGhost(null);
    const [replay, legal] = await askPosition(this.conn, puzzle.record, puzzle.tile);
    if (puzzle !== this.puzzle) return;
    const me = legal.player;
    this.el('#puzzle-title').textContent = daily ? `Puzzle of the day (${puzzle.date})` : 'Puzzle';
    this.el('#puzzle-goal').textContent = `${puzzle.goal_text}.`;
    this.el('#puzzle-who').innerHTML = `${badge(me, 14)} You play ${esc(PLAYERS[me].name)}, to place tile ` +
      `<strong>${esc(puzzle.tile)}</strong> <svg viewBox="0 0 100 100" width="40" height="40" aria-hidden="true"><use href="#${esc(this.board.cat.tileId(puzzle.tile))}"/></svg>` +
      ` (move ${puzzle.moves_played + 1}; puzzle rated ${Math.round(puzzle.rating)})`;
    this.showScores(legal.scores, me);
    showPosition(this.board, replay);
    this.turn.start(legal, me, [0, 0]);
    this.root.dataset.state = 'play';
  }

  // The solver's move: the server says whether it is the best one.
  async played(text) {
    const puzzle = this.puzzle;
    const g = this.guest;
    const body = this.me ? { move: text } : {
      move: text, rating: g.rating, rd: g.rd, volatility: g.volatility,
      streak: g.streak, best_streak: g.best_streak, attempts: g.attempts,
    };
    const answer = await api(`/api/puzzles/${encodeURIComponent(puzzle.id)}/attempt`, body);
    if (puzzle !== this.puzzle) return;
    const me = this.turn.player;
    this.turn.stop();
    if (!this.me && answer.rated) {
      const s = answer.solver;
      Object.assign(g, { rating: s.rating, rd: s.rd, volatility: s.volatility, streak: s.streak, best_streak: s.best_streak, attempts: s.attempts });
      g.recent = [...g.recent.filter((id) => id !== puzzle.id), puzzle.id].slice(-RECENT);
      saveGuest(g);
    }
    this.showRating(answer.solver);
    const best = parseMove(answer.best);
    const cat = this.board.cat;
    const words = moveWords(answer.best, (l, r, s) => cat.kindOf(l, r, s));
    if (answer.correct) {
      // The move played: the board after it, with what it scored.
      const after = await this.conn.request('replay', { record: `${puzzle.record}${answer.best}\n` });
      if (puzzle !== this.puzzle) return;
      this.board.setGhost(null);
      drawReplay(this.board, after);
      this.showScores(after.scores, me);
    } else {
      this.board.setGhost({ ...best, player: me }, 'best move');
    }
    const change = answer.rated ? ` Your puzzle rating: ${Math.round(answer.solver.before)} → ${Math.round(answer.solver.rating)}.` : '';
    const because = `${answer.why[0].toUpperCase()}${answer.why.slice(1)}.`;
    if (answer.correct) {
      this.feedback(`Right: ${words}. ${because}${change}`, true);
    } else {
      this.feedback(`Not the best move. The best: ${words} (drawn faint on the board). ${because}${change}`, false);
    }
    this.root.dataset.state = answer.correct ? 'right' : 'wrong';
    this.el('#puzzle-next').focus();
  }

  showScores(scores, me) {
    this.el('#puzzle-scores').innerHTML = (scores || []).map((v, p) =>
      `<li>${badge(p, 14)} ${esc(PLAYERS[p].name)}${p === me ? ' (you)' : ''}: <strong>${v}</strong></li>`).join('');
  }

  showRating(r) {
    this.el('#puzzle-rating').textContent = `${Math.round(r.rating)}${r.rd > 110 ? '?' : ''}`;
    this.el('#puzzle-streak').textContent = `${r.streak} (best ${r.best_streak})`;
    this.el('#puzzle-whose').textContent = this.me ? `${this.me.name}'s, kept by the server` : 'a guest\'s, kept in this browser';
  }

  feedback(text, ok) {
    const el = this.el('#puzzle-feedback');
    el.textContent = text;
    el.hidden = !text;
    el.className = `learn-feedback ${ok === true ? 'ok' : ok === false ? 'wrong' : ''}`;
    if (text) this.say(text);
  }

  trouble(e) {
    this.root.dataset.state = 'trouble';
    this.feedback(`The server could not answer: ${e.message}`, false);
  }

  say(text) {
    const live = document.querySelector('#live');
    if (live) live.textContent = text;
  }
}
