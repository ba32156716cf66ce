package cluster

import (
	"container/heap"
	"maps"
	"math"
	"slices"

	"github.com/cnf-tools/cnf/infer"
	"github.com/cnf-tools/cnf/syntax"
)

// merger builds a valid clustering by merging clusters, keeping what deciding a merge needs up
// to date, so that each decision costs the pairs it joins plus one search of the cluster graph
// rather than a validation of the whole clustering (which made stream fusion and the greedy
// clustering cubic; docs/performance.md, "Behind the code", M1).
//
// Clusters are named by a representative node. Invariant: the clustering is valid (Validate
// accepts it), for the variant sameSizeOnly.
type merger struct {
	g            *Graph
	sameSizeOnly bool
	label        []int         // node -> cluster
	members      map[int][]int // cluster -> nodes, ascending
	// succ and pred are the cluster graph: for each cluster, the clusters its nodes' edges lead
	// to (from), with the number of such edges.
	succ, pred map[int]map[int]int
	// class is each node's iteration class (see concestors), rep a node of each class,
	// classes the classes of each cluster's members.
	class   []int
	rep     []int
	classes map[int]map[int]bool
	conc    map[[2]int]concestorNodes // by pair of classes
	// parent is each node's transducer parent (infer.Result.Trans) as a node (-1: none; -2:
	// not a node of the graph), root the last node of that chain, and open each cluster's
	// members whose parent lies outside it (-2 always does). A cluster with none open holds
	// every transducer ancestor of its members, so the concestors of any two of its members
	// lie in it whenever they exist (canMerge's shortcut).
	parent, root []int
	open         map[int][]int
	// uniRoot is, for each cluster whose members' chains all end in the graph at one
	// iteration, a node of that iteration (-1 for the others): two such clusters of one
	// iteration, closed together, pass every pair's concestor test at once.
	uniRoot []int
	// external is whether a cluster holds an external. reach and held summarise a cluster
	// of more than smallCluster members (nil for the others): the nodes joined to its
	// members by a fusion-preventing path (Graph.apart), and its members, so that canMerge tests every
	// pair across two clusters with a few word operations (testing each pair made merging
	// along a chain of 5,000 maps and filters quadratic: 12 million pairs).
	external    []bool
	reach, held []bitset
	// ord is a topological order of the cluster graph, by label (mergeorder.go); mark,
	// markB, stamp and stack are the searches' scratch.
	ord, mark, markB, stack []int
	stamp                   int
	ordered                 bool
	// touched, when not nil, restricts greedy to merges with a cluster it holds (by the
	// cluster's members), or with one such merges made: polish after a kick.
	touched func(members []int) bool
	// visits counts the clusters the searches visit and the pairs canMerge weighs one by one
	// (a measure of the merges' work, for tests).
	visits int
}

// smallCluster is the size up to which canMerge tests the pairs of a cluster one by one.
const smallCluster = 16

// newMerger is a merger whose clusters are the single nodes of g.
func newMerger(g *Graph, sameSizeOnly bool) *merger { return mergerOf(g, sameSizeOnly, nil) }

// mergerOf is a merger whose clusters are those of labels (a valid clustering's; nil: the
// single nodes), each labelled by its first node. It builds the merged state at once, cluster
// by cluster: what one merge a node from the single nodes would leave (mergerFromMerges, the
// test's reference), at a fraction of the work (a kick builds two or three).
func mergerOf(g *Graph, sameSizeOnly bool, labels []int) *merger {
	n := len(g.Nodes)
	b := g.mergerBase()
	m := &merger{g: g, sameSizeOnly: sameSizeOnly, label: make([]int, n), members: make(map[int][]int, n),
		succ: make(map[int]map[int]int, n), pred: make(map[int]map[int]int, n),
		class: b.class, rep: b.rep, parent: b.parent, root: b.root,
		classes: make(map[int]map[int]bool, n), conc: map[[2]int]concestorNodes{},
		external: slices.Clone(b.external), reach: make([]bitset, n), held: make([]bitset, n),
		open: make(map[int][]int, n), uniRoot: slices.Clone(b.uniRoot),
		ord: make([]int, n), mark: make([]int, n), markB: make([]int, n)}
	first := map[int]int{} // labels' label -> its first node, the merged cluster's label
	for i := range g.Nodes {
		a := i
		if labels != nil {
			if f, ok := first[labels[i]]; ok {
				a = f
			} else {
				first[labels[i]] = i
			}
		}
		m.label[i] = a
		m.members[a] = append(m.members[a], i)
	}
	for a, group := range m.members {
		m.succ[a], m.pred[a] = map[int]int{}, map[int]int{}
		m.classes[a] = map[int]bool{}
		if len(group) == 1 {
			m.classes[a][m.class[a]] = true
			if m.parent[a] != -1 {
				m.open[a] = []int{a}
			}
			continue
		}
		if len(group) > smallCluster {
			m.reach[a], m.held[a] = newBitset(n), newBitset(n)
			for _, x := range group {
				m.reach[a].or(g.apart[x])
				m.held[a].set(x)
			}
		}
		ra := m.uniRoot[a]
		var open []int
		for _, x := range group {
			m.classes[a][m.class[x]] = true
			if x != a {
				m.external[a] = m.external[a] || m.external[x]
				if rx := m.uniRoot[x]; ra < 0 || rx < 0 || !g.sameIter(ra, rx) {
					ra = -1
				}
			}
			if p := m.parent[x]; p != -1 && (p < 0 || m.label[p] != a) {
				open = append(open, x)
			}
		}
		m.uniRoot[a] = ra
		m.open[a] = open
	}
	for _, e := range g.Edges {
		if a, b := m.label[e.From.ID], m.label[e.To.ID]; a != b {
			m.succ[a][b]++
			m.pred[b][a]++
		}
	}
	if len(m.members) == n { // the single nodes: the graph's own order
		copy(m.ord, b.ord)
		m.ordered = true
	} else if !m.reorder() {
		panic("cluster: a merger of a clustering with a cycle") // labels are a valid clustering's
	}
	return m
}

// mergerBase is what every merger of a graph starts from and never changes (class, rep,
// parent, root) or copies (external, uniRoot, ord): made once a graph, since kicks and
// polish make a merger many times (asking the sizes for each node's transducer each time
// was most of it).
type mergerBase struct {
	class, rep, parent, root []int
	external                 []bool
	uniRoot, ord             []int
}

func (g *Graph) mergerBase() *mergerBase {
	g.baseOnce.Do(func() {
		n := len(g.Nodes)
		m := &merger{g: g, class: make([]int, n), parent: make([]int, n), root: make([]int, n), external: make([]bool, n)}
		ids := map[iterClass]int{}
		for i, nd := range g.Nodes {
			t := g.Sizes.Trans(nd.Binding)
			k := iterClass{nd.Iter, t}
			id, ok := ids[k]
			if !ok {
				id = len(m.rep)
				ids[k] = id
				m.rep = append(m.rep, i)
			}
			m.class[i] = id
			m.external[i] = nd.External()
			m.parent[i] = -1
			if t != nil {
				m.parent[i] = -2
				if tn := g.byBind[t]; tn != nil {
					m.parent[i] = tn.ID
				}
			}
			m.root[i] = -1
		}
		b := &mergerBase{class: m.class, rep: m.rep, parent: m.parent, root: m.root, external: m.external,
			uniRoot: make([]int, n), ord: make([]int, n)}
		for i := range g.Nodes {
			b.uniRoot[i] = max(m.rootOf(i), -1)
		}
		for pos, i := range g.topo() {
			b.ord[i] = pos
		}
		g.base = b
	})
	return g.base
}

// rootOf is the last node of i's chain of transducer parents (i itself without one; -1 when
// the chain leaves the graph), memoised in root.
func (m *merger) rootOf(i int) int {
	var chain []int
	for m.root[i] == -1 {
		p := m.parent[i]
		if p == -1 {
			m.root[i] = i
			break
		}
		if p == -2 {
			m.root[i] = -2
			break
		}
		chain = append(chain, i)
		i = p
	}
	r := m.root[i]
	for _, c := range chain {
		m.root[c] = r
	}
	return r
}

// closedTogether reports whether clusters a and b together hold every transducer ancestor of
// their members.
func (m *merger) closedTogether(a, b int) bool {
	for _, pair := range [][2]int{{a, b}, {b, a}} {
		for _, x := range m.open[pair[0]] {
			if p := m.parent[x]; p < 0 || m.label[p] != pair[1] {
				return false
			}
		}
	}
	return true
}

// canMerge reports whether merging clusters a and b keeps the clustering valid: no external
// joins another binding, every pair across them can share a loop (no fusion-preventing path,
// and the same iteration size or, except for Megiddo and Sarkar, concestors that end up in the
// merged cluster), and the cluster graph stays acyclic. Pairs inside a or b were valid and stay
// so: their concestors are in the merged cluster too.
func (m *merger) canMerge(a, b int) bool {
	if a == b {
		return false
	}
	g := m.g
	if m.external[a] || m.external[b] || m.apart(a, b) {
		return false
	}
	// The concestors of a pair depend on each side only through its iteration class (its
	// iteration size and parent transducer: Concestors recurses on these, and returns the node
	// itself, in a or b, or an ancestor the class shares), so they are tested once a pair of
	// classes, from a memo for the whole merger: merging along a chain of 5,000 maps and
	// filters made 12 million calls of Concestors, one a pair of nodes.
	// With every transducer ancestor of both sides inside the two clusters, a pair's concestors
	// (ancestors of its two classes) lie in the merged cluster whenever they exist, and they do
	// when the two chains end at the same iteration: then no Concestors is asked. Merging along
	// a chain of 5,000 maps and filters asked it for 1.4 million pairs of classes (10.9 s with
	// the 2 s limit).
	closed := m.closedTogether(a, b)
	if ra, rb := m.uniRoot[a], m.uniRoot[b]; closed && !m.sameSizeOnly && ra >= 0 && rb >= 0 && g.sameIter(ra, rb) {
		// Every pair of classes passes below: by sameIter, or by the shortcut.
		return !m.reaches(a, b) && !m.reaches(b, a)
	}
	for cx := range m.classes[a] {
		m.visits += len(m.classes[b])
		for cy := range m.classes[b] {
			x, y := m.rep[cx], m.rep[cy]
			if g.sameIter(x, y) {
				continue
			}
			if m.sameSizeOnly {
				return false
			}
			if closed && m.root[x] >= 0 && m.root[y] >= 0 && g.sameIter(m.root[x], m.root[y]) {
				continue
			}
			c := m.concestors(cx, cy)
			if !c.ok {
				return false
			}
			// -1: the node itself, in a or b.
			if c.x >= 0 {
				if l := m.label[c.x]; l != a && l != b {
					return false
				}
			}
			if c.y >= 0 {
				if l := m.label[c.y]; l != a && l != b {
					return false
				}
			}
		}
	}
	return !m.reaches(a, b) && !m.reaches(b, a)
}

// apart reports whether a fusion-preventing path joins a member of cluster a and a member of
// cluster b, in either direction (Possible fails for some pair across them).
func (m *merger) apart(a, b int) bool {
	g := m.g
	if m.reach[a] == nil && m.reach[b] != nil {
		a, b = b, a
	}
	switch {
	case m.reach[a] != nil && m.held[b] != nil:
		return m.reach[a].meets(m.held[b])
	case m.reach[a] != nil:
		m.visits += len(m.members[b])
		for _, y := range m.members[b] {
			if m.reach[a].has(y) {
				return true
			}
		}
	default:
		m.visits += len(m.members[a]) * len(m.members[b])
		for _, x := range m.members[a] {
			for _, y := range m.members[b] {
				if g.apart[x].has(y) {
					return true
				}
			}
		}
	}
	return false
}

// summarise keeps the summaries of cluster a, which b is about to join, once the two have
// more than smallCluster members between them (call it before the members change).
func (m *merger) summarise(a, b int) {
	A, B := m.members[a], m.members[b]
	if len(A)+len(B) <= smallCluster {
		return
	}
	g := m.g
	add := func(xs []int) {
		for _, x := range xs {
			m.reach[a].or(g.apart[x])
			m.held[a].set(x)
		}
	}
	switch {
	case m.reach[a] != nil && m.reach[b] != nil:
		m.reach[a].or(m.reach[b])
		m.held[a].or(m.held[b])
	case m.reach[a] != nil:
		add(B)
	case m.reach[b] != nil:
		// b's summaries become a's: b is about to go.
		m.reach[a], m.held[a] = m.reach[b], m.held[b]
		add(A)
	default:
		m.reach[a], m.held[a] = newBitset(len(g.Nodes)), newBitset(len(g.Nodes))
		add(A)
		add(B)
	}
	m.reach[b], m.held[b] = nil, nil
}

// iterClass is what the concestors of a node depend on besides the node itself.
type iterClass struct {
	iter  infer.Size
	trans *syntax.Binding
}

// concestorNodes are the concestors of a pair of classes: nodes, or -1 for "the node itself".
type concestorNodes struct {
	x, y int
	ok   bool
}

// concestors returns the concestors (Concestors) of the classes cx and cy, memoised.
func (m *merger) concestors(cx, cy int) concestorNodes {
	key := [2]int{cx, cy}
	if c, ok := m.conc[key]; ok {
		return c
	}
	g := m.g
	bx, by := g.Nodes[m.rep[cx]].Binding, g.Nodes[m.rep[cy]].Binding
	ax, ay, _, ok := g.Sizes.Concestors(bx, by)
	c := concestorNodes{x: -1, y: -1, ok: ok}
	if ok {
		if ax != bx {
			c.x = g.nodeOf(ax)
		}
		if ay != by {
			c.y = g.nodeOf(ay)
		}
	}
	m.conc[key] = c
	return c
}

// reaches reports whether cluster to can be reached from cluster from through at least one other
// cluster (a direct edge from -> to does not count: merging keeps it inside). With the cluster
// graph ordered (mergeorder.go) it searches only the clusters ordered between the two; else
// (reachesBoth) from both ends at once.
func (m *merger) reaches(from, to int) bool {
	if m.ordered || m.reorder() {
		return m.reachesOrdered(from, to)
	}
	return m.reachesBoth(from, to)
}

// reachesBoth is reaches searching from both ends at once, a cluster at a time from each, until
// one side has nothing left: on a chain, merging a cluster with the next saw the whole rest of
// the chain from one end (quadratic in the chain; docs/performance.md, "Behind the code", M2)
// and nothing from the other; but with both ends open it still walked the chain both ways
// (M4), which the order avoids.
func (m *merger) reachesBoth(from, to int) bool {
	fwd := map[int]bool{from: true}
	bwd := map[int]bool{to: true}
	var fstack, bstack []int
	for c := range m.succ[from] {
		if c != to && !fwd[c] {
			fwd[c] = true
			fstack = append(fstack, c)
		}
	}
	for c := range m.pred[to] {
		if c != from && !bwd[c] {
			if fwd[c] {
				return true
			}
			bwd[c] = true
			bstack = append(bstack, c)
		}
	}
	for len(fstack) > 0 && len(bstack) > 0 {
		m.visits += 2
		c := fstack[len(fstack)-1]
		fstack = fstack[:len(fstack)-1]
		for d := range m.succ[c] {
			if bwd[d] {
				return true
			}
			if !fwd[d] {
				fwd[d] = true
				fstack = append(fstack, d)
			}
		}
		c = bstack[len(bstack)-1]
		bstack = bstack[:len(bstack)-1]
		for d := range m.pred[c] {
			if fwd[d] {
				return true
			}
			if !bwd[d] {
				bwd[d] = true
				bstack = append(bstack, d)
			}
		}
	}
	return false
}

// merge merges cluster b into cluster a.
func (m *merger) merge(a, b int) {
	m.keepOrder(a, b)
	for _, x := range m.members[b] {
		m.label[x] = a
	}
	m.summarise(a, b)
	m.external[a] = m.external[a] || m.external[b]
	if ra, rb := m.uniRoot[a], m.uniRoot[b]; ra < 0 || rb < 0 || !m.g.sameIter(ra, rb) {
		m.uniRoot[a] = -1
	}
	m.members[a] = mergeSorted(m.members[a], m.members[b])
	delete(m.members, b)
	if len(m.classes[b]) > len(m.classes[a]) {
		m.classes[a], m.classes[b] = m.classes[b], m.classes[a] // copy the fewer
	}
	for c := range m.classes[b] {
		m.classes[a][c] = true
	}
	delete(m.classes, b)
	var open []int
	for _, x := range append(m.open[a], m.open[b]...) {
		if p := m.parent[x]; p < 0 || m.label[p] != a {
			open = append(open, x)
		}
	}
	m.open[a] = open
	delete(m.open, b)
	for c, k := range m.succ[b] {
		delete(m.pred[c], b)
		if c != a {
			m.succ[a][c] += k
			m.pred[c][a] += k
		}
	}
	for c, k := range m.pred[b] {
		delete(m.succ[c], b)
		if c != a {
			m.pred[a][c] += k
			m.succ[c][a] += k
		}
	}
	delete(m.succ[a], b)
	delete(m.pred[a], b)
	delete(m.succ, b)
	delete(m.pred, b)
}

func mergeSorted(a, b []int) []int {
	out := make([]int, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		if a[i] < b[j] {
			out = append(out, a[i])
			i++
		} else {
			out = append(out, b[j])
			j++
		}
	}
	return append(append(out, a[i:]...), b[j:]...)
}

// clustering is the merged labelling as a Clustering.
func (m *merger) clustering() *Clustering {
	cl, err := NewClustering(m.g, m.label)
	if err != nil {
		panic("cluster: merging made a cycle: " + err.Error()) // canMerge rules cycles out
	}
	return cl
}

// gain is how much Cost falls if clusters a and b merge (a valid merge): the weights of the
// possible pairs across them, and N for each array whose consumers outside its own cluster
// are all in the other one.
func (m *merger) gain(a, b int) int {
	g := m.g
	n := len(g.Nodes)
	gain := 0
	for _, x := range m.members[a] {
		for _, y := range m.members[b] {
			if g.Possible(x, y) {
				gain += g.pairWeight(x, y)
			}
		}
	}
	for _, pair := range [2][2]int{{a, b}, {b, a}} {
		for _, i := range m.members[pair[0]] {
			if len(g.Nodes[i].Arrays) == 0 {
				continue
			}
			outside, stays := false, false
			for _, e := range g.Out(i) {
				switch m.label[e.To.ID] {
				case pair[0]:
				case pair[1]:
					outside = true
				default:
					stays = true
				}
			}
			if outside && !stays {
				gain += n
			}
		}
	}
	return gain
}

// candidate is a merge the greedy clustering may make, with the version of the clusters it
// was computed for (stale candidates are skipped).
type candidate struct {
	a, b, gain int
	va, vb     int
}

// better orders candidates: the larger gain first, then by clusters (deterministic).
func better(x, y candidate) bool {
	if x.gain != y.gain {
		return x.gain > y.gain
	}
	if x.a != y.a {
		return x.a < y.a
	}
	return x.b < y.b
}

// greedy merges, best gain first, while some valid merge lowers Cost. A merge changes the gains
// of the pairs it takes part in only (see gain), so after each merge only the merged cluster's
// candidates are recomputed. It stops early, with the clustering so far, when w is out of work
// (each weighing of two clusters costs pricePair). When allowed is not nil, only the merges it
// allows (given the two clusters' members) are made.
//
// The merges run in two phases with the same outcome as one: first only candidates that gain
// at least n (a pair of partners, or an array no longer written), then, when none is left,
// the others, collected afresh from the clusters the first phase left. Every candidate of the
// second phase gains less than every one of the first, and a pair's gain changes only when
// one of its clusters does (when it is pushed again), so the merges are those of one heap
// holding every candidate; but the heap no longer holds a candidate for nearly every pair of
// bindings (on a 3,000-binding chain program, millions of candidates and 600 MB).
func (m *merger) greedy(w *meter, allowed func(a, b []int) bool) {
	version := map[int]int{}
	h := &funcHeap[candidate]{less: better}
	threshold := len(m.g.Nodes) // the least gain pushed in this phase
	push := func(a, b, below int) {
		if a > b {
			a, b = b, a
		}
		if allowed != nil && !allowed(m.members[a], m.members[b]) {
			return
		}
		// The gain first: compatible may ask for concestors, which cost more.
		if gain := m.gain(a, b); gain > 0 && gain >= threshold && gain < below && m.compatible(a, b) {
			heap.Push(h, candidate{a: a, b: b, gain: gain, va: version[a], vb: version[b]})
		}
	}
	// collect pushes the candidates among all pairs of clusters that gain less than below;
	// false when w ran out.
	collect := func(below int) bool {
		ids := slices.Sorted(maps.Keys(m.members))
		if m.touched != nil {
			var hot []int
			isHot := map[int]bool{}
			for _, a := range ids {
				if m.touched(m.members[a]) || version[a] > 0 {
					hot = append(hot, a)
					isHot[a] = true
				}
			}
			for _, a := range hot {
				for _, b := range ids {
					// A pair of two hot clusters is pushed once, from its smaller label.
					if b != a && (b > a || !isHot[b]) {
						push(a, b, below)
					}
				}
				if w.spend(pricePair * float64(len(ids))) {
					return false
				}
			}
			return true
		}
		for x, a := range ids {
			for _, b := range ids[x+1:] {
				push(a, b, below)
			}
			if w.spend(pricePair * float64(len(ids)-x)) {
				return false
			}
		}
		return true
	}
	// run makes the merges of the heap's candidates; false when w ran out.
	run := func() bool {
		for h.Len() > 0 {
			if w.spend(pricePair) {
				return false
			}
			c := heap.Pop(h).(candidate)
			if _, ok := m.members[c.a]; !ok || version[c.a] != c.va {
				continue
			}
			if _, ok := m.members[c.b]; !ok || version[c.b] != c.vb {
				continue
			}
			if !m.canMerge(c.a, c.b) {
				continue
			}
			m.merge(c.a, c.b)
			version[c.a]++
			w.spend(pricePair * float64(len(m.members)))
			for d := range m.members {
				if d != c.a {
					push(c.a, d, math.MaxInt)
				}
			}
		}
		return true
	}
	if !collect(math.MaxInt) || !run() {
		return
	}
	below := threshold
	threshold = 1
	if collect(below) {
		run()
	}
}

// compatible is a quick necessary condition for merging clusters a and b: the first nodes of
// each can share a loop as a pair.
func (m *merger) compatible(a, b int) bool {
	g := m.g
	x, y := m.members[a][0], m.members[b][0]
	if g.Nodes[x].External() || g.Nodes[y].External() || !g.Possible(x, y) {
		return false
	}
	if g.sameIter(x, y) {
		return true
	}
	if m.sameSizeOnly {
		return false
	}
	_, _, _, ok := g.Sizes.Concestors(g.Nodes[x].Binding, g.Nodes[y].Binding)
	return ok
}

// stream makes stream fusion's merges (see Stream): a producer joins its consumer when the
// consumer is the only reader of its output, the edge is fusible and the output is not a
// result, as long as the clustering stays valid. It stops early, with the merges so far,
// when w is out of work.
func (m *merger) stream(w *meter) {
	g := m.g
	results := map[string]bool{}
	for _, r := range g.Sizes.Func.Def.Results {
		results[r.Name] = true
	}
	for i, nd := range g.Nodes {
		if w.spend(pricePair) {
			return
		}
		if len(nd.Arrays) == 0 || nd.External() || len(g.Out(i)) != 1 {
			continue
		}
		e := g.Out(i)[0]
		if e.Preventing || e.To.External() || slices.ContainsFunc(nd.Arrays, func(a string) bool { return results[a] }) {
			continue
		}
		if a, b := m.label[i], m.label[e.To.ID]; m.canMerge(a, b) {
			// The larger cluster keeps its label, so that a chain's members are relabelled
			// once each, not once a merge.
			if len(m.members[a]) > len(m.members[b]) {
				m.merge(a, b)
			} else {
				m.merge(b, a)
			}
		}
	}
}
