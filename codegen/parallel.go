package codegen

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/cnf-tools/cnf/syntax"
)

// Parallel loops. A blocked loop whose work can be split runs on a team of threads (OpenMP):
// its input is cut into contiguous chunks, one a thread, and each thread runs the loop's blocks
// over its chunk as the sequential code runs them over the whole input, on arrays that start at
// its chunk (the C shadows each input and output array with its chunk's view). Then, in chunk
// order:
//
//   - a map's output of the input's rate is already in place (chunk i writes where chunk i's
//     elements go);
//   - a filter's output (and what is computed from its elements) was written at the chunk's
//     start: the chunks' pieces are moved down, each after the ones before it (a count per
//     chunk, an exclusive prefix sum, the moves: cnf_team_move, the team copying each piece in
//     steps no longer than the distance it moves), so the output is the sequential one. Only
//     a loop with a scan still does this: the others with filtered outputs run in tiles
//     (tiledLoop), which write each output once, in place;
//   - a fold's partial results are combined, the first chunk's from the fold's starting value,
//     the others' from the identity of its operator. Only folds whose operator is associative
//     are split: Int (+), (*), max, min, a step `\a x -> a + e`, Bool (&&) and (||) (Int
//     arithmetic wraps, so Int results are those of one thread to the bit). A Float fold is
//     reassociated only when the user asks (Options.ReassociateFloats, --reassociate-floats:
//     (+), (*), max and min), as that changes its rounding; without it its
//     loop stays sequential.
//   - a slice or an indexed reads positions: of the loop's input, or of the elements of a
//     generate that drives it, a position is the chunk's start plus the place in it; of a
//     filter's output it depends on what the tiles before kept, so such a loop runs in tiles,
//     each counting its elements of that rate first (counts.go). A slice of a slice of a
//     filtered rate, or such a loop with a scan, stays sequential.
//   - a worker that can fail (an index checked, a division by an element) does not keep its
//     loop on one thread: a chunk or tile that fails jumps back to its own start (setjmp;
//     cnf_fail longjmps there while cnf_team_jump is set, on the chunk's thread, never out of
//     the region), marks the loop failed and lets the others finish; then the loop runs again
//     on a team of the caller's thread alone (the same code), whose first failure is the
//     first in order, and reports it after the region (cnf_refail), as one thread reports it,
//     and a library's returns on the caller's thread. A zero loop-invariant divisor, which
//     fails every element alike, runs the loop on one thread from the start.
//   - a scan with such an operator runs from the identity in every chunk but the first; after
//     the team, each later chunk's piece of its output is combined with the total of the chunks
//     before it (their partial results, in order), the fix-up split evenly across the team: the
//     standard two passes, the second over the output only. A scan that its own loop reads
//     (a map of the running totals, a filter of them) keeps the loop on one thread: what reads
//     it would see each chunk's totals before they are fixed.
//
// How many threads: cnf_team (the runtime) gives a loop at most cnf_threads threads and none
// for fewer than cnf_min_chunk elements each, and a second loop that starts while a team is
// running (a library entry called from several threads) runs on its own thread, so threads
// never multiply. The harness takes them from CNF_THREADS and CNF_MIN_CHUNK; a library from
// NAME_threads.

// parallelPlan is how a blocked loop is split: its folds and lengths with their combining
// operator.
type parallelPlan struct {
	folds   map[*blockNode]foldOp // folds, lengths and scans: each chunk's from the identity
	scans   map[*blockNode]bool   // the scans among them: their outputs fixed up after the team
	mayFail bool                  // a worker can fail (an index checked, a division by an element)
	// positional: the filtered rates whose positions a slice or indexed reads; the loop runs
	// in tiles, each counting its elements of the counted rates first (counts.go).
	positional, counted []string
	// prefixed: the scans, when one is read in its own loop (or the loop counts a rate): the
	// loop runs in tiles, each computing its scans' totals first and starting each scan from
	// the total of the tiles before (counts.go); no fix-up after.
	prefixed []*blockNode
}

// fold is the operator of a fold or length the plan splits (false: none; also for no plan).
func (pp *parallelPlan) fold(bn *blockNode) (foldOp, bool) {
	if pp == nil {
		return foldOp{}, false
	}
	op, ok := pp.folds[bn]
	return op, ok
}

// teamLoop writes a blocked loop on a team of threads: the loop (private, its per-chunk
// declarations; loop, its blocks) runs once a chunk, on views of the input and output arrays
// that start at the chunk; then the outputs' pieces are moved into place and the folds'
// partial results combined, in chunk order; then the epilogue (results, bytes counted) runs as
// on one thread.
func (d *definition) teamLoop(p string, plan *blockedPlan, pp *parallelPlan, writes map[string]bool, private, loop, epilogue string) error {
	arrType := func(a string) (string, error) { return d.p.ct.name(d.info.Types[a]) }
	outs := slices.Sorted(maps.Keys(writes))
	d.printf("\t/* On a team of threads (codegen/parallel.go): each chunk of the input runs the loop\n")
	d.printf("\t * on its own views of the arrays; outputs and folds are joined in chunk order. */\n")
	// A zero divisor fails the loop's first division, in order: on one thread.
	var zero []string
	for _, s := range slices.Sorted(maps.Keys(d.x.divisors)) {
		zero = append(zero, dividerName(s)+".d == 0")
	}
	// One copy: a loop runs its team's code on one thread too (a region of one thread; tiles
	// then write in place), so gcc compiles its blocks once, not twice (docs/performance.md,
	// "Each loop compiled once"); one that can fail runs it again on one thread when a chunk
	// failed, and that region's failure, the first in order, is reported after it (cnf_refail:
	// a failure must not longjmp out of a region). A loop keeps a copy outside any region for
	// one thread when its tiles count their rates or total their scans first, which one chunk
	// on one thread need not, and when it has a Float fold (--reassociate-floats), whose
	// tiles' partial sums would round otherwise than one thread's sum.
	floats := false
	for _, bn := range plan.nodes {
		if _, ok := pp.fold(bn); !ok {
			continue
		}
		t := d.info.Types[bn.b.Name()]
		if t.IsArray() {
			t = t.Elem()
		}
		floats = floats || t.Kind() != "Int" && t.Kind() != "Bool"
	}
	single := !floats && len(pp.counted) == 0 && len(pp.prefixed) == 0
	if single && len(zero) > 0 {
		pp.mayFail = true // a zero divisor fails in the region of one thread, as an index does
	}
	konst := "const "
	if pp.mayFail {
		konst = "" // set to 1 when a chunk fails
	}
	if len(zero) > 0 {
		d.printf("\t%sint %sT = %s ? 1 : cnf_team(%sn);\n", konst, p, strings.Join(zero, " || "), p)
	} else {
		d.printf("\t%sint %sT = cnf_team(%sn);\n", konst, p, p)
	}
	for _, a := range append(slices.Clone(plan.roots), outs...) {
		tn, err := arrType(a)
		if err != nil {
			return err
		}
		d.printf("\tconst %s %so_%s = %s;\n", tn, p, cname(a), cname(a))
	}
	for _, a := range outs {
		d.printf("\tint64_t %scnt_%s[CNF_MAX_THREADS];\n", p, cname(a))
	}
	var folds []*blockNode
	for _, bn := range plan.nodes {
		if _, ok := pp.fold(bn); ok {
			folds = append(folds, bn)
		}
	}
	accType := func(bn *blockNode) (string, error) {
		t := d.info.Types[bn.b.Name()]
		if t.IsArray() {
			t = t.Elem()
		}
		return d.p.ct.name(t)
	}
	for _, bn := range folds {
		tn, err := accType(bn)
		if err != nil {
			return err
		}
		d.printf("\t%s %sp_%s[CNF_MAX_THREADS];\n", tn, p, cname(bn.b.Name()))
	}
	// The chunk's code, written twice: in the team's region, and alone for one thread, which
	// never enters a region (a failure there, a zero divisor's, returns from a library by
	// longjmp, which must not leave an OpenMP region). In the region, a chunk that fails
	// (guard) jumps back to its own start and marks the loop failed: the loop then runs
	// again on one thread, whose first failure is the first in order.
	outer := d.b
	d.b = strings.Builder{}
	d.printf("\t\tconst int64_t %slo = cnf_chunk(%sn, %sT, %sc), %shi = cnf_chunk(%sn, %sT, %sc + 1);\n", p, p, p, p, p, p, p, p)
	start := d.b.Len()
	for _, a := range plan.roots {
		tn, _ := arrType(a)
		d.printf("\t\tconst %s %s = {%so_%s.data + %slo, %shi - %slo};\n", tn, cname(a), p, cname(a), p, p, p)
	}
	for _, a := range outs {
		tn, _ := arrType(a)
		d.printf("\t\t%s %s = {%so_%s.data + %slo, 0};\n", tn, cname(a), p, cname(a), p)
	}
	d.printf("\t\tconst int64_t %sn = %shi - %slo;\n", p, p, p)
	d.b.WriteString(indent(private))
	d.b.WriteString(indent(loop))
	for _, a := range outs {
		d.printf("\t\t%scnt_%s[%sc] = %s.len;\n", p, cname(a), p, cname(a))
	}
	for _, bn := range folds {
		d.b.WriteString(d.inRegister(p, bn))
		d.printf("\t\t%sp_%s[%sc] = %s;\n", p, cname(bn.b.Name()), p, ident(p+"acc_", bn.b.Name()))
	}
	chunk := d.b.String()
	d.b = outer
	guarded := chunk // the region's copy: with the jump back set around the chunk
	if pp.mayFail {
		d.printf("\tint %sfailed = 0; /* a chunk failed: the loop runs again on one thread */\n", p)
		guarded = chunk[:start] + d.guard(p, "continue;") + chunk[start:] + "\t\tcnf_team_jump = NULL;\n"
	}
	tiled, err := d.tiledLoop(p, plan, pp, outs, folds, private, loop)
	if err != nil {
		return err
	}
	// tc: the chunks whose pieces and partial results the code after the team joins (one
	// when the loop ran in tiles, which join their own).
	tc := p + "T"
	if tiled != "" {
		tc = p + "Tc"
		d.printf("\tint %s = %sT;\n", tc, p)
	}
	if single && pp.mayFail {
		d.printf("\tfor (;;) { /* once; again on one thread if a chunk failed */\n")
	} else if single {
		d.printf("\t{\n")
	} else {
		d.printf("\tif (%sT > 1) {\n", p)
	}
	if tiled != "" {
		d.b.WriteString(tiled)
	} else {
		d.printf("\t#pragma omp parallel num_threads(%sT)\n", p)
		d.printf("\tfor (int %sc = cnf_thread_num(); %sc < %sT; %sc += cnf_num_threads()) {\n", p, p, p, p)
		d.b.WriteString(guarded) // the chunk itself when it cannot fail
		d.printf("\t}\n")
	}
	if single && pp.mayFail {
		d.printf("\tif (!%sfailed) break;\n", p)
		d.printf("\tif (%sT <= 1) cnf_refail(); /* the first failure in order, as one thread reports it */\n", p)
		d.printf("\tcnf_team_done(%sT);\n\t%sT = 1;\n", p, p)
		if tiled != "" {
			d.printf("\t%s = 1;\n", tc)
		}
		d.printf("\t%sfailed = 0;\n", p)
	}
	if !single {
		if pp.mayFail {
			d.printf("\tif (%sfailed) {\n\t\tcnf_team_done(%sT);\n\t\t%sT = 1;\n", p, p, p)
			if tiled != "" {
				d.printf("\t\t%s = 1;\n", tc)
			}
			d.printf("\t}\n\t}\n\tif (%sT <= 1) {\n", p)
		} else {
			d.printf("\t} else {\n")
		}
		d.printf("\tfor (int %sc = 0; %sc < 1; %sc++) { /* one thread: the whole input one chunk */\n", p, p, p)
		d.b.WriteString(chunk)
		d.printf("\t}\n")
	}
	d.printf("\t}\n")
	for _, a := range outs {
		d.printf("\t/* %s: each chunk's piece after the ones before it */\n", a)
		d.printf("\t%s.len = cnf_team_move((char *)%s.data, sizeof *%s.data, %scnt_%s, %sn, %s);\n", cname(a), cname(a), cname(a), p, cname(a), p, tc)
	}
	for _, bn := range folds {
		if !pp.scans[bn] || !writes[bn.b.Name()] || len(pp.prefixed) > 0 { // in tiles: no fix-up
			continue
		}
		op, _ := pp.fold(bn)
		tn, _ := accType(bn)
		a, part := cname(bn.b.Name()), p+"p_"+cname(bn.b.Name())
		d.printf("\tif (%sT > 1) { /* %s: each chunk's piece after the first combined with the chunks' totals before it */\n", p, bn.b.Name())
		d.printf("\t\t%s %sbefore[CNF_MAX_THREADS];\n\t\tint64_t %sfrom[CNF_MAX_THREADS];\n", tn, p, p)
		d.printf("\t\t%sbefore[1] = %s[0];\n\t\t%sfrom[1] = %scnt_%s[0];\n", p, part, p, p, a)
		d.printf("\t\tfor (int %sc = 2; %sc < %sT; %sc++) {\n", p, p, p, p)
		d.printf("\t\t\t%sbefore[%sc] = %s;\n", p, p, fmt.Sprintf(op.combine, p+"before["+p+"c - 1]", part+"["+p+"c - 1]"))
		d.printf("\t\t\t%sfrom[%sc] = %sfrom[%sc - 1] + %scnt_%s[%sc - 1];\n", p, p, p, p, p, a, p)
		d.printf("\t\t}\n")
		d.printf("\t\tconst int64_t %sfix = %s.len - %sfrom[1];\n", p, a, p)
		d.printf("\t\t#pragma omp parallel num_threads(%sT)\n\t\t{\n", p)
		d.printf("\t\t\tconst int %st = cnf_thread_num(), %snt = cnf_num_threads();\n", p, p)
		d.printf("\t\t\tconst int64_t %slo = %sfrom[1] + cnf_chunk(%sfix, %snt, %st), %shi = %sfrom[1] + cnf_chunk(%sfix, %snt, %st + 1);\n", p, p, p, p, p, p, p, p, p, p)
		d.printf("\t\t\tfor (int %sc = 1; %sc < %sT; %sc++) {\n", p, p, p, p)
		d.printf("\t\t\t\tconst int64_t %sa = %sfrom[%sc] > %slo ? %sfrom[%sc] : %slo;\n", p, p, p, p, p, p, p)
		d.printf("\t\t\t\tconst int64_t %sb = %sfrom[%sc] + %scnt_%s[%sc] < %shi ? %sfrom[%sc] + %scnt_%s[%sc] : %shi;\n", p, p, p, p, a, p, p, p, p, p, a, p, p)
		d.printf("\t\t\t\tconst %s %sv = %sbefore[%sc];\n", tn, p, p, p)
		d.printf("\t\t\t\tfor (int64_t %si = %sa; %si < %sb; %si++) %s.data[%si] = %s;\n", p, p, p, p, p, a, p, fmt.Sprintf(op.combine, p+"v", a+".data["+p+"i]"))
		d.printf("\t\t\t}\n\t\t}\n\t}\n")
	}
	d.printf("\tcnf_team_done(%sT);\n", p)
	for _, bn := range folds {
		op, _ := pp.fold(bn)
		tn, _ := accType(bn)
		acc, part := ident(p+"acc_", bn.b.Name()), p+"p_"+cname(bn.b.Name())
		d.printf("\t%s %s = %s[0]; /* %s: the chunks' partial results, in order */\n", tn, acc, part, bn.b.Name())
		d.printf("\tfor (int %sc = 1; %sc < %s; %sc++) %s = %s;\n", p, p, tc, p, acc, fmt.Sprintf(op.combine, acc, part+"["+p+"c]"))
	}
	d.b.WriteString(epilogue)
	return nil
}

// tiledLoop is the C that runs a blocked loop with filtered outputs on a team a tile at a time
// (cnf_tile elements; "" when the loop has no such output, or has a scan, whose fix-up is
// per chunk). Cut into one chunk a thread, each filter's output was written at its chunk's
// start and then moved down after the chunks before it (cnf_team_move): the output read and
// written a second time. In tiles, taken in order from a shared counter, each thread writes
// a tile's filtered outputs into its own buffer (cache-sized); when the tile before has
// published where its outputs end, the thread publishes where its own end and copies them
// there, so each output is written once, in place. Outputs of the input's rate are written in
// place as the tile runs; folds keep a partial result a tile, combined in tile order after
// the team (the first tile's from the fold's start), so a result does not depend on which
// thread ran which tile.
func (d *definition) tiledLoop(p string, plan *blockedPlan, pp *parallelPlan, outs []string, folds []*blockNode, private, loop string) (string, error) {
	rate := map[string]string{}
	for _, bn := range plan.nodes {
		for _, id := range bn.b.Names {
			rate[id.Name] = bn.rate
		}
	}
	var kept []string
	for _, a := range outs {
		if rate[a] != "" {
			kept = append(kept, a)
		}
	}
	np, ns := len(pp.counted), len(pp.prefixed)
	if len(kept) == 0 && np == 0 && ns == 0 || len(pp.scans) > 0 && ns == 0 {
		return "", nil
	}
	first := np > 0 || ns > 0 // a pass before the loop: counts, scans' totals (counts.go)
	outer := d.b
	d.b = strings.Builder{}
	defer func() { d.b = outer }()
	elem := func(a string) (string, error) { return d.p.ct.name(d.info.Types[a].Elem()) }
	accType := func(bn *blockNode) (string, error) {
		t := d.info.Types[bn.b.Name()]
		if t.IsArray() { // a scan's elements
			t = t.Elem()
		}
		return d.p.ct.name(t)
	}
	nk := len(kept)
	if first {
		d.printf("\t/* In tiles (codegen/parallel.go, tiledLoop): each counts its filtered rates and totals its\n")
		d.printf("\t * scans first (counts.go), then runs from where the tiles before reach; outputs written once. */\n")
	} else {
		d.printf("\t/* In tiles (codegen/parallel.go, tiledLoop): each filtered output written once, in place. */\n")
	}
	// At least one tile, empty when the input is: its folds' partial results are their starts.
	d.printf("\tconst int64_t %stile = cnf_tile(), %sK = %sn > 0 ? (%sn + %stile - 1) / %stile : 1;\n", p, p, p, p, p, p)
	// chain declares a chain of published starts: name's starts (n a tile), ready's flags.
	chain := func(name, ready, what string, n int) {
		d.printf("\tint64_t *%s%s = cnf_alloc_made(0, (%sK + 1) * %d, sizeof(int64_t), \"tiles\", 0); /* where each tile's %s start */\n", p, name, p, n, what)
		d.printf("\tint *%s%s = cnf_alloc_made(0, %sK + 1, sizeof(int), \"tiles\", 0); /* tile k's starts are published */\n", p, ready, p)
		d.printf("\tmemset(%s%s, 0, (size_t)(%sK + 1) * sizeof(int));\n", p, ready, p)
		d.printf("\tfor (int %si = 0; %si < %d; %si++) %s%s[%si] = 0;\n", p, p, n, p, p, name, p)
		d.printf("\t%s%s[0] = 1;\n", p, ready)
	}
	if nk > 0 {
		chain("at", "ready", "outputs", nk)
	}
	if np > 0 {
		chain("pat", "pready", "positions in "+strings.Join(pp.counted, ", "), np)
	} else if first {
		d.printf("	int *%spready = cnf_alloc_made(0, %sK + 1, sizeof(int), \"tiles\", 0); /* tile k's scans' starts are published */\n", p, p)
		d.printf("	memset(%spready, 0, (size_t)(%sK + 1) * sizeof(int));\n", p, p)
		d.printf("	%spready[0] = 1;\n", p)
	}
	for _, sc := range pp.prefixed {
		tn, err := elem(sc.b.Name())
		if err != nil {
			return "", err
		}
		init, err := d.x.value(sc.init, nil, quote(sc.b.Name()))
		if err != nil {
			return "", err
		}
		d.printf("	%s *%s = cnf_alloc_made(0, %sK + 1, sizeof(%s), \"tiles\", 0); /* %s's running total before each tile */\n", tn, ident(p+"pre_", sc.b.Name()), p, tn, sc.b.Name())
		d.printf("	%s[0] = %s;\n", ident(p+"pre_", sc.b.Name()), init)
	}
	for _, bn := range folds {
		tn, err := accType(bn)
		if err != nil {
			return "", err
		}
		d.printf("\t%s *%spt_%s = cnf_alloc_made(0, %sK, sizeof(%s), \"tiles\", 0);\n", tn, p, cname(bn.b.Name()), p, tn)
	}
	for _, a := range kept {
		en, err := elem(a)
		if err != nil {
			return "", err
		}
		d.printf("\t%s *%sbuf_%s = cnf_alloc_made(0, (%stile + 1) * %sT, sizeof(%s), \"tiles\", 0); /* a tile's %s, a thread's buffer each */\n", en, p, cname(a), p, p, en, a)
	}
	d.printf("\tint64_t %snext = 0;\n", p)
	d.printf("\t#pragma omp parallel num_threads(%sT)\n", p)
	d.printf("\tfor (int64_t %sc = __atomic_fetch_add(&%snext, 1, __ATOMIC_RELAXED); %sc < %sK; %sc = __atomic_fetch_add(&%snext, 1, __ATOMIC_RELAXED)) {\n", p, p, p, p, p, p)
	d.printf("\t\tconst int64_t %slo = %sc * %stile, %shi = %slo + %stile < %sn ? %slo + %stile : %sn;\n", p, p, p, p, p, p, p, p, p, p)
	if pp.mayFail {
		// A tile that fails still publishes where its outputs end (where they start: it
		// keeps none), and its positions if it failed before publishing them, or the tiles
		// after it would wait for it forever.
		var f strings.Builder
		if first {
			fmt.Fprintf(&f, "if (!__atomic_load_n(&%spready[%sc + 1], __ATOMIC_RELAXED)) {\n", p, p)
			fmt.Fprintf(&f, "\tcnf_wait(&%spready[%sc]);\n", p, p)
			if np > 0 {
				fmt.Fprintf(&f, "\tfor (int %si = 0; %si < %d; %si++) %spat[(%sc + 1) * %d + %si] = %spat[%sc * %d + %si];\n", p, p, np, p, p, p, np, p, p, p, np, p)
			}
			for _, sc := range pp.prefixed {
				pre := ident(p+"pre_", sc.b.Name())
				fmt.Fprintf(&f, "\t%s[%sc + 1] = %s[%sc];\n", pre, p, pre, p)
			}
			fmt.Fprintf(&f, "\t__atomic_store_n(&%spready[%sc + 1], 1, __ATOMIC_RELEASE);\n}\n", p, p)
		}
		if nk > 0 {
			fmt.Fprintf(&f, "cnf_wait(&%sready[%sc]);\n", p, p)
			fmt.Fprintf(&f, "for (int %si = 0; %si < %d; %si++) %sat[(%sc + 1) * %d + %si] = %sat[%sc * %d + %si];\n", p, p, nk, p, p, p, nk, p, p, p, nk, p)
			fmt.Fprintf(&f, "__atomic_store_n(&%sready[%sc + 1], 1, __ATOMIC_RELEASE);\n", p, p)
		}
		f.WriteString("continue;\n")
		d.b.WriteString(d.guard(p, f.String()))
	}
	for _, a := range plan.roots {
		tn, _ := d.p.ct.name(d.info.Types[a])
		d.printf("\t\tconst %s %s = {%so_%s.data + %slo, %shi - %slo};\n", tn, cname(a), p, cname(a), p, p, p)
	}
	for _, a := range outs {
		tn, _ := d.p.ct.name(d.info.Types[a])
		if rate[a] == "" {
			d.printf("\t\t%s %s = {%so_%s.data + %slo, 0};\n", tn, cname(a), p, cname(a), p)
		} else {
			// On one thread the tiles run in order: the tile before has published where
			// this one's outputs start, and the tile writes them there.
			i := slices.Index(kept, a)
			d.printf("\t\t%s %s = {%sT > 1 ? %sbuf_%s + (%stile + 1) * cnf_thread_num() : %so_%s.data + %sat[%sc * %d + %d], 0};\n", tn, cname(a), p, p, cname(a), p, p, cname(a), p, p, nk, i)
		}
	}
	d.printf("\t\tconst int64_t %sn = %shi - %slo;\n", p, p, p)
	if first {
		// The tile's elements of each rate whose positions are read, and its scans' totals,
		// computed first; then where the tiles before reach (counts.go).
		count, err := d.countPass(p, plan, pp)
		if err != nil {
			return "", err
		}
		d.b.WriteString(count)
		d.printf("\t\tcnf_wait(&%spready[%sc]);\n", p, p)
		for i, r := range pp.counted {
			d.printf("\t\tconst int64_t %s = %spat[%sc * %d + %d];\n", ident(p+"pos_", r), p, p, np, i)
			d.printf("\t\t%spat[(%sc + 1) * %d + %d] = %s + %s;\n", p, p, np, i, ident(p+"pos_", r), countName(p, r))
		}
		for _, sc := range pp.prefixed {
			op, _ := pp.fold(sc)
			pre := ident(p+"pre_", sc.b.Name())
			d.printf("\t\t%s[%sc + 1] = %s;\n", pre, p, fmt.Sprintf(op.combine, pre+"["+p+"c]", prefixName(p, sc.b.Name())))
		}
		d.printf("\t\t__atomic_store_n(&%spready[%sc + 1], 1, __ATOMIC_RELEASE);\n", p, p)
	}
	d.b.WriteString(indent(private))
	for _, sc := range pp.prefixed {
		d.printf("\t\t%s = %s[%sc]; /* %s runs on from the tiles before */\n", ident(p+"acc_", sc.b.Name()), ident(p+"pre_", sc.b.Name()), p, sc.b.Name())
	}
	sel := selectsOf(plan)
	for _, r := range pp.positional {
		if slices.Contains(pp.counted, r) {
			d.printf("\t\t%s = %s; /* %s's positions in this tile start after the tiles before */\n", ident(p+"t_", r), ident(p+"pos_", r), r)
			continue
		}
		// A slice of a filtered rate whose positions are known (its input's, set above: the
		// rates are in the plan's order).
		s := sel[r]
		v, err := d.sliceBefore(s, ident(p+"t_", s.inRate))
		if err != nil {
			return "", err
		}
		d.printf("\t\t%s = %s; /* what %s keeps of the positions of %s before this tile */\n", ident(p+"t_", r), v, r, s.inRate)
	}
	d.b.WriteString(indent(loop))
	for _, bn := range folds {
		d.b.WriteString(d.inRegister(p, bn))
		d.printf("\t\t%spt_%s[%sc] = %s;\n", p, cname(bn.b.Name()), p, ident(p+"acc_", bn.b.Name()))
	}
	if pp.mayFail {
		d.printf("\t\tcnf_team_jump = NULL;\n")
	}
	if nk > 0 {
		d.printf("\t\tcnf_wait(&%sready[%sc]);\n", p, p)
	}
	for i, a := range kept {
		d.printf("\t\tconst int64_t %sat_%s = %sat[%sc * %d + %d];\n", p, cname(a), p, p, nk, i)
		d.printf("\t\t%sat[(%sc + 1) * %d + %d] = %sat_%s + %s.len;\n", p, p, nk, i, p, cname(a), cname(a))
	}
	if nk > 0 {
		d.printf("\t\t__atomic_store_n(&%sready[%sc + 1], 1, __ATOMIC_RELEASE);\n", p, p)
	}
	for _, a := range kept {
		d.printf("\t\tif (%s.len > 0 && %sT > 1) cnf_copy_out(%so_%s.data + %sat_%s, %s.data, (size_t)%s.len * sizeof *%s.data);\n", cname(a), p, p, cname(a), p, cname(a), cname(a), cname(a), cname(a))
	}
	d.printf("\t}\n")
	for i, a := range kept {
		d.printf("\t%scnt_%s[0] = %sat[%sK * %d + %d];\n", p, cname(a), p, p, nk, i)
	}
	for _, a := range outs {
		if rate[a] == "" {
			d.printf("\t%scnt_%s[0] = %sn;\n", p, cname(a), p)
		}
	}
	for _, bn := range folds {
		op, _ := pp.fold(bn)
		b, pt := cname(bn.b.Name()), p+"pt_"+cname(bn.b.Name())
		d.printf("\t%sp_%s[0] = %s[0]; /* %s: the tiles' partial results, in order */\n", p, b, pt, bn.b.Name())
		d.printf("\tfor (int64_t %sk = 1; %sk < %sK; %sk++) %sp_%s[0] = %s;\n", p, p, p, p, p, b, fmt.Sprintf(op.combine, p+"p_"+b+"[0]", pt+"["+p+"k]"))
		d.printf("\tcnf_free(%s);\n", pt)
	}
	for _, a := range kept {
		d.printf("\tcnf_free(%sbuf_%s);\n", p, cname(a))
	}
	if nk > 0 {
		d.printf("\tcnf_free(%sat);\n\tcnf_free(%sready);\n", p, p)
	}
	if np > 0 {
		d.printf("\tcnf_free(%spat);\n", p)
	}
	if first {
		d.printf("\tcnf_free(%spready);\n", p)
	}
	for _, sc := range pp.prefixed {
		d.printf("\tcnf_free(%s);\n", ident(p+"pre_", sc.b.Name()))
	}
	d.printf("\t%sTc = 1;\n", p)
	return d.b.String(), nil
}

// inRegister is the C that keeps an Int or Bool fold's accumulator in a general register up
// to where a chunk stores it among the partial results: gcc otherwise stored the partial
// results of several folds as one vector and kept the accumulators in vector registers
// through the loop, spilling one to the stack every element (a scan, a length and a minimum
// on one thread: 1.3 s against 0.45 s for the same loop alone; docs/performance.md).
func (d *definition) inRegister(p string, bn *blockNode) string {
	t := d.info.Types[bn.b.Name()]
	if t.IsArray() {
		t = t.Elem()
	}
	if k := t.Kind(); k != "Int" && k != "Bool" {
		return ""
	}
	return fmt.Sprintf("\t\t__asm__(\"\" : \"+r\"(%s)); /* in a general register (inRegister) */\n", ident(p+"acc_", bn.b.Name()))
}

// guard is the C at the start of a chunk or tile of a team whose workers can fail: a failure
// in it (cnf_fail, on its thread) jumps back here, marks the loop failed and runs onFail
// (then the next chunk or tile; on one thread none: the loop ends with its first failure);
// the chunk's code after it runs with the jump set, and clears it at its end.
func (d *definition) guard(p, onFail string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\t\tjmp_buf %sjump;\n", p)
	fmt.Fprintf(&b, "\t\tif (setjmp(%sjump) != 0) { /* it failed: the loop runs again on one thread */\n", p)
	fmt.Fprintf(&b, "\t\t\tcnf_team_jump = NULL;\n\t\t\t__atomic_store_n(&%sfailed, 1, __ATOMIC_RELAXED);\n", p)
	// On one thread this failure is the first in order, the one to report: the tiles after it
	// failed too when they could (a gather of an empty array fails in every tile), and each
	// failure's message replaced the one before (`index 0 out of range` for the first
	// tile's `index -1`).
	fmt.Fprintf(&b, "\t\t\tif (%sT <= 1) break; /* one thread: the first failure in order, reported as it is */\n", p)
	for _, l := range strings.Split(strings.TrimSuffix(onFail, "\n"), "\n") {
		fmt.Fprintf(&b, "\t\t\t%s\n", l)
	}
	fmt.Fprintf(&b, "\t\t}\n\t\tcnf_team_jump = &%sjump;\n", p)
	return b.String()
}

// foldOp is a fold's associative operator: its C combining two partial results, and its
// identity.
type foldOp struct {
	combine  string // a C format of the two partial results: "(%s + %s)"
	identity string
}

// parallel plans the split of a blocked loop, or says why it stays on one thread.
func (d *definition) parallel(plan *blockedPlan) (*parallelPlan, string) {
	pp := &parallelPlan{folds: map[*blockNode]foldOp{}, scans: map[*blockNode]bool{}}
	read := map[string]bool{}
	for _, bn := range plan.nodes {
		for _, a := range bn.ins {
			read[a] = true
		}
	}
	var positional *blockNode // a slice or indexed of a filtered rate
	var scanRead *blockNode   // a scan read in its own loop
	for _, bn := range plan.nodes {
		switch c := bn.b.Rhs.(type) {
		case *syntax.Map, *syntax.Zip, *syntax.Unzip, *syntax.Filter, *syntax.Generate, *syntax.Gather, *syntax.Reverse, *syntax.Append, *syntax.Cross:
			// A generate that drives the loop makes element i of a chunk from its position,
			// the chunk's start plus i (blockedLoop's position). A gather from an array the
			// loop also walks reads the whole array, not the chunk's view (blockedLoop); so
			// does a reverse (of the loop's input, at its position from the end).
			if !d.stepEffectFree(bn) {
				pp.mayFail = true
			}
		case *syntax.Indexed, *syntax.Slice:
			// A position in the loop's input is the chunk's start plus the place in the chunk
			// (blockedLoop's position); in a filter's rate it depends on the tiles before,
			// which each tile counts first (counts.go).
			if bn.inRate != "" {
				if why := d.positionalWhy(plan, bn); why != "" {
					return nil, why
				}
				positional = bn
			}
		case *syntax.Length:
			pp.folds[bn] = foldOp{combine: "(%s + %s)", identity: "0"}
		case *syntax.Fold:
			op, why := d.splittable(pp, bn, c.Worker, "fold")
			if why != "" {
				return nil, why
			}
			pp.folds[bn] = op
		case *syntax.Scan:
			// Each chunk scans from the identity; then every chunk's piece but the first is
			// combined with the total of the chunks before it (teamLoop). What reads the scan
			// in the loop would read the chunk's own running totals: such a loop stays whole.
			if read[bn.b.Name()] && scanRead == nil {
				scanRead = bn
			}
			op, why := d.splittable(pp, bn, c.Worker, "scan")
			if why != "" {
				return nil, why
			}
			pp.folds[bn] = op
			pp.scans[bn] = true
		default:
			return nil, fmt.Sprintf("%s (%s) reads positions across the chunks", bn.b.Name(), syntax.CallOf(bn.b.Rhs).Keyword.Name)
		}
	}
	if positional != nil {
		pp.positional, pp.counted = positionalRates(plan)
	}
	// A scan read in its own loop would be read before a chunk's running totals are fixed:
	// in tiles, each scan starts from the total of the tiles before, computed first. So do
	// the scans of a loop in tiles that count (a chunk's fix-up is not done in tiles).
	if scanRead != nil || positional != nil {
		for _, bn := range plan.nodes {
			if !pp.scans[bn] {
				continue
			}
			what := fmt.Sprintf("%s (a scan) is read in its own loop", bn.b.Name())
			if scanRead == nil {
				what = fmt.Sprintf("%s (%s) reads positions of a filtered rate, counted a tile at a time, and so is %s (a scan) totalled", positional.b.Name(), syntax.CallOf(positional.b.Rhs).Keyword.Name, bn.b.Name())
			}
			if why := d.prefixWhy(plan, bn, what); why != "" {
				return nil, why
			}
			pp.prefixed = append(pp.prefixed, bn)
		}
	}
	return pp, ""
}

// splittable is the operator of a fold or scan (what) that chunks can run apart (associative),
// or why not; a worker that can fail marks the plan (a failure depends on the element only:
// the step is the operator applied to the accumulator and a term of the element).
func (d *definition) splittable(pp *parallelPlan, bn *blockNode, worker syntax.Expr, what string) (foldOp, string) {
	op, why := d.associative(bn, worker, what)
	if why == "" && !d.stepEffectFree(bn) {
		pp.mayFail = true
	}
	return op, why
}

// associative recognises a fold or scan (what) whose worker is an associative operator with an
// identity, on Ints or Bools (Floats when the user asks); why says why not.
func (d *definition) associative(bn *blockNode, worker syntax.Expr, what string) (foldOp, string) {
	t := d.info.Types[bn.b.Name()]
	if t.IsArray() { // a scan's elements
		t = t.Elem()
	}
	kind := t.Kind()
	no := fmt.Sprintf("%s is a %s whose worker is not known to be associative", bn.b.Name(), what)
	floats := kind == "Float" && d.opts.ReassociateFloats
	if kind == "Float" && !floats {
		no = fmt.Sprintf("%s is a Float %s, which is not reassociated without --reassociate-floats (its rounding would change)", bn.b.Name(), what)
	}
	if kind != "Int" && kind != "Bool" && !floats {
		return foldOp{}, no
	}
	if bn.addend != nil { // Ints only (addend)
		return foldOp{combine: "(%s + %s)", identity: "INT64_C(0)"}, ""
	}
	w := syntax.Unparen(worker)
	name := ""
	switch w := w.(type) {
	case *syntax.Section:
		if w.X == nil && w.Y == nil && !w.Op.Backtick {
			name = w.Op.Name
		}
	case *syntax.Ident:
		name = w.Name
	}
	switch {
	case kind == "Int" && name == "+":
		return foldOp{combine: "(%s + %s)", identity: "INT64_C(0)"}, ""
	case kind == "Int" && name == "*":
		return foldOp{combine: "(%s * %s)", identity: "INT64_C(1)"}, ""
	case kind == "Int" && name == "max":
		return foldOp{combine: "cnf_max_i64_(%s, %s)", identity: "INT64_MIN"}, ""
	case kind == "Int" && name == "min":
		return foldOp{combine: "cnf_min_i64_(%s, %s)", identity: "INT64_MAX"}, ""
	case kind == "Bool" && name == "&&":
		return foldOp{combine: "(%s && %s)", identity: "true"}, ""
	case kind == "Bool" && name == "||":
		return foldOp{combine: "(%s || %s)", identity: "false"}, ""
	case floats && name == "+":
		return foldOp{combine: "(%s + %s)", identity: "0.0"}, ""
	case floats && name == "*":
		return foldOp{combine: "(%s * %s)", identity: "1.0"}, ""
	case floats && (name == "max" || name == "min"):
		f, err := d.p.minMax(name, t)
		if err != nil {
			return foldOp{}, no
		}
		id := map[string]string{"max": "(-INFINITY)", "min": "INFINITY"}[name]
		return foldOp{combine: f + "(%s, %s)", identity: id}, ""
	}
	return foldOp{}, no
}

// stepEffectFree reports whether a node's element, test or step cannot fail once its loop's
// divisors are known not to be zero (no indexing, no division by an element): evaluated with
// placeholder values, it records no effect but Int divisions by loop-invariant divisors, which
// fail for every element alike when the divisor is zero (a team then runs on one thread:
// teamLoop), and calls of host functions, which are pure as every CNF function is: they are
// called from the team's threads at once.
func (d *definition) stepEffectFree(bn *blockNode) bool {
	pr := d.probe(bn)
	return pr.ok && pr.effects == pr.byInvariant+pr.hostCalls
}

// indent adds a tab to every line of C.
func indent(c string) string {
	if c == "" {
		return c
	}
	lines := strings.SplitAfter(c, "\n")
	var b strings.Builder
	for _, l := range lines {
		if l != "" && l != "\n" {
			b.WriteString("\t")
		}
		b.WriteString(l)
	}
	return b.String()
}
