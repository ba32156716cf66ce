package fuse

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/cnf-tools/cnf/infer"
	"github.com/cnf-tools/cnf/syntax"
	"github.com/cnf-tools/cnf/types"
)

// Externals are the host functions that external bindings may call. Each takes the external's
// arguments and returns one value per bound name.
type Externals map[string]func(args []Value) ([]Value, error)

// DefaultExternals is a small library for running examples: length, sum, reverse, sort,
// maximum and minimum of an array.
func DefaultExternals() Externals {
	one := func(f func(Array) (Value, error)) func([]Value) ([]Value, error) {
		return func(args []Value) ([]Value, error) {
			if len(args) != 1 {
				return nil, fmt.Errorf("takes one array")
			}
			a, ok := args[0].(Array)
			if !ok {
				return nil, fmt.Errorf("takes an array, got %s", FormatValue(args[0]))
			}
			v, err := f(a)
			return []Value{v}, err
		}
	}
	fold := func(op string) func(Array) (Value, error) {
		return func(a Array) (Value, error) {
			if len(a) == 0 {
				if op == "+" {
					return int64(0), nil
				}
				return nil, fmt.Errorf("empty array")
			}
			acc := a[0]
			for _, x := range a[1:] {
				var err error
				if op == "+" {
					acc, err = arith("+", acc, x)
				} else {
					f, _ := builtin(op)
					acc, err = Apply(f, acc, x)
				}
				if err != nil {
					return nil, err
				}
			}
			return acc, nil
		}
	}
	return Externals{
		"length":  one(func(a Array) (Value, error) { return int64(len(a)), nil }),
		"sum":     one(fold("+")),
		"maximum": one(fold("max")),
		"minimum": one(fold("min")),
		"reverse": one(func(a Array) (Value, error) {
			out := make(Array, len(a))
			for i, x := range a {
				out[len(a)-1-i] = x
			}
			return out, nil
		}),
		"sort": one(func(a Array) (Value, error) {
			out := append(Array{}, a...)
			var err error
			sort.SliceStable(out, func(i, j int) bool {
				c, e := compare(out[i], out[j])
				if e != nil {
					err = e
				}
				return c < 0
			})
			return out, err
		}),
	}
}

// RunError is a run-time error located at the binding that raised it.
type RunError struct {
	Binding string
	Err     error
}

func (e *RunError) Error() string { return fmt.Sprintf("%s: %v", e.Binding, e.Err) }
func (e *RunError) Unwrap() error { return e.Err }

// CheckInputs checks that every parameter has a value of the right kind.
func CheckInputs(fn *syntax.Func, inputs map[string]Value) error {
	var missing []string
	for _, p := range fn.Params {
		v, ok := inputs[p.Name]
		if !ok {
			missing = append(missing, p.Name)
			continue
		}
		if err := CheckInput(p, v); err != nil {
			return err
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("no value for %s", strings.Join(missing, ", "))
	}
	return nil
}

// CheckInput checks that a parameter's value is of its kind (array or scalar).
func CheckInput(p *syntax.Symbol, v Value) error {
	if _, isArr := v.(Array); isArr != (p.Kind == syntax.Array) {
		return fmt.Errorf("parameter %s is %s, but %s was given", p.Name, article(p.Kind), shortValue(v))
	}
	return nil
}

// shortValue prints a value for an error message, cut short if it is long.
func shortValue(v Value) string {
	s := FormatValue(v)
	if r := []rune(s); len(r) > 40 {
		return string(r[:37]) + "... (" + describeValue(v) + ")"
	}
	return s
}

func article(k syntax.Kind) string {
	if k == syntax.Array {
		return "an array"
	}
	return "a scalar"
}

// RunReference evaluates a definition directly on arrays, binding by binding in dependency
// order: the reference semantics that fused execution is compared with. Bindings whose values
// no result needs (arrays used only by length, see infer.Result.Live) are not evaluated.
// It stops with ctx's error when ctx ends, and with an error when the run would make more than
// MaxElements array elements in all.
func RunReference(ctx context.Context, sizes *infer.Result, inputs map[string]Value, ext Externals) (map[string]Value, error) {
	return runReference(ctx, sizes, inputs, ext, false)
}

// RunStrict evaluates every binding, needed or not, and counts each length's own argument: the
// naive semantics. Where it succeeds it must agree with RunReference, which checks independently
// that the lengths the sizes give (infer.Length) are right.
func RunStrict(ctx context.Context, sizes *infer.Result, inputs map[string]Value, ext Externals) (map[string]Value, error) {
	return runReference(ctx, sizes, inputs, ext, true)
}

// MaxElements bounds the array elements one run of the reference interpreter makes, in all
// bindings together: about 2 GB of values. A larger run is refused with an error rather than
// left to exhaust memory.
const MaxElements = 1 << 26

// errElementLimit is the error of a run past MaxElements, in every semantics (the compiled
// program's message is the same: codegen's cnf_limit).
var errElementLimit = fmt.Errorf("the run would make more than %d array elements, cnf run's limit", MaxElements)

// IsElementLimit reports whether err is a run's failure at MaxElements.
func IsElementLimit(err error) bool { return errors.Is(err, errElementLimit) }

// meter counts the elements a run makes and notices the end of its context; every loop that
// makes elements calls it.
type meter struct {
	ctx  context.Context
	made int64
}

// add counts n more elements (to be made, or just made).
func (m *meter) add(n int64) error {
	before := m.made
	m.made += n
	if n < 0 || m.made > MaxElements {
		return errElementLimit
	}
	if before>>12 != m.made>>12 { // about every 4096 elements
		return m.ctx.Err()
	}
	return nil
}

func runReference(ctx context.Context, sizes *infer.Result, inputs map[string]Value, ext Externals, strict bool) (map[string]Value, error) {
	vals, err := runBindings(ctx, sizes, inputs, ext, strict)
	if err != nil {
		return nil, err
	}
	return results(sizes.Func, vals), nil
}

// runBindings is runReference's evaluation: the value of every binding it computed (a binding
// only counted has its length).
func runBindings(ctx context.Context, sizes *infer.Result, inputs map[string]Value, ext Externals, strict bool) (map[string]Value, error) {
	m := &meter{ctx: ctx}
	fn := sizes.Func
	if err := CheckInputs(fn, inputs); err != nil {
		return nil, err
	}
	vals := TypedInputs(sizes.Types, inputs)
	for _, b := range fn.Order {
		// Strict evaluation computes every binding, and evalBinding counts a length's own
		// argument; the reference skips what no result needs and takes lengths from the sizes.
		if !strict {
			if !sizes.Live(b) {
				continue
			}
			if l, ok := sizes.LengthOf(b); ok {
				v, err := lengthValue(l, vals)
				if err != nil {
					return nil, &RunError{Binding: b.Name(), Err: err}
				}
				vals[b.Name()] = v
				continue
			}
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err := evalBinding(m, fn, sizes.Types, b, vals, ext); err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, &RunError{Binding: b.Name(), Err: err}
		}
	}
	return vals, nil
}

// lengthValue is a length as the sizes give it: the value of its expression when it is known
// before any loop, else the length of the array it counts.
func lengthValue(l infer.Length, vals map[string]Value) (Value, error) {
	if l.Known != nil {
		return Eval(l.Known, NewEnv(vals))
	}
	return int64(len(vals[l.Source].(Array))), nil
}

func results(fn *syntax.Func, vals map[string]Value) map[string]Value {
	out := map[string]Value{}
	for _, r := range fn.Def.Results {
		out[r.Name] = vals[r.Name]
	}
	return out
}

func evalBinding(m *meter, fn *syntax.Func, info *types.Info, b *syntax.Binding, vals map[string]Value, ext Externals) error {
	env := NewTypedEnv(vals, info)
	arr := func(id *syntax.Ident) Array { return vals[id.Name].(Array) }
	worker := func(e syntax.Expr) (Value, error) { return Eval(e, env) }
	switch c := b.Rhs.(type) {
	case *syntax.Map:
		w := lazyWorker(env, c.Worker)
		var err error
		n := len(arr(c.Arrays[0]))
		for _, a := range c.Arrays[1:] {
			if len(arr(a)) != n {
				return fmt.Errorf("%s needs arrays of one size, but %s has %d elements and %s %d", c.Keyword.Name, c.Arrays[0].Name, n, a.Name, len(arr(a)))
			}
		}
		if err := m.add(int64(n)); err != nil {
			return err
		}
		out := make(Array, n)
		for i := range out {
			if i&4095 == 4095 && m.ctx.Err() != nil {
				return m.ctx.Err()
			}
			args := make([]Value, len(c.Arrays))
			for k, a := range c.Arrays {
				args[k] = arr(a)[i]
			}
			if out[i], err = w(args...); err != nil {
				return err
			}
		}
		vals[b.Name()] = out
	case *syntax.Filter:
		w := lazyWorker(env, c.Worker)
		out := Array{}
		for _, x := range arr(c.Array) {
			if err := m.add(1); err != nil {
				return err
			}
			keep, err := w(x)
			if err != nil {
				return err
			}
			k, ok := keep.(bool)
			if !ok {
				return fmt.Errorf("the predicate of filter returned %s, not a Bool", FormatValue(keep))
			}
			if k {
				out = append(out, x)
			}
		}
		vals[b.Name()] = out
	case *syntax.Fold:
		acc, err := runningFold(m.ctx, env, c.Worker, c.Init, arr(c.Array), nil)
		if err != nil {
			return err
		}
		vals[b.Name()] = acc
	case *syntax.Generate:
		n, err := worker(c.Size)
		if err != nil {
			return err
		}
		size, ok := n.(int64)
		if !ok {
			return fmt.Errorf("the size of generate is %s, not an Int", FormatValue(n))
		}
		w := lazyWorker(env, c.Worker)
		if err := m.add(max(size, 0)); err != nil {
			return fmt.Errorf("generate %d: %w", size, err)
		}
		out := Array{}
		for i := int64(0); i < size; i++ {
			if i&4095 == 4095 && m.ctx.Err() != nil {
				return m.ctx.Err()
			}
			v, err := w(i)
			if err != nil {
				return err
			}
			out = append(out, v)
		}
		vals[b.Name()] = out
	case *syntax.Gather:
		data := arr(c.Data)
		if err := m.add(int64(len(arr(c.Indices)))); err != nil {
			return err
		}
		out := Array{}
		for _, i := range arr(c.Indices) {
			v, err := index(data, i)
			if err != nil {
				return err
			}
			out = append(out, v)
		}
		vals[b.Name()] = out
	case *syntax.Cross:
		if err := m.add(int64(len(arr(c.A))) * int64(len(arr(c.B)))); err != nil {
			return err
		}
		out := Array{}
		for _, x := range arr(c.A) {
			if m.ctx.Err() != nil {
				return m.ctx.Err()
			}
			for _, y := range arr(c.B) {
				out = append(out, Tuple{x, y})
			}
		}
		vals[b.Name()] = out
	case *syntax.Scan:
		if err := m.add(int64(len(arr(c.Array)))); err != nil {
			return err
		}
		out := Array{}
		_, err := runningFold(m.ctx, env, c.Worker, c.Init, arr(c.Array), func(before, after Value) {
			if c.Inclusive {
				out = append(out, after)
			} else {
				out = append(out, before)
			}
		})
		if err != nil {
			return err
		}
		vals[b.Name()] = out
	case *syntax.Indexed:
		if err := m.add(int64(len(arr(c.Array)))); err != nil {
			return err
		}
		out := Array{}
		for i, x := range arr(c.Array) {
			out = append(out, Tuple{int64(i), x})
		}
		vals[b.Name()] = out
	case *syntax.Zip:
		xs, ys := arr(c.A), arr(c.B)
		if len(xs) != len(ys) {
			return fmt.Errorf("zip needs arrays of one size, but %s has %d elements and %s %d", c.A.Name, len(xs), c.B.Name, len(ys))
		}
		if err := m.add(int64(len(xs))); err != nil {
			return err
		}
		out := Array{}
		for i := range xs {
			out = append(out, Tuple{xs[i], ys[i]})
		}
		vals[b.Name()] = out
	case *syntax.Unzip:
		if err := m.add(2 * int64(len(arr(c.Array)))); err != nil {
			return err
		}
		firsts, seconds := Array{}, Array{}
		for _, p := range arr(c.Array) {
			t, ok := p.(Tuple)
			if !ok || len(t) != 2 {
				return fmt.Errorf("unzip needs an array of pairs, but it has %s", FormatValue(p))
			}
			firsts, seconds = append(firsts, t[0]), append(seconds, t[1])
		}
		vals[b.Names[0].Name], vals[b.Names[1].Name] = firsts, seconds
	case *syntax.Slice:
		bound := func(e syntax.Expr, def int64) (int64, error) {
			if e == nil {
				return def, nil
			}
			v, err := worker(e)
			if err != nil {
				return 0, err
			}
			n, ok := v.(int64)
			if !ok {
				return 0, fmt.Errorf("%s needs an Int, got %s", c.Keyword.Name, FormatValue(v))
			}
			return n, nil
		}
		xs := arr(c.Array)
		if err := m.add(int64(len(xs))); err != nil {
			return err
		}
		out := Array{}
		if len(xs) == 0 {
			// The template tests the bounds at each element: with none, they are not read.
			vals[b.Name()] = out
			break
		}
		start, err := bound(c.Start, 0)
		if err != nil {
			return err
		}
		count, err := bound(c.Count, 0)
		if err != nil {
			return err
		}
		for p, x := range xs {
			if i := int64(p); SliceKeeps(i, start, count, c.Count != nil) {
				out = append(out, x)
			}
		}
		vals[b.Name()] = out
	case *syntax.Append:
		if err := m.add(int64(len(arr(c.A))) + int64(len(arr(c.B)))); err != nil {
			return err
		}
		vals[b.Name()] = append(append(Array{}, arr(c.A)...), arr(c.B)...)
	case *syntax.Length:
		vals[b.Name()] = int64(len(arr(c.Array)))
	case *syntax.Reverse:
		xs := arr(c.Array)
		if err := m.add(int64(len(xs))); err != nil {
			return err
		}
		out := make(Array, len(xs))
		for i, x := range xs {
			out[len(xs)-1-i] = x
		}
		vals[b.Name()] = out
	case *syntax.External:
		f, ok := ext[c.Func.Name]
		if !ok {
			return &UnknownHostError{Name: c.Func.Name}
		}
		args := make([]Value, len(c.Args))
		for i, a := range c.Args {
			args[i] = vals[a.Name]
		}
		outs, err := f(args)
		if err != nil {
			return fmt.Errorf("external %s: %w", c.Func.Name, err)
		}
		if len(outs) != len(b.Names) {
			return fmt.Errorf("external %s returned %d values for %d names", c.Func.Name, len(outs), len(b.Names))
		}
		for i, id := range b.Names {
			if s := fn.Symbols[id.Name]; s != nil && s.Kind == syntax.Array {
				if _, ok := outs[i].(Array); !ok {
					return fmt.Errorf("external %s returned %s for the array %s", c.Func.Name, FormatValue(outs[i]), id.Name)
				}
			}
			if info != nil {
				outs[i] = Coerce(outs[i], info.Types[id.Name])
			}
			vals[id.Name] = outs[i]
		}
	}
	return nil
}

// runningFold folds xs with the worker from the starting value and returns the final value;
// each, if not nil, sees the value before and after every element (the scans keep one of them).
func runningFold(ctx context.Context, env *Env, worker, init syntax.Expr, xs Array, each func(before, after Value)) (Value, error) {
	w := lazyWorker(env, worker)
	acc, err := Eval(init, env)
	if err != nil {
		return nil, err
	}
	for i, x := range xs {
		if i&4095 == 4095 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		before := acc
		if acc, err = w(acc, x); err != nil {
			return nil, err
		}
		if each != nil {
			each(before, acc)
		}
	}
	return acc, nil
}

// lazyWorker evaluates a worker expression when it is first applied, as the process templates
// do (they apply the worker to each element): a worker whose evaluation fails, such as
// (+ (1 `div` 0)), is an error only for a non-empty array, in every semantics.
func lazyWorker(env *Env, e syntax.Expr) func(args ...Value) (Value, error) {
	var w Value
	var err error
	done := false
	return func(args ...Value) (Value, error) {
		if !done {
			w, err = Eval(e, env)
			done = true
		}
		if err != nil {
			return nil, err
		}
		return Apply(w, args...)
	}
}
