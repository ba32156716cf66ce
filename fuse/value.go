package fuse

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Value is a run-time value: int64, float64, bool, Tuple, Array or Func.
type Value any

// Tuple is a tuple value.
type Tuple []Value

// Array is an array value.
type Array []Value

// Func is a function value: a lambda, a section or a host function, possibly partially applied.
type Func struct {
	Name  string
	Arity int
	Args  []Value
	Call  func(args []Value) (Value, error)
}

// FormatValue prints a value as cnf run shows it: 42, 1.5, True, (1, 2), [1, 2, 3].
func FormatValue(v Value) string {
	switch v := v.(type) {
	case int64:
		return strconv.FormatInt(v, 10)
	case float64:
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return strconv.FormatFloat(v, 'g', -1, 64)
		}
		s := strconv.FormatFloat(v, 'g', -1, 64)
		if !strings.ContainsAny(s, ".eE") {
			s += ".0"
		}
		return s
	case bool:
		if v {
			return "True"
		}
		return "False"
	case Tuple:
		parts := make([]string, len(v))
		for i, x := range v {
			parts[i] = FormatValue(x)
		}
		return "(" + strings.Join(parts, ", ") + ")"
	case Array:
		parts := make([]string, len(v))
		for i, x := range v {
			parts[i] = FormatValue(x)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case *Func:
		return "<function " + v.Name + ">"
	case nil:
		return "<uninitialised>"
	}
	return fmt.Sprintf("%v", v)
}

// Equal compares two values structurally (floats by value; NaN equals NaN so that runs compare).
func Equal(a, b Value) bool {
	switch a := a.(type) {
	case Tuple:
		b, ok := b.(Tuple)
		return ok && equalAll(a, b)
	case Array:
		b, ok := b.(Array)
		return ok && equalAll(a, b)
	case float64:
		bf, ok := b.(float64)
		return ok && (a == bf || math.IsNaN(a) && math.IsNaN(bf))
	case *Func:
		// Functions are observed only through their name (cnf run prints <function f>) and
		// what they are applied to: two partial applications of one function to equal
		// arguments are equal, whichever run made them.
		bf, ok := b.(*Func)
		return ok && (a == bf || a.Name == bf.Name && a.Arity == bf.Arity && equalAll(a.Args, bf.Args))
	}
	return a == b
}

func equalAll(a, b []Value) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !Equal(a[i], b[i]) {
			return false
		}
	}
	return true
}

// ParseValue reads a value written as cnf run's --arg takes it: integers, floats, True/False,
// tuples (a, b) and arrays [x, y, ...], nested.
func ParseValue(s string) (Value, error) {
	p := &valueParser{s: s}
	v, err := p.value()
	if err != nil {
		return nil, err
	}
	p.space()
	if p.i != len(p.s) {
		return nil, fmt.Errorf("unexpected %q at position %d", p.s[p.i:], p.i+1)
	}
	return v, nil
}

type valueParser struct {
	s string
	i int
}

func (p *valueParser) space() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
		p.i++
	}
}

func (p *valueParser) value() (Value, error) {
	p.space()
	if p.i >= len(p.s) {
		return nil, fmt.Errorf("missing value at the end")
	}
	switch c := p.s[p.i]; {
	case c == '[' || c == '(':
		closer := byte(']')
		if c == '(' {
			closer = ')'
		}
		p.i++
		var elems []Value
		p.space()
		if p.i < len(p.s) && p.s[p.i] == closer {
			p.i++
			if closer == ']' {
				return Array{}, nil
			}
			return Tuple{}, nil
		}
		for {
			v, err := p.value()
			if err != nil {
				return nil, err
			}
			elems = append(elems, v)
			p.space()
			if p.i < len(p.s) && p.s[p.i] == ',' {
				p.i++
				continue
			}
			if p.i < len(p.s) && p.s[p.i] == closer {
				p.i++
				break
			}
			return nil, fmt.Errorf("expected , or %c at position %d", closer, p.i+1)
		}
		if closer == ']' {
			return Array(elems), nil
		}
		if len(elems) == 1 {
			return elems[0], nil
		}
		return Tuple(elems), nil
	default:
		start := p.i
		for p.i < len(p.s) && strings.IndexByte(" \t,)]", p.s[p.i]) < 0 {
			p.i++
		}
		word := p.s[start:p.i]
		switch word {
		case "True":
			return true, nil
		case "False":
			return false, nil
		}
		if n, err := strconv.ParseInt(word, 10, 64); err == nil {
			return n, nil
		}
		if f, err := strconv.ParseFloat(word, 64); err == nil {
			return f, nil
		}
		return nil, fmt.Errorf("%q is not a number, True, False, a tuple or an array", word)
	}
}
