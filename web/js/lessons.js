// lessons.js: the tutorial's lessons (/learn) and the checks of their
// goals. A lesson is a few steps; a step is a position written as a game
// record (docs/record.md) and the tile the player draws there. The server
// lists the legal moves of that position (`position`), and after the
// player's move it replays the record with the move (`replay`): the goal
// is checked against what the engine says the move scored, never against
// rules of this file's own. Nothing here touches the page: the checks are
// unit-tested in node (tests/web/unit/lessons.test.mjs).

// The seat the player takes in every lesson: the first (red).
export const ME = 0;

const R = (...lines) => `players 2\n${lines.map((l) => `${l}\n`).join('')}`;
const RIVER = 'expansions river';
const INNS = 'expansions inns-cathedrals';
const TRADERS = 'expansions traders-builders';

// Each step: `record` (the position: an even number of moves, so that it
// is the first seat's turn), `tile` (the tile drawn), `text` (what to do),
// `goal` (what the engine must report: see checkGoal), `done` (said when
// the goal is met), `solution` (a move that meets the goal: "Show me"
// draws it) and `mistake` (a legal move that does not: the tests play
// both). `goal.end`: the goal is checked on the final scoring, as if the
// game ended right after the move. A `text` or a lesson's `intro` that
// names a click or a key has a `touchText` or `touchIntro` that names the
// taps instead, for a touch screen (stepText, introText).
export const LESSONS = [
  {
    id: 'place', title: 'Place a tile', minutes: 1,
    intro: 'Each turn you draw one tile and add it to the landscape. Its edges must match every tile it touches: road to road, city to city, field to field.',
    steps: [
      {
        record: R(), tile: 'U',
        text: 'You drew a straight road. The squares where it fits are marked on the board: click one (click again to turn the tile), then press Place and Confirm. No follower this time: choose "No follower".',
        touchText: 'You drew a straight road. The squares where it fits are marked on the board: tap one (tap the tile again, or ⟳ Rotate, to turn it), then tap ✓ Place here and ✓ Confirm. No follower this time: tap "No follower".',
        goal: { placed: true },
        solution: 'U 1 0 1',
        done: 'That is a turn: the tile fits, so it stays. Only the marked squares and turns are ever allowed.',
      },
      {
        record: R(), tile: 'E',
        text: 'Now a city piece. Put it north of the start tile so that its city closes the start tile\'s city, and put a knight in that city (pick the spot in the city).',
        goal: { scored: { kind: 'city', complete: true } },
        solution: 'E 0 -1 2 SSE',
        mistake: 'E 0 1 2',
        done: 'A city closed by walls on every side is complete: it scores at once, 2 points a tile, for the player with a knight in it.',
      },
    ],
  },
  {
    id: 'road', title: 'Roads and thieves', minutes: 2,
    intro: 'A follower you put on a road is a thief. A road is complete when both of its ends stop: at a crossroads, a city, a cloister, or where it loops on itself. It scores 1 point a tile.',
    steps: [
      {
        record: R(), tile: 'U',
        text: 'Extend the start tile\'s road, to the east or to the west, and claim it with a thief on the road of your tile.',
        goal: { follower: 'road', at: [[1, 0], [-1, 0]] },
        solution: 'U 1 0 1 E',
        mistake: 'U 1 0 1',
        done: 'The road is yours: nobody else may put a thief on it now.',
      },
      {
        record: R('U 1 0 1 E', 'X -1 0 0'), tile: 'W',
        text: 'Your thief is on the road; a crossroads already closes its west end. Close the east end with this junction.',
        goal: { scored: { kind: 'road', complete: true } },
        solution: 'W 2 0 0',
        mistake: 'W 1 1 0',
        done: 'Four tiles, 4 points, and the thief comes back to you.',
      },
    ],
  },
  {
    id: 'city', title: 'A city with a pennant', minutes: 2,
    intro: 'A follower in a city is a knight. A completed city scores 2 points a tile and 2 more for each pennant (the shield) in it.',
    steps: [
      {
        record: R(), tile: 'F',
        text: 'This piece of city has a pennant. Put it north of the start tile so that its city joins the start tile\'s city, and claim the city with a knight.',
        goal: { follower: 'city', at: [[0, -1]] },
        solution: 'F 0 -1 1 NNW',
        mistake: 'F 0 1 0 ENE',
        done: 'The city runs on to the north: it is not closed yet.',
      },
      {
        record: R('F 0 -1 1 N', 'U 1 0 1'), tile: 'E',
        text: 'Your knight holds the city with the pennant. Close it.',
        goal: { scored: { kind: 'city', complete: true, pennants: 1 } },
        solution: 'E 0 -2 2',
        mistake: 'E 1 -1 0',
        done: 'Three tiles (6) and one pennant (2): 8 points.',
      },
    ],
  },
  {
    id: 'cloister', title: 'Surround a cloister', minutes: 1,
    intro: 'A follower in a cloister is a monk. A cloister is complete when all eight squares around it hold tiles: then it scores 9 points, 1 for itself and 1 for each neighbour.',
    steps: [
      {
        record: R('B 0 1 0 C', 'U 1 0 1', 'U -1 0 1', 'B -1 1 0', 'B 1 1 0', 'B 0 2 0', 'E -1 2 2', 'E 0 -1 2'),
        tile: 'E',
        text: 'Your monk sits in the cloister south of the start tile. One square around it is still empty: fill it.',
        goal: { scored: { kind: 'cloister', complete: true } },
        solution: 'E 1 2 2',
        mistake: 'E -2 2 0',
        done: 'All eight neighbours: 9 points, and the monk comes home.',
      },
    ],
  },
  {
    id: 'home', title: 'Followers come home', minutes: 2,
    intro: 'You have seven followers. One that stands on a road, city or cloister comes back to you as soon as that feature is complete and scored; a farmer stays on its farm until the end of the game.',
    steps: [
      {
        record: R('F 0 -1 1 N', 'U 1 0 1'), tile: 'E',
        text: 'Your knight is in an open city. Complete the city to get the knight back.',
        goal: { returned: true },
        solution: 'E 0 -2 2',
        mistake: 'E 0 1 2',
        done: 'The city scored and your knight is back in your supply, ready for another turn.',
      },
      {
        record: R('U 1 0 1', 'X -1 0 0'), tile: 'W',
        text: 'The start tile\'s road ends at a crossroads in the west. Close its east end with this junction and put a thief on that very road: the follower is placed first, then the road scores, so the thief comes back at once.',
        goal: { follower: 'road', returned: true },
        solution: 'W 2 0 0 W',
        mistake: 'W 2 0 0 S',
        done: 'Placed, scored, and home in the same turn: a follower that costs nothing.',
      },
    ],
  },
  {
    id: 'farm', title: 'Farmers and farms', minutes: 3,
    intro: 'A follower lying in a field is a farmer. A farm is the whole field up to the roads, cities and board edges around it. Farmers stay until the end of the game; then (third edition) each farm scores 3 points for every completed city it touches, to the player with the most farmers on it (all of them on a tie). An unfinished city counts for nothing.',
    steps: [
      {
        record: R('E 0 -1 2', 'K 1 0 0', 'E 1 -1 2', 'B 0 1 0'), tile: 'U',
        text: 'Two completed cities stand north of the road; south of it there is no city at all. Extend the road to the west and put a farmer in the field that touches both cities.',
        goal: { follower: 'field', scored: { kind: 'farm', points: 6 }, end: true },
        solution: 'U -1 0 1 NNW',
        mistake: 'U -1 0 1 ESE',
        done: 'At the end of the game your farm touches two completed cities: 2 × 3 = 6 points.',
      },
      {
        record: R('E 0 -1 2', 'U 1 0 1 NNW', 'B 0 1 0 NNW', 'U 2 0 1'), tile: 'A',
        text: 'The other player\'s farmer holds the farm north of the road, by the completed city; yours lies south of it, by no city. A farm with a farmer cannot take another, but two farms can grow into one. End the road with this cloister so that the fields north and south of it meet.',
        goal: { scored: { kind: 'farm', shared: true }, end: true },
        solution: 'A -1 0 3',
        mistake: 'A 0 2 0',
        done: 'One farm, one farmer each: a tie, and both of you score it in full (3 for the city).',
      },
      {
        record: R('E 0 -1 2', 'U 1 0 1 NNW', 'B 0 1 0 NNW', 'U 2 0 1', 'B -1 -1 0 NNW', 'U 3 0 1'), tile: 'A',
        text: 'Now you have two farmers, south of the road and north-west of the city, each on a farm of its own; the other player has one, by the city. Join all three farms with this cloister: the most farmers take the farm.',
        goal: { scored: { kind: 'farm', points: 3 }, deny: 'farm', end: true },
        solution: 'A -1 0 3',
        mistake: 'A 0 2 0',
        done: 'Two farmers against one: the farm and its city are yours alone, and the other player\'s farmer scores nothing.',
      },
    ],
  },
  {
    id: 'final', title: 'The final scoring', minutes: 2,
    intro: 'When the last tile is placed, whatever is unfinished still scores: a road 1 point a tile, a city 1 point a tile and 1 a pennant, a cloister 1 point for itself and 1 for each neighbour. Then the farms.',
    steps: [
      {
        record: R('U 1 0 1', 'U -1 0 1'), tile: 'B',
        text: 'This is the last tile of the game. Put a monk in this cloister where it has the most neighbours: at the final scoring it counts 1 for itself and 1 for each tile around it.',
        goal: { follower: 'cloister', scored: { kind: 'cloister', points: 4 }, end: true },
        solution: 'B 0 1 0 C',
        mistake: 'B 1 1 0 C',
        done: 'Three neighbours and the cloister itself: 4 points at the final scoring.',
      },
    ],
  },
  {
    id: 'river', title: 'The River', minutes: 1,
    intro: 'With The River, the game starts from the spring, and the twelve river tiles are laid first, one after the other, each continuing the river; the lake comes last. The river may not turn back on itself.',
    steps: [
      {
        record: R(RIVER), tile: 'RB',
        text: 'The river leaves the spring to the east. Continue it with this tile and put a knight in the city on its bank.',
        goal: { follower: 'city' },
        solution: 'RB 1 0 0 NNW',
        mistake: 'RB 1 0 0 S',
        done: 'The river tiles carry roads, cities and cloisters like any other: claim them as you lay the river.',
      },
    ],
  },
  {
    id: 'inns', title: 'Inns and cathedrals', minutes: 2,
    intro: 'Inns & Cathedrals adds inns by lakes on roads and cathedrals in cities. A completed road with an inn scores 2 points a tile instead of 1, a completed city with a cathedral 3 a tile and 3 a pennant; but left unfinished at the end they score nothing. It also gives each player a large follower, which counts as two.',
    steps: [
      {
        record: R(INNS, 'IB 1 0 0 W', 'X -1 0 0'), tile: 'W',
        text: 'Your thief holds a road with an inn on it. Complete the road.',
        goal: { scored: { kind: 'road', complete: true, points: 8 } },
        solution: 'W 2 0 0',
        mistake: 'W 1 1 0',
        done: 'Four tiles at 2 points each: 8, twice what the road would score without its inn.',
      },
      {
        record: R(INNS, 'IK 0 -1 0 NNW', 'E 0 -2 2', 'E 1 -1 3', 'U 1 0 1'), tile: 'E',
        text: 'Your knight holds a city with a cathedral; one gap in its walls is left, to the west. Close it before the game ends: left open, a cathedral\'s city scores nothing at all.',
        goal: { scored: { kind: 'city', complete: true, points: 15 } },
        solution: 'E -1 -1 1',
        mistake: 'E 0 1 2',
        done: 'Five tiles at 3 points each: 15, where a plain city would have scored 10.',
      },
    ],
  },
  {
    id: 'goods', title: 'Goods', minutes: 1,
    intro: 'Traders & Builders puts goods (wine, grain, cloth) in some cities. Whoever places the tile that completes such a city takes its goods, even without a knight there. At the end, the most of each kind scores 10 points.',
    steps: [
      {
        record: R(TRADERS, 'TO 0 -1 1', 'U 1 0 1'), tile: 'E',
        text: 'Nobody holds the city with the wine barrel north of the start tile. Close it: the goods are yours.',
        goal: { goods: true },
        solution: 'E 0 -2 2',
        mistake: 'E 0 1 2',
        done: 'No knight, no points for the city, but the wine is yours.',
      },
    ],
  },
  {
    id: 'builder', title: 'The builder\'s double turn', minutes: 2,
    intro: 'The builder (Traders & Builders) joins one of your thieves or knights. Whenever you later extend that road or city, you play a second tile at once.',
    steps: [
      {
        record: R(TRADERS, 'U 1 0 1 E', 'B 0 1 0'), tile: 'U',
        text: 'Your thief holds the start tile\'s road. Extend the road to the east and put your builder on it (choose Builder, then the road).',
        goal: { figure: 'builder' },
        solution: 'U 2 0 1 E builder',
        mistake: 'U 2 0 1',
        done: 'The builder stands by your thief.',
      },
      {
        record: R(TRADERS, 'U 1 0 1 E', 'B 0 1 0', 'U 2 0 1 E builder', 'E 0 -1 2'), tile: 'V',
        text: 'Extend the builder\'s road again: you get a second turn.',
        goal: { again: true },
        solution: 'V 3 0 0',
        mistake: 'V 2 1 0',
        done: 'The road grew, so you draw and play another tile at once.',
      },
    ],
  },
  {
    id: 'pig', title: 'The pig', minutes: 2,
    intro: 'The pig (Traders & Builders) goes on a farm where you already have a farmer. At the end, if you win that farm, each completed city it touches scores 4 instead of 3.',
    steps: [
      {
        record: R(TRADERS, 'E 0 -1 2', 'B 0 1 0', 'U 1 0 1 NNW', 'U -1 0 1'), tile: 'U',
        text: 'Your farmer lies north of the road, by a completed city. Extend the road east and put your pig on that farm (choose Pig, then the field north of the road).',
        goal: { scored: { kind: 'farm', bonus: 'pig' }, end: true },
        solution: 'U 2 0 1 NNW pig',
        mistake: 'U 2 0 1 E',
        done: 'The farm scores 3 for the city, and the pig adds 1: 4 points.',
      },
    ],
  },
];

LESSONS.push({
  id: 'hand', title: 'A hand of tiles', minutes: 2,
  intro: 'With the house rule "hand of tiles" you hold two or three tiles instead of drawing one: each turn you choose which to place, then draw one back up. Your hand is listed beside the board; T picks the next tile.',
  touchIntro: 'With the house rule "hand of tiles" you hold two or three tiles instead of drawing one: each turn you choose which to place, then draw one back up. Your hand is listed beside the board: tap a tile of it to choose it.',
  steps: [
    {
      record: R('rules hand=3', 'draw 1 F U V', 'draw 2 W A L', 'F 0 -1 1 NNW', 'draw 1 E', 'W 1 0 0', 'draw 2 X'), tile: 'U',
      text: 'Your knight holds the city with the pennant north of the start tile. Of the three tiles in your hand only one closes it: choose it from your hand, and close the city.',
      goal: { scored: { kind: 'city', complete: true, pennants: 1 } },
      solution: 'E 0 -2 2',
      mistake: 'U -1 0 1',
      done: 'Choosing among your tiles is the whole point of a hand: keep the others for later turns.',
    },
  ],
});

// The lesson after the last: a real game.
export const GAME_LESSON = {
  id: 'game', title: 'A game against the computer', minutes: 15,
  intro: 'You know enough to play. Play a game against the easy computer; press Hint (H) on your turn to see the engine\'s best moves.',
  touchIntro: 'You know enough to play. Play a game against the easy computer; tap Hint on your turn to see the engine\'s best moves.',
};

// The words of a lesson (its `intro`) and of a step (its `text`) for the
// input at hand: on a touch screen (`touch`, turn.js's touchInput) the
// taps where they name a click or a key.
export const introText = (lesson, touch = false) => (touch && lesson.touchIntro) || lesson.intro;
export const stepText = (step, touch = false) => (touch && step.touchText) || step.text;

const KIND = { road: 'road', city: 'city', cloister: 'cloister', farm: 'farm', field: 'farm' };
const ROLE = { road: 'a thief on a road', city: 'a knight in a city', field: 'a farmer in a field', cloister: 'a monk in a cloister' };
const plural = (n, w) => `${n} ${n === 1 ? w : w.endsWith('y') ? `${w.slice(0, -1)}ies` : `${w}s`}`;

// One event of the engine in words, from the player's side: "you scored 4
// for a completed city (2 tiles)", "the other player scored 3 for a farm".
export function eventWords(e, me = ME) {
  const who = e.winners.includes(me) ? (e.winners.length > 1 ? 'you and the other player' : 'you')
    : e.winners.length ? 'the other player' : 'nobody';
  if (e.bonus === 'goods') return `${who} took the city's goods`;
  if (e.bonus === 'pig') return `${who} scored ${e.points} more for the pig`;
  const kind = KIND[e.kind] || e.kind;
  const size = e.kind === 'farm' ? plural(e.tiles, 'completed city') : plural(e.tiles, 'tile');
  const pennants = e.pennants ? `, ${plural(e.pennants, 'pennant')}` : '';
  return `${who} scored ${e.points} for ${e.complete ? 'a completed' : e.kind === 'farm' ? 'a' : 'an unfinished'} ${kind} (${size}${pennants})`;
}

// What a move did, as the engine reported it: its scoring events (and with
// `end`, the final scoring's), in a sentence.
export function outcomeWords(result, me = ME) {
  const events = (result.events || []).map((e) => eventWords(e, me));
  const end = (result.end || []).map((e) => eventWords(e, me));
  const parts = [];
  parts.push(events.length ? `Your move: ${events.join('; ')}.` : 'Your move scored nothing.');
  if (result.end) parts.push(end.length ? `At the final scoring: ${end.join('; ')}.` : 'At the final scoring nothing of yours scored.');
  return parts.join(' ');
}

// The goal in words, for the explanation of a wrong move.
export function goalWords(goal) {
  const w = [];
  if (goal.follower) w.push(`put ${ROLE[goal.follower] || 'a follower'}`);
  if (goal.figure) w.push(`put your ${goal.figure}`);
  const s = goal.scored;
  if (s) {
    let what = `${s.complete ? 'completed ' : ''}${KIND[s.kind] || s.kind}`;
    if (s.pennants) what += ' with a pennant';
    if (s.bonus === 'pig') what += ' with your pig';
    if (s.shared) what += ' shared with the other player';
    w.push(`${goal.end ? 'score at the final scoring' : 'score'} ${s.points ? `${s.points} points for ` : ''}${/^[aeiou]/.test(what) ? 'an' : 'a'} ${what}`);
  }
  if (goal.deny) w.push(`leave the other player no ${KIND[goal.deny]} points`);
  if (goal.returned) w.push('get a follower back');
  if (goal.goods) w.push('take the goods of a city');
  if (goal.again) w.push('earn a second turn');
  return w.length ? w.join(', and ') : 'place the tile';
}

// Whether an engine event meets `want` (goal.scored) for seat `me`.
function eventMeets(e, want, me) {
  if (!e.winners.includes(me)) return false;
  if (want.kind && KIND[e.kind] !== KIND[want.kind]) return false;
  if (want.complete && !e.complete) return false;
  if (want.pennants && e.pennants < want.pennants) return false;
  if (want.points && e.points < want.points) return false;
  if (want.bonus ? e.bonus !== want.bonus : e.bonus) return false;
  if (want.shared && e.winners.length < 2) return false;
  return true;
}

// Why the scoring the goal asks for is not among `events`: what the
// player's feature of that kind scored instead, or that none scored.
function missedWords(goal, events, me) {
  const want = goal.scored, kind = KIND[want.kind] || want.kind;
  const mine = events.filter((e) => e.winners.includes(me) && KIND[e.kind] === kind && !e.bonus);
  if (!mine.length) return `No ${kind} of yours ${goal.end ? 'scored at the final scoring' : 'was completed and scored'}.`;
  if (want.bonus === 'pig') return `Your ${kind} scored without the pig's bonus.`;
  if (want.shared && !mine.some((e) => e.winners.length > 1)) return `Your ${kind} stayed apart from the other player's: it scored ${mine.map((e) => e.points).join(' and ')} for you alone.`;
  const points = mine.map((e) => e.points).join(' and ');
  if (want.complete && !mine.some((e) => e.complete)) return `Your ${kind} is not complete.`;
  if (want.pennants && !mine.some((e) => e.pennants >= want.pennants)) return `Your ${kind} has no pennant.`;
  return `Your ${kind} scored ${points}${want.points ? `, not ${want.points}` : ''}.`;
}

// Checks the goal of a step against what the engine reported of the move:
// `result` = {move: {x, y, spot, figure, role}, events (the move's scoring
// events from `replay`), end (the final scoring's events, when goal.end),
// next (the `position` reply after the move, when goal.again)}. Returns
// {ok, why}: `why` says what the move did against the goal, and what
// went wrong first.
export function checkGoal(goal, result, me = ME) {
  const m = result.move || {};
  const fail = (reason) => ({ ok: false, why: `${reason} The goal: ${goalWords(goal)}. ${outcomeWords(result, me)}` });
  if (goal.at && !goal.at.some(([x, y]) => x === m.x && y === m.y)) return fail('That square does not continue the feature the goal is about.');
  if (goal.follower) {
    if (!m.spot) return fail('You placed no follower.');
    if (m.role !== goal.follower) return fail(`Your follower is ${ROLE[m.role] || 'somewhere else'}, not ${ROLE[goal.follower]}.`);
  }
  if (goal.figure && m.figure !== goal.figure) return fail(`You placed ${m.figure ? `your ${m.figure}` : 'no figure'}, not your ${goal.figure}.`);
  if (goal.scored) {
    const events = goal.end ? result.end || [] : result.events || [];
    if (!events.some((e) => eventMeets(e, goal.scored, me))) return fail(missedWords(goal, events, me));
  }
  if (goal.deny) {
    const theirs = (goal.end ? result.end || [] : result.events || [])
      .filter((e) => KIND[e.kind] === KIND[goal.deny] && e.points > 0 && e.winners.some((w) => w !== me));
    if (theirs.length) return fail(`The other player still scored ${theirs.map((e) => e.points).join(' and ')} for a ${KIND[goal.deny]}.`);
  }
  if (goal.returned && !(result.events || []).some((e) => (e.returned?.[me] || 0) > 0 || e.returned_large?.includes(me))) {
    return fail('No follower of yours came home.');
  }
  if (goal.goods && !(result.events || []).some((e) => e.bonus === 'goods' && e.winners.includes(me))) {
    return fail('No goods came to you: the city is not complete.');
  }
  if (goal.again && !(result.next && result.next.player === me && result.next.second_part)) {
    return fail('No second turn: your tile did not extend the road or city of your builder.');
  }
  return { ok: true, why: outcomeWords(result, me) };
}

// The record of a step with the player's move (and `end` for the final
// scoring).
export function withMove(record, move, end = false) {
  const base = record.endsWith('\n') ? record : `${record}\n`;
  return `${base}${move}\n${end ? 'end\n' : ''}`;
}

// Progress: {lesson id: true} for each lesson done, kept in the browser
// for a guest and in the account when logged in (accountProgress).
const KEY = 'carc.learn';
export function loadProgress(storage = globalThis.localStorage) {
  try {
    const v = JSON.parse(storage?.getItem(KEY) || '{}');
    return v && typeof v === 'object' && !Array.isArray(v) ? v : {};
  } catch {
    return {};
  }
}
export function saveProgress(progress, storage = globalThis.localStorage) {
  try {
    storage?.setItem(KEY, JSON.stringify(progress));
  } catch {
    // a browser that keeps nothing: the lessons still work
  }
}

// Progress {id: true} from the server's list of ids.
function fromList(ids) {
  return Object.fromEntries((Array.isArray(ids) ? ids : []).filter((id) => typeof id === 'string').map((id) => [id, true]));
}

// The progress of the account logged in (GET /api/lessons), with the
// lessons `local` (this browser's guest progress) sent to it first so
// that none is lost: {progress, account: true}; {progress: local,
// account: false} for a guest or when the server cannot be asked (the
// browser keeps the progress then). `sent` tells whether `local` reached
// the account (the browser may forget it then).
export async function accountProgress(local, fetchFn = globalThis.fetch) {
  const guest = { progress: local, account: false, sent: false };
  try {
    const r = await fetchFn('/api/lessons', { credentials: 'same-origin', cache: 'no-store' });
    if (!r.ok) return guest;
    const have = fromList((await r.json()).done);
    const missing = Object.keys(local).filter((id) => local[id] && !have[id] && /^[a-z0-9-]{1,32}$/.test(id));
    if (!missing.length) return { progress: have, account: true, sent: true };
    const merged = await sendLessons(missing, fetchFn);
    return merged ? { progress: merged, account: true, sent: true } : { progress: { ...have, ...local }, account: true, sent: false };
  } catch {
    return guest;
  }
}

// Marks lessons `ids` done in the account (POST /api/lessons/done):
// the account's whole progress, or null when it failed.
export async function sendLessons(ids, fetchFn = globalThis.fetch) {
  try {
    const r = await fetchFn('/api/lessons/done', {
      method: 'POST', credentials: 'same-origin', cache: 'no-store',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ lessons: ids.slice(0, 64) }),
    });
    return r.ok ? fromList((await r.json()).done) : null;
  } catch {
    return null;
  }
}
