package codegen

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/cnf-tools/cnf/cluster"
	"github.com/cnf-tools/cnf/fuse"
	"github.com/cnf-tools/cnf/infer"
	"github.com/cnf-tools/cnf/types"
)

// The bench harness: main(n, runs, seed, copy, scalars...) makes the definition's inputs from
// the seed (every array parameter n elements: Ints in [-1000, 1000], Floats in [-1000, 1000),
// Bools), calls the definition once to warm up and to hash its results (on one thread, then
// once more untimed on the team when it has several threads), more untimed calls while a loop
// is still learning whether streaming or plain stores are faster (cnf_stream_pick), then runs times,
// printing "run SECONDS" for each, "bytes READ WRITTEN" (the arrays the loops stream and store
// in one run), "checksum HEX", and with copy set, "copy SECONDS BYTES": the best of runs
// copies of the same number of bytes, half read and half written, by a plain loop on as many
// threads as the loops get (CNF_THREADS): the memory bandwidth those threads reach.
const benchC = `#include <time.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
CNF_STATE(uint64_t cnf_rng, );
static inline uint64_t cnf_next(void) {
	cnf_rng ^= cnf_rng << 13; cnf_rng ^= cnf_rng >> 7; cnf_rng ^= cnf_rng << 17;
	return cnf_rng;
}
CNF_STATE(int64_t cnf_bytes_read, );
CNF_STATE(int64_t cnf_bytes_written, );
/* Ints are drawn in [cnf_int_lo, cnf_int_lo + cnf_int_span); CNF_INTS="LO HI" narrows them,
 * CNF_INTS_<param>="LO HI" one Int array parameter's (benchprofiles.go, benchsearch.go: the
 * inputs tried when the program fails on the default ones). */
CNF_STATE(int64_t cnf_int_lo, = -1000);
CNF_STATE(uint64_t cnf_int_span, = 2001);
static void cnf_ints_of(const char *var, int64_t *lo_, uint64_t *span) {
	const char *e = getenv(var);
	long long lo, hi;
	if (e && sscanf(e, "%lld %lld", &lo, &hi) == 2 && lo <= hi) {
		*lo_ = lo;
		*span = (uint64_t)(hi - lo) + 1;
	}
}
static void cnf_ints_from_env(void) { cnf_ints_of("CNF_INTS", &cnf_int_lo, &cnf_int_span); }
`

// generator makes (once) the function drawing a random value of type t.
func (p *program) generator(t *types.Type) (string, error) {
	tn, err := p.ct.name(t)
	if err != nil {
		return "", err
	}
	name := "cnf_gen_" + mangle(t)
	var body string
	switch t.Kind() {
	case "Int":
		body = "\treturn cnf_int_lo + (int64_t)(cnf_next() % cnf_int_span);\n"
	case "Float":
		body = "\treturn (double)(cnf_next() >> 11) / 9007199254740992.0 * 2000.0 - 1000.0;\n"
	case "Bool":
		body = "\treturn (cnf_next() >> 32) & 1;\n"
	case "Tuple":
		var b strings.Builder
		fmt.Fprintf(&b, "\t%s x;\n", tn)
		for i, e := range t.Elems() {
			g, err := p.generator(e)
			if err != nil {
				return "", err
			}
			fmt.Fprintf(&b, "\tx.f%d = %s();\n", i, g)
		}
		b.WriteString("\treturn x;\n")
		body = b.String()
	case "Host":
		// The host file makes its own values from a random number: T cnf_gen_T(uint64_t).
		if !p.hostKnown(name) {
			return "", fmt.Errorf("cnf bench makes values of the host type %s with %s(uint64_t random) from the host file, which has none", t, name)
		}
		name = "cnf_random_" + t.Name()
		body = fmt.Sprintf("\treturn cnf_gen_%s(cnf_next());\n", t.Name())
	default:
		return "", fmt.Errorf("cnf bench cannot make random values of type %s", t)
	}
	return p.helper(name, func() (string, error) {
		return fmt.Sprintf("static %s %s(void) {\n%s}\n", tn, name, body), nil
	})
}

// benchMain is the main function of the bench harness.
func benchMain(p *program, u *Unit) (string, error) {
	var b strings.Builder
	b.WriteString("int main(int argc, char **argv) {\n\tcnf_threads_from_env();\n\tcnf_ints_from_env();\n")
	// An array past half of the machine's memory fails as an allocation (CNF_MAX_BYTES, when
	// set, is the bound instead: the tests'), which Bench answers by a smaller scale.
	b.WriteString("#ifdef _SC_PHYS_PAGES\n\tif (sysconf(_SC_PHYS_PAGES) > 0 && sysconf(_SC_PAGESIZE) > 0) cnf_max_bytes = (size_t)sysconf(_SC_PHYS_PAGES) / 2 * (size_t)sysconf(_SC_PAGESIZE);\n#endif\n")
	b.WriteString("\tif (getenv(\"CNF_MAX_BYTES\") != NULL && atoll(getenv(\"CNF_MAX_BYTES\")) > 0) { cnf_max_bytes = (size_t)atoll(getenv(\"CNF_MAX_BYTES\")); cnf_max_why = \"CNF_MAX_BYTES allows one array\"; }\n")
	// Freed arrays stay mapped for the next run: the runs time the loops, not the kernel's page
	// faults on fresh memory (which made every run several times slower in a sandbox).
	b.WriteString("#ifdef __GLIBC__\n\tmallopt(M_MMAP_THRESHOLD, 1 << 30);\n\tmallopt(M_TRIM_THRESHOLD, -1);\n\tmallopt(M_MMAP_MAX, 0);\n#endif\n")
	fmt.Fprintf(&b, "\tif (argc != %d) { fprintf(stderr, \"usage: %%s N RUNS SEED COPY SCALARS...\\n\", argv[0]); return 2; }\n", 5+scalarCount(u))
	b.WriteString("\tint64_t n = strtoll(argv[1], 0, 10);\n\tint runs = atoi(argv[2]);\n\tcnf_rng = strtoull(argv[3], 0, 10) | 1;\n\tint copy = atoi(argv[4]);\n")
	b.WriteString("\tconst char *cnf_load_dir = getenv(\"CNF_LOAD\");\n")
	arg := 5
	var args []string
	for _, prm := range u.Params {
		tn, err := p.ct.name(prm.Type)
		if err != nil {
			return "", err
		}
		switch {
		case prm.Type.IsArray():
			g, err := p.generator(prm.Type.Elem())
			if err != nil {
				return "", &CompileError{Range: prm.Range, Message: fmt.Sprintf("parameter %s: %v", prm.Name, err)}
			}
			en, _ := p.ct.name(prm.Type.Elem())
			fmt.Fprintf(&b, "\t%s %s;\n\tif (cnf_load_dir) {\n%s\t} else {\n", tn, prm.C, p.loadOrRefuse(prm.Name, prm.C, prm.Type))
			fmt.Fprintf(&b, "\t%s = (%s){cnf_alloc(n, sizeof(%s), %q), n};\n", prm.C, tn, en, prm.Name)
			if prm.Index != nil && prm.Type.Elem().Kind() == "Int" {
				// Valid indices of the array gather reads with them (benchinputs.go).
				p.helper("cnf_min_i64", func() (string, error) {
					return "static inline int64_t cnf_min_i64(int64_t a, int64_t b) { return a < b ? a : b; }\n", nil
				})
				// Within them, the narrower range of its own the input search may choose
				// (CNF_INTS_<param>, benchsearch.go): valid indices that keep the indices a
				// worker computes from them in range too (classic 410: `gather b1 b1` with b1
				// the squares of the indices xs1).
				fmt.Fprintf(&b, "\t{\n\t\tconst uint64_t m = (uint64_t)%s;\n\t\tint64_t lo = 0;\n\t\tuint64_t span = m;\n\t\tcnf_ints_of(\"%s\", &lo, &span);\n", prm.Index.Bound, intsVar(prm))
				b.WriteString("\t\t__int128 hi = (__int128)lo + span;\n\t\tif (lo < 0) lo = 0;\n\t\tif (hi > (__int128)m) hi = m;\n\t\tif (hi <= lo) lo = 0, hi = m;\n\t\tspan = (uint64_t)(hi - lo);\n")
				fmt.Fprintf(&b, "\t\tfor (int64_t i = 0; i < n; i++) %s.data[i] = span ? lo + (int64_t)(cnf_next() %% span) : 0;\n\t}\n", prm.C)
			} else if prm.Type.Elem().Kind() == "Int" {
				// The whole range, or the parameter's own (CNF_INTS_<param>): one random number
				// an element either way, so the other parameters draw the same values.
				fmt.Fprintf(&b, "\t{\n\t\tint64_t lo = cnf_int_lo;\n\t\tuint64_t span = cnf_int_span;\n\t\tcnf_ints_of(\"%s\", &lo, &span);\n", intsVar(prm))
				fmt.Fprintf(&b, "\t\tfor (int64_t i = 0; i < n; i++) %s.data[i] = lo + (int64_t)(cnf_next() %% span);\n\t}\n", prm.C)
			} else {
				fmt.Fprintf(&b, "\tfor (int64_t i = 0; i < n; i++) %s.data[i] = %s();\n", prm.C, g)
			}
			b.WriteString("\t}\n")
		case prm.Type.Kind() == "Host" || prm.Type.Kind() == "Tuple":
			g, err := p.generator(prm.Type)
			if err != nil {
				return "", &CompileError{Range: prm.Range, Message: fmt.Sprintf("parameter %s: %v", prm.Name, err)}
			}
			fmt.Fprintf(&b, "\t%s %s;\n\tif (cnf_load_dir) {\n%s\t} else %s = %s();\n", tn, prm.C, p.loadOrRefuse(prm.Name, prm.C, prm.Type), prm.C, g)
		case prm.Type.Kind() == "Float":
			// "@load": read from --inputs (Bench passes it when the file is there).
			fmt.Fprintf(&b, "\t%s %s;\n\tif (strcmp(argv[%d], \"@load\") == 0) {\n%s\t} else %s = strtod(argv[%d], 0);\n", tn, prm.C, arg, p.loadOrRefuse(prm.Name, prm.C, prm.Type), prm.C, arg)
			arg++
		case prm.Type.Kind() == "Int" || prm.Type.Kind() == "Bool":
			fmt.Fprintf(&b, "\t%s %s;\n\tif (strcmp(argv[%d], \"@load\") == 0) {\n%s\t} else %s = strtoll(argv[%d], 0, 10);\n", tn, prm.C, arg, p.loadOrRefuse(prm.Name, prm.C, prm.Type), prm.C, arg)
			arg++
		default:
			return "", &CompileError{Range: prm.Range, Message: fmt.Sprintf("parameter %s: cnf bench cannot make a %s", prm.Name, prm.Type)}
		}
		args = append(args, prm.C)
	}
	var writes, frees, saves strings.Builder
	for _, prm := range u.Params {
		saves.WriteString(p.saveOrRefuse("in_"+prm.Name, prm.C, prm.Type))
	}
	for _, res := range u.Results {
		saves.WriteString(p.saveOrRefuse("out_"+res.Name, "r."+res.C, res.Type))
		_, wr, err := p.codec(res.Type)
		if err != nil {
			return "", &CompileError{Range: res.Range, Message: fmt.Sprintf("result %s: %v", res.Name, err)}
		}
		fmt.Fprintf(&writes, "\t\t\t%s(r.%s);\n", wr, res.C)
		if res.Type.IsArray() && !isParam(u, res.Name) {
			fmt.Fprintf(&frees, "\t\tcnf_free(r.%s.data);\n", res.C)
		}
	}
	call := fmt.Sprintf("%s(%s)", u.Name, strings.Join(args, ", "))
	b.WriteString("\tconst char *cnf_save_dir = getenv(\"CNF_SAVE\");\n")
	// Run -2 hashes (and saves) the results computed on one thread, so that the checksums of
	// clusterings agree even where --reassociate-floats lets the rounding depend on how a loop
	// is split; run -1 warms the team up; then the timed runs.
	fmt.Fprintf(&b, `	const int threads = cnf_threads;
	int settle = 0; /* warm-ups after the first while a loop learns its stores (cnf_stream_pick) */
	for (int k = threads > 1 ? -2 : -1; k < runs; k++) {
		cnf_threads = k == -2 ? 1 : threads;
		cnf_bytes_read = cnf_bytes_written = 0;
		double t0 = cnf_now();
		%s r = %s;
		double t1 = cnf_now();
		if (k == -1 && threads > 1) {
			/* the team's warm-up */
		} else if (k < 0 && settle > 0) {
			/* a warm-up while the loops learn their stores */
		} else if (k < 0) {
			cnf_hashing = 1;
%s			cnf_hashing = 0;
			if (cnf_save_dir) {
%s			}
		} else {
			printf("run %%.9f\n", t1 - t0);
		}
%s		if (k == -1 && __atomic_exchange_n(&cnf_stream_unsettled, 0, __ATOMIC_RELAXED) && settle < 4 * cnf_stream_tries) {
			settle++;
			k--;
		}
	}
	printf("bytes %%lld %%lld\n", (long long)cnf_bytes_read, (long long)cnf_bytes_written);
	printf("checksum %%016llx\n", (unsigned long long)cnf_hash);
	if (copy) {
		int64_t words = (cnf_bytes_read + cnf_bytes_written) / 16;
		int64_t *src = cnf_alloc(words, 8, "copy"), *dst = cnf_alloc(words, 8, "copy");
		const int team = cnf_team(words);
		#pragma omp parallel for num_threads(team) if (team > 1) schedule(static)
		for (int64_t i = 0; i < words; i++) { src[i] = i; dst[i] = 0; }
		double best = 1e300;
		for (int k = 0; k < runs; k++) {
			double t0 = cnf_now();
			#pragma omp parallel for num_threads(team) if (team > 1) schedule(static)
			for (int64_t i = 0; i < words; i++) dst[i] = src[i];
			__asm__ volatile("" : : "r"(dst) : "memory");
			double t = cnf_now() - t0;
			if (t < best) best = t;
		}
		cnf_team_done(team);
		printf("copy %%.9f %%lld\n", best, (long long)(words * 16));
	}
	return 0;
}
`, u.Result, call, writes.String(), saves.String(), frees.String())
	return b.String(), nil
}

func scalarCount(u *Unit) int {
	n := 0
	for _, p := range u.Params {
		if k := p.Type.Kind(); k == "Int" || k == "Float" || k == "Bool" {
			n++
		}
	}
	return n
}

func isParam(u *Unit, name string) bool {
	for _, p := range u.Params {
		if p.Name == name {
			return true
		}
	}
	return false
}

// withBench is the main function of the bench harness: its runtime, then its main.
func withBench(p *program, u *Unit) (string, error) {
	p.helper("cnf_read", func() (string, error) { return ioC, nil })
	p.helper("cnf_bench", func() (string, error) { return benchC, nil })
	m, err := benchMain(p, u)
	if err != nil {
		return "", err
	}
	return m, nil
}

// Clustering is a clustering to measure, by name (unfused, stream, megiddo, optimal).
type Clustering struct {
	Name       string
	Clustering *cluster.Clustering
	Fused      []*fuse.Fused // its loops as the analysis core fused them; nil: fused here
}

// BenchClusterings are the clusterings a benchmark compares, in the order it runs them:
// unfused, stream fusion, Megiddo and Sarkar's (when its solve found one) and the optimal, last
// (its program also times the copy loop). `cnf bench` and the editor's measurement both
// measure these, so they agree on what they compare.
//
// fused are the optimal clustering's loops as the analysis core fused them (Options.Fused).
func BenchClusterings(rep *cluster.Report, fused []*fuse.Fused) []Clustering {
	cls := []Clustering{{Name: "unfused", Clustering: rep.Unfused}, {Name: "stream", Clustering: rep.Stream}}
	if rep.Megiddo != nil && rep.Megiddo.Clustering != nil {
		cls = append(cls, Clustering{Name: "megiddo", Clustering: rep.Megiddo.Clustering})
	}
	return append(cls, Clustering{Name: "optimal", Clustering: rep.Ours.Clustering, Fused: fused})
}

// BenchOptions are the inputs of a benchmark.
type BenchOptions struct {
	Size int64 // elements of every array parameter
	Runs int
	// Rounds runs each clustering's program that many times (at least once), the clusterings
	// in turn, Runs timed runs each time: on a shared machine whose load comes and goes, a
	// clustering timed in one stretch can be slowed alone; taken in turns, the clusterings
	// share the slow stretches. Medians and minima are over all the rounds' runs.
	Rounds  int
	Seed    uint64
	Threads int                   // of the loops that can be split, and of the copy loop (0: the machine's cores)
	Scalars map[string]fuse.Value // the scalar parameters (default: Size)
	Host    *Host
	// Save, when set, is a folder where the optimal clustering's harness stores its inputs and
	// results as .npy files (save.go).
	Save string
	// ReassociateFloats: Options.ReassociateFloats.
	ReassociateFloats bool
	// Inputs is a directory of .npy files the parameters are read from (load.go), instead of
	// drawn: in_NAME.npy, as Save writes them. A scalar without a file is Scalars's or Size.
	Inputs string
}

// Measured is one clustering's measurements.
type Measured struct {
	Name       string
	Loops      int
	Seconds    float64 // median over the runs
	MinSeconds float64
	Runs       int   // the timed runs, over all the rounds
	Bytes      int64 // array bytes the loops stream in and store, in one run
	Checksum   string
	Agree      bool // its results are the first clustering's
	// SameAs names an earlier clustering whose C this one's is: the program ran once, and
	// these are its measurements.
	SameAs string
}

// BenchResult is a benchmark: every clustering, and the copy loop over the last one's bytes.
type BenchResult struct {
	Clusterings []*Measured
	CopySeconds float64
	CopyBytes   int64
	// Threads is how many threads the loops that can be split, and the copy loop, were given.
	Threads int
	// Assumed says how inputs were drawn other than the defaults ("is drawn in [0, n): valid
	// indices of ys (size k1)").
	Assumed []string
}

// Bench compiles each clustering with the same emitter (and the bench harness), runs it on the
// same seeded inputs, and measures it; the last clustering's program also times a plain copy
// of as many bytes, this machine's memory bandwidth. Programs are built before any is timed.
// A size whose arrays cannot fit in the memory available is refused (CheckMemory).
func Bench(ctx context.Context, r *infer.Result, cls []Clustering, opts BenchOptions) (*BenchResult, error) {
	if err := CheckMemory(r.Func, opts.Size); err != nil {
		return nil, err
	}
	// Indices into an array whose size the data chooses cannot be drawn in range: the default
	// inputs are tried all the same, then the profiles; if none is accepted, that is the error.
	_, undrawable := indexBounds(r)
	if opts.Inputs != "" {
		undrawable = nil
	}
	// The clusterings' programs are compiled side by side, as many at once as there are
	// cores (gcc is most of a benchmark's wait); the first error in their order is reported.
	exes, units, errs := make([]string, len(cls)), make([]*Unit, len(cls)), make([]error, len(cls))
	slots := make(chan struct{}, max(1, runtime.NumCPU()))
	var wg sync.WaitGroup
	for i, c := range cls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			slots <- struct{}{}
			defer func() { <-slots }()
			f, err := Emit(r, c.Clustering, Options{Host: opts.Host, CountBytes: true, Fused: c.Fused, ReassociateFloats: opts.ReassociateFloats}, BenchMain)
			if err != nil {
				errs[i] = fmt.Errorf("%s: %w", c.Name, err)
				return
			}
			units[i] = f.Unit
			if exes[i], err = Build(ctx, f.Source); err != nil {
				errs[i] = fmt.Errorf("%s: %w", c.Name, err)
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	res := &BenchResult{Threads: opts.Threads}
	if res.Threads <= 0 {
		res.Threads = runtime.NumCPU()
	}
	fixed := map[string]bool{}
	for name := range opts.Scalars {
		fixed[name] = true
	}
	n, note := benchScale(r, opts.Size, fixed, false)
	at := fmt.Sprintf("at %d elements", n)
	if opts.Inputs != "" {
		n, note, at = opts.Size, "the parameters read from "+opts.Inputs+" (in_NAME.npy), not drawn", "on the inputs in "+opts.Inputs
	}
	if len(units) > 0 && opts.Inputs == "" {
		for _, p := range units[0].Params {
			if p.Index != nil {
				res.Assumed = append(res.Assumed, p.Index.Note)
			}
		}
	}
	// Clusterings that compile to the same C (Megiddo's and the optimal often do) are one
	// executable: it runs once and each is given its measurements, so that noise never makes
	// one program "slower" than itself. The copy loop runs with the last clustering's program.
	same := make([]int, len(cls))
	for i := range cls {
		same[i] = slices.Index(exes, exes[i])
	}
	// runOne runs clustering i's program once on the inputs prof draws (saving them, with
	// opts.Save, in the first round).
	runOne := func(prof inputProfile, i, round int) (*Measured, []float64, error) {
		c := cls[i]
		args := harnessArgs(units[i], n, opts.Runs, i == same[len(cls)-1], opts, prof)
		cmd := harnessCommand(ctx, exes[i], args, res.Threads, opts, prof)
		if opts.Save != "" && i == same[len(cls)-1] && round == 0 {
			cmd.Env = append(cmd.Env, "CNF_SAVE="+opts.Save)
		}
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			if ctx.Err() != nil {
				return nil, nil, ctx.Err()
			}
			msg := strings.TrimSpace(stderr.String())
			if msg == "" {
				msg = err.Error()
			}
			hint := ""
			if g := computedIndices(r); len(g) > 0 && opts.Inputs == "" && strings.Contains(msg, "out of range") {
				hint = fmt.Sprintf(" (the harness draws random inputs, and the indices of %s are computed from them: give inputs the program accepts with --inputs DIR)", strings.Join(g, ", "))
			}
			failure := fmt.Errorf("%s %s: %s%s", c.Name, at, msg, hint)
			var re *RunError
			if errors.As(runFailure(ctx, err, &stderr), &re) { // the program's own failure
				return nil, nil, &inputsRefused{err: failure, msg: msg}
			}
			return nil, nil, failure
		}
		m := &Measured{Name: c.Name, Loops: units[i].Loops}
		var runs []float64
		sc := bufio.NewScanner(&stdout)
		for sc.Scan() {
			f := strings.Fields(sc.Text())
			switch {
			case len(f) == 2 && f[0] == "run":
				t, _ := strconv.ParseFloat(f[1], 64)
				runs = append(runs, t)
			case len(f) == 3 && f[0] == "bytes":
				rd, _ := strconv.ParseInt(f[1], 10, 64)
				wr, _ := strconv.ParseInt(f[2], 10, 64)
				m.Bytes = rd + wr
			case len(f) == 2 && f[0] == "checksum":
				m.Checksum = f[1]
			case len(f) == 3 && f[0] == "copy":
				res.CopySeconds, _ = strconv.ParseFloat(f[1], 64)
				res.CopyBytes, _ = strconv.ParseInt(f[2], 10, 64)
			}
		}
		if len(runs) == 0 {
			return nil, nil, fmt.Errorf("%s: the benchmark printed no times", c.Name)
		}
		return m, runs, nil
	}
	// measure runs every clustering on the inputs prof draws, in turns (opts.Rounds).
	measure := func(prof inputProfile) error {
		res.Clusterings = nil
		runsOf := make([][]float64, len(cls))
		ms := make([]*Measured, len(cls))
		copySeconds := 0.0
		for round := range max(1, opts.Rounds) {
			for i := range cls {
				if same[i] < i {
					continue
				}
				m, runs, err := runOne(prof, i, round)
				if err != nil {
					return err
				}
				if round == 0 {
					ms[i] = m
				} else if m.Checksum != ms[i].Checksum {
					return fmt.Errorf("%s: round %d computed other results (checksum %s, then %s)", cls[i].Name, round+1, ms[i].Checksum, m.Checksum)
				}
				runsOf[i] = append(runsOf[i], runs...)
				if i == same[len(cls)-1] && (round == 0 || res.CopySeconds < copySeconds) {
					copySeconds = res.CopySeconds
				}
			}
		}
		res.CopySeconds = copySeconds
		for i, c := range cls {
			if j := same[i]; j < i {
				m := *res.Clusterings[j]
				m.Name, m.SameAs = c.Name, cls[j].Name
				res.Clusterings = append(res.Clusterings, &m)
				continue
			}
			m, runs := ms[i], runsOf[i]
			sort.Float64s(runs)
			m.Seconds, m.MinSeconds, m.Runs = runs[len(runs)/2], runs[0], len(runs)
			m.Agree = m.Checksum == res.first(m.Checksum)
			res.Clusterings = append(res.Clusterings, m)
		}
		return nil
	}
	// sawAlloc: a run asked for more memory than the machine has (an array the data sizes:
	// a generate as long as an element squared), on some inputs.
	sawAlloc := false
	measured := func(prof inputProfile) error {
		err := measure(prof)
		var failed *inputsRefused
		if errors.As(err, &failed) && strings.Contains(failed.msg, "cannot allocate") {
			sawAlloc = true
		}
		return err
	}
	var failed *inputsRefused
	attempt := func() error {
		err := measured(defaultProfile)
		if errors.As(err, &failed) && opts.Inputs == "" && strings.Contains(failed.msg, "cannot allocate") {
			// A cross of filters' outputs too large at this scale: scale the parameters as if
			// each filter kept all it reads.
			if m, bnote := benchScale(r, opts.Size, fixed, true); m < n {
				n, note, at = m, bnote, fmt.Sprintf("at %d elements", m)
				err = measured(defaultProfile)
			}
		}
		if errors.As(err, &failed) && opts.Inputs == "" {
			// The program failed on the default inputs (an index it computes out of range, a
			// division by zero): try the other ways of drawing them (benchprofiles.go).
			prof, ok := firstAccepted(ctx, exes[0], units[0], n, opts, measured)
			if !ok {
				// Nor on any of those: its parameters drawn each its own way (benchsearch.go).
				if prof, ok = searchInputs(ctx, exes[0], units[0], r, n, opts); ok {
					ok = measured(prof) == nil
				}
			}
			if ok {
				res.Assumed = append(res.Assumed, prof.note+", since the program failed on the default inputs ("+failed.msg+")")
				err = nil
			}
		}
		return err
	}
	assumed := slices.Clone(res.Assumed)
	err := attempt()
	// A program whose arrays the data sizes beyond any memory at this scale on every input
	// tried (classic 124: `generate b9` where b9 is the largest square of a gather of xs1 by
	// itself, ~10^14 elements at 10^7) runs at a tenth of the scale, and again, down to the
	// probes' size and then below it, to minScale: the sizes `cnf gen --shape sizes --seed 406` computes from its data grow
	// as n⁴ (`generate b6` with b6 = 49n³, crossed with a parameter), 7.8·10^10 elements at 200
	// and 7.8·10^6 at 20. The bench says at which.
	for err != nil && sawAlloc && opts.Inputs == "" && n > minScale && ctx.Err() == nil {
		first := ""
		if failed != nil {
			first = failed.msg
		}
		if n > probeSize {
			n = max(n/10, probeSize)
		} else {
			n = max(n/10, minScale)
		}
		at = fmt.Sprintf("at %d elements", n)
		res.Assumed = slices.Clone(assumed)
		sawAlloc = false
		if err = attempt(); err == nil {
			note = strings.TrimPrefix(note+"; ", "; ") + fmt.Sprintf("every array parameter has %d elements and scalars default to %d, not %d: at larger sizes an array the program sizes from its data does not fit in memory (%s)", n, n, opts.Size, first)
		}
	}
	if err != nil && undrawable != nil {
		return nil, undrawable
	}
	if err != nil {
		return nil, err
	}
	if note != "" {
		res.Assumed = append([]string{note}, res.Assumed...)
	}
	return res, nil
}

// harnessArgs are the bench harness's arguments: n, runs, the seed, whether to time the copy
// loop, then the scalar parameters (--arg's, read from --inputs, or prof's default).
func harnessArgs(u *Unit, n int64, runs int, copy bool, opts BenchOptions, prof inputProfile) []string {
	args := []string{strconv.FormatInt(n, 10), strconv.Itoa(runs), strconv.FormatUint(opts.Seed, 10), "0"}
	if copy {
		args[3] = "1"
	}
	for _, p := range u.Params {
		if k := p.Type.Kind(); k != "Int" && k != "Float" && k != "Bool" {
			continue // arrays, tuples and host values are drawn by the harness
		}
		v, ok := opts.Scalars[p.Name]
		if !ok && opts.Inputs != "" {
			if _, err := os.Stat(filepath.Join(opts.Inputs, strings.ReplaceAll("in_"+p.Name, "'", "_p")+".npy")); err == nil {
				args = append(args, "@load")
				continue
			}
		}
		if !ok {
			v = n
			if prof.scalar >= 0 {
				v = prof.scalar
			}
			if w, set := prof.scalars[p.Name]; set {
				v = w
			}
		}
		switch v := fuse.Coerce(v, p.Type).(type) {
		case bool:
			args = append(args, map[bool]string{false: "0", true: "1"}[v])
		case float64:
			args = append(args, strconv.FormatFloat(v, 'g', -1, 64))
		default:
			args = append(args, fuse.FormatValue(v))
		}
	}
	return args
}

// harnessCommand runs the bench harness exe with args on threads threads.
func harnessCommand(ctx context.Context, exe string, args []string, threads int, opts BenchOptions, prof inputProfile) *exec.Cmd {
	cmd := command(ctx, exe, args...)
	cmd.Env = append(os.Environ(), threadEnv(Options{Threads: threads})...)
	if opts.Inputs != "" {
		cmd.Env = append(cmd.Env, "CNF_LOAD="+opts.Inputs)
	}
	if prof.ints != "" {
		cmd.Env = append(cmd.Env, "CNF_INTS="+prof.ints)
	}
	for _, name := range slices.Sorted(maps.Keys(prof.arrays)) {
		cmd.Env = append(cmd.Env, "CNF_INTS_"+name+"="+prof.arrays[name])
	}
	return cmd
}

// first is the first clustering's checksum (or sum, for the first).
func (b *BenchResult) first(sum string) string {
	if len(b.Clusterings) == 0 {
		return sum
	}
	return b.Clusterings[0].Checksum
}
