package lsp

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"
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
	if !strings.Contains(hover.Contents.Value, summary) || !strings.Contains(hover.Contents.Value, "megiddo: 3 loops") {
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
	for _, want := range []string{"Host functions and types from prog.c", "dist(L1_0_h_ds__v)"} {
		if !strings.Contains(got, want) {
			t.Errorf("with prog.c, the C lacks %q:\n%s", want, got)
		}
	}
}
