// touch.test.mjs: the turn's words name the touch action on a touch
// screen (the place step's hint said "click the tile or R" on a phone, a
// hand game's bar "T: next tile", the follower step "key B"), and whether
// the page asks GET /api/me (a guest's lobby asked it for a 401 on every
// load).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Turn, placeHint, handChoiceWords, figureAction, discardWords, placedWords } from '../../../web/js/turn.js';
import { maySession } from '../../../web/js/account.js';

test('the place step\'s hint: a click and R with a mouse, a tap on a touch screen', () => {
  assert.equal(placeHint(5, 1), 'Choose a square (5 fit)');
  assert.equal(placeHint(5, 1, true), 'Choose a square (5 fit)');
  assert.equal(placeHint(5, 3), 'Choose a square (5 fit); 3 rotations here: click the tile or R');
  assert.equal(placeHint(5, 3, true), 'Choose a square (5 fit); 3 rotations here: tap the tile or ⟳ Rotate');
});

test('the other words of the turn: keys with a keyboard, taps on a touch screen', () => {
  assert.equal(handChoiceWords('W', 3), 'Tile W (T: next tile).');
  assert.equal(handChoiceWords('W', 3, true), 'Tile W (tap another tile of your hand).');
  assert.equal(handChoiceWords('W', 1, true), 'Tile W.');
  assert.equal(figureAction('builder'), 'key B');
  assert.equal(figureAction('builder', true), 'tap Builder');
  assert.equal(figureAction('large', true), 'tap Large follower');
  assert.equal(discardWords(), 'Enter discards it');
  assert.equal(discardWords(true), 'tap Discard it');
  assert.equal(placedWords(2, ['builder'], ''), 'tile placed; 2 follower spots: keys 1 to 2, 0 for none; B for the builder, Enter to confirm');
  assert.equal(placedWords(2, ['builder'], '', true), 'tile placed; 2 follower spots: tap one on the tile, or No follower; Builder for the builder; then ✓ Confirm');
  assert.equal(placedWords(0, [], 'No follower left: all are on the board'), 'tile placed; No follower left: all are on the board; Enter to confirm');
  assert.equal(placedWords(0, [], 'No follower left: all are on the board', true), 'tile placed; No follower left: all are on the board; then ✓ Confirm');
  for (const touch of [false, true]) {
    const words = [handChoiceWords('W', 2, touch), figureAction('pig', touch), discardWords(touch), placedWords(1, ['pig'], '', touch)].join(' ');
    assert.equal(/\bT:|\bkeys?\b|Enter/.test(words), !touch, words);
  }
});

// The turn's bar and what it says, on a screen that is touch only (no
// pointer pressed yet: the media query decides) and on one with a mouse.
test('the turn on a touch screen: the hand\'s bar, the follower step\'s reason, what is said', async () => {
  globalThis.document ??= { body: { dataset: {} } };
  const board = { setTargets() {}, setPreview() {}, setSpots() {}, centreIfHidden() {}, showSquares() {} };
  const bar = { innerHTML: '', hidden: false, addEventListener() {} };
  const said = [];
  const turn = new Turn(board, bar, () => {}, (t) => said.push(t));
  const k = { x: 1, y: 1, rot: 3, move: 'K 1 1 3', spots: [], builder: ['WSW'] };
  const legal = {
    turn: 4, player: 0, tile: 'K', placements: [k], figures: ['follower', 'builder'],
    hand: [{ tile: 'K', placements: [k] }, { tile: 'W', placements: [], discard: 'discard W' }],
  };
  const saved = globalThis.matchMedia;
  try {
    for (const touch of [true, false]) {
      globalThis.matchMedia = (q) => ({ matches: touch && q === '(hover: none) and (pointer: coarse)' });
      turn.start(legal, 0);
      assert.match(bar.innerHTML, touch ? /Tile K \(tap another tile of your hand\)\./ : /Tile K \(T: next tile\)\./);
      turn.key({ key: 'Enter' });
      assert.match(said.at(-1), touch ? /Builder for the builder; then ✓ Confirm$/ : /B for the builder; Enter to confirm$/);
      turn.pick('WSW');
      assert.match(bar.innerHTML, touch ? /the builder can go there \(tap Builder\)/ : /the builder can go there \(key B\)/);
      turn.undo();
      turn.selectTile(1);
      assert.match(said.at(-1), touch ? /it fits nowhere: tap Discard it$/ : /it fits nowhere: Enter discards it$/);
      turn.selectTile(0);
      turn.askHint = async () => [{ move: 'K 1 1 3', win: 0.5, margin: 1 }];
      await turn.hint();
      assert.match(said.at(-1), touch ? /Tap one\.$/ : /Press a digit, or click one\.$/);
      turn.stop();
    }
  } finally {
    globalThis.matchMedia = saved;
  }
});

function storage(items = {}) {
  const s = { ...items };
  return Object.defineProperties(s, {
    getItem: { value: (k) => (k in s ? s[k] : null) },
    setItem: { value: (k, v) => (s[k] = String(v)) },
  });
}

test('/api/me is asked only with the server\'s hint cookie, or once by a browser that was here before it', () => {
  // The hint cookie, wherever it is among the cookies.
  assert.equal(maySession('carc_account=1', storage()), true);
  assert.equal(maySession('a=b; carc_account=1; c=d', storage({ 'carcassonne.account-checked': '1' })), true);
  assert.equal(maySession('xcarc_account=1', storage({ 'carcassonne.account-checked': '1' })), false);
  assert.equal(maySession('carc_account=', storage({ 'carcassonne.account-checked': '1' })), false);
  // A new browser: nothing asked, now or later.
  const fresh = storage({ 'carcassonne.theme': 'illustrated' }); // every page writes it at its start
  assert.equal(maySession('', fresh), false);
  assert.equal(fresh['carcassonne.account-checked'], '1');
  // A browser of ours from before the hint: asked once (a session of then
  // gets the hint from /api/me), not again.
  const old = storage({ 'carcassonne.seats': '[]' });
  assert.equal(maySession('', old), true);
  assert.equal(maySession('', old), false);
  // No storage at all (private mode that refuses it): a guest.
  assert.equal(maySession('', null), false);
});
