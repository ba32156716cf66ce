package fuse

import (
	"context"

	"github.com/cnf-tools/cnf/infer"
	"github.com/cnf-tools/cnf/syntax"
)

// FilterCount is what one filter read and kept in a run.
type FilterCount struct {
	Read, Kept int64
}

// Rate is the fraction of what it read that the filter kept (1 when it read nothing: an empty
// input says nothing against the figure's weight).
func (c FilterCount) Rate() float64 {
	if c.Read <= 0 {
		return 1
	}
	return float64(c.Kept) / float64(c.Read)
}

// Profile runs the reference semantics (RunReference) and counts, for each filter it
// computed, the elements it read and kept, by the filter's binding name: the measured rates
// that the clustering's weights can use instead of guessing (cluster.Graph.SetRates; `cnf run
// --profile`). It returns the results as RunReference does. A filter whose output only a
// length needs is not computed, and not counted.
func Profile(ctx context.Context, sizes *infer.Result, inputs map[string]Value, ext Externals) (map[string]Value, map[string]FilterCount, error) {
	vals, err := runBindings(ctx, sizes, inputs, ext, false)
	if err != nil {
		return nil, nil, err
	}
	counts := map[string]FilterCount{}
	for _, b := range sizes.Func.Order {
		f, ok := b.Rhs.(*syntax.Filter)
		if !ok || f.Array == nil {
			continue
		}
		in, ok1 := vals[f.Array.Name].(Array)
		out, ok2 := vals[b.Name()].(Array)
		if ok1 && ok2 {
			counts[b.Name()] = FilterCount{Read: int64(len(in)), Kept: int64(len(out))}
		}
	}
	return results(sizes.Func, vals), counts, nil
}
