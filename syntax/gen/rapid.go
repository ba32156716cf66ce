package gen

import "pgregory.net/rapid"

// RapidRand draws every choice from a rapid.T, so that rapid can shrink a failing program.
type RapidRand struct{ T *rapid.T }

// IntN draws an integer in [0, n).
func (r RapidRand) IntN(n int) int { return rapid.IntRange(0, n-1).Draw(r.T, "choice") }
