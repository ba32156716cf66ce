package cluster

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"

	"github.com/cnf-tools/cnf/infer"
	"github.com/cnf-tools/cnf/internal/golden"
)

// TestExamplesGolden: the clustering report of every example (without solve times), and the
// LP text and DOT diagram of normalize2. go test -update rewrites them; review the diff.
func TestExamplesGolden(t *testing.T) {
	golden.ForEachExample(t, "../examples", func(t *testing.T, name string, src []byte) {
		prog := infer.Analyze(name+".cnf", src)
		var b bytes.Buffer
		for i, r := range prog.Funcs {
			if r == nil || !r.OK() {
				b.WriteString(prog.Syntax.Funcs[i].Def.Name.Name + ": not clustered (it has errors)\n")
				continue
			}
			rep, err := Analyze(context.Background(), r, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if problems := Validate(rep.Graph, rep.Ours.Of, false); len(problems) > 0 {
				t.Errorf("%s: invalid clustering: %v", r.Func.Def.Name.Name, problems)
			}
			rep.WriteText(&b, false)
		}
		golden.File(t, filepath.Join("testdata", "examples", name+".golden"), b.Bytes())
	})
	r := sizesOf(t, example(t, "normalize2"))
	g := NewGraph(r)
	var lp bytes.Buffer
	if err := WriteLP(&lp, Formulate(g, FormulateOptions{}), "clustering ILP of normalize2"); err != nil {
		t.Fatal(err)
	}
	golden.File(t, filepath.Join("testdata", "normalize2.lp"), lp.Bytes())
	res, err := Solve(context.Background(), g, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var dot bytes.Buffer
	if err := WriteDOT(&dot, res.Clustering, DOTOptions{Title: "normalize2", Legend: true}); err != nil {
		t.Fatal(err)
	}
	golden.File(t, filepath.Join("testdata", "normalize2.dot"), dot.Bytes())
}
