// lens-clicks.js: measures how often the first click on the definition's code lens works when
// a user opens normalize2.cnf by a single click in the Explorer of a new window (TRIALS windows,
// all editors closed between them), and logs, per trial, when the lens was a link (live) and
// when a command-less copy (VS Code's CodeLensCache, rendered again whenever any extension
// registers a code lens provider) around the click. Run: E2E_CHECK=lens-clicks.js e2e/run.sh
'use strict';
const path = require('path');
const { openWorkbench } = require('./browser');
const [url, outdir] = process.argv.slice(2);
(async () => {
  const { page, close } = await openWorkbench(url);
  let ok = 0, n = Number(process.env.TRIALS || 8);
  for (let i = 0; i < n; i++) {
    await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 90000 });
    await page.waitForSelector('.monaco-workbench', { timeout: 90000 });
    const row = page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'normalize2.cnf' }).first();
    await row.waitFor({ timeout: 60000 });
    await page.evaluate(() => {
      window.__lensLog = [];
      const obs = new MutationObserver(() => {
        const el = document.querySelector('.codelens-decoration');
        const st = el ? (el.querySelector('a') ? 'link:' + el.textContent.slice(0, 12) : 'span:' + el.textContent.slice(0, 12)) : 'none';
        const last = window.__lensLog[window.__lensLog.length - 1];
        if (!last || last[1] !== st) window.__lensLog.push([new Date().toISOString().slice(11, 23), st]);
      });
      obs.observe(document.body, { subtree: true, childList: true, characterData: true });
      document.addEventListener('mousedown', () => window.__lensLog.push([new Date().toISOString().slice(11, 23), 'MOUSEDOWN']), true);
    });
    await row.click();
    const link = page.locator('.codelens-decoration', { hasText: /2\s+loops/ }).first();
    const t0 = Date.now();
    let shown = false;
    try { await link.waitFor({ timeout: 30000 }); } catch { console.log('trial', i, 'no lens link'); }
    const html = await page.locator('.codelens-decoration').first().evaluate((e) => e.outerHTML).catch(() => '');
    const isLink = await page.locator('.codelens-decoration a', { hasText: /2\s+loops/ }).count();
    await link.locator('text=/2\\s+loops/').first().click({ timeout: 5000 }).catch((e) => console.log('click:', String(e).slice(0, 100)));
    console.log('  a link when clicked:', isLink > 0);
    for (let k = 0; k < 20 && !shown; k++) {
      shown = (await page.locator('.tabs-container .tab', { hasText: 'Clustering: normalize2' }).count()) > 0;
      if (!shown) await page.waitForTimeout(250);
    }
    console.log('trial', i, shown ? 'first click worked' : 'first click did nothing', `(lens after ${Date.now() - t0} ms)`, html.slice(0, 160));
    if (shown) ok++;
    console.log('  log:', JSON.stringify(await page.evaluate(() => window.__lensLog)));
    await page.screenshot({ path: path.join(outdir, `lens-${i}.png`) });
    await page.keyboard.press('Control+k'); await page.keyboard.press('Control+w'); // close all editors
    await page.waitForTimeout(1500);
  }
  console.log(`lens first clicks: ${ok} of ${n} worked`);
  await close();
  process.exit(0);
})().catch((e) => { console.error(e); process.exit(1); });
