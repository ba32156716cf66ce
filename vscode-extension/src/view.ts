// What the clustering view shows, as pure functions of the server's answer (unit-tested, and
// bundled both into the extension and into the webview's script, which renders the page).

import { ClusteringResult, DiagramView, Summary, Term } from './lsp_ext';

export type { ClusteringResult, DiagramView, Summary } from './lsp_ext';

// summaryLine is the line above the diagram, as text: loops against the baselines.
export function summaryLine(s: Summary): string {
  return summaryParts(s).map((p) => (typeof p === 'string' ? p : p.text)).join('');
}

// summaryHTML is the same line with each term of the vocabulary a link to its explanation
// (docs/language.md), whose one-line explanation shows on hover.
export function summaryHTML(s: Summary, terms: Record<string, Term> | undefined): string {
  return summaryParts(s).map((p) => {
    if (typeof p === 'string') return escapeHTML(p);
    const t = terms?.[p.term];
    if (!t) return escapeHTML(p.text);
    return `<a class="term" href="${escapeHTML(t.url)}" title="${escapeHTML(t.line)}">${escapeHTML(p.text)}</a>`;
  }).join('');
}

type Part = string | { text: string; term: string };

function summaryParts(s: Summary): Part[] {
  const b = s.baselines;
  const parts: Part[] = [
    `${s.name}: ${s.loops} `, { text: s.loops === 1 ? 'loop' : 'loops', term: 'loops' },
    ' (', { text: 'unfused', term: 'unfused' }, ` ${b.unfused} · `,
    { text: 'stream fusion', term: 'stream fusion' }, ` ${b.stream} · `,
    { text: 'Megiddo', term: 'Megiddo' }, ` ${b.megiddo}`,
  ];
  if (b.megiddoOptimal === false) parts.push(' (', { text: 'not proven optimal', term: 'not proven optimal' }, ')');
  parts.push('), ', { text: 'objective', term: 'objective' }, ` ${s.objective}`);
  if (s.fallback) parts.push(` — ${s.fallback}`);
  else if (!s.optimal) {
    parts.push(' — ', { text: 'not proven optimal', term: 'not proven optimal' });
    // As the server's text (cluster.Result.NotProven): a gap over half says nothing.
    const gap = s.bound ? (100 * (s.objective - s.bound)) / s.objective : 100;
    if (gap > 0 && gap <= 50) parts.push(`; the optimum is at least ${s.bound} (within ${gap < 0.1 ? '0.1' : gap.toFixed(1)}%)`);
  }
  return parts;
}

export function escapeHTML(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

// clusterList describes each loop in words, under the diagram; loops are numbered 1..L as
// everywhere else (externals are not loops).
export function clusterList(s: Summary): string[] {
  let loop = 0;
  return s.clusters.map((c) => {
    if (c.external) return `external: ${c.bindings.join(', ')}`;
    loop++;
    const parts = [`loop ${c.loop ?? loop}: ${c.bindings.join(', ')}`];
    if (c.reads.length) parts.push(`reads ${c.reads.join(', ')}`);
    if (c.writes.length) parts.push(`writes ${c.writes.join(', ')}`);
    if (c.contracted.length) parts.push(`contracts ${c.contracted.join(', ')}`);
    return parts.join('; ');
  });
}

// loopItems is the cluster list as HTML list items, each loop with a swatch of its colour.
export function loopItems(s: Summary): string {
  const lines = clusterList(s);
  return s.clusters.map((c, i) => {
    const swatch = c.color ? `<span class="swatch" style="background:${escapeHTML(c.color)}"></span>` : '<span class="swatch external"></span>';
    const loop = c.external || !c.loop ? '' : ` data-loop="${c.loop}" title="Show loop ${c.loop} in the diagram"`;
    return `<li${loop}>${swatch}${escapeHTML(lines[i])}</li>`;
  }).join('');
}

// preventingItems lists the fusion-preventing edges with their reasons.
export function preventingItems(s: Summary): string {
  return (s.fusionPreventing ?? []).map((e) => `<li><b>${escapeHTML(e.from)} → ${escapeHTML(e.to)}</b>: ${escapeHTML(e.reasons.join('; '))}</li>`).join('');
}

// legendHTML says what the diagram's shapes mean, drawn as they are drawn.
export function legendHTML(): string {
  const item = (svg: string, text: string) => `<span class="legend-item"><svg width="26" height="14" aria-hidden="true">${svg}</svg>${text}</span>`;
  return [
    item('<rect x="2" y="2" width="22" height="10" class="lg-stroke" fill="none"/>', 'array in memory'),
    item('<ellipse cx="13" cy="7" rx="11" ry="5" class="lg-stroke" fill="none"/>', 'binding'),
    item('<rect x="2" y="1" width="22" height="12" rx="3" class="lg-loop"/>', 'loop'),
    item('<rect x="2" y="1" width="22" height="12" rx="3" class="lg-external" fill="none"/>', 'external'),
    item('<line x1="3" y1="7" x2="23" y2="7" class="lg-preventing"/><line x1="3" y1="2" x2="3" y2="12" class="lg-preventing"/>', 'cannot share a loop'),
  ].join('');
}

// ViewState is what a clustering view remembers across window reloads (the webview's state).
export interface ViewState {
  uri: string;
  name: string;
  result: ClusteringResult;
  view?: DiagramView; // loops collapsed or expanded, once the user has chosen
}

// Message is what the extension posts to a view: a new clustering.
export interface UpdateMessage {
  type: 'update';
  result: ClusteringResult;
}

// RevealMessage is what a view posts when a node is clicked: show that binding.
export interface RevealMessage {
  type: 'reveal';
  name: string;
}

// ViewMessage is what a view posts when the user collapses or expands loops: draw it so.
export interface ViewMessage {
  type: 'view';
  view: DiagramView;
}

export function updateMessage(r: ClusteringResult): UpdateMessage {
  return { type: 'update', result: r };
}

// webviewHTML is the page of the clustering view: a toolbar, the summary, the legend, the
// diagram and the lists. The bundled script renders it from the state in data-state (the
// diagram with Graphviz compiled to WebAssembly, no network); colours follow the editor theme
// through VS Code's CSS variables, and fusion-preventing edges are the theme's red.
export function webviewHTML(state: ViewState, scriptUri: string, cspSource: string, nonce: string): string {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src ${cspSource} data:; style-src ${cspSource} 'unsafe-inline'; script-src 'nonce-${nonce}' 'wasm-unsafe-eval';">
<title>Clustering of ${escapeHTML(state.name)}</title>
<style>
html, body { height: 100%; margin: 0; }
body { color: var(--vscode-foreground); background: var(--vscode-editor-background); font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); display: flex; flex-direction: column; }
header { padding: 6px 10px; border-bottom: 1px solid var(--vscode-panel-border, transparent); }
#summary { font-weight: 600; margin: 2px 0 6px; }
a.term { color: inherit; text-decoration: underline dotted; }
#toolbar { display: flex; gap: 6px; align-items: center; flex-wrap: wrap; }
#toolbar button { background: var(--vscode-button-secondaryBackground); color: var(--vscode-button-secondaryForeground); border: none; padding: 2px 8px; cursor: pointer; font: inherit; }
#toolbar button:hover { background: var(--vscode-button-secondaryHoverBackground); }
#zoom { min-width: 3.5em; text-align: center; opacity: 0.8; }
#search { background: var(--vscode-input-background); color: var(--vscode-input-foreground); border: 1px solid var(--vscode-input-border, transparent); padding: 1px 4px; font: inherit; width: 10em; }
#graph svg .node.loopbox polygon, #graph svg .node.loopbox path { stroke-width: 1.5; }
#graph svg .node.loopbox:hover path { stroke-width: 3; }
#graph svg .node.match ellipse, #graph svg .node.match path, #graph svg .node.match polygon { stroke: var(--vscode-editor-findMatchBorder, orange); stroke-width: 3; }
#graph.searching svg .node:not(.match), #graph.searching svg .edge { opacity: 0.35; }
#legend { display: flex; gap: 12px; flex-wrap: wrap; opacity: 0.9; margin-left: auto; }
.legend-item { display: inline-flex; align-items: center; gap: 4px; }
.lg-stroke { stroke: var(--vscode-foreground); }
.lg-loop { fill: #4e79a733; stroke: #4e79a7; stroke-width: 1.5; }
.lg-external { stroke: var(--vscode-foreground); stroke-dasharray: 3 2; }
.lg-preventing { stroke: var(--vscode-charts-red); stroke-width: 2; }
#graph { flex: 1; overflow: auto; position: relative; }
#graph svg { display: block; margin: 8px auto; }
#graph svg text { fill: var(--vscode-foreground); font-family: var(--vscode-font-family); }
#graph svg .graph > polygon { fill: transparent; stroke: none; }
#graph svg .node ellipse, #graph svg .node polygon { stroke: var(--vscode-foreground); }
#graph svg .node { cursor: pointer; }
#graph svg .node:hover ellipse { stroke-width: 2.5; }
#graph svg .cluster:not(.loop) polygon, #graph svg .cluster:not(.loop) path { stroke: var(--vscode-foreground); }
#graph svg .edge path { stroke: var(--vscode-foreground); }
#graph svg .edge polygon { fill: var(--vscode-foreground); stroke: var(--vscode-foreground); }
#graph svg .edge polygon[fill="none"] { fill: none; }
#graph svg .edge.preventing path { stroke: var(--vscode-charts-red); stroke-width: 1.8; }
#graph svg .edge.preventing polygon, #graph svg .edge.preventing polyline { fill: var(--vscode-charts-red); stroke: var(--vscode-charts-red); }
#graph svg .edge.preventing polygon[fill="none"] { fill: none; }
#graph svg .edge.preventing:hover path { stroke-width: 3; }
#tip { position: fixed; display: none; max-width: 420px; padding: 4px 8px; background: var(--vscode-editorHoverWidget-background); color: var(--vscode-editorHoverWidget-foreground); border: 1px solid var(--vscode-editorHoverWidget-border); pointer-events: none; z-index: 10; }
details { padding: 4px 10px 8px; border-top: 1px solid var(--vscode-panel-border, transparent); }
ul { margin: 4px 0; padding-left: 1.4em; }
.swatch { display: inline-block; width: 10px; height: 10px; margin-right: 6px; border-radius: 2px; vertical-align: baseline; }
#loops li[data-loop] { cursor: pointer; }
#loops li[data-loop]:hover { text-decoration: underline; }
.swatch.external { border: 1px dashed var(--vscode-foreground); width: 8px; height: 8px; }
</style></head>
<body>
<header>
<div id="summary"></div>
<div id="toolbar">
<button id="fit" title="Fit the whole diagram in the view">Fit</button>
<button id="zoom-out" title="Zoom out (Ctrl+wheel)">−</button><span id="zoom"></span><button id="zoom-in" title="Zoom in (Ctrl+wheel)">+</button>
<button id="actual" title="Actual size">1:1</button>
<button id="collapse" title="Draw each loop as one box (click a box to open it), or every binding">Collapse loops</button>
<input id="search" type="search" placeholder="Find a binding" title="Highlight the bindings (or the loops' boxes) whose names contain this">
<div id="legend">${legendHTML()}</div>
</div>
</header>
<div id="graph" data-state="${escapeHTML(JSON.stringify(state))}"></div>
<div id="tip"></div>
<details open id="loops-box"><summary>Loops</summary><ul id="loops"></ul></details>
<details id="preventing-box"><summary>Why loops are apart (fusion-preventing edges)</summary><ul id="preventing"></ul></details>
<script nonce="${nonce}" src="${scriptUri}"></script>
</body></html>`;
}
