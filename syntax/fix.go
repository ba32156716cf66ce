package syntax

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
)

// Fix is a suggested change that resolves a diagnostic (an editor's quick fix, as gopls's
// suggested fixes): a title for the editor's menu and edits in byte offsets of the file.
type Fix struct {
	Title string
	Edits []Edit
}

// Edit replaces the text in Range with NewText (an insertion when the range is empty).
type Edit struct {
	Range   Range
	NewText string
}

// replaceWith is a fix that replaces r with text.
func replaceWith(r Range, text, title string) Fix {
	return Fix{Title: title, Edits: []Edit{{Range: r, NewText: text}}}
}

// ApplyFix returns src with the fix's edits applied. The edits must lie inside src and not
// overlap; otherwise ApplyFix returns an error and src unchanged.
func ApplyFix(src []byte, fx Fix) ([]byte, error) {
	edits := append([]Edit(nil), fx.Edits...)
	sort.SliceStable(edits, func(i, j int) bool { return edits[i].Range.Start < edits[j].Range.Start })
	out := make([]byte, 0, len(src))
	at := Pos(0)
	for _, e := range edits {
		if e.Range.Start < at || e.Range.End < e.Range.Start || int(e.Range.End) > len(src) {
			return src, fmt.Errorf("fix %q: edit %v overlaps another or lies outside the file", fx.Title, e.Range)
		}
		out = append(out, src[at:e.Range.Start]...)
		out = append(out, e.NewText...)
		at = e.Range.End
	}
	return append(out, src[at:]...), nil
}

// attachFixes adds fixes to diags[n], the diagnostic that a report made after len(diags) was
// n, if that report was not suppressed.
func attachFixes(diags []Diagnostic, n int, fixes ...Fix) {
	if n < len(diags) {
		diags[n].Fixes = append(diags[n].Fixes, fixes...)
	}
}

// bindResult is the quick fix for a result written as a combinator application (r, with the
// text text): a new binding `result = text` after the let's last binding, at its indentation,
// and the name in place of the expression. It offers none for other expressions (a scalar
// expression is no binding either: that needs a fold or an external), or when the last
// binding shares its line with the in.
func (p *parser) bindResult(r Range, text string) (Fix, bool) {
	def := p.def
	if def == nil || len(def.Bindings) == 0 || def.In < 0 {
		return Fix{}, false
	}
	fields := strings.Fields(text)
	if len(fields) == 0 || !IsCombinator(fields[0]) {
		return Fix{}, false
	}
	first, last := def.Bindings[0], def.Bindings[len(def.Bindings)-1]
	eol := lineEnd(p.src, last.End)
	if def.In < eol {
		return Fix{}, false
	}
	indent := bytes.Clone(p.src[lineStart(p.src, first.Start):first.Start])
	for i, c := range indent {
		if c != '\t' {
			indent[i] = ' '
		}
	}
	name, bound := "result", timesBound(def)
	for k := 2; name == def.Name.Name || bound[name] > 0; k++ {
		name = fmt.Sprintf("result%d", k)
	}
	return Fix{
		Title: fmt.Sprintf("bind %s = %s", name, text),
		Edits: []Edit{
			{Range: r, NewText: name},
			{Range: Range{eol, eol}, NewText: "\n" + string(indent) + name + " = " + text},
		},
	}, true
}

// removeBinding is the quick fix that deletes the unused binding def.Bindings[k] with its
// lines. It offers none when that could break the layout or lose other text: the binding
// binds several names, is the only one, shares its name with another binding or parameter,
// shares a line with code other than a trailing comment, or (the first binding, which follows
// `let`) shares its line with the next one. The first binding is removed up to the next one's
// start, which then follows `let`.
func removeBinding(src []byte, def *Definition, k int, bound map[string]int) (Fix, bool) {
	bs := def.Bindings
	b := bs[k]
	if len(bs) < 2 || len(b.Names) != 1 {
		return Fix{}, false
	}
	if bound[b.Name()] != 1 {
		return Fix{}, false // bound twice: the other binding would become the unused one
	}
	after := bytes.TrimSpace(src[b.End:lineEnd(src, b.End)])
	if len(after) > 0 && !bytes.HasPrefix(after, []byte("--")) {
		return Fix{}, false
	}
	title := "remove the binding of " + b.Name()
	if k == 0 {
		next := bs[1].Start
		if next <= lineEnd(src, b.End) {
			return Fix{}, false
		}
		return replaceWith(Range{b.Start, next}, "", title), true
	}
	start := lineStart(src, b.Start)
	if len(bytes.TrimSpace(src[start:b.Start])) > 0 {
		return Fix{}, false
	}
	end := lineEnd(src, b.End)
	if int(end) < len(src) {
		end++ // the line break
	}
	return replaceWith(Range{start, end}, "", title), true
}

// renameUnused is the quick fix that marks an unused parameter as unused on purpose by
// prefixing its name with _. It offers none when the name is bound twice (the other would
// stay unused) or the new name is taken.
func renameUnused(id *Ident, bound map[string]int) (Fix, bool) {
	if bound[id.Name] != 1 || bound["_"+id.Name] != 0 {
		return Fix{}, false
	}
	return replaceWith(Range{id.Start, id.Start}, "_", "rename to _"+id.Name+" (marks it unused on purpose)"), true
}

// timesBound counts how often each name is bound in def: as a parameter or by a binding (a
// count above one is an error reported elsewhere). Made once per definition: a file with many
// unused bindings asks for each.
func timesBound(def *Definition) map[string]int {
	n := map[string]int{}
	for _, p := range def.Params {
		n[p.Name]++
	}
	for _, b := range def.Bindings {
		for _, id := range b.Names {
			n[id.Name]++
		}
	}
	return n
}

// lineStart returns the offset where the line holding p starts.
func lineStart(src []byte, p Pos) Pos {
	return Pos(bytes.LastIndexByte(src[:p], '\n') + 1)
}

// lineEnd returns the offset of the line break that ends the line holding p (or the end).
func lineEnd(src []byte, p Pos) Pos {
	if i := bytes.IndexByte(src[p:], '\n'); i >= 0 {
		return p + Pos(i)
	}
	return Pos(len(src))
}
