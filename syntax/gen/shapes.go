package gen

import "fmt"

// Shapes are the program shapes of the second generator (Options.Shape): they differ from the
// classic mix on purpose, so that benchmarks and property tests do not measure only what the
// classic generator happens to make easy.
//
//   - "chains": long chains of transducers and maps, with folds part-way whose values later
//     maps use (fusion-preventing edges across a chain), over few sizes;
//   - "fans": many consumers of the same few arrays (wide fans that share inputs, so many pairs
//     weigh N² in the objective), joined again by map2;
//   - "externals": host calls every few bindings, their outputs consumed by maps and filters;
//   - "sizes": many parameters of different sizes, cross products and gathers between them;
//   - "glued": the thesis's programs (normalize2, filterMax, closest points, quickhull-like
//     partitions) glued together, each reading an earlier one's output;
//   - "mixed": every motif above, chosen at random.
var Shapes = []string{"chains", "fans", "externals", "sizes", "glued", "mixed"}

// shaped fills the program with motifs of the chosen shape until it has opts.Bindings bindings.
func (g *generator) shaped() {
	motifs := map[string]func(){
		"chains":    g.chainMotif,
		"fans":      g.fanMotif,
		"externals": g.externalMotif,
		"sizes":     g.sizesMotif,
		"glued":     g.gluedMotif,
	}
	for len(g.lines) < g.opts.Bindings {
		m, ok := motifs[g.opts.Shape]
		if !ok { // mixed
			m = motifs[Shapes[g.pick(len(Shapes)-1)]]
		}
		m()
	}
}

// next returns a fresh binding name, or "" when the program is full.
func (g *generator) next() string {
	if len(g.lines) >= g.opts.Bindings {
		return ""
	}
	g.named++
	return fmt.Sprintf("b%d", g.named)
}

// intArray picks an array of integers, preferring recent ones. Unlike arrayOf it does not mark
// the array used: each motif marks what it emits a use of (a motif may stop early when the
// program is full).
func (g *generator) intArray() *array {
	var was []bool
	for _, x := range g.arrays {
		was = append(was, x.used)
	}
	a := g.arrayOf(elemInt, false)
	for i, x := range g.arrays {
		x.used = was[i]
	}
	return a
}

func (g *generator) mapOver(a *array, scalars ...string) *array {
	name := g.next()
	if name == "" {
		return a
	}
	expr := g.intExpr([]string{"x"}, 2)
	for _, sc := range scalars { // each scalar is read, so the fold is not unused
		expr = "(" + expr + ") + " + sc
	}
	g.emit(`%s = map (\x -> %s) %s`, name, expr, a.name)
	a.used = true
	for _, s := range scalars {
		g.useScalar(s)
	}
	out := &array{name: name, size: a.size, elem: elemInt}
	g.arrays = append(g.arrays, out)
	return out
}

func (g *generator) useScalar(name string) {
	for _, s := range g.scalars {
		if s.name == name {
			s.used = true
		}
	}
}

func (g *generator) filterOver(a *array) *array {
	name := g.next()
	if name == "" {
		return a
	}
	g.emit(`%s = filter (\x -> %s) %s`, name, g.boolExpr([]string{"x"}), a.name)
	a.used = true
	out := &array{name: name, size: g.newSize(), elem: elemInt}
	g.arrays = append(g.arrays, out)
	return out
}

func (g *generator) foldOver(a *array) string {
	name := g.next()
	if name == "" {
		return ""
	}
	g.emit(`%s = fold (\acc x -> acc + %s) 0 %s`, name, g.intExpr([]string{"x"}, 1), a.name)
	a.used = true
	g.scalars = append(g.scalars, &scalar{name: name})
	return name
}

func (g *generator) sliceOver(a *array) *array {
	name := g.next()
	if name == "" {
		return a
	}
	switch g.pick(3) {
	case 0:
		g.emit("%s = take %s %s", name, g.scalarName(), a.name)
	case 1:
		g.emit("%s = drop %s %s", name, g.scalarName(), a.name)
	default:
		g.emit("%s = tail %s", name, a.name)
	}
	a.used = true
	out := &array{name: name, size: g.newSize(), elem: elemInt}
	g.arrays = append(g.arrays, out)
	return out
}

// chainMotif is a chain of 4 to 10 steps over one array: maps, filters, slices and scans,
// with a fold part-way whose value a later step uses.
func (g *generator) chainMotif() {
	a := g.intArray()
	var folded []string
	for steps := 4 + g.pick(7); steps > 0 && len(g.lines) < g.opts.Bindings; steps-- {
		switch k := g.pick(10); {
		case k < 3:
			a = g.mapOver(a, folded...)
			folded = nil
		case k < 5:
			a = g.filterOver(a)
		case k < 6 && !g.opts.ThesisOnly:
			a = g.sliceOver(a)
		case k < 8:
			if s := g.foldOver(a); s != "" {
				folded = append(folded, s)
			}
		default:
			a = g.mapOver(a)
		}
	}
}

// fanMotif gives one array 3 to 7 consumers, then joins two of the same size with map2.
func (g *generator) fanMotif() {
	a := g.intArray()
	var same []*array
	for k := 3 + g.pick(5); k > 0 && len(g.lines) < g.opts.Bindings; k-- {
		switch g.pick(4) {
		case 0:
			g.foldOver(a)
		case 1:
			g.filterOver(a)
		default:
			same = append(same, g.mapOver(a))
		}
	}
	if len(same) >= 2 {
		if name := g.next(); name != "" {
			x, y := same[0], same[len(same)-1]
			g.emit(`%s = map2 (\x y -> %s) %s %s`, name, g.intExpr([]string{"x", "y"}, 2), x.name, y.name)
			x.used, y.used = true, true
			g.arrays = append(g.arrays, &array{name: name, size: x.size, elem: elemInt})
		}
	}
}

// externalMotif calls a host function on an array or two, then consumes its output.
func (g *generator) externalMotif() {
	if g.opts.NoExternals {
		g.chainMotif()
		return
	}
	name := g.next()
	if name == "" {
		return
	}
	a := g.intArray()
	args := a.name
	if b := g.intArray(); b != a {
		args += " " + b.name
		b.used = true
	}
	g.hostUses++
	g.emit("%s = external host%d %s", name, g.hostUses, args)
	a.used = true
	out := &array{name: name, size: g.newSize(), elem: elemInt}
	g.arrays = append(g.arrays, out)
	for k := 1 + g.pick(3); k > 0; k-- {
		if g.chance(50) {
			out = g.mapOver(out)
		} else {
			g.foldOver(out)
		}
	}
}

// sizesMotif adds a parameter of a new size, then relates it to others: a cross product and
// maps over it, or a gather of it at computed indices, or a generate.
func (g *generator) sizesMotif() {
	p := &array{name: fmt.Sprintf("xs%d", len(g.params)+1), size: g.newSize(), elem: elemInt}
	g.arrays = append(g.arrays, p)
	g.params = append(g.params, p.name)
	g.sig = append(g.sig, "Array Int")
	other := g.intArray()
	switch g.pick(3) {
	case 0:
		name := g.next()
		if name == "" {
			return
		}
		g.emit("%s = cross %s %s", name, other.name, p.name)
		p.used, other.used = true, true
		c := &array{name: name, size: g.newSize(), elem: elemPair}
		g.arrays = append(g.arrays, c)
		if m := g.next(); m != "" {
			g.emit(`%s = map (\(p, q) -> %s) %s`, m, g.intExpr([]string{"p", "q"}, 2), name)
			c.used = true
			g.arrays = append(g.arrays, &array{name: m, size: c.size, elem: elemInt})
		}
	case 1:
		idx := g.mapOver(other)
		if name := g.next(); name != "" {
			g.emit("%s = gather %s %s", name, p.name, idx.name)
			p.used, idx.used = true, true
			g.arrays = append(g.arrays, &array{name: name, size: idx.size, elem: elemInt})
		}
	default:
		if name := g.next(); name != "" {
			g.emit(`%s = generate %s (\i -> %s)`, name, g.scalarName(), g.intExpr([]string{"i"}, 2))
			g.arrays = append(g.arrays, &array{name: name, size: g.newSize(), elem: elemInt})
		}
		g.foldOver(p)
	}
}

// gluedMotif is one of the thesis's programs over an earlier array.
func (g *generator) gluedMotif() {
	a := g.intArray()
	switch g.pick(3) {
	case 0: // normalize2: two sums, one over a filter, then two maps that use them
		s1 := g.foldOver(a)
		pos := g.filterOver(a)
		s2 := g.foldOver(pos)
		if s1 != "" {
			g.mapOver(a, s1)
		}
		if s2 != "" {
			g.mapOver(a, s2)
		}
	case 1: // filterMax: annotate, reduce, filter by the maximum
		ann := g.mapOver(a)
		m := g.foldOver(ann)
		above := g.filterOver(ann)
		if m != "" {
			g.mapOver(above, m)
		}
	default: // a quickhull-like partition: two filters of one array, each reduced and kept
		left, right := g.filterOver(a), g.filterOver(a)
		g.foldOver(left)
		g.foldOver(right)
		g.mapOver(left)
	}
}
