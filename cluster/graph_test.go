package cluster

import (
	"sync"
	"testing"

	"github.com/cnf-tools/cnf/syntax/gen"
)

// The memoised concestor answers are the sizes' answers, asked in either order, from
// several goroutines at once (racing solves share a graph).
func TestConcestorMemoAgrees(t *testing.T) {
	for _, shape := range []string{"", "sizes", "mixed"} {
		for seed := uint64(1); seed <= 3; seed++ {
			g := generatedGraph(t, seed, gen.Options{Bindings: 60, Shape: shape})
			n := len(g.Nodes)
			var wg sync.WaitGroup
			for range 2 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for a := 0; a < n; a++ {
						for b := 0; b < n; b++ {
							A, B, ok := g.PossibleConcestors(a, b)
							wA, wB, wok := g.possibleConcestors(a, b)
							if ok != wok || ok && (A != wA || B != wB) {
								t.Errorf("shape %q seed %d: PossibleConcestors(%d, %d) = %d, %d, %v; the sizes say %d, %d, %v", shape, seed, a, b, A, B, ok, wA, wB, wok)
								return
							}
						}
					}
				}()
			}
			wg.Wait()
		}
	}
}
