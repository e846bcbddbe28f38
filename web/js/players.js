// players.js: how a player looks: a colour and a shape of its own, so
// that colour is never the only cue. The colours and their order are the
// command line's and the terminal's (Red, Blue, Yellow, Green, Black,
// Grey), in tones of the colour-blind-safe Okabe and Ito palette.

export const PLAYERS = [
  { colour: '#D55E00', ink: '#fff', shape: 'circle', name: 'Red', look: 'red circle' },
  { colour: '#0072B2', ink: '#fff', shape: 'square', name: 'Blue', look: 'blue square' },
  { colour: '#F0E442', ink: '#000', shape: 'triangle', name: 'Yellow', look: 'yellow triangle' },
  { colour: '#009E73', ink: '#fff', shape: 'diamond', name: 'Green', look: 'green diamond' },
  { colour: '#222222', ink: '#fff', shape: 'cross', name: 'Black', look: 'black cross' },
  { colour: '#9A9A9A', ink: '#000', shape: 'star', name: 'Grey', look: 'grey star' },
];

const SHAPES = {
  circle: '<circle r="3.4"/>',
  square: '<rect x="-3" y="-3" width="6" height="6"/>',
  triangle: '<path d="M0,-3.8L3.6,2.8H-3.6Z"/>',
  diamond: '<path d="M0,-4L3.6,0L0,4L-3.6,0Z"/>',
  cross: '<path d="M-1.3,-4h2.6v2.7h2.7v2.6h-2.7v2.7h-2.6v-2.7h-2.7v-2.6h2.7z"/>',
  star: '<path d="M0,-4.2L1.2,-1.3L4,-1.3L1.8,0.6L2.6,3.6L0,1.8L-2.6,3.6L-1.8,0.6L-4,-1.3L-1.2,-1.3Z"/>',
};

const MEEPLE = 'M0,-14a4.6,4.6 0 0 1 3.4,7.7L11,-3.6c1.8,.8 1.6,3.6-.6,3.9L5.5,.6L9.6,12.4H2.8L0,6.8L-2.8,12.4H-9.6L-5.5,.6L-10.4,.3c-2.2-.3-2.4-3.1-.6-3.9L-3.4,-6.3A4.6,4.6 0 0 1 0,-14Z';

// The symbol of player p: its shape in its ink, centred on 0,0.
export function shapeSvg(p) {
  const look = PLAYERS[p % PLAYERS.length];
  return `<g fill="${look.ink}">${SHAPES[look.shape]}</g>`;
}

// A meeple of player p at (x, y); a farmer lies on its side.
export function meepleSvg(p, x, y, lying = false, extra = '') {
  const look = PLAYERS[p % PLAYERS.length];
  const turn = `${lying ? ' rotate(-90)' : ''} scale(1.45)`;
  return `<g class="meeple${lying ? ' farmer' : ''}" data-player="${p}" transform="translate(${x.toFixed(1)},${y.toFixed(1)})${turn}"${extra}>` +
    `<path d="${MEEPLE}" fill="${look.colour}" stroke="#111" stroke-width="1.3"/>` +
    `<g transform="translate(0,1)${lying ? ' rotate(90)' : ''}">${shapeSvg(p)}</g></g>`;
}

// A small badge (an inline SVG) of player p for lists and the score track.
export function badge(p, size = 18) {
  const look = PLAYERS[p % PLAYERS.length];
  return `<svg class="badge" width="${size}" height="${size}" viewBox="-8 -8 16 16" aria-hidden="true">` +
    `<circle r="7.4" fill="${look.colour}" stroke="#111" stroke-width="1"/><g transform="scale(1.25)">${shapeSvg(p)}</g></svg>`;
}

export function meepleIcon(p, size = 14) {
  const look = PLAYERS[p % PLAYERS.length];
  return `<svg class="meeple-icon" width="${size}" height="${size}" viewBox="-12 -15 24 28" aria-hidden="true">` +
    `<path d="${MEEPLE}" fill="${look.colour}" stroke="#111" stroke-width="1.3"/></svg>`;
}
