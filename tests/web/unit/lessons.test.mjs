// lessons.test.mjs: the tutorial's goal checks (web/js/lessons.js) on
// scoring events as the engine reports them (copied from `replay`
// answers of the lessons' positions), and the lessons' data: every step
// a position of the first seat's turn with a solution of its own tile.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LESSONS, checkGoal, withMove, loadProgress, saveProgress, eventWords, goalWords, accountProgress, sendLessons } from '../../../web/js/lessons.js';

const step = (id, i = 0) => LESSONS.find((l) => l.id === id).steps[i];
const ev = (o) => ({ complete: false, winners: [0], points: 0, tiles: 0, pennants: 0, x: 0, y: 0, returned: [0, 0], ...o });

// `replay` of the city lesson's solution (E 0 -2 2): a city of 3 tiles
// with a pennant, 8 points, the knight home.
const CITY = ev({ kind: 'city', complete: true, points: 8, tiles: 3, pennants: 1, y: -1, returned: [1, 0] });

test('a completed city with a pennant meets the city goal; nothing scored does not, and says why', () => {
  const goal = step('city', 1).goal;
  assert.deepEqual(checkGoal(goal, { move: { x: 0, y: -2 }, events: [CITY] }).ok, true);
  const wrong = checkGoal(goal, { move: { x: 1, y: -1 }, events: [] });
  assert.equal(wrong.ok, false);
  assert.match(wrong.why, /^No city of yours was completed and scored\. The goal: score a completed city with a pennant\. Your move scored nothing\.$/);
  // A completed city without a pennant is not enough, and is said so.
  const plain = checkGoal(goal, { move: {}, events: [{ ...CITY, pennants: 0, points: 6 }] });
  assert.equal(plain.ok, false);
  assert.match(plain.why, /has no pennant/);
  assert.match(plain.why, /you scored 6 for a completed city \(3 tiles\)/);
  // The other player's city is not the player's.
  assert.equal(checkGoal(goal, { move: {}, events: [{ ...CITY, winners: [1] }] }).ok, false);
});

test('a follower goal checks the role and the square of the move', () => {
  const goal = step('road', 0).goal;
  assert.equal(checkGoal(goal, { move: { x: 1, y: 0, spot: 'E', role: 'road' }, events: [] }).ok, true);
  assert.match(checkGoal(goal, { move: { x: 1, y: 0 }, events: [] }).why, /^You placed no follower\./);
  assert.match(checkGoal(goal, { move: { x: 1, y: 0, spot: 'NNW', role: 'field' }, events: [] }).why,
    /^Your follower is a farmer in a field, not a thief on a road\./);
  assert.match(checkGoal(goal, { move: { x: 0, y: 1, spot: 'E', role: 'road' }, events: [] }).why, /^That square does not continue/);
});

test('final scoring goals read the end events: the farm of two cities, the pig', () => {
  const farm = step('farm').goal;
  const six = ev({ kind: 'farm', points: 6, tiles: 2, x: 1 });
  const move = { x: -1, y: 0, spot: 'NNW', role: 'field' };
  assert.equal(checkGoal(farm, { move, events: [], end: [six] }).ok, true);
  const poor = checkGoal(farm, { move: { ...move, spot: 'ESE' }, events: [], end: [{ ...six, points: 0, tiles: 0 }] });
  assert.equal(poor.ok, false);
  assert.match(poor.why, /^Your farm scored 0, not 6\./);
  assert.match(poor.why, /At the final scoring: you scored 0 for a farm \(0 completed cities\)\./);
  // A farm shared: a tie of one farmer each, both score it.
  const shared = step('farm', 1).goal;
  const both = ev({ kind: 'farm', points: 3, tiles: 1, winners: [0, 1] });
  assert.equal(checkGoal(shared, { move: {}, events: [], end: [both] }).ok, true);
  assert.equal(eventWords(both), 'you and the other player scored 3 for a farm (1 completed city)');
  const apart = checkGoal(shared, { move: {}, events: [], end: [ev({ kind: 'farm' }), { ...both, winners: [1] }] });
  assert.equal(apart.ok, false);
  assert.match(apart.why, /^Your farm stayed apart from the other player's: it scored 0 for you alone\. The goal: score at the final scoring a farm shared with the other player\./);
  assert.match(apart.why, /the other player scored 3 for a farm \(1 completed city\)/);
  // A majority: the farm won alone, the other player's farmer left with nothing.
  const most = step('farm', 2).goal;
  const mine = ev({ kind: 'farm', points: 3, tiles: 1 });
  assert.equal(checkGoal(most, { move: {}, events: [], end: [mine] }).ok, true);
  const kept = checkGoal(most, { move: {}, events: [], end: [{ ...mine, winners: [1] }, ev({ kind: 'farm' }), mine] });
  assert.equal(kept.ok, false);
  assert.match(kept.why, /^The other player still scored 3 for a farm\. The goal: score at the final scoring 3 points for a farm, and leave the other player no farm points\./);
  // The farm scored only during the move (not at the end): not the goal.
  assert.equal(checkGoal(farm, { move, events: [six], end: [] }).ok, false);
  const pig = step('pig').goal;
  const three = ev({ kind: 'farm', points: 3, tiles: 1, x: 1 });
  const bonus = ev({ kind: 'farm', points: 1, tiles: 1, x: 1, bonus: 'pig' });
  assert.equal(checkGoal(pig, { move: { figure: 'pig' }, events: [], end: [three, bonus] }).ok, true);
  assert.match(checkGoal(pig, { move: {}, events: [], end: [three] }).why, /^Your farm scored without the pig's bonus\./);
});

test('followers home, goods and the builder\'s second turn', () => {
  const home = step('home', 1).goal;
  const road = ev({ kind: 'road', complete: true, points: 4, tiles: 4, returned: [1, 0] });
  assert.equal(checkGoal(home, { move: { spot: 'W', role: 'road' }, events: [road] }).ok, true);
  assert.match(checkGoal(home, { move: { spot: 'S', role: 'road' }, events: [] }).why, /^No follower of yours came home\./);
  const goods = step('goods').goal;
  const wine = ev({ kind: 'city', complete: true, bonus: 'goods', goods: { wine: 1, grain: 0, cloth: 0 } });
  assert.equal(checkGoal(goods, { move: {}, events: [wine] }).ok, true);
  assert.equal(eventWords(wine), 'you took the city\'s goods');
  assert.equal(checkGoal(goods, { move: {}, events: [{ ...wine, winners: [1] }] }).ok, false);
  const again = step('builder', 1).goal;
  assert.equal(checkGoal(again, { move: {}, events: [], next: { player: 0, second_part: true } }).ok, true);
  assert.match(checkGoal(again, { move: {}, events: [], next: { player: 1, second_part: false } }).why, /^No second turn/);
  assert.equal(checkGoal(again, { move: {}, events: [], next: null }).ok, false);
  assert.equal(goalWords(step('builder', 0).goal), 'put your builder');
});

test('every lesson step: the first seat to move, a solution of its own tile, a different mistake', () => {
  const ids = new Set();
  for (const lesson of LESSONS) {
    assert.ok(!ids.has(lesson.id), `${lesson.id} once`);
    ids.add(lesson.id);
    assert.ok(lesson.steps.length >= 1 && lesson.minutes >= 1 && lesson.minutes <= 3, lesson.id);
    for (const s of lesson.steps) {
      const lines = s.record.split('\n').filter((l) => l && !/^(players|expansions|rules|draw) /.test(l));
      const hand = /^rules hand=/m.test(s.record); // the solution may place another tile of the hand
      assert.equal(lines.length % 2, 0, `${lesson.id}: an even number of moves (${lines})`);
      assert.match(s.record, /^players 2\n/);
      if (!hand) assert.equal(s.solution.split(' ')[0], s.tile, `${lesson.id}: the solution places ${s.tile}`);
      if (s.mistake) {
        if (!hand) assert.equal(s.mistake.split(' ')[0], s.tile);
        assert.notEqual(s.mistake, s.solution);
      }
      assert.ok(s.text && s.done && s.goal, lesson.id);
    }
  }
});

test('the record with a move, and progress kept or lost safely', () => {
  assert.equal(withMove('players 2\n', 'U 1 0 1 E'), 'players 2\nU 1 0 1 E\n');
  assert.equal(withMove('players 2', 'U 1 0 1', true), 'players 2\nU 1 0 1\nend\n');
  const box = new Map();
  const storage = { getItem: (k) => box.get(k) ?? null, setItem: (k, v) => box.set(k, v) };
  assert.deepEqual(loadProgress(storage), {});
  saveProgress({ place: true }, storage);
  assert.deepEqual(loadProgress(storage), { place: true });
  box.set('carc.learn', '{broken');
  assert.deepEqual(loadProgress(storage), {});
  box.set('carc.learn', '[1,2]');
  assert.deepEqual(loadProgress(storage), {});
  saveProgress({ a: true }, { setItem() { throw new Error('full'); } }); // a browser that keeps nothing
});

// A server's /api/lessons and /api/lessons/done for one account (or for
// nobody logged in: 401), recording what was posted.
function fakeServer(done, loggedIn = true) {
  const posted = [];
  const reply = (status, body) => ({ ok: status === 200, status, json: async () => body });
  const fetchFn = async (path, opts = {}) => {
    if (!loggedIn) return reply(401, { error: 'not_logged_in' });
    if (path === '/api/lessons' && !opts.method) return reply(200, { done: [...done] });
    if (path === '/api/lessons/done' && opts.method === 'POST') {
      const ids = JSON.parse(opts.body).lessons;
      posted.push(ids);
      for (const id of ids) if (!done.includes(id)) done.push(id);
      return reply(200, { done: [...done] });
    }
    return reply(404, {});
  };
  return { fetchFn, posted };
}

test('logged in, the guest progress of this browser is sent to the account, which then holds both', async () => {
  const server = fakeServer(['road']);
  const got = await accountProgress({ place: true, road: true, 'Bad id': true }, server.fetchFn);
  assert.deepEqual(got, { progress: { road: true, place: true }, account: true, sent: true });
  assert.deepEqual(server.posted, [['place']]); // only what the account lacks, only well-formed ids
  const again = await accountProgress({}, server.fetchFn);
  assert.deepEqual(again.progress, { road: true, place: true });
  assert.deepEqual(server.posted.length, 1); // nothing to send
  assert.deepEqual(await sendLessons(['farm'], server.fetchFn), { road: true, place: true, farm: true });
});

test('a guest (or a server that cannot answer) keeps the progress in the browser', async () => {
  const guest = await accountProgress({ place: true }, fakeServer([], false).fetchFn);
  assert.deepEqual(guest, { progress: { place: true }, account: false, sent: false });
  const down = await accountProgress({ place: true }, async () => { throw new Error('offline'); });
  assert.deepEqual(down.account, false);
  assert.equal(await sendLessons(['farm'], fakeServer([], false).fetchFn), null);
});
