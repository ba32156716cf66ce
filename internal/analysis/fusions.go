package analysis

import (
	"container/list"
	"fmt"
	"strings"
	"sync"

	"github.com/cnf-tools/cnf/cluster"
	"github.com/cnf-tools/cnf/fuse"
	"github.com/cnf-tools/cnf/syntax"
)

// fusions remembers the fused processes of recent clusterings, so that an edit that changes
// neither the graph, nor the clustering, nor any binding (a comment, another definition, the
// layout) does not fuse every loop again: at 100 bindings fusion was most of the time of such
// an edit. The key holds each binding as the formatter prints it, so an edit inside a worker
// does fuse again. Bounded, least recently used first out.
type fusions struct {
	mu    sync.Mutex
	max   int
	byKey map[string]*list.Element // of *fusionEntry
	order *list.List
}

type fusionEntry struct {
	key   string
	loops []fusedLoop // one per cluster, in execution order
}

// fusedLoop is what fusion found for one cluster, without the cluster (which belongs to one
// analysis: its bindings carry that text's positions).
type fusedLoop struct {
	f fuse.Fused
}

// fuse is fusions.fuse, or fusion afresh (Config.Fresh).
func (e *Engine) fuse(graphKey string, fn *syntax.Func, cl *cluster.Clustering, fresh bool) []*fuse.Fused {
	if fresh {
		return fuse.FuseClusters(cl, fuse.MaxStates)
	}
	return e.fused.fuse(graphKey, fn, cl)
}

func newFusions(max int) *fusions {
	return &fusions{max: max, byKey: map[string]*list.Element{}, order: list.New()}
}

// fuse returns the fused processes of a clustering, from the cache when the same definition
// was clustered the same way before.
func (fs *fusions) fuse(graphKey string, sizes *syntax.Func, cl *cluster.Clustering) []*fuse.Fused {
	key := fusionKey(graphKey, sizes, cl)
	fs.mu.Lock()
	if el, ok := fs.byKey[key]; ok {
		fs.order.MoveToFront(el)
		loops := el.Value.(*fusionEntry).loops
		fs.mu.Unlock()
		out := make([]*fuse.Fused, len(loops))
		for i, l := range loops {
			f := l.f
			f.Cluster = cl.Clusters[i]
			out[i] = &f
		}
		return out
	}
	fs.mu.Unlock()
	out := fuse.FuseClusters(cl, fuse.MaxStates)
	loops := make([]fusedLoop, len(out))
	for i, f := range out {
		loops[i] = fusedLoop{f: *f}
	}
	fs.mu.Lock()
	defer fs.mu.Unlock()
	if _, ok := fs.byKey[key]; !ok {
		fs.byKey[key] = fs.order.PushFront(&fusionEntry{key: key, loops: loops})
		for fs.order.Len() > fs.max {
			old := fs.order.Back()
			fs.order.Remove(old)
			delete(fs.byKey, old.Value.(*fusionEntry).key)
		}
	}
	return out
}

// fusionKey identifies what fusion depends on: the graph, the clustering (each cluster's
// bindings, in order) and every binding as the formatter prints it (its workers included).
func fusionKey(graphKey string, fn *syntax.Func, cl *cluster.Clustering) string {
	var b strings.Builder
	b.WriteString(graphKey)
	b.WriteString("\x00")
	for _, c := range cl.Clusters {
		fmt.Fprintf(&b, "%s;", strings.Join(c.Names(), ","))
	}
	b.WriteString("\x00")
	for _, bnd := range fn.Def.Bindings {
		names := make([]string, len(bnd.Names))
		for i, id := range bnd.Names {
			names[i] = id.Name
		}
		fmt.Fprintf(&b, "%s=%s\n", strings.Join(names, ","), syntax.FormatCombinator(bnd.Rhs))
	}
	return b.String()
}
