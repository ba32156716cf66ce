// The CNF extension: starts `cnf lsp` with vscode-languageclient, shows the server's answers
// (the clustering diagram in a webview that survives reloads, fused processes and the ILP as
// read-only documents that follow edits), colours each binding with its loop's colour, and
// keeps a status bar item with the server state and the current definition's loop count. The
// server says when an analysis is done (cnf/status, see lsp_ext.ts): views refresh then,
// never on a guessed timer.
import * as fs from 'fs';
import * as vscode from 'vscode';
import { LanguageClient, LanguageClientOptions, ServerOptions, State, ErrorAction, CloseAction, StaticFeature, ClientCapabilities, FeatureState } from 'vscode-languageclient/node';
import { bundledPath, findServer, installURL } from './server';
import { ClusteringResult, DiagramView, TextResult, Status, commands, statusMethod, statusText } from './lsp_ext';
import { updateMessage, webviewHTML, ViewState, RevealMessage, ViewMessage } from './view';
import { gutterIcon, loopSpans, LoopColorStyle } from './loopcolors';
import { showProgress } from './progress';

const fusedScheme = 'cnf-fused';
const ilpScheme = 'cnf-ilp';
const cScheme = 'cnf-c';
const clusteringView = 'cnfClustering';

// ClusteringPanel is an open clustering view.
interface ClusteringPanel {
  panel: vscode.WebviewPanel;
  uri: string;
  name: string;
  view?: DiagramView; // how its diagram is drawn, once the user has chosen
}

// The extension's state, in one place.
const ext = {
  context: undefined as vscode.ExtensionContext | undefined,
  client: undefined as LanguageClient | undefined,
  statusItem: undefined as vscode.StatusBarItem | undefined,
  output: undefined as vscode.LogOutputChannel | undefined,
  panels: new Map<string, ClusteringPanel>(), // clustering views by "uri#function"
  loopColors: new Map<string, vscode.TextEditorDecorationType>(), // by style and colour
  started: Promise.resolve() as Promise<void>, // settles once the client has started (or failed to)
  openViews: new Set<string>(), // virtual document URIs that are open
  statuses: new Map<string, Status>(), // the latest cnf/status per document URI
  contentChanged: new vscode.EventEmitter<vscode.Uri>(),
};

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  ext.context = context;
  ext.output = vscode.window.createOutputChannel('CNF', { log: true });
  ext.statusItem = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left, 10);
  ext.statusItem.command = commands.showClustering;
  context.subscriptions.push(ext.output, ext.statusItem, ext.contentChanged);
  const provider: vscode.TextDocumentContentProvider = { onDidChange: ext.contentChanged.event, provideTextDocumentContent: (uri) => virtualContent(uri) };
  context.subscriptions.push(
    vscode.workspace.registerTextDocumentContentProvider(fusedScheme, provider),
    vscode.workspace.registerTextDocumentContentProvider(ilpScheme, provider),
    vscode.workspace.registerTextDocumentContentProvider(cScheme, provider),
    vscode.commands.registerCommand('cnf.restartServer', () => restart()),
    vscode.commands.registerCommand('cnf.openExample', () => openExample()),
    vscode.commands.registerCommand('cnf.showServerLog', () => ext.output!.show(true)),
    vscode.commands.registerCommand('cnf.showVersion', () => showVersion()),
    vscode.workspace.onDidCloseTextDocument((d) => {
      ext.openViews.delete(d.uri.toString());
      ext.statuses.delete(d.uri.toString());
    }),
    vscode.window.onDidChangeTextEditorSelection((e) => { if (e.textEditor.document.languageId === 'cnf') updateStatus(); }),
    vscode.window.onDidChangeActiveTextEditor(() => updateStatus()),
    vscode.window.onDidChangeVisibleTextEditors(() => colourLoops()),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('cnf.loopColors')) colourLoops();
      if (e.affectsConfiguration('cnf.server.path')) void restart();
    }),
    // Trusting the workspace makes cnf.server.path and PATH usable: start again with them.
    vscode.workspace.onDidGrantWorkspaceTrust(() => restart()),
    vscode.window.registerWebviewPanelSerializer(clusteringView, { deserializeWebviewPanel: (panel, state) => restorePanel(panel, state as ViewState | undefined) }),
    { dispose: () => { for (const d of ext.loopColors.values()) d.dispose(); } },
  );
  ext.started = start();
  await ext.started;
}

export async function deactivate(): Promise<void> {
  if (ext.client) await ext.client.stop();
}

function setStatus(text: string, tooltip: string): void {
  const item = ext.statusItem!;
  item.text = text;
  item.tooltip = tooltip;
  item.show();
}

// statusFeature tells the server that this client wants cnf/status notifications.
class StatusFeature implements StaticFeature {
  fillClientCapabilities(capabilities: ClientCapabilities): void {
    capabilities.experimental = { ...(capabilities.experimental as object | undefined), cnfStatus: true };
  }
  initialize(): void {}
  getState(): FeatureState {
    return { kind: 'static' };
  }
  clear(): void {}
}

async function start(): Promise<void> {
  const context = ext.context!;
  const config = vscode.workspace.getConfiguration('cnf');
  // A .vsix does not always keep the executable bit of the bundled server.
  const bundled = bundledPath(context.extensionPath, process.platform, process.arch);
  if (fs.existsSync(bundled) && !isExecutable(bundled)) {
    try { fs.chmodSync(bundled, 0o755); } catch (err) { ext.output!.appendLine(`cannot make ${bundled} executable: ${err}`); }
  }
  const machine = { platform: process.platform, arch: process.arch, envPath: process.env.PATH || '', trusted: vscode.workspace.isTrusted };
  const found = findServer(config.get<string>('server.path', ''), context.extensionPath, machine, isExecutable);
  if ('error' in found) {
    setStatus('$(error) CNF', found.error);
    const actions = found.install ? ['How to Install', 'Open Settings', 'Restart Server'] : machine.trusted ? ['Open Settings', 'Restart Server'] : ['Manage Workspace Trust'];
    // Not awaited: activation must not wait for the user's answer (it left the extension
    // half-activated, its views blank, until the notification was dismissed by hand).
    void vscode.window.showErrorMessage(found.error, ...actions).then(async (choice) => {
      if (choice === 'How to Install') await vscode.env.openExternal(vscode.Uri.parse(installURL));
      if (choice === 'Restart Server') await restart();
      if (choice === 'Open Settings') await vscode.commands.executeCommand('workbench.action.openSettings', 'cnf.server.path');
      if (choice === 'Manage Workspace Trust') await vscode.commands.executeCommand('workbench.trust.manage');
    });
    return;
  }
  ext.output!.appendLine(`Starting ${found.command} lsp (${found.source})`);
  const serverOptions: ServerOptions = { command: found.command, args: ['lsp'] };
  let crashes = 0;
  const clientOptions: LanguageClientOptions = {
    documentSelector: [{ language: 'cnf' }],
    outputChannel: ext.output,
    initializationOptions: { cnf: settings() },
    synchronize: { configurationSection: 'cnf' },
    errorHandler: {
      error: () => ({ action: ErrorAction.Continue }),
      closed: () => {
        crashes++;
        setStatus('$(error) CNF', 'The cnf language server stopped.');
        void vscode.window.showErrorMessage('The cnf language server stopped unexpectedly.', 'Restart Server').then((c) => {
          if (c === 'Restart Server') void restart();
        });
        ext.output!.appendLine(`The server stopped (${crashes} time${crashes === 1 ? '' : 's'}).`);
        return { action: CloseAction.DoNotRestart, handled: true };
      },
    },
    middleware: {
      executeCommand: async (command, args, next) => {
        const full = await completeArguments(args);
        if (!full) return undefined;
        let result: unknown;
        try {
          // Straight to the server, as the views' refreshes go: next() has the client report a
          // failure as "Request workspace/executeCommand failed ... Code: -32602" first.
          result = ext.client ? await ext.client.sendRequest('workspace/executeCommand', { command, arguments: full }) : await next(command, full);
        } catch (err) {
          // The server's reason ("normalize2" has no clustering yet: it has errors ...), said
          // as a message of ours rather than the client's "Request ... failed. Code: -32602".
          const message = err instanceof Error ? err.message : String(err);
          void vscode.window.showWarningMessage(message.replace(/^cnf\.\w+: /, ''));
          return undefined;
        }
        await show(command, full, result);
        return result;
      },
    },
  };
  const client = new LanguageClient('cnf', 'CNF', serverOptions, clientOptions);
  client.registerFeature(new StatusFeature());
  client.onDidChangeState((e) => {
    if (e.newState === State.Running) {
      setStatus('$(check) CNF', 'The cnf language server is running.');
      // Open fused-process and ILP documents were rendered by the previous server (or show
      // that none was running): fetch them again.
      for (const v of ext.openViews) ext.contentChanged.fire(vscode.Uri.parse(v));
    }
    if (e.newState === State.Starting) setStatus('$(sync~spin) CNF', 'Starting the cnf language server.');
    if (e.newState === State.Stopped) setStatus('$(circle-slash) CNF', 'The cnf language server is stopped.');
  });
  ext.client = client;
  client.onNotification(statusMethod, (s: Status) => onStatus(s));
  try {
    await client.start();
    showProgress(client);
    updateStatus();
  } catch (err) {
    setStatus('$(error) CNF', String(err));
    void vscode.window.showErrorMessage(`The cnf language server could not start: ${err}`, 'Restart Server').then((choice) => {
      if (choice === 'Restart Server') void restart();
    });
  }
}

// openExample opens the walkthrough's example as an untitled document, so that the user can
// edit it without touching the extension's own copy.
async function openExample(): Promise<void> {
  const file = vscode.Uri.joinPath(ext.context!.extensionUri, 'examples', 'normalize2.cnf');
  const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(file));
  const doc = await vscode.workspace.openTextDocument({ language: 'cnf', content: text });
  await vscode.window.showTextDocument(doc);
}

// showVersion says which cnf serves the editor (its serverInfo) and this extension's version.
async function showVersion(): Promise<void> {
  const info = ext.client?.initializeResult?.serverInfo;
  const ext_ = ext.context!.extension.packageJSON as { version?: string };
  const server = info ? `${info.name} ${info.version ?? ''}`.trim() : 'no cnf language server is running';
  await vscode.window.showInformationMessage(`CNF extension ${ext_.version ?? '?'} · server: ${server}`);
}

async function restart(): Promise<void> {
  if (ext.client) {
    try { await ext.client.stop(); } catch { /* already stopped */ }
    ext.client = undefined;
  }
  ext.statuses.clear();
  await start();
}

function settings(): object {
  const c = vscode.workspace.getConfiguration('cnf');
  return {
    solver: { timeLimit: c.get('solver.timeLimit'), rates: c.get('solver.rates') }, debounce: c.get('debounce'), fusionDiagnostics: c.get('fusionDiagnostics'),
    inlayHints: { loops: c.get('inlayHints.loops'), sizes: c.get('inlayHints.sizes') }, codeLens: { enable: c.get('codeLens.enable') },
  };
}

function isExecutable(p: string): boolean {
  try {
    fs.accessSync(p, fs.constants.X_OK);
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

// onStatus records where a document's analysis stands; once its clustering is ready, the open
// views of that document are fetched again.
function onStatus(s: Status): void {
  ext.statuses.set(s.uri, s);
  if (s.state === 'clustered') void refresh(s.uri);
  updateStatus();
  colourLoops();
}

// colourLoops gives each binding of the visible CNF editors its loop's colour, as the setting
// cnf.loopColors asks: a faint left border (the default), a bar in the gutter, or nothing.
function colourLoops(): void {
  const style = vscode.workspace.getConfiguration('cnf').get<LoopColorStyle>('loopColors', 'border');
  const used = new Map<string, vscode.Range[]>();
  for (const key of ext.loopColors.keys()) used.set(key, []);
  const perEditor = new Map<vscode.TextEditor, Map<string, vscode.Range[]>>();
  for (const editor of vscode.window.visibleTextEditors) {
    if (editor.document.languageId !== 'cnf') continue;
    const mine = new Map<string, vscode.Range[]>();
    for (const [color, spans] of loopSpans(ext.statuses.get(editor.document.uri.toString()), style)) {
      const key = `${style}:${color}`;
      if (!ext.loopColors.has(key)) ext.loopColors.set(key, loopDecoration(style, color));
      mine.set(key, spans.map((sp) => new vscode.Range(sp.startLine, 0, sp.endLine, 0)));
    }
    perEditor.set(editor, mine);
  }
  for (const [editor, mine] of perEditor) {
    for (const [key, deco] of ext.loopColors) editor.setDecorations(deco, mine.get(key) ?? []);
  }
}

function loopDecoration(style: LoopColorStyle, color: string): vscode.TextEditorDecorationType {
  if (style === 'gutter') return vscode.window.createTextEditorDecorationType({ gutterIconPath: vscode.Uri.parse(gutterIcon(color)), gutterIconSize: 'contain' });
  return vscode.window.createTextEditorDecorationType({ isWholeLine: true, borderWidth: '0 0 0 3px', borderStyle: 'solid', borderColor: color + 'b0' });
}

// completeArguments fills in [uri, definition] from the active editor when a command comes
// from the palette; with several definitions the user picks one.
async function completeArguments(args: unknown[]): Promise<unknown[] | undefined> {
  if (args.length >= 2 && typeof args[0] === 'string' && typeof args[1] === 'string') return args;
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.document.languageId !== 'cnf' || !ext.client) {
    void vscode.window.showInformationMessage('Open a .cnf file first.');
    return undefined;
  }
  const uri = editor.document.uri.toString();
  const symbols = (await ext.client.sendRequest('textDocument/documentSymbol', { textDocument: { uri } })) as { name: string; range: { start: { line: number }; end: { line: number } } }[];
  const line = editor.selection.active.line;
  const here = symbols.find((s) => s.range.start.line <= line && line <= s.range.end.line);
  let name = here ? here.name : symbols.length === 1 ? symbols[0].name : undefined;
  if (!name && symbols.length > 1) name = await vscode.window.showQuickPick(symbols.map((s) => s.name), { placeHolder: 'Definition' });
  return name ? [uri, name, ...args.slice(2)] : undefined;
}

async function show(command: string, args: unknown[], result: unknown): Promise<void> {
  const [uri, name, loop] = args as [string, string, number | undefined];
  if (command === commands.showClustering) {
    showClustering(uri, name, result as ClusteringResult);
  } else if (command === commands.showFusedProcess || command === commands.showILP || command === commands.showC) {
    const scheme = command === commands.showILP ? ilpScheme : command === commands.showC ? cScheme : fusedScheme;
    const q = new URLSearchParams({ uri, function: name, loop: String(loop ?? 0) });
    // The suffix gives the view its language: .c is C, highlighted by the editor's own grammar.
    const suffix = scheme === ilpScheme ? '.lp' : scheme === cScheme ? '.c' : loop ? `.loop${loop}.fused` : '.fused';
    const view = vscode.Uri.from({ scheme, path: `/${name}${suffix}`, query: q.toString() });
    ext.openViews.add(view.toString());
    const doc = await vscode.workspace.openTextDocument(view);
    await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: true, preserveFocus: true });
  }
}

function showClustering(uri: string, name: string, result: ClusteringResult): void {
  const key = `${uri}#${name}`;
  const open = ext.panels.get(key);
  if (open) {
    if (open.view) void redraw(open); // drawn as the user chose, not the default
    else void open.panel.webview.postMessage(updateMessage(result));
    open.panel.reveal(undefined, true);
    return;
  }
  const panel = vscode.window.createWebviewPanel(clusteringView, `Clustering: ${name}`, { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, webviewOptions());
  setUpPanel(panel, { uri, name, result });
}

function webviewOptions(): vscode.WebviewOptions & vscode.WebviewPanelOptions {
  return { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(ext.context!.extensionUri, 'dist')] };
}

// setUpPanel gives a clustering view its page and its handlers.
function setUpPanel(panel: vscode.WebviewPanel, state: ViewState): void {
  const key = `${state.uri}#${state.name}`;
  const entry: ClusteringPanel = { panel, uri: state.uri, name: state.name, view: state.view };
  ext.panels.set(key, entry);
  panel.webview.options = webviewOptions();
  panel.onDidDispose(() => { if (ext.panels.get(key)?.panel === panel) ext.panels.delete(key); });
  // A view shown again (a tab brought forward, a restored view first shown) gets the current
  // diagram: an update posted while it was hidden may not have reached it.
  let visible = panel.visible;
  panel.onDidChangeViewState((e) => {
    if (e.webviewPanel.visible && !visible) void redraw(entry);
    visible = e.webviewPanel.visible;
  });
  panel.webview.onDidReceiveMessage((m: RevealMessage | ViewMessage) => {
    if (m && m.type === 'reveal') void revealBinding(state.uri, m.name);
    if (m && m.type === 'view') {
      entry.view = m.view;
      void redraw(entry);
    }
  });
  const script = panel.webview.asWebviewUri(vscode.Uri.joinPath(ext.context!.extensionUri, 'dist', 'webview.js')).toString();
  panel.webview.html = webviewHTML(state, script, panel.webview.cspSource, nonce());
}

// restorePanel brings back a clustering view after a window reload: at once with the
// clustering it showed, then with a fresh one once the server has analysed the document.
async function restorePanel(panel: vscode.WebviewPanel, state: ViewState | undefined): Promise<void> {
  if (!state || !state.uri || !state.name || !state.result) {
    panel.dispose(); // nothing to show: better no view than an empty one
    return;
  }
  panel.title = `Clustering: ${state.name}`;
  setUpPanel(panel, state);
  await ext.started;
  try {
    // The server analyses open documents: open it (without showing it) if the reload did not.
    await vscode.workspace.openTextDocument(vscode.Uri.parse(state.uri));
    await refresh(state.uri);
  } catch (err) {
    ext.output?.appendLine(`restoring the clustering of ${state.name}: ${err}`);
  }
}

// revealBinding shows a binding in its document (a node clicked in the diagram).
async function revealBinding(uri: string, name: string): Promise<void> {
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.parse(uri));
  const symbols = (await vscode.commands.executeCommand<vscode.DocumentSymbol[]>('vscode.executeDocumentSymbolProvider', doc.uri)) ?? [];
  const found = symbols.flatMap((s) => s.children).find((c) => c.name === name);
  const visible = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === uri);
  const editor = await vscode.window.showTextDocument(doc, { viewColumn: visible?.viewColumn ?? vscode.ViewColumn.One, preserveFocus: false });
  if (found) {
    editor.selection = new vscode.Selection(found.selectionRange.start, found.selectionRange.end);
    editor.revealRange(found.range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  }
}

function nonce(): string {
  let s = '';
  const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  for (let i = 0; i < 32; i++) s += chars.charAt(Math.floor(Math.random() * chars.length));
  return s;
}

async function virtualContent(view: vscode.Uri): Promise<string> {
  if (!ext.client) return '-- the cnf language server is not running';
  const q = new URLSearchParams(view.query);
  const command = view.scheme === ilpScheme ? commands.showILP : view.scheme === cScheme ? commands.showC : commands.showFusedProcess;
  const args: unknown[] = [q.get('uri'), q.get('function')];
  if (command === commands.showFusedProcess && Number(q.get('loop'))) args.push(Number(q.get('loop')));
  try {
    const r = (await ext.client.sendRequest('workspace/executeCommand', { command, arguments: args })) as TextResult;
    return r.text;
  } catch (err) {
    return `-- ${err instanceof Error ? err.message : String(err)}`;
  }
}

// refresh fetches the open views of a document again (its clustering has just changed).
async function refresh(uri: string): Promise<void> {
  for (const v of ext.openViews) {
    if (new URLSearchParams(vscode.Uri.parse(v).query).get('uri') === uri) ext.contentChanged.fire(vscode.Uri.parse(v));
  }
  for (const p of ext.panels.values()) {
    if (p.uri === uri) await redraw(p);
  }
}

// redraw fetches a clustering view's diagram, drawn as the view asks (loops collapsed or not).
async function redraw(p: ClusteringPanel): Promise<void> {
  if (!ext.client) return;
  const args: unknown[] = [p.uri, p.name];
  if (p.view) args.push(p.view);
  try {
    const r = (await ext.client.sendRequest('workspace/executeCommand', { command: commands.showClustering, arguments: args })) as ClusteringResult;
    void p.panel.webview.postMessage(updateMessage(r));
  } catch { /* the text has errors: keep the last diagram */ }
}

// updateStatus shows the server state and, from the latest cnf/status of the active document,
// the loop count of the definition under the cursor (or the count of errors).
function updateStatus(): void {
  const editor = vscode.window.activeTextEditor;
  if (!ext.client || ext.client.state !== State.Running) return;
  if (!editor || editor.document.languageId !== 'cnf') {
    setStatus('$(check) CNF', 'The cnf language server is running.');
    return;
  }
  const { text, tooltip } = statusText(ext.statuses.get(editor.document.uri.toString()), editor.selection.active.line);
  setStatus(text, tooltip);
}

export const _test = { completeArguments };
