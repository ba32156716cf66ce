// The CNF extension: starts `cnf lsp` with vscode-languageclient, shows the server's answers
// (the clustering diagram in a webview, fused processes and the ILP as read-only documents that
// follow edits), and keeps a status bar item with the server state and the current
// definition's loop count.
import * as fs from 'fs';
import * as vscode from 'vscode';
import { LanguageClient, LanguageClientOptions, ServerOptions, State, ErrorAction, CloseAction } from 'vscode-languageclient/node';
import { findServer } from './server';
import { ClusteringResult, updateMessage, webviewHTML } from './view';

let client: LanguageClient | undefined;
let status: vscode.StatusBarItem;
let output: vscode.LogOutputChannel;
const panels = new Map<string, vscode.WebviewPanel>(); // clustering views by "uri#function"
const fusedScheme = 'cnf-fused';
const ilpScheme = 'cnf-ilp';
const contentChanged = new vscode.EventEmitter<vscode.Uri>();
const openViews = new Set<string>(); // virtual document URIs that are open

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  output = vscode.window.createOutputChannel('CNF', { log: true });
  status = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left, 10);
  status.command = 'cnf.showClustering';
  context.subscriptions.push(output, status, contentChanged);
  const provider: vscode.TextDocumentContentProvider = { onDidChange: contentChanged.event, provideTextDocumentContent: (uri) => virtualContent(uri) };
  context.subscriptions.push(
    vscode.workspace.registerTextDocumentContentProvider(fusedScheme, provider),
    vscode.workspace.registerTextDocumentContentProvider(ilpScheme, provider),
    vscode.commands.registerCommand('cnf.restartServer', () => restart(context)),
    vscode.workspace.onDidChangeTextDocument((e) => { if (e.document.languageId === 'cnf') scheduleRefresh(e.document.uri.toString()); }),
    vscode.workspace.onDidCloseTextDocument((d) => openViews.delete(d.uri.toString())),
    vscode.window.onDidChangeTextEditorSelection((e) => { if (e.textEditor.document.languageId === 'cnf') scheduleStatus(); }),
    vscode.window.onDidChangeActiveTextEditor(() => scheduleStatus()),
    vscode.languages.onDidChangeDiagnostics(() => scheduleStatus()),
  );
  await start(context);
}

export async function deactivate(): Promise<void> {
  if (client) await client.stop();
}

function setStatus(text: string, tooltip: string): void {
  status.text = text;
  status.tooltip = tooltip;
  status.show();
}

async function start(context: vscode.ExtensionContext): Promise<void> {
  const config = vscode.workspace.getConfiguration('cnf');
  // A .vsix does not always keep the executable bit of the bundled server.
  const bundled = vscode.Uri.joinPath(context.extensionUri, 'bin', 'cnf').fsPath;
  if (fs.existsSync(bundled) && !isExecutable(bundled)) {
    try { fs.chmodSync(bundled, 0o755); } catch (err) { output.appendLine(`cannot make ${bundled} executable: ${err}`); }
  }
  const found = findServer(config.get<string>('server.path', ''), context.extensionPath, process.env.PATH || '', process.platform, isExecutable);
  if ('error' in found) {
    setStatus('$(error) CNF', found.error);
    const choice = await vscode.window.showErrorMessage(found.error, 'Restart Server', 'Open Settings');
    if (choice === 'Restart Server') await restart(context);
    if (choice === 'Open Settings') await vscode.commands.executeCommand('workbench.action.openSettings', 'cnf.server.path');
    return;
  }
  output.appendLine(`Starting ${found.command} lsp (${found.source})`);
  const serverOptions: ServerOptions = { command: found.command, args: ['lsp'] };
  let crashes = 0;
  const clientOptions: LanguageClientOptions = {
    documentSelector: [{ language: 'cnf' }],
    outputChannel: output,
    initializationOptions: { cnf: settings() },
    synchronize: { configurationSection: 'cnf' },
    errorHandler: {
      error: () => ({ action: ErrorAction.Continue }),
      closed: () => {
        crashes++;
        setStatus('$(error) CNF', 'The cnf language server stopped.');
        void vscode.window.showErrorMessage('The cnf language server stopped unexpectedly.', 'Restart Server').then((c) => {
          if (c === 'Restart Server') void restart(context);
        });
        output.appendLine(`The server stopped (${crashes} time${crashes === 1 ? '' : 's'}).`);
        return { action: CloseAction.DoNotRestart, handled: true };
      },
    },
    middleware: {
      executeCommand: async (command, args, next) => {
        const full = await completeArguments(args);
        if (!full) return undefined;
        const result = await next(command, full);
        await show(context, command, full, result);
        return result;
      },
    },
  };
  client = new LanguageClient('cnf', 'CNF', serverOptions, clientOptions);
  client.onDidChangeState((e) => {
    if (e.newState === State.Running) {
      setStatus('$(check) CNF', 'The cnf language server is running.');
      // Open fused-process and ILP documents were rendered by the previous server (or show
      // that none was running): fetch them again.
      for (const v of openViews) contentChanged.fire(vscode.Uri.parse(v));
    }
    if (e.newState === State.Starting) setStatus('$(sync~spin) CNF', 'Starting the cnf language server.');
    if (e.newState === State.Stopped) setStatus('$(circle-slash) CNF', 'The cnf language server is stopped.');
  });
  try {
    await client.start();
    scheduleStatus();
  } catch (err) {
    setStatus('$(error) CNF', String(err));
    const choice = await vscode.window.showErrorMessage(`The cnf language server could not start: ${err}`, 'Restart Server');
    if (choice === 'Restart Server') await restart(context);
  }
}

async function restart(context: vscode.ExtensionContext): Promise<void> {
  if (client) {
    try { await client.stop(); } catch { /* already stopped */ }
    client = undefined;
  }
  await start(context);
}

function settings(): object {
  const c = vscode.workspace.getConfiguration('cnf');
  return { solver: { timeLimit: c.get('solver.timeLimit') }, debounce: c.get('debounce'), fusionDiagnostics: c.get('fusionDiagnostics') };
}

function isExecutable(p: string): boolean {
  try {
    fs.accessSync(p, fs.constants.X_OK);
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

// completeArguments fills in [uri, definition] from the active editor when a command comes
// from the palette; with several definitions the user picks one.
async function completeArguments(args: unknown[]): Promise<unknown[] | undefined> {
  if (args.length >= 2 && typeof args[0] === 'string' && typeof args[1] === 'string') return args;
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.document.languageId !== 'cnf' || !client) {
    void vscode.window.showInformationMessage('Open a .cnf file first.');
    return undefined;
  }
  const uri = editor.document.uri.toString();
  const symbols = (await client.sendRequest('textDocument/documentSymbol', { textDocument: { uri } })) as { name: string; range: { start: { line: number }; end: { line: number } } }[];
  const line = editor.selection.active.line;
  const here = symbols.find((s) => s.range.start.line <= line && line <= s.range.end.line);
  let name = here ? here.name : symbols.length === 1 ? symbols[0].name : undefined;
  if (!name && symbols.length > 1) name = await vscode.window.showQuickPick(symbols.map((s) => s.name), { placeHolder: 'Definition' });
  return name ? [uri, name, ...args.slice(2)] : undefined;
}

async function show(context: vscode.ExtensionContext, command: string, args: unknown[], result: unknown): Promise<void> {
  const [uri, name, loop] = args as [string, string, number | undefined];
  if (command === 'cnf.showClustering') {
    showClustering(context, uri, name, result as ClusteringResult);
  } else if (command === 'cnf.showFusedProcess' || command === 'cnf.showILP') {
    const scheme = command === 'cnf.showILP' ? ilpScheme : fusedScheme;
    const q = new URLSearchParams({ uri, function: name, loop: String(loop ?? 0) });
    const suffix = scheme === ilpScheme ? '.lp' : loop ? `.loop${loop}.fused` : '.fused';
    const view = vscode.Uri.from({ scheme, path: `/${name}${suffix}`, query: q.toString() });
    openViews.add(view.toString());
    const doc = await vscode.workspace.openTextDocument(view);
    await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: true, preserveFocus: true });
  }
}

function showClustering(context: vscode.ExtensionContext, uri: string, name: string, result: ClusteringResult): void {
  const key = `${uri}#${name}`;
  let panel = panels.get(key);
  if (!panel) {
    panel = vscode.window.createWebviewPanel('cnfClustering', `Clustering: ${name}`, { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, {
      enableScripts: true,
      localResourceRoots: [vscode.Uri.joinPath(context.extensionUri, 'dist')],
    });
    panels.set(key, panel);
    panel.onDidDispose(() => panels.delete(key));
    const script = panel.webview.asWebviewUri(vscode.Uri.joinPath(context.extensionUri, 'dist', 'webview.js')).toString();
    panel.webview.html = webviewHTML(result, script, panel.webview.cspSource, nonce());
  } else {
    void panel.webview.postMessage(updateMessage(result));
  }
  panel.reveal(vscode.ViewColumn.Beside, true);
}

function nonce(): string {
  let s = '';
  const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  for (let i = 0; i < 32; i++) s += chars.charAt(Math.floor(Math.random() * chars.length));
  return s;
}

async function virtualContent(view: vscode.Uri): Promise<string> {
  if (!client) return '-- the cnf language server is not running';
  const q = new URLSearchParams(view.query);
  const command = view.scheme === ilpScheme ? 'cnf.showILP' : 'cnf.showFusedProcess';
  const args: unknown[] = [q.get('uri'), q.get('function')];
  if (command === 'cnf.showFusedProcess' && Number(q.get('loop'))) args.push(Number(q.get('loop')));
  try {
    const r = (await client.sendRequest('workspace/executeCommand', { command, arguments: args })) as { text: string };
    return r.text;
  } catch (err) {
    return `-- ${err instanceof Error ? err.message : String(err)}`;
  }
}

// After an edit, the open views of that document are refreshed once the server has had time
// to cluster the new text (its debounce plus solving).
const timers = new Map<string, NodeJS.Timeout>();
function scheduleRefresh(uri: string): void {
  clearTimeout(timers.get(uri));
  timers.set(uri, setTimeout(() => void refresh(uri), 400 + (vscode.workspace.getConfiguration('cnf').get<number>('debounce') ?? 150)));
}

async function refresh(uri: string): Promise<void> {
  for (const v of openViews) {
    if (new URLSearchParams(vscode.Uri.parse(v).query).get('uri') === uri) contentChanged.fire(vscode.Uri.parse(v));
  }
  for (const [key] of panels) {
    const [u, name] = key.split('#');
    if (u !== uri || !client) continue;
    try {
      const r = (await client.sendRequest('workspace/executeCommand', { command: 'cnf.showClustering', arguments: [u, name] })) as ClusteringResult;
      void panels.get(key)?.webview.postMessage(updateMessage(r));
    } catch { /* the text has errors: keep the last diagram */ }
  }
  scheduleStatus();
}

// The status bar shows the server state and, from the definition lens, the loop count of the
// definition under the cursor; while the file has errors it shows their count instead, since
// the lenses then describe the last text that analysed cleanly.
let statusTimer: NodeJS.Timeout | undefined;
function scheduleStatus(): void {
  clearTimeout(statusTimer);
  statusTimer = setTimeout(() => void updateStatus(), 300);
}

async function updateStatus(): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!client || client.state !== State.Running) return;
  if (!editor || editor.document.languageId !== 'cnf') {
    setStatus('$(check) CNF', 'The cnf language server is running.');
    return;
  }
  try {
    const lenses = (await client.sendRequest('textDocument/codeLens', { textDocument: { uri: editor.document.uri.toString() } })) as { range: { start: { line: number } }; command?: { title: string; command: string } }[];
    const line = editor.selection.active.line;
    const defs = lenses.filter((l) => l.command?.command === 'cnf.showClustering').sort((a, b) => a.range.start.line - b.range.start.line);
    let current = defs[0];
    for (const d of defs) if (d.range.start.line <= line) current = d;
    const loops = current?.command?.title.split(' (')[0];
    const errors = vscode.languages.getDiagnostics(editor.document.uri).filter((d) => d.severity === vscode.DiagnosticSeverity.Error).length;
    if (errors > 0) {
      setStatus(`$(error) CNF · ${errors} ${errors === 1 ? 'error' : 'errors'}`, `The clustering shown is from the last text without errors${loops ? ` (${current!.command!.title})` : ''}.`);
      return;
    }
    setStatus(loops ? `$(check) CNF · ${loops}` : '$(check) CNF', loops ? `${current!.command!.title}` : 'The cnf language server is running.');
  } catch { /* keep the last status */ }
}

export const _test = { completeArguments };
