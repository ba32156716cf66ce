package fuse

import "github.com/cnf-tools/cnf/types"

// TypedInputs copies a definition's inputs with every integer that its types (info, may be
// nil) make a Float converted to one: --arg xs=[1, 2] for an Array Float is [1.0, 2.0], so that
// 1 / 2 divides as Floats in every semantics, compiled code included.
func TypedInputs(info *types.Info, inputs map[string]Value) map[string]Value {
	vals := make(map[string]Value, len(inputs))
	for k, v := range inputs {
		if info != nil {
			v = Coerce(v, info.Types[k])
		}
		vals[k] = v
	}
	return vals
}

// Coerce converts the integers of v that t says are Floats; everything else is returned as it
// is (a value that does not fit t is left for the run to report).
func Coerce(v Value, t *types.Type) Value {
	if t == nil {
		return v
	}
	switch t.Kind() {
	case "Float":
		if n, ok := v.(int64); ok {
			return float64(n)
		}
	case "Tuple":
		tu, ok := v.(Tuple)
		elems := t.Elems()
		if !ok || len(tu) != len(elems) {
			return v
		}
		out := make(Tuple, len(tu))
		for i, x := range tu {
			out[i] = Coerce(x, elems[i])
		}
		return out
	case "Array":
		arr, ok := v.(Array)
		if !ok || !needsCoercion(t.Elem()) {
			return v
		}
		out := make(Array, len(arr))
		for i, x := range arr {
			out[i] = Coerce(x, t.Elem())
		}
		return out
	}
	return v
}

// needsCoercion reports whether a value of type t may hold an integer that is a Float.
func needsCoercion(t *types.Type) bool {
	switch t.Kind() {
	case "Float":
		return true
	case "Tuple", "Array":
		for _, e := range t.Elems() {
			if needsCoercion(e) {
				return true
			}
		}
	}
	return false
}
