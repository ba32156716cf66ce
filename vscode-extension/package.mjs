// Packages the extension as a .vsix: with --target T and --server FILE, a platform-specific
// package whose bundled server is bin/T/cnf (the extension runs it only on a T machine); with
// --host, T is this machine; with neither, a universal package with no server (the extension
// then uses cnf.server.path or cnf on PATH). --version V stamps V into the package (release
// builds); --out names the .vsix. The examples the walkthrough opens come from ../examples.
//
//   node package.mjs --host --server ../bin/cnf --out cnf.vsix
//   node package.mjs --target linux-arm64 --server dist/cnf-linux-arm64 --version 0.2.0 --out cnf-linux-arm64.vsix
//   node package.mjs --out cnf-universal.vsix
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { execFileSync } from 'child_process';
import { join } from 'path';

const args = process.argv.slice(2);
const opt = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
let target = opt('--target');
if (args.includes('--host')) target = `${process.platform}-${process.arch}`;
const server = opt('--server');
const version = opt('--version');
const out = opt('--out') ?? (target ? `cnf-${target}.vsix` : 'cnf-universal.vsix');
if (target && !server) throw new Error('--target needs --server FILE');

rmSync('bin', { recursive: true, force: true });
rmSync('examples', { recursive: true, force: true });
mkdirSync('examples');
for (const name of ['normalize2.cnf', 'closestPoints.cnf']) copyFileSync(join('..', 'examples', name), join('examples', name));
if (target) {
  const exe = target.startsWith('win32-') ? 'cnf.exe' : 'cnf';
  mkdirSync(join('bin', target), { recursive: true });
  copyFileSync(server, join('bin', target, exe));
  chmodSync(join('bin', target, exe), 0o755);
}

const manifest = readFileSync('package.json', 'utf8');
try {
  if (version) {
    const pkg = JSON.parse(manifest);
    pkg.version = version.replace(/^v/, '');
    writeFileSync('package.json', JSON.stringify(pkg, null, 2) + '\n');
  }
  const vsce = ['vsce', 'package', '--no-dependencies', '--allow-package-secrets', 'github', '-o', out];
  if (target) vsce.push('--target', target);
  execFileSync('npx', vsce, { stdio: 'inherit' });
} finally {
  writeFileSync('package.json', manifest);
}
