// app.js: the browser client's entry: connects to the server, loads the
// tile catalogue, and shows the lobby or a table from the address
// (/?t=TABLE[&invite=CODE&seat=N]), the rules (/rules) or the tutorial
// (/learn, /?learn=LESSON) or the puzzles (/puzzles, /?puzzle=daily).

import { Connection, socketUrl } from './net.js';
import { Catalogue } from './tiles.js';
import { TableView } from './tableview.js';
import * as store from './store.js';
import { MyGames } from './mygames.js';
import { initTheme } from './theme.js';
import { mirrorDisabled } from './buttons.js';

// The screens a table does not need (the lobby, the replay viewer, the
// rules, the player pages, the tutorial) are loaded when first shown, so
// that opening a table's address loads only the table's code.

const $ = (s) => document.querySelector(s);
const conn = new Connection(socketUrl());
const games = new MyGames(conn); // the title's count of games waiting, notifications
let catalogue = null, lobby = null, view = null;

// The lobby, made the first time it is shown.
async function theLobby() {
  if (!lobby) {
    const { Lobby } = await import('./lobby.js');
    lobby ??= new Lobby($('#lobby-view'), conn, (id) => go(`/?t=${encodeURIComponent(id)}`), games);
  }
  return lobby;
}

function status(text, lost = false) {
  const el = $('#status');
  el.textContent = text;
  el.classList.toggle('lost', lost);
}

// Binds this connection to the table: our seat (resume), a spectator's
// place (watch).
async function attach(id) {
  const mine = store.seatOf(id);
  if (mine?.token) {
    try {
      await conn.request('resume', { table: id, token: mine.token });
      return;
    } catch (e) {
      if (e.code !== 'bad_token') throw e;
    }
  }
  await conn.request('watch', { table: id });
}

// Shows one of the three screens.
function screen(name) {
  for (const s of ['lobby-view', 'table-view', 'replay-view', 'page-view', 'learn-view', 'puzzles-view']) $(`#${s}`).hidden = s !== name;
}

// /?play=LEVEL[&expansions=river,inns-cathedrals,traders-builders][&rules=hand=3]: a ready game against the computer (what
// scripts print).
const PLAY_SPECS = { easy: 'mcts:level=easy', normal: 'mcts:level=normal', hard: 'mcts:level=hard', greedy: 'greedy' };

// `expansions`: the names of the address's `expansions` (/?play=easy&expansions=river);
// `rules`: its house rules (/?play=easy&rules=hand=3,open-hands).
async function quickGame(level, expansions, rules) {
  const name = store.playerName() || 'Player';
  const req = { name, seats: ['me', PLAY_SPECS[level] || PLAY_SPECS.easy], listed: false };
  if (expansions) req.expansions = expansions.split(',').filter(Boolean);
  if (rules) req.rules = rules.split(',').filter(Boolean);
  const ok = await conn.request('create', req);
  store.keepSeat(ok.table, ok.seat, ok.token);
  history.replaceState(null, '', `/?t=${encodeURIComponent(ok.table)}`);
}

async function route(record = null) {
  let params = new URLSearchParams(location.search);
  if (params.has('play')) {
    try {
      await quickGame(params.get('play'), params.get('expansions'), params.get('rules'));
    } catch (e) {
      status(`cannot make a game: ${e.message}`, true);
      history.replaceState(null, '', '/');
    }
    params = new URLSearchParams(location.search);
  }
  const id = params.get('t'), replay = params.get('replay');
  view?.close();
  view = null;
  $('#rules-link').href = '/?rules=base';
  $('#rules-link').removeAttribute('target');
  // The rules (/rules, /?rules=SECTION): the section asked for in view.
  if (params.has('rules') || location.pathname.replace(/\/$/, '') === '/rules') {
    lobby?.hide();
    screen('page-view');
    games.setTitle('Rules: Carcassonne');
    const { showRules } = await import('./rules.js');
    showRules($('#page'), catalogue, params.get('rules') || 'base');
    return;
  }
  // The tutorial (/learn, /?learn=LESSON): the lesson asked for, else the
  // first one not done yet.
  if (params.has('learn') || location.pathname.replace(/\/$/, '') === '/learn') {
    lobby?.hide();
    screen('learn-view');
    games.setTitle('Learn: Carcassonne');
    try {
      // Loaded only here: a table's first load does not carry the lessons.
      const { LearnView } = await import('./learn.js');
      view = new LearnView($('#learn-view'), conn, catalogue);
      await view.open(params.get('learn'));
    } catch (e) {
      status(`lesson: ${e.message}`, true);
    }
    return;
  }
  // The puzzles (/puzzles, /?puzzle=daily): the puzzle of the day, else
  // the next one near the solver's rating.
  if (params.has('puzzle') || location.pathname.replace(/\/$/, '') === '/puzzles') {
    lobby?.hide();
    screen('puzzles-view');
    games.setTitle('Puzzles: Carcassonne');
    try {
      const { PuzzleView } = await import('./puzzles.js');
      view = new PuzzleView($('#puzzles-view'), conn, catalogue);
      await view.open(params.get('puzzle') === 'daily' ? 'daily' : 'next');
    } catch (e) {
      status(`puzzle: ${e.message}`, true);
    }
    return;
  }
  // A player page (/?player=NAME) or the leaderboard (/?leaderboard=duel).
  const player = params.get('player'), board = params.get('leaderboard');
  if (player || board !== null) {
    lobby?.hide();
    screen('page-view');
    games.setTitle(player ? `${player}: Carcassonne` : 'Leaderboard: Carcassonne');
    const { showPlayer, showLeaderboard } = await import('./ratings.js');
    if (player) await showPlayer($('#page'), player);
    else await showLeaderboard($('#page'), board || 'duel');
    return;
  }
  if (replay && (replay !== 'file' || record)) {
    lobby?.hide();
    screen('replay-view');
    const { ReplayView } = await import('./replay.js');
    view = new ReplayView($('#replay-view'), conn, catalogue);
    games.setTitle('Carcassonne: replay');
    try {
      if (record) await view.loadRecord(record.text, record.name);
      else await view.loadTable(replay);
    } catch (e) {
      $('#replay-move').textContent = `Cannot replay: ${e.message}`;
    }
    return;
  }
  if (!id) {
    screen('lobby-view');
    (await theLobby()).show();
    games.setTitle('Carcassonne');
    return;
  }
  lobby?.hide();
  screen('table-view');
  games.setTitle(`Carcassonne: table ${id}`, id);
  view = new TableView($('#table-view'), conn, catalogue, id, games);
  try {
    await attach(id);
  } catch (e) {
    status(`Table ${id}: ${e.message}`, true);
  }
}

function go(url, record = null) {
  history.pushState(null, '', url);
  route(record);
}

async function main() {
  initTheme();
  mirrorDisabled();
  status('connecting…');
  const [cat] = await Promise.all([Catalogue.load(), conn.connect()]);
  performance.mark('carc-connected'); // scripts/web-bench.sh's timeline
  catalogue = cat;
  // The tile drawings, once, for every small picture of a tile on the
  // page: each kind when it is first shown, the rest while idle.
  $('#tile-defs').innerHTML = '<defs></defs>';
  catalogue.attachDefs($('#tile-defs defs'));
  conn.onEvent((msg) => view?.event(msg));
  conn.onStatus((s) => {
    if (s === 'lost') status('connection lost: reconnecting…', true);
    else if (s === 'slow') status('waiting for the server…', true);
    else if (s === 'back') status('connected');
    else {
      status('connected');
      if (view instanceof TableView) attach(view.id).catch(() => {});
      else if (view?.table) conn.request('watch', { table: view.table }).catch(() => {});
    }
  });
  status('connected');
  games.poll(); // the title's count from the first screen on
  $('#home').onclick = (e) => {
    e.preventDefault();
    go('/');
  };
  window.addEventListener('popstate', () => route());
  $('#record-file').onchange = async (e) => {
    const file = e.target.files[0];
    if (!file) return;
    if (file.size > 8000) {
      $('#record-message').textContent = 'That file is too big for a record.';
      return;
    }
    go('/?replay=file', { text: await file.text(), name: file.name });
  };
  document.addEventListener('click', (e) => {
    const a = e.target.closest('a[href^="/?"]');
    if (!a || a.target || e.ctrlKey || e.metaKey || a.closest('#tables, #mine')) return;
    e.preventDefault();
    go(a.getAttribute('href'));
  });
  await route();
  document.body.dataset.ready = 'yes';
}

main().catch((e) => status(`cannot start: ${e.message}`, true));
