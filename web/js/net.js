// net.js: the WebSocket to the server: requests with replies matched by id,
// events to listeners, reconnection with a growing delay, and a watch on
// the server's answers: a request unanswered for SLOW_MS (a frozen or
// overloaded server keeps the socket open) reports 'slow' until the
// server answers again ('open'). A quiet connection is pinged every
// QUIET_MS, so a frozen server is noticed even when nobody plays.

const SLOW_MS = 3000, QUIET_MS = 5000;

export class Connection {
  constructor(url) {
    this.url = url;
    this.nextId = 1;
    this.pending = new Map(); // id -> {resolve, reject}
    this.listeners = new Set();
    this.statusListeners = new Set();
    this.ws = null;
    this.delay = 250;
    this.open = false;
    this.closed = false;
    this.slow = false;
    this.heardAt = 0;
    this.watch = setInterval(() => this.checkSlow(), 500);
  }

  // 'slow' when a request waits too long; a ping when all is quiet.
  checkSlow() {
    if (!this.open) return;
    const now = Date.now();
    let oldest = now;
    for (const p of this.pending.values()) oldest = Math.min(oldest, p.at);
    if (!this.slow && now - oldest > SLOW_MS) {
      this.slow = true;
      this.emitStatus('slow');
    }
    if (!this.pending.size && now - this.heardAt > QUIET_MS) this.request('ping').catch(() => {});
  }

  // Opens the socket; resolves once it is open (the first time).
  connect() {
    return new Promise((resolve) => {
      const ws = new WebSocket(this.url, 'carcassonne.v1');
      this.ws = ws;
      ws.onopen = () => {
        this.open = true;
        this.slow = false;
        this.heardAt = Date.now();
        this.delay = 250;
        this.emitStatus('open');
        resolve();
      };
      ws.onmessage = (e) => this.receive(e.data);
      ws.onclose = () => this.lost(resolve);
    });
  }

  lost(resolveFirst) {
    const wasOpen = this.open;
    this.open = false;
    for (const { reject } of this.pending.values()) reject(new Error('connection lost'));
    this.pending.clear();
    if (this.closed) return;
    if (wasOpen) this.emitStatus('lost');
    setTimeout(() => this.connect().then(resolveFirst), this.delay);
    this.delay = Math.min(this.delay * 2, 5000);
  }

  receive(text) {
    this.heardAt = Date.now();
    let msg;
    try {
      msg = JSON.parse(text);
    } catch {
      return;
    }
    if (msg.re !== undefined && this.pending.has(msg.re)) {
      const { resolve, reject } = this.pending.get(msg.re);
      this.pending.delete(msg.re);
      if (this.slow && ![...this.pending.values()].some((p) => this.heardAt - p.at > SLOW_MS)) {
        this.slow = false;
        this.emitStatus('back');
      }
      if (msg.type === 'error') reject(Object.assign(new Error(msg.message), { code: msg.code }));
      else resolve(msg);
      return;
    }
    // The first state of a page load, for scripts/web-bench.sh's timeline.
    if (msg.type === 'state' && !performance.getEntriesByName('carc-state').length) performance.mark('carc-state');
    // The first state of a page load, for scripts/web-bench.sh's timeline.
    if (msg.type === 'state' && !performance.getEntriesByName('carc-state').length) performance.mark('carc-state');
    for (const f of this.listeners) f(msg);
  }

  // Sends a request; resolves with its reply, rejects with an error reply.
  request(type, fields = {}) {
    if (!this.open) return Promise.reject(new Error('not connected'));
    const id = this.nextId++;
    this.ws.send(JSON.stringify({ type, id, ...fields }));
    return new Promise((resolve, reject) => this.pending.set(id, { resolve, reject, at: Date.now() }));
  }

  onEvent(f) {
    this.listeners.add(f);
  }

  // f('open' | 'lost' | 'slow' | 'back'): 'open' again after a
  // reconnection; 'back' once a slow server answers again.
  onStatus(f) {
    this.statusListeners.add(f);
  }

  emitStatus(s) {
    for (const f of this.statusListeners) f(s);
  }
}

// The address of the server's WebSocket, beside the page.
export function socketUrl(loc = window.location) {
  return `${loc.protocol === 'https:' ? 'wss' : 'ws'}://${loc.host}/ws`;
}
