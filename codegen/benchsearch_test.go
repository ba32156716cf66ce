package codegen

import (
	"testing"

	"github.com/cnf-tools/cnf/infer"
)

// TestLocate reads the harness's failures as positions in the program and distances from the
// indexed array's bounds, and orders them: later in the program first, then nearer.
func TestLocate(t *testing.T) {
	src := `p :: Array Int -> Array Int -> Array Int
p xs ys =
  let is = map (\x -> x + 1) xs
      a = gather ys is
      b = gather a is
  in  b
`
	r := infer.Analyze("p.cnf", []byte(src)).Funcs[0]
	for _, tc := range []struct {
		msg      string
		at       int
		dist     int64
		better   string // a message this one is better than
		notAfter string // a message this one is not better than
	}{
		{msg: "a: index -5 out of range for an array of 10 elements", at: 1, dist: 5, better: "a: index -50 out of range for an array of 10 elements", notAfter: "b: index -50 out of range for an array of 10 elements"},
		{msg: "a: index 12 out of range for an array of 10 elements", at: 1, dist: 3, better: "a: index 13 out of range for an array of 10 elements", notAfter: "a: index -1 out of range for an array of 10 elements"},
		{msg: "b: division by zero", at: 2, better: "a: index 0 out of range for an array of 0 elements", notAfter: "b: division by zero"},
		{msg: "somewhere else: failed", at: -1, dist: 0, notAfter: "is: index 1 out of range for an array of 0 elements"},
	} {
		f := locate(r, tc.msg)
		if f.at != tc.at || f.dist != tc.dist {
			t.Errorf("locate(%q) = at %d, %d away; want at %d, %d away", tc.msg, f.at, f.dist, tc.at, tc.dist)
		}
		if tc.better != "" && !f.better(locate(r, tc.better)) {
			t.Errorf("%q is not better than %q", tc.msg, tc.better)
		}
		if tc.notAfter != "" && f.better(locate(r, tc.notAfter)) {
			t.Errorf("%q is better than %q", tc.msg, tc.notAfter)
		}
	}
}
