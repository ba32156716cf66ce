package codegen

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/cnf-tools/cnf/infer"
)

// When neither the default inputs nor any profile (benchprofiles.go) is accepted, the program
// may need its parameters drawn differently from one another: `gather xs8 xs8` wants xs8's
// elements small and non-negative while `gather xs10 (map (\x -> -4 * x - 8) xs10)` wants
// xs10's negative, and `gather (take 9 b2) (postscanl max n1 b1)` wants n1 and xs1 both small
// at once. searchInputs looks for such inputs one parameter at a time (coordinate descent):
// for each Int array parameter a range from ranges, for each Int scalar a value from values,
// keeping the choice whose probe (a small input) fails latest in the program, or, failing at
// the same binding, with an index nearer the array's bounds, until a probe succeeds. It is
// deterministic (the same probes in the same order) and bounded (maxProbes).

// ranges are the ranges an Int array parameter may be drawn in ("" is the starting point's),
// from wide to one value.
var ranges = []string{"", "-1000 1000", "0 1000", "0 99", "0 9", "1 9", "2 9", "5 9", "0 1", "-9 -1", "-1000 -1",
	"0 0", "1 1", "2 2", "3 3", "4 4", "5 5", "7 7", "9 9", "-1 -1", "-2 -2", "-3 -3", "-5 -5", "-9 -9"}

// values are the values an Int scalar parameter may take (-2 the starting point's, -1 n).
var values = []int64{-2, -1, 0, 1, 2, 9}

// maxProbes bounds the search's runs of the harness (each a few milliseconds).
const maxProbes = 800

// failure is where a probe failed: the position of the binding in the program (len(Order)
// when it succeeded), and how far outside its array's bounds the index was (0 for other
// failures). A later position is better; at the same position, a smaller distance.
type failure struct {
	at   int
	dist int64
	msg  string
}

func (f failure) better(g failure) bool {
	return f.at > g.at || f.at == g.at && f.dist < g.dist
}

var outOfRange = regexp.MustCompile(`index (-?\d+) out of range for an array of (\d+) elements`)

// locate reads the harness's message ("b7: index 4096 out of range for an array of 9
// elements") as a failure of r's definition.
func locate(r *infer.Result, msg string) failure {
	f := failure{at: -1, msg: msg}
	if name, _, ok := strings.Cut(msg, ":"); ok {
		for i, b := range r.Func.Order {
			if b.Name() == strings.TrimSpace(name) {
				f.at = i
			}
		}
	}
	if m := outOfRange.FindStringSubmatch(msg); m != nil {
		i, _ := strconv.ParseInt(m[1], 10, 64)
		size, _ := strconv.ParseInt(m[2], 10, 64)
		if i < 0 {
			f.dist = -i
		} else {
			f.dist = i - size + 1
		}
	}
	return f
}

// searchInputs searches for inputs the program accepts (above), probing with exe (the first
// clustering's harness), from each of the default inputs and the profiles in turn (a choice
// that is a step forward from one may be a dead end: n1 = 9 makes every index of
// `postscanl max n1 b1` at least 9); it returns them with a note saying what they are.
func searchInputs(ctx context.Context, exe string, u *Unit, r *infer.Result, n int64, opts BenchOptions) (inputProfile, bool) {
	probes := 0
	for _, base := range append([]inputProfile{defaultProfile}, profiles...) {
		prof, ok, varied := descend(ctx, exe, u, r, n, opts, base, &probes)
		if ok {
			return prof, true
		}
		if !varied {
			// Every choice failed alike: the failure does not depend on how the inputs are
			// drawn (an index as large as a size the program computes from the sizes alone),
			// and the other starting points would spend their probes learning it again.
			break
		}
	}
	return inputProfile{}, false
}

// descend is the coordinate descent from base, counting its probes in probes. varied says
// whether any probe failed otherwise than the first (or did not fail).
func descend(ctx context.Context, exe string, u *Unit, r *infer.Result, n int64, opts BenchOptions, base inputProfile, probes *int) (prof inputProfile, ok, varied bool) {
	type choice struct {
		param  Param
		scalar bool
		at     int // index into ranges or values; 0 is base's
	}
	var vars []*choice
	for _, p := range u.Params {
		switch {
		case p.Type.IsArray() && p.Type.Elem().Kind() == "Int":
			// An array of indices too (p.Index): the harness draws it within the range
			// chosen and its valid indices both.
			vars = append(vars, &choice{param: p})
		case p.Type.Kind() == "Int":
			if _, given := opts.Scalars[p.Name]; !given {
				vars = append(vars, &choice{param: p, scalar: true})
			}
		}
	}
	// profile is the inputs of the choices so far, the scalars that are n being size.
	profile := func(size int64) inputProfile {
		prof := base
		prof.arrays, prof.scalars = map[string]string{}, map[string]int64{}
		for _, c := range vars {
			switch {
			case c.scalar && c.at > 0:
				v := values[c.at]
				if v < 0 {
					v = size
				}
				prof.scalars[c.param.Name] = v
			case !c.scalar && c.at > 0:
				prof.arrays[c.param.C] = ranges[c.at]
			}
		}
		return prof
	}
	done := failure{at: len(r.Func.Order)}
	probe := func() failure {
		*probes++
		prof := profile(min(n, probeSize))
		cmd := asProbe(harnessCommand(ctx, exe, harnessArgs(u, min(n, probeSize), 1, false, opts, prof), 1, opts, prof))
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		if err == nil {
			return done
		}
		var re *RunError
		if !errors.As(runFailure(ctx, err, &stderr), &re) {
			return failure{at: -2} // not the program's own failure: never a step forward
		}
		return locate(r, re.Message)
	}
	cur := probe()
	first := cur
	for sweep := 0; sweep < 4 && cur.at != done.at; sweep++ {
		moved := false
		for _, c := range vars {
			choices := len(ranges)
			if c.scalar {
				choices = len(values)
			}
			was, best := c.at, c.at
			for k := 0; k < choices && cur.at != done.at; k++ {
				if k == was || *probes >= maxProbes || ctx.Err() != nil {
					continue
				}
				if !c.scalar && c.param.Index != nil && strings.HasPrefix(ranges[k], "-") {
					continue // no valid index is negative: the harness would draw them as before
				}
				c.at = k
				f := probe()
				varied = varied || f != first
				if f.better(cur) {
					cur, best, moved = f, k, true
				}
			}
			c.at = best
			if cur.at == done.at {
				break
			}
		}
		if !moved {
			break
		}
	}
	if cur.at != done.at {
		return inputProfile{}, false, varied
	}
	prof = profile(n)
	var arrays, scalars []string
	for _, c := range vars {
		switch {
		case c.scalar && c.at > 0 && values[c.at] < 0:
			scalars = append(scalars, fmt.Sprintf("%s = n", c.param.Name))
		case c.scalar && c.at > 0:
			scalars = append(scalars, fmt.Sprintf("%s = %d", c.param.Name, values[c.at]))
		case !c.scalar && c.at > 0:
			if lo, hi, _ := strings.Cut(ranges[c.at], " "); lo == hi {
				arrays = append(arrays, fmt.Sprintf("%s all %s", c.param.Name, lo))
			} else {
				arrays = append(arrays, fmt.Sprintf("%s in [%s, %s]", c.param.Name, lo, hi))
			}
		}
	}
	var parts []string
	if len(arrays) > 0 {
		parts = append(parts, "Ints of "+strings.Join(arrays, ", "))
	}
	if len(scalars) > 0 {
		parts = append(parts, strings.Join(scalars, ", "))
	}
	rest := "the other parameters as by default"
	if base.note != "" {
		rest = "the others as with " + base.note
	}
	prof.note = strings.Join(append(parts, rest), "; ")
	return prof, true, true
}
