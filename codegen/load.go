package codegen

import (
	"fmt"
	"strings"

	"github.com/cnf-tools/cnf/types"
)

// cnf bench --inputs DIR: the harness reads the parameters from NumPy .npy files instead of
// drawing them, so that a program can be measured on data it accepts (indices it computes,
// sizes it chooses) or on a user's own data. The files are those --save writes, or NumPy's
// np.save of a one-dimensional array: DIR/in_NAME.npy, a prime written as _p. The element
// type must be the parameter's as save.go describes it ('<i8', '<f8', '|b1', a tuple as the C
// struct's structured type): a file of another dtype, shape or length is refused, naming the
// file and what was expected. A scalar parameter is read from its file when one is there and
// --arg does not give it.

// loadC reads DIR/NAME.npy: its data, of len elements of size bytes (a scalar: one), after
// checking its header's dtype description (descr, compared without spaces) and shape.
const loadC = `static int cnf_same_descr(const char *a, const char *b) {
	for (;;) {
		while (*a == ' ') a++;
		while (*b == ' ') b++;
		if (*a != *b) return 0;
		if (!*a) return 1;
		a++, b++;
	}
}
static void cnf_load_fail(const char *path, const char *why, const char *detail) __attribute__((noreturn));
static void cnf_load_fail(const char *path, const char *why, const char *detail) {
	fprintf(stderr, "cnf harness: --inputs: %s: %s%s\n", path, why, detail);
	exit(2);
}
static void *cnf_load(const char *dir, const char *name, const char *descr, size_t size, int scalar, int64_t *len) {
	char path[4096];
	snprintf(path, sizeof path, "%s/%s.npy", dir, name);
	FILE *f = fopen(path, "rb");
	if (!f) cnf_load_fail(path, "cannot open it: ", strerror(errno));
	unsigned char pre[12];
	if (fread(pre, 1, 8, f) != 8 || memcmp(pre, "\x93NUMPY", 6) != 0) cnf_load_fail(path, "not a NumPy .npy file", "");
	size_t hl;
	if (pre[6] == 1) {
		if (fread(pre + 8, 1, 2, f) != 2) cnf_load_fail(path, "its header is cut short", "");
		hl = (size_t)pre[8] | (size_t)pre[9] << 8;
	} else if (pre[6] == 2 || pre[6] == 3) {
		if (fread(pre + 8, 1, 4, f) != 4) cnf_load_fail(path, "its header is cut short", "");
		hl = (size_t)pre[8] | (size_t)pre[9] << 8 | (size_t)pre[10] << 16 | (size_t)pre[11] << 24;
	} else {
		cnf_load_fail(path, "an .npy format version this harness does not read", "");
	}
	if (hl > (1 << 20)) cnf_load_fail(path, "its header is too long", "");
	char *h = malloc(hl + 1);
	if (!h || fread(h, 1, hl, f) != hl) cnf_load_fail(path, "its header is cut short", "");
	h[hl] = 0;
	char *d = strstr(h, "'descr':"), *o = strstr(h, "'fortran_order':"), *s = strstr(h, "'shape':");
	if (!d || !o || !s) cnf_load_fail(path, "its header has no descr, fortran_order or shape", "");
	/* the description: from after 'descr': to the comma before the next key */
	char got[4096];
	const char *start = d + 8, *end = o < s ? o : s;
	while (*start == ' ') start++;
	if (end < start) end = start + strlen(start);
	while (end > start && (end[-1] == ' ' || end[-1] == ',')) end--;
	snprintf(got, sizeof got, "%.*s", (int)(end - start), start);
	if (!cnf_same_descr(got, descr)) {
		char detail[8192];
		snprintf(detail, sizeof detail, "%s, expected %s", got, descr);
		cnf_load_fail(path, "its dtype is ", detail);
	}
	char *p = strchr(s, '(');
	if (!p) cnf_load_fail(path, "its shape is not a tuple", "");
	p++;
	while (*p == ' ') p++;
	int64_t n = 1;
	if (*p == ')') {
		if (!scalar) cnf_load_fail(path, "it holds one value; the parameter is an array", "");
	} else {
		char *q;
		n = strtoll(p, &q, 10);
		while (*q == ' ' || *q == ',') q++;
		if (q == p || n < 0 || *q != ')') cnf_load_fail(path, "its shape is not one dimension: the parameter is an array", "");
		if (scalar) cnf_load_fail(path, "it holds an array; the parameter is one value", "");
	}
	free(h);
	long at = ftell(f);
	if (at < 0 || fseek(f, 0, SEEK_END) != 0) cnf_load_fail(path, "cannot seek in it", "");
	long total = ftell(f);
	if (total < at || (uint64_t)(total - at) != (uint64_t)n * size) {
		char detail[128];
		snprintf(detail, sizeof detail, "%lld bytes of data, expected %lld (%lld elements of %zu bytes)", (long long)(total - at), (long long)n * (long long)size, (long long)n, size);
		cnf_load_fail(path, "it holds ", detail);
	}
	fseek(f, at, SEEK_SET);
	void *data = scalar ? malloc(size) : cnf_alloc(n, size, name);
	if (n > 0 && fread(data, size, (size_t)n, f) != (size_t)n) cnf_load_fail(path, "cannot read its data", "");
	fclose(f);
	*len = n;
	return data;
}
`

// loadValue is the C that reads the parameter prm (C name cv, type t) from DIR/in_NAME.npy
// (cnf_load_dir) into cv, declared before.
func (p *program) loadValue(name, cv string, t *types.Type) (string, error) {
	p.helper("cnf_load", func() (string, error) { return "#include <errno.h>\n" + loadC, nil })
	file := strings.ReplaceAll("in_"+name, "'", "_p")
	en, scalar, descr, err := p.npyElem(t, "\t\t\t")
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString("\t\t{\n")
	b.WriteString(descr)
	b.WriteString("\t\t\tint64_t len;\n")
	if scalar {
		fmt.Fprintf(&b, "\t\t\t%s *v = cnf_load(cnf_load_dir, %q, descr, sizeof(%s), 1, &len);\n\t\t\t%s = *v;\n\t\t\tfree(v);\n", en, file, en, cv)
	} else {
		fmt.Fprintf(&b, "\t\t\t%s.data = cnf_load(cnf_load_dir, %q, descr, sizeof(%s), 0, &len);\n\t\t\t%s.len = len;\n", cv, file, en, cv)
	}
	b.WriteString("\t\t}\n")
	return b.String(), nil
}

// loadOrRefuse is loadValue, or where a value cannot be read, a statement that says so when
// the harness is asked to read its inputs.
func (p *program) loadOrRefuse(name, cv string, t *types.Type) string {
	st, err := p.loadValue(name, cv, t)
	if err != nil {
		return fmt.Sprintf("\t\tfprintf(stderr, \"cnf harness: --inputs: %%s\\n\", %q);\n\t\treturn 2;\n", "in_"+name+": "+err.Error())
	}
	return st
}
