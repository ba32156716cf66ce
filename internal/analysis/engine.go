package analysis

import (
	"context"
	"runtime"
	"sync"
	"time"

	"github.com/cnf-tools/cnf/cluster"
	"github.com/cnf-tools/cnf/infer"
)

// Config is what an engine's answers depend on besides the text.
type Config struct {
	// TimeLimit bounds the clustering of each definition (cluster.Options.TimeLimit): 0 is
	// cluster.DefaultTimeLimit, cluster.NoTimeLimit none.
	TimeLimit time.Duration
	Solver    cluster.Solver // nil: cluster.DefaultSolver
	Budget    cluster.Budget // zero: cluster.DefaultBudget
	// Fresh solves every version afresh, without the cache or a warm start: for benchmarks that
	// measure a solve.
	Fresh bool
	// Rates are measured filter rates by definition name (cluster.Graph.SetRates): the
	// clustering weighs a filter's output by what it kept on real inputs rather than the
	// guess that it keeps half. Nil: the guess everywhere.
	Rates map[string]cluster.Rates
}

// Engine analyses files for a command run or a server session; it is safe for concurrent use.
type Engine struct {
	mu    sync.Mutex
	cfg   Config
	slots *slots
	quiet sync.Mutex // one Quiet at a time
	cache *decisions
	fused *fusions
}

// MaxCached bounds the clusterings an engine remembers.
const MaxCached = 512

// NewEngine makes an engine that runs at most one solve per core at a time.
func NewEngine(cfg Config) *Engine {
	return &Engine{cfg: cfg, slots: newSlots(runtime.NumCPU()), cache: newDecisions(MaxCached), fused: newFusions(MaxCached)}
}

// SetConfig changes the configuration of later analyses (the server's settings).
func (e *Engine) SetConfig(cfg Config) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.cfg = cfg
}

// Config returns the current configuration.
func (e *Engine) Config() Config {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.cfg
}

// Load analyses one version of a file: its front end and sizes, at once. Clustering and fusion
// are computed when asked for (File.Def). name identifies the file across versions (a path or
// a URI): clusterings of one definition in successive versions start from each other.
// priority orders the solves of different files (higher first; the server passes the time of
// the edit). The configuration is fixed for the version when it is loaded (as gopls fixes a
// snapshot's options): a setting changed meanwhile applies from the next version, so one
// version is never solved under two time limits.
func (e *Engine) Load(name string, text []byte, priority int64) *File {
	stop, stopSolves := context.WithCancel(context.Background())
	return &File{Name: name, Text: text, Prog: infer.Analyze(name, text), Priority: priority, engine: e,
		cfg: e.Config(), defs: map[string]*pending{}, stop: stop, stopSolves: stopSolves}
}

// options are the clustering options of the current configuration.
func (c Config) options() cluster.Options {
	return cluster.Options{TimeLimit: c.TimeLimit, Solver: c.Solver, Budget: c.Budget}
}

// limit orders time limits, none being the largest.
func limit(d time.Duration) time.Duration {
	switch {
	case d < 0:
		return time.Duration(1<<63 - 1)
	case d == 0:
		return cluster.DefaultTimeLimit
	}
	return d
}
