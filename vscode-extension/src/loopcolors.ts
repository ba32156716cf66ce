// Loop colours in the editor: each binding that runs in a loop gets its loop's colour (the
// colour the diagram fills that loop with; the server sends it in cnf/status), as a faint
// left border on its lines or as a bar in the gutter. Pure functions here (unit-tested); the
// extension turns them into decorations.
import { Status } from './lsp_ext';

export type LoopColorStyle = 'border' | 'gutter' | 'off';

// LineSpan is a range of whole lines, 0-based and inclusive.
export interface LineSpan {
  startLine: number;
  endLine: number;
}

// loopSpans groups the lines of the bindings of a status by colour.
export function loopSpans(s: Status | undefined, style: LoopColorStyle): Map<string, LineSpan[]> {
  const out = new Map<string, LineSpan[]>();
  if (!s || style === 'off') return out;
  for (const d of s.definitions) {
    for (const b of d.bindings ?? []) {
      if (!b.color) continue;
      const spans = out.get(b.color) ?? [];
      spans.push({ startLine: b.startLine, endLine: b.endLine });
      out.set(b.color, spans);
    }
  }
  return out;
}

// gutterIcon is an SVG bar in a colour, as a data URI for a gutter decoration.
export function gutterIcon(color: string): string {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><rect x="6" y="0" width="4" height="16" fill="${color}"/></svg>`;
  return 'data:image/svg+xml;base64,' + Buffer.from(svg).toString('base64');
}
