// lib.mjs: what the browser tests share: a real server on a free port
// with a fresh database, and Debian's chromium under playwright-core
// (never a browser of playwright's own).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';

// playwright-core is loaded only to launch a browser: the unit tests,
// which start a server but no browser, run without it.
const require = createRequire(path.join(process.env.WEB_NODE_MODULES || process.cwd(), 'x.js'));
const playwright = () => require('playwright-core');

export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'];

// Starts `carcassonne serve` (on a free port unless `port` is given, with
// a fresh database unless `dir` holds one); resolves {url, port, dir,
// pid, stop(keepDb)}.
export function startServer({ bin, webDir, thinkMs = 50, port = 0, dir = null }) {
  dir = dir || mkdtempSync(path.join(tmpdir(), 'carc-web-'));
  const child = spawn(bin, ['serve', '--port', String(port), '--db', path.join(dir, 'test.db'), '--static', webDir,
    '--max-think-ms', String(thinkMs), '--workers', '1', '--password-cost', 'interactive'], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`the server did not start: ${out}`)), 30000);
    child.on('exit', (code) => reject(new Error(`the server exited (${code}): ${out}`)));
    child.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/listening on (http:\/\/[^\s]+):(\d+)/);
      if (m) {
        clearTimeout(timer);
        resolve({
          url: `${m[1]}:${m[2]}`,
          port: +m[2],
          dir,
          pid: child.pid, // to freeze it (SIGSTOP) and thaw it (SIGCONT)
          stop(keepDb = false) {
            const gone = new Promise((r) => child.once('exit', r));
            child.kill('SIGTERM');
            if (!keepDb) rmSync(dir, { recursive: true, force: true });
            return gone;
          },
        });
      }
    });
  });
}

// A headless chromium. playwright-core gives it a fresh --user-data-dir
// in a temporary folder and removes it on close; each newContext() is a
// separate browser profile in memory (its own localStorage).
export async function launch() {
  return playwright().chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, timeout: 60000 });
}
