// tableview.js: one table on screen: it folds the server's events into a
// Table, draws the board and the side panel, runs our turn, and announces
// what happens in an aria-live region.

import { rulesUrl } from './rulelinks.js';
import { Board } from './board.js';
import { Table, parseMove, isLogged, handSlots } from './game.js';
import { Turn } from './turn.js';
import { renderPlayers, renderTilesLeft, renderLog, eventText, seatName, esc } from './panel.js';
import { renderFinal, winnerText, newGameRequest } from './end.js';
import { Inspector } from './inspector.js';
import { PLAYERS, badge } from './players.js';
import * as store from './store.js';
import { figureWords, plural } from './words.js';
import { SeatActions } from './seatactions.js';
import { Rematch } from './rematch.js';

// The name of a player who gives none, everywhere (quick play, a new
// table, joining one).
export const DEFAULT_NAME = 'Player';

export class TableView {
  // games: the MyGames of the page (the title, notifications), or null.
  constructor(root, conn, catalogue, id, games = null) {
    this.root = root;
    // The root serves every table this page opens: the status it holds is
    // the last table's until this one is drawn (a test waiting for
    // "playing" read the last table's players under load).
    delete root.dataset.status;
    this.conn = conn;
    this.id = id;
    this.games = games;
    this.wasMyTurn = null; // whether it was our turn at the last render (null: not drawn yet)
    this.handSlot = -1; // the place in our hand of the tile clicked last (hand=N)
    this.el = (sel) => root.querySelector(sel);
    this.board = new Board(this.el('#board'), catalogue);
    this.turn = new Turn(this.board, this.el('#actions'), (m) => this.sendMove(m), (t) => this.say(t));
    this.board.on('click', (x, y, _type, pt) => {
      if (!this.turn.click(x, y, pt) && this.table) this.inspector.inspectAt(x, y, pt.fx, pt.fy).catch(() => {});
    });
    this.inspector = new Inspector(this, this.el('#inspector'));
    this.actions = new SeatActions(this, this.el('#seat-actions'));
    this.rematch = new Rematch(this, (url) => this.goTo(url));
    this.turn.changed = () => this.table && this.renderDrawn();
    this.handEvents();
    this.board.on('spot', (s) => this.turn.pick(s));
    this.table = null;
    this.legalTurn = -1;
    this.onKey = (e) => this.key(e);
    document.addEventListener('keydown', this.onKey);
    this.el('.board-tools').onclick = (e) => this.tool(e.target.closest('button')?.dataset.tool);
    this.el('#log').onclick = (e) => {
      const b = e.target.closest('button[data-log]');
      if (b) this.showEvent(this.table.log[+b.dataset.log]);
    };
    this.el('#final').onclick = (e) => {
      if (e.target.closest('button[data-act=replay-end]')) this.showFinalScoring();
      if (e.target.closest('button[data-act=new-game]')) this.newGame();
    };
    this.unread = 0;
    const chatBox = this.el('#chat-box');
    chatBox.ontoggle = () => {
      if (chatBox.open) this.markRead();
    };
    const chat = this.el('#chat-form');
    chat.onsubmit = (e) => {
      e.preventDefault();
      const text = chat.text.value.trim();
      if (!text) return;
      this.conn.request('chat', { table: this.id, text }).then(() => (chat.text.value = ''), (err) => this.say(`Not sent: ${err.message}`));
    };
    const on = this.el('#estimate-on');
    on.checked = localStorage.getItem('carcassonne.estimate') === 'on';
    on.onchange = () => {
      localStorage.setItem('carcassonne.estimate', on.checked ? 'on' : 'off');
      this.renderEstimate(null);
      this.estimateAsked = null;
      this.refreshEstimate();
    };
    this.hintWaiting = null; // {turn, resolve} while a hint is on its way
    this.tick = setInterval(() => this.table?.state.clock && this.renderPlayers(), 500);
  }

  close() {
    document.removeEventListener('keydown', this.onKey);
    clearInterval(this.tick);
    this.rematch.close();
  }

  // To another address of the page (a new table): app.js routes it.
  goTo(url) {
    history.pushState(null, '', url);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }

  say(text) {
    const live = document.getElementById('live');
    live.textContent = '';
    setTimeout(() => (live.textContent = text), 30);
  }

  // --- Events from the server ----------------------------------------------------

  event(msg) {
    if (msg.table !== this.id) return;
    if (msg.type === 'state') this.onState(msg);
    else if (!this.table) return;
    else if (msg.type === 'move') this.onMove(msg);
    else if (msg.type === 'seat') this.onSeat(msg);
    else if (msg.type === 'end') this.onEnd(msg);
    else if (msg.type === 'chat') this.addChat(msg, true);
    else if (msg.type === 'hint') this.onHint(msg);
    else if (msg.type === 'estimate') this.renderEstimate(msg);
    else if (msg.type === 'takeback') this.actions.onTakeback(msg);
    else if (msg.type === 'resign') this.actions.onResign(msg);
    else if (msg.type === 'rematch') this.rematch.onEvent(msg);
  }

  // Hints and the estimate: for a seat whose every opponent is a computer,
  // at a table that allows them (its `estimates` option).
  analysisAllowed() {
    const s = this.table.state;
    return s.status === 'playing' && s.estimates !== false && s.you !== null &&
      s.seats.every((seat, p) => p === s.you || seat.kind === 'computer');
  }

  // The server searches on its worker pool: `hint.ok` says it is asked, the
  // `hint` event of this turn brings the three moves.
  requestHint() {
    const turn = this.table.state.turn;
    const moves = new Promise((resolve) => {
      this.hintWaiting?.resolve([]);
      this.hintWaiting = { turn, resolve };
    });
    this.conn.request('hint', { table: this.id }).catch(() => this.onHint({ turn, moves: [] }));
    return moves;
  }

  onHint(ev) {
    if (!this.hintWaiting || this.hintWaiting.turn !== ev.turn) return;
    this.hintWaiting.resolve(ev.moves);
    this.hintWaiting = null;
  }

  // Each player's chance to win by the engine's search (`estimate` event);
  // null for a player not estimated yet (games of three or more).
  renderEstimate(ev) {
    const el = this.el('#estimate');
    if (!ev || !this.el('#estimate-on').checked) {
      el.innerHTML = '';
      return;
    }
    el.innerHTML = ev.win.map((v, p) => `<li>${badge(p, 14)}<span class="bar"><span style="width:${v === null ? 0 : 100 * v}%;background:${PLAYERS[p % PLAYERS.length].colour}"></span></span>` +
      `<span>${v === null ? '–' : `${Math.round(100 * v)}%`}</span></li>`).join('');
    el.dataset.turn = ev.turn;
  }

  // Asks the server for `estimate` events once per connection and table
  // (again after a reconnect's `state`), or stops them.
  async refreshEstimate() {
    const box = this.el('#estimate-box');
    box.hidden = !this.analysisAllowed();
    const want = !box.hidden && this.el('#estimate-on').checked;
    const key = `${want}`;
    if (!want && this.table.state.status !== 'playing') this.estimateAsked = null; // the server stopped them
    if (this.estimateAsked === key || (!want && this.estimateAsked === null)) return;
    this.estimateAsked = key;
    try {
      await this.conn.request('estimate', { table: this.id, on: want });
    } catch {
      this.estimateAsked = null;
    }
  }

  onState(state) {
    const first = !this.table;
    this.estimateAsked = null; // a new connection, or a sync: ask again
    this.table = new Table(state);
    this.table.clockAt = performance.now();
    this.actions.stateCame();
    this.render();
    this.el('#chat').innerHTML = '';
    for (const line of state.chat || []) this.addChat(line);
    this.markRead();
    if (first) {
      this.board.fit();
      const s = this.table.state;
      this.say(s.status === 'waiting' ? 'Waiting for players to join.' : this.whoseTurn());
    }
  }

  onMove(ev) {
    const t = this.table;
    if (ev.turn !== t.state.turn) {
      this.conn.request('sync', { table: this.id }).catch(() => {});
      return;
    }
    t.applyMove(ev);
    this.actions.moveMade();
    this.highlightEvents(ev.events);
    const mv = parseMove(ev.move);
    const who = seatName(t.state.seats[ev.player], ev.player);
    let text = mv.discard ? `${who} discarded ${mv.letter}.` : mv.end ? '' : `${who} placed ${mv.letter} at ${mv.x}, ${mv.y}${mv.spot ? ` with ${figureWords(mv.figure)}` : ''}.`;
    for (const e of ev.events.filter(isLogged)) text += ` ${eventText(e, t.state.seats)}.`;
    // A hand game: a returned tile and our own draws (the others' are hidden).
    if (t.hand) {
      if (mv.discard && ev.returned) text += ` ${mv.letter} went back into the pile.`;
      const drew = (ev.draws || []).filter((d) => d.player === t.you && d.tile).map((d) => d.tile);
      if (drew.length) text += ` You drew ${drew.join(', ')}.`;
    }
    this.render();
    if (t.state.status === 'playing') text += ` ${this.whoseTurn()}`;
    this.say(text.trim());
  }

  onSeat(ev) {
    const seat = this.table.state.seats[ev.seat];
    seat.present = ev.present;
    if (ev.name) seat.name = ev.name;
    if (ev.kind) seat.kind = ev.kind;
    // A seat taken by an account (or reopened) brings its rating (or none).
    seat.rating = ev.rating;
    seat.provisional = ev.provisional;
    this.renderPlayers();
  }

  onEnd(ev) {
    const s = this.table.state;
    s.status = 'finished';
    s.to_move = null;
    s.final = ev;
    ev.scores.forEach((v, p) => (s.seats[p].score = v));
    this.render();
    const best = ev.winners.map((w) => seatName(s.seats[w], w)).join(' and ');
    this.say(`The game is over. ${best} won with ${plural(ev.scores[ev.winners[0]], 'point')}.`);
  }

  // `live`: a line just said (not one of the state's past lines).
  addChat(line, live = false) {
    const who = line.seat === null || line.seat === undefined ? `${esc(line.name || 'a spectator')} (watching)` : `${badge(line.seat, 14)} ${esc(line.name || seatName(this.table.state.seats[line.seat], line.seat))}`;
    const li = document.createElement('li');
    li.innerHTML = `${who}: ${esc(line.text)}`;
    const list = this.el('#chat');
    list.appendChild(li);
    while (list.children.length > 50) list.firstChild.remove();
    list.scrollTop = list.scrollHeight;
    if (!live) return;
    if (!this.el('#chat-box').open) this.unread++;
    this.markRead(this.unread);
  }

  // The chat's summary counts the lines that came while it was closed.
  markRead(n = 0) {
    this.unread = n;
    const sign = this.el('#chat-new');
    sign.textContent = n ? `${n} new` : '';
    sign.hidden = !n;
  }

  whoseTurn() {
    const s = this.table.state;
    if (s.status !== 'playing' || s.to_move === null) return '';
    // Traders & Builders: the builder's second tile is the same seat's turn again.
    if (this.table.myTurn && this.table.hand) return s.second_part ? 'Builder: play again: choose a tile of your hand.' : 'Your turn: choose a tile of your hand.';
    if (this.table.myTurn) return s.second_part ? `Builder: play again: tile ${s.tile}.` : `Your turn: tile ${s.tile}.`;
    const who = seatName(s.seats[s.to_move], s.to_move);
    return s.second_part ? `Builder: ${who} plays again.` : `${who} to move.`;
  }

  // --- Our turn ------------------------------------------------------------------

  async askLegal() {
    const t = this.table;
    if (!t.myTurn) {
      if (this.turn.phase !== 'wait') this.turn.stop();
      this.legalTurn = -1;
      return;
    }
    if (this.legalTurn === t.state.turn) return;
    this.legalTurn = t.state.turn;
    try {
      const legal = await this.conn.request('legal', { table: this.id });
      if (legal.turn !== this.table.state.turn || !this.table.myTurn) {
        // The answer is for another turn than the one shown (a state
        // caught up meanwhile): ask again for the turn shown.
        this.legalTurn = -1;
        this.retryLegal();
        return;
      }
      const last = this.table.tiles[this.table.tiles.length - 1];
      this.turn.start(legal, t.you, [last.x, last.y]);
    } catch {
      this.legalTurn = -1;
      this.retryLegal();
    }
  }

  // Asks for the legal moves again shortly, while it is still our turn and
  // no turn is under way: a refused or outdated answer never leaves the
  // player without a turn to play.
  retryLegal() {
    clearTimeout(this.legalRetry);
    this.legalRetry = setTimeout(() => {
      if (this.table.myTurn && this.turn.phase === 'wait') this.askLegal();
    }, 300);
  }

  async sendMove(move) {
    const turn = this.table.state.turn;
    try {
      await this.conn.request('move', { table: this.id, turn, move });
      // Only the turn that sent it: the next one may already have begun
      // when the answer comes after the other seats' moves.
      if (this.turn.phase === 'sent') this.turn.stop();
    } catch (e) {
      this.say(`The move was refused: ${e.message}`);
      this.legalTurn = -1;
      this.askLegal();
    }
  }

  // --- Drawing -------------------------------------------------------------------

  render() {
    const t = this.table, s = t.state;
    this.board.setTiles(t.tiles);
    this.board.setFollowers(t.followersOnTiles());
    this.board.setMarks(t.lastTiles());
    this.board.setDead(s.remaining && s.status === 'playing' ? s.dead || [] : []);
    this.board.setEdge(s.table_edge || null);
    this.renderPlayers();
    this.renderDrawn();
    renderTilesLeft(this.el('#tiles-left'), t, this.board.cat);
    renderLog(this.el('#log'), t);
    renderFinal(this.el('#final'), t);
    this.rematch.render();
    this.root.dataset.status = s.status;
    this.root.dataset.myTurn = t.myTurn ? 'yes' : 'no';
    this.root.dataset.turn = s.turn;
    this.renderWaiting();
    this.renderBanner();
    this.renderInfo();
    this.turn.idle = esc(this.idleText());
    if (this.turn.phase === 'wait') this.turn.renderBar();
    const title = t.myTurn ? `Your turn: Carcassonne` : s.status === 'finished' ? 'Game over: Carcassonne' : `Carcassonne: table ${this.id}`;
    if (this.games) this.games.setTitle(title, this.id);
    else document.title = title;
    // It became our turn: a notification while the tab is in the background
    // (not for the turn the page opened on).
    if (t.myTurn && this.wasMyTurn === false) this.games?.notify(this.id, s.turn, 'Your turn');
    else if (t.myTurn) this.games?.told.add(`${this.id}:${s.turn}`);
    this.wasMyTurn = t.myTurn;
    this.actions.render();
    this.turn.askHint = this.analysisAllowed() ? () => this.requestHint() : null;
    this.askLegal();
    this.refreshEstimate();
  }

  renderPlayers() {
    renderPlayers(this.el('#players'), this.table);
  }

  // Whether this page may take a seat at the table: no seat yet, the
  // game waiting, a seat open (or an invitation in the address).
  canJoin() {
    const s = this.table.state;
    if (s.you !== null || s.status !== 'waiting' || store.seatOf(this.id)?.token) return false;
    return s.seats.some((seat) => seat.kind === 'open') || (new URLSearchParams(location.search).has('invite') && s.seats.some((seat) => seat.kind === 'invite'));
  }

  // The action bar's line while it is not our turn. A player who came by
  // an invitation or the table's link is not "watching" before joining.
  idleText() {
    const s = this.table.state;
    const watching = s.you === null ? (this.canJoin() ? 'Not seated yet: join the table (in the panel) to take your seat. ' : 'You are watching. ') : '';
    if (s.status === 'waiting') return `${watching}The game starts when every seat is taken.`;
    if (s.status !== 'playing') return `${watching}The game is over. ${winnerText(this.table)}.`;
    return `${watching}${this.whoseTurn()}`;
  }

  // What kind of table: a rated game says so (its ratings move at the end).
  renderInfo() {
    // The header's Rules link opens at the rules this table plays.
    const rules = document.querySelector('#rules-link');
    if (rules) {
      rules.href = rulesUrl(this.table.state);
      rules.target = '_blank'; // the game stays open in its own tab
    }
    const el = this.el('#table-info'), s = this.table.state;
    el.hidden = !s.rated;
    el.innerHTML = s.rated ? '<strong class="rated">Rated game</strong>: the players\' ratings move at the end; no takebacks. A click on a name opens the player\'s page.' : '';
  }

  // At the end: who won, over the board, until closed. When it comes (the
  // game ends, or the page opens on its end) the board is fitted below it:
  // it covered the top of the board, the last tile placed hidden under it.
  renderBanner() {
    const el = this.el('#banner'), s = this.table.state, was = !el.hidden;
    if (!s.final || this.bannerClosed) {
      el.hidden = true;
      return;
    }
    el.innerHTML = `<strong>${esc(winnerText(this.table))}</strong> <button type="button" class="close" aria-label="close">×</button>`;
    el.querySelector('.close').onclick = () => {
      this.bannerClosed = true;
      el.hidden = true;
    };
    el.hidden = false;
    if (!was) this.board.fit();
  }

  // A hand game's side card: our hand as tiles to pick from (a click, or a
  // drag onto the board, while it is our turn), and who is to move.
  renderHand(el) {
    const s = this.table.state, t = this.turn;
    const mine = s.you !== null && s.to_move === s.you;
    const playable = mine && t.hand && ['place', 'discard', 'follower'].includes(t.phase);
    // A spectator sees the hand to play only with open hands (the server's `tiles`).
    const shown = s.you !== null ? s.hand || [] : s.hands?.[s.to_move]?.tiles || [];
    // Two tiles of a kind are one choice; only one of them is framed.
    const slots = handSlots(shown, playable ? t.hand : null, t.handIndex, this.handSlot);
    const tiles = shown.map((tile, i) => {
      const { index, chosen } = slots[i];
      const fits = index >= 0 ? t.hand[index] : null;
      const note = fits && !fits.placements.length ? ' (fits nowhere)' : '';
      return `<button type="button" class="hand-pick${chosen ? ' chosen' : ''}" data-hand="${index}" data-slot="${i}" data-tile="${esc(tile)}"` +
        `${playable ? ' draggable="true"' : ' disabled'} aria-pressed="${chosen}" title="tile ${esc(tile)}${note}">` +
        `<svg viewBox="0 0 100 100" width="52" height="52" aria-hidden="true"><use href="#${esc(this.board.cat.tileId(tile))}"/></svg><span>${esc(tile)}</span></button>`;
    }).join('');
    const moverName = esc(seatName(s.seats[s.to_move], s.to_move));
    const who = mine ? 'Your turn: choose a tile' : s.you !== null ? 'Your hand' : shown.length ? `${moverName}'s hand` : 'Hands are hidden';
    const mover = mine ? '' : `${moverName} to move (${s.hands?.[s.to_move]?.count ?? 0} in hand). `;
    const watching = s.you === null ? '<p class="watching">You are watching this table.</p>' : '';
    el.innerHTML = `<div class="hand-card"><strong>${who}</strong>${s.second_part ? ' <strong class="again">Builder: play again</strong>' : ''}` +
      `<div class="hand-tiles" role="group" aria-label="your hand">${tiles}</div>` +
      `<span>${mover}turn ${s.turn + 1}, ${s.tiles_left} in the pile</span>${watching}</div>`;
    el.style.borderColor = PLAYERS[s.to_move % 6].colour;
  }

  // Clicks on our hand's tiles, and a tile dragged onto the board.
  handEvents() {
    const drawn = this.el('#drawn');
    drawn.addEventListener('click', (e) => {
      const b = e.target.closest('button[data-hand]');
      if (!b || b.disabled) return;
      this.handSlot = +b.dataset.slot;
      this.turn.selectTile(+b.dataset.hand);
    });
    drawn.addEventListener('dragstart', (e) => {
      const b = e.target.closest('button[data-hand]');
      if (!b) return;
      this.handSlot = +b.dataset.slot;
      e.dataTransfer.setData('text/plain', b.dataset.hand);
      e.dataTransfer.effectAllowed = 'move';
    });
    const board = this.el('#board');
    board.addEventListener('dragover', (e) => {
      if (this.turn.hand) e.preventDefault();
    });
    board.addEventListener('drop', (e) => {
      const i = e.dataTransfer.getData('text/plain');
      if (!this.turn.hand || !/^\d$/.test(i)) return;
      e.preventDefault();
      this.turn.dropTile(+i, ...this.board.squareAt(e.clientX, e.clientY));
    });
  }

  renderDrawn() {
    const s = this.table.state, el = this.el('#drawn');
    // While seats are open the "Waiting for players" card says it all.
    el.hidden = s.status === 'waiting';
    const watching = s.you === null ? '<p class="watching">You are watching this table.</p>' : '';
    if (s.status !== 'playing' || s.to_move === null) {
      el.innerHTML = s.status === 'waiting' ? '' : `<div><strong>Game over</strong>${watching}</div>`;
      el.style.borderColor = 'transparent';
      return;
    }
    if (this.table.hand) return this.renderHand(el);
    const who = s.to_move === s.you ? 'Your tile' : `${esc(seatName(s.seats[s.to_move], s.to_move))}'s tile`;
    const river = this.board.cat.isRiver(s.tile) ? ', from the river pile' : '';
    el.innerHTML = `<svg viewBox="0 0 100 100" width="56" height="56" aria-hidden="true"><use href="#${esc(this.board.cat.tileId(s.tile))}"/></svg>` +
      `<div><strong>${who}: ${esc(s.tile)}</strong>${s.second_part ? '<br><strong class="again">Builder: play again</strong>' : ''}<br>turn ${s.turn + 1}, ${s.tiles_left} left${river}${watching}</div>`;
    el.style.borderColor = PLAYERS[s.to_move % PLAYERS.length].colour;
  }

  // While seats are open: the invite links and the join form.
  renderWaiting() {
    const s = this.table.state, el = this.el('#waiting');
    const mine = store.seatOf(this.id);
    const params = new URLSearchParams(location.search);
    const open = s.seats.map((seat, i) => [seat, i]).filter(([seat]) => seat.kind === 'open' || seat.kind === 'invite');
    if (s.status !== 'waiting' || !open.length) {
      el.hidden = true;
      return;
    }
    let html = '<h2>Waiting for players</h2>';
    if (mine?.invites) {
      html += '<p>Send each invited player their link:</p><ul class="invites">' + mine.invites.map((code, i) => code &&
        `<li>Seat ${i + 1}: ${copyField(inviteLink(this.id, code, i), `invite link of seat ${i + 1}`)}</li>`).join('') + '</ul>';
    }
    html += `<p>Table link: ${copyField(`${location.origin}/?t=${this.id}`, 'table link')}</p>`;
    if (s.you === null && !mine) {
      const canJoin = open.some(([seat]) => seat.kind === 'open') || params.get('invite');
      if (canJoin) {
        html += `<form class="join"><label>Your name <input name="name" maxlength="32" placeholder="${DEFAULT_NAME}" value="${esc(store.playerName())}"></label>` +
          '<button class="primary">Join the table</button></form>';
      }
    }
    el.innerHTML = html;
    el.hidden = false;
    el.onclick = (e) => {
      const b = e.target.closest('button[data-copy]');
      if (b) copyLink(b);
    };
    const form = el.querySelector('form.join');
    if (form) form.onsubmit = (e) => {
      e.preventDefault();
      this.join(form.name.value.trim(), params.get('invite'), params.get('seat'));
    };
  }

  // Takes a seat; a name left empty is "Player" (as quick play's).
  async join(name, invite, seat) {
    store.keepName(name);
    const fields = { table: this.id, name: name || DEFAULT_NAME };
    if (invite) {
      fields.invite = invite;
      if (seat !== null) fields.seat = +seat;
    }
    try {
      const ok = await this.conn.request('join', fields);
      store.keepSeat(this.id, ok.seat, ok.token);
    } catch (e) {
      this.say(`Could not join: ${e.message}`);
      alert(`Could not join: ${e.message}`);
    }
  }

  // The features that a move's scoring events scored, highlighted, each
  // with its "+N" in its scorer's colour, the board panned to them when
  // they are off screen. (The final scoring is left to "Show each final
  // scoring": all at once it would cover the board.)
  async highlightEvents(all) {
    const events = all.filter((e) => e.complete && e.points > 0);
    this.board.setGains([]);
    if (!events.length) return this.inspector.clear();
    const found = [], gains = [];
    for (const e of events) {
      const features = await this.inspector.forEvent(e);
      found.push(...features);
      gains.push(this.gainOf(e, features));
    }
    this.inspector.show(found, false);
    this.board.setGains(gains);
    const [x, y] = gains[0].square;
    // On our turn (the computer's reply came with its scoring): the "+N"
    // and every square where our tile fits, not the "+N" alone.
    if (this.turn.phase === 'place') this.board.showSquares([...this.turn.targetSquares(), [x, y]]);
    else this.board.centreIfHidden(x, y);
  }

  // The "+N" label of a scoring event: over the middle of its feature.
  gainOf(e, features) {
    const parts = features.flatMap((f) => f.parts.map(([x, y, spot]) => ({ x, y, spot })));
    const at = this.board.partsCentre(parts, this.table.tiles) || [(e.x + 0.5) * 100, (e.y + 0.5) * 100];
    return { at, square: [Math.floor(at[0] / 100), Math.floor(at[1] / 100)], text: `+${e.points}`, players: e.winners };
  }

  // A scoring event of the log: centred, its feature shown whole, its "+N".
  async showEvent(e) {
    if (e.bonus === 'goods' && !e.complete) { // a goods majority (Traders & Builders) is on no square
      this.inspector.clear();
      this.board.setGains([]);
      return;
    }
    this.board.centreOn(e.x, e.y);
    const found = await this.inspector.forEvent(e);
    this.inspector.show(found, true);
    this.board.setGains(e.points > 0 ? [this.gainOf(e, found)] : []); // goods given score nothing
  }

  // The final scoring, one scored feature after another.
  async showFinalScoring() {
    const finals = this.table.log.filter((e) => e.end);
    const button = this.el('#final button[data-act=replay-end]');
    if (!finals.length) {
      this.say('Nothing scored in the final scoring.');
      return;
    }
    for (const [i, e] of finals.entries()) {
      if (button) button.textContent = `Final scoring ${i + 1} of ${finals.length}…`;
      await this.showEvent(e);
      this.say(eventText(e, this.table.state.seats));
      await new Promise((r) => setTimeout(r, 1500));
    }
    if (button) button.textContent = 'Show each final scoring';
  }

  // The final card's "New game": a table like this one, then to it.
  async newGame() {
    const s = this.table.state, me = s.seats[s.you];
    const req = newGameRequest(s, me?.name || store.playerName() || DEFAULT_NAME);
    if (!req) return;
    try {
      const ok = await this.conn.request('create', req);
      store.keepSeat(ok.table, ok.seat ?? null, ok.token ?? null, ok.invites?.some((c) => c) ? ok.invites : null);
      this.goTo(`/?t=${encodeURIComponent(ok.table)}`);
    } catch (e) {
      this.say(`No new game: ${e.message}`);
    }
  }

  centreLast() {
    const t = this.table?.tiles;
    if (t?.length) this.board.centreOn(t[t.length - 1].x, t[t.length - 1].y);
  }

  tool(name) {
    if (name === 'fit') this.board.fit();
    else if (name === 'centre') this.centreLast();
    else if (name === 'in') this.board.zoom(1.25);
    else if (name === 'out') this.board.zoom(0.8);
  }

  key(e) {
    if (e.target.closest?.('input:not([type=checkbox]), select, textarea') || e.ctrlKey || e.metaKey || e.altKey) return;
    // Enter or Space on a focused button, link or summary is that
    // control's own click: it must not also place or confirm.
    if ((e.key === 'Enter' || e.key === ' ') && e.target.closest?.('button, a[href], summary, [role=button]')) return;
    if (this.turn.key(e) || (this.table && this.actions.key(e))) {
      e.preventDefault();
      return;
    }
    const pan = { ArrowLeft: [60, 0], ArrowRight: [-60, 0], ArrowUp: [0, 60], ArrowDown: [0, -60] }[e.key];
    if (pan) this.board.pan(...pan);
    else if (e.key === 'c' || e.key === 'C') this.centreLast();
    else if (e.key === '?' && this.table) window.open(rulesUrl(this.table.state), '_blank', 'noopener');
    else if (e.key === 'Escape') this.inspector.clear();
    else if (e.key === 'f' || e.key === 'F') this.board.fit();
    else if (e.key === '+' || e.key === '=') this.board.zoom(1.25);
    else if (e.key === '-') this.board.zoom(0.8);
    else return;
    e.preventDefault();
  }
}

// A read-only link with a Copy button beside it.
export function copyField(link, label) {
  return `<span class="copy"><input readonly value="${esc(link)}" aria-label="${esc(label)}">` +
    `<button type="button" data-copy title="copy the ${esc(label)}">Copy</button></span>`;
}

// Copies the link beside a Copy button, and says so on the button.
export async function copyLink(button) {
  const input = button.parentElement.querySelector('input');
  try {
    await navigator.clipboard.writeText(input.value);
  } catch {
    input.select(); // no clipboard API (an http page of another host): the old way
    document.execCommand('copy');
  }
  button.textContent = 'Copied';
  setTimeout(() => (button.textContent = 'Copy'), 2000);
}

export function inviteLink(table, code, seat) {
  return `${location.origin}/?t=${encodeURIComponent(table)}&invite=${encodeURIComponent(code)}&seat=${seat}`;
}
