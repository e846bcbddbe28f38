// bench.mjs: the browser client's figures on loopback (not a test): the
// time from opening a table's address to a playable board, the bytes the
// browser downloads on a first load (a cold cache, a fresh profile: HTTP
// responses with their headers, and WebSocket frames), for a base-game
// table and for one with all three expansions, and the frame time while
// dragging a finished board: the base game's 72 tiles on a desktop screen,
// all three expansions' 124 on a phone's.
import { startServer, launch } from './lib.mjs';

const server = await startServer({ bin: process.env.CARCASSONNE, webDir: process.env.WEB_DIR, thinkMs: 20 });
const browser = await launch();
const RUNS = +(process.env.RUNS || 5);

const ALL = ['river', 'inns-cathedrals', 'traders-builders'];

async function created(seats, expansions = []) {
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  await page.goto(server.url);
  await page.waitForSelector('body[data-ready=yes]');
  await page.fill('#create input[name=name]', 'Bench');
  for (let i = 0; i < seats.length; i++) await page.selectOption(`#create select[data-i="${i}"]`, seats[i]);
  for (const x of expansions) await page.check(`#create input[name=expansion][value=${x}]`);
  await page.click('#create-button');
  await page.waitForURL(/\?t=/);
  const state = await ctx.storageState();
  const url = page.url();
  await ctx.close();
  return { url, state };
}

// A cold load (fresh profile, empty cache) of a table where it is our turn.
async function firstLoad(table) {
  const ctx = await browser.newContext({ storageState: table.state });
  const page = await ctx.newPage();
  const cdp = await ctx.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  let http = 0, ws = 0, requests = 0;
  const urls = new Map(), sizes = {};
  cdp.on('Network.requestWillBeSent', (e) => urls.set(e.requestId, new URL(e.request.url).pathname));
  cdp.on('Network.loadingFinished', (e) => {
    http += e.encodedDataLength;
    sizes[urls.get(e.requestId)] = e.encodedDataLength;
    requests++;
  });
  cdp.on('Network.webSocketFrameReceived', (e) => (ws += e.response.payloadData.length));
  cdp.on('Network.webSocketFrameSent', (e) => (ws += e.response.payloadData.length));
  await page.goto(table.url);
  await page.waitForSelector('body[data-phase=place]', { timeout: 60000 });
  const ms = await page.evaluate(() => performance.getEntriesByName('carc-playable')[0].startTime);
  // Every kind's art is drawn after the board is playable, while idle.
  await page.waitForFunction(() => performance.getEntriesByName('carc-art-all').length, null, { timeout: 60000 });
  // Where the time went: the page's HTML in, its scripts run, the
  // catalogue and the WebSocket ready, the table's state in, playable.
  const steps = await page.evaluate(() => {
    const nav = performance.getEntriesByType('navigation')[0];
    const at = (name) => performance.getEntriesByName(name)[0]?.startTime ?? NaN;
    return { html: nav.responseEnd, scripts: nav.domContentLoadedEventEnd, connected: at('carc-connected'), state: at('carc-state'),
      art: at('carc-art-all') };
  });
  await ctx.close();
  return { ms, steps, bytes: http + ws, http, ws, requests, tiles: sizes['/api/tiles'] || 0 };
}

// RUNS cold loads of a new table of each; prints the median time and the
// first load's bytes.
async function loads(what, expansions) {
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await firstLoad(await created(['me', 'greedy'], expansions)));
  const ms = runs.map((l) => l.ms).sort((a, b) => a - b), l = runs[0];
  const kb = (n) => (n / 1024).toFixed(1);
  console.log(`${what}: playable board, cold load on loopback: median ${ms[Math.floor(ms.length / 2)].toFixed(0)} ms ` +
    `(min ${ms[0].toFixed(0)}, max ${ms[ms.length - 1].toFixed(0)}; ${RUNS} loads)`);
  const median = (k) => runs.map((r) => r.steps[k]).sort((a, b) => a - b)[Math.floor(runs.length / 2)].toFixed(0);
  console.log(`${what}: timeline (medians): HTML in at ${median('html')} ms, scripts run by ${median('scripts')} ms, ` +
    `catalogue and WebSocket ready at ${median('connected')} ms, the table's state in at ${median('state')} ms; ` +
    `every kind's art drawn (while idle, after the board) by ${median('art')} ms`);
  console.log(`${what}: first load ${kb(l.bytes)} KB: ${kb(l.http)} KB in ${l.requests} HTTP requests (/api/tiles ${kb(l.tiles)} KB) ` +
    `and ${kb(l.ws)} KB of WebSocket frames`);
}

// Drags the board around for `seconds` and times every frame.
// `phone`: a phone-sized screen (390 x 844 CSS pixels at 3 device pixels
// each), the layout the client gives a phone.
async function panning(url, phone = false, seconds = 3) {
  const ctx = await browser.newContext(phone
    ? { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true }
    : { viewport: { width: 1280, height: 800 } });
  const page = await ctx.newPage();
  await page.goto(url);
  await page.waitForSelector('#table-view[data-status=finished]', { timeout: 300000 });
  const tiles = await page.$$eval('#board .tiles use', (u) => u.length);
  await page.keyboard.press('f');
  await page.evaluate(() => {
    window.frames_ = [];
    let last = performance.now();
    const tick = (t) => {
      window.frames_.push(t - last);
      last = t;
      if (!window.stopFrames_) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  const box = await page.locator('#board').boundingBox();
  const cx = box.x + box.width / 2, cy = box.y + box.height / 2;
  await page.mouse.move(cx, cy);
  await page.mouse.down();
  const t0 = Date.now();
  for (let i = 0; Date.now() - t0 < seconds * 1000; i++) {
    const r = phone ? 0.4 : 1;
    await page.mouse.move(cx + r * 200 * Math.sin(i / 15), cy + r * 120 * Math.cos(i / 15));
  }
  await page.mouse.up();
  const frames = await page.evaluate(() => {
    window.stopFrames_ = true;
    return window.frames_.slice(2);
  });
  await ctx.close();
  frames.sort((a, b) => a - b);
  const mean = frames.reduce((a, b) => a + b, 0) / frames.length;
  return { tiles, frames: frames.length, mean, p95: frames[Math.floor(frames.length * 0.95)], worst: frames[frames.length - 1] };
}

try {
  console.log(`(${process.env.CHROMIUM || '/usr/bin/chromium'}, load average ${(await import('node:os')).loadavg().map((v) => v.toFixed(1)).join(' ')})`);
  await loads('base game against greedy', []);
  await loads('all three expansions against greedy', ALL);
  const show = (what, p) => console.log(`panning a finished ${p.tiles}-tile board, ${what}: ${p.frames} frames, ` +
    `mean ${p.mean.toFixed(1)} ms (${(1000 / p.mean).toFixed(0)} fps), 95th percentile ${p.p95.toFixed(1)} ms, worst ${p.worst.toFixed(1)} ms`);
  const base = await created(['greedy', 'greedy']);
  show('base game, desktop', await panning(base.url.replace(/&.*$/, '')));
  const all = await created(['greedy', 'greedy'], ALL);
  show('all three expansions, phone', await panning(all.url.replace(/&.*$/, ''), true));
} finally {
  await browser.close();
  await server.stop();
}
