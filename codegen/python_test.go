package codegen

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"pgregory.net/rapid"

	"github.com/cnf-tools/cnf/cluster"
	"github.com/cnf-tools/cnf/fuse"
	"github.com/cnf-tools/cnf/infer"
	"github.com/cnf-tools/cnf/internal/rapidgen"
	"github.com/cnf-tools/cnf/syntax/gen"
	"github.com/cnf-tools/cnf/types"
)

// pythonWithNumPy is a Python that has NumPy, or "" (the test then skips, unless
// CNF_REQUIRE_PYTHON is set, as test.bash sets it after installing python3-numpy).
func pythonWithNumPy(t *testing.T) string {
	for _, py := range []string{"python3", "/usr/bin/python3"} {
		if exec.Command(py, "-c", "import numpy").Run() == nil {
			return py
		}
	}
	if os.Getenv("CNF_REQUIRE_PYTHON") != "" {
		t.Fatal("no python3 with NumPy (Debian: python3-numpy)")
	}
	t.Skip("no python3 with NumPy")
	return ""
}

// The values crossing to and from Python are tagged JSON, exact for every value (a Float by
// its hexadecimal form): {"i": "5"}, {"f": "0x1.8p+1"}, {"b": true}, {"t": [...]}, {"a": [...]}.
func tagged(v fuse.Value) any {
	switch v := v.(type) {
	case int64:
		return map[string]any{"i": strconv.FormatInt(v, 10)}
	case float64:
		s := strconv.FormatFloat(v, 'x', -1, 64)
		switch {
		case math.IsNaN(v):
			s = "nan"
		case math.IsInf(v, 1):
			s = "inf"
		case math.IsInf(v, -1):
			s = "-inf"
		}
		return map[string]any{"f": s}
	case bool:
		return map[string]any{"b": v}
	case fuse.Tuple:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = tagged(x)
		}
		return map[string]any{"t": out}
	case fuse.Array:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = tagged(x)
		}
		return map[string]any{"a": out}
	}
	panic(fmt.Sprintf("no tag for %T", v))
}

func untagged(x any) (fuse.Value, error) {
	m, ok := x.(map[string]any)
	if !ok || len(m) != 1 {
		return nil, fmt.Errorf("not a tagged value: %v", x)
	}
	for k, v := range m {
		switch k {
		case "i":
			return strconv.ParseInt(v.(string), 10, 64)
		case "f":
			return strconv.ParseFloat(v.(string), 64)
		case "b":
			return v.(bool), nil
		case "t", "a":
			var out []fuse.Value
			for _, e := range v.([]any) {
				u, err := untagged(e)
				if err != nil {
					return nil, err
				}
				out = append(out, u)
			}
			if k == "t" {
				return fuse.Tuple(out), nil
			}
			if out == nil {
				out = []fuse.Value{}
			}
			return fuse.Array(out), nil
		}
	}
	return nil, fmt.Errorf("unknown tag in %v", x)
}

// pyCaller calls a definition of a module on each list of tagged arguments (standard input
// has a list of them) and prints, for each call, its tagged results or the CnfError.
const pyCaller = `
import json, sys
import numpy as np
sys.path.insert(0, sys.argv[1])
mod = __import__(sys.argv[2])
fn = getattr(mod, sys.argv[3])
kinds = json.loads(sys.argv[4])  # per parameter: its type as nested lists ("Int", ["Tuple", ...], ["Array", t])
dt = {"Int": np.int64, "Float": np.float64, "Bool": np.bool_}

def scalar(v):
    (k, x), = v.items()
    if k == "i": return int(x)
    if k == "f": return float.fromhex(x) if x not in ("nan", "inf", "-inf") else float(x)
    if k == "b": return bool(x)
    if k == "t": return tuple(scalar(e) for e in x)

def arg(v, t):
    if isinstance(t, list) and t[0] == "Array":
        el = t[1]
        xs = v["a"]
        if isinstance(el, list):  # an array of tuples: one array per component
            return tuple(arg({"a": [e["t"][i] for e in xs]}, ["Array", c]) for i, c in enumerate(el[1:]))
        return np.array([scalar(e) for e in xs], dtype=dt[el])
    return scalar(v)

def tag(x):
    if isinstance(x, np.ndarray):
        return {"a": [tag(e) for e in x.tolist()]}
    if isinstance(x, tuple):
        if x and all(isinstance(e, np.ndarray) for e in x):  # an array of tuples
            cols = [e.tolist() for e in x]
            return {"a": [{"t": [tag(c[i]) for c in cols]} for i in range(len(x[0]))]}
        return {"t": [tag(e) for e in x]}
    if isinstance(x, bool): return {"b": x}
    if isinstance(x, int): return {"i": str(x)}
    if isinstance(x, float): return {"f": x.hex() if x == x and abs(x) != float("inf") else repr(x)}
    raise TypeError(type(x))

n = int(sys.argv[5])
out = []
for call in json.load(sys.stdin):
    args = [arg(v, t) for v, t in zip(call, kinds)]
    try:
        res = fn(*args)
    except mod.CnfError as e:
        out.append({"error": str(e)})
        continue
    res = list(res) if n != 1 else [res]
    out.append({"results": [tag(r) for r in res]})
print(json.dumps(out))
`

// kind is a type as the caller script reads it.
func kind(t *types.Type) any {
	switch t.Kind() {
	case "Array":
		return []any{"Array", kind(t.Elem())}
	case "Tuple":
		out := []any{"Tuple"}
		for _, e := range t.Elems() {
			out = append(out, kind(e))
		}
		return out
	}
	return t.Kind()
}

// pythonModule builds a definition's Python module in dir: the module's name and the entry.
func pythonModule(t fatal, dir string, r *infer.Result, cl *cluster.Clustering) *Entry {
	lib, err := EmitLibrary("mod", []LibraryDef{{Sizes: r, Clustering: cl}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"mod.h": lib.Header, "mod.c": lib.Source, "mod.py": PythonModule(lib)} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := BuildShared(context.Background(), dir, "mod"); err != nil {
		t.Fatal(err)
	}
	return lib.Entries[0]
}

// outcome is a call's results, or its error.
type outcome struct {
	res map[string]fuse.Value
	err error
}

// callPython calls the entry's Python function on each of the inputs, in one Python process.
func callPython(t fatal, py, dir string, e *Entry, r *infer.Result, ins []map[string]fuse.Value) []outcome {
	var calls []any
	var kinds []any
	for _, p := range e.Params {
		kinds = append(kinds, kind(p.Type))
	}
	for _, in := range ins {
		vals := fuse.TypedInputs(r.Types, in)
		var args []any
		for _, p := range e.Params {
			args = append(args, tagged(vals[p.Name]))
		}
		calls = append(calls, args)
	}
	stdin, _ := json.Marshal(calls)
	ks, _ := json.Marshal(kinds)
	cmd := exec.Command(py, "-c", pyCaller, dir, "mod", pyIdent(e.Def), string(ks), strconv.Itoa(len(e.Results)))
	cmd.Stdin = bytes.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("python: %v\n%s", err, stderr.String())
	}
	var got []struct {
		Error   *string
		Results []any
	}
	if err := json.Unmarshal(stdout.Bytes(), &got); err != nil || len(got) != len(ins) {
		t.Fatalf("python printed %q: %v", stdout.String(), err)
	}
	out := make([]outcome, len(got))
	for k, g := range got {
		if g.Error != nil {
			out[k].err = &RunError{Message: *g.Error}
			continue
		}
		out[k].res = map[string]fuse.Value{}
		for i, p := range e.Results {
			v, err := untagged(g.Results[i])
			if err != nil {
				t.Fatalf("result %s: %v", p.Name, err)
			}
			out[k].res[p.Name] = v
		}
	}
	return out
}

// agree checks outcomes against the reference's on the same inputs; it returns how many
// succeeded.
func agree(t fatal, r *infer.Result, ins []map[string]fuse.Value, got []outcome, src string) int {
	ok := 0
	for k, in := range ins {
		ref, refErr := fuse.RunReference(context.Background(), r, in, fuse.DefaultExternals())
		switch err := got[k].err; {
		case (refErr == nil) != (err == nil):
			t.Fatalf("Python gives error %v, the reference %v\n%s\ninputs%s", err, refErr, src, show(in))
		case refErr == nil && !same(ref, got[k].res):
			t.Fatalf("Python differs from the reference:\n got%s\nwant%s\n%s\ninputs%s", show(got[k].res), show(ref), src, show(in))
		case refErr == nil:
			ok++
		}
	}
	return ok
}

// Random programs called from Python over NumPy arrays give the reference's results, and a
// CnfError where it fails.
func TestPythonAgreesWithReference(t *testing.T) {
	py := pythonWithNumPy(t)
	programs := 0
	rapid.Check(t, func(t *rapid.T) {
		if programs++; programs > maxCompiledPrograms {
			return
		}
		n := rapid.IntRange(1, 10).Draw(t, "bindings")
		src := rapidgen.Program(t, gen.Options{Bindings: n, NoExternals: true})
		r, rep := analyse(t, src)
		dir, err := os.MkdirTemp("", "cnf-py-")
		if err != nil {
			t.Fatal(err)
		}
		defer os.RemoveAll(dir)
		e := pythonModule(t, dir, r, rep.Ours.Clustering)
		var ins []map[string]fuse.Value
		for range 3 {
			if in, ok := libraryInputs(t, r); ok {
				ins = append(ins, in)
			}
		}
		if len(ins) == 0 {
			return
		}
		agree(t, r, ins, callPython(t, py, dir, e, r, ins), src)
	})
}

// Every example that needs no host function works from Python.
func TestExamplesFromPython(t *testing.T) {
	py := pythonWithNumPy(t)
	eachCompilableExample(t, emitLibrary, func(t *testing.T, r *infer.Result, rep *cluster.Report) {
		dir := t.TempDir()
		e := pythonModule(t, dir, r, rep.Ours.Clustering)
		// One Python process for 100 random inputs (a process per input made it slow).
		ok, drawn := 0, false
		rapid.Check(t, func(rt *rapid.T) {
			if drawn {
				return
			}
			drawn = true
			var ins []map[string]fuse.Value
			for range 100 {
				if in, ok := libraryInputs(rt, r); ok {
					ins = append(ins, in)
				}
			}
			ok += agree(rt, r, ins, callPython(rt, py, dir, e, r, ins), r.Func.Def.Name.Name)
		})
		if ok == 0 {
			t.Errorf("%s: no call succeeded", r.Func.Def.Name.Name)
		}
	})
}
