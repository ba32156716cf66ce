package cluster

import (
	"regexp"
	"testing"

	"pgregory.net/rapid"
)

// lpSafe must name columns and rows exactly as the regular expression it replaced did: LP
// files written before and after stay the same.
func TestLPSafeIsTheRegexp(t *testing.T) {
	unsafe := regexp.MustCompile(`[^A-Za-z0-9_]`)
	for _, s := range []string{"", "b12", "xs'", "x_y", "α1", "a b", "\xff\xfez", "sum'''"} {
		if got, want := lpSafe(s), unsafe.ReplaceAllString(s, "_"); got != want {
			t.Errorf("lpSafe(%q) = %q, want %q", s, got, want)
		}
	}
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.String().Draw(t, "s")
		if got, want := lpSafe(s), unsafe.ReplaceAllString(s, "_"); got != want {
			t.Fatalf("lpSafe(%q) = %q, want %q", s, got, want)
		}
	})
}
