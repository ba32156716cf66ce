// check.js drives `cnf lsp` from a real third-party LSP client (vscode-languageserver-protocol,
// the library VS Code's client is built on) and checks what a user would see for
// examples/normalize2.cnf: fusion-preventing diagnostics, the size scheme on hover, the
// "2 loops" code lens, the clustering and fused-process commands, and a size error appearing
// after an edit. Usage: node check.js CNF_BINARY EXAMPLES_DIR. Exit status 0 when all hold.
'use strict';
const { spawn } = require('child_process');
const fs = require('fs');
const path = require('path');
const { pathToFileURL } = require('url');
const P = require('vscode-languageserver-protocol/node');

const [cnf, examples] = process.argv.slice(2);
const file = path.resolve(examples, 'normalize2.cnf');
const uri = pathToFileURL(file).href;
const server = spawn(cnf, ['lsp', '--debounce', '20ms'], { stdio: ['pipe', 'pipe', 'inherit'] });
const conn = P.createProtocolConnection(new P.StreamMessageReader(server.stdout), new P.StreamMessageWriter(server.stdin));
const timer = setTimeout(() => fail('timed out after 60 s'), 60000);
let failures = 0;

function fail(msg) {
  console.error('FAIL', msg);
  server.kill();
  process.exit(1);
}
function check(ok, what) {
  console.log(ok ? 'ok  ' : 'FAIL', what);
  if (!ok) failures++;
}

// Diagnostics arrive twice per version: at once (syntax, names, sizes) and after clustering.
const published = [];
const waiters = [];
conn.onNotification(P.PublishDiagnosticsNotification.type, (p) => {
  if (p.uri !== uri) return;
  published.push(p);
  for (const w of waiters.splice(0)) w();
});
function waitFor(pred, what) {
  return new Promise((resolve) => {
    const test = () => {
      const hit = published.find(pred);
      if (hit) return resolve(hit);
      waiters.push(test);
    };
    test();
  }).catch(() => fail(what));
}
conn.onRequest('workspace/codeLens/refresh', () => null);
conn.listen();

(async () => {
  const init = await conn.sendRequest(P.InitializeRequest.type, {
    processId: process.pid, rootUri: null,
    capabilities: { textDocument: { hover: { contentFormat: ['markdown'] }, codeLens: {} }, workspace: { codeLens: { refreshSupport: true } } },
  });
  const caps = init.capabilities;
  check(caps.hoverProvider && caps.codeLensProvider, 'initialize: hover and code lens providers');
  check((caps.executeCommandProvider.commands || []).includes('cnf.showClustering'), 'initialize: cnf.showClustering command');
  await conn.sendNotification(P.InitializedNotification.type, {});
  const text = fs.readFileSync(file, 'utf8');
  await conn.sendNotification(P.DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'cnf', version: 1, text } });

  const full = await waitFor((p) => p.diagnostics.some((d) => d.code === 'fusion-preventing'), 'fusion-preventing diagnostics');
  const fp = full.diagnostics.filter((d) => d.code === 'fusion-preventing');
  check(fp.length === 2 && fp.every((d) => d.severity === P.DiagnosticSeverity.Hint), 'two Hint diagnostics (the default) on fusion-preventing edges');
  check(fp.some((d) => d.message.includes('sum1 is a fold')), 'the diagnostic gives the reason');
  check(!full.diagnostics.some((d) => d.severity === P.DiagnosticSeverity.Error), 'no errors');

  const lines = text.split('\n');
  const defLine = lines.findIndex((l) => l.startsWith('normalize2 xs'));
  const hover = await conn.sendRequest(P.HoverRequest.type, { textDocument: { uri }, position: { line: defLine, character: 2 } });
  check(hover && hover.contents.value.includes('∀k1. (xs : k1) → (ys1 : k1, ys2 : k1)'), 'hover on the definition shows the size scheme');

  const lenses = await conn.sendRequest(P.CodeLensRequest.type, { textDocument: { uri } });
  const title = (lenses || []).map((l) => l.command.title).find((t) => t.startsWith('2 loops'));
  check(title === '2 loops (unfused 5 · stream fusion 4 · Megiddo 3) — show clustering', 'code lens: ' + title);

  const cl = await conn.sendRequest(P.ExecuteCommandRequest.type, { command: 'cnf.showClustering', arguments: [uri, 'normalize2'] });
  check(cl.summary.loops === 2 && cl.summary.objective === 51, 'cnf.showClustering: 2 loops, objective 51');
  check(cl.dot.includes('cluster_0') && cl.dot.includes('cluster_1'), 'cnf.showClustering: DOT with both clusters');
  const fused = await conn.sendRequest(P.ExecuteCommandRequest.type, { command: 'cnf.showFusedProcess', arguments: [uri, 'normalize2', 1] });
  check(fused.text.includes('process --') && /^s0: +pull xs/m.test(fused.text) && fused.text.includes('if gts.v > 0'), 'cnf.showFusedProcess: the fused process of loop 1, states s0.. for people');

  const broken = text.replace('ys2  = map (/ sum2) xs', 'ys2  = map2 (+) gts ys1');
  await conn.sendNotification(P.DidChangeTextDocumentNotification.type, { textDocument: { uri, version: 2 }, contentChanges: [{ text: broken }] });
  const err = await waitFor((p) => p.version === 2 && p.diagnostics.some((d) => d.code === 'size'), 'a size error after the edit');
  const sizeErr = err.diagnostics.find((d) => d.code === 'size');
  check(sizeErr.message.startsWith('map2 needs gts and ys1 to have the same size') && sizeErr.relatedInformation.length > 0, 'size error while typing: ' + sizeErr.message);

  // A misspelt combinator gets a quick fix that edits it back.
  const typo = text.replace('ys2  = map (/ sum2) xs', 'ys2  = mapp (/ sum2) xs');
  await conn.sendNotification(P.DidChangeTextDocumentNotification.type, { textDocument: { uri, version: 3 }, contentChanges: [{ text: typo }] });
  const typoDiags = await waitFor((p) => p.version === 3 && p.diagnostics.some((d) => d.message.includes('did you mean map?')), 'the misspelt combinator');
  const typoErr = typoDiags.diagnostics.find((d) => d.message.includes('did you mean map?'));
  const actions = await conn.sendRequest(P.CodeActionRequest.type, { textDocument: { uri }, range: typoErr.range, context: { diagnostics: [typoErr] } });
  const fix = (actions || []).find((a) => a.kind === 'quickfix');
  const edits = fix && fix.edit && fix.edit.changes && fix.edit.changes[uri];
  check(caps.codeActionProvider && fix && fix.title === 'change to map' && edits.length === 1 && edits[0].newText === 'map', 'quick fix for mapp: ' + (fix && fix.title));

  await conn.sendRequest(P.ShutdownRequest.type);
  await conn.sendNotification(P.ExitNotification.type);
  server.on('exit', (code) => {
    clearTimeout(timer);
    check(code === 0, 'the server exits with status 0 after shutdown and exit');
    console.log(failures === 0 ? 'node client: all checks passed' : `node client: ${failures} checks failed`);
    process.exit(failures === 0 ? 0 : 1);
  });
})().catch((e) => fail(e && e.stack || e));
