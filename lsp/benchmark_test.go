package lsp

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/cnf-tools/cnf/codegen"
	"github.com/cnf-tools/cnf/infer"
)

const benchProgram = `normalize2 :: Array Int -> (Array Int, Array Int)
normalize2 xs =
  let sum1 = fold (+) 0 xs
      gts  = filter (> 0) xs
      sum2 = fold (+) 0 gts
      ys1  = map (/ sum1) xs
      ys2  = map (/ sum2) xs
  in  (ys1, ys2)
`

// lensTitles are the titles of a document's code lenses.
func lensTitles(t *testing.T, c *client, uri string) []string {
	t.Helper()
	var lenses []protocol.CodeLens
	if err := c.call("textDocument/codeLens", map[string]any{"textDocument": map[string]any{"uri": uri}}, &lenses); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range lenses {
		if l.Command != nil {
			out = append(out, l.Command.Title)
		}
	}
	return out
}

// cnf.showC gives the C of the optimal clustering; the "measure compiled" lens runs the
// benchmark with a progress, then shows the speed-up in the lens and the hover for as long as
// the definition is unchanged.
func TestShowCAndBenchmark(t *testing.T) {
	t.Setenv("CNF_CACHE", t.TempDir())
	opts := DefaultOptions()
	opts.Debounce = 0
	opts.BenchSize = 2000
	c := startServer(t, opts, map[string]any{"window": map[string]any{"workDoneProgress": true}})
	uri := "file:///bench.cnf"
	c.open(uri, benchProgram)
	c.analysed(uri, 1)

	var text TextResult
	if err := c.call("workspace/executeCommand", map[string]any{"command": cmdShowC, "arguments": []any{uri, "normalize2"}}, &text); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"static cnf_result_normalize2 cnf_normalize2(Arr_Int v_xs)", "/* Loop 2:", "ys1 = map (/ sum1) xs"} {
		if !strings.Contains(text.Text, want) {
			t.Errorf("Show C lacks %q:\n%s", want, text.Text)
		}
	}

	if titles := lensTitles(t, c, uri); !slices.Contains(titles, "measure compiled") {
		t.Fatalf("no measure lens among %q", titles)
	}
	if err := c.call("workspace/executeCommand", map[string]any{"command": cmdBenchmark, "arguments": []any{uri, "normalize2"}}, nil); err != nil {
		t.Fatal(err)
	}
	end := c.waitProgress("end", "measured at 2000")
	summary := end.Value.(map[string]any)["message"].(string)
	var titles []string
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if titles = lensTitles(t, c, uri); slices.Contains(titles, summary) {
			break
		}
	}
	if !slices.Contains(titles, summary) || !strings.HasPrefix(summary, "measured at 2000: 2 loops ") || !strings.Contains(summary, "· unfused 5 loops ") {
		t.Fatalf("lens titles %q, progress %q", titles, summary)
	}
	var hover protocol.Hover
	if err := c.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": map[string]any{"line": 1, "character": 2}}, &hover); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(hover.Contents.Value, summary) || !strings.Contains(hover.Contents.Value, "\n| megiddo | 3 | ") || strings.Contains(hover.Contents.Value, ":```") {
		t.Errorf("hover lacks the measurement:\n%s", hover.Contents.Value)
	}

	// An edit of the definition makes the measurement stale: the lens offers to measure again.
	c.change(uri, 2, strings.Replace(benchProgram, "(> 0)", "(> 1)", 1))
	c.analysed(uri, 2)
	if titles := lensTitles(t, c, uri); !slices.Contains(titles, "measure compiled") {
		t.Errorf("after an edit: %q", titles)
	}
}

// A program with host functions takes their C from the file beside it (NAME.c): Show C says so
// and compiles; without it, the view says which function needs C and where to put it.
func TestShowCHostBeside(t *testing.T) {
	dir := t.TempDir()
	src := "dist :: (Float, Float) -> Float\nh :: Array (Float, Float) -> Array Float\nh ps =\n  let ds = map (\\p -> dist p) ps\n  in  ds\n"
	opts := DefaultOptions()
	opts.Debounce = 0
	c := startServer(t, opts, nil)
	show := func(uri string) string {
		c.open(uri, src)
		c.analysed(uri, 1)
		var text TextResult
		if err := c.call("workspace/executeCommand", map[string]any{"command": cmdShowC, "arguments": []any{uri, "h"}}, &text); err != nil {
			t.Fatal(err)
		}
		return text.Text
	}
	if got := show("file://" + filepath.ToSlash(dir) + "/alone.cnf"); !strings.Contains(got, "unknown host function dist") || !strings.Contains(got, "beside the program") {
		t.Errorf("without a host file:\n%s", got)
	}
	if err := os.WriteFile(filepath.Join(dir, "prog.c"), []byte("static double dist(Tup2_Float_Float p) { return p.f0 + p.f1; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got := show("file://" + filepath.ToSlash(dir) + "/prog.cnf")
	if !strings.Contains(got, "Host functions and types from prog.c") || !regexp.MustCompile(`dist\(l[0-9]+_p\)`).MatchString(got) {
		t.Errorf("with prog.c, the C lacks the host file or the call of dist:\n%s", got)
	}
}

// Thirty "measure compiled" requests at once on three definitions run one measurement at a
// time, and one per definition: repeats are merged. Before, each ran at once: 63 child
// processes, 9.2 GB, and times off by up to 25×.
func TestMeasurementsRunOneAtATime(t *testing.T) {
	opts := DefaultOptions()
	opts.Debounce = 0
	c := startServer(t, opts, map[string]any{"window": map[string]any{"workDoneProgress": true}})
	var mu sync.Mutex
	running, most, calls := 0, 0, map[string]int{}
	c.server.bench = func(ctx context.Context, r *infer.Result, cls []codegen.Clustering, o codegen.BenchOptions) (*codegen.BenchResult, error) {
		mu.Lock()
		running++
		most = max(most, running)
		calls[r.Func.Def.Name.Name]++
		mu.Unlock()
		time.Sleep(150 * time.Millisecond)
		mu.Lock()
		running--
		mu.Unlock()
		res := &codegen.BenchResult{}
		for _, cl := range cls {
			res.Clusterings = append(res.Clusterings, &codegen.Measured{Name: cl.Name, Loops: len(cl.Clustering.Clusters), Seconds: 0.01, MinSeconds: 0.01, Agree: true})
		}
		return res, nil
	}
	uri := "file:///many.cnf"
	var src strings.Builder
	names := []string{"na", "nb", "nc"}
	for _, n := range names {
		src.WriteString(strings.ReplaceAll(benchProgram, "normalize2", n) + "\n")
	}
	c.open(uri, src.String())
	c.analysed(uri, 1)
	var wg sync.WaitGroup
	for i := 0; i < 30; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := c.call("workspace/executeCommand", map[string]any{"command": cmdBenchmark, "arguments": []any{uri, names[i%3]}}, nil); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	deadline := time.Now().Add(10 * time.Second)
	for {
		mu.Lock()
		total := calls["na"] + calls["nb"] + calls["nc"]
		mu.Unlock()
		if total >= 3 || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(300 * time.Millisecond) // anything more would have started by now
	mu.Lock()
	defer mu.Unlock()
	if most != 1 {
		t.Errorf("%d measurements ran at once", most)
	}
	for _, n := range names {
		if calls[n] != 1 {
			t.Errorf("%s was measured %d times: %v", n, calls[n], calls)
		}
	}
}

// A measured optimal clustering slower than a baseline says so in the lens's line and the
// hover, plainly.
func TestDescribeBenchSaysWhenSlower(t *testing.T) {
	res := &codegen.BenchResult{Clusterings: []*codegen.Measured{
		{Name: "unfused", Loops: 9, Seconds: 0.034}, {Name: "stream", Loops: 8, Seconds: 0.030},
		{Name: "megiddo", Loops: 3, Seconds: 0.010}, {Name: "optimal", Loops: 2, Seconds: 0.057},
	}}
	m := describeBench(res, 10_000_000)
	if !strings.Contains(m.summary, "slower than megiddo (10 ms)") || !strings.Contains(m.verdict, "slower than megiddo") {
		t.Errorf("summary %q, verdict %q", m.summary, m.verdict)
	}
	res.Clusterings[3].Seconds = 0.0102 // within 5%: not said
	if m := describeBench(res, 10_000_000); strings.Contains(m.summary, "slower") || m.verdict != "" {
		t.Errorf("within noise: summary %q, verdict %q", m.summary, m.verdict)
	}
}

// A clustering whose C is an earlier one's was measured once (codegen.Measured.SameAs): the
// hover's table says so, and nothing calls it slower than itself.
func TestMeasuredOnceWhenTheSameC(t *testing.T) {
	res := &codegen.BenchResult{Clusterings: []*codegen.Measured{
		{Name: "unfused", Loops: 9, Seconds: 0.034}, {Name: "stream", Loops: 8, Seconds: 0.030},
		{Name: "megiddo", Loops: 1, Seconds: 0.010}, {Name: "optimal", Loops: 1, Seconds: 0.010, SameAs: "megiddo"},
	}}
	m := describeBench(res, 10_000_000)
	if strings.Contains(m.summary, "slower") || m.verdict != "" {
		t.Errorf("summary %q, verdict %q", m.summary, m.verdict)
	}
	if got := m.rows[3][0]; got != "optimal (the same C as megiddo)" {
		t.Errorf("the optimal's row is named %q", got)
	}
}
