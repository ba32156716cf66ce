package fuse

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/cnf-tools/cnf/cluster"
	"github.com/cnf-tools/cnf/infer"
	"github.com/cnf-tools/cnf/syntax"
)

// BuildNetwork makes the process network of a loop cluster: a template per binding. The arrays
// the cluster streams from memory (parameters, or arrays an earlier loop wrote) are its input
// channels, fed by the environment as in Fig 4.9: the fused process pulls them, and the
// DeferPull heuristic makes it finish each element before it pulls the next. (Array sources
// written as pushing processes would run ahead of their consumers and make fusion deadlock.)
// The network's outputs are the arrays the cluster writes and the scalars it computes.
func BuildNetwork(c *cluster.Cluster) (*Network, error) {
	net := &Network{}
	produced := map[string]bool{}
	for _, nd := range c.Nodes {
		for _, id := range nd.Binding.Names {
			produced[id.Name] = true
		}
	}
	for _, nd := range c.Nodes {
		p, err := nodeTemplate(nd)
		if err != nil {
			return nil, err
		}
		net.Procs = append(net.Procs, p)
		for _, in := range p.Ins {
			if !produced[in] && !slices.Contains(net.Inputs, in) {
				if !slices.Contains(c.Reads, in) {
					return nil, fmt.Errorf("cluster reads %s as a stream, but it is not among its inputs", in)
				}
				net.Inputs = append(net.Inputs, in)
			}
		}
	}
	net.Outputs = append(append([]string{}, c.Writes...), c.Scalars...)
	return net, nil
}

// nodeTemplate is the process of a node: its binding's template, except that a length counts
// the array the graph says it reads (infer.Length.Source), which need not be its argument.
func nodeTemplate(nd *cluster.Node) (*Process, error) {
	if _, isLen := nd.Binding.Rhs.(*syntax.Length); isLen && len(nd.Reads) == 1 {
		return LengthTemplate(nd.Binding, nd.Reads[0]), nil
	}
	return Template(nd.Binding)
}

// Fused is the fused process of one cluster, or why fusion failed.
type Fused struct {
	Cluster *cluster.Cluster
	Network *Network
	Process *Process // nil if fusion failed or the cluster is an external
	Err     error    // a *FusionError, or a problem building the network
	Time    time.Duration
}

// FuseClusters fuses every loop of a clustering.
func FuseClusters(cl *cluster.Clustering, maxStates int) []*Fused {
	var out []*Fused
	for _, c := range cl.Clusters {
		f := &Fused{Cluster: c}
		out = append(out, f)
		if c.External() {
			continue
		}
		start := time.Now()
		f.Network, f.Err = BuildNetwork(c)
		if f.Err == nil {
			f.Process, f.Err = FuseNetwork(f.Network, maxStates)
		}
		f.Time = time.Since(start)
	}
	return out
}

// Mode selects how RunClusters executes each loop.
type Mode int

const (
	// RunNetwork runs each loop as its process network, unfused, by the rules of Figs 4.7-4.9.
	RunNetwork Mode = iota
	// RunFused runs each loop as its single fused process. A loop whose fusion failed runs as
	// its original, unfused network: the partially fused processes are for the report only,
	// since each has committed to a schedule that the rest of the network may not follow.
	RunFused
)

// RunClusters evaluates a definition cluster by cluster in execution order: externals as host
// calls between loops, each loop as a process network or as its fused process. Materialised
// arrays and scalars pass between clusters through memory.
func RunClusters(ctx context.Context, fn *syntax.Func, cl *cluster.Clustering, inputs map[string]Value, ext Externals, mode Mode) (map[string]Value, error) {
	if err := CheckInputs(fn, inputs); err != nil {
		return nil, err
	}
	info := cl.Graph.Sizes.Types
	vals := TypedInputs(info, inputs)
	if err := knownLengths(cl.Graph, vals); err != nil {
		return nil, err
	}
	if err := ElementFloor(cl.Graph.Sizes, vals); err != nil {
		return nil, err
	}
	var fused []*Fused
	if mode == RunFused {
		fused = FuseClusters(cl, MaxStates)
	}
	for k, c := range cl.Clusters {
		if c.External() {
			b := c.Nodes[0].Binding
			if err := evalBinding(&meter{ctx: ctx}, fn, info, b, vals, ext); err != nil {
				return nil, &RunError{Binding: b.Name(), Err: err}
			}
			continue
		}
		if err := checkSizes(c, vals); err != nil {
			return nil, err
		}
		var procs []*Process
		net, err := BuildNetwork(c)
		if err != nil {
			return nil, err
		}
		procs = net.Procs
		if mode == RunFused {
			f := fused[k]
			var fe *FusionError
			switch {
			case f.Process != nil:
				procs = []*Process{f.Process}
			case errors.As(f.Err, &fe):
				// fusion failed and was reported: run the network unfused
			case f.Err != nil:
				return nil, f.Err
			}
		}
		env := NewTypedEnv(vals, info)
		inputs := map[string]Array{}
		for _, a := range net.Inputs {
			inputs[a] = vals[a].(Array)
		}
		out, err := Execute(ctx, procs, inputs, net.Outputs, env)
		if err != nil {
			return nil, &RunError{Binding: fmt.Sprintf("loop %d (%v)", k+1, c.Names()), Err: err}
		}
		for _, a := range c.Writes {
			vals[a] = out[a]
		}
		for _, s := range c.Scalars {
			vs := out[s]
			if len(vs) != 1 {
				return nil, fmt.Errorf("loop %d produced %d values for the scalar %s", k+1, len(vs), s)
			}
			vals[s] = vs[0]
		}
	}
	return results(fn, vals), nil
}

// checkSizes fails as the reference interpreter does when a map_n or zip of the loop reads
// arrays of different lengths from memory: the loop's processes would stop at the shorter
// one and return a truncated result. (Arrays made in the loop itself have the lengths their
// sizes give, which inference has unified.)
func checkSizes(c *cluster.Cluster, vals map[string]Value) error {
	for _, nd := range c.Nodes {
		keyword, arrays := syntax.SameLength(nd.Binding.Rhs)
		if len(arrays) < 2 {
			continue
		}
		first, ok := vals[arrays[0].Name].(Array)
		if !ok {
			continue
		}
		for _, a := range arrays[1:] {
			if xs, ok := vals[a.Name].(Array); ok && len(xs) != len(first) {
				return &RunError{Binding: nd.Binding.Name(), Err: fmt.Errorf("%s needs arrays of one size, but %s has %d elements and %s %d", keyword, arrays[0].Name, len(first), a.Name, len(xs))}
			}
		}
	}
	return nil
}

// knownLengths computes the lengths that the sizes determine before any loop runs.
// ElementFloor refuses, before any loop runs, a run whose arrays of sizes known in advance
// already make more than MaxElements elements: the reference interpreter makes at least those
// (each binding it evaluates makes its array's size) and refuses the run, while a network
// reached the limit only by pushing, element by element (70 s and 5.6 GB for a generate of
// 10^8), and compiled code, which makes no intermediate arrays, finished it. vals are the
// typed inputs (TypedInputs). The binding blamed is the one whose array passes the limit in
// program order; a caller reports the reference's error anyway (ProgramError).
func ElementFloor(sizes *infer.Result, vals map[string]Value) error {
	var sum int64
	env := NewEnv(vals)
	for _, b := range sizes.Func.Order {
		if _, isLength := b.Rhs.(*syntax.Length); isLength || !sizes.Live(b) {
			continue
		}
		for _, id := range b.Names {
			e := sizes.KnownSize(id.Name)
			if e == nil {
				continue
			}
			v, err := Eval(e, env)
			n, isInt := v.(int64)
			if err != nil || !isInt || n < 0 {
				continue // the run reports what is wrong with the size
			}
			if n > MaxElements-sum {
				return &RunError{Binding: b.Name(), Err: errElementLimit}
			}
			sum += n
		}
	}
	return nil
}

func knownLengths(g *cluster.Graph, vals map[string]Value) error {
	for _, b := range g.Known {
		l, _ := g.Sizes.LengthOf(b)
		v, err := lengthValue(l, vals)
		if err != nil {
			return &RunError{Binding: b.Name(), Err: fmt.Errorf("length known before any loop: %w", err)}
		}
		vals[b.Name()] = v
	}
	return nil
}
