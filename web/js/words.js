// words.js: what the page says in words: counts with their plurals, the
// articles, and a move of the record notation ("P 0 -1 3 SSE") as a
// player would say it. Pure functions, no page.

// "1 tile", "2 tiles", "1 city", "3 cities"; `many` for an irregular plural.
export function plural(n, one, many = null) {
  if (n === 1) return `${n} ${one}`;
  return `${n} ${many || (/[^aeiou]y$/.test(one) ? `${one.slice(0, -1)}ies` : `${one}s`)}`;
}

// "a city", "an unfinished city".
export function article(word) {
  return `${/^[aeiou]/i.test(word) ? 'an' : 'a'} ${word}`;
}

// A follower on a segment of this kind (the catalogue's kinds), in words.
const FOLLOWER = {
  road: 'a thief on the road',
  city: 'a knight in the city',
  field: 'a farmer on the farm',
  farm: 'a farmer on the farm',
  cloister: 'a monk in the cloister',
};

export function followerWords(kind) {
  return FOLLOWER[kind] || 'a follower';
}

// A figure in words: "the large follower", "the builder", "the pig", "a follower".
const FIGURE = { follower: 'a follower', large: 'the large follower', builder: 'the builder', pig: 'the pig' };

export function figureWords(figure) {
  return FIGURE[figure] || `the ${figure}`;
}

// A figure on a segment of this kind: "a thief on the road", "the large
// follower as a knight in the city", "the builder on the road", "the pig
// on the farm".
export function figureOnWords(figure, kind) {
  if (!figure || figure === 'follower') return followerWords(kind);
  if (figure === 'large') return `the large follower as ${followerWords(kind)}`;
  const where = { road: 'on the road', city: 'in the city', field: 'on the farm', farm: 'on the farm', cloister: 'in the cloister' }[kind];
  return `${figureWords(figure)}${where ? ` ${where}` : ''}`;
}

// The turn of a placement in words: "upright", "turned right", ...
const TURNS = ['upright', 'turned a quarter right', 'upside down', 'turned a quarter left'];

export function rotationWords(rot) {
  return TURNS[((rot % 4) + 4) % 4];
}

// A move of the record notation in words. `kindOf(letter, rot, spot)`
// names the segment a spot is on (Catalogue.kindOf); without it the
// follower is only "a follower". "P 0 -1 3 SSE" -> "tile P at 0, -1,
// turned a quarter left, a farmer on the farm"; a figure's word after the
// spot names it ("IK 0 -2 0 N large": "the large follower as a knight in
// the city").
export function moveWords(text, kindOf = null) {
  const w = String(text).trim().split(/\s+/);
  if (w[0] === 'discard') return `tile ${w[1]}, discarded (it fitted nowhere)`;
  if (w[0] === 'end') return 'the end of the game';
  if (w.length < 4) return text;
  const [letter, x, y, rot, spot, figure] = [w[0], +w[1], +w[2], +w[3], w[4], w[5]];
  const who = spot ? figureOnWords(figure, kindOf ? kindOf(letter, rot, spot) : null) : 'no follower';
  return `tile ${letter} at ${x}, ${y}, ${rotationWords(rot)}, ${who}`;
}

// A duration in words, rounded down to what a correspondence game needs:
// "2 d 5 h", "3 d", "5 h 12 min", "12 min", "less than a minute"; "no
// time" at zero or below.
export function durationWords(ms) {
  if (!(ms > 0)) return 'no time';
  const min = Math.floor(ms / 60000), h = Math.floor(min / 60), d = Math.floor(h / 24);
  if (d) return h % 24 ? `${d} d ${h % 24} h` : `${d} d`;
  if (h) return min % 60 ? `${h} h ${min % 60} min` : `${h} h`;
  return min ? `${min} min` : 'less than a minute';
}

// "2 d 5 h left", "12 min left", "no time left".
export function timeLeftWords(ms) {
  return `${durationWords(ms)} left`;
}
