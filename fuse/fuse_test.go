package fuse

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cnf-tools/cnf/cluster"
	"github.com/cnf-tools/cnf/infer"
	"github.com/cnf-tools/cnf/internal/golden"
)

// TestExamplesGolden: the fused process of every loop of every example, printed as the
// thesis's listings (with the notes that name joint labels and rules: testdata/examples) and
// for people, as cnf fuse and the editor print them (testdata/readable). go test -update
// rewrites them.
func TestExamplesGolden(t *testing.T) {
	golden.ForEachExample(t, "../examples", func(t *testing.T, name string, src []byte) {
		prog := infer.Analyze(name+".cnf", src)
		var b, readable bytes.Buffer
		readable.WriteString(ReadableHeader + "\n")
		for _, r := range prog.Funcs {
			if r == nil || !r.OK() {
				continue
			}
			res, err := cluster.Solve(context.Background(), cluster.NewGraph(r), cluster.Options{})
			if err != nil {
				t.Fatal(err)
			}
			fused := FuseClusters(res.Clustering, MaxStates)
			WriteLoops(&readable, fused, LoopsOptions{Definition: r.Func.Def.Name.Name, Externals: true})
			for k, f := range fused {
				if f.Cluster.External() {
					continue
				}
				if f.Err != nil {
					t.Errorf("%s loop %d: %v", r.Func.Def.Name.Name, k+1, f.Err)
					continue
				}
				fmt.Fprintf(&b, "-- %s, loop %d: %d states\n", r.Func.Def.Name.Name, k+1, f.Process.States())
				WriteProcess(&b, f.Process, true)
			}
		}
		golden.File(t, filepath.Join("testdata", "examples", name+".golden"), b.Bytes())
		golden.File(t, filepath.Join("testdata", "readable", name+".golden"), readable.Bytes())
	})
}

// Two processes that each wait for the other: p pulls a then pushes b; q pulls b then pushes
// a. Fusion reports a static deadlock naming both processes and both channels.
func TestStaticDeadlock(t *testing.T) {
	mk := func(name, in, out string) *Process {
		t := newBuilder(name, name+"_", name)
		v := name + ".v"
		t.at(0, &Instr{Op: Pull, Chan: in, Var: v, Next: next(t.l(1)), Else: next(t.l(3))})
		t.at(1, &Instr{Op: Push, Chan: out, Expr: ident(v), Next: next(t.l(2))})
		t.at(2, &Instr{Op: Drop, Chan: in, Next: next(t.l(0))})
		t.at(3, &Instr{Op: Close, Chan: out, Next: next(t.l(4))})
		t.at(4, &Instr{Op: Exit})
		return t.done([]string{in}, []string{out}, HeapVar{Name: v})
	}
	p, q := mk("p", "a", "b"), mk("q", "b", "a")
	_, err := FuseNetwork(&Network{Procs: []*Process{p, q}, Outputs: []string{"a", "b"}}, MaxStates)
	var fe *FusionError
	if !errors.As(err, &fe) {
		t.Fatalf("want a FusionError, got %v", err)
	}
	if !strings.Contains(fe.Reason, "static deadlock") || len(fe.Chans) != 2 || len(fe.Partial) != 2 {
		t.Errorf("error %q, channels %v, %d partial processes", fe.Error(), fe.Chans, len(fe.Partial))
	}
	if !strings.Contains(fe.Error(), "p waits to pull from a") || !strings.Contains(fe.Error(), "q waits to pull from b") {
		t.Errorf("the message does not say what each waits for: %s", fe.Error())
	}
}

// normalize2Clusters is the optimal clustering of examples/normalize2.cnf.
func normalize2Clusters(t *testing.T) *cluster.Result {
	t.Helper()
	src, err := os.ReadFile("../examples/normalize2.cnf")
	if err != nil {
		t.Fatal(err)
	}
	r := infer.Analyze("n.cnf", src).Funcs[0]
	res, err := cluster.Solve(context.Background(), cluster.NewGraph(r), cluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// A cap on states is reported as a fusion failure, not a hang.
func TestStateCap(t *testing.T) {
	res := normalize2Clusters(t)
	net, err := BuildNetwork(res.Clusters[0])
	if err != nil {
		t.Fatal(err)
	}
	_, err = FuseNetwork(net, 3)
	var fe *FusionError
	if !errors.As(err, &fe) || !strings.Contains(fe.Reason, "more than 3 states") {
		t.Fatalf("want a state-cap failure, got %v", err)
	}
}

// The printed process of normalize2's first loop reads like Listing 4.4: joint labels, heap
// updates on instructions, and the sources named.
func TestListingStyle(t *testing.T) {
	res := normalize2Clusters(t)
	f := FuseClusters(res.Clustering, MaxStates)[0]
	if f.Process == nil {
		t.Fatal(f.Err)
	}
	var b bytes.Buffer
	WriteProcess(&b, f.Process, true)
	for _, want := range []string{
		"process -- ", "sum1 = fold (+) 0 xs", "gts = filter (> 0) xs", "sum2 = fold (+) 0 gts",
		"{ ins:    { xs }", ", outs:   { sum1, sum2 }",
		"sum1.s = sum1.s + sum1.v", "case (gts.v > 0)", "SharedPullInject", "push sum2 sum2.s", "exit",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("printed process lacks %q:\n%s", want, b.String())
		}
	}
}

// A run whose arrays of sizes known in advance pass the element limit is refused before any
// loop runs, as the reference refuses it: a network reached the limit only by pushing, element
// by element (70 s and 5.6 GB for a generate of 10^8). The context is over before the call, so a
// loop that ran would end with the context's error instead; at the limit exactly, one does.
func TestElementLimitBeforeAnyLoop(t *testing.T) {
	src := "big :: Int -> [Int]\nbig n = let xs = generate n (\\i -> i * 2)\n            ys = map (\\x -> x + 1) xs\n        in ys\n"
	prog := infer.Analyze("big.cnf", []byte(src))
	if len(prog.Funcs) != 1 || !prog.Funcs[0].OK() {
		t.Fatalf("the program does not analyse: %v", prog.Diagnostics)
	}
	r := prog.Funcs[0]
	rep, err := cluster.Analyze(context.Background(), r, cluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, c := range []struct {
		n    int64
		over bool
	}{{MaxElements/2 + 1, true}, {MaxElements + 1, true}, {1<<63 - 1, true}, {MaxElements / 2, false}} {
		for _, mode := range []Mode{RunNetwork, RunFused} {
			_, err := RunClusters(ctx, r.Func, rep.Ours.Clustering, map[string]Value{"n": c.n}, nil, mode)
			if IsElementLimit(err) != c.over {
				t.Errorf("n = %d, mode %d: %v; want the element limit: %v", c.n, mode, err, c.over)
			}
		}
	}
}
