// app.js: the browser client's entry: connects to the server, loads the
// tile catalogue, and shows the lobby or a table from the address
// (/?t=TABLE[&invite=CODE&seat=N]).

import { Connection, socketUrl } from './net.js';
import { Catalogue } from './tiles.js';
import { Lobby } from './lobby.js';
import { TableView } from './tableview.js';
import * as store from './store.js';

const $ = (s) => document.querySelector(s);
const conn = new Connection(socketUrl());
let catalogue = null, lobby = null, view = null;

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

async function route() {
  const id = new URLSearchParams(location.search).get('t');
  view?.close();
  view = null;
  if (!id) {
    $('#table-view').hidden = true;
    lobby.show();
    document.title = 'Carcassonne';
    return;
  }
  lobby.hide();
  $('#table-view').hidden = false;
  document.title = `Carcassonne: table ${id}`;
  view = new TableView($('#table-view'), conn, catalogue, id);
  try {
    await attach(id);
  } catch (e) {
    status(`Table ${id}: ${e.message}`, true);
  }
}

function go(url) {
  history.pushState(null, '', url);
  route();
}

async function main() {
  status('connecting…');
  const [cat] = await Promise.all([Catalogue.load(), conn.connect()]);
  catalogue = cat;
  // The tile drawings, once, for every small picture of a tile on the page.
  $('#tile-defs').innerHTML = `<defs>${catalogue.defs()}</defs>`;
  conn.onEvent((msg) => view?.event(msg));
  conn.onStatus((s) => {
    if (s === 'lost') status('connection lost: reconnecting…', true);
    else {
      status('connected');
      if (view) attach(view.id).catch(() => {});
    }
  });
  status('connected');
  lobby = new Lobby($('#lobby-view'), conn, (id) => go(`/?t=${encodeURIComponent(id)}`));
  $('#home').onclick = (e) => {
    e.preventDefault();
    go('/');
  };
  window.addEventListener('popstate', route);
  await route();
  document.body.dataset.ready = 'yes';
}

main().catch((e) => status(`cannot start: ${e.message}`, true));
