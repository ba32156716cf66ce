package fuse

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/cnf-tools/cnf/cluster"
	"github.com/cnf-tools/cnf/infer"
	"github.com/cnf-tools/cnf/internal/rapidgen"
	"github.com/cnf-tools/cnf/syntax/gen"
	"pgregory.net/rapid"
)

// The readable print of any fused process names every state once, s0 to s(n-1) in order, s0
// being the start; every "->" goes to a state it prints; and each state's comment is its
// joint label, so nothing of the listing is lost.
func TestReadableNamesEveryStateOnce(t *testing.T) {
	state := regexp.MustCompile(`(?m)^(s\d+): +(.*?) +-- (.*)$`)
	target := regexp.MustCompile(`-> (s\d+)`)
	rapid.Check(t, func(t *rapid.T) {
		src := rapidgen.Program(t, gen.Options{Bindings: rapid.IntRange(1, 12).Draw(t, "bindings")})
		r := infer.Analyze("gen.cnf", []byte(src)).Funcs[0]
		if r == nil || !r.OK() {
			t.Fatalf("rejected:\n%s", src)
		}
		res, err := cluster.Solve(context.Background(), cluster.NewGraph(r), cluster.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range FuseClusters(res.Clustering, MaxStates) {
			if f.Process == nil {
				continue
			}
			var b bytes.Buffer
			WriteReadable(&b, f.Process)
			out := b.String()
			states := state.FindAllStringSubmatch(out, -1)
			if len(states) != f.Process.States() {
				t.Fatalf("%d states printed of %d:\n%s", len(states), f.Process.States(), out)
			}
			names := map[string]bool{}
			for i, s := range states {
				if s[1] != fmt.Sprintf("s%d", i) {
					t.Fatalf("state %d printed as %s:\n%s", i, s[1], out)
				}
				names[s[1]] = true
				if _, ok := f.Process.Instrs[Label(s[3])]; !ok {
					t.Fatalf("comment %q is not a label of the process", s[3])
				}
			}
			if states[0][3] != string(f.Process.Start) {
				t.Fatalf("s0 is %s, the start is %s", states[0][3], f.Process.Start)
			}
			for _, m := range target.FindAllStringSubmatch(out, -1) {
				if !names[m[1]] {
					t.Fatalf("-> %s goes nowhere:\n%s", m[1], out)
				}
			}
		}
	})
}

// The main path of a loop comes first: in a map's process, pull (s0), push (s1) and drop (s2)
// are one pass, before what happens when the input closes.
func TestReadableControlFlowOrder(t *testing.T) {
	r := infer.Analyze("m.cnf", []byte("m xs = let ys = map (\\x -> x + 1) xs in ys\n")).Funcs[0]
	res, err := cluster.Solve(context.Background(), cluster.NewGraph(r), cluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	WriteReadable(&b, FuseClusters(res.Clustering, MaxStates)[0].Process)
	var ops []string
	for _, line := range strings.Split(b.String(), "\n") {
		if f := strings.Fields(line); len(f) > 1 && strings.HasPrefix(f[0], "s") {
			ops = append(ops, f[1])
		}
	}
	if want := "pull push drop close exit"; strings.Join(ops, " ") != want {
		t.Errorf("states in order %v, want %s:\n%s", ops, want, b.String())
	}
}
