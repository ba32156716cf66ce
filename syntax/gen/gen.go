// Package gen writes random, valid CNF programs: well-formed, well-named and well-sized by
// construction, with a realistic mix of every combinator. Property tests of every stage use it
// (with pgregory.net/rapid as the source of choices through internal/rapidgen, so failures
// shrink), and so does `cnf gen`.
//
// Sizes are tracked while generating: each array parameter has its own size; map_n and zip
// combine arrays of one size; scans, indexed, unzip and reverse keep their input's size;
// filter, take, drop, slice, tail, append, generate, cross and external outputs get new sizes;
// gather's output has the size of its indices. So every map_n is well-sized and no parameter is
// forced to a filter's size: size inference must accept every generated program.
package gen

import (
	"fmt"
	"slices"
	"strings"
)

// Rand is the source of random choices. *math/rand/v2.Rand satisfies it; so does
// internal/rapidgen's adapter over rapid.T.
type Rand interface {
	IntN(n int) int
}

// Options shapes the generated programs.
type Options struct {
	Name        string // definition name; "prog" if empty
	Bindings    int    // number of bindings (at least 1)
	NoExternals bool   // leave out external (for programs that must run without host functions)
	// ThesisOnly leaves out the combinators added after the thesis (scans, indexed, zip, unzip,
	// slices, append, length, reverse): the programs the thesis's benchmarks are made of.
	ThesisOnly bool
	// Shape, when set, is one of Shapes: the second generator, which builds the program from
	// motifs of that shape instead of the classic mix.
	Shape string
	// Divisions lets integer expressions divide (div, mod, quot, rem) by literals and by
	// elements and scalars, which may be 0: programs that fail where the reference fails,
	// for the property tests of the compiled code. Off, the programs are those of every
	// earlier version (the benchmarks' seeds stay the same programs).
	Divisions bool
}

type elem int

const (
	elemInt  elem = iota
	elemPair      // (Int, Int), from cross
)

type array struct {
	name string
	size int // size class
	elem elem
	used bool
}

type scalar struct {
	name string
	used bool
}

type generator struct {
	r        Rand
	opts     Options
	arrays   []*array
	scalars  []*scalar
	params   []string
	sig      []string // signature types of the parameters
	lines    []string
	sizes    int
	hostUses int
	named    int // bindings named so far (the shaped generator)
}

// Program returns the source text of one random definition with a signature.
func Program(r Rand, opts Options) string {
	if opts.Name == "" {
		opts.Name = "prog"
	}
	if opts.Bindings < 1 {
		opts.Bindings = 1
	}
	g := &generator{r: r, opts: opts}
	g.parameters()
	if opts.Shape != "" {
		g.shaped()
		return g.render()
	}
	for i := 0; i < opts.Bindings; i++ {
		g.binding(i)
	}
	return g.render()
}

func (g *generator) pick(n int) int { return g.r.IntN(n) }

func (g *generator) chance(percent int) bool { return g.pick(100) < percent }

func (g *generator) newSize() int {
	g.sizes++
	return g.sizes
}

func (g *generator) parameters() {
	na := 1 + g.pick(3)
	for i := 0; i < na; i++ {
		name := fmt.Sprintf("xs%d", i+1)
		g.arrays = append(g.arrays, &array{name: name, size: g.newSize(), elem: elemInt})
		g.params = append(g.params, name)
		g.sig = append(g.sig, "Array Int")
	}
	for i, ns := 0, g.pick(3); i < ns; i++ {
		name := fmt.Sprintf("n%d", i+1)
		g.scalars = append(g.scalars, &scalar{name: name})
		g.params = append(g.params, name)
		g.sig = append(g.sig, "Int")
	}
}

// arrayOf picks an array, preferring recent ones so that chains form; elem < 0 means any.
func (g *generator) arrayOf(want elem, anyElem bool) *array {
	var cands []*array
	for _, a := range g.arrays {
		if anyElem || a.elem == want {
			cands = append(cands, a)
		}
	}
	if len(cands) == 0 {
		return nil
	}
	var a *array
	if g.chance(60) {
		a = cands[len(cands)-1-g.pick(min(3, len(cands)))]
	} else {
		a = cands[g.pick(len(cands))]
	}
	a.used = true
	return a
}

func (g *generator) sameSize(size int, elemWanted elem) []*array {
	var out []*array
	for _, a := range g.arrays {
		if a.size == size && a.elem == elemWanted {
			out = append(out, a)
		}
	}
	return out
}

func (g *generator) scalarName() string {
	if len(g.scalars) == 0 || g.chance(40) {
		return fmt.Sprint(g.pick(10))
	}
	s := g.scalars[g.pick(len(g.scalars))]
	s.used = true
	return s.name
}

func (g *generator) binding(i int) {
	name := fmt.Sprintf("b%d", i+1)
	n := 128
	if g.opts.ThesisOnly {
		n = 100
	}
	for {
		k := g.pick(n)
		switch {
		case k >= 100:
			if g.extra(name, k-100) {
				return
			}
			continue
		case k < 28:
			if g.mapN(name) {
				return
			}
		case k < 43:
			if g.filter(name) {
				return
			}
		case k < 60:
			if g.fold(name) {
				return
			}
		case k < 67:
			g.generate(name)
			return
		case k < 77:
			if g.gather(name) {
				return
			}
		case k < 84:
			if g.cross(name) {
				return
			}
		case k < 92:
			if !g.opts.NoExternals {
				g.external(name)
				return
			}
		default:
			if g.mapPairs(name) {
				return
			}
		}
	}
}

func (g *generator) emit(format string, args ...any) {
	g.lines = append(g.lines, fmt.Sprintf(format, args...))
}

func (g *generator) mapN(name string) bool {
	first := g.arrayOf(elemInt, false)
	if first == nil {
		return false
	}
	peers := g.sameSize(first.size, elemInt)
	n := 1
	if len(peers) > 1 || g.chance(30) {
		n = 1 + g.pick(3)
	}
	ins := []*array{first}
	for len(ins) < n {
		p := peers[g.pick(len(peers))]
		p.used = true
		ins = append(ins, p)
	}
	var params, names []string
	for j, a := range ins {
		params = append(params, fmt.Sprintf("x%d", j+1))
		names = append(names, a.name)
	}
	kw := "map"
	if n > 1 {
		kw = fmt.Sprintf("map%d", n)
	}
	var worker string
	if n == 1 && g.chance(35) {
		worker = g.section()
	} else {
		worker = fmt.Sprintf(`(\%s -> %s)`, strings.Join(params, " "), g.intExpr(params, 2))
	}
	g.emit("%s = %s %s %s", name, kw, worker, strings.Join(names, " "))
	g.arrays = append(g.arrays, &array{name: name, size: first.size, elem: elemInt})
	return true
}

// mapPairs maps over an array of pairs (the output of cross) back to integers.
func (g *generator) mapPairs(name string) bool {
	a := g.arrayOf(elemPair, false)
	if a == nil {
		return false
	}
	var worker string
	switch g.pick(3) {
	case 0:
		worker = "fst"
	case 1:
		worker = "snd"
	default:
		worker = fmt.Sprintf(`(\(p, q) -> %s)`, g.intExpr([]string{"p", "q"}, 2))
	}
	g.emit("%s = map %s %s", name, worker, a.name)
	g.arrays = append(g.arrays, &array{name: name, size: a.size, elem: elemInt})
	return true
}

func (g *generator) section() string {
	ops := []string{"+", "*", "-", "`max`", "`min`"}
	op := ops[g.pick(len(ops))]
	if op == "-" {
		return fmt.Sprintf("(%s -)", g.scalarName())
	}
	return fmt.Sprintf("(%s %s)", op, g.scalarName())
}

func (g *generator) filter(name string) bool {
	a := g.arrayOf(0, true)
	if a == nil {
		return false
	}
	var pred string
	if a.elem == elemPair {
		pred = fmt.Sprintf(`(\(p, q) -> %s)`, g.boolExpr([]string{"p", "q"}))
	} else if g.chance(40) {
		preds := []string{"even", "odd", "(> %s)", "(< %s)", "(/= %s)"}
		pred = preds[g.pick(len(preds))]
		if strings.Contains(pred, "%s") {
			pred = fmt.Sprintf(pred, g.scalarName())
		}
	} else {
		pred = fmt.Sprintf(`(\x -> %s)`, g.boolExpr([]string{"x"}))
	}
	g.emit("%s = filter %s %s", name, pred, a.name)
	g.arrays = append(g.arrays, &array{name: name, size: g.newSize(), elem: a.elem})
	return true
}

func (g *generator) fold(name string) bool {
	a := g.arrayOf(0, true)
	if a == nil {
		return false
	}
	var worker, init string
	if a.elem == elemPair {
		worker = fmt.Sprintf(`(\acc (p, q) -> %s)`, g.intExpr([]string{"acc", "p", "q"}, 2))
		init = g.scalarName()
	} else {
		switch g.pick(4) {
		case 0:
			worker, init = "(+)", "0"
		case 1:
			worker, init = "max", g.scalarName()
		case 2:
			worker, init = "min", g.scalarName()
		default:
			worker = fmt.Sprintf(`(\acc x -> acc + %s)`, g.intExpr([]string{"x"}, 1))
			init = g.scalarName()
		}
	}
	g.emit("%s = fold %s %s %s", name, worker, init, a.name)
	g.scalars = append(g.scalars, &scalar{name: name})
	return true
}

func (g *generator) generate(name string) {
	size := g.scalarName()
	g.emit(`%s = generate %s (\i -> %s)`, name, size, g.intExpr([]string{"i"}, 2))
	g.arrays = append(g.arrays, &array{name: name, size: g.newSize(), elem: elemInt})
}

func (g *generator) gather(name string) bool {
	data := g.arrayOf(0, true)
	idx := g.arrayOf(elemInt, false)
	if data == nil || idx == nil {
		return false
	}
	g.emit("%s = gather %s %s", name, data.name, idx.name)
	g.arrays = append(g.arrays, &array{name: name, size: idx.size, elem: data.elem})
	return true
}

func (g *generator) cross(name string) bool {
	a := g.arrayOf(elemInt, false)
	b := g.arrayOf(elemInt, false)
	if a == nil || b == nil {
		return false
	}
	g.emit("%s = cross %s %s", name, a.name, b.name)
	g.arrays = append(g.arrays, &array{name: name, size: g.newSize(), elem: elemPair})
	return true
}

func (g *generator) external(name string) {
	var args []string
	for i, n := 0, 1+g.pick(2); i < n; i++ {
		if a := g.arrayOf(elemInt, false); a != nil && !slices.Contains(args, a.name) {
			args = append(args, a.name)
		}
	}
	if g.chance(40) && len(g.scalars) > 0 {
		s := g.scalars[g.pick(len(g.scalars))]
		s.used = true
		if !slices.Contains(args, s.name) {
			args = append(args, s.name)
		}
	}
	g.hostUses++
	host := fmt.Sprintf("host%d", g.hostUses)
	switch g.pick(3) {
	case 0: // one array
		g.emit("%s = external %s %s", name, host, strings.Join(args, " "))
		g.arrays = append(g.arrays, &array{name: name, size: g.newSize(), elem: elemInt})
	case 1: // one scalar
		g.emit("%s = external %s %s", name, host, strings.Join(args, " "))
		g.scalars = append(g.scalars, &scalar{name: name})
	default: // a scalar and an array
		g.emit("%s, %s_arr = external %s %s", name, name, host, strings.Join(args, " "))
		g.scalars = append(g.scalars, &scalar{name: name})
		g.arrays = append(g.arrays, &array{name: name + "_arr", size: g.newSize(), elem: elemInt})
	}
}

// extra generates one of the combinators added after the thesis; k < 28 picks which.
func (g *generator) extra(name string, k int) bool {
	switch {
	case k < 5:
		a := g.arrayOf(elemInt, false)
		if a == nil {
			return false
		}
		kw := "postscanl"
		if g.chance(50) {
			kw = "prescanl"
		}
		var worker, init string
		switch g.pick(3) {
		case 0:
			worker, init = "(+)", "0"
		case 1:
			worker, init = "max", g.scalarName()
		default:
			worker = fmt.Sprintf(`(\acc x -> acc + %s)`, g.intExpr([]string{"x"}, 1))
			init = g.scalarName()
		}
		g.emit("%s = %s %s %s %s", name, kw, worker, init, a.name)
		g.arrays = append(g.arrays, &array{name: name, size: a.size, elem: elemInt})
	case k < 8:
		a := g.arrayOf(elemInt, false)
		if a == nil {
			return false
		}
		g.emit("%s = indexed %s", name, a.name)
		g.arrays = append(g.arrays, &array{name: name, size: a.size, elem: elemPair})
	case k < 11:
		a := g.arrayOf(elemInt, false)
		if a == nil {
			return false
		}
		peers := g.sameSize(a.size, elemInt)
		b := peers[g.pick(len(peers))]
		b.used = true
		g.emit("%s = zip %s %s", name, a.name, b.name)
		g.arrays = append(g.arrays, &array{name: name, size: a.size, elem: elemPair})
	case k < 14:
		a := g.arrayOf(elemPair, false)
		if a == nil {
			return false
		}
		g.emit("(%s, %s_snd) = unzip %s", name, name, a.name)
		g.arrays = append(g.arrays, &array{name: name, size: a.size, elem: elemInt}, &array{name: name + "_snd", size: a.size, elem: elemInt})
	case k < 19:
		a := g.arrayOf(0, true)
		if a == nil {
			return false
		}
		switch g.pick(4) {
		case 0:
			g.emit("%s = take %s %s", name, g.scalarName(), a.name)
		case 1:
			g.emit("%s = drop %s %s", name, g.scalarName(), a.name)
		case 2:
			g.emit("%s = slice %s %s %s", name, g.scalarName(), g.scalarName(), a.name)
		default:
			g.emit("%s = tail %s", name, a.name)
		}
		g.arrays = append(g.arrays, &array{name: name, size: g.newSize(), elem: a.elem})
	case k < 22:
		a := g.arrayOf(0, true)
		if a == nil {
			return false
		}
		b := g.arrayOf(a.elem, false)
		g.emit("%s = append %s %s", name, a.name, b.name)
		g.arrays = append(g.arrays, &array{name: name, size: g.newSize(), elem: a.elem})
	case k < 25:
		// length does not need its array's elements: an array read only by lengths would never
		// be computed (and warned about), so it stays among the results.
		var was []bool
		for _, x := range g.arrays {
			was = append(was, x.used)
		}
		a := g.arrayOf(0, true)
		if a == nil {
			return false
		}
		for i, x := range g.arrays {
			x.used = was[i]
		}
		g.emit("%s = length %s", name, a.name)
		g.scalars = append(g.scalars, &scalar{name: name})
	default:
		a := g.arrayOf(0, true)
		if a == nil {
			return false
		}
		g.emit("%s = reverse %s", name, a.name)
		g.arrays = append(g.arrays, &array{name: name, size: a.size, elem: a.elem})
	}
	return true
}

// intExpr is an integer expression over the given variables and scalars in scope.
func (g *generator) intExpr(vars []string, depth int) string {
	if depth == 0 || g.chance(30) {
		if g.chance(70) {
			return vars[g.pick(len(vars))]
		}
		return g.scalarName()
	}
	switch g.pick(6) {
	case 0:
		return fmt.Sprintf("if %s then %s else %s", g.boolExpr(vars), g.intExpr(vars, depth-1), g.intExpr(vars, depth-1))
	case 1:
		return fmt.Sprintf("max %s %s", g.atom(vars, depth-1), g.atom(vars, depth-1))
	case 2:
		return fmt.Sprintf("abs %s", g.atom(vars, depth-1))
	default:
		ops := []string{"+", "-", "*"}
		if g.opts.Divisions {
			ops = append(ops, "`div`", "`mod`", "`quot`", "`rem`")
		}
		x := g.atom(vars, depth-1) // drawn first, as it always was
		op := ops[g.pick(len(ops))]
		if strings.HasPrefix(op, "`") && g.chance(50) {
			divisors := []string{"7", "3", "(-2)", "1", "(-1)"}
			return fmt.Sprintf("%s %s %s", x, op, divisors[g.pick(len(divisors))])
		}
		return fmt.Sprintf("%s %s %s", x, op, g.atom(vars, depth-1))
	}
}

func (g *generator) atom(vars []string, depth int) string {
	e := g.intExpr(vars, depth)
	if strings.Contains(e, " ") {
		return "(" + e + ")"
	}
	return e
}

func (g *generator) boolExpr(vars []string) string {
	cmps := []string{">", "<", ">=", "<=", "==", "/="}
	e := fmt.Sprintf("%s %s %s", g.atom(vars, 1), cmps[g.pick(len(cmps))], g.atom(vars, 1))
	if g.chance(20) {
		e = fmt.Sprintf("(%s) && (%s %s %s)", e, g.atom(vars, 0), cmps[g.pick(len(cmps))], g.atom(vars, 0))
	}
	return e
}

func (g *generator) render() string {
	var results, types []string
	add := func(name, typ string) {
		results = append(results, name)
		types = append(types, typ)
	}
	for _, a := range g.arrays {
		if !a.used {
			if a.elem == elemPair {
				add(a.name, "Array (Int, Int)")
			} else {
				add(a.name, "Array Int")
			}
		}
	}
	for _, s := range g.scalars {
		if !s.used {
			add(s.name, "Int")
		}
	}
	// Parameters no binding read appear among the results, so nothing is unused.
	var b strings.Builder
	res, resType := results[0], types[0]
	if len(results) > 1 {
		res = "(" + strings.Join(results, ", ") + ")"
		resType = "(" + strings.Join(types, ", ") + ")"
	}
	fmt.Fprintf(&b, "%s :: %s\n", g.opts.Name, strings.Join(append(append([]string{}, g.sig...), resType), " -> "))
	fmt.Fprintf(&b, "%s %s =\n", g.opts.Name, strings.Join(g.params, " "))
	for i, l := range g.lines {
		if i == 0 {
			fmt.Fprintf(&b, "  let %s\n", l)
		} else {
			fmt.Fprintf(&b, "      %s\n", l)
		}
	}
	fmt.Fprintf(&b, "  in  %s\n", res)
	return b.String()
}
