package fuse

import (
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/cnf-tools/cnf/cluster"
	"github.com/cnf-tools/cnf/infer"
	"github.com/cnf-tools/cnf/internal/present"
	"github.com/cnf-tools/cnf/syntax"
	"github.com/cnf-tools/cnf/syntax/gen"
)

// FuzzPipeline feeds arbitrary source text and input data through every stage: the front end,
// size inference, clustering, fusion, and the three semantics, which must agree (as in
// TestThreeSemanticsAgree, but on programs the generator would not write). It is seeded with
// the examples and with generated programs. Programs of more than 40 bindings are skipped to
// keep each run short; the solver gets 300 ms.
//
//	go test ./fuse -run '^$' -fuzz FuzzPipeline -fuzztime 3m
func FuzzPipeline(f *testing.F) {
	examples, _ := filepath.Glob("../examples/*.cnf")
	for _, path := range examples {
		if src, err := os.ReadFile(path); err == nil {
			f.Add(src, []byte{3, 1, 4, 1, 5, 9, 2, 6})
		}
	}
	f.Add([]byte("f xs =\n  let n = length xs\n  in  n\n"), []byte{2, 1, 1}) // no loop at all
	for seed := uint64(1); seed <= 16; seed++ {
		src := gen.Program(rand.New(rand.NewPCG(seed, 42)), gen.Options{Bindings: 1 + int(seed%12), NoExternals: true})
		f.Add([]byte(src), []byte{byte(seed), 0, 7, 2, 8})
	}
	f.Fuzz(func(t *testing.T, src, data []byte) {
		prog := infer.Analyze("fuzz.cnf", src)
		for _, r := range prog.Funcs {
			if r == nil || !r.OK() || len(r.Func.Def.Bindings) > 40 {
				continue
			}
			rep, err := cluster.Analyze(context.Background(), r, cluster.Options{TimeLimit: 300 * time.Millisecond})
			if err != nil {
				t.Fatalf("clustering: %v", err)
			}
			// The printed forms never fail either (cnf ilp, cnf ilp --paper, cnf dot).
			for _, paper := range []bool{false, true} {
				if err := cluster.WriteLP(io.Discard, cluster.Formulate(rep.Graph, cluster.FormulateOptions{Paper: paper}), "fuzz"); err != nil {
					t.Fatalf("WriteLP: %v", err)
				}
			}
			if err := present.WriteDOT(io.Discard, rep.Ours.Clustering, present.DOTOptions{Title: "fuzz", Legend: true}); err != nil {
				t.Fatalf("WriteDOT: %v", err)
			}
			for _, fu := range FuseClusters(rep.Ours.Clustering, MaxStates) {
				var fe *FusionError
				if fu.Err != nil && !errors.As(fu.Err, &fe) {
					t.Fatalf("fusion broke: %v", fu.Err)
				}
			}
			inputs := fuzzInputs(r, data)
			ref, refErr := RunReference(context.Background(), r, inputs, DefaultExternals())
			var unknown *UnknownHostError
			if errors.As(refErr, &unknown) {
				continue
			}
			agree(t, r, rep.Ours.Clustering, inputs, DefaultExternals(), ref, refErr, string(src))
		}
	})
}

// fuzzInputs makes integer inputs from fuzz data: each array parameter takes its length and
// elements from the data (arrays of one size in the scheme get one length), each scalar one
// value; missing data gives zeros.
func fuzzInputs(r *infer.Result, data []byte) map[string]Value {
	next := func() int64 {
		if len(data) == 0 {
			return 0
		}
		b := data[0]
		data = data[1:]
		return int64(int8(b))
	}
	inputs := map[string]Value{}
	lengths := map[string]int{}
	for _, p := range r.Func.Params {
		if p.Kind != syntax.Array {
			inputs[p.Name] = next() % 8
			continue
		}
		size := r.FormatSize(r.Size(p.Name), false)
		n, ok := lengths[size]
		if !ok {
			n = int(uint8(next()) % 9)
			lengths[size] = n
		}
		arr := make(Array, n)
		for i := range arr {
			arr[i] = next() % 16
		}
		inputs[p.Name] = arr
	}
	return inputs
}
