package cluster

import (
	"context"
	"math"
	"testing"

	"github.com/cnf-tools/cnf/syntax/gen"
)

// A loop that starts from the binding cuts of one stopped part-way continues it: its first
// relaxation has the bound the first loop ended with, where the loop from the model alone starts
// far below it. Cuts carried to another model are dropped.
func TestCarriedCutsContinueTheLoop(t *testing.T) {
	if !Linked() {
		t.Skip("the root cuts need HiGHS linked in")
	}
	g := generatedGraph(t, 3, gen.Options{Bindings: 100, Shape: "fans"})
	m := Formulate(g, FormulateOptions{})
	first := newMeter(context.Background(), 150e3) // a few rounds, not the loop's end
	stopped, err := m.strengthen(first, first, defaultLoop(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if stopped.converged || stopped.rounds < 2 || len(stopped.binding) == 0 {
		t.Fatalf("the first loop: converged %v after %d rounds, %d binding cuts; want it stopped part-way with cuts", stopped.converged, stopped.rounds, len(stopped.binding))
	}
	once := func(from *Cuts) *rootResult {
		w := newMeter(context.Background(), 60e6)
		root, err := m.strengthen(w.until(0), w, defaultLoop(), from)
		if err != nil {
			t.Fatal(err)
		}
		if root.rounds != 1 {
			t.Fatalf("%d rounds, want the first relaxation only", root.rounds)
		}
		return root
	}
	cuts := cutsOf(m, stopped.binding, stopped.bindingLazy)
	fresh, carried := once(nil), once(cuts)
	if math.Abs(carried.firstBound-stopped.bound) > 1e-6*math.Abs(stopped.bound) {
		t.Errorf("the carried loop's first bound %.1f, want the stopped loop's last %.1f", carried.firstBound, stopped.bound)
	}
	if fresh.firstBound >= stopped.bound-1 {
		t.Errorf("the loop from the model alone starts at %.1f, not below the stopped loop's %.1f: the program does not test carrying", fresh.firstBound, stopped.bound)
	}

	if got := cuts.forModel(m); got != cuts {
		t.Errorf("the same model does not take its cuts")
	}
	other := Formulate(generatedGraph(t, 4, gen.Options{Bindings: 100, Shape: "fans"}), FormulateOptions{})
	if got := cuts.forModel(other); got != nil {
		t.Errorf("another graph's model takes %d cuts, want none", len(got.list))
	}
	if got := cuts.forModel(Formulate(g, FormulateOptions{SameSizeOnly: true})); got != nil {
		t.Errorf("the Megiddo-Sarkar model takes %d cuts, want none", len(got.list))
	}
}
