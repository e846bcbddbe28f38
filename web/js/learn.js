// learn.js: the tutorial (/learn, /?learn=LESSON): each lesson's steps are
// positions the server sets up from a record (`position`: the legal moves
// of the next turn with the step's tile drawn); the player's move is
// chosen with the table's own Board and Turn, then the record with the
// move is replayed by the server (`replay`) and the step's goal is checked
// against the scoring the engine reports (lessons.js). A wrong move is
// explained with what it scored, and may be tried again. Progress is kept
// in the account when logged in (a guest's progress in this browser is
// sent to it then), in the browser (localStorage) otherwise.

import { Board } from './board.js';
import { Turn, touchInput } from './turn.js';
import { parseMove } from './game.js';
import { esc } from './panel.js';
import { badge } from './players.js';
import { moveWords } from './words.js';
import { askPosition, drawReplay, showPosition } from './position.js';
import { LESSONS, GAME_LESSON, ME, checkGoal, withMove, loadProgress, saveProgress, accountProgress, sendLessons, introText, stepText } from './lessons.js';
import { maySession } from './account.js';

// A tile any base-game position can still give: the drawn tile of the
// position asked after a builder's move (its `second_part` is the answer).
const ANY_TILE = 'U';

// The board's label on a touch screen; the page's own (kept at the first
// view) names the keys.
const TOUCH_BOARD = 'the lesson\'s board: tap a square where the tile fits to choose it, tap the tile to turn it, ✓ Place here puts it down, then tap a spot for a follower';
let keysBoard = null;

export class LearnView {
  constructor(root, conn, catalogue) {
    this.root = root;
    this.conn = conn;
    this.el = (s) => root.querySelector(s);
    this.board = new Board(this.el('#learn-board'), catalogue);
    this.turn = new Turn(this.board, this.el('#learn-actions'), (m) => this.played(m).catch((e) => this.trouble(e)), (t) => this.say(t));
    this.board.on('click', (x, y, _type, pt) => this.turn.click(x, y, pt));
    this.board.on('spot', (s) => this.turn.pick(s));
    // A hand of tiles: a click on one chooses it (T: the next one).
    this.turn.changed = () => this.renderHand();
    this.el('#learn-hand').onclick = (e) => { // one handler: a new view replaces the last one's
      const b = e.target.closest('button[data-hand]');
      if (b) this.turn.selectTile(+b.dataset.hand);
    };
    this.onKey = (e) => {
      if (e.target.closest?.('input, select, textarea')) return;
      if ((e.key === 'Enter' || e.key === ' ') && e.target.closest?.('button, a[href]')) return;
      if (this.turn.key(e)) e.preventDefault();
      else if (e.key === 'f' || e.key === 'F') this.board.fit();
    };
    document.addEventListener('keydown', this.onKey);
    // A finger after a mouse (or the other way round): the words follow
    // (turn.js's own listener, on the window, has seen the pointer first).
    keysBoard ??= this.el('#learn-board').getAttribute('aria-label');
    this.onPointer = () => this.lesson && touchInput() !== this.touch && this.renderWords();
    document.addEventListener('pointerdown', this.onPointer, { capture: true, passive: true });
    this.el('#learn-retry').onclick = () => this.loadStep();
    this.el('#learn-next').onclick = () => this.next();
    this.el('#learn-show').onclick = () => this.showSolution().catch((e) => this.trouble(e));
    this.el('#learn-fit').onclick = () => this.board.fit();
    this.progress = loadProgress();
    this.account = false;
    this.ready = this.syncAccount();
  }

  // Logged in: the account's progress, this browser's guest progress
  // moved into it.
  async syncAccount() {
    if (!maySession()) return; // a guest: no request for a 401
    const got = await accountProgress(this.progress);
    this.progress = got.progress;
    this.account = got.account;
    if (got.account && got.sent) saveProgress({});
  }

  close() {
    document.removeEventListener('keydown', this.onKey);
    document.removeEventListener('pointerdown', this.onPointer, { capture: true });
    this.turn.stop();
  }

  // The lesson's intro, the step's task and the board's label in the
  // words of the input at hand: clicks and keys, or on a touch screen
  // taps (touchInput, as the turn's bar).
  renderWords() {
    this.touch = touchInput();
    this.el('#learn-intro').textContent = introText(this.lesson, this.touch);
    this.el('#learn-task').textContent = this.lesson.steps ? stepText(this.step, this.touch) : '';
    this.el('#learn-board').setAttribute('aria-label', this.touch ? TOUCH_BOARD : keysBoard);
  }

  event() {}

  // Opens lesson `id` (the first lesson not done yet when none is given).
  async open(id) {
    await this.ready;
    const lesson = LESSONS.find((l) => l.id === id) || (id === GAME_LESSON.id ? GAME_LESSON : null) ||
      LESSONS.find((l) => !this.progress[l.id]) || GAME_LESSON;
    this.lesson = lesson;
    this.stepIndex = 0;
    this.renderList();
    this.el('#learn-title').textContent = lesson.title;
    this.renderWords();
    this.root.dataset.lesson = lesson.id;
    if (lesson === GAME_LESSON) return this.showGame();
    this.el('#learn-board-wrap').hidden = false;
    this.el('#learn-game').hidden = true;
    await this.loadStep();
  }

  renderList() {
    const all = [...LESSONS, GAME_LESSON];
    const done = all.filter((l) => this.progress[l.id]).length;
    this.el('#learn-count').textContent = `${done} of ${all.length} done`;
    this.el('#learn-list').innerHTML = all.map((l) =>
      `<li${l === this.lesson ? ' aria-current="step"' : ''} data-lesson="${l.id}"${this.progress[l.id] ? ' class="done"' : ''}>` +
      `<a href="/?learn=${l.id}">${this.progress[l.id] ? '<span class="tick" aria-label="done">✓</span> ' : ''}${esc(l.title)}</a>` +
      ` <small>${l.minutes} min</small></li>`).join('');
  }

  get step() {
    return this.lesson.steps[this.stepIndex];
  }

  // Sets the step's position up: the board from the record's replay, the
  // turn from the position's legal moves.
  async loadStep() {
    const step = this.step, n = this.lesson.steps.length;
    this.root.dataset.state = 'loading';
    this.feedback('', null);
    this.el('#learn-step').textContent = n > 1 ? `Step ${this.stepIndex + 1} of ${n}` : '';
    this.root.dataset.step = this.stepIndex;
    this.el('#learn-show').hidden = true;
    this.board.setGhost(null);
    this.renderWords();
    this.el('#learn-retry').hidden = true;
    this.el('#learn-next').hidden = true;
    const [replay, legal] = await askPosition(this.conn, step.record, step.tile);
    if (step !== this.step) return;
    this.legal = legal;
    showPosition(this.board, replay);
    this.showScores(legal.scores);
    this.turn.start(legal, legal.player, [0, 0]);
    this.root.dataset.state = 'play';
  }

  // The hand's tiles (hand=N), the one held pressed.
  renderHand() {
    const hand = this.turn.phase === 'wait' ? null : this.turn.hand;
    const el = this.el('#learn-hand');
    el.hidden = !hand;
    el.innerHTML = hand ? '<span>Your hand:</span> ' + hand.map((h, i) => {
      const chosen = i === this.turn.handIndex;
      return `<button type="button" class="hand-pick${chosen ? ' chosen' : ''}" data-hand="${i}" data-tile="${esc(h.tile)}" aria-pressed="${chosen}" title="tile ${esc(h.tile)}">` +
        `<svg viewBox="0 0 100 100" width="52" height="52" aria-hidden="true"><use href="#${esc(this.board.cat.tileId(h.tile))}"/></svg><span>${esc(h.tile)}</span></button>`;
    }).join('') : '';
  }

  showScores(scores) {
    if (!scores) return;
    this.el('#learn-scores').innerHTML = scores.map((v, p) =>
      `<li>${badge(p, 14)} ${p === ME ? 'You' : 'The other player'}: <strong>${v}</strong></li>`).join('');
  }

  // The player's move: replayed by the server, and the goal checked on
  // what the engine reports.
  async played(text) {
    const step = this.step, goal = step.goal;
    const mv = parseMove(text);
    const legal = this.turn.legal || this.legal; // with a hand: the moves of the tile chosen
    const placement = legal.placements.find((p) => p.x === mv.x && p.y === mv.y && p.rot === mv.rot);
    const spot = placement?.spots.find((s) => s.spot === mv.spot);
    const role = mv.spot ? spot?.role || this.board.cat.kindOf(mv.letter, mv.rot, mv.spot) : null;
    const record = withMove(step.record, text);
    const [after, ended, next] = await Promise.all([
      this.conn.request('replay', { record }),
      goal.end ? this.conn.request('replay', { record: withMove(step.record, text, true) }) : null,
      goal.again ? this.conn.request('position', { record, tile: ANY_TILE }).catch(() => null) : null,
    ]);
    if (step !== this.step) return;
    const last = after.moves.at(-1);
    const result = {
      move: { x: mv.x, y: mv.y, spot: mv.spot, figure: mv.figure, role },
      events: last.events,
      end: goal.end ? ended.moves.at(-1).events : null,
      next,
    };
    this.turn.stop();
    this.board.setGhost(null);
    drawReplay(this.board, after);
    this.showScores((goal.end ? ended : after).scores);
    const verdict = checkGoal(goal, result);
    this.root.dataset.state = verdict.ok ? 'done' : 'wrong';
    if (verdict.ok) {
      const last = this.stepIndex === this.lesson.steps.length - 1;
      if (last) this.finish(this.lesson.id);
      this.feedback(`Well done. ${step.done} (${verdict.why})`, true);
      this.el('#learn-next').textContent = last ? 'Next lesson ▶' : 'Next step ▶';
      this.el('#learn-next').hidden = false;
      this.el('#learn-retry').hidden = false;
      this.el('#learn-retry').textContent = '↶ Play it again';
      this.el('#learn-next').focus();
    } else {
      this.feedback(`Not quite. ${verdict.why}`, false);
      this.el('#learn-retry').hidden = false;
      this.el('#learn-show').hidden = !step.solution;
      this.el('#learn-retry').textContent = '↶ Try again';
      this.el('#learn-retry').focus();
    }
  }

  // "Show me": the step again, with a move that meets the goal drawn
  // faint on the board and said in words.
  async showSolution() {
    const step = this.step;
    await this.loadStep();
    if (step !== this.step || !step.solution) return;
    const mv = parseMove(step.solution);
    this.board.setGhost({ ...mv, player: ME }, 'try this');
    const cat = this.board.cat;
    this.feedback(`One way: ${moveWords(step.solution, (l, r, s) => cat.kindOf(l, r, s))} (drawn faint on the board).`, null);
  }

  finish(id) {
    this.progress[id] = true;
    this.renderList();
    if (!this.account) {
      saveProgress(this.progress);
      return;
    }
    // Kept in the account; in the browser too when the server cannot
    // take it now (sent at the next visit).
    sendLessons([id]).then((all) => {
      if (!all) saveProgress({ ...loadProgress(), [id]: true });
    });
  }

  async next() {
    if (this.stepIndex < this.lesson.steps.length - 1) {
      this.stepIndex++;
      await this.loadStep();
      return;
    }
    const all = [...LESSONS, GAME_LESSON];
    const after = all[all.indexOf(this.lesson) + 1] || GAME_LESSON;
    history.pushState(null, '', `/?learn=${after.id}`);
    await this.open(after.id);
  }

  // The last lesson: a game against the easy computer, hints on.
  showGame() {
    this.turn.stop();
    this.el('#learn-board-wrap').hidden = true;
    this.el('#learn-game').hidden = false;
    this.el('#learn-step').textContent = '';
    this.el('#learn-task').textContent = '';
    this.feedback('', null);
    this.el('#learn-retry').hidden = true;
    this.el('#learn-next').hidden = true;
    this.el('#learn-play').onclick = () => this.finish(GAME_LESSON.id);
  }

  feedback(text, ok) {
    const el = this.el('#learn-feedback');
    el.textContent = text;
    el.hidden = !text;
    el.className = `learn-feedback ${ok === true ? 'ok' : ok === false ? 'wrong' : ''}`;
    if (text) this.say(text);
  }

  trouble(e) {
    this.root.dataset.state = 'wrong';
    this.feedback(`The server could not check the move: ${e.message}`, false);
    this.el('#learn-retry').hidden = false;
  }

  say(text) {
    const live = document.querySelector('#live');
    if (live) live.textContent = text;
  }
}
