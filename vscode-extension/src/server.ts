// Finding the cnf binary. Pure logic (the file checks are passed in) so that every combination
// is unit-tested.
//
// Order: the cnf.server.path setting (the user's explicit choice; ignored in an untrusted
// workspace, where a workspace's settings could name any program), then the server bundled in
// a platform-specific .vsix, then cnf on PATH. The bundled server lives in bin/<target>/, the
// target named as vsce names them (linux-x64, darwin-arm64, win32-x64, ...), and is used only
// when that target is the machine's own process.platform-process.arch: a .vsix built for
// another machine (or copied by hand) never runs a binary that cannot run here. An untrusted
// workspace runs the bundled server only.
import * as path from 'path';

export interface Found {
  command: string;
  source: 'setting' | 'bundled' | 'path';
}

export interface NotFound {
  error: string;
  // install says the remedy is installing cnf (the message offers the instructions); false
  // when the setting is wrong or the workspace is untrusted.
  install: boolean;
}

export interface Machine {
  platform: string; // process.platform
  arch: string; // process.arch
  envPath: string; // process.env.PATH
  trusted: boolean; // vscode.workspace.isTrusted
}

// installURL is where the message's "How to Install" button leads.
export const installURL = 'https://github.com/cnf-tools/cnf#installing';

// target is vsce's name for the machine: "linux-x64", "darwin-arm64", "win32-x64", ...
export function target(platform: string, arch: string): string {
  return `${platform}-${arch}`;
}

// bundledPath is where a platform-specific .vsix keeps its server.
export function bundledPath(extensionPath: string, platform: string, arch: string): string {
  return path.join(extensionPath, 'bin', target(platform, arch), platform === 'win32' ? 'cnf.exe' : 'cnf');
}

export function findServer(
  setting: string,
  extensionPath: string,
  m: Machine,
  isExecutable: (p: string) => boolean,
): Found | NotFound {
  const p = setting.trim();
  if (p !== '' && m.trusted) {
    if (isExecutable(p)) return { command: p, source: 'setting' };
    return { error: `cnf.server.path is set to ${p}, which is not an executable file.`, install: false };
  }
  const bundled = bundledPath(extensionPath, m.platform, m.arch);
  if (isExecutable(bundled)) return { command: bundled, source: 'bundled' };
  if (!m.trusted) {
    return {
      error: `This workspace is not trusted, and this CNF extension has no cnf server for ${target(m.platform, m.arch)} of its own: ` +
        'trust the workspace to use cnf from cnf.server.path or PATH.',
      install: false,
    };
  }
  const exe = m.platform === 'win32' ? 'cnf.exe' : 'cnf';
  for (const dir of m.envPath.split(m.platform === 'win32' ? ';' : ':')) {
    if (dir === '') continue;
    const candidate = path.join(dir, exe);
    if (isExecutable(candidate)) return { command: candidate, source: 'path' };
  }
  return {
    error: `The cnf language server was not found: this extension has no server for ${target(m.platform, m.arch)}, ` +
      'and cnf is not on PATH. Install cnf (go install github.com/cnf-tools/cnf/cmd/cnf@latest), or set cnf.server.path.',
    install: true,
  };
}
