package fuse

import (
	"context"
	"strings"
	"testing"

	"github.com/cnf-tools/cnf/cluster"
	"github.com/cnf-tools/cnf/types"
	"pgregory.net/rapid"
)

// conforms reports whether a run-time value has the type the checker inferred.
func conforms(v Value, t *types.Type) bool {
	switch t.Kind() {
	case "Int":
		_, ok := v.(int64)
		return ok
	case "Float":
		_, ok := v.(float64)
		return ok
	case "Bool":
		_, ok := v.(bool)
		return ok
	case "Tuple":
		tv, ok := v.(Tuple)
		if !ok || len(tv) != len(t.Elems()) {
			return false
		}
		for i, e := range t.Elems() {
			if !conforms(tv[i], e) {
				return false
			}
		}
		return true
	case "Array":
		av, ok := v.(Array)
		if !ok {
			return false
		}
		for _, x := range av {
			if !conforms(x, t.Elems()[0]) {
				return false
			}
		}
		return true
	}
	return true // a type variable, a host type or a function: anything fits
}

// The type checker and the reference interpreter agree: every generated program (both
// generators, every combinator) type-checks, and every value the interpreter computes for it,
// on random inputs, has the type the checker inferred. The compiled code will rely on the types;
// this is what makes its results comparable with the interpreter's.
func TestInterpreterFollowsTypes(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		src, prog := drawProgram(t, 15)
		r := prog.Funcs[0]
		for _, d := range prog.Diagnostics {
			if d.Code == types.CodeType {
				t.Fatalf("type errors in a generated program: %s\n%s", d.Message, src)
			}
		}
		info := r.Types // infer.Check ran the type checker
		inputs := drawInputs(t, r)
		vals, err := RunStrict(context.Background(), r, inputs, nil)
		if err != nil {
			return // a run-time failure (division by zero, ...): nothing to compare
		}
		for name, v := range vals {
			if ty := info.Types[name]; ty != nil && !conforms(v, ty) {
				t.Fatalf("%s = %s, but its type is %s\n%s\ninputs%s", name, FormatValue(v), ty, src, show(inputs))
			}
		}
	})
}

// Every heap variable of every fused process of a generated program gets a concrete type from
// the process's instructions, without a clash: what compiling the process will declare its
// variables with.
func TestHeapTypes(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		src, prog := drawProgram(t, 12)
		r := prog.Funcs[0]
		rep, err := cluster.Analyze(context.Background(), r, cluster.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range FuseClusters(rep.Ours.Clustering, MaxStates) {
			if f.Process == nil {
				continue
			}
			heap, err := HeapTypes(f.Process, r.Types.Copy())
			if err != nil {
				var b strings.Builder
				WriteReadable(&b, f.Process)
				t.Fatalf("%v\n%s\n%s", err, src, b.String())
			}
			for _, h := range f.Process.Heap {
				if heap[h.Name] == nil {
					t.Fatalf("%s has no type\n%s", h.Name, src)
				}
			}
		}
	})
}
