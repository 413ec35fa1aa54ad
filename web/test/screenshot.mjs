// Makes docs/viewer.png: the viewer on a Godot 4 save (web/test/fixtures/
// godot-save.json written as godot4 by the serval command), with a search,
// a selected Vector3 and an edited value. Run after make web:
//   node web/test/screenshot.mjs
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, TMP, cli, launch, openFile, openViewer, waitFor } from './helpers.mjs';

const save = path.join(TMP, 'savegame.bin');
cli(['conv', '--from', 'json', '--to', 'godot4', '-o', save, path.join(ROOT, 'web/test/fixtures/godot-save.json')]);
const context = await launch();
const page = await openViewer(context);
await page.setViewportSize({ width: 1180, height: 860 });
await openFile(page, save);
for (const p of ['/player', '/world', '/world/palette', '/player/inventory']) {
  await page.click(`#tree .row[data-pointer="${p}"] .toggle`);
  await waitFor(page, (q) => document.querySelectorAll(`#tree .row[data-pointer^="${q}/"]`).length > 0, p);
}
const hp = page.locator('input[data-pointer="/player/health"]');
await hp.fill('100.0');
await hp.press('Enter');
await page.waitForSelector('input[data-pointer="/player/health"].edited');
await page.fill('#search', 'arrows');
await page.press('#search', 'Enter');
await page.waitForSelector('.hit');
await page.click('#tree .row[data-pointer="/player/position"] .label');
const out = path.join(ROOT, 'docs/viewer.png');
await page.screenshot({ path: out });
await context.close();
fs.rmSync(TMP, { recursive: true, force: true });
console.log(`wrote ${out}`);
