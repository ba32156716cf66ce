package present

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/cnf-tools/cnf/cluster"
	"github.com/cnf-tools/cnf/infer"
	"github.com/cnf-tools/cnf/internal/golden"
)

// TestExamplesGolden: the clustering report of every example (without solve times), and the
// DOT diagram of normalize2, whole and collapsed. go test -update rewrites them; review the
// diff.
func TestExamplesGolden(t *testing.T) {
	golden.ForEachExample(t, "../../examples", func(t *testing.T, name string, src []byte) {
		prog := infer.Analyze(name+".cnf", src)
		var b bytes.Buffer
		for i, r := range prog.Funcs {
			if r == nil || !r.OK() {
				b.WriteString(prog.Syntax.Funcs[i].Def.Name.Name + ": not clustered (it has errors)\n")
				continue
			}
			rep, err := cluster.Analyze(context.Background(), r, cluster.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if problems := cluster.Validate(rep.Graph, rep.Ours.Of, false); len(problems) > 0 {
				t.Errorf("%s: invalid clustering: %v", r.Func.Def.Name.Name, problems)
			}
			WriteText(&b, rep, false)
		}
		golden.File(t, filepath.Join("testdata", "examples", name+".golden"), b.Bytes())
	})
	src, err := os.ReadFile("../../examples/normalize2.cnf")
	if err != nil {
		t.Fatal(err)
	}
	res, err := cluster.Solve(context.Background(), cluster.NewGraph(sizesOf(t, string(src))), cluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var dot bytes.Buffer
	if err := WriteDOT(&dot, res.Clustering, DOTOptions{Title: "normalize2", Legend: true}); err != nil {
		t.Fatal(err)
	}
	golden.File(t, filepath.Join("testdata", "normalize2.dot"), dot.Bytes())
	dot.Reset()
	if err := WriteDOT(&dot, res.Clustering, DOTOptions{Title: "normalize2", Legend: true, Collapse: true}); err != nil {
		t.Fatal(err)
	}
	golden.File(t, filepath.Join("testdata", "normalize2-collapsed.dot"), dot.Bytes())
}
