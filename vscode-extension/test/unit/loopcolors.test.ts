import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { gutterIcon, loopSpans } from '../../src/loopcolors';
import { Status } from '../../src/lsp_ext';

const base = { unfused: 5, stream: 4, megiddo: 3, megiddoOptimal: true };
const status: Status = {
  uri: 'file:///a.cnf', version: 2, state: 'clustered', errors: 0,
  definitions: [
    { name: 'f', startLine: 0, endLine: 6, loops: 2, optimal: true, baselines: base, bindings: [
      { name: 'a', startLine: 1, endLine: 1, loop: 1, color: '#4e79a7' },
      { name: 'b', startLine: 2, endLine: 3, loop: 2, color: '#f28e2b' },
      { name: 'c', startLine: 4, endLine: 4, loop: 1, color: '#4e79a7' },
    ] },
    { name: 'g', startLine: 8, endLine: 9, loops: 1, optimal: true, baselines: base, bindings: [
      { name: 'd', startLine: 9, endLine: 9, loop: 1, color: '#4e79a7' },
    ] },
  ],
};

test('bindings are grouped by their loop colour, across definitions', () => {
  const spans = loopSpans(status, 'border');
  assert.deepEqual([...spans.keys()], ['#4e79a7', '#f28e2b']);
  assert.deepEqual(spans.get('#4e79a7'), [{ startLine: 1, endLine: 1 }, { startLine: 4, endLine: 4 }, { startLine: 9, endLine: 9 }]);
  assert.deepEqual(spans.get('#f28e2b'), [{ startLine: 2, endLine: 3 }]);
});

test('off, no status, or a status without bindings: no colours', () => {
  assert.equal(loopSpans(status, 'off').size, 0);
  assert.equal(loopSpans(undefined, 'border').size, 0);
  assert.equal(loopSpans({ ...status, definitions: [{ ...status.definitions[0], bindings: undefined }] }, 'gutter').size, 0);
});

test('the gutter icon is an SVG bar in the colour', () => {
  const uri = gutterIcon('#59a14f');
  assert.match(uri, /^data:image\/svg\+xml;base64,/);
  assert.match(Buffer.from(uri.split(',')[1], 'base64').toString(), /fill="#59a14f"/);
});
