// What the clustering view shows, as pure functions of the server's answer (unit-tested).

import { ClusteringResult, Summary } from './lsp_ext';

export type { ClusteringResult, Summary } from './lsp_ext';

// summaryLine is the line above the diagram: loops against the baselines.
export function summaryLine(s: Summary): string {
  const b = s.baselines;
  const megiddo = b.megiddoOptimal === false ? `${b.megiddo} (not proven optimal)` : `${b.megiddo}`;
  let line = `${s.name}: ${s.loops} ${s.loops === 1 ? 'loop' : 'loops'} (unfused ${b.unfused} · stream fusion ${b.stream} · Megiddo ${megiddo}), objective ${s.objective}`;
  if (s.fallback) line += ` — ${s.fallback}`;
  else if (!s.optimal) line += ' — not proven optimal';
  return line;
}

export function escapeHTML(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

// clusterList describes each loop in words, under the diagram.
export function clusterList(s: Summary): string[] {
  let loop = 0;
  return s.clusters.map((c) => {
    if (c.external) return `external: ${c.bindings.join(', ')}`;
    loop++;
    const parts = [`loop ${loop}: ${c.bindings.join(', ')}`];
    if (c.reads.length) parts.push(`reads ${c.reads.join(', ')}`);
    if (c.writes.length) parts.push(`writes ${c.writes.join(', ')}`);
    if (c.contracted.length) parts.push(`contracts ${c.contracted.join(', ')}`);
    return parts.join('; ');
  });
}

// loopItems is the cluster list as HTML list items.
export function loopItems(s: Summary): string {
  return clusterList(s).map((l) => `<li>${escapeHTML(l)}</li>`).join('');
}

// updateMessage is what the extension posts to an open clustering view when the text changes.
export function updateMessage(r: ClusteringResult): { type: 'update'; summary: string; loops: string; dot: string } {
  return { type: 'update', summary: summaryLine(r.summary), loops: loopItems(r.summary), dot: r.dot };
}

// webviewHTML is the page of the clustering view. The diagram is drawn by the bundled script
// (d3-graphviz on @hpcc-js/wasm, no network) from the DOT text passed in a data attribute;
// colours follow the editor theme through VS Code's CSS variables.
export function webviewHTML(r: ClusteringResult, scriptUri: string, cspSource: string, nonce: string): string {
  const items = loopItems(r.summary);
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src ${cspSource} data:; style-src ${cspSource} 'unsafe-inline'; script-src 'nonce-${nonce}' 'wasm-unsafe-eval' 'unsafe-eval';">
<title>Clustering of ${escapeHTML(r.function)}</title>
<style>
body { color: var(--vscode-foreground); background: var(--vscode-editor-background); font-family: var(--vscode-font-family); }
#summary { font-weight: bold; margin: 0.5em 0; }
#graph svg { max-width: 100%; height: auto; }
#graph svg text { fill: var(--vscode-foreground); }
#graph svg .edge path, #graph svg .node ellipse, #graph svg .node polygon, #graph svg .cluster polygon { stroke: var(--vscode-foreground); }
#graph svg .edge polygon[fill="black"] { fill: var(--vscode-foreground); stroke: var(--vscode-foreground); }
#graph svg polygon[fill="white"] { fill: transparent; }
</style></head>
<body>
<div id="summary">${escapeHTML(summaryLine(r.summary))}</div>
<ul id="loops">${items}</ul>
<div id="graph" data-dot="${escapeHTML(r.dot)}"></div>
<script nonce="${nonce}" src="${scriptUri}"></script>
</body></html>`;
}
