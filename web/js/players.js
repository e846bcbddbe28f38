// players.js: how a player looks: a colour and a shape of its own, so
// that colour is never the only cue. The colours and their order are the
// command line's and the terminal's (Red, Blue, Yellow, Green, Black,
// Grey, and Big Box 5's Purple and Pink for seven and eight players), in
// tones of the colour-blind-safe Okabe and Ito palette where it has them.

export const PLAYERS = [
  { colour: '#D55E00', ink: '#fff', shape: 'circle', name: 'Red', look: 'red circle' },
  { colour: '#0072B2', ink: '#fff', shape: 'square', name: 'Blue', look: 'blue square' },
  { colour: '#F0E442', ink: '#000', shape: 'triangle', name: 'Yellow', look: 'yellow triangle' },
  { colour: '#009E73', ink: '#fff', shape: 'diamond', name: 'Green', look: 'green diamond' },
  { colour: '#222222', ink: '#fff', shape: 'cross', name: 'Black', look: 'black cross' },
  { colour: '#9A9A9A', ink: '#000', shape: 'star', name: 'Grey', look: 'grey star' },
  { colour: '#6A3D9A', ink: '#fff', shape: 'hexagon', name: 'Purple', look: 'purple hexagon' },
  { colour: '#CC79A7', ink: '#000', shape: 'ring', name: 'Pink', look: 'pink ring' },
];

const SHAPES = {
  circle: '<circle r="3.4"/>',
  square: '<rect x="-3" y="-3" width="6" height="6"/>',
  triangle: '<path d="M0,-3.8L3.6,2.8H-3.6Z"/>',
  diamond: '<path d="M0,-4L3.6,0L0,4L-3.6,0Z"/>',
  cross: '<path d="M-1.3,-4h2.6v2.7h2.7v2.6h-2.7v2.7h-2.6v-2.7h-2.7v-2.6h2.7z"/>',
  star: '<path d="M0,-4.2L1.2,-1.3L4,-1.3L1.8,0.6L2.6,3.6L0,1.8L-2.6,3.6L-1.8,0.6L-4,-1.3L-1.2,-1.3Z"/>',
  hexagon: '<path d="M0,-4L3.5,-2V2L0,4L-3.5,2V-2Z"/>',
  ring: '<path fill-rule="evenodd" d="M0,-4a4,4 0 1 1 0,8a4,4 0 1 1 0,-8ZM0,-2a2,2 0 1 0 0,4a2,2 0 1 0 0,-4Z"/>',
};

const MEEPLE = 'M0,-14a4.6,4.6 0 0 1 3.4,7.7L11,-3.6c1.8,.8 1.6,3.6-.6,3.9L5.5,.6L9.6,12.4H2.8L0,6.8L-2.8,12.4H-9.6L-5.5,.6L-10.4,.3c-2.2-.3-2.4-3.1-.6-3.9L-3.4,-6.3A4.6,4.6 0 0 1 0,-14Z';

// The symbol of player p: its shape in its ink, centred on 0,0.
export function shapeSvg(p) {
  const look = PLAYERS[p % PLAYERS.length];
  return `<g fill="${look.ink}">${SHAPES[look.shape]}</g>`;
}

// The figures besides the follower: how much larger than a follower each
// is drawn, and its own outline. The large follower (Inns & Cathedrals)
// is a follower half as large again with a double outline; the builder
// and the pig (Traders & Builders) have shapes of their own.
const SCALE = { follower: 1.45, large: 2.1, builder: 1.45, pig: 1.45 };
// The builder: a figure in a wide-brimmed hat with a hammer raised.
const BUILDER = 'M-4.2,-13.5H4.2V-10.6H7.6V-8.6H4A4.2,4.2 0 0 1 2.6,-3.4L5.6,-2.2L10.4,-9.4L8.4,-10.9L11.4,-14.6L16,-11.2' +
  'L13,-7.5L11.6,-8.4L6.8,-.5C7.6,1 8,2.6 8,4.2L9.2,12.4H2.4L0,7.4L-2.4,12.4H-9.2L-8,4.2C-8,1.2 -6.8,-1.4 -2.6,-3.4A4.2,4.2 0 0 1 -4,-8.6H-7.6V-10.6H-4.2Z';
// The pig: on its four legs, its snout, ear and curled tail drawn on it.
const PIG = 'M-11,0C-11,-6 -5,-8 2,-8L5,-12L7,-7C10,-6 12,-3 12,0C12,4 9,6 5,7V11H2V7H-4V11H-7V6C-10,5 -11,3 -11,0Z';
const PIG_MARKS = '<ellipse cx="12" cy="-.5" rx="2.2" ry="2.8" fill="#f3b6c4" stroke="#111" stroke-width="1"/><circle cx="7.6" cy="-3.4" r="1.1" fill="#111"/>' +
  '<path d="M-11,-1.5c-3,-1 -4.5,-4 -2.4,-5.2c1.6,-.9 2.6,1.4 .6,1.8" fill="none" stroke="#111" stroke-width="1.3"/>';

// A figure of player p at (x, y): a follower (a farmer lies on its side),
// the large follower, the builder or the pig, over its shadow (the plain
// theme hides shadows). `extra`: attributes.
export function meepleSvg(p, x, y, lying = false, extra = '', figure = 'follower') {
  const look = PLAYERS[p % PLAYERS.length];
  const shape = { builder: BUILDER, pig: PIG }[figure] || MEEPLE;
  const lies = lying && shape === MEEPLE;
  const scale = SCALE[figure] || SCALE.follower;
  const turn = `${lies ? ' rotate(-90)' : ''} scale(${scale})`;
  const cls = `meeple${lies ? ' farmer' : ''}${figure !== 'follower' ? ` ${figure}` : ''}`;
  const outline = figure === 'large' ? `<path d="${shape}" fill="none" stroke="#fff" stroke-width="3.4"/>` : '';
  const shadow = lies ? [-2.5, 1, 8, 11] : [2.5, 12.5, 11, 3.2]; // a farmer's frame is turned: its x is down
  return `<g class="${cls}" data-player="${p}" data-figure="${figure}" transform="translate(${x.toFixed(1)},${y.toFixed(1)})${turn}"${extra}>` +
    `<ellipse class="shadow" cx="${shadow[0]}" cy="${shadow[1]}" rx="${shadow[2]}" ry="${shadow[3]}"/>` +
    `${outline}<path d="${shape}" fill="${look.colour}" stroke="#111" stroke-width="1.3"/>${figure === 'pig' ? PIG_MARKS : ''}` +
    `<g transform="translate(${figure === 'builder' ? '-1,3' : '0,1'})${lies ? ' rotate(90)' : ''}">${shapeSvg(p)}</g></g>`;
}

// A small badge (an inline SVG) of player p for lists and the score track.
export function badge(p, size = 18) {
  const look = PLAYERS[p % PLAYERS.length];
  return `<svg class="badge" width="${size}" height="${size}" viewBox="-8 -8 16 16" aria-hidden="true">` +
    `<circle r="7.4" fill="${look.colour}" stroke="#111" stroke-width="1"/><g transform="scale(1.25)">${shapeSvg(p)}</g></svg>`;
}

// A small figure of player p for the panel's supply; the large follower
// is drawn larger, the builder and the pig in their own shapes.
export function meepleIcon(p, size = 14, figure = 'follower') {
  const look = PLAYERS[p % PLAYERS.length];
  const shape = { builder: BUILDER, pig: PIG }[figure] || MEEPLE;
  const px = figure === 'large' ? Math.round(size * 1.45) : size;
  return `<svg class="meeple-icon${figure !== 'follower' ? ` ${figure}` : ''}" width="${px}" height="${px}" viewBox="${figure === 'builder' ? '-11 -16 28 30' : '-13 -16 26 30'}" aria-hidden="true">` +
    `<path d="${shape}" fill="${look.colour}" stroke="#111" stroke-width="${figure === 'large' ? 2.2 : 1.3}"/></svg>`;
}
