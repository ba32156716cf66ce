package codegen

import (
	"fmt"
	"strings"

	"github.com/cnf-tools/cnf/types"
)

// ctypes names the C type of every element, scalar and array type a program uses, and declares
// the structs: a tuple (Int, Float) is Tup2_Int_Float {f0, f1}; an array of T is Arr_T {data,
// len}; a host type (Point) is the C type of that name, which the host file defines. Names are
// the types' prefix notation with arities, so two types never share one.
type ctypes struct {
	declared map[string]bool
	plain    []string // struct declarations that need no host type, in dependency order
	hosted   []string // those that do: after the host file
	usesHost map[string]bool
}

func newCTypes() *ctypes {
	return &ctypes{declared: map[string]bool{}, usesHost: map[string]bool{}}
}

// TypeError is a type the C code cannot represent: a function value, or a type nothing fixed.
type TypeError struct{ Type, Why string }

func (e *TypeError) Error() string {
	return fmt.Sprintf("cannot compile a value of type %s: %s", e.Type, e.Why)
}

// name returns the C type of t, declaring the structs it needs.
func (ct *ctypes) name(t *types.Type) (string, error) {
	switch t.Kind() {
	case "Int":
		return "int64_t", nil
	case "Float":
		return "double", nil
	case "Bool":
		return "bool", nil
	case "Host":
		if len(t.Elems()) > 0 {
			return "", &TypeError{t.String(), "a host type with arguments has no C name"}
		}
		ct.usesHost[t.Name()] = true
		return t.Name(), nil
	case "Tuple":
		elems := t.Elems()
		fields := make([]string, len(elems))
		parts := make([]string, len(elems))
		host := false
		for i, e := range elems {
			n, err := ct.name(e)
			if err != nil {
				return "", err
			}
			fields[i] = fmt.Sprintf("%s f%d;", n, i)
			parts[i] = mangle(e)
			host = host || ct.hostIn(e)
		}
		name := fmt.Sprintf("Tup%d_%s", len(elems), strings.Join(parts, "_"))
		ct.declare(name, host, fmt.Sprintf("typedef struct { %s } %s;", strings.Join(fields, " "), name))
		return name, nil
	case "Array":
		en, err := ct.name(t.Elem())
		if err != nil {
			return "", err
		}
		name := "Arr_" + mangle(t.Elem())
		ct.declare(name, ct.hostIn(t.Elem()), fmt.Sprintf("typedef struct { %s *data; int64_t len; } %s;", en, name))
		return name, nil
	case "Func":
		return "", &TypeError{t.String(), "functions are inlined where they are applied, never stored"}
	}
	return "", &TypeError{t.String(), "nothing in the definition fixes it; annotate the definition with a signature"}
}

func (ct *ctypes) declare(name string, host bool, decl string) {
	if ct.declared[name] {
		return
	}
	ct.declared[name] = true
	if host {
		ct.hosted = append(ct.hosted, decl)
	} else {
		ct.plain = append(ct.plain, decl)
	}
}

// hostIn reports whether t contains a host type.
func (ct *ctypes) hostIn(t *types.Type) bool {
	if t.Kind() == "Host" {
		return true
	}
	if k := t.Kind(); k == "Tuple" || k == "Array" {
		for _, e := range t.Elems() {
			if ct.hostIn(e) {
				return true
			}
		}
	}
	return false
}

// mangle is a type's part of a C name: Int, Float, Bool, a host type's name, Tup2_A_B, Arr_A.
func mangle(t *types.Type) string {
	switch k := t.Kind(); k {
	case "Host":
		return t.Name()
	case "Tuple":
		parts := make([]string, len(t.Elems()))
		for i, e := range t.Elems() {
			parts[i] = mangle(e)
		}
		return fmt.Sprintf("Tup%d_%s", len(parts), strings.Join(parts, "_"))
	case "Array":
		return "Arr_" + mangle(t.Elem())
	default:
		return k
	}
}

// ident makes a CNF name (which may hold ' and .) a C identifier with a prefix.
func ident(prefix, name string) string {
	var b strings.Builder
	b.WriteString(prefix)
	for _, r := range name {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_':
			b.WriteRune(r)
		case r == '\'':
			b.WriteString("_q")
		case r == '.':
			b.WriteString("__")
		default:
			fmt.Fprintf(&b, "_u%x", r)
		}
	}
	return b.String()
}
