// universal.js: the universal .vsix (no server) on a machine without cnf on PATH: opening a .cnf
// file brings the message that says how to install cnf, with its buttons. Run:
// npm run package:universal && E2E_CHECK=universal.js e2e/run.sh cnf-universal.vsix
'use strict';
const path = require('path');
const { openWorkbench } = require('./browser');
const [url, outdir] = process.argv.slice(2);
(async () => {
  const { page, close } = await openWorkbench(url);
  const row = page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'normalize2.cnf' }).first();
  await row.waitFor({ timeout: 60000 });
  await row.click();
  const toast = page.locator('.notification-toast', { hasText: 'was not found' }).first();
  await toast.waitFor({ timeout: 30000 });
  const text = await toast.innerText();
  await page.screenshot({ path: path.join(outdir, 'universal-no-server.png') });
  const buttons = await toast.locator('.monaco-button').allInnerTexts();
  console.log('message:', text.replace(/\s+/g, ' '));
  console.log('buttons:', buttons.join(' | '));
  await close();
  const ok = buttons.some((b) => b.includes('How to Install'));
  console.log(ok ? 'e2e: 1 passed, 0 failed' : 'e2e: 0 passed, 1 failed');
  process.exit(ok ? 0 : 1);
})().catch((e) => { console.error('e2e: ERROR', e); process.exit(1); });
