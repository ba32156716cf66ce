package lsp

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/cnf-tools/cnf/syntax/gen"
)

// BenchmarkLatency measures, on generated programs of 25 and 100 bindings, the time from a
// didChange to the publishDiagnostics of that version (parsing, names, sizes) and to its
// clustering being available for code lenses (after the debounce, which is set to zero here),
// and reports p50 and p95. The edit is in a comment, so the graph is unchanged: "reuse" is the
// server as it is (the clustering is reused without a solve), "fresh" solves every version
// anew. docs/performance.md has the numbers.
//
//	go test ./lsp -run '^$' -bench Latency -benchtime 40x
func BenchmarkLatency(b *testing.B) {
	for _, n := range []int{25, 100} {
		for _, mode := range []string{"reuse", "fresh"} {
			b.Run(fmt.Sprintf("bindings=%d/%s", n, mode), func(b *testing.B) { latency(b, n, mode == "fresh") })
		}
	}
}

func latency(b *testing.B, n int, fresh bool) {
	src := gen.Program(rand.New(rand.NewPCG(1, 0x636e66)), gen.Options{Bindings: n})
	opts := DefaultOptions()
	opts.Debounce = 0
	c := startServer(b, opts, nil)
	if fresh {
		cfg := c.server.engine.Config()
		cfg.Fresh = true
		c.server.engine.SetConfig(cfg)
	}
	uri := "file:///bench.cnf"
	c.open(uri, src)
	c.analysed(uri, 1)
	var diag, lens []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		v := int32(i + 2)
		text := strings.Replace(src, "prog xs1", fmt.Sprintf("prog xs1 {- edit %d -}", i), 1)
		start := time.Now()
		c.change(uri, int(v), text)
		c.waitDiagnostics(uri, func(p diagParams) bool { return p.Version == v })
		diag = append(diag, time.Since(start))
		c.analysed(uri, v)
		lens = append(lens, time.Since(start))
	}
	b.StopTimer()
	b.ReportMetric(percentile(diag, 50), "diag-p50-ms")
	b.ReportMetric(percentile(diag, 95), "diag-p95-ms")
	b.ReportMetric(percentile(lens, 50), "lens-p50-ms")
	b.ReportMetric(percentile(lens, 95), "lens-p95-ms")
}

func percentile(ds []time.Duration, p int) float64 {
	if len(ds) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	k := (len(s)*p + 99) / 100
	if k < 1 {
		k = 1
	}
	return float64(s[k-1].Microseconds()) / 1000
}

// BenchmarkDocumentSymbolLarge measures the outline of a 1 MB document (12,000 definitions,
// 13 MB of JSON): the server's work, the protocol's encoding, and the test client's decoding
// of the names only. TestLargeDocument checks that a 5 MB document is answered at all.
//
//	go test ./lsp -run '^$' -bench DocumentSymbolLarge -benchtime 5x
func BenchmarkDocumentSymbolLarge(b *testing.B) {
	opts := DefaultOptions()
	opts.Debounce = time.Hour
	c := startServer(b, opts, nil)
	uri, _ := openLarge(c, 1<<20)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var symbols []struct{ Name string }
		if err := c.callWithin(time.Minute, "textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": uri}}, &symbols); err != nil || len(symbols) == 0 {
			b.Fatalf("%d symbols, %v", len(symbols), err)
		}
	}
}
