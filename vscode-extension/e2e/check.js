// check.js: drives code-server in Chromium and checks, on examples/normalize2.cnf, what a user
// sees: the code lens "2 loops", fusion-preventing diagnostics in the Problems panel, the size
// scheme on hover, the clustering webview with both clusters drawn, the fused-process document,
// the ILP and a server restart from the command palette, and a size error after typing a
// broken binding; then a crashed server, reported with a "Restart Server" action that brings
// the diagnostics back; then palindrome.cnf, and a quick fix of a misspelt combinator.
// Screenshots of every step go to OUTDIR.
// Usage: node check.js URL OUTDIR RUNDIR
'use strict';
const { chromium } = require('playwright-core');
const fs = require('fs');
const os = require('os');
const path = require('path');

// RUNDIR is code-server's profile: check.js edits its settings and kills the server it started.
const [url, outdir, rundir] = process.argv.slice(2);
const { execSync } = require('child_process');
let passed = 0;
let failed = 0;
const t0 = Date.now();
// Monaco renders spaces in code lenses and view lines as no-break spaces.
const plain = (s) => s.replace(/\u00a0/g, ' ');
const log = (...a) => console.log(`[${((Date.now() - t0) / 1000).toFixed(1)}s]`, ...a);

async function step(page, name, fn) {
  try {
    const detail = await fn();
    passed++;
    log('ok  ', name, detail ? `(${detail})` : '');
  } catch (e) {
    failed++;
    log('FAIL', name, String(e.message || e).split('\n').slice(0, 4).join(' | '));
  }
  await page.screenshot({ path: path.join(outdir, `${String(passed + failed).padStart(2, '0')}-${name.replace(/[^a-z0-9]+/gi, '-')}.png`) });
}

// editorShows waits until some editor shows text (or, with absent, until none does).
function editorShows(page, text, absent = false, timeout = 30000) {
  return page.waitForFunction(([t, a]) => {
    const some = [...document.querySelectorAll('.editor-instance .view-lines')].some((v) => v.textContent.replace(/\u00a0/g, ' ').includes(t));
    return a ? !some : some;
  }, [text, absent], { timeout });
}

// problemsShow waits until the Problems panel mentions text.
function problemsShow(page, text) {
  return page.waitForFunction((t) => {
    const p = document.querySelector('.markers-panel');
    return p && p.textContent.includes(t);
  }, text, { timeout: 30000 });
}

// palette runs a command from the command palette by its title.
async function palette(page, title) {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input:visible');
  await input.waitFor({ timeout: 10000 });
  await input.fill('>' + title);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().waitFor({ timeout: 10000 });
  await page.keyboard.press('Enter');
}

// retype replaces the editor line that shows text by typing replacement over it, as a user
// would, and waits for the error squiggle that the new text should bring.
async function retype(page, text, replacement) {
  const line = page.locator('.editor-instance .view-line', { hasText: text }).first();
  await line.click();
  await page.keyboard.press('End');
  await page.keyboard.press('Shift+Home');
  await page.keyboard.press('Shift+Home'); // past the indentation too
  await page.keyboard.type(replacement);
  await page.waitForSelector('.editor-instance .squiggly-error', { timeout: 30000 });
}

(async () => {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'cnf-pw-'));
  const ctx = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium', headless: true, viewport: { width: 1400, height: 900 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const page = ctx.pages()[0] || (await ctx.newPage());
  await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 90000 });
  await page.waitForSelector('.monaco-workbench', { timeout: 90000 });
  log('workbench loaded');

  await step(page, 'open normalize2.cnf', async () => {
    const row = page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'normalize2.cnf' }).first();
    await row.waitFor({ timeout: 60000 });
    await row.dblclick();
    await page.waitForSelector('.editor-instance .view-lines', { timeout: 30000 });
    return await page.locator('[id="status.editor.mode"]').innerText({ timeout: 10000 }).catch(() => '');
  });

  await step(page, 'code lens 2 loops', async () => {
    const lens = page.locator('.codelens-decoration', { hasText: /2\s+loops/ }).first();
    await lens.waitFor({ timeout: 60000 });
    // The lens widget can be re-rendered while it is read: poll its text.
    let text = '';
    for (let i = 0; i < 40 && !text.includes('2 loops (unfused 5 · stream fusion 4 · Megiddo 3)'); i++) {
      text = plain(await lens.innerText().catch(() => ''));
      if (!text.includes('2 loops (unfused')) await page.waitForTimeout(250);
    }
    if (!text.includes('2 loops (unfused 5 · stream fusion 4 · Megiddo 3)')) throw new Error(`lens text: ${JSON.stringify(text)}`);
    const links = await page.locator('.codelens-decoration a:visible').count();
    return `${text}; ${links} lens links`;
  });

  await step(page, 'fusion-preventing diagnostics in the Problems panel', async () => {
    await page.keyboard.press('Control+Shift+M');
    const panel = page.locator('.markers-panel');
    await panel.waitFor({ timeout: 20000 });
    await page.waitForFunction(() => {
      const p = document.querySelector('.markers-panel');
      return p && (p.textContent.match(/cannot share a loop/g) || []).length >= 2;
    }, null, { timeout: 30000 });
    const text = await panel.innerText();
    if (/error/i.test(await page.locator('[id="status.problems"]').innerText()) && /\b[1-9]\d* error/i.test(await page.locator('[id="status.problems"]').getAttribute('aria-label') || '')) throw new Error('errors reported');
    return text.split('\n').find((l) => l.includes('cannot share a loop'));
  });

  await step(page, 'hover shows the size scheme', async () => {
    const line = page.locator('.editor-instance .view-line', { hasText: 'normalize2 xs' }).first();
    await line.hover({ position: { x: 30, y: 8 } });
    const hover = page.locator('.monaco-hover:not(.hidden)', { hasText: '∀k1' }).first();
    await hover.waitFor({ timeout: 20000 });
    const text = await hover.innerText();
    if (!text.includes('(xs : k1) → (ys1 : k1, ys2 : k1)')) throw new Error(text);
    await page.keyboard.press('Escape');
    return text.split('\n')[0];
  });

  await step(page, 'clustering webview shows both clusters', async () => {
    // The hover from the previous step may still cover the lens: move away and wait for it to go.
    await page.mouse.move(5, 5);
    await page.keyboard.press('Escape');
    await page.locator('.monaco-hover:not(.hidden)').first().waitFor({ state: 'hidden', timeout: 10000 }).catch(() => {});
    // VS Code asks for code lenses only while the editor has text focus (its CodeLensController
    // cancels a scheduled request on blur and schedules one on focus); until then it shows its
    // cached copies with the commands removed. A user clicks into the text first; so does this.
    const editorLine = page.locator('.editor-instance .view-line', { hasText: 'gts' }).first();
    await editorLine.click({ position: { x: 200, y: 8 } });
    const link = page.locator('.codelens-decoration a:visible', { hasText: /2\s+loops/ }).first();
    try {
      await link.click({ timeout: 20000 });
    } catch (e) {
      const html = await page.locator('.codelens-decoration').first().evaluate((el) => el.outerHTML).catch(() => '');
      throw new Error(`${e.message.split('\n')[0]}; first lens: ${html}`);
    }
    const how = 'from the lens';
    let frame;
    for (let i = 0; i < 120 && !frame; i++) {
      for (const f of page.frames()) {
        if (await f.locator('#graph').count().catch(() => 0)) frame = f;
      }
      if (!frame) await page.waitForTimeout(500);
    }
    if (!frame) throw new Error('no webview with a #graph');
    await frame.waitForSelector('#graph[data-rendered="true"] svg', { timeout: 60000 });
    const clusters = await frame.locator('#graph svg g.cluster').count();
    const summary = await frame.locator('#summary').innerText();
    if (clusters !== 2 || !summary.includes('2 loops')) throw new Error(`${clusters} clusters; ${summary}`);
    return `${clusters} clusters drawn ${how}; ${summary}`;
  });

  await step(page, 'fused process document', async () => {
    const tab = page.locator('.tabs-container .tab', { hasText: 'normalize2.cnf' }).first();
    await tab.click();
    await page.locator('.codelens-decoration a:visible', { hasText: /show\s+fused\s+process/ }).first().click();
    await page.waitForSelector('.tabs-container .tab:has-text(".fused")', { timeout: 30000 });
    await editorShows(page, 'process');
    return 'a read-only document with the fused process';
  });

  await step(page, 'CNF: Show ILP from the command palette', async () => {
    await page.locator('.tabs-container .tab', { hasText: 'normalize2.cnf' }).first().click();
    await palette(page, 'CNF: Show ILP');
    await page.waitForSelector('.tabs-container .tab:has-text("normalize2.lp")', { timeout: 30000 });
    await editorShows(page, 'Minimize');
    return 'normalize2.lp with the Fig 1.14 model';
  });

  await step(page, 'CNF: Restart Server', async () => {
    await page.locator('.tabs-container .tab', { hasText: 'normalize2.cnf' }).first().click();
    await palette(page, 'CNF: Restart Server');
    await page.locator('.statusbar-item', { hasText: /CNF\s+·\s+2\s+loops/ }).first().waitFor({ timeout: 30000 });
    const line = page.locator('.editor-instance .view-line', { hasText: 'normalize2 xs' }).first();
    await line.hover({ position: { x: 30, y: 8 } });
    await page.locator('.monaco-hover:not(.hidden)', { hasText: '∀k1' }).first().waitFor({ timeout: 20000 });
    await page.mouse.move(5, 5);
    await page.keyboard.press('Escape');
    return 'the restarted server answers hovers; status CNF · 2 loops';
  });

  const sizeError = 'map2 needs gts and ys1 to have the same size';
  await step(page, 'a size error appears after typing a broken binding', async () => {
    await page.locator('.tabs-container .tab', { hasText: 'normalize2.cnf' }).first().click();
    await retype(page, 'ys2  = map (/ sum2) xs', '      ys2  = map2 (+) gts ys1');
    await problemsShow(page, sizeError);
    await page.locator('.statusbar-item', { hasText: /CNF\s+·\s+1\s+error/ }).first().waitFor({ timeout: 10000 });
    return 'map2 needs gts and ys1 to have the same size ...; status bar: CNF · 1 error';
  });

  // The server under test is the bundled binary in this profile's extensions folder.
  // (cn[f]: so that the pattern does not match the shell that runs pkill.)
  const serverPattern = `${rundir}/ext/.*/bin/cn[f] lsp`;
  const notification = (text) => page.locator('.notification-toast', { hasText: text }).first();

  await step(page, 'a crashed server is reported with Restart Server', async () => {
    execSync(`pkill -KILL -f '${serverPattern}'`);
    const toast = notification('stopped unexpectedly');
    await toast.waitFor({ timeout: 30000 });
    await toast.locator('a.monaco-button, .monaco-button', { hasText: 'Restart Server' }).first().click();
    await problemsShow(page, sizeError);
    execSync(`pgrep -f '${serverPattern}'`);
    // The open ILP document is fetched again from the new server.
    await editorShows(page, 'not running', true, 20000);
    return 'restarted; the size error is reported again; the ILP view is fetched again';
  });

  await step(page, 'a second example: palindrome.cnf (append, reverse, lengths)', async () => {
    const row = page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'palindrome.cnf' }).first();
    await row.dblclick();
    const line = page.locator('.editor-instance .view-line', { hasText: 'pal     = append doubled back' }).first();
    await line.waitFor({ timeout: 30000 });
    await line.click({ position: { x: 300, y: 8 } });
    await page.locator('.codelens-decoration a:visible', { hasText: /3\s+loops/ }).first().waitFor({ timeout: 60000 });
    await page.locator('.codelens-decoration', { hasText: /before\s+any\s+loop:\s+length\s+xs\s+\+\s+length\s+xs/ }).first().waitFor({ timeout: 10000 });
    await page.locator('.statusbar-item', { hasText: /CNF\s+·\s+3\s+loops/ }).first().waitFor({ timeout: 10000 });
    const word = page.locator('.editor-instance .view-line span', { hasText: /^append$/ }).first();
    await word.hover();
    const hover = page.locator('.monaco-hover:not(.hidden)', { hasText: 'k1 + k2' }).first();
    await hover.waitFor({ timeout: 20000 });
    await page.mouse.move(5, 5);
    await page.keyboard.press('Escape');
    return '3 loops; n = length xs + length xs before any loop; append documented on hover';
  });

  await step(page, 'a quick fix corrects a misspelt combinator', async () => {
    await retype(page, 'back    = reverse doubled', '      back    = revers doubled');
    await page.locator('.statusbar-item', { hasText: /CNF\s+·\s+1\s+error/ }).first().waitFor({ timeout: 30000 });
    // The cursor just after "revers", then the quick-fix menu (Ctrl+.), as a user would.
    await page.keyboard.press('Escape'); // the signature help that typing opened
    await page.keyboard.press('End');
    for (let i = 0; i < ' doubled'.length; i++) await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('Control+.');
    const item = page.locator('.action-widget .monaco-list-row', { hasText: 'change to reverse' }).first();
    await item.waitFor({ timeout: 20000 });
    await page.keyboard.press('Enter'); // the first action is selected
    await editorShows(page, 'back    = reverse doubled');
    await page.locator('.statusbar-item', { hasText: /CNF\s+·\s+3\s+loops/ }).first().waitFor({ timeout: 30000 });
    await page.keyboard.press('Home'); // scroll back to the start of the line for the screenshot
    return 'revers: "change to reverse" from Ctrl+. puts reverse back; 3 loops again';
  });

  await ctx.close();
  fs.rmSync(profile, { recursive: true, force: true });
  console.log(`e2e: ${passed} passed, ${failed} failed`);
  process.exit(failed === 0 ? 0 : 1);
})().catch((e) => {
  console.error('e2e: ERROR', e);
  process.exit(1);
});
