//go:build !cgo

package highs

import "context"

// Version is empty: no HiGHS is linked.
func Version() string { return "" }

// Solve always returns ErrUnavailable in a build without cgo.
func Solve(ctx context.Context, p *Problem, opts Options) (*Result, error) {
	return nil, ErrUnavailable
}

// SolveFile always returns ErrUnavailable in a build without cgo.
func SolveFile(ctx context.Context, path string, opts Options) (*Result, error) {
	return nil, ErrUnavailable
}
