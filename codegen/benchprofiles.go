package codegen

import (
	"context"
	"os"
	"os/exec"
	"strconv"
)

// The bench harness draws Ints in [-1000, 1000] and gives every scalar parameter the size n
// (most scalars are counts). A program that computes indices or divisors from its inputs may
// fail on them: `gather xs (map (\x -> abs n) ys)` reads index n of an array of n elements,
// `gather b (map2 (\x y -> (x - n) * x) ...)` negative ones. Such a program is still valid:
// it has inputs it accepts. When the default inputs make it fail, the bench tries the profiles
// below in order, each first on a small input (a probe of a few thousand elements, quick) and
// then at full size, and measures on the first the program accepts, saying which it used
// (BenchResult.Assumed). Indices the harness can bound itself (benchinputs.go) are drawn in
// range under every profile. A program that fails on all of them fails with the default
// inputs' error, which points at --inputs.

// inputProfile is one way of drawing the inputs: Ints in the range ints ("LO HI", the
// harness's CNF_INTS; "" for [-1000, 1000]), and the scalars not given with --arg (scalar;
// -1 for n); arrays and scalars override both for single parameters (benchsearch.go): an Int
// array parameter's range ("LO HI", by its C name) and a scalar parameter's value (by name).
type inputProfile struct {
	ints    string
	scalar  int64
	arrays  map[string]string
	scalars map[string]int64
	note    string
}

// intsVar is the harness's variable of an Int array parameter's own range.
func intsVar(p Param) string { return "CNF_INTS_" + p.C }

var defaultProfile = inputProfile{scalar: -1}

// profiles are the alternatives, from the closest to the default to the narrowest: first the
// scalars kept as sizes with non-negative Ints, then scalars 0 and 1 (offsets and factors
// that leave values unchanged or small), then small Ints (from 1 too: `x - 1` as an index),
// then zeros.
var profiles = []inputProfile{
	{ints: "0 1000", scalar: -1, note: "Ints drawn in [0, 1000] (scalars n)"},
	{ints: "", scalar: 0, note: "scalars 0 (Ints in [-1000, 1000])"},
	{ints: "0 1000", scalar: 0, note: "Ints drawn in [0, 1000], scalars 0"},
	{ints: "0 9", scalar: 1, note: "Ints drawn in [0, 9], scalars 1"},
	{ints: "0 9", scalar: 0, note: "Ints drawn in [0, 9], scalars 0"},
	{ints: "1 9", scalar: 0, note: "Ints drawn in [1, 9], scalars 0"},
	{ints: "0 0", scalar: 0, note: "Ints and scalars 0"},
}

// probeSize is the elements of a probe (or n, if smaller).
const probeSize = 4096

// minScale is the fewest elements the bench scales a program's parameters down to when its
// arrays do not fit in memory at larger sizes (Bench).
const minScale = 10

// probeMaxBytes bounds one array of a probe (the harness's CNF_MAX_BYTES, or the user's if
// smaller): four times a cross of two probe-sized arrays of Ints. A probe is meant to take
// milliseconds; without the bound, a probe of a program whose data sizes an array at a few
// gigabytes (sizes 406: `generate b6`, b6 = 49n³) wrote all of it before failing further on,
// 8 s a probe, and the search's hundreds of probes ran for hours.
const probeMaxBytes = 4 * probeSize * probeSize * 8

// asProbe gives a probe's command its bound on one array's bytes (probeMaxBytes).
func asProbe(cmd *exec.Cmd) *exec.Cmd {
	limit := int64(probeMaxBytes)
	if v, err := strconv.ParseInt(os.Getenv("CNF_MAX_BYTES"), 10, 64); err == nil && v > 0 && v < limit {
		limit = v
	}
	cmd.Env = append(cmd.Env, "CNF_MAX_BYTES="+strconv.FormatInt(limit, 10))
	return cmd
}

// inputsRefused is a harness run that ended with a run-time error of the program (exit status 3,
// a RunError): the inputs' fault, not the build's.
type inputsRefused struct {
	err error
	msg string // the harness's message, without the hint about --inputs
}

func (f *inputsRefused) Error() string { return f.err.Error() }
func (f *inputsRefused) Unwrap() error { return f.err }

// firstAccepted measures the clusterings (measure) on the first profile the program accepts:
// probed with exe (the first clustering's harness) at probeSize elements, then measured at n.
func firstAccepted(ctx context.Context, exe string, u *Unit, n int64, opts BenchOptions, measure func(inputProfile) error) (inputProfile, bool) {
	for _, prof := range profiles {
		if ctx.Err() != nil {
			return inputProfile{}, false
		}
		cmd := asProbe(harnessCommand(ctx, exe, harnessArgs(u, min(n, probeSize), 1, false, opts, prof), 1, opts, prof))
		if err := cmd.Run(); err != nil {
			continue
		}
		if err := measure(prof); err == nil {
			return prof, true
		}
	}
	return inputProfile{}, false
}
