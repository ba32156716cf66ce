package cluster

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// An external solver is a solver executable (the highs command, GLPK's glpsol, COIN-OR's cbc)
// run on the model written as an LP file (WriteLP), its solution file read back. It is what a
// build without cgo clusters with, and what --solver glpk|cbc chooses in any build. Its answer
// is checked like HiGHS's in-process answer: Solve reads it back into a clustering and the
// clustering must pass Validate; a value the solver did not report is an error, never a zero.
type externalSolver struct {
	kind externalKind
	path string // the executable
}

// externalKind is one of the solver programs cnf knows how to drive.
type externalKind int

const (
	highsCLI externalKind = iota
	glpsolCLI
	cbcCLI
)

// externalKinds names each kind as --solver does, with its executable, in the order "auto"
// tries them.
var externalKinds = []struct {
	kind       externalKind
	flag, exec string
}{
	{highsCLI, "highs", "highs"},
	{glpsolCLI, "glpk", "glpsol"},
	{cbcCLI, "cbc", "cbc"},
}

func (s externalSolver) Name() string {
	return externalKinds[s.kind].exec + " (" + s.path + ")"
}

// Solve writes the model, runs the solver with the time limit left, and reads its solution.
// Options.Stop kills the solver; the start (if any) is then the answer, not proven optimal. The
// solvers' own gap options are set so that "optimal" means the true optimum of the integral
// objective (HiGHS and CBC: absolute gap 0.5, relative gap 0; GLPK's default gap is 0).
func (s externalSolver) Solve(ctx context.Context, m *Model, opts SolveOptions) (*Solution, error) {
	start := time.Now()
	dir, err := os.MkdirTemp("", "cnf-solve-")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.Name(), err)
	}
	defer os.RemoveAll(dir)
	model := filepath.Join(dir, "model.lp")
	solution := filepath.Join(dir, "model.sol")
	if err := writeLPFile(model, m); err != nil {
		return nil, fmt.Errorf("%s: writing the model: %w", s.Name(), err)
	}
	args, err := s.args(dir, model, solution, opts.TimeLimit)
	if err != nil {
		return nil, err
	}
	rctx, cancel := context.WithCancel(ctx)
	if opts.TimeLimit > 0 {
		// The solver gets the limit; a solver that does not keep it is killed a little later
		// (the answer is then the start, if any), so a hung executable never hangs cnf.
		rctx, cancel = context.WithTimeout(ctx, opts.TimeLimit+externalGrace)
	}
	defer cancel()
	var stopped atomic.Bool
	if opts.Stop != nil {
		defer context.AfterFunc(opts.Stop, func() { stopped.Store(true); cancel() })()
	}
	cmd := exec.CommandContext(rctx, s.path, args...)
	cmd.Dir = dir
	out, runErr := cmd.CombinedOutput()
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if (stopped.Load() || rctx.Err() != nil) && opts.Start != nil {
		return &Solution{Values: opts.Start, Objective: objective(m, opts.Start), Time: time.Since(start)}, nil
	}
	values, optimal, err := s.read(solution, m)
	if err != nil {
		if runErr != nil {
			return nil, fmt.Errorf("%s: %v: %s", s.Name(), runErr, lastLines(out, 3))
		}
		return nil, fmt.Errorf("%s: %w", s.Name(), err)
	}
	if values == nil {
		if opts.Start != nil {
			return &Solution{Values: opts.Start, Objective: objective(m, opts.Start), Time: time.Since(start)}, nil
		}
		return nil, ErrNoSolution
	}
	return &Solution{Values: values, Objective: math.Round(objective(m, values)), Optimal: optimal, Time: time.Since(start)}, nil
}

// externalGrace is how long past its time limit a solver executable may run before it is killed.
const externalGrace = 2 * time.Second

// args is the solver's command line. Time limits are whole seconds for glpsol (at least 1).
func (s externalSolver) args(dir, model, solution string, limit time.Duration) ([]string, error) {
	switch s.kind {
	case highsCLI:
		options := filepath.Join(dir, "highs.opt")
		text := "mip_abs_gap = 0.5\nmip_rel_gap = 0\noutput_flag = false\n"
		if err := os.WriteFile(options, []byte(text), 0o600); err != nil {
			return nil, fmt.Errorf("%s: %w", s.Name(), err)
		}
		args := []string{"--model_file", model, "--options_file", options, "--solution_file", solution}
		if limit > 0 {
			args = append(args, "--time_limit", strconv.FormatFloat(limit.Seconds(), 'f', 3, 64))
		}
		return args, nil
	case glpsolCLI:
		args := []string{"--lp", model, "-w", solution}
		if limit > 0 {
			args = append(args, "--tmlim", strconv.Itoa(max(1, int(math.Ceil(limit.Seconds())))))
		}
		return args, nil
	default:
		args := []string{model}
		if limit > 0 {
			args = append(args, "sec", strconv.FormatFloat(limit.Seconds(), 'f', 3, 64))
		}
		return append(args, "allowableGap", "0.5", "ratioGap", "0", "solve", "solution", solution), nil
	}
}

// read parses the solver's solution file: the values by column (nil when the solver found no
// feasible solution) and whether it proved them optimal.
func (s externalSolver) read(path string, m *Model) ([]float64, bool, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, false, fmt.Errorf("no solution file: %w", err)
	}
	switch s.kind {
	case highsCLI:
		return readHighsSolution(string(data), m)
	case glpsolCLI:
		return readGlpkSolution(string(data), m)
	default:
		return readCbcSolution(string(data), m)
	}
}

// readHighsSolution reads the highs command's solution file: "Model status", the status on the
// next line, then under "# Primal solution values" a "# Columns N" header and a "name value"
// line per column.
func readHighsSolution(text string, m *Model) ([]float64, bool, error) {
	lines := strings.Split(text, "\n")
	status := ""
	for i, l := range lines {
		if strings.TrimSpace(l) == "Model status" && i+1 < len(lines) {
			status = strings.TrimSpace(lines[i+1])
			break
		}
	}
	for i, l := range lines {
		if strings.TrimSpace(l) == "# Primal solution values" && i+1 < len(lines) && strings.TrimSpace(lines[i+1]) != "Feasible" {
			return nil, false, nil // "None" or "Infeasible": no solution
		}
		if strings.HasPrefix(l, "# Columns ") {
			named := map[string]float64{}
			for _, c := range lines[i+1:] {
				if strings.HasPrefix(c, "#") {
					break
				}
				f := strings.Fields(c)
				if len(f) != 2 {
					continue
				}
				v, err := strconv.ParseFloat(f[1], 64)
				if err != nil {
					return nil, false, fmt.Errorf("column %s: %w", f[0], err)
				}
				named[f[0]] = v
			}
			values, err := byName(m, named, false)
			return values, status == "Optimal", err
		}
	}
	switch status {
	case "Infeasible", "Time limit reached", "Interrupted by user":
		return nil, false, nil
	}
	return nil, false, fmt.Errorf("no column values in the solution file (model status %q)", status)
}

// readGlpkSolution reads glpsol's -w file: "s mip ROWS COLS STATUS OBJ", then "j COL VALUE" per
// column, columns numbered as glpsol's LP reader numbered them (lpOrder); or a simplex solution
// when the model has no integer column left.
func readGlpkSolution(text string, m *Model) ([]float64, bool, error) {
	order := lpOrder(m)
	var values []float64
	optimal, basic := false, false
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		switch {
		case len(f) >= 5 && f[0] == "s" && f[1] == "mip":
			if n, err := strconv.Atoi(f[3]); err != nil || n != len(m.Vars) {
				return nil, false, fmt.Errorf("glpsol read %s columns, the model has %d", f[3], len(m.Vars))
			}
			switch f[4] {
			case "o":
				optimal = true
			case "f":
			default: // n: no feasible solution, u: undefined
				return nil, false, nil
			}
			values = make([]float64, len(m.Vars))
			for i := range values {
				values[i] = math.NaN()
			}
		case len(f) >= 7 && f[0] == "s" && f[1] == "bas":
			// A model with no integer column (the binaries all fixed) is solved by the simplex:
			// "s bas ROWS COLS PRIMAL DUAL OBJ", and "j COL STATUS VALUE DUAL" per column.
			if n, err := strconv.Atoi(f[3]); err != nil || n != len(m.Vars) {
				return nil, false, fmt.Errorf("glpsol read %s columns, the model has %d", f[3], len(m.Vars))
			}
			if f[4] != "f" {
				return nil, false, nil
			}
			optimal, basic = f[5] == "f", true
			values = make([]float64, len(m.Vars))
			for i := range values {
				values[i] = math.NaN()
			}
		case (len(f) == 3 || basic && len(f) == 5) && f[0] == "j" && values != nil:
			k, err := strconv.Atoi(f[1])
			if err != nil || k < 1 || k > len(order) {
				return nil, false, fmt.Errorf("bad column line %q", sc.Text())
			}
			at := 2 // "j COL VALUE"
			if basic {
				at = 3 // "j COL STATUS VALUE DUAL"
			}
			v, err := strconv.ParseFloat(f[at], 64)
			if err != nil {
				return nil, false, fmt.Errorf("bad column line %q", sc.Text())
			}
			values[order[k-1]] = v
		}
	}
	if values == nil {
		return nil, false, errors.New("no \"s mip\" line in glpsol's solution")
	}
	for i, v := range values {
		if math.IsNaN(v) {
			return nil, false, fmt.Errorf("glpsol reported no value for %s", m.Vars[i].Name)
		}
	}
	return values, optimal, nil
}

// readCbcSolution reads cbc's solution file: a status line ("Optimal - objective value 51",
// "Stopped on time - objective value 53", "Infeasible - ...") and "index name value reduced"
// per column; cbc leaves out columns whose value is 0.
func readCbcSolution(text string, m *Model) ([]float64, bool, error) {
	lines := strings.Split(text, "\n")
	if len(lines) == 0 {
		return nil, false, errors.New("empty solution file")
	}
	status := strings.TrimSpace(lines[0])
	switch {
	case strings.HasPrefix(status, "Infeasible"), strings.HasPrefix(status, "Integer infeasible"),
		strings.Contains(status, "no integer solution"):
		return nil, false, nil
	}
	named := map[string]float64{}
	for _, l := range lines[1:] {
		f := strings.Fields(l)
		if len(f) < 3 {
			continue
		}
		if f[0] == "**" { // cbc marks a value outside its bounds
			f = f[1:]
		}
		v, err := strconv.ParseFloat(f[2], 64)
		if err != nil {
			return nil, false, fmt.Errorf("bad column line %q", l)
		}
		named[f[1]] = v
	}
	values, err := byName(m, named, true)
	return values, strings.HasPrefix(status, "Optimal"), err
}

// byName orders values given by column name as the model's columns; a missing column is 0 when
// zeroOmitted (cbc prints only nonzeros), else an error.
func byName(m *Model, named map[string]float64, zeroOmitted bool) ([]float64, error) {
	values := make([]float64, len(m.Vars))
	for i, v := range m.Vars {
		x, ok := named[v.Name]
		if !ok && !zeroOmitted {
			return nil, fmt.Errorf("no value for %s in the solution", v.Name)
		}
		values[i] = x
	}
	return values, nil
}

func writeLPFile(path string, m *Model) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := WriteLP(f, m, "cnf: one part of a clustering model"); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// lastLines is the end of a solver's output, for an error message.
func lastLines(out []byte, n int) string {
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "; ")
}
