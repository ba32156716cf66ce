import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { findServer } from '../../src/server';

const only = (...paths: string[]) => (p: string) => paths.includes(p);

test('the setting wins when it names an executable', () => {
  const r = findServer('/opt/cnf', '/ext', '/usr/bin', 'linux', only('/opt/cnf', '/ext/bin/cnf'));
  assert.deepEqual(r, { command: '/opt/cnf', source: 'setting' });
});

test('a setting that is not executable is an error, not a silent fallback', () => {
  const r = findServer('/nope/cnf', '/ext', '/usr/bin', 'linux', only('/ext/bin/cnf'));
  assert.ok('error' in r && r.error.includes('/nope/cnf'));
});

test('then the bundled binary', () => {
  assert.deepEqual(findServer('', '/ext', '/usr/bin', 'linux', only('/ext/bin/cnf', '/usr/bin/cnf')), { command: '/ext/bin/cnf', source: 'bundled' });
});

test('then cnf on PATH, in PATH order', () => {
  assert.deepEqual(findServer('', '/ext', '/a:/b:/c', 'linux', only('/b/cnf', '/c/cnf')), { command: '/b/cnf', source: 'path' });
});

test('nothing found: a message that says what to do', () => {
  const r = findServer('', '/ext', '/a', 'linux', only());
  assert.ok('error' in r && r.error.includes('cnf.server.path'));
});
