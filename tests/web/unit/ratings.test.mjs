// ratings.test.mjs: the player page and the leaderboard (issue 36) from
// the server's answers (docs/server-protocol.md, "Ratings"): the rows,
// the rating graph's points, the pages' HTML.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ratingRows, gameRows, graphPoints, ratingGraph, leaderboardRows, playerHtml, leaderboardHtml, ratingText, changeText, categoryName, CATEGORIES } from '../../../web/js/ratings.js';

const T0 = Date.UTC(2026, 0, 31, 12);
// GET /api/players/Ann as the server answers it: games newest first.
const ann = {
  name: 'Ann',
  ratings: [
    { category: 'multi', rating: 1432.4, rd: 301.2, volatility: 0.06, games: 1, last_ms: T0 },
    { category: 'duel', rating: 1662.31, rd: 290.32, volatility: 0.059999, games: 2, last_ms: T0 + 2 },
  ],
  games: [
    { table: 'tc', ended_ms: T0 + 2 * 86400000, category: 'duel', seat: 1, seats: [{ name: 'Bob', kind: 'human' }, { name: 'Ann', kind: 'human' }],
      scores: [10, 31], rated: true, rating_change: { before: 1600.2, after: 1662.31 } },
    { table: 'tb', ended_ms: T0 + 86400000, category: 'multi', seat: 0, seats: [{ name: 'Ann', kind: 'human' }, { name: 'greedy', kind: 'computer' }, { name: 'Cy', kind: 'human' }],
      scores: [20, 30, 25], rated: true, rating_change: { before: 1500, after: 1432.4 } },
    { table: 'tx', ended_ms: T0 + 3600000, category: 'duel', seat: 0, seats: [{ name: 'Ann', kind: 'human' }, { name: 'mcts:level=easy', kind: 'computer' }],
      scores: [44, 40], rated: false, rating_change: null },
    { table: 'ta', ended_ms: T0, category: 'duel', seat: 0, seats: [{ name: 'Ann', kind: 'human' }, { name: 'Bob', kind: 'human' }],
      scores: [12, 9], rated: true, rating_change: { before: 1500, after: 1600.2 } },
  ],
};

test('the ratings: a row a category played, in the categories\' order, rating ± RD', () => {
  assert.deepEqual(CATEGORIES.map(([c]) => c), ['duel', 'duel-variants', 'multi', 'multi-variants']);
  assert.deepEqual(ratingRows(ann), [
    { category: 'duel', name: 'Two players', rating: '1662 ± 290', games: 2 },
    { category: 'multi', name: '3 to 8 players', rating: '1432 ± 301', games: 1 },
  ]);
  assert.equal(ratingText({ rating: 1499.5, rd: 350 }), '1500 ± 350');
  assert.equal(changeText({ before: 1500, after: 1432.4 }), '−68');
  assert.equal(changeText({ before: 1500, after: 1500.3 }), '±0');
  assert.equal(categoryName('duel-variants'), 'Two players, expansions and rules');
  assert.deepEqual(ratingRows({ name: 'New', ratings: [], games: [] }), []);
});

test('the games: date, category, seats with scores, the rating change, the replay', () => {
  const rows = gameRows(ann);
  assert.deepEqual(rows[0], { table: 'tc', date: '2026-02-02', category: 'Two players', seats: 'Bob 10, Ann 31', rated: true, change: '+62', replay: '/?replay=tc' });
  assert.equal(rows[1].seats, 'Ann 20, Computer (greedy) 30, Cy 25');
  assert.equal(rows[2].change, '', 'an unrated game has no change');
  assert.equal(rows[2].rated, false);
  assert.deepEqual(rows.map((r) => r.table), ['tc', 'tb', 'tx', 'ta'], 'newest first, as the server lists them');
});

test('the rating graph\'s points: the rated games oldest first, a series a category from its rating before', () => {
  const { count, series } = graphPoints(ann.games);
  assert.equal(count, 3, 'the unrated game is left out');
  assert.deepEqual(series, {
    duel: [{ i: 0, rating: 1500, table: null }, { i: 1, rating: 1600.2, table: 'ta' }, { i: 3, rating: 1662.31, table: 'tc' }],
    multi: [{ i: 1, rating: 1500, table: null }, { i: 2, rating: 1432.4, table: 'tb' }],
  });
  assert.deepEqual(graphPoints([]), { count: 0, series: {} });
  assert.equal(ratingGraph([]), '', 'no graph without a rated game');
  const svg = ratingGraph(ann.games);
  assert.equal((svg.match(/<polyline /g) || []).length, 2, 'a line a category');
  assert.equal((svg.match(/<circle /g) || []).length, 5, 'a dot a point');
  assert.match(svg, /<text[^>]*>1430<\/text>/, 'the lowest rating, rounded down to tens');
  assert.match(svg, /<text[^>]*>1670<\/text>/, 'the highest, rounded up');
  assert.match(svg, /3 rated games/);
  // The first duel point sits at the left edge, at the bottom of the range it spans.
  const first = svg.match(/<polyline points="([\d.]+),([\d.]+)/);
  assert.deepEqual([+first[1], +first[2]], [40, 122 - ((122 - 10) * (1500 - 1430)) / (1670 - 1430)].map((v) => +v.toFixed(1)));
});

test('the player page and the leaderboard: rows, links to the replay and to the players', () => {
  const html = playerHtml(ann);
  assert.match(html, /<h2>Ann<\/h2>/);
  assert.match(html, /<tr data-category="duel"><th scope="row"><a href="\/\?leaderboard=duel">Two players<\/a><\/th><td class="rating">1662 ± 290<\/td><td>2<\/td><\/tr>/);
  assert.match(html, /<li data-table="ta"><span class="what">2026-01-31, Two players: Ann 12, Bob 9, rated <strong class="change">\+100<\/strong><\/span><a class="button" href="\/\?replay=ta">Replay<\/a><\/li>/);
  assert.match(playerHtml({ name: 'Zed', ratings: [], games: [] }), /No rated game yet.*No finished game yet/);
  const board = { category: 'duel', players: [{ name: 'Ann', rating: 1720.6, rd: 80.1, volatility: 0.06, games: 12, last_ms: T0 }, { name: 'Bo b', rating: 1600, rd: 100, games: 9 }] };
  assert.deepEqual(leaderboardRows(board), [
    { rank: 1, name: 'Ann', rating: '1721 ± 80', games: 12, href: '/?player=Ann' },
    { rank: 2, name: 'Bo b', rating: '1600 ± 100', games: 9, href: '/?player=Bo%20b' },
  ]);
  const lb = leaderboardHtml(board);
  assert.match(lb, /<h2>Leaderboard: Two players<\/h2>/);
  assert.equal((lb.match(/href="\/\?leaderboard=/g) || []).length, 4, 'a tab a category');
  assert.match(lb, /class="button primary" href="\/\?leaderboard=duel" aria-current="page"/);
  assert.match(leaderboardHtml({ category: 'multi', players: [] }), /Nobody here yet/);
});
