package codegen

import (
	"fmt"
	"strings"
	"testing"
)

// A map over a filter is speculated (computed for every element the filter tests) unless the
// filter's test is the same for every element, which truth.go finds in the test's own
// expression: such a filter keeps all of its input or none of it, and when it keeps none, gcc
// deletes the loop's reads, as it does in a baseline's loop of the filter alone. Tests that
// could fail, or that a Float NaN decides, are not taken for constants.
func TestFilterOfUniformTestIsNotSpeculated(t *testing.T) {
	for _, c := range []struct {
		elem, test string
		uniform    bool
	}{
		{"Int", `x > x`, true},
		{"Int", `x /= x`, true},
		{"Int", `x > (if (if (x + x) > x then x else 3) /= (max x 3) then x else x)`, true},
		{"Int", `(x < x) && (x > 0)`, true},
		{"Int", `(x > 0) && (x > x)`, true},
		{"Int", `not (x == (x))`, true},
		{"Int", `if x > 3 then x < x else False`, true},
		{"Int", `if x > 3 then (abs x) < (abs x) else x /= x`, true},
		{"Int", `False`, true},
		{"Int", `x == x`, true},
		{"Float", `x < x`, true},
		{"Int", `((x - x) >= n) && (x == x)`, true},
		{"Int", `(x * 0) > n`, true},
		{"Int", `n > 3`, true},
		{"Int", `(n / 0) > 3`, true},               // fails, but for every element alike
		{"Int", `(x == (x - x)) && (x > 6)`, true}, // x is 0 and above 6 (ranges.go)
		{"Int", `(x < 3) && (x >= 5)`, true},
		{"Int", `(4 > x) && ((x + 1) > 9) && (9 <= x)`, true},
		{"Int", `((abs x) <= (2 * 3)) && (7 <= (abs x))`, true},
		{"Int", `(x >= 3) && (x <= 3)`, false},      // x is 3
		{"Int", `(x < 3) && ((x + 1) >= 5)`, false}, // another expression
		{"Int", `(x < 3) || (x >= 5)`, false},
		{"Int", `((x / 2) > 3) && (x < 3) && (x > 5)`, false}, // the division comes first
		{"Float", `(x < 3.0) && (x > 5.0)`, false},            // Floats are not bounded here
		{"Int", `x > 0`, false},
		{"Int", `x > n`, false},
		{"Int", `x > x + 0`, false},
		{"Int", `((x / x) > 1) && (x > x)`, false}, // the left operand can fail first
		{"Int", `x > (if (x / 0) > 1 then x else x)`, false},
		{"Int", `if (x / 0) > 1 then x < x else x > x`, false},
		{"Int", `(x > x) || (x > 2)`, false},
		{"Float", `x /= x`, false}, // NaN
		{"Float", `not (x == x)`, false},
		{"Float", `(x - x) > 1.0`, false}, // NaN and infinities
	} {
		t.Run(c.test, func(t *testing.T) {
			src := fmt.Sprintf("f :: Array %[1]s -> Int -> Array %[1]s\nf xs n =\n  let ys = filter (\\x -> %[2]s) xs\n      zs = map (\\x -> x + 1) ys\n  in  zs\n", c.elem, c.test)
			r, rep := analyse(t, src)
			f, err := Emit(r, rep.Ours.Clustering, Options{}, NoMain)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(c.test, " / ") {
				// A test that divides keeps its pass scalar, where nothing is speculated
				// (blocked.go, scalarAt): a fold under the filter's mask tells instead.
				src = fmt.Sprintf("f :: Array %[1]s -> Int -> %[1]s\nf xs n =\n  let ys = filter (\\x -> %[2]s) xs\n      s = fold (+) 0 ys\n  in  s\n", c.elem, c.test)
				r, rep = analyse(t, src)
				if f, err = Emit(r, rep.Ours.Clustering, Options{}, NoMain); err != nil {
					t.Fatal(err)
				}
				if masked := strings.Contains(f.Source, "_zero)"); masked == c.uniform {
					t.Errorf("folded under the mask: %v, want %v (the test is the same for every element: %v)", masked, !c.uniform, c.uniform)
				}
				return
			}
			if spec := strings.Contains(f.Source, "zs for every element ys tests"); spec == c.uniform {
				t.Errorf("speculated: %v, want %v (the test is the same for every element: %v)", spec, !c.uniform, c.uniform)
			}
		})
	}
}
