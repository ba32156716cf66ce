package codegen

import (
	"fmt"
	"regexp"
	"strings"
)

// One sequential read stream does not reach a core's memory bandwidth: its prefetchers keep
// too few lines in flight. A loop that reads one array and only folds it (bench/pipeline.cnf:
// maps, a filter, three folds) ran at 0.88 of a plain sum's speed on the Zen 1 VM and at 0.78
// of the copy loop for its bytes on the Zen 5 VM, where two read streams in one loop body, the
// two halves of the input side by side, took 1.57 ms against 1.80 ms for one (a C sum of 80
// MB), and pipeline's loop so written 1.65 ms against 2.17 (docs/performance.md, "Two read
// streams"). interleaved writes such a loop so: each block (the whole chunk, for a loop that
// keeps no buffer) is read as two halves in one loop, each half folding into accumulators of
// its own, the second half's starting from the identity of its fold's operator; after the
// loop the second half's results are combined into the first's in order, and the odd last
// element runs alone after. Only folds whose operator is associative (those a team of
// threads splits, parallel.go) are so split, so the results are the same bits: no Float
// fold (whose rounding would change), nothing that can fail (the first failure in order is
// the one reported), no array written, no scan.

// interleavable returns the accumulators of a blocked loop's folds (prefix p) when the loop
// may read its blocks as two halves: it runs on a team (par: every fold's operator is
// associative), nothing in it can fail, it writes no array, it has no scan and no Float fold.
func (d *definition) interleavable(plan *blockedPlan, par *parallelPlan, writes map[string]bool, p string) ([]foldAcc, bool) {
	if par == nil || par.mayFail || len(writes) > 0 || len(par.scans) > 0 {
		return nil, false
	}
	var accs []foldAcc
	for _, bn := range plan.nodes {
		op, ok := par.fold(bn)
		if !ok {
			continue
		}
		t := d.info.Types[bn.b.Name()]
		if t.Kind() != "Int" {
			return nil, false // a Float fold's rounding would change; other types are not split
		}
		tn, err := d.p.ct.name(t)
		if err != nil {
			return nil, false
		}
		accs = append(accs, foldAcc{ident(p+"acc_", bn.b.Name()), tn, op})
	}
	return accs, len(accs) > 0
}

// foldAcc is a fold's accumulator in a loop to interleave: its C name and type, and its
// operator.
type foldAcc struct {
	name, typ string
	op        foldOp
}

// rootPtr is a loop's input read a block at a time: its block pointer and element type.
type rootPtr struct{ name, typ string }

// interleaved rewrites a block's text, as blockBody writes it for a loop that keeps no
// buffer, so that its one loop over the block (over kv, to cnt) reads the block's two halves
// side by side; ok is false, and the text unchanged, where the rewrite does not apply: not
// exactly one such loop, or a name of the loop (prefix p) in its body that is not the
// position kv, a local of the body, a root's block pointer, an accumulator of folds, or zero.
func interleaved(text, p, kv, cnt string, roots []rootPtr, folds []foldAcc) (string, bool) {
	head := fmt.Sprintf("\t\tCNF_IVDEP\n\t\tfor (int64_t %s = 0; %s < %s; %s++) {\n", kv, kv, cnt, kv)
	if strings.Count(text, head) != 1 || strings.Count(text, "CNF_IVDEP") != 1 {
		return text, false
	}
	start := strings.Index(text, head)
	end := strings.Index(text[start+len(head):], "\n\t\t}\n")
	if end < 0 {
		return text, false
	}
	body := text[start+len(head) : start+len(head)+end+1]
	after := text[start+len(head)+end+len("\n\t\t}\n"):]
	allowed := map[string]bool{kv: true, p + "zero": true}
	for _, r := range roots {
		allowed[r.name] = true
	}
	for _, f := range folds {
		allowed[f.name] = true
	}
	for _, m := range localDecl.FindAllStringSubmatch(body, -1) {
		allowed[m[1]] = true
	}
	named := map[string]bool{}
	for _, id := range cIdent.FindAllString(body, -1) {
		if strings.HasPrefix(id, p) && !allowed[id] {
			return text, false
		}
		named[id] = true
	}
	var used []foldAcc
	for _, f := range folds {
		if named[f.name] {
			used = append(used, f)
		}
	}
	if len(used) == 0 {
		return text, false
	}
	second := func(name string) string { return strings.Replace(name, p, p+"h2_", 1) }
	var b strings.Builder
	b.WriteString(text[:start])
	half, j := p+"half", p+"j"
	fmt.Fprintf(&b, "\t\t/* The block's two halves read side by side, two streams from memory (interleave.go);\n\t\t * the second half's folds combined into the first's after them, in order. */\n")
	fmt.Fprintf(&b, "\t\tconst int64_t %s = %s / 2;\n", half, cnt)
	for _, r := range roots {
		fmt.Fprintf(&b, "\t\tconst %s *restrict %s = %s + %s;\n", r.typ, second(r.name), r.name, half)
	}
	for _, f := range used {
		fmt.Fprintf(&b, "\t\t%s %s = %s; /* the second half's, from the identity */\n", f.typ, second(f.name), f.op.identity)
	}
	fmt.Fprintf(&b, "\t\tCNF_IVDEP\n\t\tfor (int64_t %s = 0; %s < %s; %s++) {\n", j, j, half, j)
	fmt.Fprintf(&b, "\t\t\t{ /* the first half */\n\t\t\t\tconst int64_t %s = %s;\n", kv, j)
	b.WriteString(indented(body))
	fmt.Fprintf(&b, "\t\t\t}\n\t\t\t{ /* the second half */\n\t\t\t\tconst int64_t %s = %s;\n", kv, j)
	for _, r := range roots {
		fmt.Fprintf(&b, "\t\t\t\tconst %s *restrict %s = %s;\n", r.typ, r.name, second(r.name))
	}
	for _, f := range used {
		fmt.Fprintf(&b, "\t\t\t\t%s %s = %s;\n", f.typ, f.name, second(f.name))
	}
	b.WriteString(indented(body))
	for _, f := range used {
		fmt.Fprintf(&b, "\t\t\t\t%s = %s;\n", second(f.name), f.name)
	}
	b.WriteString("\t\t\t}\n\t\t}\n")
	for _, f := range used {
		fmt.Fprintf(&b, "\t\t%s = %s;\n", f.name, fmt.Sprintf(f.op.combine, f.name, second(f.name)))
	}
	fmt.Fprintf(&b, "\t\tfor (int64_t %s = 2 * %s; %s < %s; %s++) { /* the odd last element */\n", kv, half, kv, cnt, kv)
	b.WriteString(body)
	b.WriteString("\t\t}\n")
	b.WriteString(after)
	return b.String(), true
}

// cIdent matches a C identifier (a word that does not start with a digit).
var cIdent = regexp.MustCompile(`\b[A-Za-z_][A-Za-z0-9_]*`)

// indented is s with a tab before each of its lines.
func indented(s string) string {
	var b strings.Builder
	for _, line := range strings.SplitAfter(s, "\n") {
		if line != "" {
			b.WriteString("\t" + line)
		}
	}
	return b.String()
}

// localDecl matches a local's declaration in a block's loop body (`const int64_t L1_v_ys =`).
var localDecl = regexp.MustCompile(`(?m)^\s*(?:const )?[A-Za-z_][A-Za-z0-9_ ]*?\*?\s*\b([A-Za-z_][A-Za-z0-9_]*) = `)
