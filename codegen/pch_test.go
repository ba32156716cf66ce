package codegen

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
)

// A generated file compiled with the runtime's headers precompiled (pch.go) is the same
// executable, byte for byte, as compiled without them; a truncated .gch, on which gcc fails,
// is made again and the build succeeds.
func TestPrecompiledHeadersChangeNothing(t *testing.T) {
	cc, err := Compiler()
	if err != nil {
		t.Skip(err)
	}
	if gccVersion(context.Background(), cc) == "" {
		t.Skipf("%s is not gcc: no precompiled headers", cc)
	}
	r, rep := analyse(t, `f :: Array Int -> (Array Int, Int)
f xs =
  let ys = filter (> 0) xs
      s = fold (+) 0 ys
  in  (ys, s)
`)
	file, err := Emit(r, rep.Ours.Clustering, Options{}, BenchMain)
	if err != nil {
		t.Fatal(err)
	}
	pchDir := t.TempDir()
	build := func(src string, pch bool) ([]byte, string) {
		t.Helper()
		if pch {
			t.Setenv("CNF_PCH_DIR", pchDir)
		} else {
			t.Setenv("CNF_PCH_DIR", "off")
		}
		exe, err := Build(context.Background(), src)
		if err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(exe)
		if err != nil {
			t.Fatal(err)
		}
		return data, filepath.Dir(exe)
	}
	t.Setenv("CNF_CACHE", t.TempDir())
	plain, _ := build(file.Source, false)
	t.Setenv("CNF_CACHE", t.TempDir())
	with, _ := build(file.Source, true)
	gchs, _ := filepath.Glob(filepath.Join(pchDir, "pch-*", pchName+".gch"))
	if len(gchs) != 1 {
		t.Fatalf("no precompiled header was made in %s (%v)", pchDir, gchs)
	}
	if !bytes.Equal(plain, with) {
		t.Errorf("the executable compiled with precompiled headers differs from the one without")
	}
	// A truncated .gch: gcc fails on it; the build compiles without it and makes it again.
	info, err := os.Stat(gchs[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(gchs[0], info.Size()/3); err != nil {
		t.Fatal(err)
	}
	other, _ := build(file.Source+"\n/* another source, not in the cache */\n", true)
	if !bytes.Equal(plain, other) {
		t.Errorf("after the .gch was truncated, the executable differs")
	}
	build(file.Source+"\n/* a third */\n", true)
	if again, err := os.Stat(gchs[0]); err != nil || again.Size() <= info.Size()/3 {
		t.Errorf("the truncated .gch was not made again (%v)", err)
	}
}
