package codegen

import (
	"fmt"
	"strings"

	"github.com/cnf-tools/cnf/syntax"
	"github.com/cnf-tools/cnf/types"
)

// library lists the externals cnf run knows without a host file (fuse.DefaultExternals), each
// compiled per element type with the interpreter's results and errors.
var library = map[string]bool{"length": true, "sum": true, "maximum": true, "minimum": true, "reverse": true, "sort": true}

// external writes an external binding: a call of the host file's function with the arguments
// (arrays as Arr_T), whose result is the bound name, or a tuple of the bound names; or the
// library's function of that name when the host file has none; or a prelude function applied
// in place (call, typed by plan).
func (d *definition) external(b *syntax.Binding, call syntax.Expr) error {
	c := b.Rhs.(*syntax.External)
	name := c.Func.Name
	where := quote(b.Name())
	args := make([]string, len(c.Args))
	for i, a := range c.Args {
		args[i] = cname(a.Name)
	}
	d.printf("\n\t/* %s = %s */\n", b.Name(), strings.ReplaceAll(syntax.FormatCombinator(b.Rhs), "*/", "* /"))
	defer func() {
		for _, id := range b.Names {
			if d.info.Types[id.Name].IsArray() {
				d.done[id.Name] = true
			}
		}
	}()
	if call != nil && len(b.Names) == 1 {
		v, err := d.x.value(call, nil, where)
		if err != nil {
			return err
		}
		d.printf("\t%s = %s;\n", cname(b.Names[0].Name), v)
		return nil
	}
	if !d.p.hostKnown(name) && library[name] && len(c.Args) == 1 && len(b.Names) == 1 {
		call, err := d.p.libraryCall(name, d.info.Types[c.Args[0].Name], d.info.Types[b.Names[0].Name])
		if err != nil {
			return &CompileError{Range: c.Func.Range, Message: err.Error()}
		}
		d.printf("\t%s = %s(%s, %s);\n", cname(b.Names[0].Name), call, args[0], where)
		return nil
	}
	if !d.p.hostKnown(name) {
		return &CompileError{Range: c.Func.Range, Message: fmt.Sprintf("unknown host function %s: give its C implementation with --host FILE.c", name)}
	}
	for _, a := range c.Args {
		if _, err := d.p.ct.name(d.info.Types[a.Name]); err != nil {
			return &CompileError{Range: a.Range, Message: err.Error()}
		}
	}
	hostCall := fmt.Sprintf("%s(%s)", name, strings.Join(args, ", "))
	if len(b.Names) == 1 {
		d.printf("\t%s = %s;\n", cname(b.Names[0].Name), hostCall)
		return nil
	}
	elems := make([]*types.Type, len(b.Names))
	for i, id := range b.Names {
		elems[i] = d.info.Types[id.Name]
	}
	tn, err := d.p.ct.name(types.Tuple(elems...))
	if err != nil {
		return &CompileError{Range: b.Range, Message: err.Error()}
	}
	tmp := d.p.local("r")
	d.printf("\t{\n\t\t%s %s = %s;\n", tn, tmp, hostCall)
	for i, id := range b.Names {
		d.printf("\t\t%s = %s.f%d;\n", cname(id.Name), tmp, i)
	}
	d.printf("\t}\n")
	return nil
}

// libraryCall is the C function of a library external at an argument and result type.
func (p *program) libraryCall(name string, arg, res *types.Type) (string, error) {
	if !arg.IsArray() {
		return "", fmt.Errorf("external %s takes an array", name)
	}
	elem := arg.Elem()
	an, err := p.ct.name(arg)
	if err != nil {
		return "", err
	}
	en, err := p.ct.name(elem)
	if err != nil {
		return "", err
	}
	rn, err := p.ct.name(res)
	if err != nil {
		return "", err
	}
	fname := "cnf_ext_" + name + "_" + mangle(elem)
	var body string
	switch name {
	case "length":
		body = "\treturn a.len;\n"
	case "sum":
		if k := elem.Kind(); k != "Int" && k != "Float" {
			return "", fmt.Errorf("external sum needs numbers, not %s", elem)
		}
		body = fmt.Sprintf("\t%s s = 0;\n\tfor (int64_t i = 0; i < a.len; i++) s += a.data[i];\n\treturn s;\n", en)
	case "maximum", "minimum":
		op := map[string]string{"maximum": "max", "minimum": "min"}[name]
		f, err := p.minMax(op, elem)
		if err != nil {
			return "", err
		}
		body = fmt.Sprintf("\tif (a.len == 0) cnf_fail(w, \"external %s: empty array\");\n\t%s s = a.data[0];\n\tfor (int64_t i = 1; i < a.len; i++) s = %s(s, a.data[i]);\n\treturn s;\n", name, en, f)
	case "reverse":
		body = fmt.Sprintf("\t%s r = {cnf_alloc(a.len, sizeof(%s), w), a.len};\n\tfor (int64_t i = 0; i < a.len; i++) r.data[a.len - 1 - i] = a.data[i];\n\treturn r;\n", an, en)
	case "sort":
		cmp, err := p.compare(elem)
		if err != nil {
			return "", err
		}
		// A stable merge sort, as sort.SliceStable orders.
		body = fmt.Sprintf(`	%[1]s r = {cnf_alloc(a.len, sizeof(%[2]s), w), a.len};
	%[2]s *t = cnf_alloc(a.len, sizeof(%[2]s), w);
	memcpy(r.data, a.data, (size_t)a.len * sizeof(%[2]s));
	for (int64_t width = 1; width < a.len; width *= 2) {
		for (int64_t lo = 0; lo < a.len; lo += 2 * width) {
			int64_t mid = lo + width < a.len ? lo + width : a.len;
			int64_t hi = lo + 2 * width < a.len ? lo + 2 * width : a.len;
			int64_t i = lo, j = mid, k = lo;
			while (i < mid && j < hi) t[k++] = %[3]s(r.data[j], r.data[i]) < 0 ? r.data[j++] : r.data[i++];
			while (i < mid) t[k++] = r.data[i++];
			while (j < hi) t[k++] = r.data[j++];
		}
		memcpy(r.data, t, (size_t)a.len * sizeof(%[2]s));
	}
	cnf_free(t);
	return r;
`, an, en, cmp)
	}
	return p.helper(fname, func() (string, error) {
		return fmt.Sprintf("static %s %s(%s a, const char *w) {\n\t(void)w;\n%s}\n", rn, fname, an, body), nil
	})
}
