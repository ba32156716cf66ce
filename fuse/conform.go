package fuse

import (
	"fmt"

	"github.com/cnf-tools/cnf/syntax"
)

// Conform checks an input value against the type a signature declares for it, and settles what
// the value notation leaves open: an integer given for a Float becomes that float, and an array
// given for a tuple (as JSON writes tuples) becomes the tuple. A host type (Point) or a type
// variable accepts any value. The error names where in the value the mismatch is.
func Conform(v Value, t syntax.Type) (Value, error) {
	switch t := t.(type) {
	case *syntax.ArrayType:
		a, ok := v.(Array)
		if !ok {
			return nil, mismatch(v, "an array")
		}
		out := make(Array, len(a))
		for i, x := range a {
			y, err := Conform(x, t.Elem)
			if err != nil {
				return nil, fmt.Errorf("element %d: %w", i, err)
			}
			out[i] = y
		}
		return out, nil
	case *syntax.TupleType:
		var elems []Value
		switch v := v.(type) {
		case Tuple:
			elems = v
		case Array:
			elems = v
		default:
			return nil, mismatch(v, fmt.Sprintf("a tuple of %d", len(t.Elems)))
		}
		if len(elems) != len(t.Elems) {
			return nil, fmt.Errorf("expected a tuple of %d, found %d components", len(t.Elems), len(elems))
		}
		out := make(Tuple, len(elems))
		for i, x := range elems {
			y, err := Conform(x, t.Elems[i])
			if err != nil {
				return nil, fmt.Errorf("component %d: %w", i+1, err)
			}
			out[i] = y
		}
		return out, nil
	case *syntax.NamedType:
		switch t.Name {
		case "Int", "Nat":
			if _, ok := v.(int64); !ok {
				return nil, mismatch(v, "an Int")
			}
		case "Float", "Double":
			switch x := v.(type) {
			case int64:
				return float64(x), nil
			case float64:
			default:
				return nil, mismatch(v, "a Float")
			}
		case "Bool":
			if _, ok := v.(bool); !ok {
				return nil, mismatch(v, "a Bool")
			}
		}
	}
	return v, nil
}

func mismatch(v Value, want string) error {
	return fmt.Errorf("expected %s, found %s", want, describeValue(v))
}

// describeValue names a value for an error: "1.5 (a Float)", "an array of 3".
func describeValue(v Value) string {
	switch v := v.(type) {
	case int64:
		return FormatValue(v) + " (an Int)"
	case float64:
		return FormatValue(v) + " (a Float)"
	case bool:
		return FormatValue(v) + " (a Bool)"
	case Tuple:
		return fmt.Sprintf("a tuple of %d", len(v))
	case Array:
		return fmt.Sprintf("an array of %d", len(v))
	}
	return "a value"
}
