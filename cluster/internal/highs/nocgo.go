//go:build !cgo

package highs

import "context"

// Available reports whether HiGHS is linked into this build: not without cgo.
func Available() bool { return false }

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
