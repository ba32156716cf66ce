// Runs inside the clustering webview: lays out the DOT diagram with Graphviz compiled to
// WebAssembly (@hpcc-js/wasm through d3-graphviz), bundled into this script, so it works offline.
import { graphviz } from 'd3-graphviz';

function render(): void {
  const el = document.getElementById('graph');
  if (!el) return;
  const dot = el.getAttribute('data-dot') || 'digraph {}';
  graphviz('#graph', { useWorker: false, fit: true, zoom: true })
    .renderDot(dot)
    .on('end', () => el.setAttribute('data-rendered', 'true'));
}

window.addEventListener('message', (event) => {
  const msg = event.data;
  if (msg && msg.type === 'update') {
    document.getElementById('summary')!.textContent = msg.summary;
    document.getElementById('loops')!.innerHTML = msg.loops;
    document.getElementById('graph')!.setAttribute('data-dot', msg.dot);
    render();
  }
});
render();
