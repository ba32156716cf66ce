package codegen

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/cnf-tools/cnf/cluster"
	"github.com/cnf-tools/cnf/fuse"
	"github.com/cnf-tools/cnf/syntax"
	"github.com/cnf-tools/cnf/types"
)

// The blocked form of a loop. A fused process handles one element at a time: a state machine
// whose filters are branches (mispredicted when the data is not sorted) and whose gotos carry
// the pulled value across the back edge, so gcc vectorises none of it. The blocked form runs
// the same loop over blocks of its input (as many elements as keep all of a block's buffers in
// the first-level cache: the runtime's CNF_BLOCK, the loop's Lk_B): for each block, each binding of
// the cluster, in dependency order, is a dense loop over small buffers that stay in the cache
// (its input's block, its output's block), a filter compacts its block without a branch, folds
// and scans carry their state from block to block, and the work under a filter runs on its
// survivors only. Inside a block this is the unfused program; across blocks it streams the
// fused clustering's bytes: every array the clustering contracts lives only in a block buffer.
// Results are the state machine's, to the bit: each binding still sees its elements in order.
//
// Shapes it does not express keep the state machine (blockable says which and why, and the C
// says it too): a cross, append, reverse or gather of an array made in the same loop, two
// generates, appends or crosses in one loop, externals, and loops whose arrays in memory are
// not known to have one length. A cross or an append of arrays in memory drives its loop as a
// generate does (crossFill; the append's blocks each read one of its two arrays).

// twoDrivers is why a loop with two generates, appends or crosses has no blocked form: each
// drives its loop's blocks (split.go runs independent ones as loops of their own).
const twoDrivers = "two generates, appends or crosses"

// blockNode is one binding of a blocked loop.
type blockNode struct {
	b    *syntax.Binding
	ins  []string    // the arrays it reads element by element
	elem syntax.Expr // the element it makes (map, zip, gather, indexed, generate), the filter's
	// test, or the step of a fold or scan (its accumulator and element bound to vars)
	init   syntax.Expr // a fold's or scan's initial value
	vars   []string    // the names elem binds: the input elements, then the accumulator
	acc    string      // the accumulator's var (fold, scan)
	rate   string      // the rate its output counts at (its block length's variable)
	inRate string      // the rate of its inputs (all of one rate)
	// addend, for an Int fold whose step adds to the accumulator something of the element
	// only ((+), \a x -> a + e): what it adds, of the element var. A fold over a filter's
	// output adds it or 0 by the mask, a form gcc always vectorises.
	addend syntax.Expr
}

// blockedPlan is a loop's blocked form.
type blockedPlan struct {
	nodes []*blockNode
	roots []string   // arrays in memory read element by element: all of one length
	gen   *blockNode // a generate that drives the loop, when no array in memory does
	rates []string   // every rate, root first
	// origin is the C of the loop's first position in its input and a +, when slices that
	// start past 0 are all that read it (blockedLoop): positions in the input's rate are
	// counted from the input's start, the loop's views start at origin. "" otherwise.
	origin string
}

// blockable plans the blocked form of a cluster, or says why it has none.
func (d *definition) blockable(c *cluster.Cluster) (*blockedPlan, string) {
	inLoop := map[string]bool{}
	for _, nd := range c.Nodes {
		for _, id := range nd.Binding.Names {
			inLoop[id.Name] = true
		}
	}
	nodes := d.inOrder(c.Nodes)

	plan := &blockedPlan{}
	rate := map[string]string{} // array -> the rate of its elements
	const root = ""
	plan.rates = []string{root}
	rootOf := func(a string) (string, bool) {
		if r, ok := rate[a]; ok {
			return r, true
		}
		if inLoop[a] {
			return "", false // made by a later binding: not in dependency order
		}
		if !slices.Contains(plan.roots, a) {
			plan.roots = append(plan.roots, a)
		}
		rate[a] = root
		return root, true
	}
	// joined groups the roots that one mapN or zip reads together: its size check makes them
	// one length; roots read apart might not be (a caller may break the size scheme).
	joined := map[string]string{}
	var find func(a string) string
	find = func(a string) string {
		if p, ok := joined[a]; ok && p != a {
			return find(p)
		}
		return a
	}
	newRate := func(name string) string {
		plan.rates = append(plan.rates, name)
		return name
	}
	vars := func(b *syntax.Binding, n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = fmt.Sprintf("%s·%d", b.Name(), i) // not a name a program can write
		}
		return out
	}
	idents := func(names []string) []syntax.Expr {
		out := make([]syntax.Expr, len(names))
		for i, n := range names {
			out[i] = &syntax.Ident{Name: n}
		}
		return out
	}
	for _, nd := range nodes {
		b := nd.Binding
		bn := &blockNode{b: b}
		var in []*syntax.Ident
		switch e := b.Rhs.(type) {
		case *syntax.Map:
			in = e.Arrays
			bn.vars = vars(b, len(in))
			bn.elem = &syntax.App{Fun: e.Worker, Args: idents(bn.vars)}
		case *syntax.Zip:
			in = []*syntax.Ident{e.A, e.B}
			bn.vars = vars(b, 2)
			bn.elem = &syntax.Tuple{Elems: idents(bn.vars)}
		case *syntax.Filter:
			in = []*syntax.Ident{e.Array}
			bn.vars = vars(b, 1)
			bn.elem = &syntax.App{Fun: e.Worker, Args: idents(bn.vars)}
		case *syntax.Fold, *syntax.Scan:
			worker, init, array := foldParts(e)
			in = []*syntax.Ident{array}
			bn.vars = vars(b, 2)
			bn.acc = bn.vars[1]
			bn.elem = &syntax.App{Fun: worker, Args: idents([]string{bn.vars[1], bn.vars[0]})}
			bn.init = init
			if t := d.info.Types[b.Name()]; isFold(b) && t != nil && t.Kind() == "Int" {
				bn.addend = addend(worker, bn.vars[0])
			}
		case *syntax.Indexed:
			in = []*syntax.Ident{e.Array}
			bn.vars = vars(b, 2) // the element, its position
			bn.elem = &syntax.Tuple{Elems: idents([]string{bn.vars[1], bn.vars[0]})}
		case *syntax.Slice:
			in = []*syntax.Ident{e.Array}
			bn.vars = vars(b, 2) // the element, its position
			bn.elem = fuse.SliceCond(e, &syntax.Ident{Name: bn.vars[1]})
		case *syntax.Gather:
			if inLoop[e.Data.Name] {
				return nil, "a gather from an array made in the same loop"
			}
			in = []*syntax.Ident{e.Indices}
			bn.vars = vars(b, 1)
			bn.elem = &syntax.Binary{Op: &syntax.Op{Name: "!"}, X: e.Data, Y: &syntax.Ident{Name: bn.vars[0]}}
		case *syntax.Reverse:
			// Its input is in memory (a parameter, or made by an earlier loop): the element
			// at position i is the input's at n-1-i, read at the input's rate, the whole array
			// (on a team, not the chunk's view). A reverse of an array made in the same loop
			// needs all of it first: that loop stays per element.
			if inLoop[e.Array.Name] {
				return nil, "a reverse of an array made in the same loop"
			}
			in = []*syntax.Ident{e.Array}
			bn.vars = vars(b, 1)
			bn.elem = &syntax.Ident{Name: bn.vars[0]}
		case *syntax.Unzip:
			in = []*syntax.Ident{e.Array}
		case *syntax.Length:
			// It counts the array the graph says it reads (infer.Length.Source: the array
			// whose size it is, made no later than its argument), as the fused process does
			// (fuse.nodeTemplate): the argument may be made by a later loop.
			in = []*syntax.Ident{e.Array}
			if len(nd.Reads) == 1 {
				in = []*syntax.Ident{{Name: nd.Reads[0]}}
			}
		case *syntax.Cross:
			// Both arrays in memory: it drives the loop as a generate does, element k being
			// the pair of xs's (k / |ys|)-th and ys's (k mod |ys|)-th. A block within one row
			// reads its run of ys in place, a block of several rows a copy (crossFill); the
			// bindings read the pairs as dense loops read any input. A cross of an array made
			// in the same loop (the fused process pulls xs as a stream) stays per element.
			if inLoop[e.A.Name] || inLoop[e.B.Name] {
				return nil, "a cross of an array made in the same loop"
			}
			if plan.gen != nil {
				return nil, twoDrivers
			}
			bn.vars = vars(b, 2) // xs's element, ys's
			bn.elem = &syntax.Tuple{Elems: idents(bn.vars)}
			bn.rate = root
			plan.gen = bn
			rate[b.Name()] = root
			plan.nodes = append(plan.nodes, bn)
			continue
		case *syntax.Append:
			// Both arrays in memory: it drives the loop as a generate does, element k being
			// xs's k-th while k < |xs|, then ys's (k - |xs|)-th. No block straddles the end of
			// xs, so each block reads one of the two, contiguously (blockedLoop). An append of
			// an array made in the same loop stays per element.
			if inLoop[e.A.Name] || inLoop[e.B.Name] {
				return nil, "an append of an array made in the same loop"
			}
			if plan.gen != nil {
				return nil, twoDrivers
			}
			bn.vars = vars(b, 1)
			bn.elem = &syntax.Ident{Name: bn.vars[0]}
			bn.rate = root
			plan.gen = bn
			rate[b.Name()] = root
			plan.nodes = append(plan.nodes, bn)
			continue
		case *syntax.Generate:
			if len(c.Nodes) > 0 && plan.gen != nil {
				return nil, twoDrivers
			}
			bn.vars = vars(b, 1)
			bn.elem = &syntax.App{Fun: e.Worker, Args: idents(bn.vars)}
			bn.rate = root
			plan.gen = bn
			rate[b.Name()] = root
			plan.nodes = append(plan.nodes, bn)
			continue
		default:
			return nil, fmt.Sprintf("%s is not blocked", syntax.FormatCombinator(b.Rhs))
		}
		r := ""
		for i, a := range in {
			ar, ok := rootOf(a.Name)
			if !ok {
				return nil, "an input made later in the loop"
			}
			if i > 0 && ar != r {
				return nil, fmt.Sprintf("%s reads arrays of different rates", b.Name())
			}
			r = ar
			bn.ins = append(bn.ins, a.Name)
		}
		bn.inRate = r
		if len(in) > 1 && r == root {
			for _, a := range in[1:] {
				joined[find(a.Name)] = find(in[0].Name)
			}
		}
		switch b.Rhs.(type) {
		case *syntax.Filter, *syntax.Slice:
			bn.rate = newRate(b.Name())
		default:
			bn.rate = r
		}
		for _, id := range b.Names {
			rate[id.Name] = bn.rate
		}
		plan.nodes = append(plan.nodes, bn)
	}
	if plan.gen != nil && len(plan.roots) > 0 {
		return nil, fmt.Sprintf("a %s beside arrays in memory", syntax.CallOf(plan.gen.b.Rhs).Keyword.Name)
	}
	if why := d.crossKeepsPairs(c, plan); why != "" {
		return nil, why
	}
	if plan.gen == nil && len(plan.roots) == 0 {
		return nil, "no input"
	}
	var made lengthClasses
	for i, a := range plan.roots {
		if i == 0 || find(a) == find(plan.roots[0]) {
			continue
		}
		if made == nil {
			made = d.lengthsBefore(c.Index)
		}
		if !made.same(a, plan.roots[0]) {
			return nil, fmt.Sprintf("%s and %s are read apart (their lengths are not checked to be one)", plan.roots[0], a)
		}
	}
	return plan, ""
}

// typeBlocked types the expressions of a blocked loop (plan time: the types of every expression
// of the function must be known before any is written).
func (d *definition) typeBlocked(plan *blockedPlan) error {
	for _, bn := range plan.nodes {
		if bn.elem == nil {
			continue
		}
		vars := map[string]*types.Type{}
		for i, v := range bn.vars {
			switch {
			case bn.acc == v:
				vars[v] = d.info.Types[bn.b.Name()]
				if t := vars[v]; t.IsArray() { // a scan's accumulator is an element of its output
					vars[v] = t.Elem()
				}
			case plan.gen == bn && isAppend(bn.b):
				vars[v] = d.info.Types[bn.b.Name()].Elem()
			case plan.gen == bn && isCross(bn.b):
				cr := bn.b.Rhs.(*syntax.Cross)
				vars[v] = d.info.Types[[]string{cr.A.Name, cr.B.Name}[i]].Elem()
			case plan.gen == bn || (i == 1 && (isIndexed(bn.b) || isSlice(bn.b))):
				vars[v] = types.Int()
			default:
				vars[v] = d.info.Types[bn.ins[i]].Elem()
			}
		}
		t, diags := d.info.ExprType(bn.elem, vars)
		if len(diags) > 0 {
			return &CompileError{Range: bn.b.Range, Message: diags[0].Message}
		}
		want := d.info.Types[bn.b.Name()]
		switch bn.b.Rhs.(type) {
		case *syntax.Filter, *syntax.Slice:
			want = types.Bool()
		case *syntax.Scan:
			want = want.Elem()
		case *syntax.Fold:
		default:
			want = want.Elem()
		}
		if err := types.Unify(want, t); err != nil {
			return &CompileError{Range: bn.b.Range, Message: err.Error()}
		}
		if bn.addend != nil {
			t, diags := d.info.ExprType(bn.addend, map[string]*types.Type{bn.vars[0]: vars[bn.vars[0]]})
			if len(diags) > 0 || types.Unify(t, types.Int()) != nil {
				bn.addend = nil
			}
		}
		if bn.init != nil {
			if _, diags := d.info.ExprType(bn.init, nil); len(diags) > 0 {
				return &CompileError{Range: bn.b.Range, Message: diags[0].Message}
			}
		}
	}
	return nil
}

// floatChain reports whether bn is a fold or scan of Floats: its steps run in order, one
// waiting for the last (Floats are never reassociated in one thread's loop), which no compiler
// vectorises, so the loop that holds it stays scalar.
func (d *definition) floatChain(bn *blockNode) bool {
	switch bn.b.Rhs.(type) {
	case *syntax.Fold, *syntax.Scan:
	default:
		return false
	}
	t := d.info.Types[bn.b.Name()]
	if t != nil && t.IsArray() { // a scan's elements
		t = t.Elem()
	}
	return t != nil && t.Kind() == "Float"
}

// foldParts are the worker, initial value and array of a fold or scan.
func foldParts(c syntax.Combinator) (syntax.Expr, syntax.Expr, *syntax.Ident) {
	if f, ok := c.(*syntax.Fold); ok {
		return f.Worker, f.Init, f.Array
	}
	sc := c.(*syntax.Scan)
	return sc.Worker, sc.Init, sc.Array
}

func isFold(b *syntax.Binding) bool { _, ok := b.Rhs.(*syntax.Fold); return ok }

func isSlice(b *syntax.Binding) bool { _, ok := b.Rhs.(*syntax.Slice); return ok }

// gatherDistance is how many elements ahead a gather prefetches: 32 took lookup.cnf's gather
// (2*10^7 random indices into 160 MB) from 224 to 200-207 ms on this machine.
const gatherDistance = 32

func isGather(bn *blockNode) bool { _, ok := bn.b.Rhs.(*syntax.Gather); return ok }

// inOrder returns a cluster's nodes in the definition's dependency order.
func (d *definition) inOrder(nodes []*cluster.Node) []*cluster.Node {
	pos := map[*syntax.Binding]int{}
	for i, b := range d.r.Func.Order {
		pos[b] = i
	}
	out := slices.Clone(nodes)
	slices.SortStableFunc(out, func(a, b *cluster.Node) int { return pos[a.Binding] - pos[b.Binding] })
	return out
}

func isAppend(b *syntax.Binding) bool { _, ok := b.Rhs.(*syntax.Append); return ok }

func isCross(b *syntax.Binding) bool { _, ok := b.Rhs.(*syntax.Cross); return ok }

// crossed is the cross that drives the loop, if one does.
func (bn *blockNode) crossed() (*syntax.Cross, bool) {
	if bn == nil {
		return nil, false
	}
	cr, ok := bn.b.Rhs.(*syntax.Cross)
	return cr, ok
}

// appended is the append that drives the loop, if one does.
func (bn *blockNode) appended() (*syntax.Append, bool) {
	if bn == nil {
		return nil, false
	}
	ap, ok := bn.b.Rhs.(*syntax.Append)
	return ap, ok
}

func isIndexed(b *syntax.Binding) bool { _, ok := b.Rhs.(*syntax.Indexed); return ok }

// blockedLoop writes a loop in its blocked form. Its bindings are grouped by rate (the count
// their elements come at: the root's, or a filter's or slice's output): each block runs one
// dense loop per rate, the root's first. In it every binding of that rate is a value of the
// loop body (a register, stored only where another rate or memory needs it), a filter or slice
// computes its test into a mask, and a fold over a filter's output adds under the mask, so a
// filter that feeds only folds costs no compaction; the other filters then compact their block
// without a branch, and their rate's loop follows.
func (d *definition) blockedLoop(k int, lp loopPlan) error {
	plan := lp.blocked
	p := fmt.Sprintf("L%d_", k)
	writes := map[string]bool{}
	for _, a := range lp.c.Writes {
		writes[a] = true
	}
	count := func(rate string) string {
		if rate == "" {
			return p + "n_root"
		}
		return ident(p+"n_", rate)
	}
	before := func(rate string) string { // elements of the rate in the blocks before this one
		if rate == "" {
			return p + "base"
		}
		return ident(p+"t_", rate)
	}
	buf := func(a string) string { return ident(p+"b_", a) }
	tmp := func(a string) string { return ident(p+"v_", a) }
	// blk is the C name of the loop's block: its elements, a compile-time constant the loop
	// defines from the bytes an element of its block buffers and inputs take (blockRow, CNF_BLOCK in
	// the runtime). arr declares one buffer of a block and counts its element in that row.
	blk := p + "B"
	row := map[string]string{}
	arr := func(tn, name string) string {
		row[name] = tn
		return fmt.Sprintf("%s %s[%s]", tn, name, blk)
	}
	mask := func(b *syntax.Binding) string { return ident(p+"m_", b.Name()) }
	accOf := func(b *syntax.Binding) string { return ident(p+"acc_", b.Name()) }
	zero := p + "zero" // fullMask's 0
	elemType := func(a string) (string, error) { return d.p.ct.name(d.info.Types[a].Elem()) }
	kv := p + "k"

	// Who makes and who reads each array of the loop.
	maker := map[string]*blockNode{}
	readers := map[string][]*blockNode{}
	for _, bn := range plan.nodes {
		for _, id := range bn.b.Names {
			maker[id.Name] = bn
		}
		for _, a := range bn.ins {
			readers[a] = append(readers[a], bn)
		}
	}
	// stepFails: a fold whose step can fail (an Int division by a variable, a host function):
	// it must run only on the elements it folds, never under a filter's mask over all of the
	// filter's input (`fold (\acc x -> acc + 100 `div` x)` over `filter (/= 0) xs` failed on
	// the zeros the filter drops).
	stepFails := map[*blockNode]bool{}
	for _, bn := range plan.nodes {
		if _, ok := bn.b.Rhs.(*syntax.Fold); ok {
			if pr := d.probe(bn); !pr.ok || pr.effects > 0 {
				stepFails[bn] = true
			}
		}
	}
	isSelect := func(bn *blockNode) bool {
		switch bn.b.Rhs.(type) {
		case *syntax.Filter, *syntax.Slice:
			return true
		}
		return false
	}
	// uniform: filters whose test is the same for every element (truth.go), which keep all of
	// their input or none. Work under their mask gains nothing when they keep all and is all
	// wasted when they keep none, where gcc, left the test alone, deletes the loop's reads: a
	// fold over such a filter runs over what it keeps, and no map is speculated through it.
	uniform := map[*blockNode]bool{}
	for _, bn := range plan.nodes {
		if d.allOrNone(bn) {
			uniform[bn] = true
		}
	}
	// chain: a Float fold over the output of the filter sel, which C keeps in order, one
	// addition (or maximum, ...) after the other: no vector code, each step waiting for the
	// last. Under sel's mask it takes a step for every element sel tests; over what sel keeps,
	// one for each kept element, and the compaction it then needs costs less than a step
	// (docs/performance.md, "Float folds over what a filter keeps"). Unless sel's input rate
	// already has a Float fold over all of it: the loop waits on that chain anyway, and a
	// masked one beside it costs nothing (bench/shapes/floaty.cnf).
	// foldKind is the kind of bn's accumulator if bn is a fold ("" otherwise).
	foldKind := func(bn *blockNode) string {
		if _, ok := bn.b.Rhs.(*syntax.Fold); !ok {
			return ""
		}
		if t := d.info.Types[bn.b.Name()]; t != nil {
			return t.Kind()
		}
		return ""
	}
	floatFold := func(bn *blockNode) bool { return isFold(bn.b) && d.floatChain(bn) }
	chainAt := map[string]bool{} // rates with a Float fold over every element
	for _, bn := range plan.nodes {
		if floatFold(bn) {
			if mk := maker[bn.ins[0]]; mk == nil || !isSelect(mk) {
				chainAt[bn.inRate] = true
			}
		}
	}
	chain := func(bn, sel *blockNode) bool { return floatFold(bn) && !chainAt[sel.inRate] }
	// scalarAt: rates whose pass does costly work (an Int division by a literal, exp, ...),
	// which gcc leaves scalar, and with it everything else in the pass.
	scalarAt := map[string]bool{}
	for _, bn := range plan.nodes {
		if pr := d.probe(bn); pr.costly > 0 {
			scalarAt[bn.inRate] = true
		}
	}
	// tupleFold: a fold whose accumulator is a tuple. Under a mask its step is a choice of a
	// struct (acc = keep ? step : acc), which gcc makes a branch taken at random by the data
	// (a tuple fold of what a filter of a zip keeps ran the optimal clustering's one loop 1.5
	// times slower than Megiddo's two); over what the filter keeps it runs without one.
	tupleFold := func(bn *blockNode) bool { return foldKind(bn) == "Tuple" }
	// masked: a fold or length over a filter's or slice's output, done under its mask in the
	// filter's own rate.
	var masked func(bn *blockNode) *blockNode
	masked = func(bn *blockNode) *blockNode {
		switch bn.b.Rhs.(type) {
		case *syntax.Fold, *syntax.Length:
			if m := maker[bn.ins[0]]; m != nil && isSelect(m) && !uniform[m] && !chain(bn, m) && !tupleFold(bn) && !stepFails[bn] {
				return m
			}
		}
		return nil
	}
	// keptChainAt: rates whose pass has a Float fold over all of it, not under a mask (a
	// filter's kept elements, say): a chain of steps in order, which keeps the pass scalar.
	keptChainAt := map[string]bool{}
	for _, f := range plan.nodes {
		if floatFold(f) && masked(f) == nil {
			keptChainAt[f.inRate] = true
		}
	}
	// spec: a map over a filter's or slice's output (or over such maps) whose worker cannot
	// fail is computed for every element of the filter's input, in the filter's own rate, and
	// what is needed of it compacted by the filter's mask: a filter feeding `map fst` then
	// stores the pairs it keeps once, not the whole annotated element and then the pair.
	// (Work that can fail, such as a division, runs on the survivors only, and so does costly
	// work, an Int division by a literal or a transcendental function: computed for every
	// element, it cost bench/shapes/deep.cnf twice its unfused time. So does slow work, a sqrt
	// or a Float division, where the filter's pass is scalar, held in order by a Float fold
	// over all of it: a scalar sqrt of every element cost a loop 15%. Slow work is speculated
	// only where the pass over what the filter keeps is the scalar one (keptChainAt): there the
	// vector sqrt of every element beat a scalar sqrt of those kept (roots.cnf, 12%); elsewhere
	// it would be vector code either way, and computing it for every element did twice the
	// work at the guessed half and ten times at a tenth (bench/shapes/floatnorm.cnf 0.8 of
	// Megiddo's clustering, which takes the roots of what is kept). And nothing is
	// speculated where costly work keeps the filter's pass scalar: there a map of every
	// element costs a scalar step each, and compacting first is vector code (nested3 and
	// branchy of bench/shapes 10-17% faster).)
	spec := map[*blockNode]*blockNode{}
	for _, bn := range plan.nodes {
		if _, ok := bn.b.Rhs.(*syntax.Map); !ok {
			continue
		}
		var g *blockNode
		for _, a := range bn.ins {
			var ga *blockNode
			if mk := maker[a]; mk != nil && isSelect(mk) {
				ga = mk
			} else if mk != nil {
				ga = spec[mk]
			}
			if ga == nil || (g != nil && ga != g) {
				g = nil
				break
			}
			g = ga
		}
		// Nor through a slice: its run of each block costs nothing to find, so speculating
		// saved no compaction and computed the map for every element the slice drops (a `drop
		// n` of all of a filter's output, fused with maps of it: chains 168 at 0.93 of the
		// unfused clustering's time; docs/performance.md, "Speculation by the block before").
		if g == nil || uniform[g] || isSlice(g.b) {
			continue
		}
		// Nothing that can fail or has effects (division by a variable, indexing, a host
		// function), and nothing costly, found by translating the worker once aside.
		if pr := d.probe(bn); pr.ok && pr.effects == 0 && pr.costly == 0 && (pr.slow == 0 || !chainAt[g.inRate] && keptChainAt[bn.inRate]) && !scalarAt[g.inRate] {
			spec[bn] = g
		}
	}
	// Speculation pays where it replaces the filter's own compaction: the filter's output is
	// needed only through one speculated map and folds under its mask. Otherwise (the output
	// stored, several maps needed, a fold over what it keeps) it would add a compaction of
	// every element a map, however few the filter keeps.
	for _, g := range plan.nodes {
		if !isSelect(g) {
			continue
		}
		own, maps := false, 0
		if writes[g.b.Name()] {
			own = true
		}
		for _, r := range readers[g.b.Name()] {
			if spec[r] == nil {
				switch r.b.Rhs.(type) {
				case *syntax.Fold, *syntax.Length:
					// A fold not under the mask (a Float chain, a tuple, a step that can
					// fail) reads the kept elements: keptsums compacted both g and h.
					if masked(r) == nil {
						own = true
					}
				default:
					own = true
				}
			}
		}
		for s, sg := range spec {
			if sg == g && (writes[s.b.Name()] || slices.ContainsFunc(readers[s.b.Name()], func(r *blockNode) bool { return spec[r] == nil })) {
				maps++
			}
		}
		if own || maps > 1 {
			for s, sg := range spec {
				if sg == g {
					delete(spec, s)
				}
			}
		}
	}
	// keptAnyway: a filter or slice whose kept elements are compacted for a reader that is not a
	// fold (a scan, a map, a store). A fold of it then runs over the kept elements too, a dense
	// step for each kept element, rather than a masked step for every element the filter tests
	// in the filter's pass: that pass is scalar when its test is (an Int `mod` by a literal), and
	// a masked max is nine instructions (a filter feeding a scan and a max ran 0.7 times as fast
	// as Megiddo's clustering, docs/performance.md, "Slices as runs, folds over what is kept").
	// setSpec makes s the loop's speculated maps, and keptAnyway and masked follow from it: a
	// loop whose filters keep few (sparseSpec) is written twice, with its speculation and
	// without.
	var keptAnyway map[*blockNode]bool
	maskedBase := masked
	setSpec := func(s map[*blockNode]*blockNode) {
		spec = s
		keptAnyway = map[*blockNode]bool{}
		for _, g := range plan.nodes {
			if !isSelect(g) {
				continue
			}
			keptAnyway[g] = writes[g.b.Name()] || slices.ContainsFunc(readers[g.b.Name()], func(r *blockNode) bool {
				switch r.b.Rhs.(type) {
				case *syntax.Fold, *syntax.Length:
					return false
				}
				return spec[r] == nil
			})
		}
		if m := maskedBase; m != nil {
			masked = func(bn *blockNode) *blockNode {
				if r := m(bn); r != nil {
					if keptAnyway[r] {
						return nil
					}
					return r
				}
				switch bn.b.Rhs.(type) {
				case *syntax.Fold, *syntax.Length:
					if mk := maker[bn.ins[0]]; mk != nil && spec[mk] != nil && !chain(bn, spec[mk]) && !stepFails[bn] {
						return spec[mk]
					}
				}
				return nil
			}
		}
	}
	setSpec(spec)
	// needed: an array of a filter's rate that must exist as that rate's array (compacted):
	// written to memory, or read by a binding that is neither speculated nor a masked fold.
	needed := func(a string) bool {
		if writes[a] {
			return true
		}
		for _, r := range readers[a] {
			if masked(r) == nil && spec[r] == nil {
				return true
			}
		}
		return false
	}
	// compacted: a filter or slice whose mask is stored, for its own output or for a
	// speculated map's.
	compacted := func(sel *blockNode) bool {
		if needed(sel.b.Name()) {
			return true
		}
		for s, g := range spec {
			if g == sel && needed(s.b.Name()) {
				return true
			}
		}
		return false
	}
	inRate := func(bn *blockNode) string {
		if bn == plan.gen {
			return ""
		}
		if m := masked(bn); m != nil {
			return m.inRate
		}
		if g := spec[bn]; g != nil {
			return g.inRate
		}
		return bn.inRate
	}
	// perBlock: a length, or an Int fold whose step adds the same value for every element
	// (\acc x -> acc + e, e naming neither the element nor anything that can fail), over
	// elements the block counts anyway (its own rate's, or a compacted filter's): its step
	// runs once a block, acc + e * count, which wrapping arithmetic makes the sum of count e's
	// bit for bit. Under a mask it was a step for every element the filter tests (mixed 128's
	// loop of two filters and four folds, three of them counts: docs/performance.md, "Loops
	// from the slices' first start, counts once a block"). findPerBlock gives the C of the
	// count and of e (1 for a length); perBlock finds each node's once, where the loop's body
	// first asks.
	findPerBlock := func(bn *blockNode) (cnt, e string, ok bool) {
		if bn == plan.gen || len(bn.ins) == 0 {
			return "", "", false
		}
		switch bn.b.Rhs.(type) {
		case *syntax.Length:
			e = "INT64_C(1)"
		case *syntax.Fold:
			if foldKind(bn) != "Int" || bn.addend == nil {
				return "", "", false
			}
			app, isApp := bn.addend.(*syntax.App)
			if !isApp {
				return "", "", false // (+): the element itself
			}
			lam := app.Fun.(*syntax.Lambda)
			for _, name := range patternNames(lam.Params[0]) {
				if mentions(lam.Body, name) {
					return "", "", false
				}
			}
			if stepFails[bn] {
				return "", "", false
			}
			v, err := d.x.value(lam.Body, nil, quote(bn.b.Name()))
			if err != nil {
				return "", "", false
			}
			e = v
		default:
			return "", "", false
		}
		if m := masked(bn); m != nil {
			if !compacted(m) {
				return "", "", false
			}
			return count(m.rate), e, true
		}
		if spec[bn] != nil {
			return "", "", false
		}
		return count(bn.inRate), e, true
	}
	type step struct {
		cnt, e string
		ok     bool
	}
	var perBlocks map[*blockNode]step
	perBlock := func(bn *blockNode) (cnt, e string, ok bool) {
		st, found := perBlocks[bn]
		if !found {
			st.cnt, st.e, st.ok = findPerBlock(bn)
			perBlocks[bn] = st
		}
		return st.cnt, st.e, st.ok
	}
	// derive places the bindings of the loop as spec has them (setSpec): which arrays are
	// buffered, and in which pass each binding runs.
	var buffered map[string]bool
	var pass map[*blockNode]int
	var passes int
	// latent: a node whose element waits on a long-latency operation (program.latent); safe:
	// one that cannot fail, which may run in a later pass than what it reads (a failure of the
	// earlier pass is then the first in order still).
	latent, safe := map[*blockNode]bool{}, map[*blockNode]bool{}
	probes := map[*blockNode]probed{} // each node's, before any is bound (probe unbinds its vars)
	for _, bn := range plan.nodes {
		pr := d.probe(bn)
		probes[bn] = pr
		latent[bn] = pr.ok && pr.latent > 0 && !isSelect(bn)
		safe[bn] = pr.ok && pr.effects == 0 && pr.hostCalls == 0
	}
	derive := func() {
		perBlocks = map[*blockNode]step{}
		// buffered: an array made as a value of its rate's loop that a compaction reads.
		buffered = map[string]bool{}
		for _, bn := range plan.nodes {
			if isSelect(bn) && needed(bn.b.Name()) {
				src := bn.ins[0]
				if m := maker[src]; m != nil && !isSelect(m) {
					buffered[src] = true
				}
			}
		}
		// pass: the loops each rate's block runs in, one after the other. The scans, and what
		// reads a scan's or a gather's elements, run in loops after the loop that makes what they
		// read, which gcc can then vectorise (a scan's chain of dependences keeps its whole loop
		// scalar). A scan is in an odd pass, after the even pass that makes its input; what reads
		// a scan's elements (the scan's filter, folds, maps) is in the even pass after it, where it
		// is vectorised again (bench/shapes/runs.cnf: a filter, a length and a min fold of a
		// running balance); a chain of scans shares one pass. What reads a gather's elements is in
		// the pass after the gather's, so that the gather's loop does little besides its loads and
		// many of them (cache misses, from an array larger than the caches) are in flight at once
		// (gather, map, filter and two folds: 287 -> 215 ms at 2*10^7 elements;
		// docs/performance.md). So does what reads a map that waits on a long division or an
		// exp (latent) and cannot fail: a chain of two divisions an element in one loop body
		// left the core waiting on it (bench/shapes/divs.cnf: 33.2 -> 29.2 ms, two passes). A
		// fold or length masked by a filter runs in its filter's pass (it reads the filter's
		// test). Arrays a later pass reads from an earlier one are buffered.
		pass = map[*blockNode]int{}
		passes = 1
		for _, bn := range plan.nodes {
			_, scan := bn.b.Rhs.(*syntax.Scan)
			ins, at, filter := bn.ins, 0, masked(bn)
			if filter != nil {
				ins = filter.ins
			}
			for _, a := range ins {
				m := maker[a]
				if m == nil || inRate(m) != inRate(bn) {
					continue
				}
				q := pass[m]
				if _, mscan := m.b.Rhs.(*syntax.Scan); (mscan && !scan) || isGather(m) || latent[m] && safe[bn] && filter == nil {
					q++ // after the scan's, gather's or long-latency map's pass
				}
				at = max(at, q)
			}
			if scan && at%2 == 0 {
				at++ // scans in odd passes, apart from what vectorises
			}
			if filter != nil {
				at = pass[filter]
			}
			pass[bn] = at
			passes = max(passes, at+1)
		}
		for _, bn := range plan.nodes {
			ins := bn.ins
			if m := masked(bn); m != nil {
				ins = m.ins
			}
			for _, a := range ins {
				m := maker[a]
				if m != nil && isSelect(m) && inRate(m) == inRate(bn) && spec[bn] == m {
					a, m = m.ins[0], maker[m.ins[0]] // a speculated map reads the filter's input
				}
				if m != nil && pass[m] < pass[bn] && !isSelect(m) && inRate(m) == inRate(bn) {
					buffered[a] = true
				}
			}
		}
	}
	derive()
	// sparseSpec: a speculated map pays where its filter keeps much of what it tests (the
	// cost model guesses half); where it keeps little, the map of every element is work done
	// for nothing (a filter that keeps nothing on the bench's inputs, `x * x == 3`, left the
	// optimal clustering's one loop doing every map under it for every element, and 0.7 as
	// fast as stream fusion's loops). A loop that speculates through a filter whose block's
	// count it knows anyway (it compacts) is written twice, and each block runs one of the
	// two by what the filters kept of the block before: with the speculation, or, where they
	// kept under half of what they tested, without it, the maps and folds over what the
	// filters keep (a filter keeping 35-45% of a map's input ran in 0.88-0.94 of the
	// speculating form's time that way; docs/performance.md, "Speculation by the block
	// before"). Either computes the block's elements as the fused process does, so the results
	// are the same whichever runs. Filters whose speculated maps only move values (`map fst`)
	// keep theirs: those cost nothing for every element either (a 23-binding loop of the
	// 100-binding program, written twice for one, took a tenth more of its compile).
	specDense := spec
	var sparse []*blockNode // the filters whose speculation the sparse form drops
	for _, g := range plan.nodes {
		if _, ok := g.b.Rhs.(*syntax.Filter); ok && compacted(g) && slices.ContainsFunc(plan.nodes, func(s *blockNode) bool { return spec[s] == g && !movesOnly(s.elem) }) {
			sparse = append(sparse, g)
		}
	}
	specSparse := map[*blockNode]*blockNode{}
	for s, g := range spec {
		if !slices.Contains(sparse, g) {
			specSparse[s] = g
		}
	}
	// Nor where the speculation puts a fold under the mask whose step is not an addition (a
	// max, min or product by a select of the identity, maskedStep; any other step a choice):
	// that step for every element tested costs more than the same fold over what the filter
	// keeps, dense, after the compaction the filter needs anyway, at any rate it keeps. Five
	// nested filters with a max over a speculated map (`sc = fold max 0 c2`) ran 12-20%
	// faster without the speculation with the filters keeping 67-100%, cache-resident, and
	// the optimal clustering's one loop behind Megiddo's six at 10^7; a filter of a map
	// folded by max, 3-14% at 75-90% (docs/performance.md, "Masked selects dropped"). There
	// only the form without that speculation is written.
	if len(sparse) > 0 && slices.ContainsFunc(plan.nodes, func(bn *blockNode) bool {
		m := masked(bn)
		return m != nil && slices.Contains(sparse, m) && isFold(bn.b) && bn.addend == nil
	}) {
		setSpec(specSparse)
		derive()
		specDense, sparse = specSparse, nil
	}
	// ref is an array's element in the loop that makes the arrays of made.
	var made map[string]bool
	ref := func(a string) string {
		if made[a] {
			return tmp(a)
		}
		return fmt.Sprintf("%s[%s]", buf(a), kv)
	}
	// refIn is an input's element as the binding bn reads it: in the filter's own rate, a
	// masked fold or a speculated map reads the filter's input for its output.
	refIn := func(bn *blockNode, a string) string {
		if mk := maker[a]; mk != nil && isSelect(mk) && (masked(bn) == mk || spec[bn] == mk) {
			return ref(mk.ins[0])
		}
		return ref(a)
	}
	specBuf := func(a string) string { return ident(p+"s_", a) }
	streamBuf := func(a string) string { return ident(p+"w_", a) }
	streamCarry := func(a string) string { return ident(p+"cy_", a) } // its partial last line (cnf_stream_carry)

	// The loop's body is written aside, to learn which scalars it divides by.
	outer := d.b
	d.b = strings.Builder{}
	d.x.divisors = map[string]bool{}
	defer func() { d.x.divisors = nil }()
	bind := func(name, c string, t *types.Type) { d.x.vars[name] = val{c: c, t: t} }
	// bindIns binds bn's vars to its input elements as it reads them (refIn).
	bindIns := func(bn *blockNode) {
		for i, a := range bn.ins {
			if i < len(bn.vars) && bn.vars[i] != bn.acc {
				bind(bn.vars[i], refIn(bn, a), d.info.Types[a].Elem())
			}
		}
	}
	defer func() {
		for _, bn := range plan.nodes {
			for _, v := range bn.vars {
				delete(d.x.vars, v)
			}
		}
	}()

	// Before the blocks: the root count, outputs, accumulators, counters, buffers. A loop on a
	// team of threads (parallel.go) makes its count and outputs once (shared) and the rest in
	// each chunk.
	par, parWhy := d.parallel(plan)
	// On a team each chunk's views of the loop's inputs shadow the arrays (teamLoop); what an
	// expression reads from one (a gather's data, xs ! i in a worker) reads the whole array,
	// the view's original.
	if par != nil {
		for _, a := range plan.roots {
			if v, ok := d.x.vars[a]; ok {
				d.x.vars[a] = val{c: p + "o_" + cname(a), t: v.t}
				defer func() { d.x.vars[a] = v }()
			}
		}
	}
	// position is the C of an element's position in its rate (indexed, slices). On a team, a
	// chunk or tile of the loop's input starts at its lo: only the input's own rate is split
	// (parallel), where the position is lo plus the element's place in the chunk.
	origin := "" // the C of the input's first position the loop reads, and a +, when not 0
	positionAt := func(rate, k string) string {
		if rate == "" {
			if par != nil {
				return fmt.Sprintf("(%s%slo + %s + %s)", origin, p, before(rate), k)
			}
			return fmt.Sprintf("(%s%s + %s)", origin, before(rate), k)
		}
		return fmt.Sprintf("(%s + %s)", before(rate), k)
	}
	position := func(rate string) string { return positionAt(rate, kv) }
	// bindReverse binds the element var of bn, a reverse, to its input's element from the
	// end: position i of the reverse is n-1-i of the input, the whole array's (on a team, not
	// the chunk's view).
	bindReverse := func(bn *blockNode, e *syntax.Reverse, rate string) {
		in := d.x.vars[e.Array.Name].c
		d.x.vars[bn.vars[0]] = val{c: fmt.Sprintf("%s.data[%s.len - 1 - %s]", in, in, position(rate)), t: d.info.Types[e.Array.Name].Elem()}
	}
	// blockStart is the C of a block's first position in the loop's input (a chunk's start
	// added on a team): where an append's or a cross's block begins.
	blockStart := p + "base"
	if par != nil {
		blockStart = fmt.Sprintf("(%slo + %sbase)", p, p)
	}
	var pre, shared strings.Builder
	prf := func(format string, args ...any) { fmt.Fprintf(&pre, format, args...) }
	sprf := prf
	if par != nil {
		sprf = func(format string, args ...any) { fmt.Fprintf(&shared, format, args...) }
	}
	if ap, ok := plan.gen.appended(); ok {
		sprf("\tconst int64_t %sn = %s.len + %s.len;\n", p, cname(ap.A.Name), cname(ap.B.Name))
	} else if cr, ok := plan.gen.crossed(); ok {
		sprf("\tconst int64_t %sn = cnf_bound_mul(%s.len, %s.len, %s);\n", p, cname(cr.A.Name), cname(cr.B.Name), quote(plan.gen.b.Name()))
	} else if plan.gen != nil {
		g := plan.gen.b.Rhs.(*syntax.Generate)
		n, err := d.x.value(g.Size, nil, quote(plan.gen.b.Name()))
		if err != nil {
			return err
		}
		sprf("\tconst int64_t %sn = %s < 0 ? 0 : %s;\n", p, n, n)
	} else {
		n := cname(plan.roots[0]) + ".len"
		starts, ends, err := d.sliceBounds(plan, n)
		if err != nil {
			return err
		}
		if len(starts) > 0 && !slices.Contains(starts, "INT64_C(0)") {
			// Only slices read the input, and all start past 0: before the first start nothing
			// of the loop reads it (its elements would be tested and dropped; a drop of most
			// of the input, fused with folds of what it keeps, ran over all of it). The loop
			// runs over a view of each input from there (origin), its positions counted from
			// the input's start; what an expression reads from the input (xs ! i) reads the
			// whole array.
			org := starts[0]
			for _, s := range starts[1:] {
				org = fmt.Sprintf("({ const int64_t cnf_a_ = %s, cnf_b_ = %s; cnf_a_ < cnf_b_ ? cnf_a_ : cnf_b_; })", org, s)
			}
			sprf("\tconst int64_t %sorg = %s; /* the input from the first position its slices keep */\n", p, org)
			for _, a := range plan.roots {
				tn, err := d.p.ct.name(d.info.Types[a])
				if err != nil {
					return err
				}
				sprf("\tconst %s %sr_%s = %s;\n", tn, p, cname(a), cname(a))
				sprf("\tconst %s %s = {%sr_%s.data + %sorg, %sr_%s.len - %sorg};\n", tn, cname(a), p, cname(a), p, p, cname(a), p)
				if v, ok := d.x.vars[a]; ok {
					d.x.vars[a] = val{c: p + "r_" + cname(a), t: v.t}
					defer func() { d.x.vars[a] = v }()
				}
			}
			origin = p + "org + "
		}
		plan.origin = origin
		if origin != "" && len(ends) > 0 {
			// The ends within the whole input, not its view.
			if _, ends, err = d.sliceBounds(plan, p+"r_"+n); err != nil {
				return err
			}
		}
		if len(ends) > 0 {
			// Only takes and slices read the input: past the furthest end of what they keep,
			// nothing of the loop reads it (its elements would be tested and dropped).
			n = ends[0]
			for _, e := range ends[1:] {
				n = fmt.Sprintf("({ const int64_t cnf_a_ = %s, cnf_b_ = %s; cnf_a_ > cnf_b_ ? cnf_a_ : cnf_b_; })", n, e)
			}
			if origin != "" {
				n = fmt.Sprintf("({ const int64_t cnf_e_ = %s; cnf_e_ > %sorg ? cnf_e_ - %sorg : 0; })", n, p, p)
			}
			sprf("\tconst int64_t %sn = %s; /* the input up to the furthest end its slices keep */\n", p, n)
		} else {
			sprf("\tconst int64_t %sn = %s;\n", p, cname(plan.roots[0])+".len")
		}
	}
	// streamed: the loop's outputs, each block of which goes through a buffer and out with
	// streaming stores when the loop moves more bytes than the cache holds (cnf_stream_worth)
	// and its first calls measured streaming faster than plain stores (cnf_stream_pick),
	// decided once a call, before any team. An output at a filter's rate (a compaction, a map
	// of what a filter keeps) is streamed too, by the block's count of its rate: written with
	// plain stores, each line it filled was first read from memory, and a loop writing two such
	// outputs ran 10% behind Megiddo's clustering, which writes one of them from a loop of its
	// own at its input's rate (docs/performance.md, "Outputs at a filter's rate, streamed"). On
	// a team of more than one thread such outputs go to each thread's buffer first (in tiles,
	// parallel.go), which cnf_copy_out streams: there they are streamed only when the team is
	// one thread (streamFlag). Each streamed output has a carry (streamCarry): its blocks go out
	// in whole lines, the partial last one waiting for the next block, and what is left goes out
	// after the loop (cnf_stream_flush): blocks at a filter's rate start anywhere in a line, and
	// with their partial lines written by plain stores such outputs moved at half speed
	// (docs/performance.md, "Outputs at a filter's rate, a line at a time").
	streamed := map[string]bool{}
	filtered := map[string]bool{} // the streamed outputs at a filter's rate
	streamFlag := func(a string) string {
		if filtered[a] && par != nil {
			return p + "kstream"
		}
		return p + "stream"
	}
	// blockOut is the C declaring where a block of the output a (of element type tn) is
	// written: its buffer when streamed, else its place in memory; flush streams the block's
	// count elements out from the buffer.
	blockOut := func(tn, a string) {
		if streamed[a] {
			d.printf("\t\t%s *restrict %s = %s ? %s : %s.data + %s.len;\n", tn, buf(a), streamFlag(a), streamBuf(a), cname(a), cname(a))
		} else {
			d.printf("\t\t%s *restrict %s = %s.data + %s.len;\n", tn, buf(a), cname(a), cname(a))
		}
	}
	flush := func(a, count string) {
		if streamed[a] {
			d.printf("\t\tif (%s) cnf_stream_carry(&%s, %s.data + %s.len, %s, (size_t)%s * sizeof *%s.data);\n", streamFlag(a), streamCarry(a), cname(a), cname(a), streamBuf(a), count, cname(a))
		}
	}
	// runOf: the slice whose kept elements bn's output is, a run of each block (the slice
	// itself, or a map speculated through it), or nil.
	runOf := func(bn *blockNode) *blockNode {
		if isSlice(bn.b) && compacted(bn) {
			return bn
		}
		if g := spec[bn]; g != nil && isSlice(g.b) && compacted(g) {
			return g
		}
		return nil
	}
	// sliceRun keeps what the slice bn keeps of a block, its compactions cs: the positions a
	// slice keeps are one run, so each block keeps a run of its elements, found from the
	// block's first position without a mask. A run read in the loop is a pointer into the
	// block it is cut from; one stored is copied out (tail of a map compacted every block
	// by its mask: a fifth of a loop's time, bench/shapes/tails.cnf).
	sliceRun := func(bn *blockNode, sl *syntax.Slice, rate string, cs []compaction) error {
		w := quote(bn.b.Name())
		from, to := ident(p+"from_", bn.b.Name()), ident(p+"to_", bn.b.Name())
		at, n := positionAt(rate, "0"), count(rate)
		start, end, err := d.sliceRunBounds(sl, w)
		if err != nil {
			return err
		}
		lo, hi := "0", n
		if start != "" {
			lo = fmt.Sprintf("cnf_run_clamp(%s - %s, 0, %s)", start, at, n)
		}
		if end != "" {
			hi = fmt.Sprintf("cnf_run_clamp(%s - %s, %s, %s)", end, at, from, n)
		}
		d.printf("\t\t/* %s = %s: a run of the block, without a mask */\n", bn.b.Name(), strings.ReplaceAll(syntax.FormatCombinator(bn.b.Rhs), "*/", "* /"))
		d.printf("\t\tconst int64_t %s = %s;\n", from, lo)
		d.printf("\t\tconst int64_t %s = %s;\n", to, hi)
		d.printf("\t\tconst int64_t %s = %s - %s;\n", count(bn.rate), to, from)
		for _, c := range cs {
			if !writes[c.out] {
				d.printf("\t\t%s = %s + %s;\n", buf(c.out), c.src, from)
				continue
			}
			tn, err := elemType(c.out)
			if err != nil {
				return err
			}
			blockOut(tn, c.out)
			d.printf("\t\tmemcpy(%s, %s + %s, (size_t)%s * sizeof *%s);\n", buf(c.out), c.src, from, count(bn.rate), buf(c.out))
			flush(c.out, count(bn.rate))
			d.printf("\t\t%s.len += %s;\n", cname(c.out), count(bn.rate))
		}
		return nil
	}
	var moved []string
	for _, a := range plan.roots {
		moved = append(moved, fmt.Sprintf("sizeof *%s.data", cname(a)))
	}
	if ap, ok := plan.gen.appended(); ok {
		moved = append(moved, fmt.Sprintf("sizeof *%s.data", cname(ap.A.Name))) // an element of either
	}
	if cr, ok := plan.gen.crossed(); ok {
		moved = append(moved, fmt.Sprintf("sizeof *%s.data", cname(cr.B.Name))) // one of ys's a pair
	}
	for _, bn := range plan.nodes {
		for _, id := range bn.b.Names {
			if writes[id.Name] {
				streamed[id.Name] = true
				if inRate(bn) != "" || isSelect(bn) || spec[bn] != nil {
					filtered[id.Name] = true
				}
			}
		}
	}
	for _, a := range slices.Sorted(maps.Keys(writes)) {
		tn, err := elemType(a)
		if err != nil {
			return err
		}
		moved = append(moved, "sizeof("+tn+")")
	}
	if len(streamed) > 0 {
		// Whether streaming stores pay is measured, not assumed: the loop learns it on its
		// first calls (cnf_stream_pick, cnf_stream_took; the runtime's cnf_tune).
		sprf("\tstatic cnf_tune %stune; /* streaming or plain stores, as measured on this loop's first calls */\n", p)
		sprf("\tconst int64_t %smoved = %sn * (int64_t)(%s);\n", p, p, strings.Join(moved, " + "))
		sprf("\tconst int %spick = cnf_stream_pick(&%stune, %smoved);\n", p, p, p)
		sprf("\tconst int %sstream = %spick & 1; /* outputs by streaming stores */\n", p, p)
		sprf("\tconst double %st0 = %spick & 2 ? cnf_now() : 0;\n", p, p)
		var sizes, all []string
		for _, a := range slices.Sorted(maps.Keys(streamed)) {
			tn, err := elemType(a)
			if err != nil {
				return err
			}
			sz := "sizeof(" + tn + ")"
			all = append(all, sz)
			if !slices.Contains(sizes, sz) {
				sizes = append(sizes, sz)
			}
		}
		sprf("\tconst int64_t %sbstep = %sstream ? cnf_stream_step(%s, (int64_t)(%s), %s) : %s; /* the blocks' elements: less when streamed (cnf_stream_step) */\n", p, p, maxSizeC(sizes), strings.Join(all, " + "), blk, blk)
	}
	if par != nil && len(filtered) > 0 {
		prf("\tconst int %skstream = %sstream && %sT <= 1; /* outputs at a filter's rate too: on more threads, each thread's buffer is streamed out (cnf_copy_out) */\n", p, p, p)
	}
	crossA, crossB := p+"xa", p+"xb" // a cross's block of pairs: xs's elements, ys's
	if cr, ok := plan.gen.crossed(); ok {
		ta, err := elemType(cr.A.Name)
		if err != nil {
			return err
		}
		tb, err := elemType(cr.B.Name)
		if err != nil {
			return err
		}
		prf("\t%s; /* %s's pairs, when a block holds more than one row: %s's elements */\n", arr(ta, crossA), plan.gen.b.Name(), cr.A.Name)
		prf("\t%s; /* and %s's */\n", arr(tb, crossB), cr.B.Name)
		prf("\tint64_t %sxi = 0, %sxj = 0; /* the block's first pair: its row, and its place in the row */\n", p, p)
	}
	// Every loop with a fold or length under a mask has the zero (the asm uses it, so a fold
	// whose step is a select rather than a mask, a Float fold, leaves no unused variable).
	if slices.ContainsFunc(plan.nodes, func(bn *blockNode) bool { return masked(bn) != nil }) {
		prf("\tint64_t %s = 0;\n\t__asm__(\"\" : \"+r\"(%s)); /* a 0 gcc cannot see through, for the masks of folds (fullMask) */\n", zero, zero)
	}
	// declare writes the buffers, masks, counters and accumulators of the loop as spec has
	// them, each once: a loop written twice (sparseSpec) declares what either needs.
	declared := map[string]bool{}
	once := func(f func(string, ...any)) func(string, ...any) {
		return func(format string, args ...any) {
			if s := fmt.Sprintf(format, args...); !declared[s] {
				declared[s] = true
				f("%s", s)
			}
		}
	}
	declare := func() error {
		prf, sprf := once(prf), once(sprf)
		for _, bn := range plan.nodes {
			if isSelect(bn) && compacted(bn) {
				prf("\tint64_t %s = 0;\n", before(bn.rate))
				if !isSlice(bn.b) {
					prf("\t%s;\n", arr("uint8_t", mask(bn.b)))
				}
			}
			for _, id := range bn.b.Names {
				a := id.Name
				if !d.info.Types[a].IsArray() {
					continue
				}
				tn, err := elemType(a)
				if err != nil {
					return err
				}
				if spec[bn] != nil && needed(a) {
					prf("\t%s; /* %s for every element %s tests */\n", arr(tn, specBuf(a)), a, spec[bn].b.Name())
				}
				switch {
				case writes[a]:
					bound, err := d.bound(a)
					if err != nil {
						return err
					}
					if len(plan.roots) > 0 {
						// Beside the first input it walks: cnf_peel then aligns both.
						sprf("\t%s.data = cnf_alloc_slack_at(%s, sizeof(%s), %s, %s.data);\n\t%s.len = 0;\n", cname(a), bound, tn, quote(a), cname(plan.roots[0]), cname(a))
					} else {
						sprf("\t%s.data = cnf_alloc_slack(%s, sizeof(%s), %s);\n\t%s.len = 0;\n", cname(a), bound, tn, quote(a), cname(a))
					}
					if streamed[a] {
						prf("\t%s; /* a block of %s, written out by streaming stores */\n", arr(tn, streamBuf(a)), a)
						prf("\tcnf_carry %s; /* and its last partial line */\n\t%s.n = 0;\n", streamCarry(a), streamCarry(a))
					}
				case runOf(bn) != nil && needed(a):
					prf("\tconst %s *%s; /* %s, a block's run of %s's input */\n", tn, buf(a), a, runOf(bn).b.Name())
				case isSelect(bn) && needed(a) || buffered[a] || spec[bn] != nil && needed(a):
					prf("\t%s; /* %s, a block at a time */\n", arr(tn, buf(a)), a)
				}
			}
			if bn.acc != "" || isLength(bn.b) {
				at := d.info.Types[bn.b.Name()]
				if at.IsArray() {
					at = at.Elem()
				}
				tn, err := d.p.ct.name(at)
				if err != nil {
					return err
				}
				init := "0"
				if bn.init != nil {
					if init, err = d.x.value(bn.init, nil, quote(bn.b.Name())); err != nil {
						return err
					}
				}
				if op, ok := par.fold(bn); ok {
					init = fmt.Sprintf("%sc == 0 ? %s : %s", p, init, op.identity) // the first chunk starts the fold
				}
				prf("\t%s %s = %s; /* %s's accumulator */\n", tn, accOf(bn.b), init, bn.b.Name())
				if bn.acc != "" {
					bind(bn.acc, accOf(bn.b), at)
				}
			}
		}
		return nil
	}
	if err := declare(); err != nil {
		return err
	}
	if len(sparse) > 0 {
		setSpec(specSparse)
		derive()
		if err := declare(); err != nil {
			return err
		}
		setSpec(specDense)
		derive()
		var names []string
		for _, g := range sparse {
			names = append(names, g.b.Name())
		}
		prf("	int %ssparse = 0; /* the block before kept under half of what %s tested (sparseSpec) */\n", p, strings.Join(names, ", "))
	}

	// hoistIn is the part of a pass's loop that runs in a loop of its own before it: work gcc
	// never vectorises (a 64-bit division by anything but a power of two, exp, log, sin, cos,
	// **: program.scalar) kept the whole loop scalar, every fold, map and test in it
	// included. Apart, the tests and maps that do it (and the maps of the pass they read) store
	// their elements in block buffers, and the rest of the pass reads them there, vectorised
	// (four sibling filters testing remainders by 2, 3, 5 and 7, each folded: 57-69 ms in one
	// scalar loop, 44-47 ms so, and the unfused clustering's nine loops 49-55 ms;
	// docs/performance.md, "Work gcc leaves scalar, apart"). Only what cannot fail moves
	// ahead (a failure is then still the first in order), and only where the rest has work
	// and vectorises: nil otherwise.
	hoistIn := func(loop []*blockNode) map[*blockNode]bool {
		if slices.ContainsFunc(loop, d.floatChain) {
			return nil // the pass is scalar anyway
		}
		inLoop := map[string]*blockNode{}
		scalar := map[*blockNode]bool{}
		for _, bn := range loop {
			if _, ok := bn.b.Rhs.(*syntax.Scan); ok {
				return nil
			}
			pr := probes[bn]
			if !pr.ok {
				return nil
			}
			scalar[bn] = pr.scalar > 0
			for _, id := range bn.b.Names {
				inLoop[id.Name] = bn
			}
		}
		// A reverse reads its input backwards, and gcc vectorises no loop with a negative
		// step beside elements of another size ("multiple types with negative step": a
		// filter's mask bytes, an element of another type): the whole pass stayed scalar (a
		// filter of the differences of xs and its reverse, 0.78 of Megiddo's clustering's
		// time, docs/performance.md, "Reverses apart"). Apart, the block's run of the reverse
		// is one type with a negative step, which gcc vectorises with a permute.
		for _, bn := range loop {
			if _, ok := bn.b.Rhs.(*syntax.Reverse); !ok {
				continue
			}
			t := d.info.Types[bn.b.Name()]
			scalar[bn] = slices.ContainsFunc(loop, func(o *blockNode) bool {
				if isSelect(o) {
					return true
				}
				ot := d.info.Types[o.b.Name()]
				return ot != nil && t != nil && ot.IsArray() && ot.String() != t.String()
			})
		}
		movable := func(bn *blockNode) bool {
			switch bn.b.Rhs.(type) {
			case *syntax.Map, *syntax.Zip, *syntax.Filter, *syntax.Reverse:
			default:
				return false
			}
			if spec[bn] != nil || uniform[bn] {
				return false
			}
			if _, _, ok := perBlock(bn); ok {
				return false
			}
			return safe[bn]
		}
		h := map[*blockNode]bool{}
		var need func(bn *blockNode) bool
		need = func(bn *blockNode) bool {
			if h[bn] {
				return true
			}
			if !movable(bn) {
				return false
			}
			for _, a := range bn.ins {
				if m := inLoop[a]; m != nil && m != bn && !need(m) {
					return false
				}
			}
			h[bn] = true
			return true
		}
		for _, bn := range loop {
			if scalar[bn] && !need(bn) {
				return nil // scalar work stays in the loop: nothing vectorises
			}
		}
		if len(h) == 0 {
			return nil
		}
		rest := 0
		for _, bn := range loop {
			if !h[bn] {
				if _, _, ok := perBlock(bn); !ok {
					rest++
				}
			}
		}
		if rest < hoistRest {
			return nil
		}
		return h
	}
	// passLoop is the nodes of rate's pass k, in order.
	passLoop := func(rate string, k int) []*blockNode {
		var loop []*blockNode
		for _, bn := range plan.nodes {
			if inRate(bn) == rate && pass[bn] == k {
				loop = append(loop, bn)
			}
		}
		return loop
	}

	// A loop that keeps no buffer (no compaction, no second loop) needs no blocks: it runs over
	// the whole input at once (gcc compiled normalize2's dividing loop slower inside blocks;
	// docs/performance.md, "Behind the code", G4).
	stored := func(a string) bool { return writes[a] || buffered[a] } // arrays the loop keeps in memory
	_, crossing := plan.gen.crossed()
	whole := len(buffered) == 0 && !crossing // a cross's pairs are laid out in blocks
	for _, bn := range plan.nodes {
		if isSelect(bn) && compacted(bn) || pass[bn] > 0 {
			whole = false
		}
	}
	for _, rate := range plan.rates {
		for k := range passes {
			l := passLoop(rate, k)
			if h := hoistIn(l); h != nil || d.checkedGathers(l, h, probes, stored) != nil {
				whole = false // the hoisted work's buffers are a block's, as are checked gathers' indices
			}
		}
	}
	// The elements before the first input's first 64-byte boundary (NumPy's arrays start 16
	// bytes past one) are a first, short block of their own (cnf_peel): the blocks after it
	// load and store at boundaries, where a 64-byte vector load never straddles two cache
	// lines. Blocks run in order, their folds and scans carried from one to the next, so a peel
	// changes no result.
	first := "0"
	if len(plan.roots) > 0 {
		r := cname(plan.roots[0])
		d.printf("\tconst int64_t %speel = cnf_peel(%s.data, sizeof *%s.data, %sn);\n", p, r, r, p)
		first = p + "peel"
	}
	// A block of an append's elements ends at the end of its first array, so that it reads
	// one of the two (the step is the loop's: the next block starts there).
	clamp := ""
	if ap, ok := plan.gen.appended(); ok {
		end := cname(ap.A.Name) + ".len"
		if par != nil {
			end = fmt.Sprintf("(%s.len - %slo)", cname(ap.A.Name), p)
		}
		clamp = fmt.Sprintf("\t\tif (%sbase < %s && %s - %sbase < %sstep) %sstep = %s - %sbase; /* a block of %s's elements, or of %s's */\n", p, end, end, p, p, p, end, p, ap.A.Name, ap.B.Name)
	}
	// A block of a cross's pairs ends at the end of its row when rows are a block or longer,
	// so that it reads one run of ys (crossFill).
	if cr, ok := plan.gen.crossed(); ok {
		b := cname(cr.B.Name)
		clamp = fmt.Sprintf("\t\tif (%sbase == 0) { %sxi = %s / %s.len; %sxj = %s - %sxi * %s.len; } /* then carried from block to block */\n", p, p, blockStart, b, p, blockStart, p, b) +
			fmt.Sprintf("\t\tif (%s.len >= %s && %s.len - %sxj < %sstep) %sstep = %s.len - %sxj; /* a block of one row of %s's pairs */\n", b, blk, b, p, p, p, b, p, plan.gen.b.Name())
	}
	if whole && len(streamed) > 0 {
		// Blocks only to stream the outputs through their buffers.
		d.printf("\tfor (int64_t %sbase = 0, %sstep = %s > 0 ? %s : %sstream ? %sbstep : %sn; %sbase < %sn; %sbase += %sstep, %sstep = %sstream ? %sbstep : %sn - %sbase) { /* no buffers but to stream outputs: one block, or a peel and one */\n", p, p, first, first, p, p, p, p, p, p, p, p, p, p, p, p)
		d.b.WriteString(clamp)
		d.printf("\t\tconst int64_t %s = %sn - %sbase < %sstep ? %sn - %sbase : %sstep;\n", count(""), p, p, p, p, p, p)
	} else if whole {
		d.printf("\tfor (int64_t %sbase = 0, %sstep = %s > 0 ? %s : %sn; %sbase < %sn; %sbase += %sstep, %sstep = %sn - %sbase) { /* one block, or a peel and one: no buffers */\n", p, p, first, first, p, p, p, p, p, p, p, p)
		d.b.WriteString(clamp)
		d.printf("\t\tconst int64_t %s = %sstep;\n", count(""), p)
	} else if len(streamed) > 0 {
		d.printf("\tfor (int64_t %sbase = 0, %sstep = %s > 0 ? %s : %sbstep; %sbase < %sn; %sbase += %sstep, %sstep = %sbstep) {\n", p, p, first, first, p, p, p, p, p, p, p)
		d.b.WriteString(clamp)
		d.printf("\t\tconst int64_t %s = %sn - %sbase < %sstep ? %sn - %sbase : %sstep;\n", count(""), p, p, p, p, p, p)
	} else {
		d.printf("\tfor (int64_t %sbase = 0, %sstep = %s > 0 ? %s : %s; %sbase < %sn; %sbase += %sstep, %sstep = %s) {\n", p, p, first, first, blk, p, p, p, p, p, blk)
		d.b.WriteString(clamp)
		d.printf("\t\tconst int64_t %s = %sn - %sbase < %sstep ? %sn - %sbase : %sstep;\n", count(""), p, p, p, p, p, p)
	}
	for _, a := range plan.roots {
		tn, err := elemType(a)
		if err != nil {
			return err
		}
		d.printf("\t\tconst %s *restrict %s = %s.data + %sbase;\n", tn, buf(a), cname(a), p)
	}
	if cr, ok := plan.gen.crossed(); ok {
		if err := d.crossFill(p, cr, plan.gen.b.Name(), count(""), crossA, crossB); err != nil {
			return err
		}
	}
	// blockBody writes a block's loops, compactions and steps once a block, as spec has them.
	blockBody := func() error {
		for _, rate := range plan.rates {
			var group []*blockNode
			for _, bn := range plan.nodes {
				if inRate(bn) == rate {
					group = append(group, bn)
				}
			}
			if len(group) == 0 {
				continue
			}
			if rate != "" {
				d.printf("\t\t/* the elements %s keeps */\n", rate)
			}
			// Arrays of this rate stored in memory, and buffered, get their block's pointers.
			for _, bn := range group {
				if isSelect(bn) || spec[bn] != nil {
					continue
				}
				for _, id := range bn.b.Names {
					if a := id.Name; writes[a] {
						tn, err := elemType(a)
						if err != nil {
							return err
						}
						blockOut(tn, a)
					}
				}
			}
			for k := range passes {
				loop := passLoop(rate, k)
				made = map[string]bool{}
				for _, bn := range loop {
					for _, id := range bn.b.Names {
						if !isSelect(bn) {
							made[id.Name] = true
						}
					}
				}
				if len(loop) == 0 {
					continue
				}
				hoisted := hoistIn(loop)
				hbuf := func(bn *blockNode) string {
					if isSelect(bn) && compacted(bn) && !isSlice(bn.b) {
						return mask(bn.b)
					}
					return ident(p+"h_", bn.b.Name())
				}
				if len(hoisted) > 0 {
					var names []string
					for _, bn := range loop {
						if hoisted[bn] {
							names = append(names, bn.b.Name())
						}
					}
					d.printf("\t\t/* %s: in a loop of its own (hoistIn: work gcc leaves scalar, or a reverse read backwards beside elements of another size); the rest of the pass reads it from block buffers, vectorised */\n", strings.Join(names, ", "))
					for _, bn := range loop {
						switch {
						case !hoisted[bn]:
						case isSelect(bn):
							if hbuf(bn) != mask(bn.b) {
								d.printf("\t\t%s;\n", arr("uint8_t", hbuf(bn)))
							}
						default:
							tn, err := elemType(bn.b.Name())
							if err != nil {
								return err
							}
							d.printf("\t\t%s;\n", arr(tn, hbuf(bn)))
						}
					}
					d.printf("\t\tfor (int64_t %s = 0; %s < %s; %s++) {\n", kv, kv, count(rate), kv)
					for _, bn := range loop {
						if !hoisted[bn] {
							continue
						}
						d.printf("\t\t\t/* %s = %s */\n", bn.b.Name(), strings.ReplaceAll(syntax.FormatCombinator(bn.b.Rhs), "*/", "* /"))
						bindIns(bn)
						if e, ok := bn.b.Rhs.(*syntax.Reverse); ok {
							bindReverse(bn, e, rate)
						}
						v, err := d.x.value(bn.elem, nil, quote(bn.b.Name()))
						if err != nil {
							return err
						}
						if isSelect(bn) {
							d.printf("\t\t\t%s[%s] = (%s) != 0;\n", hbuf(bn), kv, v)
							continue
						}
						tn, err := elemType(bn.b.Name())
						if err != nil {
							return err
						}
						d.printf("\t\t\tconst %s %s = %s;\n", tn, tmp(bn.b.Name()), v)
						d.printf("\t\t\t%s[%s] = %s;\n", hbuf(bn), kv, tmp(bn.b.Name()))
					}
					d.printf("\t\t}\n")
				}
				// CNF_IVDEP: the arrays a block's loop reads and writes never overlap (outputs and
				// buffers are the loop's own; inputs are only read), which gcc cannot see through
				// pointers declared in a block: with more than about four of them it gave up the
				// run-time checks and left the loop scalar (docs/performance.md, "Streaming stores").
				gc := newGatherCheck(p, d.checkedGathers(loop, hoisted, probes, stored))
				if gc != nil {
					if err := gc.declare(d, elemType, arr); err != nil {
						return err
					}
				}
				d.printf("\t\tCNF_IVDEP\n")
				d.printf("\t\tfor (int64_t %s = 0; %s < %s; %s++) {\n", kv, kv, count(rate), kv)
				// A Float fold or scan keeps this loop scalar (its steps in order): its Float min
				// and max are then the SSE instruction (program.scalarMinMax).
				d.x.scalar = slices.ContainsFunc(loop, d.floatChain)
				for _, bn := range loop {
					b := bn.b
					w := quote(b.Name())
					if _, _, ok := perBlock(bn); ok {
						continue // once a block, after the block's compactions
					}
					if isSlice(b) && runOf(bn) != nil && !slices.ContainsFunc(plan.nodes, func(f *blockNode) bool { return masked(f) == bn }) {
						continue // kept as a run (sliceRun), its test needed by no fold
					}
					d.printf("\t\t\t/* %s = %s */\n", b.Name(), strings.ReplaceAll(syntax.FormatCombinator(b.Rhs), "*/", "* /"))
					bindIns(bn)
					store := func(a, v string) error {
						tn, err := elemType(a)
						if err != nil {
							return err
						}
						d.printf("\t\t\tconst %s %s = %s;\n", tn, tmp(a), v)
						switch {
						case spec[maker[a]] != nil:
							if needed(a) {
								d.printf("\t\t\t%s[%s] = %s;\n", specBuf(a), kv, tmp(a))
							}
						case writes[a] || buffered[a]:
							d.printf("\t\t\t%s[%s] = %s;\n", buf(a), kv, tmp(a))
						}
						return nil
					}
					switch e := b.Rhs.(type) {
					case *syntax.Map, *syntax.Zip, *syntax.Gather, *syntax.Indexed, *syntax.Generate, *syntax.Reverse, *syntax.Append, *syntax.Cross:
						switch e := e.(type) {
						case *syntax.Cross:
							bind(bn.vars[0], fmt.Sprintf("(%sxone ? %sxv : %s[%s])", p, p, crossA, kv), d.info.Types[e.A.Name].Elem())
							bind(bn.vars[1], fmt.Sprintf("%sxq[%s]", p, kv), d.info.Types[e.B.Name].Elem())
						case *syntax.Append:
							a, b := cname(e.A.Name), cname(e.B.Name)
							bind(bn.vars[0], fmt.Sprintf("(%s < %s.len ? %s.data + %s : %s.data + (%s - %s.len))[%s]", blockStart, a, a, blockStart, b, blockStart, a, kv), d.info.Types[bn.b.Name()].Elem())
						case *syntax.Indexed:
							bind(bn.vars[1], position(rate), types.Int())
						case *syntax.Reverse:
							bindReverse(bn, e, rate)
						case *syntax.Generate:
							bind(bn.vars[0], position(""), types.Int())
						case *syntax.Gather:
							// Indices read from memory (not made in this pass): the element
							// gatherDistance ahead is fetched early, so that more of the misses
							// of a gather from a large array overlap (docs/performance.md).
							// Not in a pass whose gathers are checked after it (gathers.go): that
							// pass vectorises, and the prefetch slowed it (classic 217's loop and
							// bench/shapes/lookup.cnf's; docs/performance.md, "Gathers checked
							// after their pass").
							data, ok := d.x.vars[e.Data.Name]
							if a := bn.ins[0]; ok && !gc.has(bn) && refIn(bn, a) == fmt.Sprintf("%s[%s]", buf(a), kv) {
								d.printf("\t\t\tif (%s + %d < %s) __builtin_prefetch(%s.data + %s[%s + %d]);\n", kv, gatherDistance, count(rate), data.c, buf(a), kv, gatherDistance)
							}
						}
						if hoisted[bn] {
							if err := store(b.Name(), fmt.Sprintf("%s[%s]", hbuf(bn), kv)); err != nil {
								return err
							}
							break
						}
						if gc.has(bn) {
							elem, keep := gc.element(d, bn, refIn(bn, bn.ins[0]), kv)
							if err := store(b.Name(), elem); err != nil {
								return err
							}
							d.printf("\t\t\t%s\n", keep)
							break
						}
						v, err := d.x.value(bn.elem, nil, w)
						if err != nil {
							return err
						}
						if err := store(b.Name(), v); err != nil {
							return err
						}
					case *syntax.Unzip:
						in := ref(bn.ins[0])
						if err := store(b.Names[0].Name, in+".f0"); err != nil {
							return err
						}
						if err := store(b.Names[1].Name, in+".f1"); err != nil {
							return err
						}
					case *syntax.Scan:
						v, err := d.x.value(bn.elem, nil, w)
						if err != nil {
							return err
						}
						acc := accOf(b)
						tn, err := elemType(b.Name())
						if err != nil {
							return err
						}
						if e.Inclusive {
							d.printf("\t\t\t%s = %s;\n", acc, v)
							if err := store(b.Name(), acc); err != nil {
								return err
							}
						} else {
							d.printf("\t\t\tconst %s %s = %s;\n", tn, tmp(b.Name()), acc)
							if writes[b.Name()] || buffered[b.Name()] {
								d.printf("\t\t\t%s[%s] = %s;\n", buf(b.Name()), kv, tmp(b.Name()))
							}
							d.printf("\t\t\t%s = %s;\n", acc, v)
						}
					case *syntax.Filter, *syntax.Slice:
						if _, ok := e.(*syntax.Slice); ok {
							bind(bn.vars[1], position(rate), types.Int())
						}
						if hoisted[bn] {
							d.printf("\t\t\tconst int64_t %s = %s[%s];\n", ident(p+"c_", b.Name()), hbuf(bn), kv)
							break
						}
						v, err := d.x.value(bn.elem, nil, w)
						if err != nil {
							return err
						}
						d.printf("\t\t\tconst int64_t %s = (%s) != 0;\n", ident(p+"c_", b.Name()), v)
						if compacted(bn) && !isSlice(b) {
							d.printf("\t\t\t%s[%s] = %s;\n", mask(b), kv, ident(p+"c_", b.Name()))
						}
					case *syntax.Fold:
						v, err := d.x.value(bn.elem, nil, w)
						if err != nil {
							return err
						}
						if m := masked(bn); m != nil {
							c := ident(p+"c_", m.b.Name())
							if bn.addend != nil {
								a, err := d.x.value(bn.addend, nil, w)
								if err != nil {
									return err
								}
								// As a mask, not a select: gcc turned `c ? a : 0` back into a
								// branch, taken at random where the filter keeps about half.
								v = fmt.Sprintf("%s + ((%s) & %s)", accOf(b), a, fullMask(c, zero))
							} else if sel, ok, err := d.maskedStep(bn, fullMask(c, zero), accOf(b)); err != nil {
								return err
							} else if ok {
								v = sel
							} else {
								v = fmt.Sprintf("%s ? %s : %s", c, v, accOf(b))
							}
						}
						d.printf("\t\t\t%s = %s;\n", accOf(b), v)
					case *syntax.Length:
						if m := masked(bn); m != nil {
							d.printf("\t\t\t%s += %s ^ %s;\n", accOf(b), ident(p+"c_", m.b.Name()), zero)
						} else {
							d.printf("\t\t\t%s++;\n", accOf(b))
						}
					}
				}
				d.x.scalar = false
				d.printf("\t\t}\n")
				if gc != nil {
					gc.check(d, kv, count(rate))
				}
			}
			// Arrays of this rate in memory grow by the block; filters and slices compact.
			for _, bn := range group {
				if isSelect(bn) || spec[bn] != nil {
					continue
				}
				for _, id := range bn.b.Names {
					if a := id.Name; writes[a] {
						flush(a, count(rate))
						d.printf("\t\t%s.len += %s;\n", cname(a), count(rate))
					}
				}
			}
			for _, bn := range group {
				if !isSelect(bn) || !compacted(bn) {
					continue
				}
				// The filter's own output, and the speculated maps of it, by the one mask.
				var cs []compaction
				if needed(bn.b.Name()) {
					cs = append(cs, compaction{bn.b.Name(), buf(bn.ins[0])})
				}
				for _, s := range plan.nodes {
					if spec[s] == bn && needed(s.b.Name()) {
						cs = append(cs, compaction{s.b.Name(), specBuf(s.b.Name())})
					}
				}
				if sl, ok := bn.b.Rhs.(*syntax.Slice); ok {
					if err := sliceRun(bn, sl, rate, cs); err != nil {
						return err
					}
					continue
				}
				for i, c := range cs {
					d.printf("\t\t/* %s = %s: the kept elements, without a branch */\n", c.out, strings.ReplaceAll(syntax.FormatCombinator(maker[c.out].b.Rhs), "*/", "* /"))
					if writes[c.out] {
						tn, err := elemType(c.out)
						if err != nil {
							return err
						}
						blockOut(tn, c.out)
					}
					call := fmt.Sprintf("cnf_compact_%s(%s, %s, %s, %s)", d.compactName(c.out), buf(c.out), c.src, mask(bn.b), count(rate))
					if i == 0 {
						d.printf("\t\tconst int64_t %s = %s;\n", count(bn.rate), call)
					} else {
						d.printf("\t\t%s;\n", call)
					}
					if writes[c.out] {
						flush(c.out, count(bn.rate))
						d.printf("\t\t%s.len += %s;\n", cname(c.out), count(bn.rate))
					}
				}
			}
		}
		for _, bn := range plan.nodes {
			if cnt, e, ok := perBlock(bn); ok {
				d.printf("\t\t/* %s = %s: once a block */\n", bn.b.Name(), strings.ReplaceAll(syntax.FormatCombinator(bn.b.Rhs), "*/", "* /"))
				d.printf("\t\t%s = %s + (%s) * %s;\n", accOf(bn.b), accOf(bn.b), e, cnt)
			}
		}
		// The positions of the next block start after this one's (indexed and slices read them).
		for _, bn := range plan.nodes {
			if isSelect(bn) && compacted(bn) {
				d.printf("\t\t%s += %s;\n", before(bn.rate), count(bn.rate))
			}
		}
		return nil
	}
	if len(sparse) == 0 {
		cur := d.b
		d.b = strings.Builder{}
		err := blockBody()
		text := d.b.String()
		d.b = cur
		if err != nil {
			return err
		}
		// A loop that reads its inputs and only folds them: two streams (interleave.go).
		if accs, ok := d.interleavable(plan, par, writes, p); ok && whole && len(streamed) == 0 && clamp == "" {
			var roots []rootPtr
			for _, a := range plan.roots {
				tn, err := elemType(a)
				if err != nil {
					return err
				}
				roots = append(roots, rootPtr{buf(a), tn})
			}
			text, _ = interleaved(text, p, kv, count(""), roots, accs)
		}
		d.b.WriteString(text)
	} else {
		// Each form indented in its branch; each then says which the next block runs.
		var kept, tested []string
		for _, g := range sparse {
			kept, tested = append(kept, count(g.rate)), append(tested, count(g.inRate))
		}
		choose := fmt.Sprintf("\t\t%ssparse = (%s) * 2 < %s;\n", p, strings.Join(kept, " + "), strings.Join(tested, " + "))
		form := func(s map[*blockNode]*blockNode) error {
			setSpec(s)
			derive()
			cur := d.b
			d.b = strings.Builder{}
			err := blockBody()
			d.b.WriteString(choose)
			text := d.b.String()
			d.b = cur
			d.b.WriteString(indented(text))
			return err
		}
		d.printf("\t\tif (%ssparse) { /* what the filters keep, without speculation */\n", p)
		if err := form(specSparse); err != nil {
			return err
		}
		d.printf("\t\t} else { /* the maps speculated: for every element the filters test */\n")
		if err := form(specDense); err != nil {
			return err
		}
		d.printf("\t\t}\n")
	}
	if stop, err := d.stopAt(plan, writes, before); err != nil {
		return err
	} else if stop != "" {
		// On a team too: a chunk's or tile's positions are the input's (the slice's own run
		// is found from them), so each stops where the slice ends.
		d.b.WriteString(stop)
	}
	if cr, ok := plan.gen.crossed(); ok {
		b := cname(cr.B.Name)
		d.printf("\t\t%sxj += %s;\n", p, count(""))
		d.printf("\t\tif (%sxj >= %s.len) { %sxi += %sxj / %s.len; %sxj %%= %s.len; } /* the next block's first pair */\n", p, b, p, p, b, p, b)
	}
	d.printf("\t}\n")
	if len(streamed) > 0 {
		for _, a := range slices.Sorted(maps.Keys(streamed)) {
			d.printf("\tif (%s) cnf_stream_flush(&%s, %s.data + %s.len);\n", streamFlag(a), streamCarry(a), cname(a), cname(a))
		}
		d.printf("\tif (%sstream) cnf_stream_fence();\n", p)
	}
	loopEnd := d.b.Len() // the epilogue follows: results, bytes counted
	for _, bn := range plan.nodes {
		switch bn.b.Rhs.(type) {
		case *syntax.Fold, *syntax.Length:
			d.printf("\t%s = %s;\n", cname(bn.b.Name()), accOf(bn.b))
		}
	}
	if d.opts.CountBytes {
		read := slices.Clone(plan.roots)
		if ap, ok := plan.gen.appended(); ok {
			read = append(read, ap.A.Name, ap.B.Name)
		}
		if cr, ok := plan.gen.crossed(); ok {
			read = append(read, cr.A.Name, cr.B.Name)
		}
		for _, a := range read {
			d.printf("\tcnf_bytes_read += %s.len * (int64_t)sizeof(*%s.data);\n", cname(a), cname(a))
		}
		for _, a := range slices.Sorted(maps.Keys(writes)) {
			d.printf("\tcnf_bytes_written += %s.len * (int64_t)sizeof(*%s.data);\n", cname(a), cname(a))
		}
	}
	body := d.b.String()
	d.b = outer
	if par == nil {
		d.printf("\t/* On one thread: %s. */\n", parWhy)
	}
	for _, a := range plan.roots {
		tn, err := elemType(a)
		if err != nil {
			return err
		}
		row[a] = tn
	}
	d.printf("\tenum { %s = CNF_BLOCK(%s) }; /* a block's elements: its buffers and its inputs' elements fill CNF_BLOCK_BYTES of the first-level cache */\n", blk, blockRow(row))
	d.b.WriteString(shared.String())
	if par == nil {
		d.b.WriteString(pre.String()) // on a team, each chunk has its own (teamLoop)
	}
	for _, s := range slices.Sorted(maps.Keys(d.x.divisors)) {
		d.printf("\tconst cnf_divider %s = cnf_divider_for(%s);\n", dividerName(s), cname(s))
	}
	if par == nil {
		d.b.WriteString(body)
	} else if err := d.teamLoop(p, plan, par, writes, pre.String(), body[:loopEnd], body[loopEnd:]); err != nil {
		return err
	}
	if len(streamed) > 0 {
		d.printf("\tif (%spick & 2) cnf_stream_took(&%stune, %spick, %smoved, %st0);\n", p, p, p, p, p)
	}
	for a := range writes {
		d.done[a] = true
	}
	return nil
}

// stopAt is the C that ends a loop's blocks early, or "": where every result of the loop (an
// array it writes, a fold, a length) is of a rate under a take or slice of a filter's output
// (`take 2 (filter p xs)`), the blocks after those slices' ends change nothing, and the loop
// stops there rather than test the rest of its input (unseen chains 166 filtered all 10^7
// elements for a take of 2: docs/performance.md, "Speculation by the block before"). Only where
// nothing in the loop can fail: the reference computes every element of the filter, and an
// element past the end that fails fails the program. A slice of the root's rate needs none:
// the loop already ends at the furthest end of those (blockedLoop's n). before gives the C of
// the positions of a rate counted up to the end of this block.
func (d *definition) stopAt(plan *blockedPlan, writes map[string]bool, before func(string) string) (string, error) {
	selOf := map[string]*blockNode{}
	for _, bn := range plan.nodes {
		switch bn.b.Rhs.(type) {
		case *syntax.Filter, *syntax.Slice:
			selOf[bn.rate] = bn
		}
		if pr := d.probe(bn); !pr.ok || pr.effects > 0 || pr.hostCalls > 0 {
			return "", nil
		}
		if isGather(bn) || isAppend(bn.b) || isCross(bn.b) {
			return "", nil
		}
	}
	var ends []*blockNode
	for _, bn := range plan.nodes {
		result := false
		switch bn.b.Rhs.(type) {
		case *syntax.Fold, *syntax.Length:
			result = true
		}
		for _, id := range bn.b.Names {
			result = result || writes[id.Name]
		}
		if !result {
			continue
		}
		rate := bn.inRate
		if selOf[bn.rate] == bn {
			rate = bn.rate // a filter or slice written: its own elements
		}
		var end *blockNode
		for rate != "" && end == nil {
			g := selOf[rate]
			if g == nil {
				return "", nil
			}
			if sl, ok := g.b.Rhs.(*syntax.Slice); ok && sl.Count != nil {
				end = g
			}
			rate = g.inRate
		}
		if end == nil || end.inRate == "" {
			return "", nil
		}
		if !slices.Contains(ends, end) {
			ends = append(ends, end)
		}
	}
	if len(ends) == 0 {
		return "", nil
	}
	var conds, names []string
	for _, g := range ends {
		_, end, err := d.sliceRunBounds(g.b.Rhs.(*syntax.Slice), quote(g.b.Name()))
		if err != nil {
			return "", err
		}
		conds = append(conds, fmt.Sprintf("(__int128)%s >= %s", before(g.inRate), end))
		names = append(names, g.b.Name())
	}
	return fmt.Sprintf("\t\tif (%s) break; /* %s ended: every result of the loop comes after it, so the rest of the input changes nothing (stopAt) */\n", strings.Join(conds, " && "), strings.Join(names, ", ")), nil
}

// sliceRunBounds is the C of the first position a slice keeps and of the position it keeps up
// to, as __int128 (a start plus a count may pass an Int's range), "" for none: the start (0
// without one), and the start plus the count when the count is positive, the count alone
// without a start (fuse.SliceCond), no end without a count. w names the slice for errors.
func (d *definition) sliceRunBounds(sl *syntax.Slice, w string) (start, end string, err error) {
	if sl.Start != nil {
		s, err := d.x.value(sl.Start, nil, w)
		if err != nil {
			return "", "", err
		}
		start = fmt.Sprintf("(__int128)(%s)", s)
	}
	if sl.Count != nil {
		c, err := d.x.value(sl.Count, nil, w)
		if err != nil {
			return "", "", err
		}
		switch lit, isLit := sl.Count.(*syntax.IntLit); {
		case start == "":
			end = fmt.Sprintf("(__int128)(%s)", c)
		case isLit && lit.Value > 0:
			end = fmt.Sprintf("%s + (%s)", start, c)
		case isLit:
			end = start
		default:
			end = fmt.Sprintf("((%s) > 0 ? %s + (%s) : %s)", c, start, c, start)
		}
	}
	return start, end, nil
}

// movesOnly reports whether e computes nothing: names, literals, tuples, and fst and snd of
// them (a worker applied to its elements, as a map's element is).
func movesOnly(e syntax.Expr) bool {
	switch e := e.(type) {
	case nil, *syntax.Ident, *syntax.IntLit, *syntax.FloatLit, *syntax.BoolLit:
		return true
	case *syntax.Paren, *syntax.Tuple, *syntax.Lambda:
	case *syntax.App:
		switch f := e.Fun.(type) {
		case *syntax.Lambda, *syntax.Paren:
		case *syntax.Ident:
			if f.Name != "fst" && f.Name != "snd" {
				return false
			}
		default:
			return false
		}
	default:
		return false
	}
	for k := range syntax.Subexprs(e) {
		if !movesOnly(k) {
			return false
		}
	}
	return true
}

// compaction is one array a filter or slice keeps of a block: out, from the block of src.
type compaction struct{ out, src string }

// fullMask is the C of a filter's test c (0 or 1) as a mask of all ones or all zeros, xored
// with zero, a 0 that gcc cannot see through (an empty asm sets it before the loop). Without
// it, gcc threaded the branches of a test with an if in another if into the accumulator of a
// fold under its mask (acc = c ? acc : acc + a, on the paths where it knew c), a reduction its
// vectoriser does not take, and left the whole block loop scalar: unseen seed mixed 49's
// optimal clustering ran 2.4 times slower than Megiddo's (docs/performance.md, "Unseen seeds
// 49-53"). The xor costs one vector instruction a fold.
func fullMask(c, zero string) string { return fmt.Sprintf("(-(int64_t)%s ^ %s)", c, zero) }

// maskedStep is the step of an Int fold under a filter's test whose operator is associative
// with an identity ((*), max, min): the operator applied to the accumulator and, for an element
// the filter drops, the identity, chosen by the test's mask (fullMask). gcc turned the select
// of the accumulator (c ? max(acc, x) : acc) into a branch taken at random
// (bench/shapes/nested3.cnf); ok is false for any other fold.
func (d *definition) maskedStep(bn *blockNode, mask, acc string) (string, bool, error) {
	f, isFold := bn.b.Rhs.(*syntax.Fold)
	if !isFold || d.info.Types[bn.b.Name()].Kind() != "Int" {
		return "", false, nil
	}
	op, why := d.associative(bn, f.Worker, "fold")
	if why != "" {
		return "", false, nil
	}
	x, err := d.x.value(&syntax.Ident{Name: bn.vars[0]}, nil, quote(bn.b.Name()))
	if err != nil {
		return "", false, err
	}
	sel := fmt.Sprintf("(((%s) & %s) | (%s & ~%s))", x, mask, op.identity, mask)
	return fmt.Sprintf(op.combine, acc, sel), true, nil
}

// addend recognises a fold's step that adds to the accumulator something of the element only:
// (+), or \a x -> a + e or e + a with e not naming a (x may be a tuple pattern that does not
// bind a). It returns e applied to the element var
// elem, or nil. (For Ints only: wrapping addition is associative and 0 is its identity, so
// acc + (kept ? e : 0) is the step or nothing, bit for bit; a Float's -0.0 + 0.0 is not -0.0.)
func addend(worker syntax.Expr, elem string) syntax.Expr {
	worker = syntax.Unparen(worker)
	switch w := worker.(type) {
	case *syntax.Section:
		if w.Op.Name == "+" && !w.Op.Backtick && w.X == nil && w.Y == nil {
			return &syntax.Ident{Name: elem}
		}
	case *syntax.Lambda:
		if len(w.Params) != 2 {
			return nil
		}
		// The element may be taken apart by a tuple pattern (`\acc (a, b) -> acc + a * b`, a
		// fold over a cross or a zip) as long as it does not bind the accumulator's name.
		a, ok := w.Params[0].(*syntax.Ident)
		x := w.Params[1]
		if !ok || patternBinds(x, a.Name) {
			return nil
		}
		e, ok := without(w.Body, a.Name)
		if !ok || e == nil {
			return nil
		}
		return &syntax.App{Fun: &syntax.Lambda{Params: []syntax.Pattern{x}, Body: e}, Args: []syntax.Expr{&syntax.Ident{Name: elem}}}
	}
	return nil
}

// patternNames is the names the pattern p binds.
func patternNames(p syntax.Pattern) []string {
	var names []string
	syntax.PatternNames(p, func(id *syntax.Ident) { names = append(names, id.Name) })
	return names
}

// patternBinds reports whether the pattern p binds name.
func patternBinds(p syntax.Pattern, name string) bool {
	switch p := p.(type) {
	case *syntax.Ident:
		return p.Name == name
	case *syntax.TuplePattern:
		for _, e := range p.Elems {
			if patternBinds(e, name) {
				return true
			}
		}
	}
	return false
}

// without takes the accumulator a out of a chain of + and -: e is a + r (in any grouping of
// +, with a - y read as a + (-y) where a is on the left of the -, a named once and nowhere
// else), and without returns r (nil for e = a alone). Ints wrap, so (a + x) - y is a + (x - y)
// bit for bit: the generators' `\acc x -> acc + x - n` is an addend fold, split on a team.
func without(e syntax.Expr, a string) (syntax.Expr, bool) {
	e = syntax.Unparen(e)
	if isName(e, a) {
		return nil, true
	}
	bin, ok := e.(*syntax.Binary)
	if ok && bin.Op.Name == "-" && !bin.Op.Backtick {
		r, ok := without(bin.X, a)
		switch {
		case !ok || mentions(bin.Y, a):
			return nil, false
		case r == nil:
			return &syntax.Neg{Range: bin.Range, X: bin.Y}, true
		}
		return &syntax.Binary{Range: bin.Range, Op: bin.Op, X: r, Y: bin.Y}, true
	}
	if !ok || bin.Op.Name != "+" || bin.Op.Backtick {
		return nil, false
	}
	if r, ok := without(bin.X, a); ok && !mentions(bin.Y, a) {
		if r == nil {
			return bin.Y, true
		}
		return &syntax.Binary{Op: bin.Op, X: r, Y: bin.Y}, true
	}
	if r, ok := without(bin.Y, a); ok && !mentions(bin.X, a) {
		if r == nil {
			return bin.X, true
		}
		return &syntax.Binary{Op: bin.Op, X: bin.X, Y: r}, true
	}
	return nil, false
}

func isName(e syntax.Expr, name string) bool {
	id, ok := syntax.Unparen(e).(*syntax.Ident)
	return ok && id.Name == name
}

// mentions reports whether e may name name (conservatively: any lambda may).
func mentions(e syntax.Expr, name string) bool {
	switch e := e.(type) {
	case nil:
		return false
	case *syntax.Ident:
		return e.Name == name
	case *syntax.Lambda:
		return true
	}
	for sub := range syntax.Subexprs(e) {
		if mentions(sub, name) {
			return true
		}
	}
	return false
}

// hoistRest is the least work, in nodes, that the rest of a pass must have for hoistIn to move
// its scalar work apart: a fold alone after it gained nothing (bench/shapes/nested3.cnf).
const hoistRest = 2

// probed is what translating a node's element once aside found: the operations that can fail
// or have effects, how many of those are Int divisions by a loop-invariant divisor and how many
// calls of host functions, and the costly operations (program.costly); ok is false when it does
// not translate.
type probed struct {
	effects, byInvariant, hostCalls, costly, slow, latent, scalar int
	ok                                                            bool
}

// probe translates a node's element, test or step once aside, with placeholder values for its
// vars (the input elements, then a fold's accumulator), and counts what it finds.
func (d *definition) probe(bn *blockNode) probed {
	if bn.elem == nil {
		return probed{ok: true}
	}
	for i, v := range bn.vars {
		t := d.info.Types[bn.b.Name()] // the accumulator
		if i < len(bn.ins) {
			t = d.info.Types[bn.ins[i]].Elem()
		}
		d.x.vars[v] = val{c: "cnf_trial", t: t}
	}
	defer func() {
		for _, v := range bn.vars {
			delete(d.x.vars, v)
		}
	}()
	p := d.p
	before := probed{effects: p.effects, byInvariant: p.byInvariant, hostCalls: p.hostCalls, costly: p.costly, slow: p.slow, latent: p.latent, scalar: p.scalar}
	_, err := d.x.value(bn.elem, nil, `""`)
	return probed{effects: p.effects - before.effects, byInvariant: p.byInvariant - before.byInvariant,
		hostCalls: p.hostCalls - before.hostCalls, costly: p.costly - before.costly, slow: p.slow - before.slow,
		latent: p.latent - before.latent, scalar: p.scalar - before.scalar, ok: err == nil}
}

// allOrNone says bn is a filter whose test is the same for every element.
func (d *definition) allOrNone(bn *blockNode) bool {
	if _, ok := bn.b.Rhs.(*syntax.Filter); !ok || bn.elem == nil {
		return false
	}
	// The test is the worker applied to the element's vars: a lambda's body is tested with
	// its parameters bound (a section or a named function is not looked into).
	app, ok := bn.elem.(*syntax.App)
	if !ok {
		return false
	}
	f := app.Fun
	for p, ok := f.(*syntax.Paren); ok; p, ok = f.(*syntax.Paren) {
		f = p.X
	}
	lam, ok := f.(*syntax.Lambda)
	if !ok || len(lam.Params) != len(app.Args) {
		return false
	}
	bound := map[string]bool{}
	for _, p := range lam.Params {
		bindNames(p, bound)
	}
	return d.x.invariant(lam.Body, bound)
}

func isLength(b *syntax.Binding) bool { _, ok := b.Rhs.(*syntax.Length); return ok }

// compactName makes (once per element type) the function that compacts a block: the elements
// of src whose mask is set, in order, to dst; it returns how many. Branch-free: every element
// is stored and the count moves past the kept ones; a block kept whole or not at all is copied
// or skipped after one count of the mask. Where the target has AVX-512, 8-byte
// elements are compressed 8 at a time (vpcompressq into a register, then one whole store:
// the store form of vpcompressq is microcoded and several times slower on Intel's cores; the
// whole store writes past the kept elements, within dst's room, which is at least n).
func (d *definition) compactName(array string) string {
	t := d.info.Types[array].Elem()
	tn, _ := d.p.ct.name(t)
	m := mangle(t)
	d.p.helper("cnf_compact_"+m, func() (string, error) {
		var b strings.Builder
		fmt.Fprintf(&b, "static __attribute__((noinline)) int64_t cnf_compact_%s(%s *restrict dst, const %s *restrict src, const uint8_t *restrict keep, int64_t n) {\n", m, tn, tn)
		wide := t.Kind() == "Int" || t.Kind() == "Float"
		// A block the filter keeps none or all of (a test that is rarely or nearly always true)
		// is counted first, in one vectorised pass over the mask, and copied whole or skipped.
		// With AVX-512BW the 8-byte elements skip that pass: each 64 elements' mask is read
		// into one register and the 64 are skipped, copied or compressed 8 at a time (half
		// the time of counting first; docs/performance.md, "Compaction in 64s").
		if wide {
			b.WriteString("#if !(defined(__AVX512F__) && defined(__AVX512BW__))\n")
		}
		b.WriteString("\tint64_t kept = 0;\n\tfor (int64_t k = 0; k < n; k++) kept += keep[k];\n")
		b.WriteString("\tif (kept == 0) return 0;\n\tif (kept == n) { memcpy(dst, src, (size_t)n * sizeof *src); return n; }\n")
		if wide {
			b.WriteString("#endif\n")
		}
		b.WriteString("\tint64_t j = 0, i = 0;\n")
		if wide {
			b.WriteString("#if defined(__AVX512F__) && defined(__AVX512BW__)\n")
			b.WriteString("\tfor (; i + 64 <= n; i += 64) {\n")
			b.WriteString("\t\tconst uint64_t m = _mm512_test_epi8_mask(_mm512_loadu_si512((const void *)(keep + i)), _mm512_set1_epi8(1));\n")
			b.WriteString("\t\tif (m == 0) continue;\n")
			b.WriteString("\t\tif (m == ~UINT64_C(0)) { memcpy(dst + j, src + i, 64 * sizeof *src); j += 64; continue; }\n")
			b.WriteString("\t\tfor (int q = 0; q < 64; q += 8) {\n")
			b.WriteString("\t\t\tconst __mmask8 mk = (__mmask8)(m >> q);\n")
			b.WriteString("\t\t\t_mm512_storeu_si512((void *)(dst + j), _mm512_maskz_compress_epi64(mk, _mm512_loadu_si512((const void *)(src + i + q))));\n")
			b.WriteString("\t\t\tj += __builtin_popcount(mk);\n\t\t}\n\t}\n#endif\n")
		}
		pair := t.Kind() == "Tuple" && len(t.Elems()) == 2 && slices.IndexFunc(t.Elems(), func(e *types.Type) bool { return e.Kind() != "Int" && e.Kind() != "Float" }) < 0
		if pair { // 16 bytes: each kept element is two 8-byte lanes
			b.WriteString("#if defined(__AVX512F__) && defined(__BMI2__)\n")
			b.WriteString("\tfor (; i + 4 <= n; i += 4) {\n")
			b.WriteString("\t\tunsigned k4 = (unsigned)_mm_movemask_epi8(_mm_slli_epi16(_mm_cvtsi32_si128(*(const int *)(keep + i)), 7)) & 15u;\n")
			b.WriteString("\t\t__mmask8 mk = (__mmask8)(_pdep_u32(k4, 0x55u) * 3u);\n")
			b.WriteString("\t\t_mm512_storeu_si512((void *)(dst + j), _mm512_maskz_compress_epi64(mk, _mm512_loadu_si512((const void *)(src + i))));\n")
			b.WriteString("\t\tj += __builtin_popcount(k4);\n\t}\n#endif\n")
		}
		if wide {
			// AVX2 without AVX-512: 4 elements at a time, moved to the front of one register
			// by a permutation of its 32-bit halves chosen by the 4 bits of the mask (a table
			// of 16), stored whole and the count moved by the bits set. The scalar loop below
			// carries the count from each element's mask byte to the next store's address, a
			// chain of 1.5-2 cycles an element (docs/performance.md, "Compaction on AVX2").
			b.WriteString("#if defined(__AVX2__) && !defined(__AVX512F__)\n")
			b.WriteString("\tfor (; i + 4 <= n; i += 4) {\n")
			b.WriteString("\t\tint32_t w;\n\t\tmemcpy(&w, keep + i, 4);\n")
			b.WriteString("\t\tconst unsigned mk = (unsigned)_mm_movemask_epi8(_mm_slli_epi16(_mm_cvtsi32_si128(w), 7)) & 15u;\n")
			b.WriteString("\t\tconst __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)(src + i));\n")
			b.WriteString("\t\t_mm256_storeu_si256((__m256i *)(void *)(dst + j), _mm256_permutevar8x32_epi32(v, _mm256_load_si256((const __m256i *)(const void *)cnf_pack4[mk])));\n")
			b.WriteString("\t\tj += __builtin_popcount(mk);\n\t}\n#endif\n")
			d.p.helper("cnf_pack4", func() (string, error) { return pack4Table(), nil })
			b.WriteString("#if defined(__AVX512F__)\n")
			b.WriteString("\tfor (; i + 8 <= n; i += 8) {\n")
			b.WriteString("\t\t__mmask8 mk = (__mmask8)_mm_movemask_epi8(_mm_slli_epi16(_mm_loadl_epi64((const __m128i *)(keep + i)), 7));\n")
			b.WriteString("\t\t_mm512_storeu_si512((void *)(dst + j), _mm512_maskz_compress_epi64(mk, _mm512_loadu_si512((const void *)(src + i))));\n")
			b.WriteString("\t\tj += __builtin_popcount(mk);\n\t}\n#endif\n")
		}
		// Then (and without the vector paths, all of it) two elements a step: the second
		// stored at the first's place plus the first's mask, the count moved once. One
		// element a step, each store's address waited on the count of the step before:
		// Table 1.1's closestPoints (two filters of 16-byte points, compacted on AVX2 by this
		// loop) took 14.3 ms against 10.5-12 this way, its quadtree 87-94 against 81-83
		// (docs/performance.md, "Speculation by the block before").
		b.WriteString("\tfor (; i + 2 <= n; i += 2) {\n\t\tconst int64_t k0 = keep[i];\n\t\tdst[j] = src[i];\n\t\tdst[j + k0] = src[i + 1];\n\t\tj += k0 + keep[i + 1];\n\t}\n")
		b.WriteString("\tif (i < n) {\n\t\tdst[j] = src[i];\n\t\tj += keep[i];\n\t}\n\treturn j;\n}\n")
		return b.String(), nil
	})
	return m
}

// pack4Table is the C of cnf_pack4: for each mask of 4 eight-byte lanes, the 32-bit indices
// that move the lanes set to the front of a 256-bit register, in order (the rest: lane 0,
// never read).
func pack4Table() string {
	var b strings.Builder
	b.WriteString("#if defined(__AVX2__) && !defined(__AVX512F__)\n")
	b.WriteString("/* cnf_pack4[m]: _mm256_permutevar8x32_epi32's indices moving the 8-byte lanes set in m to the front */\n")
	b.WriteString("static const int32_t cnf_pack4[16][8] __attribute__((aligned(32))) = {\n")
	for m := 0; m < 16; m++ {
		idx := make([]string, 0, 8)
		for l := 0; l < 4; l++ {
			if m&(1<<l) != 0 {
				idx = append(idx, strconv.Itoa(2*l), strconv.Itoa(2*l+1))
			}
		}
		for len(idx) < 8 {
			idx = append(idx, "0", "1")
		}
		fmt.Fprintf(&b, "\t{%s},\n", strings.Join(idx, ", "))
	}
	b.WriteString("};\n#endif\n")
	return b.String()
}

// crossKeepsPairs says why a loop driven by a cross stays per element when a filter of it
// writes pairs to memory: the per-element loop tests each pair and stores it, advancing by the
// test, in one pass, where blocks lay out the pairs, test them into a mask, and compact the
// 16-byte elements in a second pass (without AVX-512, one at a time): such loops ran 1.3-1.8
// times the per-element loop's time (docs/performance.md, "Crosses blocked").
func (d *definition) crossKeepsPairs(c *cluster.Cluster, plan *blockedPlan) string {
	cr, ok := plan.gen.crossed()
	if !ok {
		return ""
	}
	for _, bn := range plan.nodes {
		f, ok := bn.b.Rhs.(*syntax.Filter)
		if !ok || !slices.Contains(c.Writes, bn.b.Name()) {
			continue
		}
		if t := d.info.Types[f.Array.Name]; t != nil && t.IsArray() && t.Elem().Kind() == "Tuple" {
			return fmt.Sprintf("%s keeps pairs of %s = %s in memory, which the per-element loop writes in one pass", bn.b.Name(), plan.gen.b.Name(), syntax.FormatCombinator(cr))
		}
	}
	return ""
}

// crossFill writes the C that lays out a block of a cross's pairs, the count elements from
// the pair in row xi at place xj (carried from block to block, blockedLoop). A block within one
// row (every block, when rows are a block or longer: the loop's step ends blocks at rows' ends)
// reads its run of ys in place (the pointer xq) and its row's element of xs from xv (xone set);
// a block of several rows copies each row's run of ys into xb and its element of xs into xa.
// The bindings read xs's element as `xone ? xv : xa[k]`, which gcc's loop unswitching makes
// two loops, one with xv in a register: a cross and an additive fold of its products ran in
// 0.67 of the time of a version that filled xa (docs/performance.md, "Crosses blocked").
func (d *definition) crossFill(p string, cr *syntax.Cross, name, count, xa, xb string) error {
	a, b := cname(cr.A.Name), cname(cr.B.Name)
	ta, err := d.p.ct.name(d.info.Types[cr.A.Name].Elem())
	if err != nil {
		return err
	}
	tb, err := d.p.ct.name(d.info.Types[cr.B.Name].Elem())
	if err != nil {
		return err
	}
	d.printf("\t\t/* %s = %s: the block's pairs */\n", name, strings.ReplaceAll(syntax.FormatCombinator(cr), "*/", "* /"))
	d.printf("\t\tconst %s *restrict %sxq = %s; /* %s's element of each pair */\n", tb, p, xb, cr.B.Name)
	d.printf("\t\tconst int %sxone = %s.len - %sxj >= %s; /* the block lies in one row */\n", p, b, p, count)
	d.printf("\t\tconst %s %sxv = %s.data[%sxi]; /* the first row's element of %s */\n", ta, p, a, p, cr.A.Name)
	d.printf("\t\tif (%sxone) {\n", p)
	d.printf("\t\t\t%sxq = %s.data + %sxj; /* its run of %s, in place */\n", p, b, p, cr.B.Name)
	d.printf("\t\t} else { /* several rows: each one's run of %s copied */\n", cr.B.Name)
	d.printf("\t\t\tfor (int64_t %sxr = %sxi, %sxc = %sxj, %sxk = 0; %sxk < %s; %sxc = 0, %sxr++) {\n", p, p, p, p, p, p, count, p, p)
	d.printf("\t\t\t\tconst int64_t %sxm = %s.len - %sxc < %s - %sxk ? %s.len - %sxc : %s - %sxk;\n", p, b, p, count, p, b, p, count, p)
	d.printf("\t\t\t\tconst %s %sxr_v = %s.data[%sxr];\n", ta, p, a, p)
	d.printf("\t\t\t\tCNF_IVDEP\n")
	d.printf("\t\t\t\tfor (int64_t %sxt = 0; %sxt < %sxm; %sxt++) {\n", p, p, p, p)
	d.printf("\t\t\t\t\t%s[%sxk + %sxt] = %sxr_v;\n", xa, p, p, p)
	d.printf("\t\t\t\t\t%s[%sxk + %sxt] = %s.data[%sxc + %sxt];\n", xb, p, p, b, p, p)
	d.printf("\t\t\t\t}\n")
	d.printf("\t\t\t\t%sxk += %sxm;\n", p, p)
	d.printf("\t\t\t}\n")
	d.printf("\t\t}\n")
	return nil
}

// sliceBounds is the C of where each slice of a loop's input starts and ends, within the
// input's length n, when slices (take, drop, tail, slice) are all that read the input (nil
// when anything else does): the loop then runs over the input from the first start to the
// furthest end, not over all of it. A slice keeps the positions from its start (at least 0)
// while fewer than its count (none for a count of 0 or less); a slice without a start starts
// at 0, and ends is nil when one has no count (a drop keeps the input to its end).
func (d *definition) sliceBounds(plan *blockedPlan, n string) (starts, ends []string, err error) {
	counted := true
	for _, bn := range plan.nodes {
		if bn == plan.gen || bn.inRate != "" || len(bn.ins) == 0 {
			continue
		}
		sl, ok := bn.b.Rhs.(*syntax.Slice)
		if !ok {
			return nil, nil, nil
		}
		start := "INT64_C(0)"
		if sl.Start != nil {
			v, err := d.x.value(sl.Start, nil, quote(bn.b.Name()))
			if err != nil {
				return nil, nil, err
			}
			start = v
			starts = append(starts, fmt.Sprintf("({ const int64_t cnf_s_ = %s; cnf_s_ < 0 ? 0 : cnf_s_ > %s ? %s : cnf_s_; })", v, n, n))
		} else {
			starts = append(starts, "INT64_C(0)")
		}
		if sl.Count == nil {
			counted = false
			continue
		}
		count, err := d.x.value(sl.Count, nil, quote(bn.b.Name()))
		if err != nil {
			return nil, nil, err
		}
		ends = append(ends, fmt.Sprintf("({ const int64_t cnf_s_ = %s, cnf_c_ = %s; cnf_c_ <= 0 ? 0 : cnf_s_ > %s - cnf_c_ ? %s : cnf_s_ + cnf_c_ < 0 ? 0 : cnf_s_ + cnf_c_; })", start, count, n, n))
	}
	if !counted {
		ends = nil
	}
	return starts, ends, nil
}

// blockRow is the C of the bytes an element of a block takes in all of a loop's buffers and
// inputs, row naming each one's element type: a sum of sizeofs, a term a type.
func blockRow(row map[string]string) string {
	n := map[string]int{}
	for _, tn := range row {
		n[tn]++
	}
	var terms []string
	for _, tn := range slices.Sorted(maps.Keys(n)) {
		terms = append(terms, fmt.Sprintf("%d * sizeof(%s)", n[tn], tn))
	}
	if len(terms) == 0 {
		return "0"
	}
	return strings.Join(terms, " + ")
}

// maxSizeC is the C of the largest of sizes (C expressions of sizes in bytes).
func maxSizeC(sizes []string) string {
	m := sizes[0]
	for _, s := range sizes[1:] {
		m = fmt.Sprintf("cnf_max_i64_((int64_t)%s, (int64_t)%s)", m, s)
	}
	return "(int64_t)" + m
}
