package fuse

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/cnf-tools/cnf/syntax"
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

// ParseValue reads a value as cnf run's --arg takes it: integers, floats, True/False (or
// JSON's true/false), tuples (1, 2) and arrays [1, 2, 3], nested; spaces and newlines between
// the parts are ignored, so a JSON file of numbers, booleans and arrays reads too. Integers
// outside 64 bits are errors (not silently floats); nesting is bounded by syntax.MaxNesting;
// error messages quote at most a few dozen characters of the input.
func ParseValue(s string) (Value, error) {
	p := &valueParser{s: s}
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.space()
	if p.i != len(p.s) {
		return nil, fmt.Errorf("unexpected %s at position %d", quoteShort(p.s[p.i:]), p.i+1)
	}
	return v, nil
}

type valueParser struct {
	s string
	i int
}

func (p *valueParser) space() {
	for p.i < len(p.s) && strings.IndexByte(" \t\r\n", p.s[p.i]) >= 0 {
		p.i++
	}
}

// quoteShort quotes the start of s, for error messages about inputs that may be huge.
func quoteShort(s string) string {
	const limit = 40
	if len(s) <= limit {
		return strconv.Quote(s)
	}
	cut := limit
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strconv.Quote(s[:cut]) + "..."
}

func (p *valueParser) value(depth int) (Value, error) {
	p.space()
	if p.i >= len(p.s) {
		return nil, fmt.Errorf("missing value at the end")
	}
	switch c := p.s[p.i]; {
	case c == '[' || c == '(':
		if depth >= syntax.MaxNesting {
			return nil, fmt.Errorf("value nested too deeply at position %d (more than %d levels)", p.i+1, syntax.MaxNesting)
		}
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
			v, err := p.value(depth + 1)
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
			if p.i >= len(p.s) {
				return nil, fmt.Errorf("expected , or %c at the end", closer)
			}
			return nil, fmt.Errorf("expected , or %c at position %d, found %s", closer, p.i+1, quoteShort(p.s[p.i:]))
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
		for p.i < len(p.s) && strings.IndexByte(" \t\r\n,)]", p.s[p.i]) < 0 {
			p.i++
		}
		word := p.s[start:p.i]
		switch word {
		case "True", "true":
			return true, nil
		case "False", "false":
			return false, nil
		}
		n, err := strconv.ParseInt(word, 10, 64)
		if err == nil {
			return n, nil
		}
		if errors.Is(err, strconv.ErrRange) {
			return nil, fmt.Errorf("the integer %s at position %d does not fit in 64 bits (a float is written with a decimal point)", quoteShort(word), start+1)
		}
		if f, err := strconv.ParseFloat(word, 64); err == nil {
			return f, nil
		}
		return nil, fmt.Errorf("%s at position %d is not a number, True, False, a tuple or an array", quoteShort(word), start+1)
	}
}
