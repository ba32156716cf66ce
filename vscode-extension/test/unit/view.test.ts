import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { clusterList, escapeHTML, summaryLine, webviewHTML, Summary } from '../../src/view';

const normalize2: Summary = {
  name: 'normalize2', loops: 2, objective: 51, optimal: true,
  baselines: { unfused: 5, stream: 4, megiddo: 3, megiddoOptimal: true },
  clusters: [
    { bindings: ['sum1', 'gts', 'sum2'], reads: ['xs'], writes: [], contracted: ['gts'] },
    { bindings: ['ys1', 'ys2'], reads: ['xs'], writes: ['ys1', 'ys2'], contracted: [] },
  ],
};

test('the summary line gives loops against the baselines', () => {
  assert.equal(summaryLine(normalize2), 'normalize2: 2 loops (unfused 5 · stream fusion 4 · Megiddo 3), objective 51');
  assert.match(summaryLine({ ...normalize2, optimal: false }), /not proven optimal$/);
  assert.match(summaryLine({ ...normalize2, fallback: 'the ILP solver failed' }), /the ILP solver failed$/);
});

test('clusters are described loop by loop, externals apart', () => {
  const withExternal = { ...normalize2, clusters: [{ bindings: ['e'], reads: ['xs'], writes: ['e'], contracted: [], external: true }, ...normalize2.clusters] };
  assert.deepEqual(clusterList(withExternal), [
    'external: e',
    'loop 1: sum1, gts, sum2; reads xs; contracts gts',
    'loop 2: ys1, ys2; reads xs; writes ys1, ys2',
  ]);
});

test('the page escapes program text and carries the DOT for the bundled renderer', () => {
  const html = webviewHTML({ function: 'f<x>', dot: 'digraph "a" { "n:x" -> "n:y" }', summary: { ...normalize2, name: 'f<x>' } }, 'vscode-resource:/dist/webview.js', 'vscode-resource:', 'N0NCE');
  assert.ok(html.includes('f&lt;x&gt;: 2 loops'));
  assert.ok(!html.includes('<x>'));
  assert.ok(html.includes('data-dot="digraph &quot;a&quot; { &quot;n:x&quot; -&gt; &quot;n:y&quot; }"'));
  assert.ok(html.includes('<script nonce="N0NCE" src="vscode-resource:/dist/webview.js">'));
  assert.ok(html.includes("script-src 'nonce-N0NCE'"));
});

test('escapeHTML', () => {
  assert.equal(escapeHTML('<a href="x">&</a>'), '&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;');
});
