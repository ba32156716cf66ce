//go:build !cgo

package highs

import (
	"context"
	"time"
)

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

// LP is not available without cgo.
type LP struct{}

// NewLP always returns ErrUnavailable in a build without cgo.
func NewLP(p *Problem) (*LP, error) { return nil, ErrUnavailable }

// Solve always returns ErrUnavailable in a build without cgo.
func (lp *LP) Solve(ctx context.Context, limit time.Duration, iterations int64) (*Result, error) {
	return nil, ErrUnavailable
}

// Rows is 0 without cgo.
func (lp *LP) Rows() int { return 0 }

// Nonzeros is 0 without cgo.
func (lp *LP) Nonzeros() int { return 0 }

// AddRows always returns ErrUnavailable in a build without cgo.
func (lp *LP) AddRows(rows []Row) error { return ErrUnavailable }

// DeleteRows needs cgo.
func (lp *LP) DeleteRows(indices []int) error { return ErrUnavailable }
