// Runs gen4.gd inside Godot 4's web export template in headless Chromium and
// writes the vectors it prints (tests/godot/regen4.sh calls this).
//
//   node godot4_run.mjs ENGINE_DIR OUT_DIR
//
// ENGINE_DIR holds the template's index.js, index.wasm, index.pck and audio
// worklets (checked by regen4.sh). The page, gen4.gd, jsonexp4.gd and
// override.cfg come from this folder. Everything is served on 127.0.0.1 only.
// OUT_DIR gets stdout.txt: every line the engine printed, in order.
// GODOT4_INPUT: a folder whose files the page puts at /tests/in/NAME in the
// engine's file system before it starts (pck_regen4.sh: packs serval wrote).
import { createServer } from 'node:http';
import { readFile, readdir, writeFile, mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const [engineDir, outDir] = process.argv.slice(2);
if (!engineDir || !outDir) {
  console.error('usage: node godot4_run.mjs ENGINE_DIR OUT_DIR');
  process.exit(2);
}
// playwright-core from the viewer tests' lock file (web/test, npm ci)
const require = createRequire(path.join(here, '../../web/test/package.json'));
const { chromium } = require('playwright-core');

const generator = {
  '/': 'godot4_page.html',
  // GODOT4_GEN: another generator in this folder (regen_res4.sh: gen_res4.gd)
  '/gen/gen4.gd': process.env.GODOT4_GEN || 'gen4.gd',
  '/gen/jsonexp4.gd': 'jsonexp4.gd',
  '/gen/override.cfg': 'godot4_override.cfg',
};
const inputDir = process.env.GODOT4_INPUT || '';
const inputs = inputDir ? (await readdir(inputDir, { withFileTypes: true }))
  .filter((e) => e.isFile() && /^[A-Za-z0-9._-]+$/.test(e.name)).map((e) => e.name) : [];
const types = { '.js': 'text/javascript', '.wasm': 'application/wasm', '.html': 'text/html' };
const server = createServer(async (req, res) => {
  const url = new URL(req.url, 'http://127.0.0.1').pathname;
  let file = null;
  if (url === '/gen/inputs.json') {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
    res.end(JSON.stringify(inputs));
    return;
  }
  if (generator[url]) file = path.join(here, generator[url]);
  else if (url.startsWith('/in/') && inputs.includes(url.slice(4))) file = path.join(inputDir, url.slice(4));
  else if (/^\/index[.a-z]*\.(js|wasm|pck)$/.test(url)) file = path.join(engineDir, url.slice(1));
  if (!file) {
    res.writeHead(404).end();
    return;
  }
  try {
    const body = await readFile(file);
    res.writeHead(200, {
      'Content-Type': types[path.extname(file)] || 'application/octet-stream',
      'Cross-Origin-Opener-Policy': 'same-origin',
      'Cross-Origin-Embedder-Policy': 'require-corp',
      'Cache-Control': 'no-store',
    });
    res.end(body);
  } catch {
    res.writeHead(404).end();
  }
});
await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
const port = server.address().port;

const profile = await mkdtemp(path.join(tmpdir(), 'serval-godot4-chromium-'));
// a fresh profile each run (launchPersistentContext passes it as --user-data-dir)
const browser = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
let status = 0;
try {
  const page = await browser.newPage();
  page.on('pageerror', (e) => console.error('page error:', e.message));
  await page.goto(`http://127.0.0.1:${port}/`);
  // gen4.gd prints "END ..." last. Its _ready() runs before the package's own
  // main scene (a shader previewer, which logs "[ShaderLoader]"), so once that
  // scene speaks, a script that never printed END has failed: stop there.
  const timeoutMs = Number(process.env.GODOT4_TIMEOUT_MS || 180000);
  try {
    await page.waitForFunction(
      () => window.godotDone || window.godotLines.some((l) => l.startsWith('END') || l.startsWith('[ShaderLoader]')),
      null, { timeout: timeoutMs, polling: 200 });
  } catch (e) {
    console.error('godot4_run:', e.message);
  }
  const lines = await page.evaluate(() => window.godotLines);
  await writeFile(path.join(outDir, 'stdout.txt'), lines.join('\n') + '\n');
  if (!lines.some((l) => l.startsWith('END'))) {
    console.error('the generator did not finish; its last lines:');
    for (const l of lines.filter((x) => !x.startsWith('V\t')).slice(-15)) console.error('  ' + l);
    status = 1;
  }
} catch (e) {
  console.error('godot4_run:', e.message);
  status = 1;
} finally {
  await browser.close();
  server.close();
  await rm(profile, { recursive: true, force: true });
}
process.exit(status);
