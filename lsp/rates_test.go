package lsp

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"
)

// cnf.solver.rates names a rates file (cnf run --profile's): the open documents are analysed
// again, their filters weighed by it as `cnf cluster --rates` does for the same text; a file
// written again is read again when the next version is analysed; emptied, the guess is back.
func TestRatesSetting(t *testing.T) {
	src, err := os.ReadFile("../vscode-extension/e2e/fixtures/rates.cnf") // the e2e's program
	if err != nil {
		t.Fatal(err)
	}
	text := string(src)
	path := filepath.Join(t.TempDir(), "rates.json")
	write := func(rate string, at time.Time) {
		body := `{"version": "cnf-rates/1", "functions": {"p": {"f": {"rate": ` + rate + `}, "g": {"rate": 1}}}}`
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(path, at, at); err != nil {
			t.Fatal(err)
		}
	}
	write("1", time.Now().Add(-time.Hour))
	opts := DefaultOptions()
	opts.Debounce = 0
	c := startServer(t, opts, nil)
	uri := "file:///rates.cnf"
	c.open(uri, text)
	c.analysed(uri, 1)
	show := func() ClusteringResult {
		var r ClusteringResult
		if err := c.call("workspace/executeCommand", map[string]any{"command": cmdShowClustering, "arguments": []any{uri, "p"}}, &r); err != nil {
			t.Fatal(err)
		}
		return r
	}
	// until waits for the open document's clustering to satisfy ok (settings apply to new
	// versions, which a change of the rates makes at once).
	until := func(what string, ok func(ClusteringResult) bool) ClusteringResult {
		t.Helper()
		deadline := time.Now().Add(30 * time.Second)
		for {
			r := show()
			if ok(r) {
				return r
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: still rates %v, loops %+v", what, r.Summary.Rates, r.Summary.Clusters)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	first := func(r ClusteringResult) []string { return r.Summary.Clusters[0].Bindings }
	if r := show(); r.Summary.Rates != nil || !reflect.DeepEqual(first(r), []string{"m", "s", "f"}) {
		t.Fatalf("without rates: rates %v, first loop %v, want none and [m s f] (the guess writes f)", r.Summary.Rates, first(r))
	}

	c.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"cnf": map[string]any{"solver": map[string]any{"rates": path}}}})
	r := until("the setting names the rates", func(r ClusteringResult) bool { return r.Summary.Rates != nil })
	if want := map[string]float64{"f": 1, "g": 1}; !reflect.DeepEqual(r.Summary.Rates, want) {
		t.Errorf("rates used %v, want %v", r.Summary.Rates, want)
	}
	if got := first(r); !reflect.DeepEqual(got, []string{"m", "s"}) {
		t.Errorf("with f keeping everything the first loop is %v, want [m s] (f fused with its readers)", got)
	}
	var hover protocol.Hover
	if err := c.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": map[string]any{"line": strings.Count(text[:strings.Index(text, "p xs n =")], "\n"), "character": 0}}, &hover); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(hover.Contents.Value, "filters weighed by their measured rates: `f` 100%, `g` 100%") {
		t.Errorf("the definition's hover does not say the rates weighed it:\n%s", hover.Contents.Value)
	}

	write("0.25", time.Now())
	c.change(uri, 2, text+"\n")
	c.analysed(uri, 2)
	r = show()
	if r.Summary.Rates["f"] != 0.25 {
		t.Errorf("after the file was written again: rates %v, want f 0.25", r.Summary.Rates)
	}
	if got := first(r); !reflect.DeepEqual(got, []string{"m", "s", "f"}) {
		t.Errorf("with f keeping a quarter the first loop is %v, want [m s f] (f written)", got)
	}

	c.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"cnf": map[string]any{"solver": map[string]any{"rates": ""}}}})
	until("the setting emptied", func(r ClusteringResult) bool { return r.Summary.Rates == nil })
}

// A relative cnf.solver.rates is resolved in the first workspace folder, else the root URI.
func TestWorkspaceRoot(t *testing.T) {
	root := "file:///home/u/proj"
	for _, c := range []struct {
		p    initializeParams
		want string
	}{
		{initializeParams{}, ""},
		{initializeParams{RootURI: &root}, "/home/u/proj"},
		{initializeParams{RootURI: &root, WorkspaceFolders: []workspaceFolder{{URI: "file:///w/a"}, {URI: "file:///w/b"}}}, "/w/a"},
		{initializeParams{WorkspaceFolders: []workspaceFolder{{URI: "untitled:x"}}}, ""},
	} {
		if got := workspaceRoot(&c.p); got != filepath.FromSlash(c.want) {
			t.Errorf("workspaceRoot(%+v) = %q, want %q", c.p, got, c.want)
		}
	}
}

// A filter whose test is the same for every element is weighed by what it keeps, and the
// definition's hover says so, as cnf cluster does; the clustering's summary carries the rates.
func TestKnownRatesInHover(t *testing.T) {
	const text = `p :: Array Int -> (Array Int, Array Int)
p xs =
  let e = filter (\x -> x > x) xs
      k = filter (\x -> (x - x) /= (7 - 2)) xs
  in  (e, k)
`
	opts := DefaultOptions()
	opts.Debounce = 0
	c := startServer(t, opts, nil)
	uri := "file:///known.cnf"
	c.open(uri, text)
	c.analysed(uri, 1)
	var r ClusteringResult
	if err := c.call("workspace/executeCommand", map[string]any{"command": cmdShowClustering, "arguments": []any{uri, "p"}}, &r); err != nil {
		t.Fatal(err)
	}
	if want := map[string]float64{"e": 0, "k": 1}; !reflect.DeepEqual(r.Summary.KnownRates, want) {
		t.Errorf("known rates %v, want %v", r.Summary.KnownRates, want)
	}
	var hover protocol.Hover
	if err := c.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": map[string]any{"line": 1, "character": 0}}, &hover); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(hover.Contents.Value, "filters whose test is the same for every element, weighed so: `e` keeps none, `k` keeps all") {
		t.Errorf("the definition's hover does not say which filters keep nothing or everything:\n%s", hover.Contents.Value)
	}
	if !strings.Contains(hover.Contents.Value, "1 [loop](") || strings.Contains(hover.Contents.Value, "1 [loops]") {
		t.Errorf("the hover of a one-loop definition does not say \"1 loop\":\n%s", hover.Contents.Value)
	}
}
