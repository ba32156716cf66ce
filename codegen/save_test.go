package codegen

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/cnf-tools/cnf/fuse"
	"github.com/cnf-tools/cnf/types"
)

// saveSrc has a tuple with padding ((Int, Bool) is 16 bytes, 7 of them padding), Floats, a
// scalar result and arrays of every size the filter leaves.
const saveSrc = `f :: Array (Int, Bool) -> Array Float -> (Int, Array (Int, Bool), Array Float, (Int, Bool))
f ps xs =
  let ks = filter snd ps
      fs = map fst ks
      n  = fold (+) 0 fs
      ys = map (* 0.5) xs
      pm = fold (\a p -> if fst p > fst a then p else a) (0, False) ps
  in  (n, ks, ys, pm)
`

var npyHeader = regexp.MustCompile(`^\{'descr': (.*), 'fortran_order': False, 'shape': \((\d*),?\), \} *\n$`)

// readNpy reads a .npy file written by cnf bench --save: its dtype description, its shape
// (-1 for a scalar) and its data, checking the format's framing.
func readNpy(t *testing.T, path string) (descr string, n int, data []byte) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) < 10 || !bytes.Equal(b[:8], []byte("\x93NUMPY\x01\x00")) {
		t.Fatalf("%s: not a .npy 1.0 file", path)
	}
	hl := int(binary.LittleEndian.Uint16(b[8:10]))
	if (10+hl)%64 != 0 || len(b) < 10+hl {
		t.Fatalf("%s: header of %d bytes: the data must start at a multiple of 64", path, hl)
	}
	m := npyHeader.FindStringSubmatch(string(b[10 : 10+hl]))
	if m == nil {
		t.Fatalf("%s: header %q", path, b[10:10+hl])
	}
	n = -1
	if m[2] != "" {
		n, _ = strconv.Atoi(m[2])
	}
	return m[1], n, b[10+hl:]
}

// decode reads values of type ty laid out as the C structs are (natural alignment).
func decode(ty *types.Type, b []byte) (fuse.Value, int) {
	switch ty.Kind() {
	case "Int":
		return int64(binary.LittleEndian.Uint64(b)), 8
	case "Float":
		return math.Float64frombits(binary.LittleEndian.Uint64(b)), 8
	case "Bool":
		return b[0] != 0, 1
	}
	tu := fuse.Tuple{}
	off, align := 0, 1
	for _, e := range ty.Elems() {
		a := 8
		if e.Kind() == "Bool" {
			a = 1
		}
		off = (off + a - 1) / a * a
		v, sz := decode(e, b[off:])
		tu = append(tu, v)
		off += sz
		align = max(align, a)
	}
	return tu, (off + align - 1) / align * align
}

func decodeNpy(t *testing.T, path string, ty *types.Type) fuse.Value {
	_, n, data := readNpy(t, path)
	if n < 0 {
		v, sz := decode(ty, data)
		if sz != len(data) {
			t.Fatalf("%s: %d bytes for one %s of %d", path, len(data), ty, sz)
		}
		return v
	}
	arr := fuse.Array{}
	for off := 0; off < len(data); {
		v, sz := decode(ty.Elem(), data[off:])
		arr = append(arr, v)
		off += sz
	}
	if len(arr) != n {
		t.Fatalf("%s: %d elements, the header says %d", path, len(arr), n)
	}
	return arr
}

// cnf bench --save stores the inputs it drew and the optimal clustering's results, with the
// C structs' layout described to NumPy: the reference interpreter on the stored inputs gives
// the stored results, and NumPy (where installed) reads every file.
func TestBenchSave(t *testing.T) {
	t.Setenv("CNF_CACHE", t.TempDir())
	r, rep := analyse(t, saveSrc)
	dir := t.TempDir()
	if _, err := Bench(context.Background(), r, BenchClusterings(rep, nil), BenchOptions{Size: 1000, Runs: 1, Seed: 3, Threads: 2, Save: dir}); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"in_ps":  "[('f0', '<i8'), ('f1', '|b1'), ('', '|V7')]",
		"in_xs":  "'<f8'",
		"out_n":  "'<i8'",
		"out_ks": "[('f0', '<i8'), ('f1', '|b1'), ('', '|V7')]",
		"out_ys": "'<f8'",
		"out_pm": "[('f0', '<i8'), ('f1', '|b1'), ('', '|V7')]",
	}
	for name, d := range want {
		if got, _, _ := readNpy(t, filepath.Join(dir, name+".npy")); got != d {
			t.Errorf("%s.npy: descr %s, want %s", name, got, d)
		}
	}
	in := map[string]fuse.Value{}
	for _, p := range r.Func.Params {
		in[p.Name] = decodeNpy(t, filepath.Join(dir, "in_"+p.Name+".npy"), r.Types.Types[p.Name])
	}
	if n := len(in["ps"].(fuse.Array)); n != 1000 {
		t.Fatalf("ps has %d elements, want 1000", n)
	}
	ref, err := fuse.RunReference(context.Background(), r, in, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]fuse.Value{}
	files, _ := filepath.Glob(filepath.Join(dir, "out_*.npy"))
	if len(files) != len(ref) {
		t.Fatalf("%d results stored, the definition has %d", len(files), len(ref))
	}
	for name := range ref {
		ty := r.Types.Types[name]
		if ty == nil {
			t.Fatalf("no type for result %s", name)
		}
		got[name] = decodeNpy(t, filepath.Join(dir, "out_"+name+".npy"), ty)
	}
	if !same(ref, got) {
		t.Fatalf("stored results differ from the reference on the stored inputs:\n got%s\nwant%s", show(got), show(ref))
	}

	py := pythonWithNumPy(t)
	out, err := exec.Command(py, "-c", fmt.Sprintf(`
import glob, numpy as np
for f in sorted(glob.glob(%q)):
    a = np.load(f)
    print(f.rsplit("/", 1)[1], a.dtype.itemsize, a.shape)
`, filepath.Join(dir, "*.npy"))).CombinedOutput()
	if err != nil {
		t.Fatalf("NumPy cannot read the files: %v\n%s", err, out)
	}
	if !bytes.Contains(out, []byte("in_ps.npy 16 (1000,)")) {
		t.Errorf("NumPy read:\n%s", out)
	}
}
