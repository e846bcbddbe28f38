// net.js: the WebSocket to the server: requests with replies matched by id,
// events to listeners, and reconnection with a growing delay.

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
  }

  // Opens the socket; resolves once it is open (the first time).
  connect() {
    return new Promise((resolve) => {
      const ws = new WebSocket(this.url, 'carcassonne.v1');
      this.ws = ws;
      ws.onopen = () => {
        this.open = true;
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
    let msg;
    try {
      msg = JSON.parse(text);
    } catch {
      return;
    }
    if (msg.re !== undefined && this.pending.has(msg.re)) {
      const { resolve, reject } = this.pending.get(msg.re);
      this.pending.delete(msg.re);
      if (msg.type === 'error') reject(Object.assign(new Error(msg.message), { code: msg.code }));
      else resolve(msg);
      return;
    }
    for (const f of this.listeners) f(msg);
  }

  // Sends a request; resolves with its reply, rejects with an error reply.
  request(type, fields = {}) {
    if (!this.open) return Promise.reject(new Error('not connected'));
    const id = this.nextId++;
    this.ws.send(JSON.stringify({ type, id, ...fields }));
    return new Promise((resolve, reject) => this.pending.set(id, { resolve, reject }));
  }

  onEvent(f) {
    this.listeners.add(f);
  }

  // f('open' | 'lost'): 'open' again after a reconnection.
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
