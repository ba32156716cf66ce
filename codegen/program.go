package codegen

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/cnf-tools/cnf/syntax"
	"github.com/cnf-tools/cnf/types"
)

// program is the state of emitting one C file: its types, the helpers it needs (each made
// once), fresh local names, and the host file.
type program struct {
	// threads is the loops' number of threads until the caller sets one (Options.DefaultThreads).
	threads int
	ct      *ctypes
	helpers map[string]bool
	code    []string // helper functions, in the order they were made
	locals  int
	host    *Host
	missing []*syntax.Ident // host functions used that the host file lacks, first use of each
	known   map[string]bool // hostKnown's answers
	// effects counts the translated operations that can fail or have effects (integer
	// division, indexing, host calls): an expression that adds none may be evaluated when its
	// value is not needed, which lets a branch become a select.
	effects int
	// byInvariant counts those of them that are Int divisions by a loop-invariant divisor,
	// which fail only when the divisor is zero, whatever the element (parallel.go).
	byInvariant int
	// hostCalls counts those of them that are calls of host functions: pure, as every CNF
	// function is, so a loop that calls them may run on several threads (parallel.go).
	hostCalls int
	// costly counts the translated operations that cost many times an addition and that gcc
	// cannot vectorise (Int division and remainder, even by a literal; exp, log, sin, cos, **):
	// a map that has them is not computed for elements a filter drops (blocked.go, spec).
	costly int
	// slow counts the operations that gcc vectorises but that cost several additions each
	// (sqrt, Float division): a map that has them is not computed for elements a filter drops
	// either (blocked.go, spec), but may be chosen by a mask (cnf_select_Float).
	slow int
	// scalar counts those costly operations that gcc never vectorises: all of them but an Int
	// division or remainder by a power of two (shifts). A pass whose other work vectorises
	// computes them in a loop of its own (blocked.go, hoisted).
	scalar int
	// latent counts those costly operations whose latency is long (an Int division or
	// remainder by an element, not by a literal or a loop-invariant divisor, which are
	// multiplications; exp, log, sin, cos, **): what reads their result in the same loop body
	// waits on a chain of them (blocked.go, pass).
	latent int
}

// Host is the user's C for host functions and host types (--host FILE.c).
type Host struct {
	Path string
	Src  string
}

// TypesMarker is the line of a host file after which the structs that involve its host types
// are declared (a host function returning a pair of Boxes needs Tup2_Box_Box); without it they
// come after the whole file.
const TypesMarker = "/* cnf: types */"

func newProgram(host *Host) *program {
	return &program{ct: newCTypes(), helpers: map[string]bool{}, host: host, known: map[string]bool{}}
}

// local is a fresh C name for a lambda parameter or a temporary.
func (p *program) local(name string) string {
	p.locals++
	return ident(fmt.Sprintf("l%d_", p.locals), name)
}

// hostKnown reports whether the host file defines the C function name.
func (p *program) hostKnown(name string) bool {
	if p.host == nil {
		return false
	}
	known, ok := p.known[name]
	if !ok {
		known = regexp.MustCompile(`\b` + regexp.QuoteMeta(name) + `\s*\(`).MatchString(p.host.Src)
		p.known[name] = known
	}
	return known
}

// noteMissing records a host function the host file lacks (once per name), so that the error
// lists every one, not only the first met.
func (p *program) noteMissing(id *syntax.Ident) {
	for _, m := range p.missing {
		if m.Name == id.Name {
			return
		}
	}
	p.missing = append(p.missing, id)
}

// missingError is the error naming every host function the host file lacks, at the first's
// use, or nil.
func (p *program) missingError() error {
	switch len(p.missing) {
	case 0:
		return nil
	case 1:
		return &CompileError{Range: p.missing[0].Range, Message: fmt.Sprintf("unknown host function %s: give its C implementation with --host FILE.c", p.missing[0].Name)}
	}
	names := make([]string, len(p.missing))
	for i, m := range p.missing {
		names[i] = m.Name
	}
	list := strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
	return &CompileError{Range: p.missing[0].Range, Message: fmt.Sprintf("unknown host functions %s: give their C implementations with --host FILE.c", list)}
}

// helper adds a helper function once.
func (p *program) helper(name string, code func() (string, error)) (string, error) {
	if p.helpers[name] {
		return name, nil
	}
	c, err := code()
	if err != nil {
		return "", err
	}
	p.helpers[name] = true
	p.code = append(p.code, c)
	return name, nil
}

// compare is the name of the function comparing two values of type t (-1, 0, 1), as the
// interpreter compares: numbers by value, False before True, tuples component by component.
func (p *program) compare(t *types.Type) (string, error) {
	switch t.Kind() {
	case "Int", "Float", "Bool":
		return "cnf_cmp_" + t.Kind(), nil
	case "Tuple":
		tn, err := p.ct.name(t)
		if err != nil {
			return "", err
		}
		var body strings.Builder
		for i, e := range t.Elems() {
			c, err := p.compare(e)
			if err != nil {
				return "", err
			}
			fmt.Fprintf(&body, "\tif ((c = %s(a.f%d, b.f%d)) != 0) return c;\n", c, i, i)
		}
		name := "cnf_cmp_" + mangle(t)
		return p.helper(name, func() (string, error) {
			return fmt.Sprintf("static inline int %s(%s a, %s b) {\n\tint c;\n%s\treturn 0;\n}\n", name, tn, tn, body.String()), nil
		})
	}
	return "", fmt.Errorf("values of type %s cannot be compared", t)
}

// minMax is the function min or max at type t: min a b is a when a <= b, max a b is a when
// a > b (fuse's builtin).
func (p *program) minMax(op string, t *types.Type) (string, error) {
	cmp, err := p.compare(t)
	if err != nil {
		return "", err
	}
	tn, err := p.ct.name(t)
	if err != nil {
		return "", err
	}
	name := "cnf_" + op + "_" + mangle(t)
	body := fmt.Sprintf("%s(a, b) <= 0 ? a : b", cmp)
	if op == "max" {
		body = fmt.Sprintf("%s(a, b) > 0 ? a : b", cmp)
	}
	if k := t.Kind(); k == "Int" || k == "Float" || k == "Bool" {
		// The same without the three-way comparison, so that compilers vectorize it: a > b
		// is cmp(a, b) > 0 for these (NaN included).
		body = "a > b ? b : a"
		if op == "max" {
			body = "a > b ? a : b"
		}
	}
	if t.Kind() == "Float" {
		// For Floats, the choice as a mask of the comparison: gcc vectorizes it as it does the
		// ?: (a compare and a blend), and where the loop stays scalar (a Float fold in order
		// beside it) it cannot turn it into a branch, which it did with the ?: and which the
		// data took at random (a clamp by min and max ran 2.5 times slower: docs/performance.md,
		// "Float min and max without branches"). The same value, NaN and zeros included.
		keep, other := "b", "a" // min: b when a > b
		if op == "max" {
			keep, other = "a", "b"
		}
		body = fmt.Sprintf("cnf_select_Float(a > b, %s, %s)", keep, other)
		p.selectFloat()
	}
	return p.helper(name, func() (string, error) {
		return fmt.Sprintf("static inline %s %s(%s a, %s b) { return %s; }\n", tn, name, tn, tn, body), nil
	})
}

// scalarMinMax is minMax for a loop that stays scalar (exprs.scalar): for Floats, minMax's
// value by one SSE instruction. maxsd(a, b) is a > b ? a : b, and minsd(b, a) is b < a ? b :
// a, which is min's a > b ? b : a, NaN and signed zeros included (the instruction returns its
// second operand when the two compare unordered or equal). The instruction is written as asm:
// as intrinsics (_mm_max_sd of two _mm_set_sd) gcc also zeroed each accumulator's upper lane
// every step, a move on the chain of a fold (Table 1.1's initialBounds 1.36 times the
// hand-written C's time), and as the conditionals it made a compare and a branch of a clamp
// by literals, taken at random (bench/shapes/clipped.cnf 0.48 of stream fusion's time:
// docs/performance.md, "Speculation by the block before"). minMax's mask is about eight instructions in general registers in scalar
// code, a chain of them for a fold by min or max (bench/shapes/floatnorm.cnf and clipped.cnf:
// docs/performance.md, "Float min and max by one instruction where the loop is scalar"); in a
// loop gcc vectorises the mask is a compare and a blend, so minMax stays there. Other types:
// minMax.
func (p *program) scalarMinMax(op string, t *types.Type) (string, error) {
	plain, err := p.minMax(op, t)
	if err != nil || t.Kind() != "Float" {
		return plain, err
	}
	name := "cnf_" + op + "_Float_sse"
	// The instruction's first source is the value kept when the two compare unordered or
	// equal's other: maxsd's a, minsd's b (AT&T order: second source, first, destination).
	first, second, mnemonic := "a", "b", "maxsd"
	if op == "min" {
		first, second, mnemonic = "b", "a", "minsd"
	}
	return p.helper(name, func() (string, error) {
		var b strings.Builder
		// With AVX-512 any of xmm0-31 ("v"): held to xmm0-15 ("x"), an accumulator gcc had put
		// in xmm16-31 (a loop with many values live) was moved out and back every step, two
		// moves on the fold's chain (a filter's max and sum over what it keeps, 1.5 times
		// Megiddo's time; docs/performance.md, "Float min and max in any register").
		fmt.Fprintf(&b, "#if defined(__AVX512F__) && defined(__x86_64__)\n")
		fmt.Fprintf(&b, "static inline double %s(double a, double b) { double r; __asm__(\"v%s %%2, %%1, %%0\" : \"=v\"(r) : \"v\"(%s), \"v\"(%s)); return r; }\n", name, mnemonic, first, second)
		fmt.Fprintf(&b, "#elif defined(__AVX__) && (defined(__x86_64__) || defined(__i386__))\n")
		fmt.Fprintf(&b, "static inline double %s(double a, double b) { double r; __asm__(\"v%s %%2, %%1, %%0\" : \"=x\"(r) : \"x\"(%s), \"x\"(%s)); return r; }\n", name, mnemonic, first, second)
		fmt.Fprintf(&b, "#elif defined(__SSE2__) && (defined(__x86_64__) || defined(__i386__))\n")
		fmt.Fprintf(&b, "static inline double %s(double a, double b) { __asm__(\"%s %%1, %%0\" : \"+x\"(%s) : \"x\"(%s)); return %s; }\n", name, mnemonic, first, second, first)
		fmt.Fprintf(&b, "#else\nstatic inline double %s(double a, double b) { return %s(a, b); }\n#endif\n", name, plain)
		return b.String(), nil
	})
}

// selectFloat makes (once) cnf_select_Float(c, x, y): c ? x : y for Floats, without a branch
// (both x and y are computed: for values that cannot fail and cost little).
func (p *program) selectFloat() {
	p.helper("cnf_select_Float", func() (string, error) {
		return "static inline double cnf_select_Float(int c, double x, double y) {\n\tuint64_t m = -(uint64_t)(c != 0), a, b;\n\tmemcpy(&a, &x, 8);\n\tmemcpy(&b, &y, 8);\n\ta = (a & m) | (b & ~m);\n\tdouble r;\n\tmemcpy(&r, &a, 8);\n\treturn r;\n}\n", nil
	})
}

// selectInt makes (once) cnf_select_Int(c, x, y): c ? x : y for Ints, by a mask.
func (p *program) selectInt() {
	p.helper("cnf_select_Int", func() (string, error) {
		return "static inline int64_t cnf_select_Int(int64_t c, int64_t x, int64_t y) { return y ^ ((x ^ y) & -(int64_t)(c != 0)); }\n", nil
	})
}

// assemble puts the file together: the runtime, the plain types, the host file (with the
// types that involve host types at its marker or after it), the helpers and the functions.
// #line directives give the host file's lines their own file and numbers in the compiler's
// messages, and the generated lines after them name (the C file's own name).
func (p *program) assemble(header string, funcs []string, name string) string {
	return p.assembleWith(header, funcs, name, false, "")
}

// assembleWith is assemble, for a library named lib when library is true: its runtime fails
// by returning from the entry point (libraryRuntimeC), and its plain types are the header's.
func (p *program) assembleWith(header string, funcs []string, name string, library bool, lib string) string {
	var b strings.Builder
	b.WriteString(header)
	if p.threads > 1 {
		fmt.Fprintf(&b, "#ifndef CNF_THREADS_DEFAULT\n#define CNF_THREADS_DEFAULT %d /* cnf build --threads */\n#endif\n", p.threads)
	}
	if library {
		b.WriteString(libraryRuntimeC)
		b.WriteString(allocC)
		b.WriteString(libraryHelpersC)
	} else {
		b.WriteString(runtimeC)
		b.WriteString(allocC)
	}
	b.WriteString("\n/* Types: tuples are structs of fields f0, f1, ...; arrays are (data, len). */\n")
	for _, d := range p.ct.plain {
		if library {
			d = privateDecl(lib, d)
		}
		b.WriteString(d + "\n")
	}
	// resync says that the next line is the generated file's own line, as counted in b.
	resync := func() {
		fmt.Fprintf(&b, "#line %d %s\n", strings.Count(b.String(), "\n")+2, quote(name))
	}
	hosted := strings.Join(p.ct.hosted, "\n")
	if p.host != nil {
		fmt.Fprintf(&b, "\n/* Host functions and types: %s */\n#line 1 %s\n", p.host.Path, quote(p.host.Path))
		src := p.host.Src
		if !strings.HasSuffix(src, "\n") {
			src += "\n"
		}
		if i := strings.Index(src, TypesMarker); i >= 0 && hosted != "" {
			before, after := src[:i]+TypesMarker+"\n", src[i+len(TypesMarker):]
			b.WriteString(before)
			resync()
			b.WriteString(hosted + "\n")
			fmt.Fprintf(&b, "#line %d %s\n", strings.Count(before, "\n"), quote(p.host.Path))
			src, hosted = after, ""
		}
		b.WriteString(src)
		resync()
	}
	if hosted != "" {
		b.WriteString(hosted + "\n")
	}
	if len(p.code) > 0 {
		b.WriteString("\n/* Helpers */\n")
		for _, c := range p.code {
			b.WriteString(c)
		}
	}
	for _, f := range funcs {
		b.WriteString("\n")
		b.WriteString(f)
	}
	return b.String()
}
