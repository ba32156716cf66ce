package codegen

import (
	"context"
	"fmt"

	"github.com/cnf-tools/cnf/cluster"
	"github.com/cnf-tools/cnf/fuse"
	"github.com/cnf-tools/cnf/infer"
)

// Run is the fourth semantics: the definition compiled under the clustering, run on inputs,
// with the results (or the run-time error) of the reference interpreter. Inputs are checked and
// typed as the interpreter types them (fuse.TypedInputs).
func Run(ctx context.Context, r *infer.Result, cl *cluster.Clustering, inputs map[string]fuse.Value, opts Options) (map[string]fuse.Value, error) {
	if err := fuse.CheckInputs(r.Func, inputs); err != nil {
		return nil, err
	}
	f, err := Emit(r, cl, opts, HarnessMain)
	if err != nil {
		return nil, err
	}
	vals := fuse.TypedInputs(r.Types, inputs)
	var in []byte
	for _, p := range f.Unit.Params {
		if in, err = Encode(in, vals[p.Name], p.Type); err != nil {
			return nil, fmt.Errorf("parameter %s: %w", p.Name, err)
		}
	}
	exe, err := Build(ctx, f.Source)
	if err != nil {
		return nil, err
	}
	out, err := execEnv(ctx, exe, in, threadEnv(opts.Threads, opts.MinChunk))
	if err != nil {
		return nil, err
	}
	res := map[string]fuse.Value{}
	for _, p := range f.Unit.Results {
		var v fuse.Value
		if v, out, err = Decode(out, p.Type); err != nil {
			return nil, fmt.Errorf("result %s: %w", p.Name, err)
		}
		res[p.Name] = v
	}
	return res, nil
}

// threadEnv is the environment that gives a harness its threads (cnf_threads_from_env).
func threadEnv(threads int, minChunk int64) []string {
	var env []string
	if threads > 0 {
		env = append(env, fmt.Sprintf("CNF_THREADS=%d", threads))
	}
	if minChunk > 0 {
		env = append(env, fmt.Sprintf("CNF_MIN_CHUNK=%d", minChunk))
	}
	return env
}
