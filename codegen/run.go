package codegen

import (
	"bufio"
	"context"
	"fmt"
	"io"

	"github.com/cnf-tools/cnf/cluster"
	"github.com/cnf-tools/cnf/fuse"
	"github.com/cnf-tools/cnf/infer"
)

// Run is the fourth semantics: the definition compiled under the clustering, run on inputs,
// with the results (or the run-time error) of the reference interpreter. Inputs are checked and
// typed as the interpreter types them (fuse.TypedInputs).
func Run(ctx context.Context, r *infer.Result, cl *cluster.Clustering, inputs map[string]fuse.Value, opts Options) (map[string]fuse.Value, error) {
	f, exe, in, err := prepare(ctx, r, cl, inputs, opts)
	if err != nil {
		return nil, err
	}
	out, err := execEnv(ctx, exe, in, threadEnv(opts))
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
func threadEnv(opts Options) []string {
	var env []string
	if opts.Threads > 0 {
		env = append(env, fmt.Sprintf("CNF_THREADS=%d", opts.Threads))
	}
	if opts.MinChunk > 0 {
		env = append(env, fmt.Sprintf("CNF_MIN_CHUNK=%d", opts.MinChunk))
	}
	if opts.MinPeel > 0 {
		env = append(env, fmt.Sprintf("CNF_MIN_PEEL=%d", opts.MinPeel))
	}
	if opts.MinStream > 0 {
		env = append(env, fmt.Sprintf("CNF_STREAM_MIN=%d", opts.MinStream))
	}
	return env
}

// RunPrint is Run that prints the results rather than returning them: each as a line
// `name = value` (the value as fuse.FormatValue writes it), in the definition's order, written
// to w as the compiled program writes them, so that no result is held whole in cnf's own
// process (a result of 2^26 Ints took 6.4 GB there). Nothing is written when the run fails:
// the program writes its results only once the whole call has returned. A failure while they
// are written (the program killed) leaves what was written and returns the error.
func RunPrint(ctx context.Context, w io.Writer, r *infer.Result, cl *cluster.Clustering, inputs map[string]fuse.Value, opts Options) error {
	f, exe, in, err := prepare(ctx, r, cl, inputs, opts)
	if err != nil {
		return err
	}
	return execStream(ctx, exe, in, threadEnv(opts), func(out io.Reader) error {
		rd := bufio.NewReaderSize(out, 1<<16)
		if len(f.Unit.Results) > 0 {
			if _, err := rd.Peek(1); err != nil {
				return errShort // the run failed (execStream says how), or wrote nothing
			}
		}
		bw := bufio.NewWriterSize(w, 1<<16)
		for _, p := range f.Unit.Results {
			bw.WriteString(p.Name + " = ")
			if err := Print(bw, rd, p.Type); err != nil {
				bw.Flush()
				return fmt.Errorf("result %s: %w", p.Name, err)
			}
			bw.WriteByte('\n')
		}
		return bw.Flush()
	})
}

// prepare checks and encodes the inputs and builds the harness of Run and RunPrint.
func prepare(ctx context.Context, r *infer.Result, cl *cluster.Clustering, inputs map[string]fuse.Value, opts Options) (*File, string, []byte, error) {
	if err := fuse.CheckInputs(r.Func, inputs); err != nil {
		return nil, "", nil, err
	}
	f, err := Emit(r, cl, opts, HarnessMain)
	if err != nil {
		return nil, "", nil, err
	}
	vals := fuse.TypedInputs(r.Types, inputs)
	if err := fuse.ElementFloor(r, vals); err != nil {
		return nil, "", nil, &RunError{Message: err.Error()} // the reference refuses the run too
	}
	var in []byte
	for _, p := range f.Unit.Params {
		if in, err = Encode(in, vals[p.Name], p.Type); err != nil {
			return nil, "", nil, fmt.Errorf("parameter %s: %w", p.Name, err)
		}
	}
	exe, err := Build(ctx, f.Source)
	if err != nil {
		return nil, "", nil, err
	}
	return f, exe, in, nil
}
