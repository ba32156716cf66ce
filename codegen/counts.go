package codegen

import (
	"fmt"
	"slices"
	"strings"

	"github.com/cnf-tools/cnf/syntax"
	"github.com/cnf-tools/cnf/types"
)

// Positions of a filtered rate on a team. A slice or an indexed of a filter's output reads the
// position of each element in the filter's rate: how many elements the filter kept before it,
// which for a tile of the input depends on every tile before. On a team such a loop runs in
// tiles (tiledLoop), and each tile first counts the elements of that rate it holds (a count
// pass: the loop's work up to the filter, over the tile, which the tile's loop then reads again
// from the cache), then waits for the tile before to publish where the rate's positions reach,
// publishes its own end, and runs its loop from there. Only a rate whose filters and slices can
// be counted without positions is split this way: every select on its way from the input is a
// filter, or a slice of the input (whose positions are the tile's start plus the place in it).

// positionalWhy says why the rate that bn (a slice or indexed) reads is not counted a tile at a
// time ("" when it is). Counting repeats, over each tile, the work that decides which elements
// the rate holds: only work that is cheap and vector code (no division, which is scalar for
// Ints; no gather; nothing that can fail, which would need a branch) is repeated. Where it is
// not, the count cost as much as the loop (a `mod` by a literal under two filters, timed at 2
// threads: slower than one; docs/performance.md).
func (d *definition) positionalWhy(plan *blockedPlan, bn *blockNode) string {
	sel := selectsOf(plan)
	what := fmt.Sprintf("%s (%s) reads positions of %s", bn.b.Name(), syntax.CallOf(bn.b.Rhs).Keyword.Name, bn.inRate)
	return d.repeatWhy(countNodes(plan, []string{countedRate(bn.inRate, sel)}, sel, makersOf(plan)), nil, what, "counting them")
}

// repeatWhy says why the work of nodes (but skip) cannot be done again a tile at a time
// (doing: what it is for), or "" when it can: only cheap work that cannot fail and needs no
// positions of a filtered rate.
func (d *definition) repeatWhy(nodes []*blockNode, skip *blockNode, what, doing string) string {
	for _, nd := range nodes {
		if nd == skip {
			continue
		}
		kw := syntax.CallOf(nd.b.Rhs).Keyword.Name
		switch nd.b.Rhs.(type) {
		case *syntax.Map, *syntax.Zip, *syntax.Unzip, *syntax.Filter, *syntax.Generate, *syntax.Append:
		case *syntax.Indexed, *syntax.Slice:
			if nd.inRate != "" {
				return fmt.Sprintf("%s, and %s a tile at a time needs positions in %s (%s, %s)", what, doing, nd.inRate, nd.b.Name(), kw)
			}
		default:
			return fmt.Sprintf("%s, and %s a tile at a time would repeat %s (%s)", what, doing, nd.b.Name(), kw)
		}
		if pr := d.probe(nd); !pr.ok || pr.effects > 0 || pr.costly > 0 || pr.hostCalls > 0 {
			return fmt.Sprintf("%s, and %s a tile at a time would repeat the costly work of %s (%s)", what, doing, nd.b.Name(), kw)
		}
	}
	return ""
}

// prefixWhy says why a scan's total over a tile is not computed first, a tile at a time, as a
// count is (countPass), so that each tile's scan starts from the total of the tiles before
// ("" when it is): the same cheap vector work only. what says why the loop needs it.
func (d *definition) prefixWhy(plan *blockedPlan, sc *blockNode, what string) string {
	return d.repeatWhy(neededNodes(plan, nil, []*blockNode{sc}, selectsOf(plan), makersOf(plan)), sc, what, "its total")
}

// prefixName is the C variable of a tile's total of a scan's elements.
func prefixName(p, scan string) string { return ident(p+"ct_", scan) }

// countedRate is the rate a tile counts for the positions of rate r: r, or, when r is made by
// slices of another filtered rate, that rate (a slice keeps an interval of positions, so the
// positions of its output before a tile follow from those of its input: cnf_slice_before).
func countedRate(r string, sel map[string]*blockNode) string {
	for {
		s := sel[r]
		if s == nil || !isSlice(s.b) || s.inRate == "" {
			return r
		}
		r = s.inRate
	}
}

// selectsOf maps each rate but the input's to the filter or slice that makes it.
func selectsOf(plan *blockedPlan) map[string]*blockNode {
	sel := map[string]*blockNode{}
	for _, bn := range plan.nodes {
		switch bn.b.Rhs.(type) {
		case *syntax.Filter, *syntax.Slice:
			sel[bn.rate] = bn
		}
	}
	return sel
}

// makersOf maps each array the loop makes to its binding.
func makersOf(plan *blockedPlan) map[string]*blockNode {
	maker := map[string]*blockNode{}
	for _, bn := range plan.nodes {
		for _, id := range bn.b.Names {
			maker[id.Name] = bn
		}
	}
	return maker
}

// countNodes are the bindings that counting the elements of rates needs, in the loop's order:
// each rate's select, the selects of the rates it is made from, and what the filters among
// them test, made from the loop's input. A slice tests positions only: what it reads is needed
// only where a filter tests its elements.
func countNodes(plan *blockedPlan, rates []string, sel, maker map[string]*blockNode) []*blockNode {
	return neededNodes(plan, rates, nil, sel, maker)
}

// neededNodes are countNodes for rates and for the scans of scans: each scan, the rate it reads
// (countNodes) and what its input is made from.
func neededNodes(plan *blockedPlan, rates []string, scans []*blockNode, sel, maker map[string]*blockNode) []*blockNode {
	need := map[*blockNode]bool{}
	walked := map[string]bool{}
	var values func(a string) // the elements of a are needed
	values = func(a string) {
		mk := maker[a]
		if mk == nil || walked[a] {
			return
		}
		walked[a] = true
		need[mk] = true
		for _, in := range mk.ins {
			values(in)
		}
	}
	for _, sc := range scans {
		need[sc] = true
		values(sc.ins[0])
		rates = append(rates, sc.inRate)
	}
	for _, r := range rates {
		for r != "" {
			s := sel[r]
			if s == nil {
				break
			}
			need[s] = true
			if _, ok := s.b.Rhs.(*syntax.Filter); ok {
				values(s.ins[0])
			}
			r = s.inRate
		}
	}
	var out []*blockNode
	for _, bn := range plan.nodes {
		if need[bn] {
			out = append(out, bn)
		}
	}
	return out
}

// countName is the C variable of a tile's count of a rate's elements.
func countName(p, rate string) string { return ident(p+"cq_", rate) }

// countPass is the C that counts, over a tile's elements (lo to lo + n, its views of the
// loop's inputs), the elements of each rate of rates, into countName(p, rate): every binding
// the count needs, for every element, and each filter a mask (positionalWhy: all of them are
// cheap and cannot fail), so that gcc vectorises it.
func (d *definition) countPass(p string, plan *blockedPlan, pp *parallelPlan) (string, error) {
	rates := pp.counted
	sel := selectsOf(plan)
	maker := makersOf(plan)
	nodes := neededNodes(plan, rates, pp.prefixed, sel, maker)
	counted := map[string]bool{}
	for _, r := range rates {
		counted[r] = true
	}
	type old struct {
		v   val
		had bool
	}
	saved := map[string]old{} // the vars' bindings in the loop, put back after
	bind := func(name, c string, t *types.Type) {
		if _, ok := saved[name]; !ok {
			v, had := d.x.vars[name]
			saved[name] = old{v, had}
		}
		d.x.vars[name] = val{c: c, t: t}
	}
	defer func() {
		for name, o := range saved {
			if o.had {
				d.x.vars[name] = o.v
			} else {
				delete(d.x.vars, name)
			}
		}
	}()
	i := p + "ci"
	pos := fmt.Sprintf("(%s%slo + %s)", plan.origin, p, i)
	elem := map[string]string{} // an array's element at i, in C
	for _, a := range plan.roots {
		elem[a] = fmt.Sprintf("%s.data[%s]", cname(a), i)
	}
	var b strings.Builder
	for _, r := range rates {
		fmt.Fprintf(&b, "\t\tint64_t %s = 0; /* the elements of %s in this tile */\n", countName(p, r), r)
	}
	for _, sc := range pp.prefixed {
		op, _ := pp.fold(sc)
		tn, err := d.p.ct.name(d.info.Types[sc.b.Name()].Elem())
		if err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "\t\t%s %s = %s; /* the total of %s's elements in this tile */\n", tn, prefixName(p, sc.b.Name()), op.identity, sc.b.Name())
	}
	fmt.Fprintf(&b, "\t\tfor (int64_t %s = 0; %s < %sn; %s++) {\n", i, i, p, i)
	var rate func(r, k string) error
	rate = func(r, k string) error {
		if counted[r] {
			fmt.Fprintf(&b, "\t\t\t%s += %s;\n", countName(p, r), k)
		}
		for _, bn := range nodes {
			in := bn.inRate
			if bn == plan.gen {
				in = ""
			}
			if in != r {
				continue
			}
			for j, a := range bn.ins {
				if j < len(bn.vars) {
					bind(bn.vars[j], elem[a], d.info.Types[a].Elem())
				}
			}
			switch c := bn.b.Rhs.(type) {
			case *syntax.Scan:
				op, _ := pp.fold(bn)
				v := elem[bn.ins[0]]
				if k != "" {
					v = fmt.Sprintf("(%s ? %s : %s)", k, v, op.identity)
				}
				t := prefixName(p, bn.b.Name())
				fmt.Fprintf(&b, "\t\t\t%s = %s;\n", t, fmt.Sprintf(op.combine, t, v))
				continue
			case *syntax.Unzip:
				elem[bn.b.Names[0].Name] = elem[bn.ins[0]] + ".f0"
				elem[bn.b.Names[1].Name] = elem[bn.ins[0]] + ".f1"
				continue
			case *syntax.Generate:
				bind(bn.vars[0], pos, types.Int())
			case *syntax.Append:
				a, b := cname(c.A.Name), cname(c.B.Name)
				bind(bn.vars[0], fmt.Sprintf("(%s < %s.len ? %s.data[%s] : %s.data[%s - %s.len])", pos, a, a, pos, b, pos, a), d.info.Types[bn.b.Name()].Elem())
			case *syntax.Indexed, *syntax.Slice:
				bind(bn.vars[1], pos, types.Int()) // of the input's rate only (positionalWhy)
			}
			v, err := d.x.value(bn.elem, nil, quote(bn.b.Name()))
			if err != nil {
				return err
			}
			if sel[bn.rate] != bn {
				tn, err := d.p.ct.name(d.info.Types[bn.b.Name()].Elem())
				if err != nil {
					return err
				}
				name := ident(p+"ce_", bn.b.Name())
				fmt.Fprintf(&b, "\t\t\tconst %s %s = %s;\n", tn, name, v)
				elem[bn.b.Name()] = name
				continue
			}
			elem[bn.b.Name()] = elem[bn.ins[0]] // a select's elements are its input's
			kn := ident(p+"ck_", bn.b.Name())
			if k == "" {
				fmt.Fprintf(&b, "\t\t\tconst bool %s = (%s) != 0;\n", kn, v)
			} else {
				fmt.Fprintf(&b, "\t\t\tconst bool %s = %s & ((%s) != 0);\n", kn, k, v)
			}
			if err := rate(bn.rate, kn); err != nil {
				return err
			}
		}
		return nil
	}
	if err := rate("", ""); err != nil {
		return "", err
	}
	b.WriteString("\t\t}\n")
	return b.String(), nil
}

// positionalRates are the rates of the plan's slices and indexeds that read a filtered rate, in
// the plan's order of rates (a rate after the rates it is made from), and the rates a tile
// counts for them (countedRate).
func positionalRates(plan *blockedPlan) (positional, counted []string) {
	sel := selectsOf(plan)
	for _, r := range plan.rates {
		for _, bn := range plan.nodes {
			if (isSlice(bn.b) || isIndexed(bn.b)) && bn.inRate == r && r != "" && !slices.Contains(positional, r) {
				positional = append(positional, r)
				if c := countedRate(r, sel); !slices.Contains(counted, c) {
					counted = append(counted, c)
				}
			}
		}
	}
	return positional, counted
}

// sliceBefore is the C of how many of the positions before p (C) the slice bn keeps
// (cnf_slice_before).
func (d *definition) sliceBefore(bn *blockNode, p string) (string, error) {
	c := bn.b.Rhs.(*syntax.Slice)
	args := []string{p}
	for _, e := range []syntax.Expr{c.Start, c.Count} {
		if e == nil {
			args = append(args, "0", "0")
			continue
		}
		v, err := d.x.value(e, nil, quote(bn.b.Name()))
		if err != nil {
			return "", err
		}
		args = append(args, "1", v)
	}
	name, err := d.p.helper("cnf_slice_before", func() (string, error) {
		return `/* cnf_slice_before is how many of the positions 0 .. p-1 a slice keeps: those from start
 * on (has_start), and of them fewer than count (has_count), the test of fuse.SliceCond counted
 * at once (codegen/counts.go). No step overflows: start + count is formed only when it is at
 * most p. */
static inline int64_t cnf_slice_before(int64_t p, int has_start, int64_t start, int has_count, int64_t count) {
	const int64_t lo = has_start && start > 0 ? start : 0;
	int64_t hi = p;
	if (has_count) {
		if (!has_start) {
			if (count < hi) hi = count;
		} else if (count <= 0) {
			hi = lo;
		} else if (start <= hi - count) {
			hi = start + count;
		}
	}
	return hi > lo ? hi - lo : 0;
}
`, nil
	})
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%s(%s)", name, strings.Join(args, ", ")), nil
}
