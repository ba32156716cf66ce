package codegen

import (
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/cnf-tools/cnf/cluster"
	"github.com/cnf-tools/cnf/fuse"
	"github.com/cnf-tools/cnf/infer"
	"github.com/cnf-tools/cnf/syntax"
	"github.com/cnf-tools/cnf/types"
)

// Options are what Emit needs besides the definition and its clustering.
type Options struct {
	Host *Host // the host file, or nil
	// CountBytes makes every loop add the bytes of the arrays it streams in and stores to
	// cnf_bytes_read and cnf_bytes_written (cnf bench).
	CountBytes bool
	// PerElement keeps every loop its fused process, an element at a time, instead of the
	// blocked form (for comparing the two).
	PerElement bool
	// SourceName is the name compiler messages give the generated lines, after the host file's
	// (which #line directives name by its own path): cnf build's output file; "prog.c", the
	// name Build compiles, by default.
	SourceName string
	// Threads runs the loops that can be split (parallel.go) on a team of that many threads
	// (cnf run --compiled --threads; 0: one, unless CNF_THREADS is set); MinChunk is the fewest
	// elements a thread gets (0: the runtime's; the tests set 1 to split small inputs); MinPeel
	// the fewest elements a blocked loop peels at (cnf_peel; 0: the runtime's; the tests
	// set 1); MinStream the fewest bytes a loop must move to write its outputs with
	// streaming stores, a fixed rule (cnf_stream_worth; 0: the runtime's, the last-level
	// cache's size, above which each loop learns on its first calls whether streaming or
	// plain stores are faster, cnf_stream_pick; the tests set 1).
	Threads   int
	MinChunk  int64
	MinPeel   int64
	MinStream int64
	// ReassociateFloats lets a loop with a Float fold run on several threads, its partial
	// sums (products, maxima, minima) combined in chunk order: the rounding of the result
	// changes with the number of threads (--reassociate-floats).
	ReassociateFloats bool
	// DefaultThreads is the threads the loops that can be split start with in the C that
	// cnf build writes (CNF_THREADS_DEFAULT; the caller, a library's NAME_threads or a
	// harness's CNF_THREADS, may change it): 0 or 1, one.
	DefaultThreads int
	// Fused are the loops of the clustering as the analysis core fused them (analysis.Def's
	// Fused): the C is emitted from them rather than from fusing again, so that it is the
	// process the editor and cnf fuse show. nil, or loops of another clustering: fused here.
	Fused []*fuse.Fused
}

// Unit is one definition's C: the function and what a harness needs to call it.
type Unit struct {
	Name   string // the C function
	Result string // the C struct of its results
	Params []Param
	// Results are the definition's results, in order.
	Results []Param
	Loops   int // the loops the clustering runs (externals not counted)
}

// Param is a parameter or result: its CNF name, its C field or parameter name, its type, and
// where it is written (for a located error when a harness cannot pass it).
type Param struct {
	Name, C string
	Type    *types.Type
	Range   syntax.Range
	// Index, for an Int array parameter that gather reads as indices: how the bench harness
	// draws it (benchinputs.go).
	Index *indexBound
}

// definition emits one definition under a clustering.
type definition struct {
	p     *program
	r     *infer.Result
	cl    *cluster.Clustering
	opts  Options
	info  *types.Info
	x     *exprs
	b     strings.Builder
	done  map[string]bool            // arrays in memory so far
	bind  map[string]*syntax.Binding // the binding of every name
	loops []loopPlan
	// parts holds, by the name of its first binding, the comment of each loop split from a
	// loop of the clustering whose processes do not fuse (split.go).
	parts map[string]string
	known []syntax.Expr // the lengths known before any loop (cluster.Graph.Known), as typed
	// prefix names the locals of the process being written.
	prefix string
}

// cursorName is the position of a process (prefix) in an input channel read from memory.
func (d *definition) cursorName(prefix, c string) string { return ident(prefix+"i_", c) }

// cursor is the position of the process being written in an input channel.
func (d *definition) cursor(c string) string { return d.cursorName(d.prefix, c) }

// loopPlan is how one cluster runs: its processes (one when fused), with the heap types of each.
type loopPlan struct {
	c      *cluster.Cluster
	procs  []*fuse.Process
	heaps  []map[string]*types.Type
	origin map[syntax.Expr]string // the binding each worker expression belongs to
	fused  bool
	// call is an external's call of a prelude function (external fst maximAnn) as an
	// expression, typed: compiled code computes it in place.
	call syntax.Expr
	// blocked is the loop's blocked form (blocked.go); without one, why says why the loop is
	// its fused process.
	blocked *blockedPlan
	why     string
}

// Emit compiles a definition accepted by size inference and type checking, under a clustering
// of it, to a C function (one loop per cluster; see the package comment). It returns the
// function's C text, the program-wide declarations it needs being added to p.
func (p *program) emit(r *infer.Result, cl *cluster.Clustering, opts Options) (string, *Unit, error) {
	if r.Types == nil {
		return "", nil, fmt.Errorf("%s has no element types", r.Func.Def.Name.Name)
	}
	d := &definition{p: p, r: r, cl: cl, opts: opts, info: r.Types.Copy(), done: map[string]bool{}, bind: map[string]*syntax.Binding{}}
	d.x = &exprs{p: p, rec: map[syntax.Expr]*types.Type{}, ops: map[*syntax.Op]*types.Type{}, vars: map[string]val{}}
	d.info.Record(d.x.rec, d.x.ops)
	for _, b := range r.Func.Def.Bindings {
		for _, id := range b.Names {
			d.bind[id.Name] = b
		}
	}
	if err := d.plan(); err != nil {
		return "", nil, err
	}
	u, err := d.function()
	if err != nil {
		return "", nil, err
	}
	return d.b.String(), u, nil
}

// plan fuses every loop and types every process, recording the types of all the expressions
// the function will contain (they are final only once all of them are typed).
func (d *definition) plan() error {
	// An external nobody implements is the first thing to say (its outputs have no types either).
	for _, c := range d.cl.Clusters {
		if !c.External() {
			continue
		}
		e := c.Nodes[0].Binding.Rhs.(*syntax.External)
		if !d.p.hostKnown(e.Func.Name) && !library[e.Func.Name] && arities[e.Func.Name] == 0 {
			d.p.noteMissing(e.Func)
		}
	}
	if err := d.p.missingError(); err != nil {
		return err // every external without C (their outputs have no types to go on with)
	}
	for _, b := range d.cl.Graph.Known {
		l, _ := d.r.LengthOf(b) // a new expression at each call: keep the one typed
		if _, diags := d.info.ExprType(l.Known, nil); len(diags) > 0 {
			return &CompileError{Range: b.Range, Message: diags[0].Message}
		}
		d.known = append(d.known, l.Known)
	}
	fused := d.opts.Fused
	if !fusedFrom(fused, d.cl) {
		fused = fuse.FuseClusters(d.cl, fuse.MaxStates)
	}
	if !d.opts.PerElement {
		split, notes, err := d.splitUnfused(fused)
		if err != nil {
			return err
		}
		if split != nil {
			d.cl, d.parts = split, notes
			fused = fuse.FuseClusters(d.cl, fuse.MaxStates)
		}
	}
	for _, f := range fused {
		if f.Cluster.External() {
			lp := loopPlan{c: f.Cluster}
			b := f.Cluster.Nodes[0].Binding
			if c := b.Rhs.(*syntax.External); !d.p.hostKnown(c.Func.Name) && !library[c.Func.Name] && arities[c.Func.Name] == len(c.Args) && len(c.Args) > 0 {
				args := make([]syntax.Expr, len(c.Args))
				for i, a := range c.Args {
					args[i] = a
				}
				lp.call = &syntax.App{Fun: c.Func, Args: args}
				t, diags := d.info.ExprType(lp.call, nil)
				if len(diags) > 0 {
					return &CompileError{Range: c.Func.Range, Message: diags[0].Message}
				}
				if len(b.Names) == 1 {
					if err := types.Unify(d.info.Types[b.Names[0].Name], t); err != nil {
						return &CompileError{Range: b.Range, Message: err.Error()}
					}
				}
			}
			d.loops = append(d.loops, lp)
			continue
		}
		var fe *fuse.FusionError
		if f.Err != nil && !errors.As(f.Err, &fe) {
			return f.Err
		}
		lp := loopPlan{c: f.Cluster, origin: map[syntax.Expr]string{}}
		for i, proc := range f.Network.Procs {
			lp.noteOrigin(proc, f.Cluster.Nodes[i].Binding.Name())
		}
		if f.Process != nil {
			lp.procs, lp.fused = []*fuse.Process{f.Process}, true
		} else {
			lp.procs = d.topological(f.Network.Procs)
		}
		if !d.opts.PerElement {
			lp.blocked, lp.why = d.blockable(f.Cluster)
		} else {
			lp.why = "per-element code was asked for"
		}
		if lp.blocked != nil {
			if err := d.typeBlocked(lp.blocked); err != nil {
				return err
			}
			d.loops = append(d.loops, lp)
			continue
		}
		for _, proc := range lp.procs {
			heap, err := fuse.HeapTypes(proc, d.info)
			if err != nil {
				return &CompileError{Range: f.Cluster.Nodes[0].Binding.Range, Message: err.Error()}
			}
			lp.heaps = append(lp.heaps, heap)
		}
		d.loops = append(d.loops, lp)
	}
	return nil
}

// noteOrigin records the binding of every expression of a template, so that a run-time error
// in a fused loop names the binding whose worker failed, as the reference interpreter does.
func (lp *loopPlan) noteOrigin(proc *fuse.Process, binding string) {
	add := func(e syntax.Expr) {
		if e != nil {
			lp.origin[e] = binding
		}
	}
	for _, h := range proc.Heap {
		add(h.Init)
	}
	for _, in := range proc.Instrs {
		add(in.Expr)
		for _, n := range []fuse.Next{in.Next, in.Else} {
			for _, u := range n.Updates {
				add(u.Expr)
			}
		}
	}
}

// topological orders the processes of a loop whose fusion failed so that each runs after the
// ones whose outputs it reads; they then run one after another through memory.
func (d *definition) topological(procs []*fuse.Process) []*fuse.Process {
	pos := map[*syntax.Binding]int{}
	for i, b := range d.r.Func.Order {
		pos[b] = i
	}
	out := slices.Clone(procs)
	key := func(p *fuse.Process) int { return pos[d.bind[p.Outs[0]]] }
	slices.SortStableFunc(out, func(a, b *fuse.Process) int { return key(a) - key(b) })
	return out
}

func (d *definition) printf(format string, args ...any) { fmt.Fprintf(&d.b, format, args...) }

func quote(s string) string { return strconv.Quote(s) }

// cname is the C variable of a name of the definition.
func cname(name string) string { return ident("v_", name) }

// function writes the C function of the definition.
func (d *definition) function() (*Unit, error) {
	fn := d.r.Func
	name := fn.Def.Name.Name
	u := &Unit{Name: functionName(name), Result: ident("cnf_result_", name)}
	// Every parameter and binder is a C variable of its type (contracted arrays are never used).
	for n, t := range d.info.Types {
		v := val{c: cname(n), t: t}
		if !t.IsArray() && t.Kind() == "Int" {
			v.scalar = n
		}
		d.x.vars[n] = v
	}
	var params []string
	for _, s := range fn.Params {
		t := d.info.Types[s.Name]
		tn, err := d.p.ct.name(t)
		if err != nil {
			return nil, &CompileError{Range: s.Decl.Range, Message: fmt.Sprintf("parameter %s: %v", s.Name, err)}
		}
		params = append(params, tn+" "+cname(s.Name))
		u.Params = append(u.Params, Param{Name: s.Name, C: cname(s.Name), Type: t, Range: s.Decl.Range})
		d.done[s.Name] = true
	}
	var fields []string
	for i, id := range fn.Def.Results {
		t := d.info.Types[id.Name]
		tn, err := d.p.ct.name(t)
		if err != nil {
			return nil, &CompileError{Range: id.Range, Message: fmt.Sprintf("result %s: %v", id.Name, err)}
		}
		f := fmt.Sprintf("r%d", i)
		fields = append(fields, fmt.Sprintf("%s %s; /* %s */", tn, f, id.Name))
		u.Results = append(u.Results, Param{Name: id.Name, C: f, Type: t, Range: id.Range})
	}
	d.printf("/* %s, compiled from its clustering into %d loops. */\n", name, d.countLoops())
	d.printf("typedef struct { %s } %s;\n\n", strings.Join(fields, " "), u.Result)
	if len(params) == 0 {
		params = []string{"void"}
	}
	// Each loop is a function of its own (loopFunction), written before the definition's:
	// the definition's function is written aside and follows them.
	head := d.b.String()
	d.b = strings.Builder{}
	var loopFns strings.Builder
	stored := map[string]string{} // the C variables of the definition's function: their C types
	for _, s := range fn.Params {
		stored[cname(s.Name)], _ = d.p.ct.name(d.info.Types[s.Name])
	}
	d.printf("static %s %s(%s) {\n", u.Result, u.Name, strings.Join(params, ", "))
	// Declare the binders that are stored: arrays written by a loop or an external, scalars.
	contracted := map[string]bool{}
	for _, lp := range d.loops {
		for _, a := range lp.c.Contracted {
			contracted[a] = true
		}
	}
	for _, b := range fn.Order {
		for _, id := range b.Names {
			if contracted[id.Name] {
				continue
			}
			tn, err := d.p.ct.name(d.info.Types[id.Name])
			if err != nil {
				return nil, &CompileError{Range: id.Range, Message: fmt.Sprintf("%s: %v", id.Name, err)}
			}
			// Every variable starts initialised: a loop's function is given the ones it
			// makes, which keep their value where it makes none.
			init := " = {0}"
			if t := d.info.Types[id.Name]; !t.IsArray() && (t.Kind() == "Int" || t.Kind() == "Float" || t.Kind() == "Bool") {
				init = " = 0"
			}
			d.printf("\t%s %s%s;\n", tn, cname(id.Name), init)
			stored[cname(id.Name)] = tn
		}
	}
	for i, b := range d.cl.Graph.Known {
		c, err := d.x.value(d.known[i], nil, quote(b.Name()))
		if err != nil {
			return nil, err
		}
		d.printf("\t%s = %s; /* %s: known before any loop */\n", cname(b.Name()), c, b.Name())
	}
	k := 0
	for _, lp := range d.loops {
		if lp.c.External() {
			if err := d.external(lp.c.Nodes[0].Binding, lp.call); err != nil {
				return nil, err
			}
			continue
		}
		k++
		u.Loops++
		if err := d.loopFunction(&loopFns, u.Name, k, lp, stored); err != nil {
			return nil, err
		}
	}
	var rs []string
	result := map[string]bool{}
	for _, id := range fn.Def.Results {
		rs = append(rs, cname(id.Name))
		result[id.Name] = true
	}
	// Arrays stored for later loops and not returned are freed.
	for _, b := range fn.Order {
		for _, id := range b.Names {
			if !contracted[id.Name] && !result[id.Name] && d.info.Types[id.Name].IsArray() {
				d.printf("\tcnf_free(%s.data);\n", cname(id.Name))
			}
		}
	}
	d.printf("\treturn (%s){%s};\n}\n", u.Result, strings.Join(rs, ", "))
	driver := d.b.String()
	d.b = strings.Builder{}
	d.b.WriteString(head)
	d.b.WriteString(loopFns.String())
	d.b.WriteString(driver)
	return u, nil
}

func (d *definition) countLoops() int {
	n := 0
	for _, lp := range d.loops {
		if !lp.c.External() {
			n++
		}
	}
	return n
}

// loopFunction writes one cluster as a C function of its own into fns, and its call into the
// definition's function: the function's parameters are the variables its loop reads, by value,
// and by pointer those of the bindings it makes. A function for each loop keeps the C
// compiler's work on each loop apart (one function holding every loop took it longer to
// optimise) and lets Build optimise the loops of a large program on several cores (lto.go).
func (d *definition) loopFunction(fns *strings.Builder, def string, k int, lp loopPlan, stored map[string]string) error {
	outer := d.b
	d.b = strings.Builder{}
	err := d.loop(k, lp)
	body := d.b.String()
	d.b = outer
	if err != nil {
		return err
	}
	made := map[string]bool{}
	var madeNames []string
	for _, nd := range lp.c.Nodes {
		for _, id := range nd.Binding.Names {
			madeNames = append(madeNames, id.Name)
			made[cname(id.Name)] = true
		}
	}
	var params, args, in, out []string
	seen := map[string]bool{}
	for _, v := range cVariable.FindAllString(body, -1) {
		tn, ok := stored[v]
		if !ok || seen[v] {
			continue
		}
		seen[v] = true
		if made[v] {
			continue
		}
		params = append(params, fmt.Sprintf("const %s %s", tn, v))
		args = append(args, v)
	}
	for _, n := range madeNames {
		v := cname(n)
		tn, ok := stored[v]
		if !ok || !seen[v] {
			continue
		}
		params = append(params, fmt.Sprintf("%s *restrict out_%s", tn, v))
		args = append(args, "&"+v)
		in = append(in, fmt.Sprintf("\t%s %s = *out_%s;\n", tn, v, v))
		out = append(out, fmt.Sprintf("\t*out_%s = %s;\n", v, v))
	}
	if len(params) == 0 {
		params = []string{"void"}
	}
	name := loopFunctionName(def, k)
	fmt.Fprintf(fns, "%s", d.loopComment(k, lp, ""))
	fmt.Fprintf(fns, "static __attribute__((noinline)) void %s(%s) {\n", name, strings.Join(params, ", "))
	fns.WriteString(strings.Join(in, ""))
	fns.WriteString(body)
	fns.WriteString(strings.Join(out, ""))
	fns.WriteString("}\n\n")
	var names []string
	for _, nd := range lp.c.Nodes {
		names = append(names, nd.Binding.Name())
	}
	d.printf("\t%s(%s); /* loop %d: %s */\n", name, strings.Join(args, ", "), k, strings.ReplaceAll(strings.Join(names, ", "), "*/", "* /"))
	return nil
}

// cVariable matches the C variables of a definition's names (cname) in generated C: the loop's
// own locals (L1_v_x) and the fields of structs are not matched, a word character before them.
var cVariable = regexp.MustCompile(`\bv_[A-Za-z0-9_]+`)

// loopFunctionName is the C function of loop k of a definition whose function is def
// (cnf_L1_prog): a definition's name starts with a lower-case letter or _, so it is no
// definition's function.
func loopFunctionName(def string, k int) string {
	return fmt.Sprintf("cnf_L%d_%s", k, strings.TrimPrefix(def, "cnf_"))
}

// loopComment is the comment above a loop: which bindings it computes, and in what form.
func (d *definition) loopComment(k int, lp loopPlan, indent string) string {
	var b strings.Builder
	var comb []string
	for _, nd := range lp.c.Nodes {
		comb = append(comb, nd.Binding.Name()+" = "+syntax.FormatCombinator(nd.Binding.Rhs))
	}
	fmt.Fprintf(&b, "%s/* Loop %d", indent, k)
	if lp.blocked == nil && !lp.fused && len(lp.procs) > 1 {
		b.WriteString(" (not fused: its processes run one after another)")
	}
	b.WriteString(":\n")
	if note, ok := d.parts[lp.c.Nodes[0].Name]; ok {
		fmt.Fprintf(&b, "%s * (%s.)\n", indent, strings.ReplaceAll(note, "*/", "* /"))
	}
	for _, c := range comb {
		fmt.Fprintf(&b, "%s *   %s\n", indent, strings.ReplaceAll(c, "*/", "* /"))
	}
	if lp.blocked != nil {
		fmt.Fprintf(&b, "%s * Blocked: each binding a loop over a block of the input at a time.\n", indent)
	}
	if lp.blocked == nil && lp.why != "" {
		what := "The fused process"
		if !lp.fused && len(lp.procs) > 1 {
			what = "Each process"
		}
		fmt.Fprintf(&b, "%s * %s, an element at a time (not blocked: %s).\n", indent, what, strings.ReplaceAll(lp.why, "*/", "* /"))
	}
	fmt.Fprintf(&b, "%s */\n", indent)
	return b.String()
}

// loop writes the body of one cluster's function: its fused process, or its processes one
// after another through temporary arrays when fusion failed.
func (d *definition) loop(k int, lp loopPlan) error {
	d.printf("\t{\n") // a block of its own: the loop's locals may shadow the function's parameters
	if err := d.sizeChecks(lp.c); err != nil {
		return err
	}
	if lp.blocked != nil {
		if err := d.blockedLoop(k, lp); err != nil {
			return err
		}
		d.printf("\t}\n")
		return nil
	}
	writes := map[string]bool{}
	for _, a := range lp.c.Writes {
		writes[a] = true
	}
	scalars := map[string]bool{}
	for _, s := range lp.c.Scalars {
		scalars[s] = true
	}
	var temps []string
	if !lp.fused && len(lp.procs) > 1 {
		// Arrays passed between the processes of the loop go through memory.
		for _, a := range lp.c.Contracted {
			tn, err := d.p.ct.name(d.info.Types[a])
			if err != nil {
				return err
			}
			d.printf("\t%s %s = {0};\n", tn, cname(a))
			writes[a] = true
			temps = append(temps, a)
		}
	}
	// The processes are written aside, to learn which scalars they divide by: the dividers
	// are made before the loop starts.
	outer := d.b
	d.b = strings.Builder{}
	d.x.divisors = map[string]bool{}
	// The state machine of a process an element at a time is never vectorised (exprs.scalar).
	d.x.scalar = true
	defer func() { d.x.divisors, d.x.scalar = nil, false }()
	for i, proc := range lp.procs {
		if err := d.process(fmt.Sprintf("L%d_%d_", k, i), proc, lp.heaps[i], writes, scalars, lp.origin); err != nil {
			d.b = outer
			return err
		}
		for _, o := range proc.Outs {
			if writes[o] {
				d.done[o] = true
			}
		}
	}
	body := d.b.String()
	d.b = outer
	for _, s := range slices.Sorted(maps.Keys(d.x.divisors)) {
		d.printf("\tconst cnf_divider %s = cnf_divider_for(%s);\n", dividerName(s), cname(s))
	}
	d.b.WriteString(body)
	for _, a := range temps {
		d.printf("\tcnf_free(%s.data);\n", cname(a))
	}
	d.printf("\t}\n")
	return nil
}

// sizeChecks fails as the reference interpreter does when a map_n or zip of the loop reads arrays of
// different lengths from memory.
func (d *definition) sizeChecks(c *cluster.Cluster) error {
	for _, nd := range c.Nodes {
		keyword, arrays := syntax.SameLength(nd.Binding.Rhs)
		if len(arrays) < 2 || !d.done[arrays[0].Name] {
			continue
		}
		first := cname(arrays[0].Name)
		for _, a := range arrays[1:] {
			if !d.done[a.Name] {
				continue
			}
			d.printf("\tif (%s.len != %s.len) cnf_fail(%s, \"%s needs arrays of one size, but %s has %%lld elements and %s %%lld\", (long long)%s.len, (long long)%s.len);\n",
				first, cname(a.Name), quote(nd.Binding.Name()), keyword, arrays[0].Name, a.Name, first, cname(a.Name))
		}
	}
	return nil
}

// process writes one process as a block of labelled statements (Fig 4.6's instructions): an
// input channel is a cursor over an array in memory (pull reads at the cursor, drop advances
// it), a push stores into an output array or a scalar, the heap is local variables.
func (d *definition) process(prefix string, proc *fuse.Process, heap map[string]*types.Type, writes, scalars map[string]bool, origin map[syntax.Expr]string) error {
	d.printf("\t/* %s */\n", strings.ReplaceAll(proc.Name, "*/", "* /"))
	d.prefix = prefix
	vars := map[string]string{}
	saved := map[string]val{}
	for _, h := range proc.Heap {
		c := ident(prefix+"h_", h.Name)
		vars[h.Name] = c
		if old, ok := d.x.vars[h.Name]; ok {
			saved[h.Name] = old
		}
		d.x.vars[h.Name] = val{c: c, t: heap[h.Name]}
	}
	defer func() {
		for _, h := range proc.Heap {
			delete(d.x.vars, h.Name)
		}
		for n, v := range saved {
			d.x.vars[n] = v
		}
	}()
	whereOf := func(e syntax.Expr) string {
		if b, ok := origin[e]; ok {
			return quote(b)
		}
		return quote(proc.Name)
	}
	for _, c := range proc.Ins {
		d.printf("\tint64_t %s = 0; /* position in %s */\n", d.cursorName(prefix, c), c)
	}
	declared := map[string]bool{}
	for _, h := range proc.Heap {
		if declared[h.Name] { // fusion may list a buffer variable twice
			continue
		}
		declared[h.Name] = true
		tn, err := d.p.ct.name(heap[h.Name])
		if err != nil {
			return fmt.Errorf("%s: %s: %w", proc.Name, h.Name, err)
		}
		init := ""
		if h.Init != nil {
			v, err := d.x.value(h.Init, nil, whereOf(h.Init))
			if err != nil {
				return err
			}
			init = " = " + v
		} else {
			init = " = {0}"
			if k := heap[h.Name].Kind(); k == "Int" || k == "Float" || k == "Bool" {
				init = " = 0"
			}
		}
		d.printf("\t%s %s%s;\n", tn, vars[h.Name], init)
	}
	for _, o := range proc.Outs {
		if !writes[o] {
			continue
		}
		bound, err := d.bound(o)
		if err != nil {
			return err
		}
		tn, err := d.p.ct.name(d.info.Types[o].Elem())
		if err != nil {
			return err
		}
		// One element more than the bound: a conditional push (selects) stores before it
		// knows whether the element counts.
		d.printf("\t%s.data = cnf_alloc_slack(%s, sizeof(%s), %s);\n\t%s.len = 0;\n", cname(o), bound, tn, quote(o), cname(o))
	}
	// Labels are numbered in the process's order; the comment keeps fusion's name of each.
	number := map[fuse.Label]int{}
	for i, l := range proc.Order {
		number[l] = i
	}
	label := func(l fuse.Label) string { return fmt.Sprintf("%ss%d", prefix, number[l]) }
	exit := prefix + "exit"
	if len(proc.Order) > 0 && proc.Order[0] != proc.Start {
		d.printf("\tgoto %s;\n", label(proc.Start))
	}
	updates := func(n fuse.Next, indent string) error {
		for _, up := range n.Updates {
			v, err := d.x.value(up.Expr, nil, whereOf(up.Expr))
			if err != nil {
				return err
			}
			d.printf("%s%s = %s;\n", indent, vars[up.Var], v)
		}
		return nil
	}
	goTo := func(n fuse.Next, indent string) error {
		if err := updates(n, indent); err != nil {
			return err
		}
		d.printf("%sgoto %s;\n", indent, label(n.Label))
		return nil
	}
	var live map[fuse.Label]map[string]bool // made at the first case
	for _, l := range proc.Order {
		in := proc.Instrs[l]
		d.printf("%s: /* %s: %s", label(l), strings.ReplaceAll(string(l), "*/", "* /"), in.Op)
		if in.Chan != "" {
			d.printf(" %s", in.Chan)
		}
		d.printf(" */\n")
		switch in.Op {
		case fuse.Pull:
			cur := d.cursorName(prefix, in.Chan)
			d.printf("\tif (%s < %s.len) {\n\t\t%s = %s.data[%s];\n", cur, cname(in.Chan), vars[in.Var], cname(in.Chan), cur)
			if err := goTo(in.Next, "\t\t"); err != nil {
				return err
			}
			d.printf("\t}\n")
			if err := goTo(in.Else, "\t"); err != nil {
				return err
			}
		case fuse.Drop:
			d.printf("\t%s++;\n", d.cursorName(prefix, in.Chan))
			if err := goTo(in.Next, "\t"); err != nil {
				return err
			}
		case fuse.Push:
			// A push to a channel that is neither stored nor a scalar is read by another
			// process of the fused loop, which fusion gave the value through a variable.
			if writes[in.Chan] || scalars[in.Chan] {
				v, err := d.x.value(in.Expr, nil, whereOf(in.Expr))
				if err != nil {
					return err
				}
				if writes[in.Chan] {
					d.printf("\t%s.data[%s.len++] = %s;\n", cname(in.Chan), cname(in.Chan), v)
				} else {
					d.printf("\t%s = %s;\n", cname(in.Chan), v)
				}
			}
			if err := goTo(in.Next, "\t"); err != nil {
				return err
			}
		case fuse.Case:
			v, err := d.x.value(in.Expr, nil, whereOf(in.Expr))
			if err != nil {
				return err
			}
			if live == nil {
				live = liveIn(proc)
			}
			if code, ok, err := d.selects(proc, live, in, v, vars, writes, scalars, whereOf, label); err != nil {
				return err
			} else if ok {
				d.printf("%s", code)
				continue
			}
			d.printf("\tif (%s) {\n", v)
			if err := goTo(in.Next, "\t\t"); err != nil {
				return err
			}
			d.printf("\t}\n")
			if err := goTo(in.Else, "\t"); err != nil {
				return err
			}
		case fuse.Close, fuse.Jump:
			if err := goTo(in.Next, "\t"); err != nil {
				return err
			}
		case fuse.Exit:
			d.printf("\tgoto %s;\n", exit)
		}
	}
	d.printf("%s:;\n", exit)
	if d.opts.CountBytes {
		for _, c := range proc.Ins {
			d.printf("\tcnf_bytes_read += %s.len * (int64_t)sizeof(*%s.data);\n", cname(c), cname(c))
		}
		for _, o := range proc.Outs {
			if writes[o] {
				d.printf("\tcnf_bytes_written += %s.len * (int64_t)sizeof(*%s.data);\n", cname(o), cname(o))
			}
		}
	}
	return nil
}

// bound is a C expression for the most elements the array a can have, from the lengths of the
// arrays in memory: the input's for a filter, k1 + k2 for append, the count for generate.
func (d *definition) bound(a string) (string, error) {
	if d.done[a] {
		return cname(a) + ".len", nil
	}
	b := d.bind[a]
	if b == nil {
		return "", fmt.Errorf("no binding makes %s", a)
	}
	w := quote(b.Name())
	// An array made by walking another (the table's Walks: map_n, zip, filter, scans, indexed,
	// slices, unzip, gather, reverse) has at most that one's elements.
	if in := syntax.Walked(b.Rhs); in != nil {
		if _, ok := b.Rhs.(*syntax.Fold); !ok {
			return d.bound(in.Name)
		}
	}
	switch c := b.Rhs.(type) {
	case *syntax.Generate:
		n, err := d.x.value(c.Size, nil, w)
		if err != nil {
			return "", err
		}
		return "(" + n + ")", nil
	case *syntax.Cross:
		x, err := d.bound(c.A.Name)
		if err != nil {
			return "", err
		}
		y, err := d.bound(c.B.Name)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("cnf_bound_mul(%s, %s, %s)", x, y, w), nil
	case *syntax.Append:
		x, err := d.bound(c.A.Name)
		if err != nil {
			return "", err
		}
		y, err := d.bound(c.B.Name)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("cnf_bound_add(%s, %s, %s)", x, y, w), nil
	}
	return "", &CompileError{Range: b.Range, Message: fmt.Sprintf("no bound for the array %s", a)}
}

// functionName is the C function of the definition name: cnf_NAME, or cnf_def_NAME where
// that would be a name of the runtime's or of a family of helpers (a definition named free
// made cnf_free, the allocator's, and the file did not compile).
func functionName(name string) string {
	c := ident("cnf_", name)
	runtime := regexp.MustCompile(`\b` + regexp.QuoteMeta(c) + `\b`)
	for _, text := range []string{runtimeC, libraryRuntimeC, allocC, libraryHelpersC, ioC, benchC} {
		if runtime.MatchString(text) {
			return ident("cnf_def_", name)
		}
	}
	for _, family := range []string{"cnf_bound_", "cnf_cmp_", "cnf_compact_", "cnf_ext_", "cnf_gen_", "cnf_random_", "cnf_read_", "cnf_result_", "cnf_write_", "cnf_min_", "cnf_max_", "cnf_def_"} {
		if strings.HasPrefix(c, family) {
			return ident("cnf_def_", name)
		}
	}
	return c
}

// fusedFrom reports whether fused are the loops of cl, one per cluster in its order.
func fusedFrom(fused []*fuse.Fused, cl *cluster.Clustering) bool {
	if len(fused) != len(cl.Clusters) {
		return false
	}
	for i, f := range fused {
		if f == nil || f.Cluster != cl.Clusters[i] {
			return false
		}
	}
	return true
}
