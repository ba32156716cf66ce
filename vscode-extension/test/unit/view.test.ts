import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { clusterList, escapeHTML, loopItems, preventingItems, summaryHTML, summaryLine, webviewHTML, Summary } from '../../src/view';

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
  assert.match(summaryLine({ ...normalize2, optimal: false, bound: 48 }), /not proven optimal; the optimum is at least 48 \(within 5\.9%\)$/);
  assert.match(summaryLine({ ...normalize2, optimal: false, bound: 2 }), /not proven optimal$/); // 96%: says nothing
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

test('the page escapes program text and carries the state for the bundled renderer', () => {
  const result = { function: 'f<x>', dot: 'digraph "a" { "n:x" -> "n:y" }', summary: { ...normalize2, name: 'f<x>' } };
  const html = webviewHTML({ uri: 'file:///a.cnf', name: 'f<x>', result }, 'vscode-resource:/dist/webview.js', 'vscode-resource:', 'N0NCE');
  assert.ok(html.includes('<title>Clustering of f&lt;x&gt;</title>'));
  assert.ok(!html.includes('<x>'));
  const state = /data-state="([^"]*)"/.exec(html)![1].replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
  assert.deepEqual(JSON.parse(state), { uri: 'file:///a.cnf', name: 'f<x>', result });
  assert.ok(html.includes('<script nonce="N0NCE" src="vscode-resource:/dist/webview.js">'));
  assert.ok(html.includes("script-src 'nonce-N0NCE'"));
  assert.ok(html.includes('id="fit"') && html.includes('id="legend"'), 'toolbar and legend');
  // Fusion-preventing edges are the theme's red, overriding the foreground colour of edges.
  assert.match(html, /\.edge\.preventing path \{ stroke: var\(--vscode-charts-red\)/);
});

test('terms in the summary link to their explanation, with the line on hover', () => {
  const terms = { objective: { line: 'what the ILP minimises', url: 'https://x/docs/language.md#objective' } };
  const html = summaryHTML(normalize2, terms);
  assert.ok(html.includes('<a class="term" href="https://x/docs/language.md#objective" title="what the ILP minimises">objective</a> 51'));
  assert.ok(html.includes('unfused 5'), 'a term without an entry stays plain');
  assert.equal(summaryHTML(normalize2, undefined).replace(/<[^>]+>/g, ''), summaryLine(normalize2));
});

test('loops carry their colour; preventing edges their reasons', () => {
  const coloured = { ...normalize2, clusters: normalize2.clusters.map((c, i) => ({ ...c, loop: i + 1, color: ['#4e79a7', '#f28e2b'][i] })),
    fusionPreventing: [{ from: 'sum1', to: 'ys1', reasons: ['sum1 is a fold'] }] };
  assert.ok(loopItems(coloured).includes('<span class="swatch" style="background:#4e79a7"></span>loop 1: sum1'));
  assert.equal(preventingItems(coloured), '<li><b>sum1 → ys1</b>: sum1 is a fold</li>');
  assert.equal(preventingItems(normalize2), '');
});

test('escapeHTML', () => {
  assert.equal(escapeHTML('<a href="x">&</a>'), '&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;');
});
