package codegen

import (
	"github.com/cnf-tools/cnf/fuse"
	"github.com/cnf-tools/cnf/syntax"
)

// liveIn is, for every label of a process, the heap variables that may be read before they
// are written on some path from it (backward dataflow to a fixed point). A variable dead where
// two paths join may be written on both: selects uses it to assign a filter's buffers without a
// select, which compilers would turn back into a branch.
func liveIn(proc *fuse.Process) map[fuse.Label]map[string]bool {
	heap := map[string]bool{}
	for _, h := range proc.Heap {
		heap[h.Name] = true
	}
	reads := func(e syntax.Expr, into map[string]bool) {
		names(e, func(name string) {
			if heap[name] {
				into[name] = true // a lambda parameter that shadows a heap name: conservative
			}
		})
	}
	live := map[fuse.Label]map[string]bool{}
	for _, l := range proc.Order {
		live[l] = map[string]bool{}
	}
	// edge is what is live before following n, given what is live at its target: the updates
	// run in order, each seeing the ones before it.
	edge := func(n fuse.Next, def string) map[string]bool {
		out := map[string]bool{}
		for v := range live[n.Label] {
			out[v] = true
		}
		for i := len(n.Updates) - 1; i >= 0; i-- {
			delete(out, n.Updates[i].Var)
			if n.Updates[i].Expr != nil {
				reads(n.Updates[i].Expr, out)
			}
		}
		if def != "" {
			delete(out, def)
		}
		return out
	}
	for changed := true; changed; {
		changed = false
		for i := len(proc.Order) - 1; i >= 0; i-- {
			l := proc.Order[i]
			in := proc.Instrs[l]
			now := map[string]bool{}
			switch in.Op {
			case fuse.Pull:
				for v := range edge(in.Next, in.Var) {
					now[v] = true
				}
				for v := range edge(in.Else, "") {
					now[v] = true
				}
			case fuse.Case:
				for v := range edge(in.Next, "") {
					now[v] = true
				}
				for v := range edge(in.Else, "") {
					now[v] = true
				}
			case fuse.Exit:
			default:
				for v := range edge(in.Next, "") {
					now[v] = true
				}
			}
			if in.Expr != nil {
				reads(in.Expr, now)
			}
			if len(now) != len(live[l]) {
				live[l] = now
				changed = true
			}
		}
	}
	return live
}

// names calls f with every name an expression mentions.
func names(e syntax.Expr, f func(string)) {
	if id, ok := e.(*syntax.Ident); ok {
		f(id.Name)
	}
	for k := range syntax.Subexprs(e) {
		names(k, f)
	}
}
