package codegen

import (
	"context"
	"strings"
	"testing"

	"github.com/cnf-tools/cnf/cluster"
	"github.com/cnf-tools/cnf/fuse"
	"github.com/cnf-tools/cnf/infer"
	"pgregory.net/rapid"
)

// compactPrograms filter Ints, Floats and pairs into stored outputs and into a second filter,
// so that each block is compacted (cnf_compact_*) once or twice.
var compactPrograms = []string{
	`f :: Array Int -> (Array Int, Int, Array Int)
f xs =
  let ps = filter (> 0) xs
      qs = map (\x -> x * 2 + 1) ps
      s  = fold (+) 0 qs
      bs = filter (> 9) qs
  in  (ps, s, bs)
`,
	`f :: Array Float -> (Array Float, Array Float)
f xs =
  let ps = filter (> 0.0) xs
      qs = map (\x -> x * 2.0) ps
      bs = filter (> 4.0) qs
  in  (ps, bs)
`,
	`f :: Array Int -> (Array (Int, Int), Int)
f xs =
  let ix = indexed xs
      ps = filter (\(i, x) -> x > 0) ix
      s  = fold (\acc (i, x) -> acc + i * x) 0 ps
  in  (ps, s)
`,
}

// Compaction skips the 64 elements whose mask is all clear, copies those whose mask is all set,
// and compresses the rest 8 at a time (AVX-512), or packs them 4 at a time (AVX2), or one at a
// time: inputs made of runs of kept and dropped elements, of lengths on both sides of 64, 8
// and 4 (every mask of 4 among them), give the reference's results on 1 and 2 threads.
func TestCompactionOfRuns(t *testing.T) {
	t.Setenv("CNF_CACHE", t.TempDir())
	for _, src := range compactPrograms {
		r, rep := analyse(t, src)
		cl := rep.Ours.Clustering
		float := r.Types.Types["xs"].Elem().Kind() == "Float"
		rapid.Check(t, func(rt *rapid.T) {
			var xs fuse.Array
			for len(xs) < 2500 {
				n := rapid.SampledFrom([]int{1, 2, 3, 4, 5, 8, 9, 63, 64, 65, 128, 200, 700}).Draw(rt, "run")
				keep := rapid.Bool().Draw(rt, "kept")
				for range n {
					v := int64(rapid.IntRange(1, 9).Draw(rt, "x"))
					if !keep {
						v = -v + 1
					}
					if float {
						xs = append(xs, float64(v)/2)
					} else {
						xs = append(xs, v)
					}
				}
			}
			in := map[string]fuse.Value{"xs": xs}
			agreesOnThreads(rt, r, cl, in, src, 256, 1, 2)
		})
	}
}

// agreesOnThreads fails rt (a test or a rapid property) unless the compiled clustering cl gives the reference's results on
// in at each number of threads, chunks of at least minChunk elements.
func agreesOnThreads(rt fatal, r *infer.Result, cl *cluster.Clustering, in map[string]fuse.Value, src string, minChunk int64, threads ...int) {
	ref, err := fuse.RunReference(context.Background(), r, in, nil)
	if err != nil {
		rt.Fatal(err)
	}
	for _, th := range threads {
		got, err := Run(context.Background(), r, cl, in, Options{Threads: th, MinChunk: minChunk})
		if err != nil {
			rt.Fatal(err)
		}
		if !same(ref, got) {
			rt.Fatalf("on %d threads:\n got%s\nwant%s\n%s\ninputs%s", th, show(got), show(ref), src, show(in))
		}
	}
}

// Outputs at a filter's rate (a compaction, a map of what a filter keeps, a filter of that) go
// out through a block buffer by streaming stores when the loop is worth it (MinStream 1), on
// one thread and in tiles on one; on a team, each thread's buffer goes out by cnf_copy_out:
// the reference's results either way, on runs of kept and dropped elements and peeled starts.
func TestFilteredOutputsStreamed(t *testing.T) {
	t.Setenv("CNF_CACHE", t.TempDir())
	src := compactPrograms[0]
	r, cl, code := optimalC(t, src)
	for _, out := range []string{"ps", "bs"} {
		if want := "cnf_stream_carry(&L1_cy_" + out + ", v_" + out + ".data + v_" + out + ".len"; !strings.Contains(code, want) {
			t.Errorf("%s is not streamed (no %q):\n%s", out, want, code)
		}
	}
	rapid.Check(t, func(rt *rapid.T) {
		var xs fuse.Array
		for len(xs) < 3000 {
			n := rapid.SampledFrom([]int{1, 7, 64, 300, 1100}).Draw(rt, "run")
			keep := rapid.Bool().Draw(rt, "kept")
			for range n {
				v := int64(rapid.IntRange(1, 9).Draw(rt, "x"))
				if !keep {
					v = -v + 1
				}
				xs = append(xs, v)
			}
		}
		in := map[string]fuse.Value{"xs": xs}
		ref, err := fuse.RunReference(context.Background(), r, in, nil)
		if err != nil {
			rt.Fatal(err)
		}
		for _, th := range []int{1, 2} {
			got, err := Run(context.Background(), r, cl, in, Options{Threads: th, MinChunk: 256, MinPeel: 1, MinStream: 1})
			if err != nil {
				rt.Fatal(err)
			}
			if !same(ref, got) {
				rt.Fatalf("streamed on %d threads:\n got%s\nwant%s\n%s\ninputs%s", th, show(got), show(ref), src, show(in))
			}
		}
	})
}
