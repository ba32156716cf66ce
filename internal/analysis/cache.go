package analysis

import (
	"container/list"
	"sync"
	"time"

	"github.com/cnf-tools/cnf/cluster"
)

// decisions are the clusterings the engine has found, by graph key: bounded, least recently
// used first out. (A definition's earlier versions no longer warm-start its solve: the answer
// would depend on the editing history, and differ from `cnf cluster`'s for the same text.)
type decisions struct {
	mu    sync.Mutex
	max   int
	byKey map[string]*list.Element // of *entry
	order *list.List
}

// entry is what one solve of a graph decided: our clustering and Megiddo and Sarkar's, and
// the time limit they were found under.
type entry struct {
	key   string
	limit time.Duration
	// proof says that Prove optimal found it (proven, or stopped by the user): later
	// analyses of the graph show it whatever their limit, since the user asked for it.
	proof         bool
	ours, megiddo cluster.Decision
	// forced holds the forced re-solves made for this graph (File.Force), by node and cluster:
	// the same graph and clustering number them the same way.
	forced map[[2]int]cluster.Forced
}

func newDecisions(max int) *decisions {
	return &decisions{max: max, byKey: map[string]*list.Element{}, order: list.New()}
}

func (d *decisions) get(key string) (entry, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	el, ok := d.byKey[key]
	if !ok {
		return entry{}, false
	}
	d.order.MoveToFront(el)
	return *el.Value.(*entry), true
}

// put records a solve under its key.
func (d *decisions) put(e entry) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if el, ok := d.byKey[e.key]; ok {
		e.forced = el.Value.(*entry).forced
		el.Value = &e
		d.order.MoveToFront(el)
	} else {
		d.byKey[e.key] = d.order.PushFront(&e)
		for d.order.Len() > d.max {
			old := d.order.Back()
			d.order.Remove(old)
			delete(d.byKey, old.Value.(*entry).key)
		}
	}
}

// addForced records a forced re-solve of the graph with this key.
func (d *decisions) addForced(key string, at [2]int, f cluster.Forced) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if el, ok := d.byKey[key]; ok {
		e := el.Value.(*entry)
		if e.forced == nil {
			e.forced = map[[2]int]cluster.Forced{}
		}
		e.forced[at] = f
	}
}

// forced returns a copy of the forced re-solves recorded for the graph with this key.
func (d *decisions) forced(key string) map[[2]int]cluster.Forced {
	d.mu.Lock()
	defer d.mu.Unlock()
	el, ok := d.byKey[key]
	if !ok {
		return nil
	}
	out := make(map[[2]int]cluster.Forced, len(el.Value.(*entry).forced))
	for k, v := range el.Value.(*entry).forced {
		out[k] = v
	}
	return out
}
