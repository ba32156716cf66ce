// cnf's own protocol, mirroring the server's lsp/ext.go (as rust-analyzer's lsp_ext.ts mirrors
// lsp_ext.rs): the commands, their results, and the cnf/status notification. Keep the two in
// step; nothing else in the extension spells these names or shapes.
export const commands = {
  showClustering: 'cnf.showClustering',
  showFusedProcess: 'cnf.showFusedProcess',
  showILP: 'cnf.showILP',
  proveOptimal: 'cnf.proveOptimal',
  showC: 'cnf.showC',
  benchmark: 'cnf.benchmark',
} as const;

// Baselines are the loop counts of Table 1.1's other clusterings (cluster.Baselines).
export interface Baselines {
  unfused: number;
  stream: number;
  megiddo: number;
  megiddoOptimal: boolean;
}

// ClusterSummary describes one cluster (cluster.ClusterSummary).
export interface ClusterSummary {
  bindings: string[];
  reads: string[];
  readsScalars?: string[];
  writes: string[];
  contracted: string[];
  scalars?: string[];
  external?: boolean;
  loop?: number; // 1-based; absent for an external
  color?: string; // the loop's colour (cluster.LoopColors)
}

// EdgeSummary is a fusion-preventing edge with its reasons (cluster.EdgeSummary).
export interface EdgeSummary {
  from: string;
  to: string;
  reasons: string[];
}

// Term is a word of the clustering's vocabulary (lsp/glossary.go).
export interface Term {
  line: string;
  url: string;
}

// Summary is a definition's clustering (cluster.Summary).
export interface Summary {
  name: string;
  loops: number;
  objective: number;
  optimal: boolean;
  // bound: no clustering has a smaller objective (the objective itself when optimal; 0: unknown).
  bound?: number;
  solveSeconds?: number;
  // work: the solve's deterministic work (work units); clocked: the clock's safety net stopped it.
  work?: number;
  clocked?: boolean;
  fallback?: string;
  note?: string;
  clusters: ClusterSummary[];
  baselines: Baselines;
  fusionPreventing?: EdgeSummary[];
}

// ClusteringResult is what cnf.showClustering returns.
export interface ClusteringResult {
  function: string;
  dot: string;
  summary: Summary;
  terms?: Record<string, Term>;
  collapsed?: boolean; // the diagram draws each loop as a box, except the loops in expanded
  expanded?: number[];
}

// DiagramView is the optional third argument of cnf.showClustering: how the view wants its
// diagram (collapse absent: the server's default, collapsed for large clusterings).
export interface DiagramView {
  collapse?: boolean;
  expand: number[];
}

// TextResult is what cnf.showFusedProcess, cnf.showILP and cnf.showC return.
export interface TextResult {
  function: string;
  text: string;
}

// DefinitionStatus is one definition's clustering in a status.
export interface DefinitionStatus {
  name: string;
  startLine: number;
  endLine: number;
  loops: number;
  optimal: boolean;
  // bound: for a clustering not proven optimal, the least objective any clustering can have
  // (0 or absent: unknown).
  bound?: number;
  baselines: Baselines;
  bindings?: BindingLoop[];
}

// BindingLoop places a binding that runs in a loop on the current text (lines 0-based,
// inclusive), with the loop's number and colour.
export interface BindingLoop {
  name: string;
  startLine: number;
  endLine: number;
  loop: number;
  color: string;
}

// Status says where the analysis of a document stands: "parsed" (its syntax and size
// diagnostics are out), "clustered" (its clustering's diagnostics and lenses are ready),
// "done" (background explanations finished too). Sent to a client whose capabilities include
// experimental.cnfStatus.
export interface Status {
  uri: string;
  version: number;
  state: 'parsed' | 'clustered' | 'done';
  errors: number;
  definitions: DefinitionStatus[];
}

// statusMethod is the method of the Status notification.
export const statusMethod = 'cnf/status';

// statusText is the status bar's text and tooltip for the definition at a line: its loops, or
// the count of errors while the text has some (the loops shown are then those of the last text
// that analysed cleanly).
export function statusText(s: Status | undefined, line: number): { text: string; tooltip: string } {
  const running = 'The cnf language server is running.';
  if (!s) return { text: '$(check) CNF', tooltip: running };
  let here: DefinitionStatus | undefined = s.definitions[0];
  for (const d of s.definitions) if (d.startLine <= line) here = d;
  const describe = (d: DefinitionStatus) => {
    const b = d.baselines;
    const meg = b.megiddoOptimal ? `${b.megiddo}` : `${b.megiddo} (not proven optimal)`;
    return `${d.name}: ${d.loops} ${d.loops === 1 ? 'loop' : 'loops'} (unfused ${b.unfused} · stream fusion ${b.stream} · Megiddo ${meg})${d.optimal ? '' : `, not proven optimal${d.bound ? ` (the optimum is at least ${d.bound})` : ''}`}`;
  };
  if (s.errors > 0) {
    const errors = `${s.errors} ${s.errors === 1 ? 'error' : 'errors'}`;
    return { text: `$(error) CNF · ${errors}`, tooltip: `The clustering shown is from the last text without errors${here ? ` (${describe(here)})` : ''}.` };
  }
  if (!here) return { text: '$(check) CNF', tooltip: running };
  const loops = `${here.loops} ${here.loops === 1 ? 'loop' : 'loops'}`;
  if (!here.optimal) return { text: `$(warning) CNF · ${loops}, not proven optimal`, tooltip: describe(here) };
  return { text: `$(check) CNF · ${loops}`, tooltip: describe(here) };
}
