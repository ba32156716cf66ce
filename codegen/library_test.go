package codegen

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/cnf-tools/cnf/cluster"
	"github.com/cnf-tools/cnf/fuse"
	"github.com/cnf-tools/cnf/infer"
	"github.com/cnf-tools/cnf/internal/rapidgen"
	"github.com/cnf-tools/cnf/syntax/gen"
	"github.com/cnf-tools/cnf/types"
)

// A library is tested through its header, as a user's program calls it: a driver (its own
// C file, which includes only the header) reads the parameters in the harness protocol, calls
// the entry point from one thread or several at once, checks that every thread got the same
// results, and writes them in the harness protocol; a failed call is its status and
// NAME_error(), which the driver prints before exit status 3 (the library itself never exits).

// publicC is the header's C type of t in the library lib.
func publicC(lib string, t *types.Type) string {
	switch t.Kind() {
	case "Int":
		return "int64_t"
	case "Float":
		return "double"
	case "Bool":
		return "bool"
	}
	return lib + "_" + mangle(t)
}

// driverCodec writes the driver's reader and writer of t (once), and returns their names.
func driverCodec(lib string, t *types.Type, done map[string]bool, b *strings.Builder) (string, string) {
	m := mangle(t)
	rd, wr := "rd_"+m, "wr_"+m
	if done[m] {
		return rd, wr
	}
	done[m] = true
	tn := publicC(lib, t)
	var r, w string
	switch t.Kind() {
	case "Int", "Float", "Bool":
		r = "\tget(x, sizeof *x);\n"
		w = "\tput(b, &x, sizeof x);\n"
	case "Tuple":
		for i, e := range t.Elems() {
			er, ew := driverCodec(lib, e, done, b)
			r += fmt.Sprintf("\t%s(&x->f%d);\n", er, i)
			w += fmt.Sprintf("\t%s(b, x.f%d);\n", ew, i)
		}
	case "Array":
		er, ew := driverCodec(lib, t.Elem(), done, b)
		r = fmt.Sprintf("\tget(&x->len, 8);\n\tx->data = malloc((size_t)(x->len ? x->len : 1) * sizeof *x->data);\n\tfor (int64_t i = 0; i < x->len; i++) %s(&x->data[i]);\n", er)
		w = fmt.Sprintf("\tput(b, &x.len, 8);\n\tfor (int64_t i = 0; i < x.len; i++) %s(b, x.data[i]);\n", ew)
	}
	fmt.Fprintf(b, "static void %s(%s *x) {\n%s}\nstatic void %s(buf *b, %s x) {\n%s}\n", rd, tn, r, wr, tn, w)
	return rd, wr
}

// driver is the C program that calls the entry point e of the library lib.
func driver(lib string, e *Entry) string {
	var b strings.Builder
	fmt.Fprintf(&b, `#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include "%s.h"

static void get(void *p, size_t n) { if (fread(p, 1, n, stdin) != n) { fprintf(stderr, "driver: short input\n"); exit(2); } }
typedef struct { char *p; size_t n, cap; int status; char msg[1024]; } buf;
static void put(buf *b, const void *p, size_t n) {
	if (b->n + n > b->cap) { b->cap = 2 * (b->n + n) + 64; b->p = realloc(b->p, b->cap); }
	memcpy(b->p + b->n, p, n);
	b->n += n;
}
`, lib)
	done := map[string]bool{}
	var codecs strings.Builder
	var decls, reads, args, writes strings.Builder
	for i, p := range e.Params {
		rd, _ := driverCodec(lib, p.Type, done, &codecs)
		fmt.Fprintf(&decls, "static %s p%d;\n", publicC(lib, p.Type), i)
		fmt.Fprintf(&reads, "\t%s(&p%d);\n", rd, i)
		if p.Type.IsArray() {
			fmt.Fprintf(&args, "p%d.data, p%d.len, ", i, i)
		} else {
			fmt.Fprintf(&args, "p%d, ", i)
		}
	}
	for _, r := range e.Results {
		_, wr := driverCodec(lib, r.Type, done, &codecs)
		fmt.Fprintf(&writes, "\t%s(b, out.%s);\n", wr, r.C)
	}
	b.WriteString(codecs.String())
	b.WriteString(decls.String())
	fmt.Fprintf(&b, `
static void *call(void *arg) {
	buf *b = arg;
	%[1]s out;
	b->status = %[2]s(%[3]s&out);
	if (b->status != %[4]s_OK) {
		snprintf(b->msg, sizeof b->msg, "%%s", %[4]s_error());
		return NULL;
	}
%[5]s	%[6]s(&out);
	return NULL;
}

int main(void) {
%[7]s	int threads = getenv("CNF_THREADS") ? atoi(getenv("CNF_THREADS")) : 1;
	%[4]s_threads(2); /* loops on teams of two where they can be split; callers never multiply them */
	buf bufs[16] = {0};
	pthread_t tid[16];
	for (int t = 0; t < threads; t++) pthread_create(&tid[t], NULL, call, &bufs[t]);
	for (int t = 0; t < threads; t++) pthread_join(tid[t], NULL);
	for (int t = 1; t < threads; t++) {
		if (bufs[t].status != bufs[0].status || bufs[t].n != bufs[0].n || (bufs[0].n > 0 && memcmp(bufs[t].p, bufs[0].p, bufs[0].n) != 0) || strcmp(bufs[t].msg, bufs[0].msg) != 0) {
			fprintf(stderr, "driver: thread %%d disagrees with thread 0\n", t);
			return 4;
		}
	}
	if (bufs[0].status != %[4]s_OK) {
		fprintf(stderr, "%%s\n", bufs[0].msg);
		return 3;
	}
	fwrite(bufs[0].p, 1, bufs[0].n, stdout);
	return 0;
}
`, e.Result, e.Func, args.String(), lib, writes.String(), e.Free, reads.String())
	return b.String()
}

// maxCompiledPrograms bounds the random programs that the library and Python tests compile
// (a compiler run each), whatever -rapid.checks says.
const maxCompiledPrograms = 30

// fatal is what the test helpers need of *testing.T and *rapid.T.
type fatal interface {
	Fatalf(string, ...any)
	Fatal(...any)
}

// libraryDriver compiles a library of one definition with a driver for it, in dir: the
// driver's path and the entry point.
func libraryDriver(t fatal, dir string, r *infer.Result, cl *cluster.Clustering) (string, *Entry) {
	lib, err := EmitLibrary("lib", []LibraryDef{{Sizes: r, Clustering: cl}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	e := lib.Entries[0]
	for name, text := range map[string]string{"lib.h": lib.Header, "lib.c": lib.Source, "driver.c": driver("lib", e)} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cc, err := Compiler()
	if err != nil {
		t.Fatal(err)
	}
	args := append(append([]string{}, Flags...), "-pthread", "-o", "driver", "driver.c", "lib.c", "-lm")
	cmd := exec.Command(cc, args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("compiling the library and its driver: %v\n%s\n%s", err, out, lib.Header)
	}
	return filepath.Join(dir, "driver"), e
}

// runDriver runs a library's driver on the inputs, from threads threads at once: the
// results, or the error the library reported.
func runDriver(t fatal, exe string, e *Entry, r *infer.Result, in map[string]fuse.Value, threads int) (map[string]fuse.Value, error) {
	vals := fuse.TypedInputs(r.Types, in)
	var stdin []byte
	var err error
	for _, p := range e.Params {
		if stdin, err = Encode(stdin, vals[p.Name], p.Type); err != nil {
			t.Fatal(err)
		}
	}
	run := exec.Command(exe)
	run.Env = append(os.Environ(), fmt.Sprintf("CNF_THREADS=%d", threads))
	run.Stdin = bytes.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	run.Stdout, run.Stderr = &stdout, &stderr
	err = run.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee) && ee.ExitCode() == 3:
		return nil, &RunError{Message: strings.TrimSpace(stderr.String())}
	case err != nil:
		t.Fatalf("the driver failed: %v\n%s", err, stderr.String())
	}
	out := stdout.Bytes()
	res := map[string]fuse.Value{}
	for _, p := range e.Results {
		var v fuse.Value
		if v, out, err = Decode(out, p.Type); err != nil {
			t.Fatalf("result %s: %v", p.Name, err)
		}
		res[p.Name] = v
	}
	return res, nil
}

// Random programs called through a library's header, from one thread and from four at once,
// give the reference's results, and fail where it fails (with a status, not an exit).
func TestLibraryAgreesWithReference(t *testing.T) {
	t.Setenv("CNF_CACHE", t.TempDir())
	programs := 0
	rapid.Check(t, func(t *rapid.T) {
		// A library and its driver take a compiler run each: 30 programs are enough beside
		// TestCompiledAgreesWithReference, which runs the same code under the same checks.
		if programs++; programs > maxCompiledPrograms {
			return
		}
		n := rapid.IntRange(1, 10).Draw(t, "bindings")
		src := rapidgen.Program(t, gen.Options{Bindings: n, NoExternals: true})
		r, rep := analyse(t, src)
		in, ok := libraryInputs(t, r)
		if !ok {
			return
		}
		threads := rapid.SampledFrom([]int{1, 4}).Draw(t, "threads")
		ref, refErr := fuse.RunReference(context.Background(), r, in, nil)
		dir, err := os.MkdirTemp("", "cnf-lib-")
		if err != nil {
			t.Fatal(err)
		}
		defer os.RemoveAll(dir)
		exe, e := libraryDriver(t, dir, r, rep.Ours.Clustering)
		got, err := runDriver(t, exe, e, r, in, threads)
		switch {
		case (refErr == nil) != (err == nil):
			t.Fatalf("the library gives error %v, the reference %v\n%s\ninputs%s", err, refErr, src, show(in))
		case refErr == nil && !same(ref, got):
			t.Fatalf("the library differs from the reference:\n got%s\nwant%s\n%s\ninputs%s", show(got), show(ref), src, show(in))
		}
	})
}

// Every example that needs no host function works as a library, called from four threads at
// once; the others are refused with the error naming the host function.
func TestExamplesAsLibraries(t *testing.T) {
	t.Setenv("CNF_CACHE", t.TempDir())
	eachCompilableExample(t, emitLibrary, func(t *testing.T, r *infer.Result, rep *cluster.Report) {
		exe, e := libraryDriver(t, t.TempDir(), r, rep.Ours.Clustering)
		ok := 0
		rapid.Check(t, func(rt *rapid.T) {
			in := inputs(rt, r)
			ref, refErr := fuse.RunReference(context.Background(), r, in, fuse.DefaultExternals())
			got, err := runDriver(rt, exe, e, r, in, 4)
			switch {
			case (refErr == nil) != (err == nil):
				rt.Fatalf("the library gives error %v, the reference %v\ninputs%s", err, refErr, show(in))
			case refErr == nil && !same(ref, got):
				rt.Fatalf("the library differs:\n got%s\nwant%s\ninputs%s", show(got), show(ref), show(in))
			case refErr == nil:
				ok++
			}
		})
		if ok == 0 {
			t.Errorf("%s: no run succeeded", r.Func.Def.Name.Name)
		}
	})
}

// emitLibrary compiles one definition into a library (for eachCompilableExample).
func emitLibrary(r *infer.Result, cl *cluster.Clustering) error {
	_, err := EmitLibrary("lib", []LibraryDef{{Sizes: r, Clustering: cl}}, Options{})
	return err
}
