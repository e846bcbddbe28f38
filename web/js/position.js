// position.js: a position set up from a record, for the lessons and the
// puzzles: the board as the server's replay of the record leaves it, and
// the legal moves of its next turn with a chosen tile drawn (`position`).

import { parseMove } from './game.js';

// The server's replay of `record` and its next turn's legal moves with
// `tile` drawn: [replay, legal].
export function askPosition(conn, record, tile) {
  return Promise.all([conn.request('replay', { record }), conn.request('position', { record, tile })]);
}

// Draws on `board` the tiles and the standing figures after a replay's
// last move.
export function drawReplay(board, replay) {
  const s = replay.start;
  const tiles = [{ letter: s.tile, x: s.x, y: s.y, rot: s.rot }];
  for (const m of replay.moves) {
    const mv = parseMove(m.move);
    if (!mv.discard && !mv.end) tiles.push({ letter: mv.letter, x: mv.x, y: mv.y, rot: mv.rot });
  }
  const at = new Map(tiles.map((t) => [`${t.x},${t.y}`, t]));
  const last = replay.moves.filter((m) => m.move !== 'end').at(-1);
  board.setTiles(tiles);
  board.setFollowers((last ? last.followers : []).map((f) => ({ ...at.get(`${f.x},${f.y}`), spot: f.spot, player: f.player, figure: f.figure }))
    .filter((f) => f.letter));
}

// A new position on `board`: nothing of the last one stays (no tile, no
// figure leaving as if scored), the whole board in view.
export function showPosition(board, replay) {
  board.setTiles([]);
  drawReplay(board, replay);
  board.skipAnimations();
  board.fit();
}
