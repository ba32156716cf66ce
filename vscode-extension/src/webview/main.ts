// Runs inside the clustering webview: renders the page from the clustering (view.ts), lays
// out the DOT diagram with Graphviz compiled to WebAssembly (@hpcc-js/wasm-graphviz, bundled into this
// script, so it works offline), and makes it usable: the wheel scrolls, Ctrl+wheel zooms
// around the pointer, Fit shows it whole, a fusion-preventing edge shows its reason on hover,
// and a click on a binding reveals it in the editor. A large clustering comes with its loops
// collapsed to boxes (the server draws them): a click on a box opens that loop, the toolbar
// collapses or expands them all, a click on a loop in the list shows it, and the search box
// highlights bindings by name. The state survives window reloads (vscode.setState; the
// extension's serializer restores the panel from it).
import { Graphviz } from '@hpcc-js/wasm-graphviz';
import { ClusteringResult } from '../lsp_ext';
import { DiagramView, loopItems, preventingItems, summaryHTML, ViewState, UpdateMessage, ViewMessage } from '../view';

interface VSCodeAPI {
  postMessage(message: unknown): void;
  setState(state: unknown): void;
  getState(): unknown;
}
declare function acquireVsCodeApi(): VSCodeAPI;

const vscode = acquireVsCodeApi();
const graph = document.getElementById('graph')!;
const tip = document.getElementById('tip')!;
const zoomLabel = document.getElementById('zoom')!;
const collapseButton = document.getElementById('collapse') as HTMLButtonElement;
const search = document.getElementById('search') as HTMLInputElement;
const graphviz = Graphviz.load();

// The latest state this view saved (a view hidden and shown again is loaded afresh from its
// first HTML), else the one it was opened with.
let state: ViewState = (vscode.getState() as ViewState | undefined) ?? JSON.parse(graph.getAttribute('data-state') || '{}');
let natural = { width: 0, height: 0 }; // the diagram's size at scale 1, in CSS pixels
let scale = 1;
let userZoomed = false; // once the user zooms, new versions of the diagram keep the zoom
let generation = 0;
let firstRender = true;

async function render(r: ClusteringResult): Promise<void> {
  const mine = ++generation;
  state = { ...state, result: r };
  vscode.setState(state);
  document.getElementById('summary')!.innerHTML = summaryHTML(r.summary, r.terms);
  document.getElementById('loops')!.innerHTML = loopItems(r.summary);
  if (firstRender && r.summary.loops > 8) (document.getElementById('loops-box') as HTMLDetailsElement).open = false; // the diagram gets the room
  firstRender = false;
  collapseButton.style.display = r.summary.loops > 1 ? '' : 'none';
  collapseButton.textContent = r.collapsed ? 'Expand all' : 'Collapse loops';
  const prev = preventingItems(r.summary);
  document.getElementById('preventing')!.innerHTML = prev || '<li>none: every pair that could share a loop may</li>';
  let svgText: string;
  try {
    svgText = (await graphviz).dot(r.dot);
  } catch (err) {
    graph.textContent = `The diagram could not be drawn: ${err}`;
    return;
  }
  if (mine !== generation) return; // a newer clustering arrived meanwhile
  graph.innerHTML = svgText;
  const svg = graph.querySelector('svg');
  if (!svg) return;
  const vb = svg.viewBox.baseVal;
  natural = { width: vb.width * (4 / 3), height: vb.height * (4 / 3) }; // Graphviz's points to pixels
  svg.removeAttribute('width');
  svg.removeAttribute('height');
  prepare(svg);
  if (userZoomed) apply(scale);
  else fitWidth();
  highlight();
  if (pendingFocus) {
    const k = pendingFocus;
    pendingFocus = 0;
    focusLoop(k);
  }
  graph.setAttribute('data-rendered', 'true');
}

// askFor asks the extension to draw the diagram another way (collapsed, expanded loops).
function askFor(view: DiagramView): void {
  state = { ...state, view };
  vscode.setState(state);
  vscode.postMessage({ type: 'view', view } satisfies ViewMessage);
}

// expanded are the loops drawn open in the current diagram.
function expanded(): number[] {
  return state.result?.expanded ?? [];
}

let pendingFocus = 0; // a loop to show once the diagram that opens it arrives

// focusLoop scrolls the diagram to a loop (its box, or its frame) and marks it a moment.
function focusLoop(k: number): void {
  const el = graph.querySelector(`g[id="loop:${k}"]`) ?? graph.querySelector(`g.cluster.loop${k}`);
  if (!el) return;
  el.scrollIntoView({ block: 'center', inline: 'center' });
  el.classList.add('match');
  setTimeout(() => el.classList.remove('match'), 1500);
}

// highlight marks the bindings (and the loops' boxes) whose names contain the search text.
function highlight(): void {
  const text = search.value.trim().toLowerCase();
  graph.classList.toggle('searching', text !== '');
  let first: Element | undefined;
  for (const node of Array.from(graph.querySelectorAll('svg g.node'))) {
    const name = node.getAttribute('data-binding') ?? (node.classList.contains('loopbox') ? node.textContent ?? '' : '');
    const hit = text !== '' && name.toLowerCase().includes(text);
    node.classList.toggle('match', hit);
    if (hit && !first) first = node;
  }
  first?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
}

// prepare moves the reasons of fusion-preventing edges from SVG link titles (slow native
// tooltips) to our tooltip, and makes nodes clickable.
function prepare(svg: SVGSVGElement): void {
  for (const edge of Array.from(svg.querySelectorAll('g.edge'))) {
    const a = edge.querySelector('a');
    const reason = a?.getAttribute('xlink:title') || a?.getAttribute('title') || '';
    if (a) {
      a.removeAttribute('xlink:title');
      a.removeAttribute('title');
    }
    edge.querySelector('title')?.remove();
    if (edge.classList.contains('preventing') && reason) edge.setAttribute('data-reason', reason);
  }
  for (const node of Array.from(svg.querySelectorAll('g.node'))) {
    node.querySelector('title')?.remove();
    const id = node.getAttribute('id') || '';
    if (id.startsWith('binding:')) node.setAttribute('data-binding', id.slice('binding:'.length));
  }
}

function apply(s: number): void {
  scale = Math.min(8, Math.max(0.05, s));
  const svg = graph.querySelector('svg');
  if (svg) {
    svg.style.width = `${natural.width * scale}px`;
    svg.style.height = `${natural.height * scale}px`;
  }
  zoomLabel.textContent = `${Math.round(scale * 100)}%`;
}

// fitWidth shows the diagram at its natural size, or narrower to fit the view's width (it
// scrolls vertically): what a new diagram gets.
function fitWidth(): void {
  const room = graph.clientWidth - 16;
  // A view restored hidden (after a reload, behind another tab) has no width yet: fitting then
  // shrank the diagram to the least zoom, a blank view once shown. It is fitted when it gets
  // its size (the ResizeObserver below).
  if (room <= 0) return;
  apply(natural.width > 0 ? Math.min(1, room / natural.width) : 1);
}

// fitAll shows the whole diagram.
function fitAll(): void {
  const w = graph.clientWidth - 16;
  const h = graph.clientHeight - 16;
  if (natural.width > 0 && natural.height > 0) apply(Math.min(w / natural.width, h / natural.height));
}

// zoomAt zooms by factor keeping the point under (x, y) of the view in place.
function zoomAt(factor: number, x: number, y: number): void {
  const before = scale;
  const px = graph.scrollLeft + x;
  const py = graph.scrollTop + y;
  apply(scale * factor);
  const k = scale / before;
  graph.scrollLeft = px * k - x;
  graph.scrollTop = py * k - y;
  userZoomed = true;
}

graph.addEventListener('wheel', (e) => {
  if (!e.ctrlKey && !e.metaKey) return; // the wheel scrolls
  e.preventDefault();
  const r = graph.getBoundingClientRect();
  zoomAt(Math.exp(-e.deltaY * 0.002), e.clientX - r.left, e.clientY - r.top);
}, { passive: false });

document.getElementById('fit')!.addEventListener('click', () => { userZoomed = false; fitAll(); });
document.getElementById('actual')!.addEventListener('click', () => { userZoomed = true; apply(1); });
document.getElementById('zoom-in')!.addEventListener('click', () => zoomAt(1.25, graph.clientWidth / 2, graph.clientHeight / 2));
document.getElementById('zoom-out')!.addEventListener('click', () => zoomAt(0.8, graph.clientWidth / 2, graph.clientHeight / 2));

graph.addEventListener('mousemove', (e) => {
  const edge = (e.target as Element).closest?.('g.edge[data-reason]');
  if (!edge) {
    tip.style.display = 'none';
    return;
  }
  tip.textContent = edge.getAttribute('data-reason');
  tip.style.display = 'block';
  tip.style.left = `${Math.min(e.clientX + 12, window.innerWidth - tip.offsetWidth - 4)}px`;
  tip.style.top = `${e.clientY + 14}px`;
});
graph.addEventListener('mouseleave', () => { tip.style.display = 'none'; });
graph.addEventListener('click', (e) => {
  const box = (e.target as Element).closest?.('g.node.loopbox');
  if (box) {
    const k = Number((box.getAttribute('id') || '').replace('loop:', ''));
    if (k) {
      pendingFocus = k;
      askFor({ collapse: true, expand: [...expanded(), k] });
    }
    return;
  }
  const node = (e.target as Element).closest?.('g.node[data-binding]');
  if (node) vscode.postMessage({ type: 'reveal', name: node.getAttribute('data-binding') });
});
collapseButton.addEventListener('click', () => {
  askFor(state.result?.collapsed ? { collapse: false, expand: [] } : { collapse: true, expand: [] });
});
search.addEventListener('input', highlight);
document.getElementById('loops')!.addEventListener('click', (e) => {
  const item = (e.target as Element).closest?.('li[data-loop]');
  const k = Number(item?.getAttribute('data-loop'));
  if (!k) return;
  if (state.result?.collapsed && !expanded().includes(k)) {
    pendingFocus = k;
    askFor({ collapse: true, expand: [...expanded(), k] });
  } else {
    focusLoop(k);
  }
});

window.addEventListener('message', (event) => {
  const msg = event.data as UpdateMessage;
  if (msg && msg.type === 'update') void render(msg.result);
});
new ResizeObserver(() => { if (!userZoomed) fitWidth(); }).observe(graph);

if (state.result) void render(state.result);
