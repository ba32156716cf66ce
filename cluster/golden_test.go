package cluster

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/cnf-tools/cnf/internal/golden"
)

// TestLPGolden: the LP text of normalize2's model. go test -update rewrites it; review the
// diff. (The report of every example and the diagram are package present's goldens.)
func TestLPGolden(t *testing.T) {
	r := sizesOf(t, example(t, "normalize2"))
	g := NewGraph(r)
	var lp bytes.Buffer
	if err := WriteLP(&lp, Formulate(g, FormulateOptions{}), "clustering ILP of normalize2"); err != nil {
		t.Fatal(err)
	}
	golden.File(t, filepath.Join("testdata", "normalize2.lp"), lp.Bytes())
}
