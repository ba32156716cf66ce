// Finding the cnf binary: the cnf.server.path setting, then the binary bundled in the
// extension, then cnf on PATH. Pure logic (file checks are passed in) so it is unit-tested.
import * as path from 'path';

export interface Found {
  command: string;
  source: 'setting' | 'bundled' | 'path';
}

export function findServer(
  setting: string,
  extensionPath: string,
  envPath: string,
  platform: string,
  isExecutable: (p: string) => boolean,
): Found | { error: string } {
  if (setting.trim() !== '') {
    const p = setting.trim();
    if (isExecutable(p)) return { command: p, source: 'setting' };
    return { error: `cnf.server.path is set to ${p}, which is not an executable file.` };
  }
  const exe = platform === 'win32' ? 'cnf.exe' : 'cnf';
  const bundled = path.join(extensionPath, 'bin', exe);
  if (isExecutable(bundled)) return { command: bundled, source: 'bundled' };
  for (const dir of envPath.split(platform === 'win32' ? ';' : ':')) {
    if (dir === '') continue;
    const candidate = path.join(dir, exe);
    if (isExecutable(candidate)) return { command: candidate, source: 'path' };
  }
  return { error: 'The cnf language server was not found: set cnf.server.path, or put cnf on PATH (build it with ./run.bash in the cnf repository).' };
}
