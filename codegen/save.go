package codegen

import (
	"fmt"
	"strings"

	"github.com/cnf-tools/cnf/types"
)

// cnf bench --save DIR: the harness writes the inputs it drew and the results of its warm-up
// run as NumPy .npy files (format 1.0), so that other tools can run the same program on exactly
// the same data and their results can be checked against cnf's (scripts/peers.sh). Each value
// is stored as the C code lays it out: Int '<i8', Float '<f8', Bool '|b1', a tuple as a
// structured type with the C struct's padding, a host type as raw bytes ('|V' and its size).
// Files are named after the CNF parameters and results, a prime written as _p (above' is
// out_above_p.npy).

// saveC writes one .npy file: DIR/NAME.npy with the given dtype description and shape.
const saveC = `static void cnf_save(const char *dir, const char *name, const char *descr, int64_t len, int scalar, const void *data, size_t bytes) {
	char path[4096];
	snprintf(path, sizeof path, "%s/%s.npy", dir, name);
	FILE *f = fopen(path, "wb");
	if (!f) { fprintf(stderr, "cnf harness: cannot create %s\n", path); exit(2); }
	char shape[32], h[8192];
	if (scalar) snprintf(shape, sizeof shape, "()");
	else snprintf(shape, sizeof shape, "(%lld,)", (long long)len);
	int n = snprintf(h, sizeof h, "{'descr': %s, 'fortran_order': False, 'shape': %s, }", descr, shape);
	/* magic (6) + version (2) + header length (2) + header, padded with spaces to 64 bytes,
	   ending in a newline */
	int total = (10 + n + 1 + 63) / 64 * 64;
	while (10 + n + 1 < total) h[n++] = ' ';
	h[n++] = '\n';
	unsigned char pre[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (unsigned char)(n & 0xff), (unsigned char)(n >> 8)};
	if (fwrite(pre, 1, 10, f) != 10 || fwrite(h, 1, (size_t)n, f) != (size_t)n ||
	    (bytes && fwrite(data, 1, bytes, f) != bytes) || fclose(f) != 0) {
		fprintf(stderr, "cnf harness: cannot write %s\n", path);
		exit(2);
	}
}
`

// npyDescr is a C format string (and its arguments) that prints the NumPy dtype description
// of a value of type t. NumPy's .npy header describes a structured type as a list of fields,
// padding as unnamed void fields, so a tuple's layout is computed here (natural alignment, as
// the C ABIs cnf targets lay out its structs) and checked against the compiler's by a static
// assertion in the emitted C; a host type is its raw bytes, sized by the compiler.
func (p *program) npyDescr(t *types.Type) (format string, args []string, err error) {
	if t.Kind() == "Host" {
		tn, err := p.ct.name(t)
		if err != nil {
			return "", nil, err
		}
		return "'|V%zu'", []string{fmt.Sprintf("sizeof(%s)", tn)}, nil
	}
	d, _, _, err := p.npyLayout(t)
	return d, nil, err
}

// npyLayout is the dtype description, size and alignment of a value of type t (no host types).
func (p *program) npyLayout(t *types.Type) (descr string, size, align int, err error) {
	switch t.Kind() {
	case "Int":
		return "'<i8'", 8, 8, nil
	case "Float":
		return "'<f8'", 8, 8, nil
	case "Bool":
		return "'|b1'", 1, 1, nil
	case "Tuple":
		tn, err := p.ct.name(t)
		if err != nil {
			return "", 0, 0, err
		}
		var fields, checks []string
		off, align := 0, 1
		for i, e := range t.Elems() {
			d, sz, al, err := p.npyLayout(e)
			if err != nil {
				return "", 0, 0, err
			}
			if pad := (al - off%al) % al; pad > 0 {
				fields = append(fields, fmt.Sprintf("('', '|V%d')", pad))
				off += pad
			}
			fields = append(fields, fmt.Sprintf("('f%d', %s)", i, d))
			checks = append(checks, fmt.Sprintf("offsetof(%s, f%d) == %d", tn, i, off))
			off += sz
			align = max(align, al)
		}
		if pad := (align - off%align) % align; pad > 0 {
			fields = append(fields, fmt.Sprintf("('', '|V%d')", pad))
			off += pad
		}
		checks = append(checks, fmt.Sprintf("sizeof(%s) == %d", tn, off))
		p.helper("cnf_layout_"+mangle(t), func() (string, error) {
			return fmt.Sprintf("_Static_assert(%s, \"the .npy layout of %s\");\n", strings.Join(checks, " && "), tn), nil
		})
		return "[" + strings.Join(fields, ", ") + "]", off, align, nil
	}
	return "", 0, 0, fmt.Errorf("cnf bench --save cannot store a %s", t)
}

// npyElem is what saveValue and loadValue need of a value of type t: the C name of its
// element type (of t itself for a scalar), whether it is a scalar, and the C declaration of
// descr, its .npy dtype description (a host type's sized by the compiler), indented by in.
func (p *program) npyElem(t *types.Type, in string) (en string, scalar bool, descr string, err error) {
	elem, scalar := t, true
	if t.IsArray() {
		elem, scalar = t.Elem(), false
	}
	format, args, err := p.npyDescr(elem)
	if err != nil {
		return "", false, "", err
	}
	if en, err = p.ct.name(elem); err != nil {
		return "", false, "", err
	}
	if len(args) > 0 {
		return en, scalar, fmt.Sprintf("%schar descr[4096];\n%ssnprintf(descr, sizeof descr, %q, %s);\n", in, in, format, strings.Join(args, ", ")), nil
	}
	return en, scalar, fmt.Sprintf("%sconst char *descr = %q;\n", in, format), nil
}

// saveValue is the C statement that saves value (an expression of type t) as DIR/file.npy.
func (p *program) saveValue(file, value string, t *types.Type) (string, error) {
	p.helper("cnf_save", func() (string, error) { return "#include <stddef.h>\n" + saveC, nil })
	file = strings.ReplaceAll(file, "'", "_p")
	en, scalar, descr, err := p.npyElem(t, "\t\t\t\t")
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString("\t\t\t{\n")
	b.WriteString(descr)
	if scalar {
		fmt.Fprintf(&b, "\t\t\t\t%s v = %s;\n\t\t\t\tcnf_save(cnf_save_dir, %q, descr, 1, 1, &v, sizeof v);\n", en, value, file)
	} else {
		fmt.Fprintf(&b, "\t\t\t\tcnf_save(cnf_save_dir, %q, descr, %s.len, 0, %s.data, (size_t)%s.len * sizeof(%s));\n", file, value, value, value, en)
	}
	b.WriteString("\t\t\t}\n")
	return b.String(), nil
}

// saveOrRefuse is saveValue, or where a value cannot be stored, a statement that says so when
// the harness is asked to save (the benchmark itself runs either way).
func (p *program) saveOrRefuse(file, value string, t *types.Type) string {
	st, err := p.saveValue(file, value, t)
	if err != nil {
		return fmt.Sprintf("\t\t\tfprintf(stderr, \"cnf harness: %%s\\n\", %q);\n\t\t\treturn 2;\n", file+": "+err.Error())
	}
	return st
}
