// rules.js: the rules page (/rules, /?rules=SECTION): the base game, each
// expansion and each house rule in the project's own words, with small
// boards drawn by the same tile drawings as the table (the catalogue's
// <use> definitions) and the same figures. A table opens it at the
// section of the rules it plays (rulesSectionsFor).

import { SIZE } from './tiles.js';
import { meepleSvg, badge } from './players.js';
export { rulesSectionsFor, rulesUrl } from './rulelinks.js';

const esc = (s) => String(s ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

// A small board: `tiles` [{t, x, y, rot}], `figures` [{t, x, y, rot, spot,
// p, lying, figure}] standing on a spot of a placed tile, a caption.
function diagram(cat, { tiles, figures = [], caption }) {
  const xs = tiles.map((t) => t.x), ys = tiles.map((t) => t.y);
  const x0 = Math.min(...xs), y0 = Math.min(...ys);
  const w = Math.max(...xs) - x0 + 1, h = Math.max(...ys) - y0 + 1;
  const uses = tiles.map((t) => `<use href="#${cat.tileId(t.t, t.rot)}" transform="translate(${t.x * SIZE},${t.y * SIZE}) rotate(${t.rot * 90},50,50)"/>`).join('');
  const people = figures.map((f) => {
    const [px, py] = cat.spotPoint(f.t, f.rot, f.spot);
    return meepleSvg(f.p, f.x * SIZE + px, f.y * SIZE + py, !!f.lying, '', f.figure || 'follower');
  }).join('');
  const px = Math.min(96 * w, 320);
  return `<figure class="rules-diagram"><svg viewBox="${x0 * SIZE - 4} ${y0 * SIZE - 4} ${w * SIZE + 8} ${h * SIZE + 8}" width="${px}" height="${(px * h) / w}" role="img" aria-label="${esc(caption)}">${uses}${people}</svg><figcaption>${caption}</figcaption></figure>`;
}

// The tiles of one set (base, river, inns-cathedrals, traders-builders)
// side by side, each once.
function tileStrip(cat, set) {
  const ids = cat.letters.filter((id) => cat.kinds[id].set === set);
  return `<p class="rules-tiles" aria-label="the tiles of this set">${ids.map((id) =>
    `<span title="${esc(id)}"><svg viewBox="0 0 100 100" width="34" height="34" aria-hidden="true"><use href="#${cat.tileId(id)}"/></svg><small>${esc(id)}</small></span>`).join('')}</p>`;
}

// The sections, in page order: an id (what a table asks for: `base`, an
// expansion's name, `rule-NAME` for a house rule), a title and the body.
function sections(cat) {
  const d = (spec) => diagram(cat, spec);
  return [
    { id: 'base', title: 'The base game', body: `
<p>Two to eight players build the countryside around Carcassonne one tile at a time and place their followers on it to score roads, cities, cloisters and farms. Each player has 7 followers. The game starts with one tile on the table and 71 in a face-down pile; it ends when the pile is empty, and the most points win.</p>
<h3 id="base-turn">A turn</h3>
<ol>
<li><strong>Place the tile you drew.</strong> It must touch a tile already placed along at least one edge, and every edge it touches must match: road to road, city to city, field to field. You may turn it any way. A tile that fits nowhere is set aside and you draw another.</li>
<li><strong>You may put one follower on that tile</strong>, from your supply: on its road (a thief), in its city (a knight), in its cloister (a monk) or on a field (a farmer, lying down). Not onto a road, city or field that already holds a follower anywhere along it, yours included.</li>
<li><strong>Score</strong> every road, city and cloister the tile completed. Thieves, knights and monks on them go back to their owners. Farmers stay to the end.</li>
</ol>
${d({ tiles: [{ t: 'D', x: 0, y: 0, rot: 0 }, { t: 'V', x: 1, y: 0, rot: 0 }], figures: [{ t: 'V', x: 1, y: 0, rot: 0, spot: 'S', p: 1 }], caption: 'The curve continues the road of the start tile; Blue puts a thief on it.' })}
<h3 id="base-majority">Who scores</h3>
<p>Two roads, cities or farms that each hold followers can be joined later by a tile. When a feature is scored, the player with the most followers in it scores all its points; players tied for the most each score them all; the others score nothing for it.</p>
<h3 id="base-roads">Roads</h3>
<p>A road is complete when both its ends stop (at a crossroads, a city, a cloister) or it closes into a loop. It scores <strong>1 point per tile</strong>, a tile counting once even when the road crosses it twice.</p>
<h3 id="base-cities">Cities</h3>
<p>A city is complete when its walls close all round. It scores <strong>2 points per tile and 2 per pennant</strong> (the shield on some city tiles).</p>
${d({ tiles: [{ t: 'E', x: 0, y: -1, rot: 2 }, { t: 'D', x: 0, y: 0, rot: 0 }], figures: [{ t: 'E', x: 0, y: -1, rot: 2, spot: 'S', p: 0 }], caption: 'Two city caps close a city of 2 tiles: Red\'s knight scores 4 points and comes home.' })}
<h3 id="base-cloisters">Cloisters</h3>
<p>A cloister is complete when all eight squares around it hold tiles: <strong>9 points</strong> for its monk.</p>
${d({ tiles: [[-1, -1, 0], [0, -1, 0], [1, -1, 0], [-1, 0, 3], [1, 0, 1], [-1, 1, 2], [0, 1, 2], [1, 1, 2]].map(([x, y, rot]) => ({ t: 'E', x, y, rot })).concat([{ t: 'B', x: 0, y: 0, rot: 0 }]), figures: [{ t: 'B', x: 0, y: 0, rot: 0, spot: 'C', p: 2 }], caption: 'Eight neighbours round the cloister: Yellow\'s monk scores 9.' })}
<h3 id="base-farms">Farms</h3>
<p>A farm is a field bounded by roads, cities and the edge of the tiles placed. Farmers score only at the end: the player with the most farmers on a farm scores <strong>3 points for each completed city</strong> that borders it (along a wall; a corner is not enough). A city counts once per farm, but it counts for every farm it borders. Unfinished cities give farmers nothing.</p>
${d({ tiles: [{ t: 'E', x: 0, y: -1, rot: 2 }, { t: 'D', x: 0, y: 0, rot: 0 }], figures: [{ t: 'D', x: 0, y: 0, rot: 0, spot: 'ENE', p: 3, lying: true }], caption: 'Green\'s farmer lies in the field between the city and the road: the completed city will give it 3 points at the end.' })}
<h3 id="base-end">The end of the game</h3>
<p>After the last tile, unfinished features score for their followers: a road <strong>1 a tile</strong>, a city <strong>1 a tile and 1 a pennant</strong>, a cloister <strong>1, plus 1 for each neighbour</strong>. Then the farms score. The most points win; tied players share the victory.</p>` },
    { id: 'river', title: 'The River', body: `
<p>Twelve river tiles start the game instead of the start tile: the spring is placed first, the lake goes under the other ten river tiles, and the players draw those first. Each river tile must continue the river from its open end (there is exactly one square to put it), fit its other edges as usual, and never send the river straight back the way it came: two bends the same way in a row are not allowed, but a bend, a straight piece and a bend the same way are. A river tile that cannot be placed is set aside. After the lake, the ordinary pile is played as usual. The river itself scores nothing and nobody stands on it; it cuts the fields in two except round the spring and the lake.</p>
${d({ tiles: [{ t: 'RA', x: 0, y: 0, rot: 0 }, { t: 'RD', x: 1, y: 0, rot: 0 }, { t: 'RG', x: 2, y: 0, rot: 0 }, { t: 'RL', x: 2, y: 1, rot: 1 }], caption: 'The spring, a straight river, a bend and the lake.' })}
${tileStrip(cat, 'river')}` },
    { id: 'inns-cathedrals', title: 'Inns & Cathedrals', body: `
<p>Eighteen more tiles, and each player gets a <strong>large follower</strong> that counts as two followers when deciding who has the most in a feature (it scores no more points by itself). It goes where a follower could go.</p>
<ul>
<li><strong>An inn</strong> by a road (a tavern with a sign): the completed road scores <strong>2 points a tile</strong>; left unfinished at the end it scores <strong>nothing</strong>.</li>
<li><strong>A cathedral</strong> (the whole-tile city): the completed city scores <strong>3 a tile and 3 a pennant</strong>; left unfinished it scores <strong>nothing</strong>.</li>
</ul>
${d({ tiles: [{ t: 'D', x: 0, y: 0, rot: 0 }, { t: 'IB', x: 1, y: 0, rot: 0 }], figures: [{ t: 'IB', x: 1, y: 0, rot: 0, spot: 'E', p: 0, figure: 'large' }], caption: 'Red\'s large follower on a road with an inn: 2 points a tile if it is finished, 0 if not.' })}
${tileStrip(cat, 'inns-cathedrals')}` },
    { id: 'traders-builders', title: 'Traders & Builders', body: `
<p>Twenty-four more tiles, and each player gets a builder and a pig.</p>
<ul>
<li><strong>Goods</strong>: some city tiles show wine, grain or cloth. Whoever places the tile that completes such a city takes one token for each symbol in it, even without a knight there. At the end, the player with the most tokens of each kind scores <strong>10 points</strong> (tied players each score 10).</li>
<li><strong>The builder</strong> (${meepleIconInline(0, 'builder')}) goes on a road or city where you already have a follower. Whenever you later extend that road or city, you play a <strong>second tile</strong> at once (never a third). It goes home when your followers there do.</li>
<li><strong>The pig</strong> (${meepleIconInline(0, 'pig')}) goes on a farm where you have a farmer. If you own that farm at the end, each completed city it borders gives you <strong>4 points instead of 3</strong>.</li>
</ul>
${tileStrip(cat, 'traders-builders')}` },
    { id: 'players', title: 'Seven and eight players', body: `
<p>Up to eight players may play: colours red, blue, yellow, green, black, grey, purple and pink, ${[0, 1, 2, 3, 4, 5, 6, 7].map((p) => badge(p, 14)).join(' ')}, each with its own shape so that the colours never need to be told apart by colour alone. Nothing else changes. The table may draw the first player at random, or by the rule texts' draw-off (each player draws a tile and the one with the most roads on it starts; tied players draw again).</p>` },
    { id: 'house-rules', title: 'House rules', body: `<p>Each table says which it plays; none is on unless chosen.</p>` },
    { id: 'rule-hand', title: 'A hand of tiles (hand=1, 2 or 3)', body: `<p>Each player holds that many tiles and places one of them on their turn, then draws back up. A tile that fits nowhere is discarded and replaced. When the pile is empty, players go on playing from their hands. The hands are hidden from the other players unless the table plays <strong>open hands</strong>.</p>` },
    { id: 'rule-open-hands', title: 'Open hands', body: '<p>With a hand of tiles: everyone sees every hand.</p>' },
    { id: 'rule-reshuffle', title: 'Unplaceable tiles back into the pile (reshuffle)', body: '<p>A tile that fits nowhere goes back into the pile at a random place and the same player draws again. The game ends when the pile is empty or holds only tiles that fit nowhere.</p>' },
    { id: 'rule-start-in-pile', title: 'The start tile in the pile', body: '<p>All 72 tiles are shuffled; the first one drawn is the start tile.</p>' },
    { id: 'rule-extra-start-tile', title: 'A separate start tile (Big Box 5)', body: '<p>Big Box 5 comes with an extra start tile besides the 72: that extra tile (a city cap and a straight road, like the usual start tile) starts the board, and all 72 tiles, its four twins among them, are shuffled into the pile: 72 tiles to play instead of 71. Not with The River (which has its own start tile) nor with the start tile in the pile.</p>' },
    { id: 'rule-table', title: 'A bounded table (table=W×H)', body: '<p>The board may not grow past a table of W by H squares with the start tile in its middle; a tile that fits nowhere on the table is discarded. The edge is drawn on the board.</p>' },
    { id: 'rule-table-edge-completes', title: 'The table\'s edge completes features', body: '<p>With a bounded table: a road or city that runs into the edge counts as closed there, and a cloister\'s squares beyond the edge count as filled.</p>' },
    { id: 'rule-bonus-turn', title: 'A bonus turn for filling a hole', body: '<p>A tile placed with neighbours on all four sides gives its player another turn (at most one more each turn).</p>' },
    { id: 'rule-small-city', title: 'Small cities', body: '<p>A completed city of exactly two tiles scores only 1 a tile and 1 a pennant.</p>' },
    { id: 'rule-no-incomplete-scoring', title: 'No scoring of unfinished features', body: '<p>At the end, unfinished roads, cities and cloisters score nothing; farms still score.</p>' },
    { id: 'rule-farms-first-edition', title: 'First-edition farms', body: '<p>Farms are scored from each completed city: the players with the most farmers on all the farms bordering that city score 4 points for it, once per city.</p>' },
  ];
}

function meepleIconInline(p, figure) {
  return `<svg width="16" height="18" viewBox="-14 -16 28 32" aria-hidden="true">${meepleSvg(p, 0, 0, false, '', figure)}</svg>`;
}

// Fills `el` with the whole rules page, with a table of contents, and
// brings section `open` into view (marked as the one asked for).
export function showRules(el, cat, open = 'base') {
  const list = sections(cat);
  const known = list.some((s) => s.id === open) ? open : 'base';
  el.innerHTML = `<h2>The rules</h2><nav class="rules-toc" aria-label="sections"><ul>${list.map((s) =>
    `<li><a href="/?rules=${s.id}" data-section="${s.id}">${esc(s.title)}</a></li>`).join('')}</ul></nav>` +
    list.map((s) => `<section class="rules-section${s.id === known ? ' asked' : ''}" id="rules-${s.id}" data-section="${s.id}"><h3 class="rules-title">${esc(s.title)}</h3>${s.body}</section>`).join('');
  el.querySelector(`#rules-${known}`)?.scrollIntoView({ block: 'start' });
  return known;
}
