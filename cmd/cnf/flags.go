package main

import (
	"flag"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/cnf-tools/cnf/cluster"
)

// timeLimit is the value of a --time-limit flag: a positive duration, or 0 for no limit
// (cluster.NoTimeLimit) unless required. A negative duration is a usage error rather than a
// silent default.
type timeLimit struct {
	d        *time.Duration
	required bool // 0 is refused: the language server must not solve without end
}

func (t timeLimit) String() string {
	if t.d == nil {
		return ""
	}
	if *t.d == cluster.NoTimeLimit {
		return "0"
	}
	return t.d.String()
}

func (t timeLimit) Set(s string) error {
	d, err := time.ParseDuration(s)
	if s == "0" {
		d, err = 0, nil
	}
	switch {
	case err != nil:
		return fmt.Errorf("%q is not a duration such as 2s or 500ms", s)
	case d < 0:
		return fmt.Errorf("%s is negative: give a positive duration, or 0 for no limit", s)
	case d == 0 && t.required:
		return fmt.Errorf("the language server needs a time limit: give a positive duration")
	case d == 0:
		*t.d = cluster.NoTimeLimit
	default:
		*t.d = d
	}
	return nil
}

// timeLimitFlag declares --time-limit on fs, defaulting to cluster.DefaultTimeLimit.
func timeLimitFlag(fs *flag.FlagSet, p *time.Duration, what string) {
	*p = cluster.DefaultTimeLimit
	fs.Var(timeLimit{d: p}, "time-limit", what+" (a `DURATION` such as 2s; 0 for no limit): counted as that much of an idle machine's work, so the answer is the same on a busy machine; above 2s, rounded down to 2s times a power of two")
}

// nonNegative is the value of a duration flag that must not be negative (--debounce).
type nonNegative struct{ d *time.Duration }

func (n nonNegative) String() string {
	if n.d == nil {
		return ""
	}
	return n.d.String()
}

func (n nonNegative) Set(s string) error {
	d, err := time.ParseDuration(s)
	if s == "0" {
		d, err = 0, nil
	}
	switch {
	case err != nil:
		return fmt.Errorf("%q is not a duration such as 150ms", s)
	case d < 0:
		return fmt.Errorf("%s is negative", s)
	}
	*n.d = d
	return nil
}

// solving is what the clustering commands take from the command line: --time-limit and
// --solver.
type solving struct {
	limit  time.Duration
	solver string
	rates  string // a rates file (rates.go), or ""
}

// solvingFlags declares --time-limit, --solver and --rates on fs.
func solvingFlags(fs *flag.FlagSet, s *solving, what string) {
	timeLimitFlag(fs, &s.limit, what)
	s.solver = "auto"
	fs.Var(solverName{&s.solver}, "solver", "the ILP `SOLVER`: auto (HiGHS in this process when linked, else the first of highs, glpsol, cbc on PATH, else none), highs, glpk, cbc, or none (exhaustive search up to 10 bindings, greedy beyond, not proven optimal)")
	fs.StringVar(&s.rates, "rates", "", "weigh each filter's output by the fraction it kept on real inputs, as measured by cnf run --profile into `FILE`, instead of guessing that it keeps half")
}

// solverName is the value of --solver: one of cluster.SolverNames.
type solverName struct{ name *string }

func (s solverName) String() string {
	if s.name == nil {
		return ""
	}
	return *s.name
}

func (s solverName) Set(v string) error {
	if !slices.Contains(cluster.SolverNames, v) {
		return fmt.Errorf("unknown solver %q: one of %s", v, strings.Join(cluster.SolverNames, ", "))
	}
	*s.name = v
	return nil
}
