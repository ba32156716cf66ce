package codegen

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// gcc spends nearly all of a generated program's compile in its loops' functions
// (loopFunctionMark) and, after them, in the definition's function and the harness's main,
// one after another on one core. Build compiles the program in parts instead, one compiler a
// part at once, and links them: each part is the file's runtime, types and helpers
// (everything before the first loop, ~0.04 s of gcc) and some of its loops; part 0 also holds
// the rest (the definition's function, the harness's main) and the loops' prototypes. The
// runtime's mutable state is CNF_STATE (runtime.go): defined in part 0, declared in the
// others, so the parts share one state. Each loop's function is compiled from the same text
// with the same flags as in the one file and gives the same instructions; it loses its
// `static` (part 0 calls loops of other parts). gcc's link-time optimiser did the same split
// (lto.go, which a shared library still uses), after a serial parse and early optimisation of
// the whole program that the parts do not need (docs/performance.md, "Compiling in parts").

// span is where a loop's function lies in generated C: from its first line to after its "}".
type span struct{ start, end int }

// partPlan finds the loops' functions of src and the number of parts splitParts cuts it into
// (0 or 1: whole), without cutting it: Build keys its cache by that number before it knows
// whether it must compile.
func partPlan(src string, n int) ([]span, int) {
	if !strings.Contains(src, "#define CNF_STATE(") || strings.Contains(src, hostMark) {
		return nil, 0
	}
	var loops []span
	for at := 0; ; {
		i := strings.Index(src[at:], "\n"+loopFunctionMark)
		if i < 0 {
			break
		}
		start := at + i + 1
		j := strings.Index(src[start:], "\n}\n")
		if j < 0 {
			return nil, 0 // not a function as emit.go writes them
		}
		end := start + j + len("\n}\n")
		loops = append(loops, span{start, end})
		at = end - 1
	}
	if len(loops) == 0 {
		return nil, 0
	}
	return loops, min(n, len(loops)+1, maxParts)
}

// compileCost estimates what gcc takes to compile a loop's function, in tenths of a
// millisecond of gcc 12 at -O3. Its text was a poor estimate: a per-element state machine (a
// loop with `goto`: cross products and the like) compiles about five times faster a byte than
// a blocked loop, whose time goes with its dense inner loops (each vectorised, with its
// epilogue) and its tests rather than its length. Dealt out by text, the 100-binding classic
// program of seed 302 had a 110 KB state machine (0.27 s of gcc) in one part with six small
// loops and thirteen blocked loops in the other: 0.6 s and 1.6 s (docs/performance.md, "Parts
// dealt out by compile time").
func compileCost(fn string) int {
	if strings.Contains(fn, "\tgoto ") || strings.Contains(fn, " goto ") {
		return stateMachineFixed + len(fn)*stateMachinePerKB/1024
	}
	return blockedFixed + blockedFor*strings.Count(fn, "for (") + blockedIf*strings.Count(fn, "if (")
}

// The constants of compileCost, in its unit, fitted by least squares to the loops of generated
// 100-binding programs (shapes chains, classic, sizes, glued and fans; 119 blocked loops and two
// state machines), each compiled alone beside the runtime: a blocked loop 61 ms, 8.2 ms a
// `for` and 7.4 ms an `if` (root mean square error 40 ms, where its text gave 69 ms); a state
// machine 50 ms and 1.6 ms a KB. restCost is the rest of the file in part 0 (the definition's
// function and the harness's main, with the input readers only main uses): about 0.16 s.
const (
	blockedFixed      = 610
	blockedFor        = 82
	blockedIf         = 74
	stateMachineFixed = 500
	stateMachinePerKB = 16
	restCost          = 1600
)

// maxParts bounds the compilers run at once.
const maxParts = 16

// hostMark starts a host file's text in generated C (program.assembleWith): its functions
// may keep state of their own, which parts would each have a copy of, so such a program is
// compiled whole.
const hostMark = "\n/* Host functions and types: "

// partedLoopMark is loopFunctionMark without `static`, in the parts.
const partedLoopMark = "__attribute__((noinline)) void cnf_L"

// splitParts cuts the generated C src into at most n parts (and at most one more than its
// loops) to compile in parallel and link, each a complete C file whose first line defines
// CNF_PART, or returns nil when src should be compiled whole: n under 2, a host file, or a
// file that is not cnf's (no CNF_STATE, no loop functions). The parts are the same for the same src and
// n: the loops are dealt out by their estimated compile time (compileCost), dearest first, to
// the part with the least so far (part 0 starting with the rest of the file), ties to the
// lower part and the earlier loop.
func splitParts(src string, n int) []string {
	loops, n := partPlan(src, n)
	if n < 2 {
		return nil
	}
	// The loops by cost, dearest first; each to the lightest part.
	order := make([]int, len(loops))
	for i := range order {
		order[i] = i
	}
	cost := make([]int, len(loops))
	for i, l := range loops {
		cost[i] = compileCost(src[l.start:l.end])
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(cost[b], cost[a]) })
	load := make([]int, n)
	load[0] = restCost // the definition's function and main
	part := make([]int, len(loops))
	for _, i := range order {
		p := 0
		for q := 1; q < n; q++ {
			if load[q] < load[p] {
				p = q
			}
		}
		part[i] = p
		load[p] += cost[i]
	}
	prelude := src[:loops[0].start]
	var protos strings.Builder
	protos.WriteString("/* The loops' functions, compiled in parts (codegen/parts.go). */\n")
	for _, l := range loops {
		line := src[l.start : l.start+strings.IndexByte(src[l.start:], '\n')]
		protos.WriteString(strings.TrimSuffix(strings.Replace(line, loopFunctionMark, partedLoopMark, 1), " {") + ";\n")
	}
	parts := make([]strings.Builder, n)
	for p := range parts {
		fmt.Fprintf(&parts[p], "#define CNF_PART %d\n", p)
		parts[p].WriteString(prelude)
	}
	parts[0].WriteString(protos.String())
	// Part 0: the rest of the file in order, with its own loops; the others: their loops.
	at := loops[0].start
	for i, l := range loops {
		parts[0].WriteString(src[at:l.start])
		parts[part[i]].WriteString(strings.Replace(src[l.start:l.end], loopFunctionMark, partedLoopMark, 1))
		at = l.end
	}
	parts[0].WriteString(src[at:])
	out := make([]string, n)
	for p := range parts {
		out[p] = parts[p].String()
	}
	return out
}
