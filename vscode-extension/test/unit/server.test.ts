import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { findServer, Machine } from '../../src/server';

const only = (...paths: string[]) => (p: string) => paths.includes(p);
const linux: Machine = { platform: 'linux', arch: 'x64', envPath: '/usr/bin', trusted: true };

test('the setting wins when it names an executable', () => {
  const r = findServer('/opt/cnf', '/ext', linux, only('/opt/cnf', '/ext/bin/linux-x64/cnf'));
  assert.deepEqual(r, { command: '/opt/cnf', source: 'setting' });
});

test('a setting that is not executable is an error, not a silent fallback', () => {
  const r = findServer('/nope/cnf', '/ext', linux, only('/ext/bin/linux-x64/cnf'));
  assert.ok('error' in r && r.error.includes('/nope/cnf') && !r.install);
});

test('then the bundled binary of this platform and architecture', () => {
  assert.deepEqual(findServer('', '/ext', linux, only('/ext/bin/linux-x64/cnf', '/usr/bin/cnf')), { command: '/ext/bin/linux-x64/cnf', source: 'bundled' });
});

// Each machine takes only its own bundled server; with another machine's, it goes to PATH.
const machines: [string, string, string][] = [
  ['linux', 'x64', '/ext/bin/linux-x64/cnf'],
  ['linux', 'arm64', '/ext/bin/linux-arm64/cnf'],
  ['darwin', 'arm64', '/ext/bin/darwin-arm64/cnf'],
  ['darwin', 'x64', '/ext/bin/darwin-x64/cnf'],
  ['win32', 'x64', '/ext/bin/win32-x64/cnf.exe'],
];
for (const [platform, arch, own] of machines) {
  for (const [, , other] of machines) {
    const m: Machine = { platform, arch, envPath: platform === 'win32' ? 'C:\\bin;/usr/bin' : '/usr/bin', trusted: true };
    const exe = platform === 'win32' ? 'cnf.exe' : 'cnf';
    const onPath = `/usr/bin/${exe}`;
    test(`${platform}-${arch} with the server of ${other}`, () => {
      const r = findServer('', '/ext', m, only(other, onPath));
      if (other === own) assert.deepEqual(r, { command: own, source: 'bundled' });
      else assert.deepEqual(r, { command: onPath, source: 'path' });
    });
    test(`${platform}-${arch} with the server of ${other} and nothing on PATH`, () => {
      const r = findServer('', '/ext', m, only(other));
      if (other === own) assert.deepEqual(r, { command: own, source: 'bundled' });
      else assert.ok('error' in r && r.install && r.error.includes(`${platform}-${arch}`), JSON.stringify(r));
    });
  }
}

test('the old layout (bin/cnf, the universal linux build of 0.1.0) is never run', () => {
  const r = findServer('', '/ext', linux, only('/ext/bin/cnf', '/usr/bin/cnf'));
  assert.deepEqual(r, { command: '/usr/bin/cnf', source: 'path' });
});

test('then cnf on PATH, in PATH order', () => {
  assert.deepEqual(findServer('', '/ext', { ...linux, envPath: '/a:/b:/c' }, only('/b/cnf', '/c/cnf')), { command: '/b/cnf', source: 'path' });
});

test('nothing found: a message that says how to install', () => {
  const r = findServer('', '/ext', { ...linux, envPath: '/a' }, only());
  assert.ok('error' in r && r.install && r.error.includes('cnf.server.path') && r.error.includes('go install'));
});

test('an untrusted workspace ignores cnf.server.path and PATH, and runs the bundled server', () => {
  const untrusted = { ...linux, trusted: false };
  assert.deepEqual(findServer('/evil/cnf', '/ext', untrusted, only('/evil/cnf', '/ext/bin/linux-x64/cnf', '/usr/bin/cnf')),
    { command: '/ext/bin/linux-x64/cnf', source: 'bundled' });
});

test('an untrusted workspace without a bundled server: a message about trust, not about installing', () => {
  const r = findServer('/evil/cnf', '/ext', { ...linux, trusted: false }, only('/evil/cnf', '/usr/bin/cnf'));
  assert.ok('error' in r && !r.install && r.error.includes('not trusted'));
});
