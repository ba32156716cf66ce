package codegen

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cnf-tools/cnf/infer"
)

// TestLocate reads the harness's failures as positions in the program and distances from the
// indexed array's bounds, and orders them: later in the program first, then nearer.
func TestLocate(t *testing.T) {
	src := `p :: Array Int -> Array Int -> Array Int
p xs ys =
  let is = map (\x -> x + 1) xs
      a = gather ys is
      b = gather a is
  in  b
`
	r := infer.Analyze("p.cnf", []byte(src)).Funcs[0]
	for _, tc := range []struct {
		msg      string
		at       int
		dist     int64
		better   string // a message this one is better than
		notAfter string // a message this one is not better than
	}{
		{msg: "a: index -5 out of range for an array of 10 elements", at: 1, dist: 5, better: "a: index -50 out of range for an array of 10 elements", notAfter: "b: index -50 out of range for an array of 10 elements"},
		{msg: "a: index 12 out of range for an array of 10 elements", at: 1, dist: 3, better: "a: index 13 out of range for an array of 10 elements", notAfter: "a: index -1 out of range for an array of 10 elements"},
		{msg: "b: division by zero", at: 2, better: "a: index 0 out of range for an array of 0 elements", notAfter: "b: division by zero"},
		{msg: "somewhere else: failed", at: -1, dist: 0, notAfter: "is: index 1 out of range for an array of 0 elements"},
	} {
		f := locate(r, tc.msg)
		if f.at != tc.at || f.dist != tc.dist {
			t.Errorf("locate(%q) = at %d, %d away; want at %d, %d away", tc.msg, f.at, f.dist, tc.at, tc.dist)
		}
		if tc.better != "" && !f.better(locate(r, tc.better)) {
			t.Errorf("%q is not better than %q", tc.msg, tc.better)
		}
		if tc.notAfter != "" && f.better(locate(r, tc.notAfter)) {
			t.Errorf("%q is better than %q", tc.msg, tc.notAfter)
		}
	}
}

// TestSearchStopsWhenEveryChoiceFailsAlike: a failure that no way of drawing the inputs
// changes (an index as large as a size computed from the sizes alone) ends the search after
// the first starting point's sweep, not after maxProbes probes (sizes 406 spent 800 probes of
// 8 s each); and every probe runs under probeMaxBytes. The harness is a script that fails
// alike every time and records what it was given.
func TestSearchStopsWhenEveryChoiceFailsAlike(t *testing.T) {
	src := `p :: Array Int -> Array Int -> Int -> Array Int
p xs ys k =
  let is = map (\x -> x + k) xs
      b = gather ys is
  in  b
`
	r, rep := analyse(t, src)
	f, err := Emit(r, rep.Ours.Clustering, Options{CountBytes: true}, BenchMain)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	log := filepath.Join(dir, "probes")
	exe := filepath.Join(dir, "harness")
	script := "#!/bin/sh\necho \"$CNF_MAX_BYTES\" >> " + log + "\necho 'b: index 4096 out of range for an array of 4096 elements' >&2\nexit 3\n"
	if err := os.WriteFile(exe, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, userMax := range []string{"", "1000"} {
		os.Remove(log)
		t.Setenv("CNF_MAX_BYTES", userMax)
		if _, ok := searchInputs(context.Background(), exe, f.Unit, r, 10000, BenchOptions{Size: 10000, Runs: 1, Seed: 1}); ok {
			t.Fatal("the search found inputs a harness that always fails accepts")
		}
		data, err := os.ReadFile(log)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Fields(string(data))
		// One sweep from the default inputs: each choice of each parameter but its own.
		if want := 1 + 2*(len(ranges)-1) + (len(values) - 1); len(lines) != want {
			t.Errorf("CNF_MAX_BYTES=%q: %d probes, want %d (one sweep)", userMax, len(lines), want)
		}
		want := strconv.Itoa(probeMaxBytes)
		if userMax != "" {
			want = userMax // the user's bound where it is smaller
		}
		for _, l := range lines {
			if l != want {
				t.Fatalf("CNF_MAX_BYTES=%q: a probe ran with CNF_MAX_BYTES=%s, want %s", userMax, l, want)
			}
		}
	}
}
