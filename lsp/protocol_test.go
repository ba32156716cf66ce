package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"sync/atomic"

	"go.lsp.dev/protocol"

	"fmt"
	"github.com/cnf-tools/cnf/cluster"
	"github.com/cnf-tools/cnf/syntax"
	"github.com/cnf-tools/cnf/syntax/gen"
	"io"
	"net"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// rawClient writes bytes exactly as a client (or a broken client) would, and reads the
// server's messages.
type rawClient struct {
	t    *testing.T
	conn net.Conn
	in   *bufio.Reader
	done chan error
	mu   sync.Mutex
}

type rawMessage struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
	Params json.RawMessage `json:"params"`
}

func startRaw(t *testing.T, opts Options) *rawClient {
	serverSide, clientSide := net.Pipe()
	c := &rawClient{t: t, conn: clientSide, in: bufio.NewReader(clientSide), done: make(chan error, 1)}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(func() { cancel(); clientSide.Close() })
	srv := NewServer(serverSide, io.Discard, opts)
	addTestRoutes(srv)
	go func() { c.done <- srv.Run(ctx) }()
	return c
}

func (c *rawClient) sendBytes(body string) {
	c.t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.conn.SetWriteDeadline(time.Now().Add(10 * time.Second))
	if _, err := fmt.Fprintf(c.conn, "Content-Length: %d\r\n\r\n%s", len(body), body); err != nil {
		c.t.Fatalf("write: %v", err)
	}
}

func (c *rawClient) send(v map[string]any) {
	c.t.Helper()
	v["jsonrpc"] = "2.0"
	data, _ := json.Marshal(v)
	c.sendBytes(string(data))
}

func (c *rawClient) request(id any, method string, params any) {
	c.send(map[string]any{"id": id, "method": method, "params": params})
}

func (c *rawClient) notify(method string, params any) {
	c.send(map[string]any{"method": method, "params": params})
}

// read returns the next message from the server.
func (c *rawClient) read() rawMessage {
	c.t.Helper()
	c.conn.SetReadDeadline(time.Now().Add(20 * time.Second))
	length := -1
	for {
		line, err := c.in.ReadString('\n')
		if err != nil {
			c.t.Fatalf("read: %v", err)
		}
		line = strings.TrimSpace(line)
		if line == "" {
			break
		}
		if v, ok := strings.CutPrefix(line, "Content-Length:"); ok {
			length, _ = strconv.Atoi(strings.TrimSpace(v))
		}
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(c.in, body); err != nil {
		c.t.Fatalf("read body: %v", err)
	}
	var m rawMessage
	if err := json.Unmarshal(body, &m); err != nil {
		c.t.Fatalf("bad message from the server: %v: %s", err, body)
	}
	return m
}

// response reads messages until the response to id, answering or skipping the rest.
func (c *rawClient) response(id string) rawMessage {
	c.t.Helper()
	for {
		m := c.read()
		if string(m.ID) == id && m.Method == "" {
			return m
		}
	}
}

func (c *rawClient) initialize() {
	c.request(1, "initialize", map[string]any{"processId": 1, "capabilities": map[string]any{}})
	if m := c.response("1"); m.Error != nil {
		c.t.Fatalf("initialize: %v", m.Error.Message)
	}
	c.notify("initialized", map[string]any{})
}

func TestRequestBeforeInitialize(t *testing.T) {
	c := startRaw(t, DefaultOptions())
	c.request(7, "textDocument/hover", map[string]any{})
	if m := c.response("7"); m.Error == nil || m.Error.Code != -32002 {
		t.Fatalf("want ServerNotInitialized (-32002), got %+v", m.Error)
	}
}

func TestUnknownMethodAndMalformedJSON(t *testing.T) {
	c := startRaw(t, DefaultOptions())
	c.initialize()
	c.request(2, "textDocument/prepareTypeHierarchy", map[string]any{})
	if m := c.response("2"); m.Error == nil || m.Error.Code != -32601 {
		t.Fatalf("want MethodNotFound (-32601), got %+v", m.Error)
	}
	c.sendBytes(`{"jsonrpc": "2.0", "id": 3, "method": `) // truncated JSON
	c.sendBytes(`not json at all`)
	c.request("after", "shutdown", nil)
	if m := c.response(`"after"`); m.Error != nil {
		t.Fatalf("the server did not survive malformed messages: %+v", m.Error)
	}
}

// A header without a usable Content-Length loses the stream's framing: the server must end the
// session with an error (so that the client restarts it) instead of reading on as headers and
// answering nothing.
func TestBrokenFramingEndsTheSession(t *testing.T) {
	for name, raw := range map[string]string{
		"no Content-Length":                     "Content-Type: application/vscode-jsonrpc\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"shutdown\"}",
		"a Content-Length that is not a number": "Content-Length: twelve\r\n\r\n{}",
		"a negative Content-Length":             "Content-Length: -5\r\n\r\n{}",
		"input ending inside a body":            "Content-Length: 100\r\n\r\n{\"jsonrpc\"",
	} {
		t.Run(name, func(t *testing.T) {
			c := startRaw(t, DefaultOptions())
			c.initialize()
			c.mu.Lock()
			io.WriteString(c.conn, raw)
			if name == "input ending inside a body" {
				c.conn.Close()
			}
			c.mu.Unlock()
			go io.Copy(io.Discard, c.in) // the server may still write; nobody reads otherwise
			select {
			case err := <-c.done:
				if !errors.Is(err, ErrFraming) {
					t.Fatalf("Serve returned %v, want an error wrapping ErrFraming", err)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("the server did not end the session: it would sit deaf")
			}
		})
	}
}

// A message over MaxMessage is skipped by its length, which keeps the stream in step: the next
// request is answered.
func TestOversizedMessageSkipped(t *testing.T) {
	c := startRaw(t, DefaultOptions())
	c.initialize()
	big := MaxMessage + 1000
	c.mu.Lock()
	c.conn.SetWriteDeadline(time.Now().Add(20 * time.Second))
	go func() {
		fmt.Fprintf(c.conn, "Content-Length: %d\r\n\r\n", big)
		chunk := strings.Repeat("x", 1<<20)
		for left := big; left > 0; left -= len(chunk) {
			io.WriteString(c.conn, chunk[:min(left, len(chunk))])
		}
		c.mu.Unlock()
	}()
	c.request("next", "shutdown", nil)
	if m := c.response(`"next"`); m.Error != nil {
		t.Fatalf("after an oversized message: %+v", m.Error)
	}
}

// VS Code sends $/cancelRequest with a numeric id; the request answers RequestCancelled.
func TestCancelNumericID(t *testing.T) {
	c := startRaw(t, DefaultOptions())
	c.initialize()
	c.request(42, "$/cnf/test/wait", map[string]any{})
	time.Sleep(20 * time.Millisecond)
	c.notify("$/cancelRequest", map[string]any{"id": 42})
	if m := c.response("42"); m.Error == nil || m.Error.Code != -32800 {
		t.Fatalf("want RequestCancelled (-32800), got %+v", m.Error)
	}
	c.request("s", "$/cnf/test/wait", map[string]any{})
	time.Sleep(20 * time.Millisecond)
	c.notify("$/cancelRequest", map[string]any{"id": "s"})
	if m := c.response(`"s"`); m.Error == nil || m.Error.Code != -32800 {
		t.Fatalf("string id: want RequestCancelled, got %+v", m.Error)
	}
}

// A panicking handler answers InternalError and the server goes on.
func TestPanicRecovered(t *testing.T) {
	c := startRaw(t, DefaultOptions())
	c.initialize()
	c.request(5, "$/cnf/test/panic", map[string]any{})
	if m := c.response("5"); m.Error == nil || m.Error.Code != -32603 {
		t.Fatalf("want InternalError (-32603), got %+v", m.Error)
	}
	c.request(6, "textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": "untitled:Untitled-1"}})
	if m := c.response("6"); m.Error != nil {
		t.Fatalf("the server did not go on after a panic: %+v", m.Error)
	}
}

// After shutdown only exit is accepted; exit ends the connection with success.
func TestShutdownExit(t *testing.T) {
	c := startRaw(t, DefaultOptions())
	c.initialize()
	c.request(2, "shutdown", nil)
	c.response("2")
	c.request(3, "textDocument/hover", map[string]any{})
	if m := c.response("3"); m.Error == nil || m.Error.Code != -32600 {
		t.Fatalf("want InvalidRequest after shutdown, got %+v", m.Error)
	}
	c.notify("exit", nil)
	select {
	case err := <-c.done:
		if err != nil {
			t.Fatalf("Serve returned %v after shutdown and exit", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the server did not stop on exit")
	}
}

// A full-document change has no range: it replaces the text (not an insertion at 0:0), and an
// untitled: document works like a file.
func TestFullChangeUntitled(t *testing.T) {
	opts := DefaultOptions()
	opts.Debounce = time.Millisecond
	c := startServer(t, opts, nil)
	uri := "untitled:Untitled-1"
	c.open(uri, "f xs =\n  let ys = map (+ 1) zs\n  in ys\n")
	c.waitDiagnostics(uri, func(p diagParams) bool { return p.Version == 1 && len(p.Diagnostics) > 0 })
	c.change(uri, 2, "f xs =\n  let ys = map (+ 1) xs\n  in ys\n")
	c.waitDiagnostics(uri, func(p diagParams) bool { return p.Version == 2 && len(p.Diagnostics) == 0 })
	if vw, err := c.server.view(context.Background(), uri); err != nil || string(vw.file.Text) != "f xs =\n  let ys = map (+ 1) xs\n  in ys\n" {
		t.Fatalf("text after a full change: %q (%v)", vw.file.Text, err)
	}
}

// A thousand changes in a burst: the last diagnostics are those of the last text, and code
// lenses keep the last clustering while the text has errors.
func TestBurstAndLastGood(t *testing.T) {
	opts := DefaultOptions()
	opts.Debounce = 20 * time.Millisecond
	c := startServer(t, opts, map[string]any{"workspace": map[string]any{"codeLens": map[string]any{"refreshSupport": true}}})
	uri := "file:///burst.cnf"
	good := "f xs =\n  let ys = map (+ 1) xs\n      s  = fold (+) 0 ys\n  in  (ys, s)\n"
	c.open(uri, good)
	c.analysed(uri, 1)
	for v := 2; v <= 1001; v++ {
		text := good
		if v%2 == 0 {
			text = strings.Replace(good, "map (+ 1) xs", fmt.Sprintf("map (+ %d) xs", v), 1)
		}
		c.change(uri, v, text)
	}
	broken := strings.Replace(good, "(+ 1) xs", "(+ 1 xs", 1)
	c.change(uri, 1002, broken)
	last := c.waitDiagnostics(uri, func(p diagParams) bool { return p.Version == 1002 })
	if len(last.Diagnostics) == 0 {
		t.Fatal("no syntax error for the last, broken text")
	}
	var lenses []map[string]any
	if err := c.call("textDocument/codeLens", map[string]any{"textDocument": map[string]any{"uri": uri}}, &lenses); err != nil {
		t.Fatal(err)
	}
	if len(lenses) == 0 {
		t.Fatal("code lenses disappeared while the text has an error")
	}
	c.mu.Lock()
	refreshes := c.calls["workspace/codeLens/refresh"]
	c.mu.Unlock()
	if refreshes == 0 {
		t.Error("the client supports workspace/codeLens/refresh but was never asked to refresh")
	}
}

// A 5 MB document is analysed and the server stays responsive. (Clustering its 55,000
// definitions would take minutes of background work; the debounce keeps it out of this test.)
func TestLargeDocument(t *testing.T) {
	opts := DefaultOptions()
	opts.Debounce = time.Hour
	c := startServer(t, opts, nil)
	uri, defs := openLarge(c, 5<<20)
	var symbols []struct{ Name string } // only what is checked: decoding the rest is the client's cost
	if err := c.callWithin(3*time.Minute, "textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": uri}}, &symbols); err != nil {
		t.Fatal(err)
	}
	if len(symbols) != defs {
		t.Fatalf("%d symbols for a 5 MB file of %d definitions", len(symbols), defs)
	}
}

// openLarge opens a document of at least size bytes of small definitions, waits for its
// diagnostics, and returns its URI and how many definitions it has.
func openLarge(c *client, size int) (uri string, defs int) {
	var b strings.Builder
	for ; b.Len() < size; defs++ {
		fmt.Fprintf(&b, "f%d xs =\n  let ys = map (+ 1) xs\n      s  = fold (+) 0 ys\n  in  (ys, s)\n\n", defs)
	}
	uri = "file:///large.cnf"
	c.open(uri, b.String())
	c.waitDiagnostics(uri, func(p diagParams) bool { return p.Version == 1 })
	return uri, defs
}

// addTestRoutes adds test-only methods to a server: one that waits for cancellation, one that
// panics.
func addTestRoutes(s *Server) {
	s.routes["$/cnf/test/wait"] = request(func(s *Server, ctx context.Context, _ *struct{}) (string, error) {
		select {
		case <-ctx.Done():
		case <-time.After(10 * time.Second):
		}
		return "not cancelled", nil
	})
	s.routes["$/cnf/test/panic"] = request(func(*Server, context.Context, *struct{}) (string, error) {
		panic("deliberate panic")
	})
}

// workspace/didChangeConfiguration turns fusion-preventing diagnostics down to hints or off,
// and a client that does not support codeLens/refresh is never asked to refresh.
func TestSettings(t *testing.T) {
	opts := DefaultOptions()
	opts.Debounce = time.Millisecond
	c := startServer(t, opts, nil)
	uri := "file:///settings.cnf"
	text := "f xs =\n  let s  = fold (+) 0 xs\n      ys = map (+ s) xs\n  in  ys\n"
	c.open(uri, text)
	c.analysed(uri, 1)
	count := func(p diagParams) (n int, severity int) {
		for _, raw := range p.Diagnostics {
			var d struct {
				Code     string `json:"code"`
				Severity int    `json:"severity"`
			}
			json.Unmarshal(raw, &d)
			if d.Code == "fusion-preventing" {
				n, severity = n+1, d.Severity
			}
		}
		return
	}
	if n, sev := count(c.waitDiagnostics(uri, func(p diagParams) bool { n, _ := count(p); return n > 0 })); n != 1 || sev != 4 {
		t.Fatalf("default: %d fusion diagnostics of severity %d, want 1 hint (no squiggle on a correct program)", n, sev)
	}
	since := c.published(uri)
	c.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"cnf": map[string]any{"fusionDiagnostics": "information"}}})
	c.waitAfter(uri, since, func(p diagParams) bool { n, sev := count(p); return n == 1 && sev == 3 })
	since = c.published(uri)
	c.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"cnf": map[string]any{"fusionDiagnostics": "off", "solver": map[string]any{"timeLimit": 0.5}, "debounce": 50}}})
	c.waitAfter(uri, since, func(p diagParams) bool { n, _ := count(p); return n == 0 })
	if o := c.server.options(); o.TimeLimit != 500*time.Millisecond || o.Debounce != 50*time.Millisecond {
		t.Errorf("settings not applied: %+v", o)
	}
	c.mu.Lock()
	refreshes := c.calls["workspace/codeLens/refresh"]
	c.mu.Unlock()
	if refreshes != 0 {
		t.Errorf("asked a client without refreshSupport to refresh code lenses %d times", refreshes)
	}
}

// A storm of requests, each cancelled at once: every one is answered, and the server goes on.
func TestCancellationStorm(t *testing.T) {
	c := startRaw(t, DefaultOptions())
	c.initialize()
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": "file:///s.cnf", "languageId": "cnf", "version": 1,
		"text": "f xs =\n  let ys = map (+ 1) xs\n  in  ys\n"}})
	const n = 300
	for i := 0; i < n; i++ {
		method := "textDocument/hover"
		if i%3 == 0 {
			method = "$/cnf/test/wait"
		}
		c.request(1000+i, method, map[string]any{"textDocument": map[string]any{"uri": "file:///s.cnf"}, "position": map[string]any{"line": 1, "character": 7}})
		c.notify("$/cancelRequest", map[string]any{"id": 1000 + i})
	}
	answered := map[string]bool{}
	for len(answered) < n {
		m := c.read()
		if m.Method == "" && len(m.ID) > 0 {
			answered[string(m.ID)] = true
		}
	}
	c.request("last", "textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": "file:///s.cnf"}, "position": map[string]any{"line": 1, "character": 7}})
	if m := c.response(`"last"`); m.Error != nil || string(m.Result) == "null" {
		t.Fatalf("the server did not answer after the storm: %+v %s", m.Error, m.Result)
	}
}

// A codeLens request sent right after didOpen, before the first clustering, is answered at
// once (an editor shows dead copies of old lenses until then, and spaces its later requests
// by how long answers took) with a lens that already opens the clustering; once the
// clustering is done the client is asked to refresh, after that answer, and gets the loops.
func TestFirstCodeLensAnswersAtOnce(t *testing.T) {
	opts := DefaultOptions()
	opts.Debounce = 2 * time.Second // the clustering comes long after the first request
	c := startServer(t, opts, map[string]any{"workspace": map[string]any{"codeLens": map[string]any{"refreshSupport": true}}})
	uri := "file:///first.cnf"
	c.open(uri, "f xs =\n  let ys = map (+ 1) xs\n      s  = fold (+) 0 ys\n  in  (ys, s)\n")
	type lensT struct {
		Command *struct {
			Title   string `json:"title"`
			Command string `json:"command"`
		} `json:"command"`
	}
	var lenses []lensT
	start := time.Now()
	if err := c.call("textDocument/codeLens", map[string]any{"textDocument": map[string]any{"uri": uri}}, &lenses); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("the first codeLens answer took %v", d)
	}
	if len(lenses) != 1 || lenses[0].Command == nil || lenses[0].Command.Command != "cnf.showClustering" || !strings.Contains(lenses[0].Command.Title, "show clustering") {
		t.Fatalf("first codeLens answer: %+v", lenses)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		c.mu.Lock()
		refreshes := c.calls["workspace/codeLens/refresh"]
		c.mu.Unlock()
		if refreshes > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no refresh after the clustering")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := c.call("textDocument/codeLens", map[string]any{"textDocument": map[string]any{"uri": uri}}, &lenses); err != nil {
		t.Fatal(err)
	}
	if len(lenses) == 0 || !strings.HasPrefix(lenses[0].Command.Title, "1 loop") {
		t.Fatalf("codeLens after the refresh: %+v", lenses)
	}
	// A document with errors is never clustered: no lenses, at once.
	bad := "file:///bad.cnf"
	c.open(bad, "f xs =\n  let ys = map (+ 1 xs\n  in  ys\n")
	start = time.Now()
	if err := c.call("textDocument/codeLens", map[string]any{"textDocument": map[string]any{"uri": bad}}, &lenses); err != nil {
		t.Fatal(err)
	}
	if len(lenses) != 0 || time.Since(start) > time.Second {
		t.Fatalf("codeLens of a broken document: %d lenses after %v", len(lenses), time.Since(start))
	}
}

// syncBuffer is a bytes.Buffer safe for the server's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// --rpc-trace: a line per message in each direction; responses name their request's method.
func TestRPCTrace(t *testing.T) {
	var trace syncBuffer
	opts := DefaultOptions()
	opts.RPCTrace = &trace
	c := startRaw(t, opts)
	c.initialize()
	c.request(2, "textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": "file:///none.cnf"}, "position": map[string]any{"line": 0, "character": 0}})
	c.response("2")
	for _, want := range []string{"<- request 1 initialize (", "-> response 1 initialize (", "<- notification  initialized (", "<- request 2 textDocument/hover (", "-> response 2 textDocument/hover ("} {
		if !strings.Contains(trace.String(), want) {
			t.Errorf("trace lacks %q:\n%s", want, trace.String())
		}
	}
}

// An analysis overtaken by a newer version must not publish over it. The publication of
// version 1's clustering is held between its snapshot of the document and its post until
// version 2's diagnostics are out; then it is let go. The outbox must drop it: the versions
// published never go back (without the check they were [1 2 1]).
func TestOvertakenPublicationDropped(t *testing.T) {
	opts := DefaultOptions()
	opts.Debounce = time.Millisecond
	c := startServer(t, opts, nil)
	entered, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	c.server.out.testHookBeforePost = func(st stamp, p *publishDiagnosticsParams) {
		if st.version == 1 && st.clustered {
			once.Do(func() { close(entered) })
			<-release
		}
	}
	uri := "file:///race.cnf"
	c.open(uri, "f xs =\n  let s  = fold (+) 0 xs\n      ys = map (+ s) xs\n  in  ys\n")
	select {
	case <-entered:
	case <-time.After(20 * time.Second):
		t.Fatal("version 1 was never clustered")
	}
	c.change(uri, 2, "f xs =\n  let ys = map (+ 1) xs\n  in  ys\n")
	c.waitDiagnostics(uri, func(p diagParams) bool { return p.Version == 2 })
	close(release)
	c.waitStatus(uri, 2, "clustered")
	time.Sleep(100 * time.Millisecond) // room for a late post to arrive, if it were sent
	c.mu.Lock()
	defer c.mu.Unlock()
	var versions []int32
	for _, p := range c.diags[uri] {
		versions = append(versions, p.Version)
	}
	for i := 1; i < len(versions); i++ {
		if versions[i] < versions[i-1] {
			t.Fatalf("published versions went back: %v", versions)
		}
	}
}

// countingSolver counts the server's solves and the most that ran at once.
type countingSolver struct {
	solves, running, most atomic.Int64
}

func (c *countingSolver) Name() string { return "counting" }

func (c *countingSolver) Solve(ctx context.Context, m *cluster.Model, opts cluster.SolveOptions) (*cluster.Solution, error) {
	c.solves.Add(1)
	n := c.running.Add(1)
	defer c.running.Add(-1)
	for most := c.most.Load(); n > most && !c.most.CompareAndSwap(most, n); most = c.most.Load() {
	}
	return cluster.DefaultSolver.Solve(ctx, m, opts)
}

func countSolves(s *Server) *countingSolver {
	solver := &countingSolver{}
	cfg := s.engine.Config()
	cfg.Solver = solver
	s.engine.SetConfig(cfg)
	return solver
}

// Typing inside a worker leaves the dependency graph unchanged: the new version gets its lenses
// and diagnostics without a solve (the clustering is reused by graph key).
func TestEditInsideWorkerNeedsNoSolve(t *testing.T) {
	opts := DefaultOptions()
	opts.Debounce = time.Millisecond
	c := startServer(t, opts, nil)
	solver := countSolves(c.server)
	uri := "file:///reuse.cnf"
	text := "normalize2 xs =\n  let sum1 = fold (+) 0 xs\n      gts  = filter (> 1) xs\n      sum2 = fold (+) 0 gts\n      ys1  = map (/ sum1) xs\n      ys2  = map (/ sum2) xs\n  in  (ys1, ys2)\n"
	c.open(uri, text)
	c.analysed(uri, 1)
	c.forcedDone(uri)
	before := solver.solves.Load()
	if before == 0 {
		t.Fatal("the first version was not solved")
	}
	c.change(uri, 2, strings.Replace(text, "(> 1)", "(> 12345)", 1))
	c.analysed(uri, 2)
	c.forcedDone(uri)
	if n := solver.solves.Load() - before; n != 0 {
		t.Fatalf("an edit inside a worker made %d solves", n)
	}
	var lenses []protocol.CodeLens
	if err := c.call("textDocument/codeLens", map[string]any{"textDocument": map[string]any{"uri": uri}}, &lenses); err != nil || len(lenses) == 0 {
		t.Fatalf("lenses after the edit: %v, %v", lenses, err)
	}
}

// A storm of documents: 60 programs of 30 bindings opened at once and edited. Every one is
// analysed, no more solves run at once than there are cores, and a hover on one document is
// answered while the others are being clustered.
func TestDocumentStorm(t *testing.T) {
	opts := DefaultOptions()
	opts.Debounce = time.Millisecond
	opts.TimeLimit = 500 * time.Millisecond
	c := startServer(t, opts, nil)
	solver := countSolves(c.server)
	const docs = 60
	for i := range docs {
		src := gen.Program(rand.New(rand.NewPCG(uint64(i), 9)), gen.Options{Bindings: 30})
		c.open(fmt.Sprintf("file:///storm%d.cnf", i), src)
	}
	for i := range docs {
		c.change(fmt.Sprintf("file:///storm%d.cnf", i), 2, gen.Program(rand.New(rand.NewPCG(uint64(i), 10)), gen.Options{Bindings: 30}))
	}
	var h *protocol.Hover
	if err := c.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": "file:///storm0.cnf"}, "position": map[string]any{"line": 1, "character": 0}}, &h); err != nil {
		t.Fatalf("hover during the storm: %v", err)
	}
	for i := range docs {
		c.waitStatus(fmt.Sprintf("file:///storm%d.cnf", i), 2, "clustered")
	}
	if most := solver.most.Load(); most > int64(runtime.NumCPU()) {
		t.Fatalf("%d solves ran at once on %d cores", most, runtime.NumCPU())
	}
}

// No analysis runs on the reading goroutine: while a 10 MB document is being parsed (over a
// second here), a small document opened after it is parsed and its hover answered, before the
// large one has any diagnostics. (Before, didOpen parsed on the reading goroutine, so every
// request waited behind the large document.)
func TestLargeDocumentDoesNotBlockOthers(t *testing.T) {
	opts := DefaultOptions()
	c := startServer(t, opts, nil)
	normalize2, err := os.ReadFile("../examples/normalize2.cnf")
	if err != nil {
		t.Fatal(err)
	}
	var big strings.Builder
	for i := 0; big.Len() < 10<<20; i++ {
		big.WriteString(strings.ReplaceAll(string(normalize2), "normalize2", fmt.Sprintf("n%d", i)) + "\n")
	}
	c.open("file:///big.cnf", big.String())
	c.open("file:///small.cnf", "f xs =\n  let ys = map (+ 1) xs\n  in  ys\n")
	var h *protocol.Hover
	if err := c.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": "file:///small.cnf"}, "position": map[string]any{"line": 1, "character": 6}}, &h); err != nil || h == nil {
		t.Fatalf("hover on the small document: %v, %v", h, err)
	}
	if n := c.published("file:///big.cnf"); n != 0 {
		t.Fatalf("the small document's hover waited for the large document's analysis (%d publications of it came first)", n)
	}
}

// A clustering not proven optimal says so in its lens (item 6 of the editor issue: only a
// squiggle and the hover said it, and the lens read as final).
func TestUnprovenLensSaysSo(t *testing.T) {
	opts := DefaultOptions()
	opts.Debounce = 0
	opts.TimeLimit = 10 * time.Millisecond // a 150-binding fans program is not proven in that
	c := startServer(t, opts, nil)
	uri := "file:///fans.cnf"
	c.open(uri, gen.Program(rand.New(rand.NewPCG(2, 0x636e66)), gen.Options{Bindings: 150, Shape: "fans"}))
	type lensT struct {
		Command *struct {
			Title   string `json:"title"`
			Tooltip string `json:"tooltip"`
		} `json:"command"`
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		var lenses []lensT
		if err := c.call("textDocument/codeLens", map[string]any{"textDocument": map[string]any{"uri": uri}}, &lenses); err != nil {
			t.Fatal(err)
		}
		if len(lenses) > 0 && lenses[0].Command != nil && !strings.HasPrefix(lenses[0].Command.Title, "finding") {
			title, tip := lenses[0].Command.Title, lenses[0].Command.Tooltip
			if !strings.Contains(title, "loops, not proven optimal (unfused 150") || !strings.Contains(tip, "Prove the Clustering Optimal") {
				t.Fatalf("lens %q, tooltip %q: want it to say the clustering is not proven optimal", title, tip)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("no clustering within a minute")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Where an array belongs only arrays are offered (the extension's combinator snippets, shown
// everywhere, offered postscanl after "filter (> 100) pos"); where a combinator belongs, each
// comes as a snippet with its arguments as placeholders when the client takes snippets.
func TestCompletionOffersArraysWhereArraysGo(t *testing.T) {
	caps := map[string]any{"textDocument": map[string]any{"completion": map[string]any{"completionItem": map[string]any{"snippetSupport": true}}}}
	c := startServer(t, DefaultOptions(), caps)
	uri := "file:///c.cnf"
	text := "f :: Array Int -> Array Int\nf xs =\n  let pos = filter (> 0) xs\n      big = filter (> 100) pos\n      ys  = \n  in  big\n"
	c.open(uri, text)
	type item struct {
		Label            string `json:"label"`
		InsertText       string `json:"insertText"`
		InsertTextFormat int    `json:"insertTextFormat"`
	}
	complete := func(line, char int) map[string]item {
		var items []item
		if err := c.call("textDocument/completion", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": map[string]any{"line": line, "character": char}}, &items); err != nil {
			t.Fatal(err)
		}
		out := map[string]item{}
		for _, it := range items {
			out[it.Label] = it
		}
		return out
	}
	arrays := complete(3, len("      big = filter (> 100) pos"))
	if _, ok := arrays["pos"]; !ok || len(arrays) == 0 {
		t.Fatalf("after filter (> 100) pos: %v, want the arrays in scope", arrays)
	}
	for label := range arrays {
		if _, comb := syntax.LookupCombinator(label); comb {
			t.Fatalf("after filter (> 100) pos the combinator %s is offered", label)
		}
	}
	combs := complete(4, len("      ys  = "))
	if f := combs["filter"]; f.InsertTextFormat != 2 || f.InsertText != "filter ${1:(> 0)} ${2:xs}$0" {
		t.Fatalf("filter in the combinator slot: %+v, want its snippet", f)
	}
}

// After an edit that brings a size error, the loop hints of the last good clustering are gone
// (they belong to an older text), the definition's lens says it is the last good version's,
// and the size hints are what the bindings without errors determine: gts keeps its filter's
// size, not the parameter's it was unified with.
func TestSizeErrorDropsStaleLoopHints(t *testing.T) {
	opts := DefaultOptions()
	opts.Debounce = 0
	c := startServer(t, opts, nil)
	uri := "file:///n.cnf"
	good := "normalize2 xs =\n  let sum1 = fold (+) 0 xs\n      gts  = filter (> 0) xs\n      sum2 = fold (+) 0 gts\n      ys1  = map (/ sum1) xs\n      ys2  = map (/ sum2) xs\n  in  (ys1, ys2)\n"
	c.open(uri, good)
	c.analysed(uri, 1)
	hints := func() map[string]string {
		var hs []inlayHint
		if err := c.call("textDocument/inlayHint", map[string]any{"textDocument": map[string]any{"uri": uri}, "range": map[string]any{"start": map[string]any{"line": 0, "character": 0}, "end": map[string]any{"line": 100, "character": 0}}}, &hs); err != nil {
			t.Fatal(err)
		}
		out := map[string]string{}
		for _, h := range hs {
			out[fmt.Sprintf("%d:%d", h.Position.Line+1, h.Position.Character+1)] = hintText(h)
		}
		return out
	}
	before := hints()
	loops := 0
	for _, h := range before {
		if strings.Contains(h, `"loop `) {
			loops++
			if !strings.Contains(h, "cnf.showFusedProcess") {
				t.Errorf("loop hint %s: want a link to the loop's fused process", h)
			}
		}
	}
	if loops != 5 || before["3:10"] != `": k2" (the size of gts)` {
		t.Fatalf("hints of the good text: %v", before)
	}
	bad := strings.Replace(good, "  in  (ys1, ys2)", "      ys3  = map2 (+) gts xs\n  in  (ys1, ys2, ys3)", 1)
	c.change(uri, 2, bad)
	c.waitStatus(uri, 2, "parsed")
	after := hints()
	for at, h := range after {
		if strings.Contains(h, `"loop `) {
			t.Errorf("%s: loop hint %s of the older text during a size error", at, h)
		}
	}
	if after["3:10"] != `": k2" (the size of gts)` {
		t.Errorf("gts's size hint during the error: %q, want k2 (its filter's size)", after["3:10"])
	}
	if titles := lensTitles(t, c, uri); len(titles) == 0 || !strings.HasPrefix(titles[0], "last good version: 2 loops") {
		t.Errorf("lens titles during the error: %q", titles)
	}
	// Lenses can be turned off.
	c.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"cnf": map[string]any{"codeLens": map[string]any{"enable": false}}}})
	if titles := lensTitles(t, c, uri); len(titles) != 0 {
		t.Errorf("lenses with cnf.codeLens.enable false: %q", titles)
	}
}

// A clustering of more than present.CollapseAbove bindings comes with its loops drawn as
// boxes; the view can open some of them, or ask for every binding.
func TestLargeDiagramStartsCollapsed(t *testing.T) {
	opts := DefaultOptions()
	opts.Debounce = 0
	c := startServer(t, opts, nil)
	uri := "file:///big.cnf"
	c.open(uri, gen.Program(rand.New(rand.NewPCG(7, 1)), gen.Options{Bindings: 35}))
	c.analysed(uri, 1)
	var syms []protocol.DocumentSymbol
	if err := c.call("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": uri}}, &syms); err != nil || len(syms) == 0 {
		t.Fatalf("symbols: %v %v", syms, err)
	}
	name := syms[0].Name
	show := func(view any) ClusteringResult {
		args := []any{uri, name}
		if view != nil {
			args = append(args, view)
		}
		var r ClusteringResult
		if err := c.call("workspace/executeCommand", map[string]any{"command": cmdShowClustering, "arguments": args}, &r); err != nil {
			t.Fatal(err)
		}
		return r
	}
	boxes := func(r ClusteringResult) int { return strings.Count(r.DOT, `[shape=box, style="rounded,filled"`) }
	def := show(nil)
	loops := def.Summary.Loops
	if loops < 3 || !def.Collapsed || boxes(def) != loops {
		t.Fatalf("default view of %d loops: collapsed %v, %d boxes", loops, def.Collapsed, boxes(def))
	}
	open := show(map[string]any{"collapse": true, "expand": []any{2, 99}})
	if boxes(open) != loops-1 || !strings.Contains(open.DOT, `label="loop 2"; style="rounded,filled"`) || !slices.Equal(open.Expanded, []int{2}) {
		t.Errorf("loop 2 expanded: %d boxes, expanded %v", boxes(open), open.Expanded)
	}
	whole := show(map[string]any{"collapse": false})
	if whole.Collapsed || boxes(whole) != 0 {
		t.Errorf("collapse false: collapsed %v, %d boxes", whole.Collapsed, boxes(whole))
	}
}

// The status bar's error count is the count of errors published: with two errors on the line
// being typed (reported as one), cnf/status said one more than the Problems panel listed.
func TestStatusCountsPublishedErrors(t *testing.T) {
	opts := DefaultOptions()
	opts.Debounce = 0
	c := startServer(t, opts, nil)
	uri := "file:///typing.cnf"
	text := "f xs =\n  let ys = map (+ 1) xs\n  in  ys\n"
	c.open(uri, text)
	c.analysed(uri, 1)
	typed := strings.Replace(text, "map (+ 1) xs", "map2 (+) xss zss", 1) // two errors on the edited line
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": uri, "version": 2},
		"contentChanges": []any{map[string]any{"range": map[string]any{"start": map[string]any{"line": 1, "character": 11}, "end": map[string]any{"line": 1, "character": 23}}, "text": "map2 (+) xss zss"}},
	})
	c.waitStatus(uri, 2, "parsed")
	pub := c.waitDiagnostics(uri, func(p diagParams) bool { return p.Version == 2 })
	errs := 0
	for _, raw := range pub.Diagnostics {
		var d protocol.Diagnostic
		_ = json.Unmarshal(raw, &d)
		if d.Severity == protocol.DiagnosticSeverityError {
			errs++
		}
	}
	c.mu.Lock()
	var st Status
	for _, s := range c.status[uri] {
		if s.Version == 2 {
			st = s
		}
	}
	c.mu.Unlock()
	if errs != 1 || st.Errors != errs {
		t.Fatalf("text %q: %d errors published, status says %d", typed, errs, st.Errors)
	}
}
