// account.js: the lobby's account box: sign up, log in, log out, and
// "Logged in as NAME". Playing as a guest stays the default. The session
// is an HttpOnly cookie the page never sees: GET /api/me says who it is,
// and the WebSocket connection carries the cookie when it opens, so the
// page reloads after a login or a logout to open a connection as the
// account (docs/server-protocol.md, "Accounts").

// Whether this browser may have a session, so that a guest's page never
// asks GET /api/me for its 401 (a red line in the console on every load).
// The server sets the cookie `carc_account=1` beside the session's (which
// the page cannot read) and clears it with the session, and again on a
// 401 from /api/me. A browser that was here before that cookie existed
// (something of ours in localStorage) asks once, so that a session of
// then is found: /api/me then sets the cookie.
const CHECKED = 'carcassonne.account-checked';
export function maySession(cookie = globalThis.document?.cookie || '', storage = globalThis.localStorage) {
  if (/(^|;\s*)carc_account=1(;|$)/.test(cookie)) return true;
  try {
    if (!storage || storage.getItem(CHECKED)) return false;
    // (the theme is written by every page's start: not a sign of a visit)
    const before = Object.keys(storage).some((k) => k.startsWith('carc') && k !== 'carcassonne.theme');
    storage.setItem(CHECKED, '1');
    return before;
  } catch {
    return false;
  }
}

// The account of this browser's session, {id, name, tables}, or null.
export async function whoAmI() {
  if (!maySession()) return null;
  try {
    const r = await fetch('/api/me', { credentials: 'same-origin', cache: 'no-store' });
    return r.ok ? await r.json() : null;
  } catch {
    return null;
  }
}

async function post(path, body) {
  const r = await fetch(path, {
    method: 'POST', credentials: 'same-origin', cache: 'no-store',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body || {}),
  });
  let data = null;
  try { data = await r.json(); } catch { /* no body */ }
  return { ok: r.ok, status: r.status, data };
}

// What to say for a refused request.
export function accountError(status, data) {
  if (status === 429) return `Too many tries: wait ${data?.retry_after || 60} s and try again.`;
  if (data?.error === 'bad_login') return 'Wrong name or password.';
  if (data?.error === 'name_taken') return 'That name is taken.';
  return data?.message ? data.message[0].toUpperCase() + data.message.slice(1) + '.' : `The server said ${status}.`;
}

export class AccountBox {
  // root: the lobby's #account section; reload: what to do once logged
  // in or out (the page reloads by default).
  constructor(root, reload = () => location.reload()) {
    this.root = root;
    this.reload = reload;
    this.form = root.querySelector('form');
    this.form.onsubmit = (e) => {
      e.preventDefault();
      this.send(e.submitter?.value === 'signup' ? '/api/signup' : '/api/login');
    };
    root.querySelector('.logout').onclick = async () => {
      await post('/api/logout');
      this.reload();
    };
    this.ready = this.update(); // resolves to the account, or null
  }

  async update() {
    const me = await whoAmI();
    this.root.dataset.account = me ? me.name : '';
    this.root.querySelector('.guest').hidden = !!me;
    this.form.hidden = !!me;
    this.root.querySelector('.logged').hidden = !me;
    this.root.querySelector('.logged .name').textContent = me ? me.name : '';
    this.root.querySelector('.logged .my-page').href = me ? `/?player=${encodeURIComponent(me.name)}` : '/';
    return me;
  }

  async send(path) {
    const f = this.form, error = f.querySelector('.error');
    error.textContent = '';
    const r = await post(path, { name: f.user.value.trim(), password: f.password.value });
    if (!r.ok) {
      error.textContent = accountError(r.status, r.data);
      return;
    }
    f.password.value = '';
    this.reload();
  }
}
