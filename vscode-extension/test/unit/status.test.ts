import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { statusText, Status } from '../../src/lsp_ext';

const base = { unfused: 5, stream: 4, megiddo: 3, megiddoOptimal: true };
const two: Status = {
  uri: 'file:///a.cnf', version: 3, state: 'clustered', errors: 0,
  definitions: [
    { name: 'first', startLine: 0, endLine: 6, loops: 2, optimal: true, baselines: base },
    { name: 'second', startLine: 8, endLine: 12, loops: 1, optimal: false, baselines: { ...base, megiddoOptimal: false } },
  ],
};

test('the status shows the loops of the definition under the cursor', () => {
  assert.equal(statusText(two, 3).text, '$(check) CNF · 2 loops');
  // Not proven optimal: the status bar says so, not only the tooltip (editor issue, item 6).
  assert.equal(statusText(two, 10).text, '$(warning) CNF · 1 loop, not proven optimal');
  assert.match(statusText(two, 10).tooltip, /second: 1 loop \(unfused 5 · stream fusion 4 · Megiddo 3 \(not proven optimal\)\), not proven optimal$/m);
  const bounded = { ...two, definitions: [{ ...two.definitions[1], bound: 120 }] };
  assert.match(statusText(bounded, 10).tooltip, /not proven optimal \(the optimum is at least 120\)/);
});

test('errors win over loops, and say where the loops come from', () => {
  const s = statusText({ ...two, errors: 1 }, 3);
  assert.equal(s.text, '$(error) CNF · 1 error');
  assert.match(s.tooltip, /last text without errors \(first: 2 loops/);
});

test('no status yet, or no definitions: the server state only', () => {
  assert.equal(statusText(undefined, 0).text, '$(check) CNF');
  assert.equal(statusText({ ...two, definitions: [] }, 0).text, '$(check) CNF');
});
