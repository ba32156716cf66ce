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

// Every column and row of a formulated model has a name of its own, on random programs (whose
// names take formulate's unchecked path) and on one whose names meet in the LP format
// (xs' and xs_ are both xs_; a_b holds the separator).
func TestModelNamesAreUnique(t *testing.T) {
	check := func(t interface{ Fatalf(string, ...any) }, m *Model) {
		seen := map[string]bool{}
		for _, v := range m.Vars {
			if seen[v.Name] {
				t.Fatalf("two columns named %s", v.Name)
			}
			seen[v.Name] = true
		}
		for _, r := range m.Rows {
			if seen[r.Name] {
				t.Fatalf("two rows (or a row and a column) named %s", r.Name)
			}
			seen[r.Name] = true
		}
	}
	g := NewGraph(sizesOf(t, `f :: Array Int -> Int -> (Array Int, Array Int, Int)
f xs n =
  let xs' = filter (\x -> x > n) xs
      xs_ = map (\x -> x + 1) xs
      a_b = map (\x -> x * 2) xs'
      a = map (\x -> x - 1) xs_
      b_c = fold (+) 0 a_b
  in  (a, xs_, b_c)
`))
	if plainNames(g) {
		t.Fatal("xs' and xs_ meet in the LP format, yet the names count as plain")
	}
	for _, opts := range []FormulateOptions{{}, {SameSizeOnly: true}, {Paper: true}} {
		check(t, Formulate(g, opts))
	}
	rapid.Check(t, func(t *rapid.T) {
		_, g, sameSize := genGraph(t, 30)
		check(t, Formulate(g, FormulateOptions{SameSizeOnly: sameSize}))
		check(t, Formulate(g, FormulateOptions{SameSizeOnly: sameSize, NoCuts: true}))
	})
}
