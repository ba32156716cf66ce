package codegen

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Flags are the C compiler's flags: -fwrapv makes Int arithmetic wrap as Go's (and so the
// interpreter's) does, -ffp-contract=off keeps a * b + c two roundings as the interpreter
// computes it, gnu11 allows the statement expressions that inline lambdas. -O3 -march=native lets
// gcc vectorize fused loops: the fused loop of bench/pipeline.cnf runs fastest so, against -O2
// with or without -march=native (docs/performance.md, "Behind the code", G3). (Float folds stay
// in order: without -ffast-math gcc never reassociates them.) Executables are cached per machine
// (the key has the CPU's model and features). -fopenmp runs the loops that can be split on a team
// of threads (parallel.go); a compiler without OpenMP ignores the pragmas and runs them on one.
// -fno-trapping-math tells gcc that no program reads the floating-point exception flags, so it
// may evaluate a Float comparison it does not need (no result changes: rounding and NaNs are
// as before): a filter's `a && b` on Floats then compiles to a select instead of a branch taken
// at random, which made Table 1.1's closestPoints 2.7x slower (docs/performance.md, "Peers").
// -fno-math-errno: no generated C reads errno, and with it set sqrt is one instruction that
// vectorises; without it gcc follows each sqrt with a test and calls the C library's sqrt to
// set errno for a negative argument, which a blocked loop computing sqrt before its filter's
// test did for every element the filter drops (docs/performance.md, "sqrt without errno").
// -falign-loops=32 -falign-jumps=32: a loop's first instruction, and a label only jumps reach
// (the back edge of a per-element state machine), start a 32-byte window, so a hot loop of up
// to 32 bytes lies in one 64-byte line. gcc's default (16 for -march=native on Zen 4) left it to
// chance: a cross product's filter loop, 24 bytes of the same instructions in two clusterings,
// ran at 2 cycles an element where it straddled a line and 1 where it did not, and the optimal
// clustering of classic 229 was 2x slower than Megiddo and Sarkar's for that alone
// (docs/performance.md, "Unseen seeds 225-229, and loops aligned").
var Flags = append(strings.Fields(UserFlags), "-fopenmp", "-w")

// UserFlags are the flags the generated C's comments tell its readers to compile it with
// (Flags less -fopenmp, which the comments name apart, and -w).
const UserFlags = "-O3 -march=native -std=gnu11 -fwrapv -ffp-contract=off -fno-trapping-math -fno-math-errno -falign-loops=32 -falign-jumps=32"

// machine identifies the CPU that -march=native compiles for: its model and feature flags.
func machine() string {
	data, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return runtime.GOARCH
	}
	var keep []string
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "model name") || strings.HasPrefix(line, "flags") || strings.HasPrefix(line, "Features") {
			keep = append(keep, line)
			if len(keep) == 2 {
				break
			}
		}
	}
	return runtime.GOARCH + "\n" + strings.Join(keep, "\n")
}

// Compiler is the C compiler: $CC, else cc, else gcc, else clang.
func Compiler() (string, error) {
	if cc := os.Getenv("CC"); cc != "" {
		if path, err := exec.LookPath(cc); err == nil {
			return path, nil
		}
		return "", fmt.Errorf("the C compiler $CC=%s is not found", cc)
	}
	for _, cc := range []string{"cc", "gcc", "clang"} {
		if path, err := exec.LookPath(cc); err == nil {
			return path, nil
		}
	}
	return "", errors.New("no C compiler (cc, gcc or clang) is installed: install gcc, or set $CC")
}

// CacheDir is where compiled programs are kept, by the hash of their source and compiler.
func CacheDir() (string, error) {
	if d := os.Getenv("CNF_CACHE"); d != "" {
		return d, nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache directory for compiled programs: %w", err)
	}
	return filepath.Join(d, "cnf", "build"), nil
}

// Build compiles a generated C file to an executable, or returns the one compiled before from
// the same source with the same compiler. The executable is written under a temporary name and
// renamed into place, so an interrupted or failed build leaves no partial file; a digest of it
// is written beside it (KEY.sum), and an entry whose bytes do not match its digest (truncated,
// replaced, or from a build that stopped between the two renames) is compiled again. Build
// directories of builds whose process has died are removed. On several cores the program is
// compiled in parts, one compiler a part at once, and linked (parts.go).
func Build(ctx context.Context, src string) (string, error) {
	return build(ctx, src, runtime.NumCPU())
}

// build is Build on cpus cores: with two or more, in as many parts as the program has loops and
// one, at most cpus (parts.go).
func build(ctx context.Context, src string, cpus int) (string, error) {
	cc, err := Compiler()
	if err != nil {
		return "", err
	}
	dir, err := CacheDir()
	if err != nil {
		return "", err
	}
	version := gccVersion(ctx, cc) // "" for another compiler
	_, nparts := partPlan(src, cpus)
	sum := sha256.Sum256([]byte(Version + "\x00" + cc + "\x00" + strings.Join(Flags, " ") + "\x00" + fmt.Sprintf("parts %d", max(nparts, 1)) + "\x00" + machine() + "\x00" + src))
	key := hex.EncodeToString(sum[:16])
	exe := filepath.Join(dir, key)
	if verified(exe, key) {
		return exe, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("making the cache of compiled programs: %w", err)
	}
	sweep(dir)
	tmp, err := os.MkdirTemp(dir, fmt.Sprintf("build-%d-", os.Getpid()))
	if err != nil {
		return "", fmt.Errorf("making a build directory: %w", err)
	}
	defer os.RemoveAll(tmp)
	if err := os.WriteFile(filepath.Join(tmp, "prog.c"), []byte(src), 0o644); err != nil {
		return "", fmt.Errorf("writing the C file: %w", err)
	}
	// Relative names, run in the build directory: the executable does not depend on the
	// directory's random name, so two builds of one source make the same bytes.
	args := append(append([]string{}, Flags...), "-o", "prog", "prog.c", "-lm")
	var stderr bytes.Buffer
	run := compileIn(ctx, cc, tmp, &stderr)
	err = errors.New("not compiled")
	var include []string
	if !strings.Contains(src, runtimeIncludes) {
		// Not a generated file (or one from another version): nothing to precompile.
	} else if pch := precompiled(ctx, cc, Flags, version); pch != "" {
		// The runtime's system headers read from their precompiled form (pch.go); should
		// that fail, the compiles without it below say why the program does not compile.
		include = []string{"-include", filepath.Join(pch, pchName)}
	}
	// pchFailed says whether a compile with include failed on the precompiled header (a
	// truncated .gch), which is then removed, to be made again by the next build.
	pchFailed := func(err error) bool {
		if err == nil || include == nil || ctx.Err() != nil {
			return false
		}
		msg := stderr.String() + err.Error()
		if !strings.Contains(msg, "PCH") && !strings.Contains(msg, "precompiled header") {
			return false
		}
		os.RemoveAll(filepath.Dir(include[1]))
		return true
	}
	if parts := splitParts(src, cpus); parts != nil {
		err = compileParts(ctx, cc, tmp, parts, include)
		if pchFailed(err) {
			err = compileParts(ctx, cc, tmp, parts, nil) // the same executable, the headers read as text
		}
	} else if include != nil {
		err = run(append(slices.Clone(include), args...))
		pchFailed(err)
	}
	if err != nil && ctx.Err() == nil {
		// The plain compile of the one file, whose message is the one to give (the parts'
		// would name part files), and what a compiler that failed on the parts gets.
		err = run(args)
	}
	if err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		msg := strings.TrimSpace(stderr.String())
		if len(msg) > 2000 {
			msg = msg[:2000] + "..."
		}
		return "", fmt.Errorf("the C compiler failed (%s %s): %v\n%s", filepath.Base(cc), strings.Join(Flags, " "), err, msg)
	}
	out := filepath.Join(tmp, "prog")
	data, err := os.ReadFile(out)
	if err != nil {
		return "", fmt.Errorf("reading the compiled program: %w", err)
	}
	if err := os.WriteFile(filepath.Join(tmp, "sum"), []byte(digest(key, data)), 0o644); err != nil {
		return "", fmt.Errorf("writing the compiled program's digest: %w", err)
	}
	// The digest after the executable: a reader that finds the new digest finds the new
	// executable; one that finds the old pair, or the new executable with no digest, rebuilds.
	if err := os.Rename(out, exe); err != nil {
		return "", fmt.Errorf("keeping the compiled program: %w", err)
	}
	if err := os.Rename(filepath.Join(tmp, "sum"), exe+".sum"); err != nil {
		return "", fmt.Errorf("keeping the compiled program's digest: %w", err)
	}
	return exe, nil
}

// compileParts compiles the parts of a program (splitParts) in dir, all at once, each with
// include before its name, and links them into prog. The error has the compilers' messages.
func compileParts(ctx context.Context, cc, dir string, parts []string, include []string) error {
	errs := make([]error, len(parts))
	var wg sync.WaitGroup
	for p, text := range parts {
		name := fmt.Sprintf("part%d", p)
		if err := os.WriteFile(filepath.Join(dir, name+".c"), []byte(text), 0o644); err != nil {
			return fmt.Errorf("writing the C file's part %d: %w", p, err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			var stderr bytes.Buffer
			args := append(append(slices.Clone(include), Flags...), "-c", "-o", name+".o", name+".c")
			if err := compileIn(ctx, cc, dir, &stderr)(args); err != nil {
				errs[p] = fmt.Errorf("part %d: %w: %s", p, err, strings.TrimSpace(stderr.String()))
			}
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	args := append(slices.Clone(Flags), "-o", "prog")
	for p := range parts {
		args = append(args, fmt.Sprintf("part%d.o", p))
	}
	var stderr bytes.Buffer
	if err := compileIn(ctx, cc, dir, &stderr)(append(args, "-lm")); err != nil {
		return fmt.Errorf("linking the parts: %w: %s", err, strings.TrimSpace(stderr.String()))
	}
	return nil
}

// compileIn is a run of the compiler cc in dir with the arguments it is given, its messages
// in stderr (emptied first: a failed try's messages do not mix with the next's).
func compileIn(ctx context.Context, cc, dir string, stderr *bytes.Buffer) func([]string) error {
	return func(args []string) error {
		cmd := command(ctx, cc, args...)
		cmd.Dir = dir
		stderr.Reset()
		cmd.Stderr = stderr
		return cmd.Run()
	}
}

// digest is the SHA-256 of a cached executable's bytes under its key, in hexadecimal: an
// executable copied from another entry does not match.
func digest(key string, data []byte) string {
	h := sha256.New()
	h.Write([]byte(key + "\x00"))
	h.Write(data)
	return hex.EncodeToString(h.Sum(nil))
}

// verified reports whether the cached executable exe is there and matches its digest.
func verified(exe, key string) bool {
	want, err := os.ReadFile(exe + ".sum")
	if err != nil {
		return false
	}
	data, err := os.ReadFile(exe)
	return err == nil && digest(key, data) == strings.TrimSpace(string(want))
}

// sweep removes the build directories (build-PID-...) in dir whose process is gone: a build
// killed before it could remove its own (by SIGKILL, or a machine's reboot).
func sweep(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), "build-")
		if !ok || !e.IsDir() {
			continue
		}
		pidText, _, ok := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(pidText)
		if !ok || err != nil { // an older cnf's build-RANDOM: removed when a day old
			if info, err := e.Info(); err != nil || time.Since(info.ModTime()) < 24*time.Hour {
				continue
			}
		} else if pid == os.Getpid() || alive(pid) {
			continue
		}
		os.RemoveAll(filepath.Join(dir, e.Name()))
	}
}

// RunError is a run-time error the compiled program reported (its message is the reference
// interpreter's: "binding: what went wrong").
type RunError struct{ Message string }

func (e *RunError) Error() string { return e.Message }

// Exec runs a compiled program on the given standard input and returns its standard output.
func Exec(ctx context.Context, exe string, stdin []byte) ([]byte, error) {
	return execEnv(ctx, exe, stdin, nil)
}

// execEnv is Exec with variables added to the program's environment (its threads).
func execEnv(ctx context.Context, exe string, stdin []byte, env []string) ([]byte, error) {
	var out []byte
	err := execStream(ctx, exe, stdin, env, func(r io.Reader) error {
		var err error
		out, err = io.ReadAll(r)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// execStream runs exe, as execEnv does, handing its standard output to consume as it comes
// rather than holding it (what consume leaves unread is discarded). A failure of the program
// is reported rather than consume's (which then saw its output end early).
func execStream(ctx context.Context, exe string, stdin []byte, env []string, consume func(io.Reader) error) error {
	cmd := command(ctx, exe)
	if len(env) > 0 {
		cmd.Env = append(os.Environ(), env...)
	}
	cmd.Stdin = bytes.NewReader(stdin)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return fmt.Errorf("running the compiled program: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("running the compiled program: %w", err)
	}
	cerr := consume(out)
	_, _ = io.Copy(io.Discard, out) // the pipe is read to its end before Wait closes it
	if err := runFailure(ctx, cmd.Wait(), &stderr); err != nil {
		return err
	}
	return cerr
}

// runFailure is the error of a compiled program's run that ended with err (nil: none): ctx's
// when it ended, a RunError for the definition's own failure (exit status 3), else the
// program's message.
func runFailure(ctx context.Context, err error, stderr *bytes.Buffer) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.ExitCode() == 3 {
		return &RunError{Message: strings.TrimSpace(stderr.String())}
	}
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return fmt.Errorf("the compiled program failed: %s", msg)
	}
	return nil
}

// BuildShared compiles the library dir/name.c into the shared library dir/libname.so with
// the system C compiler (the flags of Build, position-independent, with threads), for the
// Python module (python.go). It writes under a temporary name and renames, so an interrupted
// build leaves no partial library.
func BuildShared(ctx context.Context, dir, name string) error {
	cc, err := Compiler()
	if err != nil {
		return err
	}
	tmp := fmt.Sprintf(".lib%s.so.%d", name, os.Getpid())
	args := append(append([]string{}, Flags...), "-fPIC", "-shared", "-pthread", "-o", tmp, name+".c", "-lm")
	var stderr bytes.Buffer
	run := compileIn(ctx, cc, dir, &stderr)
	err = errors.New("not compiled")
	if src, rerr := os.ReadFile(filepath.Join(dir, name+".c")); rerr == nil {
		if parallel := parallelFlags(string(src), gccVersion(ctx, cc) != "", runtime.NumCPU()); parallel != nil {
			err = run(append(slices.Clone(parallel), args...))
		}
	}
	if err != nil && ctx.Err() == nil {
		err = run(args)
	}
	if err != nil {
		os.Remove(filepath.Join(dir, tmp))
		if ctx.Err() != nil {
			return ctx.Err()
		}
		msg := strings.TrimSpace(stderr.String())
		if len(msg) > 2000 {
			msg = msg[:2000] + "..."
		}
		return fmt.Errorf("the C compiler failed on %s (%s %s): %v\n%s", filepath.Join(dir, name+".c"), filepath.Base(cc), strings.Join(args, " "), err, msg)
	}
	if err := os.Rename(filepath.Join(dir, tmp), filepath.Join(dir, "lib"+name+".so")); err != nil {
		os.Remove(filepath.Join(dir, tmp))
		return fmt.Errorf("keeping the shared library: %w", err)
	}
	return nil
}
