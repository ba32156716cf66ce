package codegen

import (
	"fmt"
	"strings"

	"github.com/cnf-tools/cnf/fuse"
	"github.com/cnf-tools/cnf/types"
)

// The harness protocol (cnf run --compiled): the parameters in order on standard input, the
// results in order on standard output, each value in the machine's byte order: an Int as 8
// bytes, a Float as an 8-byte double, a Bool as 1 byte, a tuple as its components, an array as
// its length (an Int) and its elements. A run-time error is one line on standard error and
// exit status 3. Values are formatted by Go (fuse.FormatValue), so the output is cnf run's.

const ioC = `static void cnf_read(void *p, size_t n) {
	if (fread(p, 1, n, stdin) != n) { fprintf(stderr, "cnf harness: the input ended early\n"); exit(2); }
}
CNF_STATE(int cnf_hashing, ); /* cnf_write hashes instead of writing (cnf bench's checksum) */
CNF_STATE(uint64_t cnf_hash, = 1469598103934665603ULL);
static void cnf_write(const void *p, size_t n) {
	if (cnf_hashing) {
		const unsigned char *b = p;
		for (size_t i = 0; i < n; i++) { cnf_hash ^= b[i]; cnf_hash *= 1099511628211ULL; }
		return;
	}
	if (fwrite(p, 1, n, stdout) != n) { fprintf(stderr, "cnf harness: cannot write the results\n"); exit(2); }
}
`

// codec makes (once) the functions reading and writing a value of type t.
func (p *program) codec(t *types.Type) (read, write string, err error) {
	p.helper("cnf_read", func() (string, error) { return ioC, nil })
	tn, err := p.ct.name(t)
	if err != nil {
		return "", "", err
	}
	m := mangle(t)
	read, write = "cnf_read_"+m, "cnf_write_"+m
	var rd, wr string
	switch t.Kind() {
	case "Int", "Float":
		rd, wr = "\tcnf_read(x, 8);\n", "\tcnf_write(&x, 8);\n"
	case "Bool":
		rd = "\tunsigned char b;\n\tcnf_read(&b, 1);\n\t*x = b != 0;\n"
		wr = "\tunsigned char b = x;\n\tcnf_write(&b, 1);\n"
	case "Tuple":
		var r, w strings.Builder
		for i, e := range t.Elems() {
			er, ew, err := p.codec(e)
			if err != nil {
				return "", "", err
			}
			fmt.Fprintf(&r, "\t%s(&x->f%d);\n", er, i)
			fmt.Fprintf(&w, "\t%s(x.f%d);\n", ew, i)
		}
		rd, wr = r.String(), w.String()
	case "Array":
		er, ew, err := p.codec(t.Elem())
		if err != nil {
			return "", "", err
		}
		en, _ := p.ct.name(t.Elem())
		rd = fmt.Sprintf("\tcnf_read(&x->len, 8);\n\tif (x->len < 0) { fprintf(stderr, \"cnf harness: bad length\\n\"); exit(2); }\n\tx->data = cnf_alloc_made(0, x->len, sizeof(%s), \"input\", 0);\n", en)
		wr = "\tcnf_write(&x.len, 8);\n"
		if k := t.Elem().Kind(); k == "Int" || k == "Float" {
			rd += "\tcnf_read(x->data, (size_t)x->len * 8);\n"
			wr += "\tcnf_write(x.data, (size_t)x.len * 8);\n"
		} else {
			rd += fmt.Sprintf("\tfor (int64_t i = 0; i < x->len; i++) %s(&x->data[i]);\n", er)
			wr += fmt.Sprintf("\tfor (int64_t i = 0; i < x.len; i++) %s(x.data[i]);\n", ew)
		}
	default:
		return "", "", fmt.Errorf("a value of type %s cannot be passed to or from a compiled program (only Int, Float, Bool, tuples and arrays of them)", t)
	}
	if _, err := p.helper(read, func() (string, error) {
		return fmt.Sprintf("static void %s(%s *x) {\n%s}\nstatic void %s(%s x) {\n%s}\n", read, tn, rd, write, tn, wr), nil
	}); err != nil {
		return "", "", err
	}
	return read, write, nil
}

// harness is the main function of cnf run --compiled: read the parameters, call the
// definition, write the results.
func harness(p *program, u *Unit) (string, error) {
	var b strings.Builder
	b.WriteString("int main(void) {\n\tstatic char out[1 << 16];\n\tsetvbuf(stdout, out, _IOFBF, sizeof out);\n\tcnf_threads_from_env();\n")
	fmt.Fprintf(&b, "\tcnf_limit = %d; /* cnf run's limit (fuse.MaxElements) */\n", fuse.MaxElements)
	var args []string
	for _, prm := range u.Params {
		rd, _, err := p.codec(prm.Type)
		if err != nil {
			return "", &CompileError{Range: prm.Range, Message: fmt.Sprintf("parameter %s: %v", prm.Name, err)}
		}
		tn, _ := p.ct.name(prm.Type)
		fmt.Fprintf(&b, "\t%s %s;\n\t%s(&%s);\n", tn, prm.C, rd, prm.C)
		args = append(args, prm.C)
	}
	fmt.Fprintf(&b, "\t%s r = %s(%s);\n", u.Result, u.Name, strings.Join(args, ", "))
	for _, res := range u.Results {
		_, wr, err := p.codec(res.Type)
		if err != nil {
			return "", &CompileError{Range: res.Range, Message: fmt.Sprintf("result %s: %v", res.Name, err)}
		}
		fmt.Fprintf(&b, "\t%s(r.%s);\n", wr, res.C)
	}
	b.WriteString("\tif (fflush(stdout) != 0) return 2;\n\treturn 0;\n}\n")
	return b.String(), nil
}
