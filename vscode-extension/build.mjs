// Bundles the extension (Node, CommonJS, vscode external) and the webview script (browser,
// with Graphviz compiled to WebAssembly inside it); with --tests, the unit tests.
import * as esbuild from 'esbuild';
import { readdirSync } from 'fs';

const tests = process.argv.includes('--tests');
if (tests) {
  const entries = readdirSync('test/unit').filter((f) => f.endsWith('.test.ts')).map((f) => `test/unit/${f}`);
  await esbuild.build({ entryPoints: entries, outdir: 'dist-test', bundle: true, platform: 'node', format: 'cjs', target: 'node20', logLevel: 'warning' });
} else {
  await esbuild.build({ entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js', bundle: true, platform: 'node', format: 'cjs', target: 'node20', external: ['vscode'], sourcemap: true, logLevel: 'warning' });
  await esbuild.build({ entryPoints: ['src/webview/main.ts'], outfile: 'dist/webview.js', bundle: true, platform: 'browser', format: 'iife', target: 'es2020', logLevel: 'warning' });
}
