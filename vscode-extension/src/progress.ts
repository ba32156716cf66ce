// progress.ts: how the server's work-done progresses look. vscode-languageclient shows them all
// in the status bar, where a progress cannot be cancelled; a proof of optimality runs without a
// time limit, so it is shown as a notification with Cancel (cancelling keeps what the proof
// found), and its outcome stays as a message. The other progresses (a clustering slower than
// half a second, while typing) stay in the status bar, out of the way.
import * as vscode from 'vscode';
import { LanguageClient, WorkDoneProgress, WorkDoneProgressBegin, WorkDoneProgressCancelNotification, WorkDoneProgressCreateRequest, WorkDoneProgressReport, WorkDoneProgressEnd } from 'vscode-languageclient/node';

// isProof says whether a progress is a proof of optimality (lsp/prove.go's title).
export function isProof(title: string): boolean {
  return title.startsWith('Proving ');
}

// showProgress takes over window/workDoneProgress/create from the client's default (call it once
// the client has started: starting installs the default).
export function showProgress(client: LanguageClient): void {
  client.onRequest(WorkDoneProgressCreateRequest.type, ({ token }) => {
    let report: (message: string) => void = () => {};
    let finish: () => void = () => {};
    let title = '';
    let ended = false;
    const handler = client.onProgress(WorkDoneProgress.type, token, (v: WorkDoneProgressBegin | WorkDoneProgressReport | WorkDoneProgressEnd) => {
      switch (v.kind) {
        case 'begin': {
          title = v.title;
          const proof = isProof(v.title);
          void vscode.window.withProgress(
            { location: proof ? vscode.ProgressLocation.Notification : vscode.ProgressLocation.Window, title: v.title, cancellable: proof && v.cancellable === true },
            (p, cancelled) => {
              cancelled.onCancellationRequested(() => void client.sendNotification(WorkDoneProgressCancelNotification.type, { token }));
              report = (message) => p.report({ message });
              if (v.message) report(v.message);
              return new Promise<void>((resolve) => {
                finish = resolve;
                if (ended) resolve();
              });
            });
          break;
        }
        case 'report':
          if (v.message) report(v.message);
          break;
        case 'end':
          ended = true;
          finish();
          handler.dispose();
          if (isProof(title) && v.message) void vscode.window.showInformationMessage(`${title}: ${v.message}`);
          break;
      }
    });
  });
}
