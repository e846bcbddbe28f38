// replay.js: the replay viewer: a finished game of this server or an
// uploaded record, stepped through move by move (step, jump, play at a
// speed), with the engine's review of each move when asked for. The
// server replays the record (`replay`) and checks its deal (the `deal` of
// `replay.ok`); this only shows its steps and what the check found.

import { Board } from './board.js';
import { parseMove, isLogged } from './game.js';
import { badge } from './players.js';
import { eventText, esc, seatName } from './panel.js';
import { moveWords } from './words.js';

// What the server's check of a record's deal found (`replay.ok`'s `deal`:
// {status: "verified" | "unchecked" | "mismatch" | "missing", text}), as
// HTML: an altered record and a finished game whose seed is missing (a
// commitment and no seed: nobody can check its deal) are warnings nobody
// can miss, a verified deal a small badge, an unchecked one a note. A
// server without the check sends no `deal`: that is said too.
export function dealNotice(deal) {
  const text = deal?.text ? esc(deal.text) : '';
  if (deal?.status === 'mismatch') {
    return '<div class="deal-check mismatch" role="alert"><strong>Warning: this record was altered.</strong> ' +
      `Its tiles do not come from its seed: the deal was changed after the game was dealt.${text ? `<br><small>${text}</small>` : ''}</div>`;
  }
  if (deal?.status === 'missing') {
    return '<div class="deal-check mismatch missing" role="alert"><strong>Warning: deal unchecked, the seed is missing.</strong> ' +
      `This finished game's record keeps the commitment but not the seed it was dealt from, so nobody can check that its tiles were dealt fairly.${text ? `<br><small>${text}</small>` : ''}</div>`;
  }
  if (deal?.status === 'verified') return `<span class="deal-check verified" title="${text}">✓ fair deal verified</span>`;
  if (deal?.status === 'unchecked') return `<p class="deal-check unchecked">Deal not checked${text ? `: ${text}` : ''}</p>`;
  return '<p class="deal-check unchecked">Deal not checked: this server does not check records.</p>';
}

// The warning over the board for a deal that is not fair or cannot be checked.
const DEAL_BANNERS = {
  mismatch: '<strong>Altered record:</strong> this deal does not come from its seed.',
  missing: '<strong>Deal unchecked:</strong> the seed is missing from this finished game\'s record.',
};

export class ReplayView {
  constructor(root, conn, catalogue) {
    this.root = root;
    this.conn = conn;
    this.el = (s) => root.querySelector(s);
    this.board = new Board(this.el('#replay-board'), catalogue);
    this.follow = true; // the view follows the position (go) until the player pans or zooms
    this.board.on('moved', () => (this.follow = false));
    this.step = 0;
    this.timer = null;
    this.review = null;
    this.el('.replay-controls').onclick = (e) => this.act(e.target.closest('button')?.dataset.act);
    this.el('#replay-slider').oninput = (e) => this.go(+e.target.value);
    this.el('#replay-speed').onchange = () => this.timer && this.play(true);
    this.el('#replay-review').onclick = (e) => {
      const b = e.target.closest('button[data-step]');
      if (b) this.go(+b.dataset.step);
    };
    this.el('#replay-ask').onclick = () => this.askReview();
    this.onKey = (e) => this.key(e);
    document.addEventListener('keydown', this.onKey);
  }

  close() {
    clearInterval(this.timer);
    document.removeEventListener('keydown', this.onKey);
  }

  // A table of this server: watched for its seats' names and its review.
  async loadTable(id) {
    this.table = id;
    const state = new Promise((resolve) => (this.awaitState = resolve));
    await this.conn.request('watch', { table: id });
    const s = await state;
    this.seats = s.seats;
    this.show(await this.conn.request('replay', { table: id }), `Table ${id}`);
    this.el('#replay-ask').hidden = s.status !== 'finished';
  }

  async loadRecord(text, name) {
    this.table = null;
    const r = await this.conn.request('replay', { record: text });
    this.seats = Array.from({ length: r.players }, (_, p) => ({ name: `Player ${p + 1}`, kind: 'human' }));
    this.el('#replay-ask').hidden = true;
    this.show(r, name);
  }

  event(msg) {
    if (msg.table !== this.table) return;
    if (msg.type === 'state' && this.awaitState) this.awaitState(msg);
    if (msg.type === 'review') {
      this.review = msg.moves;
      this.renderReview();
    }
  }

  show(r, title) {
    this.data = r;
    this.tilesAt = [{ letter: r.start.tile, x: r.start.x, y: r.start.y, rot: r.start.rot }];
    for (const m of r.moves) {
      const mv = parseMove(m.move);
      if (!mv.discard && !mv.end) this.tilesAt.push({ letter: mv.letter, x: mv.x, y: mv.y, rot: mv.rot, move: m });
    }
    this.el('#replay-title').textContent = title;
    this.el('#replay-deal').innerHTML = dealNotice(r.deal);
    const banner = this.el('#replay-banner');
    banner.hidden = !DEAL_BANNERS[r.deal?.status];
    banner.innerHTML = banner.hidden ? '' : DEAL_BANNERS[r.deal.status];
    const slider = this.el('#replay-slider');
    slider.max = r.moves.length;
    this.follow = true;
    this.go(0);
  }

  // Shows the board after `k` moves.
  go(k) {
    const moves = this.data.moves;
    this.step = Math.max(0, Math.min(moves.length, k));
    const done = moves.slice(0, this.step);
    const placed = new Set(done);
    const tiles = this.tilesAt.filter((t) => !t.move || placed.has(t.move));
    const at = new Map(tiles.map((t) => [`${t.x},${t.y}`, t]));
    const last = done[done.length - 1];
    this.board.setTiles(tiles);
    // The view follows the position shown (it opened zoomed out to the
    // whole game: at move 0 the start tile was small and off-centre on a
    // phone): the tiles placed so far fitted, the start tile alone at a
    // readable size, until the player pans or zooms; Fit (F) follows again.
    if (this.follow) this.board.fit();
    this.board.setFollowers((last ? last.followers : []).map((f) => ({ ...at.get(`${f.x},${f.y}`), spot: f.spot, player: f.player, figure: f.figure })).filter((f) => f.letter));
    const lastOf = {};
    for (const m of done) {
      const mv = parseMove(m.move);
      if (!mv.discard && !mv.end) lastOf[m.player] = { x: mv.x, y: mv.y, turn: m.turn + 1, player: m.player };
    }
    this.board.setMarks(Object.values(lastOf));
    this.board.setGhost(this.bestOf(last));
    this.el('#replay-slider').value = this.step;
    this.root.dataset.step = this.step;
    this.renderSide(last);
  }

  renderSide(last) {
    const scores = last ? last.scores : this.seats.map(() => 0);
    this.el('#replay-players').innerHTML = this.seats.map((s, p) =>
      `<li class="player">${badge(p)}<span class="name">${esc(seatName(s, p))}</span><span class="score">${scores[p]}</span></li>`).join('');
    let text = `Move ${this.step} of ${this.data.moves.length}`;
    if (last) {
      const who = last.player >= 0 ? seatName(this.seats[last.player], last.player) : 'The game';
      text += `: ${esc(who)} ${last.move === 'end' ? 'ended' : `played ${esc(this.words(last.move))}`}`;
      for (const e of last.events.filter(isLogged)) text += `<br>${esc(eventText(e, this.seats))}`;
      const again = playsAgain(this.data, this.step);
      if (again) text += `<br><strong class="again">${esc(again)}</strong>`;
      const rv = this.review?.find((r) => r.turn === last.turn);
      if (rv) text += rv.loss > 0.05 ? `<br>Engine: this move lost ${rv.loss.toFixed(1)} points; best was ${esc(this.words(rv.best))} (drawn faint on the board, marked "best")`
        : '<br>Engine: this was the best move';
    }
    this.el('#replay-move').innerHTML = text;
  }

  // A move of the record in words, with its follower's role from the tiles.
  words(move) {
    const cat = this.board.cat;
    return moveWords(move, (l, r, spot) => cat.kindOf(l, r, spot));
  }

  // The review's best move for the move just shown, when it was better.
  bestOf(last) {
    const rv = last && this.review?.find((r) => r.turn === last.turn);
    if (!rv || rv.loss <= 0.05) return null;
    const mv = parseMove(rv.best);
    return mv.discard || mv.end ? null : { ...mv, player: last.player };
  }

  renderReview() {
    const worst = [...this.review].filter((r) => r.loss > 0.05).sort((a, b) => b.loss - a.loss).slice(0, 8);
    this.el('#replay-review').innerHTML = '<h3>Where the game was lost</h3>' + (worst.length ? '<ol>' + worst.map((r) =>
      `<li><button type="button" data-step="${r.turn + 1}">Move ${r.turn + 1}, ${esc(seatName(this.seats[r.player], r.player))}: ` +
      `${r.loss.toFixed(1)} points lost; best: ${esc(this.words(r.best))}</button></li>`).join('') + '</ol>' : '<p>No move lost points.</p>');
    this.go(this.step);
  }

  async askReview() {
    this.el('#replay-review').innerHTML = '<p>The engine is reviewing every move…</p>';
    try {
      await this.conn.request('review', { table: this.table, ms: 100 });
    } catch (e) {
      this.el('#replay-review').textContent = `No review: ${e.message}`;
    }
  }

  play(restart = false) {
    const button = this.el('button[data-act=play]');
    if (this.timer && !restart) {
      clearInterval(this.timer);
      this.timer = null;
      button.textContent = '▶ Play';
      return;
    }
    button.textContent = '❚❚ Pause';
    clearInterval(this.timer);
    if (this.step >= this.data.moves.length) this.go(0);
    this.timer = setInterval(() => {
      if (this.step >= this.data.moves.length) this.play();
      else this.go(this.step + 1);
    }, +this.el('#replay-speed').value);
  }

  act(name) {
    const n = this.data?.moves.length || 0;
    ({ first: () => this.go(0), back: () => this.go(this.step - 1), next: () => this.go(this.step + 1), last: () => this.go(n),
      play: () => this.play(), review: () => this.askReview(), fit: () => { this.follow = true; this.board.fit(); } })[name]?.();
  }

  key(e) {
    if (e.target.closest?.('input, select')) return;
    // A focused button does only what it says.
    if ((e.key === 'Enter' || e.key === ' ') && e.target.closest?.('button, a[href], summary')) return;
    const f = { ArrowLeft: 'back', ArrowRight: 'next', Home: 'first', End: 'last', ' ': 'play', f: 'fit' }[e.key];
    if (!f) return;
    e.preventDefault();
    this.act(f);
  }
}

// The line a replay shows when the move after `step` moves is the same
// seat's again (not after a discard): with Traders & Builders (and no
// bonus turn for filling a hole, which also gives a second move) it is
// the builder's second tile.
// The replay's moves do not say why; '' when the next seat is another.
export function playsAgain(data, step) {
  const last = data.moves[step - 1], next = data.moves[step];
  if (!last || !next || last.player < 0 || next.player !== last.player || next.move === 'end') return '';
  if (parseMove(last.move).discard) return ''; // a tile that fits nowhere: the same player draws again
  const builder = (data.expansions || []).includes('traders-builders') && !(data.rules || []).includes('bonus-turn');
  return builder ? 'Builder: play again (a second tile for the same player)' : 'The same player plays again';
}
