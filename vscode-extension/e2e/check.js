// check.js: drives code-server in Chromium and checks, on examples/normalize2.cnf, what a user
// sees: the file opened by a single click in a fresh profile and its clustering opened by one
// click on the editor title bar's button (loops numbered 1..L, filled with their colours,
// fusion-preventing edges red); the code lens "2 loops"; fusion-preventing edges as hints (no
// squiggles on a correct program); inlay hints and loop colours in the text; the size scheme on
// hover; a click on a diagram node revealing its binding; the fused-process document; the ILP
// and a server restart from the command palette; the C of the loops (Show C) and the "measure
// compiled" lens showing the speed-up; Enter after a finished name making a newline;
// a size error after typing a broken binding; then a crashed server, reported with a "Restart
// Server" action that brings the diagnostics back; then palindrome.cnf, and a quick fix of a
// misspelt combinator; Prove optimal on a program no solver proves in a minute, its bound in
// the progress, cancelled, keeping what it found; and last, a window reload that restores the
// diagram. Screenshots of every step go to OUTDIR.
// Usage: node check.js URL OUTDIR RUNDIR
'use strict';
const { openWorkbench } = require('./browser');
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

// webviewFrame waits for the clustering view's frame and its rendered diagram.
async function webviewFrame(page, what = 'svg', summary = '') {
  for (let i = 0; i < 180; i++) {
    for (const f of page.frames()) {
      if (!(await f.locator(`#graph[data-rendered="true"] ${what}`).count().catch(() => 0))) continue;
      if (!summary || (await f.locator('#summary').innerText().catch(() => '')).startsWith(summary + ':')) return f;
    }
    await page.waitForTimeout(500);
  }
  throw new Error('no clustering view with a rendered diagram');
}

// palette runs a command from the command palette by its title.
async function palette(page, title) {
  // A click on a tab focuses its editor a moment later, and a palette opened in between loses
  // the focus and closes (seen: the palette's input focused, the editor 26 ms later). A user
  // presses F1 again; so does this, once the palette has stayed open for 300 ms.
  const input = page.locator('.quick-input-widget input:visible');
  await focusSettled(page);
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press('F1');
    try {
      await input.waitFor({ timeout: 3000 });
      await page.waitForTimeout(300);
      if (await input.count() > 0) break;
    } catch {
      // closed before it was seen: press F1 again
    }
    if (attempt === 3) throw new Error('the command palette did not stay open after three presses of F1');
    await focusSettled(page);
  }
  await input.fill('>' + title);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().waitFor({ timeout: 10000 });
  await page.keyboard.press('Enter');
}

// focusSettled waits until the focused element has not changed for 400 ms (at most 5 s).
// settingInput is the text box of the setting whose label matches label, in the Settings
// editor (shown once the search has found it).
async function settingInput(page, label) {
  const item = page.locator('.settings-editor .setting-item-contents', { hasText: label }).first();
  await item.waitFor({ timeout: 20000 });
  return item.locator('input').first();
}

async function focusSettled(page) {
  await page.waitForFunction(() => {
    const now = document.activeElement;
    const w = window;
    if (w.__cnfFocus !== now) {
      w.__cnfFocus = now;
      w.__cnfFocusSince = Date.now();
      return false;
    }
    return Date.now() - w.__cnfFocusSince >= 400;
  }, null, { timeout: 5000, polling: 50 }).catch(() => {});
}

// retype replaces the editor line that shows text by typing replacement over it, as a user
// would, and waits for the error squiggle that the new text should bring.
async function retype(page, text, replacement) {
  const line = page.locator('.editor-instance .view-line', { hasText: text }).first();
  await line.click();
  // The click can land on another line (a lens or a hint that appears meanwhile moves the
  // text): go to the line by its number, from the gutter beside it.
  const number = await line.evaluate((el) => {
    const editor = el.closest('.monaco-editor');
    for (const m of editor.querySelectorAll('.margin-view-overlays > div')) {
      if (m.style.top === el.style.top) return m.textContent.trim();
    }
    return '';
  });
  if (number) {
    await page.keyboard.press('Control+g');
    await page.keyboard.type(number);
    await page.keyboard.press('Enter');
  }
  await page.keyboard.press('End');
  await page.keyboard.press('Shift+Home');
  await page.keyboard.press('Shift+Home'); // past the indentation too
  await page.keyboard.type(replacement);
  await page.waitForSelector('.editor-instance .squiggly-error', { timeout: 30000 });
}

(async () => {
  require('fs').copyFileSync(path.join(__dirname, 'fixtures', 'prove.cnf'), path.join(rundir, 'ws', 'prove.cnf'));
  const { page, close } = await openWorkbench(url);
  log('workbench loaded');

  await step(page, 'open normalize2.cnf with a single click', async () => {
    const row = page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'normalize2.cnf' }).first();
    await row.waitFor({ timeout: 60000 });
    await row.click();
    await page.waitForSelector('.editor-instance .view-lines', { timeout: 30000 });
    return await page.locator('[id="status.editor.mode"]').innerText({ timeout: 10000 }).catch(() => '');
  });

  let diagram; // the clustering webview's frame
  await step(page, 'Show Clustering from the title bar: one click, loops 1..L in colour, red edges', async () => {
    const button = page.locator('.editor-actions .action-label[aria-label*="Show Clustering"]').first();
    await button.waitFor({ timeout: 30000 });
    await button.click();
    diagram = await webviewFrame(page);
    const info = await diagram.evaluate(() => {
      const loops = [...document.querySelectorAll('#graph svg g.cluster.loop')].map((g) => ({
        label: g.querySelector('text')?.textContent, fill: g.querySelector('path,polygon')?.getAttribute('fill'),
        opacity: g.querySelector('path,polygon')?.getAttribute('fill-opacity') }));
      const red = [...document.querySelectorAll('#graph svg g.edge.preventing path')].map((p) => getComputedStyle(p).stroke);
      const plain = [...document.querySelectorAll('#graph svg g.edge:not(.preventing) path')].map((p) => getComputedStyle(p).stroke);
      return { loops, red, plain, legend: document.getElementById('legend')?.textContent || '' };
    });
    const labels = info.loops.map((l) => l.label).sort().join(',');
    if (labels !== 'loop 1,loop 2') throw new Error(`loop frames ${labels}`);
    if (info.loops.some((l) => !/^#[0-9a-f]{6}$/i.test(l.fill || '') || Math.abs(Number(l.opacity) - 0.2) > 0.01) || new Set(info.loops.map((l) => l.fill)).size !== 2) throw new Error(`loop fills ${JSON.stringify(info.loops)}`);
    if (info.red.length !== 2 || new Set(info.red).size !== 1 || info.plain.includes(info.red[0])) throw new Error(`preventing edges ${JSON.stringify(info.red)}, others ${JSON.stringify([...new Set(info.plain)])}`);
    const [r, g, b] = info.red[0].match(/\d+/g).map(Number);
    if (!(r > 150 && r > g + 60 && r > b + 60)) throw new Error(`preventing edges drawn in ${info.red[0]}, not red`);
    if (!info.legend.includes('cannot share a loop')) throw new Error(`legend: ${info.legend}`);
    return `${labels}; preventing edges ${info.red[0]}; legend: ${info.legend}`;
  });

  await step(page, 'code lens 2 loops', async () => {
    await page.locator('.tabs-container .tab', { hasText: 'normalize2.cnf' }).first().click();
    const lens = page.locator('.codelens-decoration', { hasText: /2\s+loops/ }).first();
    await lens.waitFor({ timeout: 60000 });
    // The lens widget can be re-rendered while it is read: poll its text.
    let text = '';
    for (let i = 0; i < 40 && !text.includes('2 loops (unfused 5 · stream fusion 4 · Megiddo 3)'); i++) {
      text = plain(await lens.innerText().catch(() => ''));
      if (!text.includes('2 loops (unfused')) await page.waitForTimeout(250);
    }
    if (!text.includes('2 loops (unfused 5 · stream fusion 4 · Megiddo 3)')) throw new Error(`lens text: ${JSON.stringify(text)}`);
    const lenses = (await page.locator('.codelens-decoration').allInnerTexts()).map(plain);
    if (lenses.some((l) => /loop \d+ of \d+/.test(l))) throw new Error(`per-binding lenses are back: ${lenses.join(' | ')}`);
    return `${text}; ${lenses.length} lenses`;
  });

  await step(page, 'fusion-preventing edges are hints: no squiggles on a correct program', async () => {
    await page.waitForFunction(() => document.querySelectorAll('.editor-instance .squiggly-hint').length >= 2, null, { timeout: 30000 });
    const info = await page.locator('.editor-instance .squiggly-info').count();
    const errors = await page.locator('.editor-instance .squiggly-error').count();
    if (info + errors > 0) throw new Error(`${info} information and ${errors} error squiggles`);
    return `${await page.locator('.editor-instance .squiggly-hint').count()} hint dots, no squiggles`;
  });

  await step(page, 'inlay hints: the loop of each binding and the size of each array', async () => {
    await editorShows(page, 'loop 2');
    await editorShows(page, ': k2');
    const line = plain(await page.locator('.editor-instance .view-line', { hasText: '= filter (> 0) xs' }).first().innerText());
    if (!/gts\s*: k2\s*= filter \(> 0\) xs\s*loop 1/.test(line)) throw new Error(`line: ${JSON.stringify(line)}`);
    return line.trim();
  });

  await step(page, 'loop colours: a left border on each binding, the colour of its loop in the diagram', async () => {
    const colours = await page.waitForFunction(() => {
      const seen = {};
      for (const el of document.querySelectorAll('.editor-instance .view-overlays div')) {
        const cs = getComputedStyle(el);
        if (cs.borderLeftWidth === '3px' && cs.borderLeftStyle === 'solid') seen[cs.borderLeftColor] = (seen[cs.borderLeftColor] || 0) + 1;
      }
      return Object.keys(seen).length >= 2 ? seen : null;
    }, null, { timeout: 30000 }).then((h) => h.jsonValue());
    const counts = Object.values(colours).sort();
    if (counts.join(',') !== '2,3') throw new Error(`bordered lines per colour: ${JSON.stringify(colours)}`);
    return JSON.stringify(colours);
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

  await step(page, 'a click on a node of the diagram reveals its binding', async () => {
    await page.mouse.move(5, 5);
    await page.keyboard.press('Escape');
    await diagram.locator('#graph svg g.node[data-binding="ys2"]').click();
    await page.waitForFunction(() => {
      const s = document.querySelector('[id="status.editor.selection"]');
      return s && /Ln 9, Col (7|10)\b/.test(s.textContent);
    }, null, { timeout: 20000 });
    return await page.locator('[id="status.editor.selection"]').innerText();
  });

  await step(page, 'fused process document from Ctrl+click on a loop hint', async () => {
    const tab = page.locator('.tabs-container .tab', { hasText: 'normalize2.cnf' }).first();
    await tab.click();
    // The loop hint at the end of a binding is the link (Ctrl+click), where a per-loop lens was.
    const hint = page.locator('.editor-instance .view-line span', { hasText: /^\s*loop\s1\s*$/ }).last(); // rendered with a no-break space
    await hint.waitFor({ timeout: 20000 });
    await hint.click({ modifiers: [process.platform === 'darwin' ? 'Meta' : 'Control'] });
    await page.waitForSelector('.tabs-container .tab:has-text(".fused")', { timeout: 30000 });
    await editorShows(page, 's0:  pull xs into xs.chan');
    await page.locator('.editor-instance .view-line', { hasText: 'pull xs into' }).first().click();
    await editorShows(page, '[xs=h] holds a value of xs');
    const mode = await page.locator('[id="status.editor.mode"]').innerText({ timeout: 10000 }).catch(() => '');
    if (!mode.includes('CNF fused process')) throw new Error(`language: ${mode}`);
    const keywords = await page.locator('.editor-instance .view-line span', { hasText: /^pull$/ }).count();
    return `states s0.. with the notation explained; language ${mode}; ${keywords} highlighted pulls`;
  });

  await step(page, 'CNF: Show ILP from the command palette', async () => {
    await page.locator('.tabs-container .tab', { hasText: 'normalize2.cnf' }).first().click();
    await palette(page, 'CNF: Show ILP');
    await page.waitForSelector('.tabs-container .tab:has-text("normalize2.lp")', { timeout: 30000 });
    await editorShows(page, 'Minimize');
    return 'normalize2.lp with the Fig 1.14 model';
  });

  await step(page, 'CNF: Show C from the command palette: the loops as C, highlighted', async () => {
    await page.locator('.tabs-container .tab', { hasText: 'normalize2.cnf' }).first().click();
    await palette(page, 'CNF: Show C');
    // Not normalize2.cnf: the label is exactly normalize2.c.
    const label = page.locator('.tabs-container .tab .monaco-icon-label', { hasText: /^\s*normalize2\.c\s*$/ }).first();
    await label.waitFor({ timeout: 30000 });
    await editorShows(page, 'Loop 1:');
    // Each loop a function of its own, named after the definition (the definition's follows them).
    await editorShows(page, 'static __attribute__((noinline)) void cnf_L1_normalize2(const Arr_Int v_xs');
    // The view opens beside, keeping the focus on the program: its tab's icon says its language.
    const icon = await label.getAttribute('class');
    if (!/\bc-lang-file-icon\b/.test(icon || '')) throw new Error(`the tab's language: ${icon}`);
    const keywords = await page.locator('.editor-instance .view-line span', { hasText: /^goto$/ }).count();
    return `normalize2.c, the C language, ${keywords} gotos in view`;
  });

  await step(page, 'the "measure compiled" lens runs the benchmark in the background and shows the speed-up', async () => {
    await page.locator('.tabs-container .tab', { hasText: 'normalize2.cnf' }).first().click();
    await page.locator('.codelens-decoration a:visible', { hasText: /measure\s+compiled/ }).first().click();
    const measured = page.locator('.codelens-decoration', { hasText: /measured at 10⁷/ }).first();
    await measured.waitFor({ timeout: 180000 });
    const text = plain(await measured.innerText());
    if (!/measured at 10⁷: 2 loops \d+ ms · unfused 5 loops \d+ ms · \d+\.\d×/.test(text)) throw new Error(`lens: ${text}`);
    return text;
  });

  await step(page, "the measurement in the definition's hover: a table of the clusterings", async () => {
    const line = page.locator('.editor-instance .view-line', { hasText: 'normalize2 xs' }).first();
    await line.hover({ position: { x: 30, y: 8 } });
    const table = page.locator('.monaco-hover:not(.hidden) table').first();
    await table.waitFor({ timeout: 20000 });
    const rows = await table.locator('tr').count();
    const text = plain(await table.innerText());
    if (rows < 5 || !/megiddo/.test(text) || !/copy loop/.test(text)) throw new Error(`hover table: ${rows} rows: ${text}`);
    return `${rows} rows`; // the screenshot shows the hover; the next step's click closes it
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

  await step(page, 'Enter after a finished name makes a newline; no completion on space', async () => {
    await page.locator('.tabs-container .tab', { hasText: 'normalize2.cnf' }).first().click();
    const anchor = page.locator('.editor-instance .view-line', { hasText: '= map (/ sum2) xs' }).first();
    await anchor.click();
    const linesBefore = await page.locator('.editor-instance .view-line').count();
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    // No completion list opens on a space; as-you-type suggestions are not preselected, so
    // Enter after a name that is a prefix of others (ys: ys1, ys2) keeps the name.
    await page.keyboard.type('sq   = map ', { delay: 30 });
    await page.waitForTimeout(600);
    const onSpace = await page.locator('.suggest-widget.visible').count();
    await page.keyboard.type('(\\x -> x * x) ys', { delay: 30 });
    await page.waitForTimeout(600);
    const listed = plain(await page.locator('.suggest-widget.visible').innerText().catch(() => ''));
    await page.keyboard.press('Enter');
    // An in typed after the bindings goes under let (it went to column 1).
    await page.keyboard.type('in  sq', { delay: 30 });
    await editorShows(page, '= map (\\x -> x * x) ys');
    const lines = (await page.locator('.editor-instance .view-line').allInnerTexts()).map(plain);
    const i = lines.findIndex((l) => l.includes('= map (\\x -> x * x) ys'));
    if (i < 0 || /ys[12]/.test(lines[i]) || !lines.some((l) => l.trim() === 'in  sq')) throw new Error(`lines: ${JSON.stringify(lines)}`);
    const typedIn = lines.find((l) => l.trim() === 'in  sq');
    if (!typedIn.startsWith('  in')) throw new Error(`the typed in is at column ${typedIn.indexOf('in') + 1}, not under let (column 3): ${JSON.stringify(typedIn)}`);
    if (onSpace) throw new Error('a completion list opened on a space');
    // Undo the two lines, as a user would.
    const count = async () => (await page.locator('.editor-instance .view-line').count());
    const typedLines = async () => (await page.locator('.editor-instance .view-line', { hasText: /= map \(\\x -> x \* x\) ys|^\s*in  sq$/ }).count());
    for (let k = 0; k < 60 && ((await count()) !== linesBefore || (await typedLines()) > 0); k++) {
      await page.keyboard.press('Control+z');
      await page.waitForTimeout(50);
    }
    if ((await count()) !== linesBefore || (await typedLines()) > 0) throw new Error('undo did not restore the text');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Home');
    return `typed "... ys", Enter and an in (under let) with ${listed ? 'suggestions listed (' + listed.replace(/\s+/g, ' ').slice(0, 40) + ')' : 'no list'}: ys kept, the cursor on a new line`;
  });

  const sizeError = 'map2 needs gts and ys1 to have the same size';
  await step(page, 'a size error appears after typing a broken binding', async () => {
    await page.locator('.tabs-container .tab', { hasText: 'normalize2.cnf' }).first().click();
    await retype(page, '= map (/ sum2) xs', '      ys2  = map2 (+) gts ys1');
    if (!(await page.locator('.markers-panel').isVisible().catch(() => false))) await page.keyboard.press('Control+Shift+M');
    await problemsShow(page, sizeError);
    await page.locator('.statusbar-item', { hasText: /CNF\s+·\s+1\s+error/ }).first().waitFor({ timeout: 10000 });
    return 'map2 needs gts and ys1 to have the same size ...; status bar: CNF · 1 error';
  });

  // The server under test is the bundled binary in this profile's extensions folder.
  // (cn[f]: so that the pattern does not match the shell that runs pkill.)
  const serverPattern = `${rundir}/ext/.*/bin/.*/cn[f] lsp`;
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

  await step(page, 'a startup error (cnf.server.path missing, set in Settings) then the path fixed: everything works again', async () => {
    // As a user does it: the Settings editor, the setting found by its name, a path typed.
    const pathInput = () => settingInput(page, /Server: ?Path/);
    await palette(page, 'Preferences: Open User Settings');
    await page.waitForSelector('.settings-editor', { timeout: 20000 });
    await page.keyboard.type('cnf.server.path', { delay: 20 });
    let input = await pathInput();
    // How Settings names the setting (it said "Cnf" where the extension is "CNF").
    const label = plain(await page.locator('.settings-editor .setting-item-contents', { hasText: /Server: ?Path/ }).first().locator('.setting-item-label, .setting-item-title').first().innerText().catch(() => '')).replace(/\s+/g, ' ').trim();
    await input.click();
    await page.keyboard.type('/nonexistent/cnf', { delay: 10 });
    await page.keyboard.press('Tab');
    const toast = notification('/nonexistent/cnf');
    await toast.waitFor({ timeout: 30000 });
    const buttons = plain(await toast.innerText()).replace(/\s+/g, ' ');
    // The user clears the path, leaving the notification where it is (it used to hold the
    // extension's activation until it was dismissed).
    input = await pathInput();
    await input.click();
    await page.keyboard.press('Control+a');
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Tab');
    await page.waitForTimeout(1500);
    // normalize2 has the size error typed before: a file without errors shows its diagram.
    await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'closestPoints.cnf' }).first().click();
    await page.locator('.tabs-container .tab', { hasText: 'closestPoints.cnf' }).first().waitFor({ timeout: 30000 });
    await page.locator('.statusbar-item', { hasText: /CNF\s+·\s+\d+\s+loops?/ }).first().waitFor({ timeout: 60000 });
    if (await page.locator('.statusbar-item', { hasText: 'Activating Extensions' }).count()) throw new Error('the status bar still says Activating Extensions');
    await page.locator('.editor-actions .action-label[aria-label*="Show Clustering"]').first().click();
    await webviewFrame(page, 'svg', 'closestPoints');
    const settingsTab = page.locator('.tabs-container .tab', { hasText: 'Settings' }).first();
    if (await settingsTab.count()) await settingsTab.locator('.codicon-close').first().click().catch(() => {});
    return `setting shown as "${label}"; the error offered ${buttons.includes('Open Settings') ? 'Open Settings' : '?'} and ${buttons.includes('Restart Server') ? 'Restart Server' : '?'}; with the path cleared the server runs and Show Clustering draws`;
  });

  await step(page, 'a second example: palindrome.cnf (append, reverse, lengths)', async () => {
    const row = page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'palindrome.cnf' }).first();
    await row.dblclick();
    const line = page.locator('.editor-instance .view-line', { hasText: '= append doubled back' }).first();
    await line.waitFor({ timeout: 30000 });
    await line.click({ position: { x: 300, y: 8 } });
    await page.locator('.codelens-decoration a:visible', { hasText: /3\s+loops/ }).first().waitFor({ timeout: 60000 });
    await editorShows(page, 'before any loop');
    await page.locator('.statusbar-item', { hasText: /CNF\s+·\s+3\s+loops/ }).first().waitFor({ timeout: 10000 });
    const word = page.locator('.editor-instance .view-line span', { hasText: /^append$/ }).first();
    await word.hover();
    const hover = page.locator('.monaco-hover:not(.hidden)', { hasText: 'k1 + k2' }).first();
    await hover.waitFor({ timeout: 20000 });
    await page.mouse.move(5, 5);
    await page.keyboard.press('Escape');
    return '3 loops; n before any loop (an inlay hint); append documented on hover';
  });

  await step(page, 'a quick fix corrects a misspelt combinator', async () => {
    await retype(page, '= reverse doubled', '      back    = revers doubled');
    await page.locator('.statusbar-item', { hasText: /CNF\s+·\s+1\s+error/ }).first().waitFor({ timeout: 30000 });
    // The cursor just after "revers", then the quick-fix menu (Ctrl+.), as a user would.
    await page.keyboard.press('Escape'); // the signature help that typing opened
    await page.keyboard.press('End');
    for (let i = 0; i < ' doubled'.length; i++) await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('Control+.');
    const item = page.locator('.action-widget .monaco-list-row', { hasText: 'change to reverse' }).first();
    await item.waitFor({ timeout: 20000 });
    await page.keyboard.press('Enter'); // the first action is selected
    await editorShows(page, '= reverse doubled');
    await page.locator('.statusbar-item', { hasText: /CNF\s+·\s+3\s+loops/ }).first().waitFor({ timeout: 30000 });
    await page.keyboard.press('Home'); // scroll back to the start of the line for the screenshot
    return 'revers: "change to reverse" from Ctrl+. puts reverse back; 3 loops again';
  });

  await step(page, 'a large diagram with externals: loops numbered 1..3, fitted to the width, zoom and fit', async () => {
    const row = page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'closestPoints.cnf' }).first();
    await row.click();
    await page.locator('.tabs-container .tab', { hasText: 'closestPoints.cnf' }).first().waitFor({ timeout: 30000 });
    await page.locator('.editor-actions .action-label[aria-label*="Show Clustering"]').first().click();
    const frame = await webviewFrame(page, 'svg', 'closestPoints');
    const labels = await frame.evaluate(() => [...document.querySelectorAll('#graph svg g.cluster.loop > text')].map((t) => t.textContent).sort().join(','));
    if (labels !== 'loop 1,loop 2,loop 3') throw new Error(`loop frames: ${labels}`);
    const size = () => frame.evaluate(() => {
      const g = document.getElementById('graph');
      const svg = g.querySelector('svg').getBoundingClientRect();
      return { svgW: svg.width, svgH: svg.height, viewW: g.clientWidth, viewH: g.clientHeight, zoom: document.getElementById('zoom').textContent };
    });
    const first = await size();
    if (first.svgW > first.viewW) throw new Error(`cut off: diagram ${first.svgW}px wide in a ${first.viewW}px view`);
    const g = frame.locator('#graph');
    await g.hover();
    await page.keyboard.down('Control');
    await page.mouse.wheel(0, -300);
    await page.keyboard.up('Control');
    const zoomed = await size();
    if (!(zoomed.svgW > first.svgW * 1.2)) throw new Error(`Ctrl+wheel did not zoom: ${JSON.stringify([first, zoomed])}`);
    await frame.locator('#fit').click();
    const fitted = await size();
    if (fitted.svgW > fitted.viewW + 1 || fitted.svgH > fitted.viewH + 1) throw new Error(`Fit: ${JSON.stringify(fitted)}`);
    return `${labels}; width ${Math.round(first.svgW)} in ${first.viewW} (${first.zoom}); Ctrl+wheel ${zoomed.zoom}; Fit ${fitted.zoom}`;
  });

  await step(page, 'Prove optimal from the quick fixes: its bound as it goes; Cancel keeps what it found', async () => {
    // prove.cnf: cnf gen --bindings 200 --seed 1 --shape fans --name prove: not proven under
    // the 2 s default; proving it takes minutes, and the root loop reports its bound each time
    // it rises. (fans 100 seed 2, then glued 200 seed 4, were used until the root loop got
    // stronger and the cost model weighed filtered arrays less: both are now proven in 1-3 s,
    // before the test could cancel them.)
    const row = page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'prove.cnf' }).first();
    await row.click();
    const def = page.locator('.editor-instance .view-line', { hasText: 'prove xs1 xs2 n1 n2 =' }).first();
    await def.waitFor({ timeout: 30000 });
    await page.locator('.statusbar-item', { hasText: /CNF\s+·\s+\d+\s+loops/ }).first().waitFor({ timeout: 60000 });
    // The status bar may still say the last file's loops: the lens above the definition says
    // prove.cnf's own (its 200 bindings unfused), once its clustering is done (on CI, twice,
    // the quick fix was asked for before it was, and the menu never offered it).
    await page.locator('.codelens-decoration', { hasText: /unfused 200/ }).first().waitFor({ timeout: 120000 });
    // Ctrl+. at the definition's name, as a user would; again if the menu came up empty (the
    // click can land while a lens appears above the line and moves it).
    const proveItem = page.locator('.action-widget .monaco-list-row', { hasText: 'Prove the clustering of prove' }).first();
    for (let attempt = 1; ; attempt++) {
      await def.click();
      await page.keyboard.press('Home');
      await page.keyboard.press('Control+.');
      try {
        await proveItem.waitFor({ timeout: attempt < 3 ? 7000 : 20000 });
        break;
      } catch (err) {
        if (attempt >= 3) {
          // Say what the menu and the lens showed instead, for the log.
          const rows = await page.locator('.action-widget .monaco-list-row').allInnerTexts().catch(() => []);
          const lens = await page.locator('.codelens-decoration').allInnerTexts().catch(() => []);
          throw new Error(`${err.message.split('\n')[0]} (the menu: ${JSON.stringify(rows.map(plain))}; the lenses: ${JSON.stringify(lens.map(plain).slice(0, 4))})`);
        }
        await page.keyboard.press('Escape');
      }
    }
    for (let i = 0; i < 5; i++) {
      const focused = await page.locator('.action-widget .monaco-list-row.focused').innerText().catch(() => '');
      if (focused.includes('Prove the clustering')) break;
      await page.keyboard.press('ArrowDown');
    }
    await page.keyboard.press('Enter');
    const running = page.locator('.notification-toast', { hasText: 'the optimum is at least' }).first();
    await running.waitFor({ timeout: 60000 });
    // The root loop reports its first bounds within a second, below what the 2 s default
    // already proved: let the proof run on, as a user would, until it has learnt something.
    await page.waitForTimeout(20000);
    const progress = plain(await running.innerText()).replace(/\s+/g, ' ');
    await running.locator('.monaco-button', { hasText: 'Cancel' }).first().click();
    const stopped = page.locator('.notification-toast', { hasText: 'stopped:' }).first();
    await stopped.waitFor({ timeout: 30000 });
    const outcome = plain(await stopped.innerText()).replace(/\s+/g, ' ');
    await page.keyboard.press('Control+Shift+M');
    await problemsShow(page, 'the solve was stopped');
    // The lens above the definition counts the loops of the clustering the proof kept, as the
    // status bar does (once seen: the lens still said the loops from before the proof).
    let counts = '';
    for (let waited = 0; ; waited += 250) {
      const lens = plain(await page.locator('.codelens-decoration', { hasText: /unfused 200/ }).first().innerText().catch(() => ''));
      const status = plain(await page.locator('.statusbar-item', { hasText: /CNF\s+·\s+\d+\s+loops/ }).first().innerText().catch(() => ''));
      const a = lens.match(/(\d+)\s+loops/), b = status.match(/(\d+)\s+loops/);
      counts = `lens ${JSON.stringify(lens.slice(0, 40))}, status ${JSON.stringify(status)}`;
      if (a && b && a[1] === b[1]) break;
      if (waited >= 15000) throw new Error(`after the stopped proof: ${counts}`);
      await page.waitForTimeout(250);
    }
    await palette(page, 'Notifications: Clear All Notifications');
    await page.keyboard.press('Control+Shift+M');
    return `${progress.slice(progress.indexOf('Proving'))} → ${outcome}; ${counts}`;
  });

  await step(page, 'the walkthrough\'s example: CNF: Open an Example Program, analysed as an untitled file', async () => {
    await palette(page, 'CNF: Open an Example Program');
    await page.locator('.tabs-container .tab', { hasText: 'Untitled' }).first().waitFor({ timeout: 15000 });
    await editorShows(page, 'loop 2', false, 30000);
    return 'an untitled normalize2 with its loop hints';
  });

  await step(page, 'a combinator snippet: its example arguments as placeholders', async () => {
    const last = page.locator('.editor-instance .view-line', { hasText: 'in  (ys1, ys2)' }).first();
    await last.click();
    await page.keyboard.press('Home');
    await page.keyboard.press('Home');
    await page.keyboard.press('Enter');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.type('      zs = fol');
    await page.keyboard.press('Control+Space');
    const row = page.locator('.suggest-widget .monaco-list-row', { has: page.locator('.codicon-symbol-snippet') }).filter({ hasText: 'fold' }).first();
    await row.waitFor({ timeout: 10000 });
    await row.click();
    await page.keyboard.type('max');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.type('gts');
    await page.keyboard.press('Escape');
    // The view line is rendered a moment after the last key: poll it (seen: "fold max 0 g").
    let line = '';
    for (let waited = 0; waited <= 5000; waited += 100) {
      line = plain(await page.locator('.editor-instance .view-line', { hasText: 'zs' }).first().innerText());
      if (/zs\s*=\s*fold max 0 gts/.test(line)) return line.trim();
      await page.waitForTimeout(100);
    }
    throw new Error(`line: ${JSON.stringify(line)}`);
  });

  await step(page, 'a window reload restores the diagrams', async () => {
    await page.reload({ waitUntil: 'domcontentloaded', timeout: 90000 });
    await page.waitForSelector('.monaco-workbench', { timeout: 90000 });
    await page.locator('.tabs-container .tab', { hasText: 'Clustering: normalize2' }).first().click();
    const frame = await webviewFrame(page, 'svg g.cluster.loop', 'normalize2');
    const loops = await frame.locator('#graph svg g.cluster.loop').count();
    if (loops !== 2) throw new Error(`${loops} loops drawn after the reload`);
    return `normalize2: ${loops} loops drawn again`;
  });

  await step(page, 'a 35-binding clustering in the side group: loops as boxes, a click opens one, search', async () => {
    // The editor and one side group, as a user who opens a file and its clustering has (the
    // steps before left three groups, and a third of the window is not the side group). Last:
    // the layout it leaves is not the one the steps before it were written for.
    await palette(page, 'View: Single Column Editor Layout');
    const row = page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'pipeline35.cnf' }).first();
    await row.click();
    await page.locator('.tabs-container .tab', { hasText: 'pipeline35.cnf' }).first().waitFor({ timeout: 30000 });
    // Loop colours in the text, past 8 loops: bindings next to each other share a colour
    // exactly when they share a loop (the loop hint at each line's end says which).
    // Waits until this editor shows its loop hints and colours (another editor's hints do not count).
    const pairs = await page.waitForFunction(() => {
      const editor = [...document.querySelectorAll('.editor-instance')].find((e) => e.textContent.replace(/\u00a0/g, ' ').includes('pipeline xs1'));
      if (!editor) return null;
      const colourAt = {};
      for (const el of editor.querySelectorAll('.view-overlays > div')) {
        for (const d of [el, ...el.querySelectorAll('div')]) {
          const cs = getComputedStyle(d);
          if (cs.borderLeftWidth === '3px' && cs.borderLeftStyle === 'solid') colourAt[el.style.top] = cs.borderLeftColor;
        }
      }
      const rows = [];
      for (const line of editor.querySelectorAll('.view-lines > .view-line')) {
        const m = line.textContent.replace(/\u00a0/g, ' ').match(/loop (\d+)\s*$/);
        if (m && colourAt[line.style.top]) rows.push({ top: parseFloat(line.style.top), loop: Number(m[1]), colour: colourAt[line.style.top] });
      }
      rows.sort((a, b) => a.top - b.top);
      return rows.length >= 10 ? rows : null;
    }, null, { timeout: 30000 }).then((h) => h.jsonValue()).catch(() => null);
    if (!pairs || pairs.length < 10) throw new Error(`loop colours of the text: ${JSON.stringify(pairs)}`);
    for (let i = 1; i < pairs.length; i++) {
      const a = pairs[i - 1], b = pairs[i];
      if ((a.loop === b.loop) !== (a.colour === b.colour)) throw new Error(`lines of loops ${a.loop} and ${b.loop}: colours ${a.colour} and ${b.colour}`);
    }
    const distinctLoops = new Set(pairs.map((p) => p.loop)).size;
    await page.locator('.editor-actions .action-label[aria-label*="Show Clustering"]').first().click();
    const frame = await webviewFrame(page, 'svg g.node.loopbox', 'pipeline');
    const info = () => frame.evaluate(() => ({
      boxes: document.querySelectorAll('#graph svg g.node.loopbox').length,
      frames: [...document.querySelectorAll('#graph svg g.cluster.loop > text')].map((t) => t.textContent),
      zoom: document.getElementById('zoom').textContent,
      loopsOpen: document.getElementById('loops-box').open,
      button: document.getElementById('collapse').textContent,
    }));
    // The view fits the diagram to its width once its size settles (a resize fits it again).
    await frame.waitForFunction(() => parseInt(document.getElementById('zoom').textContent, 10) >= 50, null, { timeout: 10000 }).catch(() => {});
    const first = await info();
    const loops = Number((await frame.locator('#summary').innerText()).match(/: (\d+) loops/)[1]);
    if (first.boxes !== loops || first.frames.length !== 0 || first.loopsOpen || first.button !== 'Expand all') throw new Error(`collapsed view: ${JSON.stringify(first)} for ${loops} loops`);
    if (parseInt(first.zoom, 10) < 50) throw new Error(`a thumbnail: ${first.zoom}`);
    await frame.locator('#graph svg g.node.loopbox[id="loop:1"]').click();
    await frame.waitForFunction(() => document.querySelectorAll('#graph svg g.cluster.loop1').length === 1, null, { timeout: 20000 });
    const opened = await info();
    if (opened.boxes !== loops - 1 || opened.frames.join() !== 'loop 1') throw new Error(`after a click on loop 1: ${JSON.stringify(opened)}`);
    await frame.locator('#search').fill('b13');
    const matches = await frame.locator('#graph svg g.node.match').count();
    if (matches < 1) throw new Error('the search marked no binding');
    return `${pairs.length} coloured lines of ${distinctLoops} loops, neighbours differ; ${loops} loops as boxes at ${first.zoom}; loop 1 opened by a click (${opened.boxes} boxes left); search b13: ${matches} marked`;
  });

  await step(page, 'a reload in the single-column layout: a view restored behind another tab draws when shown', async () => {
    // Views restored behind another tab have no size until shown: they were fitted to zero
    // width, a blank view once shown (seen after the layout change above). normalize2's view
    // is behind pipeline's (the tab strip overflows: pipeline's tab cannot be clicked).
    await page.reload({ waitUntil: 'domcontentloaded', timeout: 90000 });
    await page.waitForSelector('.monaco-workbench', { timeout: 90000 });
    const seen = [];
    for (const [tab, name, loops] of [['Clustering: normalize2', 'normalize2', 2]]) {
      await page.locator('.tabs-container .tab', { hasText: tab }).first().click();
      const frame = await webviewFrame(page, 'svg g.node', name);
      await frame.waitForFunction(() => parseInt(document.getElementById('zoom').textContent, 10) >= 20, null, { timeout: 10000 }).catch(() => {});
      const zoom = await frame.locator('#zoom').innerText();
      const drawn = await frame.locator('#graph svg g.cluster.loop, #graph svg g.node.loopbox').count();
      if (parseInt(zoom, 10) < 20) throw new Error(`${name}: drawn at ${zoom}`);
      if (loops && drawn !== loops) throw new Error(`${name}: ${drawn} loops drawn`);
      seen.push(`${name} at ${zoom}`);
    }
    return seen.join(', ');
  });

  await step(page, 'measured filter rates from Settings: cnf.solver.rates typed, the filter joins its readers\' loop', async () => {
    // rates.cnf's f keeps everything on the profiled inputs (rates.json, cnf run --profile's
    // form): with the guess of half the optimum writes f in loop 1; with the rates it fuses f
    // with its readers in loop 2. As a user does it: the Settings editor, the path typed.
    const row = page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'rates.cnf' }).first();
    await row.waitFor({ timeout: 30000 });
    await row.click();
    await page.locator('.tabs-container .tab', { hasText: 'rates.cnf' }).first().waitFor({ timeout: 30000 });
    const fLine = () => page.locator('.editor-instance .view-line', { hasText: '= filter (\\x -> x > 3) m' }).first();
    const waitLoop = async (k) => {
      const deadline = Date.now() + 60000;
      let text = '';
      while (Date.now() < deadline) {
        text = plain(await fLine().innerText().catch(() => ''));
        if (new RegExp(`loop ${k}\\s*$`).test(text.trim())) return text.trim();
        await page.waitForTimeout(250);
      }
      throw new Error(`f's line never said loop ${k}: ${JSON.stringify(text)}`);
    };
    const before = await waitLoop(1);
    await palette(page, 'Preferences: Open User Settings');
    await page.waitForSelector('.settings-editor', { timeout: 20000 });
    await page.keyboard.type('cnf.solver.rates', { delay: 20 });
    const input = await settingInput(page, /Solver: ?Rates/);
    await input.click();
    await page.keyboard.type('rates.json', { delay: 10 });
    await page.keyboard.press('Tab');
    await page.locator('.tabs-container .tab', { hasText: 'rates.cnf' }).first().click();
    const after = await waitLoop(2);
    // The last step: the setting stays (a retry runs in a fresh profile); the screenshot shows
    // the file with its new loops.
    const settingsTab = page.locator('.tabs-container .tab', { hasText: 'Settings' }).first();
    if (await settingsTab.count()) await settingsTab.locator('.codicon-close').first().click().catch(() => {});
    await page.locator('.tabs-container .tab', { hasText: 'rates.cnf' }).first().click();
    return `before: ${before}; with the rates: ${after}`;
  });

  await close();
  console.log(`e2e: ${passed} passed, ${failed} failed`);
  process.exit(failed === 0 ? 0 : 1);
})().catch((e) => {
  console.error('e2e: ERROR', e);
  process.exit(1);
});
