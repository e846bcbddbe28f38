// touch.test.mjs: the place step's hint names the touch action on a touch
// screen (it said "click the tile or R" on a phone), and whether the page
// asks GET /api/me (a guest's lobby asked it for a 401 on every load).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { placeHint } from '../../../web/js/turn.js';
import { maySession } from '../../../web/js/account.js';

test('the place step\'s hint: a click and R with a mouse, a tap on a touch screen', () => {
  assert.equal(placeHint(5, 1), 'Choose a square (5 fit)');
  assert.equal(placeHint(5, 1, true), 'Choose a square (5 fit)');
  assert.equal(placeHint(5, 3), 'Choose a square (5 fit); 3 rotations here: click the tile or R');
  assert.equal(placeHint(5, 3, true), 'Choose a square (5 fit); 3 rotations here: tap the tile or ⟳ Rotate');
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
