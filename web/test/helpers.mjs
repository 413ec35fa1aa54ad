// Helpers of the browser tests: the browser, the page, the serval command,
// and a splice of a JSON text at a JSON Pointer (to make with the command
// the same edit the page makes).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const ROOT = process.env.SERVAL_SOURCE_DIR || path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const CLI = process.env.SERVAL_CLI || path.join(ROOT, 'build/serval');
export const VIEWER = process.env.SERVAL_VIEWER || path.join(ROOT, 'build-web/serval-viewer.html');
export const SAMPLES = path.resolve(ROOT, '../shared/samples');
export const TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'serval-web-test-'));

// Debian's Chromium, headless, with everything that phones home turned off,
// and a fresh profile.
export async function launch() {
  const profile = fs.mkdtempSync(path.join(TMP, 'profile-'));
  return chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    acceptDownloads: true,
    viewport: { width: 1280, height: 760 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

// Every request any page of the context makes. The page may load only
// itself (file:) and its own worker script (blob:).
export function recordRequests(context) {
  const urls = [];
  context.on('request', (r) => urls.push(r.url()));
  return urls;
}

export function foreignRequests(urls) {
  return urls.filter((u) => !u.startsWith('file://') && !u.startsWith('blob:'));
}

// page.waitForFunction evaluates a string, which the page's Content Security
// Policy forbids (no 'unsafe-eval'): this polls page.evaluate instead.
export async function waitFor(page, fn, arg, timeout = 30000) {
  const end = Date.now() + timeout;
  for (;;) {
    if (await page.evaluate(fn, arg)) return;
    if (Date.now() > end) throw new Error(`waitFor: timed out: ${fn}`);
    await new Promise((r) => setTimeout(r, 40));
  }
}

export async function openViewer(context) {
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('file://' + VIEWER);
  await page.waitForSelector('body[data-ready="1"]', { timeout: 20000 });
  page.errors = errors;
  return page;
}

// Opens a file in the page and waits until it is shown (or refused).
export async function openFile(page, file, input = '#file-input') {
  const before = await page.evaluate(() => window.servalViewer.loads);
  await page.setInputFiles(input, file);
  await waitFor(page,
    (n) => window.servalViewer.loads > n || !document.getElementById('message').hidden ||
      !document.getElementById('candidates').hidden && document.getElementById('tree').childElementCount === 0,
    before, 120000);
  return {
    status: await page.textContent('#status'),
    message: (await page.isVisible('#message')) ? await page.textContent('#message') : '',
  };
}

// Clicks a download button; the page's error message, if one shows, fails it.
export async function download(page, button = '#download') {
  await page.evaluate(() => { document.getElementById('message').hidden = true; });
  const dl = page.waitForEvent('download', { timeout: 120000 });
  await page.click(button);
  const failed = waitFor(page, () => !document.getElementById('message').hidden, null, 120000)
    .then(async () => { throw new Error(`no download: ${await page.textContent('#message')}`); });
  const d = await Promise.race([dl, failed]);
  failed.catch(() => {});
  return fs.readFileSync(await d.path());
}

export function cli(args, input) {
  return execFileSync(CLI, args, { input, maxBuffer: 1 << 30 });
}

// The byte range of the value at pointer in JSON text (an independent,
// minimal scanner: it skips values without building anything).
export function spanAt(text, pointer) {
  const tokens = pointer === '' ? [] : pointer.slice(1).split('/').map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
  let i = 0;
  const ws = () => { while (' \t\r\n'.includes(text[i]) && i < text.length) i++; };
  function skipString() {
    const start = i;
    i++;
    while (text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++;
    return JSON.parse(text.slice(start, i));
  }
  function skipValue() {
    ws();
    const c = text[i];
    if (c === '"') return skipString();
    if (c === '{' || c === '[') {
      const close = c === '{' ? '}' : ']';
      i++;
      ws();
      if (text[i] === close) { i++; return; }
      for (;;) {
        ws();
        if (c === '{') { skipString(); ws(); i++; }
        skipValue();
        ws();
        if (text[i++] === close) return;
      }
    }
    while (i < text.length && !',]} \t\r\n'.includes(text[i])) i++;
  }
  for (const tok of tokens) {
    ws();
    const c = text[i++];
    let found = false;
    if (c === '[') {
      const want = Number(tok);
      for (let k = 0; ; k++) {
        ws();
        if (k === want) { found = true; break; }
        skipValue();
        ws();
        if (text[i++] !== ',') break;
      }
    } else if (c === '{') {
      for (;;) {
        ws();
        const key = skipString();
        ws();
        i++; // ':'
        if (key === tok) { found = true; break; }
        skipValue();
        ws();
        if (text[i++] !== ',') break;
      }
    }
    if (!found) throw new Error(`spanAt: ${pointer} not found`);
  }
  ws();
  const start = i;
  skipValue();
  return [start, i];
}

export function spliceAt(text, pointer, literal) {
  const [a, b] = spanAt(text, pointer);
  return text.slice(0, a) + literal + text.slice(b);
}

// The edit the CLI makes: dump, splice, convert back; extra are options of
// both runs (e.g. --schema TYPES).
export function cliEdit(file, format, pointer, literal, extra = []) {
  const dump = cli(['dump', '--compact', ...extra, '--from', format, file]).toString('utf8');
  const edited = spliceAt(dump, pointer, literal);
  const out = cli(['conv', ...extra, '--from', 'json', '--to', format, '-o', '-', '-'], Buffer.from(edited, 'utf8'));
  // the command ends JSON text with a newline; the page's download, as the
  // library writes it, does not
  return format === 'json' && out.at(-1) === 0x0a ? out.subarray(0, -1) : out;
}
