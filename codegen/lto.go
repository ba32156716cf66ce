package codegen

import (
	"fmt"
	"os/exec"
	"strings"
)

// A shared library's C (BuildShared: a Python module's) takes gcc seconds to optimise, nearly
// all of it in its loops' functions (loopFunction), one after another on one core. gcc's
// link-time optimiser can instead split the functions into partitions and optimise them in
// parallel, one process a partition: the same passes on the same functions with the same
// flags, so the same code, compiled on every core (docs/performance.md, "Compiling on every
// core"). A few loops gain nothing from it (the processes' start and the streaming of the
// program between them cost what the partitions save), so it is used from loopsInParallel
// loops, a partition of at least loopsPerJob loops on each core. Executables (Build) are
// compiled in parts instead (parts.go), which needs neither make nor the serial parse of the
// whole program that -flto does first.

const (
	loopsInParallel = 6
	loopsPerJob     = 3
	maxJobs         = 16
)

// loopFunctionMark starts the definition of every loop's function in generated C.
const loopFunctionMark = "static __attribute__((noinline)) void cnf_L"

// parallelFlags are the flags that have gcc (isGCC) optimise src's loop functions in parallel,
// on up to cpus cores; nil when that would not pay (few loops, one core) or cannot work:
// another compiler, or no make on PATH (gcc's lto-wrapper runs its parallel jobs by make,
// and compiles them one after another without it).
func parallelFlags(src string, isGCC bool, cpus int) []string {
	loops := strings.Count(src, loopFunctionMark)
	jobs := min(cpus, loops/loopsPerJob, maxJobs)
	if !isGCC || loops < loopsInParallel || jobs < 2 {
		return nil
	}
	if _, err := exec.LookPath("make"); err != nil {
		return nil
	}
	return []string{
		fmt.Sprintf("-flto=%d", jobs),
		"-flto-partition=balanced",
		fmt.Sprintf("--param=lto-partitions=%d", jobs),
		// gcc's default keeps a partition at least 10,000 instructions, so that a program of
		// a few hundred lines of loops is one partition.
		"--param=lto-min-partition=500",
	}
}
