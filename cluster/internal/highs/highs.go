//go:build cgo

package highs

// #cgo pkg-config: highs
// #cgo CXXFLAGS: -std=c++17
// #include <stdlib.h>
// #include "bridge.h"
import "C"

import (
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"runtime"
	"slices"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/lanl/highs"
)

// testHookAfterRun, when set by a test, runs between the solve and the reading of its outcome:
// the lifetime test collects garbage there, where a freed instance would be used next.
var testHookAfterRun func()

// testHookBeforeRun, when set by a test, runs just before a solve with a time limit starts: it
// stands for a set-up of HiGHS's that heeds neither the limit nor the interrupt.
var testHookBeforeRun func()

// Version is the linked HiGHS library's version, as "1.10.0".
func Version() string {
	v := C.GoString(C.cnf_highs_version())
	if len(v) > 0 && v[0] == 'v' {
		v = v[1:]
	}
	return v
}

// Solve solves p. Output is off (stdout belongs to the language server) and the relative gap
// is 0. Cancelling ctx interrupts HiGHS at its next interrupt point (a simplex iteration or a
// node of the search) and Solve then returns ctx's error. A solve stopped by its time limit,
// or by opts.Stop, returns its best solution with Status Limit.
func Solve(ctx context.Context, p *Problem, opts Options) (*Result, error) {
	if len(p.RowLo) == 0 {
		return nil, errors.New("HiGHS: a problem without rows") // lanl/highs crashes on these
	}
	start := time.Now()
	raw, err := build(p)
	if err != nil {
		return nil, err
	}
	// The instance belongs to raw (lanl/highs frees it in raw's finalizer). Every use of its
	// handle below, including those inside raw.Solve after its own last use of raw, happens
	// before this deferred call, so the instance outlives them all.
	defer runtime.KeepAlive(raw)
	obj := handle(raw)
	if obj == nil {
		return nil, errors.New("HiGHS: cannot reach the instance inside lanl/highs (has its RawModel changed?)")
	}
	if err := configure(raw, opts); err != nil {
		return nil, err
	}
	if opts.Start != nil && len(opts.Start) == len(p.Cost) {
		cols := make([]C.double, len(opts.Start))
		for i, v := range opts.Start {
			cols[i] = C.double(v)
		}
		C.cnf_highs_set_start(obj, &cols[0]) // a start HiGHS refuses is only a lost hint
	}
	if abandon := opts.abandonAt(start); !abandon.IsZero() {
		return solveUntil(ctx, p, raw, obj, opts, abandon, start)
	}
	w := watch(obj, opts.Progress, opts.Work, ctx, opts.Stop)
	defer w.release() // after the solve: HiGHS reads the flag until then
	_, runErr := raw.Solve()
	res, err := finish(ctx, raw, obj, runErr, len(p.Cost), start, testHookAfterRun)
	if res != nil {
		w.work(res)
	}
	return res, err
}

// solveUntil runs the solve in a goroutine and waits for it until abandon at the latest. A
// search still running then is interrupted and left to end on its own (it owns raw from then
// on), and Solve answers at once with the start, Status Limit: HiGHS's set-up of a large
// model (presolve, the first relaxation) heeds neither its time limit nor the interrupt, and
// kept clusterings running past their limit (docs/performance.md, "Behind the code", H2).
func solveUntil(ctx context.Context, p *Problem, raw *highs.RawModel, obj unsafe.Pointer, opts Options, abandon, start time.Time) (*Result, error) {
	leave, abandoned := context.WithCancel(context.Background())
	defer abandoned() // interrupts a solve left running; nothing once it has returned
	// The caller hears no progress once Solve has returned.
	var returned atomic.Bool
	defer returned.Store(true)
	progress := opts.Progress
	if progress != nil {
		progress = func(primal, dual float64) {
			if !returned.Load() {
				opts.Progress(primal, dual)
			}
		}
	}
	w := watch(obj, progress, opts.Work, ctx, opts.Stop, leave)
	type ran struct {
		res *Result
		err error
	}
	done := make(chan ran, 1)
	before, after := testHookBeforeRun, testHookAfterRun // read here: the goroutine may outlive a test
	go func() {
		if before != nil {
			before()
		}
		_, runErr := raw.Solve()
		res, err := finish(ctx, raw, obj, runErr, len(p.Cost), start, after)
		if res != nil {
			w.work(res)
		}
		w.release() // after the solve: HiGHS reads the flag until then
		done <- ran{res, err}
	}()
	timer := time.NewTimer(time.Until(abandon))
	defer timer.Stop()
	select {
	case r := <-done:
		return r.res, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-timer.C:
		res := &Result{Status: Limit, Objective: math.Inf(1), Bound: math.Inf(-1), Time: time.Since(start)}
		if len(opts.Start) == len(p.Cost) {
			res.Values, res.Objective = slices.Clone(opts.Start), 0
			for j, v := range opts.Start {
				res.Objective += p.Cost[j] * v
			}
		}
		return res, nil
	}
}

// finish reads the outcome of a solve that has returned (runErr is what lanl/highs said),
// after running hook (testHookAfterRun) when it is not nil.
func finish(ctx context.Context, raw *highs.RawModel, obj unsafe.Pointer, runErr error, ncols int, start time.Time, hook func()) (*Result, error) {
	defer runtime.KeepAlive(raw)
	if hook != nil {
		hook()
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	// lanl/highs turns a warning (how a time limit ends) into an error without the solution,
	// so the outcome is always read from the instance.
	var cs highs.CallStatus
	if runErr != nil && !(errors.As(runErr, &cs) && cs.IsWarning()) {
		return nil, fmt.Errorf("HiGHS: %w", runErr)
	}
	res, err := outcome(obj, ncols, time.Since(start))
	if res != nil {
		res.Bound = dualBound(obj, res)
	}
	return res, err
}

// dualBound is the MIP search's bound on the objective: the objective itself at an optimum,
// -Inf when HiGHS has no bound (its value is then ±Inf or NaN, or not a bound at all when the
// search stopped before its first relaxation: HiGHS 1.10 reports 0 then, as for a solve
// without integer columns).
func dualBound(obj unsafe.Pointer, res *Result) float64 {
	if res.Status == Optimal {
		return res.Objective
	}
	var b C.double
	if C.cnf_highs_dual_bound(obj, &b) != 0 {
		return math.Inf(-1)
	}
	bound := float64(b)
	if math.IsNaN(bound) || math.IsInf(bound, 0) || bound > res.Objective {
		return math.Inf(-1)
	}
	return bound
}

// SolveFile reads a model from an LP or MPS file (HiGHS's own reader, as the highs command
// uses) and solves it with the same options as Solve.
func SolveFile(ctx context.Context, path string, opts Options) (*Result, error) {
	start := time.Now()
	raw := highs.NewRawModel()
	defer runtime.KeepAlive(raw)
	if err := configure(raw, opts); err != nil {
		return nil, err
	}
	if err := raw.ReadModelFromFile(path); err != nil {
		return nil, fmt.Errorf("HiGHS cannot read %s: %w", path, err)
	}
	obj := handle(raw)
	if obj == nil {
		return nil, errors.New("HiGHS: cannot reach the instance inside lanl/highs (has its RawModel changed?)")
	}
	ncols := int(C.cnf_highs_num_cols(obj))
	_, runErr := raw.Solve()
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	var cs highs.CallStatus
	if runErr != nil && !(errors.As(runErr, &cs) && cs.IsWarning()) {
		return nil, fmt.Errorf("HiGHS: %w", runErr)
	}
	res, err := outcome(obj, ncols, time.Since(start))
	if res != nil {
		res.Bound = dualBound(obj, res)
	}
	return res, err
}

// build passes p to a new HiGHS instance through lanl/highs.
func build(p *Problem) (*highs.RawModel, error) {
	m := highs.Model{
		ColCosts: p.Cost, ColLower: p.ColLo, ColUpper: p.ColHi,
		RowLower: p.RowLo, RowUpper: p.RowHi,
		VarTypes:    make([]highs.VariableType, len(p.Cost)),
		ConstMatrix: make([]highs.Nonzero, len(p.Entries)),
	}
	for j, integer := range p.Integer {
		if integer {
			m.VarTypes[j] = highs.IntegerType
		}
	}
	for k, e := range p.Entries {
		m.ConstMatrix[k] = highs.Nonzero{Row: e.Row, Col: e.Col, Val: e.Val}
	}
	raw, err := m.ToRawModel()
	if err != nil {
		return nil, fmt.Errorf("building the HiGHS model: %w", err)
	}
	return raw, nil
}

// configure sets the options of every solve: quiet, exact (relative gap 0, the caller's
// absolute gap), reliability branching from one observation, light heuristics (the start
// usually is the heuristic), and the time limit.
func configure(raw *highs.RawModel, opts Options) error {
	set := func(name string, err error) error {
		if err != nil {
			return fmt.Errorf("setting the HiGHS option %s: %w", name, err)
		}
		return nil
	}
	steps := []error{
		set("output_flag", raw.SetBoolOption("output_flag", false)),
		set("mip_rel_gap", raw.SetFloat64Option("mip_rel_gap", 0)),
		set("mip_abs_gap", raw.SetFloat64Option("mip_abs_gap", opts.AbsGap)),
		set("mip_pscost_minreliable", raw.SetIntOption("mip_pscost_minreliable", 1)),
		set("mip_heuristic_effort", raw.SetFloat64Option("mip_heuristic_effort", 0.01)),
	}
	if opts.TimeLimit > 0 {
		steps = append(steps, set("time_limit", raw.SetFloat64Option("time_limit", opts.TimeLimit.Seconds())))
	}
	return errors.Join(steps...)
}

// outcome reads the status and the best solution from the instance.
func outcome(obj unsafe.Pointer, ncols int, took time.Duration) (*Result, error) {
	var status, feasible C.int
	var objective C.double
	cols := make([]C.double, max(ncols, 1))
	if C.cnf_highs_outcome(obj, &status, &feasible, &objective, &cols[0], C.int(ncols)) != 0 {
		return nil, errors.New("HiGHS: cannot read the solution")
	}
	res := &Result{Objective: float64(objective), Time: took}
	switch status {
	case C.CNF_HIGHS_OPTIMAL:
		res.Status = Optimal
	case C.CNF_HIGHS_TIME_LIMIT, C.CNF_HIGHS_ITERATION_LIMIT, C.CNF_HIGHS_INTERRUPT:
		res.Status = Limit
	case C.CNF_HIGHS_INFEASIBLE:
		res.Status = Infeasible
	default:
		res.Status = Failed
	}
	if feasible != 0 {
		res.Values = make([]float64, ncols)
		for i := range res.Values {
			res.Values[i] = float64(cols[i])
		}
	}
	if res.Status == Failed {
		return res, fmt.Errorf("HiGHS stopped with model status %d", int(status))
	}
	if res.Status == Optimal && res.Values == nil {
		return res, errors.New("HiGHS reports an optimum but no solution")
	}
	if math.IsNaN(res.Objective) {
		res.Objective = math.Inf(1)
	}
	return res, nil
}

// interruptOn makes HiGHS stop at its next interrupt point once one of the contexts (nil ones
// are skipped) is done. The watcher's release must be called after the last run of the
// instance: it frees the flag the callback reads.
func interruptOn(obj unsafe.Pointer, ctxs ...context.Context) *watcher {
	return watch(obj, nil, Work{}, ctxs...)
}

// capEvery is how often watch polls a work cap (Work.Cap).
const capEvery = 10 * time.Millisecond

// progressEvery is how often watch passes the search's bounds on.
const progressEvery = 500 * time.Millisecond

// watcher is the flag that the callback of a solve shares with Go, and what stops its
// goroutines.
type watcher struct {
	flag  *C.cnf_watch
	stops []func()
}

// watch is interruptOn, with the work limit of work, and while the solve runs, it calls
// progress (when not nil) with the branch and bound's primal and dual bounds each time they
// change, at most every progressEvery, from a goroutine of its own; release stops the calls
// (none is made after it returns).
func watch(obj unsafe.Pointer, progress func(primal, dual float64), work Work, ctxs ...context.Context) *watcher {
	flag := (*C.cnf_watch)(C.calloc(1, C.size_t(unsafe.Sizeof(C.cnf_watch{}))))
	flag.work_limit = C.double(work.Limit)
	flag.per_iteration = C.double(work.PerIteration)
	flag.per_node = C.double(work.PerNode)
	w := &watcher{flag: flag}
	if C.cnf_highs_watch(obj, flag) != 0 {
		return w
	}
	if work.Cap != nil || work.Seen != nil {
		done, finished := make(chan struct{}), make(chan struct{})
		go func() {
			defer close(finished)
			tick := time.NewTicker(capEvery)
			defer tick.Stop()
			for {
				if work.Cap != nil {
					if c := work.Cap(); !math.IsInf(c, 1) && (c < work.Limit || work.Limit <= 0) {
						C.cnf_highs_lower_work_limit(flag, C.double(max(c, 1e-9)))
					}
				}
				if work.Seen != nil {
					var done C.double
					var out C.int
					var it, nodes C.longlong
					C.cnf_highs_work(flag, &done, &out, &it, &nodes)
					work.Seen(float64(done))
				}
				select {
				case <-done:
					return
				case <-tick.C:
				}
			}
		}()
		w.stops = append(w.stops, func() { close(done); <-finished })
	}
	if progress != nil {
		done, finished := make(chan struct{}), make(chan struct{})
		go func() {
			defer close(finished)
			tick := time.NewTicker(progressEvery)
			defer tick.Stop()
			last := [2]float64{math.NaN(), math.NaN()}
			for {
				select {
				case <-done:
					return
				case <-tick.C:
				}
				var primal, dual C.double
				if C.cnf_highs_watched(flag, &primal, &dual) == 0 {
					continue
				}
				if now := [2]float64{float64(primal), float64(dual)}; now != last {
					last = now
					progress(now[0], now[1])
				}
			}
		}()
		w.stops = append(w.stops, func() { close(done); <-finished })
	}
	for _, c := range ctxs {
		if c == nil {
			continue
		}
		interrupted := make(chan struct{})
		stop := context.AfterFunc(c, func() {
			C.cnf_highs_interrupt(flag)
			close(interrupted)
		})
		w.stops = append(w.stops, func() {
			if !stop() {
				<-interrupted // the interrupt has started: let it finish before the flag is freed
			}
		})
	}
	return w
}

// work is the search's work at its last interrupt point, and whether the work limit stopped
// it; read it after the solve has returned, before release. It also sets res's counts.
func (w *watcher) work(res *Result) {
	var work C.double
	var out C.int
	var iterations, nodes C.longlong
	C.cnf_highs_work(w.flag, &work, &out, &iterations, &nodes)
	res.Work, res.OutOfWork, res.Iterations, res.Nodes = float64(work), out != 0, int64(iterations), int64(nodes)
}

// release stops the watcher's goroutines and frees the flag: call it after the last run of
// the instance.
func (w *watcher) release() {
	for _, stop := range w.stops {
		stop()
	}
	C.free(unsafe.Pointer(w.flag))
}

// handle is the HiGHS instance inside a lanl/highs RawModel: an unexported field, which
// lanl/highs v1.0.0 offers no way to reach and which the calls it lacks need. Reading an
// unexported field through reflect is allowed; if lanl/highs renames it, handle returns nil
// and Solve says so (TestHandleReachable fails first).
func handle(raw *highs.RawModel) unsafe.Pointer {
	f := reflect.ValueOf(raw).Elem().FieldByName("obj")
	if !f.IsValid() || f.Kind() != reflect.UnsafePointer {
		return nil
	}
	return f.UnsafePointer()
}
