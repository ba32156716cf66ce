// browser.js: what every e2e driver starts with: Debian's chromium (headless, a fresh profile)
// on code-server's workbench at url, and a way to close it and remove the profile.
'use strict';
const { chromium } = require('playwright-core');
const fs = require('fs'); const os = require('os'); const path = require('path');

async function openWorkbench(url) {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'cnf-pw-'));
  const ctx = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium', headless: true, viewport: { width: 1400, height: 900 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const page = ctx.pages()[0] || (await ctx.newPage());
  await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 90000 });
  await page.waitForSelector('.monaco-workbench', { timeout: 90000 });
  const close = async () => {
    await ctx.close();
    fs.rmSync(profile, { recursive: true, force: true });
  };
  return { page, close };
}

module.exports = { openWorkbench };
