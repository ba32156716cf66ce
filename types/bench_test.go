package types_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cnf-tools/cnf/syntax"
	"github.com/cnf-tools/cnf/types"
)

// Type checking a file of 10,000 small definitions, after the front end (compare with
// syntax's BenchmarkAnalyze on the same shape).
func BenchmarkCheckManyDefinitions(b *testing.B) {
	var src strings.Builder
	for i := 0; i < 10000; i++ {
		fmt.Fprintf(&src, "f%d xs =\n  let ys = map (+ 1) xs\n      s  = fold (+) 0 ys\n  in  (ys, s)\n\n", i)
	}
	prog := syntax.Analyze("many.cnf", []byte(src.String()))
	b.ResetTimer()
	for range b.N {
		env := types.NewEnv(prog.File)
		for _, fn := range prog.Funcs {
			types.Check(fn, env)
		}
	}
}
