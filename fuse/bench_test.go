package fuse

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/cnf-tools/cnf/cluster"
	"github.com/cnf-tools/cnf/infer"
)

// shapes of benchmark programs: a pipeline of maps ending in a filter and a fold, and many
// consumers (maps and folds) of one input. Each program is one loop.
func benchSource(shape string, n int) string {
	var b strings.Builder
	b.WriteString("f xs =\n  let ")
	var results []string
	switch shape {
	case "pipeline":
		prev := "xs"
		for i := 1; i < n; i++ {
			fmt.Fprintf(&b, "m%d = map (+ %d) %s\n      ", i, i, prev)
			prev = fmt.Sprintf("m%d", i)
		}
		fmt.Fprintf(&b, "s = fold (+) 0 %s\n", prev)
		results = append(results, "s")
	case "consumers":
		for i := 1; i <= n; i++ {
			if i%2 == 0 {
				fmt.Fprintf(&b, "c%d = fold max %d xs\n      ", i, i)
			} else {
				fmt.Fprintf(&b, "c%d = map (* %d) xs\n      ", i, i)
			}
			results = append(results, fmt.Sprintf("c%d", i))
		}
	}
	fmt.Fprintf(&b, "in  (%s)\n", strings.Join(results, ", "))
	return strings.ReplaceAll(b.String(), "\n      in", "\n  in")
}

// BenchmarkFusion reports the states of the fused process and the time to fuse, against the
// number of fused combinators. docs/performance.md has the numbers.
//
//	go test ./fuse -run '^$' -bench Fusion
func BenchmarkFusion(b *testing.B) {
	for _, shape := range []string{"pipeline", "consumers"} {
		for _, n := range []int{2, 5, 10, 20} {
			b.Run(fmt.Sprintf("%s/combinators=%d", shape, n), func(b *testing.B) {
				src := benchSource(shape, n)
				prog := infer.Analyze("bench.cnf", []byte(src))
				r := prog.Funcs[0]
				if r == nil || !r.OK() {
					b.Fatalf("rejected:\n%s\n%v", src, prog.Diagnostics)
				}
				res, err := cluster.Solve(context.Background(), cluster.NewGraph(r), cluster.Options{})
				if err != nil || res.Loops() != 1 {
					b.Fatalf("expected one loop, got %v (%v)", res, err)
				}
				var p *Process
				for i := 0; i < b.N; i++ {
					net, err := BuildNetwork(res.Clusters[0])
					if err != nil {
						b.Fatal(err)
					}
					if p, err = FuseNetwork(net, MaxStates); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(p.States()), "states")
			})
		}
	}
}
