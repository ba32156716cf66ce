package codegen

import (
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/cnf-tools/cnf/cluster"
	"github.com/cnf-tools/cnf/fuse"
	"github.com/cnf-tools/cnf/infer"
	"github.com/cnf-tools/cnf/syntax"
	"github.com/cnf-tools/cnf/syntax/gen"
	"github.com/cnf-tools/cnf/types"
)

// FuzzCompiled feeds arbitrary source text and input data to the compiler: every definition
// that can be compiled (no host functions) is compiled, and the C compiler must accept it, and
// run on inputs made from the data it must agree with the reference interpreter, failing
// exactly when it fails. A definition the code generator refuses must be refused with a located
// CompileError. Each execution runs the C compiler, so budgets are small (test.bash: 2000x).
//
//	go test ./codegen -run '^$' -fuzz FuzzCompiled -fuzztime 500x
func FuzzCompiled(f *testing.F) {
	examples, _ := filepath.Glob("../examples/*.cnf")
	for _, path := range examples {
		if src, err := os.ReadFile(path); err == nil {
			f.Add(src, []byte{3, 1, 4, 1, 5, 9, 2, 6})
		}
	}
	for seed := uint64(1); seed <= 8; seed++ {
		src := gen.Program(rand.New(rand.NewPCG(seed, 43)), gen.Options{Bindings: 1 + int(seed%10), NoExternals: true})
		f.Add([]byte(src), []byte{byte(seed), 0, 7, 2, 8, 255, 3})
	}
	// As cnf gen writes them: a loop that reads an input and an array mapped from it apart
	// (lengths.go; 14 bindings, seed 2), and a loop whose processes do not fuse, split at its
	// cross (split.go; 20 bindings, seed 32).
	for _, p := range [][2]uint64{{14, 2}, {20, 32}} {
		src := gen.Program(rand.New(rand.NewPCG(p[1], 0x636e66)), gen.Options{Bindings: int(p[0]), NoExternals: true})
		f.Add([]byte(src), []byte{5, 3, 9, 1, 4, 7, 2, 8})
	}
	f.Fuzz(func(t *testing.T, src, data []byte) {
		t.Setenv("CNF_CACHE", t.TempDir())
		prog := infer.Analyze("fuzz.cnf", src)
		for _, r := range prog.Funcs {
			if r == nil || !r.OK() || len(r.Func.Def.Bindings) > 30 {
				continue
			}
			rep, err := cluster.Analyze(context.Background(), r, cluster.Options{TimeLimit: 300 * time.Millisecond})
			if err != nil {
				t.Fatalf("clustering: %v", err)
			}
			in := bytesInputs(r, data)
			ref, refErr := fuse.RunReference(context.Background(), r, in, fuse.DefaultExternals())
			// On one thread and on teams of 2 and 3 (every input split: MinChunk 1).
			for _, threads := range []int{1, 2, 3} {
				got, err := Run(context.Background(), r, rep.Ours.Clustering, in, Options{Threads: threads, MinChunk: 1})
				var ce *CompileError
				var re *RunError
				switch {
				case errors.As(err, &ce):
					continue
				case err != nil && !errors.As(err, &re):
					t.Fatalf("%s: %v", r.Func.Def.Name.Name, err)
				}
				switch {
				case (refErr == nil) != (err == nil):
					t.Fatalf("compiled on %d threads gives error %v, the reference %v\ninputs%s", threads, err, refErr, show(in))
				case refErr == nil && !same(ref, got):
					t.Fatalf("compiled on %d threads differs:\n got%s\nwant%s\ninputs%s", threads, show(got), show(ref), show(in))
				}
			}
		}
	})
}

// bytesInputs makes inputs of the parameters' types from fuzz data: array lengths (one per size
// of the scheme) and elements from the bytes; missing data gives zeros.
func bytesInputs(r *infer.Result, data []byte) map[string]fuse.Value {
	next := func() int64 {
		if len(data) == 0 {
			return 0
		}
		b := data[0]
		data = data[1:]
		return int64(int8(b))
	}
	var value func(t *types.Type) fuse.Value
	value = func(t *types.Type) fuse.Value {
		switch t.Kind() {
		case "Float":
			return float64(next()) / 4
		case "Bool":
			return next()&1 == 1
		case "Tuple":
			tu := make(fuse.Tuple, len(t.Elems()))
			for i, e := range t.Elems() {
				tu[i] = value(e)
			}
			return tu
		}
		return next() % 16
	}
	in := map[string]fuse.Value{}
	lengths := map[string]int{}
	for _, p := range r.Func.Params {
		t := r.Types.Types[p.Name]
		if p.Kind != syntax.Array {
			in[p.Name] = value(t)
			continue
		}
		size := r.FormatSize(r.Size(p.Name), false)
		n, ok := lengths[size]
		if !ok {
			n = int(uint8(next()) % 9)
			lengths[size] = n
		}
		arr := make(fuse.Array, n)
		for i := range arr {
			arr[i] = value(t.Elem())
		}
		in[p.Name] = arr
	}
	return in
}
