// Package rapidgen lets property tests draw generated programs (package syntax/gen) from
// pgregory.net/rapid, so that a failing program shrinks. It is for tests only: the shipped
// command does not link rapid.
package rapidgen

import (
	"pgregory.net/rapid"

	"github.com/cnf-tools/cnf/syntax/gen"
)

// Rand draws every choice from t.
type Rand struct{ T *rapid.T }

// IntN draws a choice in [0, n).
func (r Rand) IntN(n int) int { return rapid.IntRange(0, n-1).Draw(r.T, "choice") }

var _ gen.Rand = Rand{}

// Program is a generated program drawn from t. Unless opts names a shape, the generator is
// drawn too: the classic mix or one of the second generator's shapes (gen.Shapes), so every
// property holds on programs of both.
func Program(t *rapid.T, opts gen.Options) string {
	if opts.Shape == "" {
		opts.Shape = rapid.SampledFrom(append([]string{""}, gen.Shapes...)).Draw(t, "shape")
	}
	return gen.Program(Rand{T: t}, opts)
}
