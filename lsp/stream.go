package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
)

// malformedMethod is the method of the notification a stream returns in place of a message it
// cannot decode: the handler logs it and the connection goes on.
const malformedMethod = "$/cnf/malformed"

// MaxMessage bounds one message (a document of several megabytes fits).
const MaxMessage = 64 << 20

// stream reads and writes LSP base-protocol messages (Content-Length headers). Unlike
// jsonrpc2's own stream, a message whose body is not valid JSON-RPC does not end the
// connection: jsonrpc2's conn closes the stream on any read error, so a malformed message would
// take the server down.
type stream struct {
	in    *bufio.Reader
	out   io.Writer
	c     io.Closer
	mu    sync.Mutex
	trace *tracer // nil: no trace
}

func newStream(rwc io.ReadWriteCloser, trace io.Writer) *stream {
	s := &stream{in: bufio.NewReader(rwc), out: rwc, c: rwc}
	if trace != nil {
		s.trace = &tracer{w: trace}
	}
	return s
}

// tracer writes one line per message: "15:04:05.000000 <- request 3 textDocument/codeLens
// (120 bytes) {...}". Responses name the method of the request they answer when it was seen.
type tracer struct {
	mu      sync.Mutex
	w       io.Writer
	methods map[string]string // request id -> method, both directions
}

func (t *tracer) message(dir string, body []byte) {
	if t == nil {
		return
	}
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Error  json.RawMessage `json:"error"`
	}
	_ = json.Unmarshal(body, &m)
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.methods == nil {
		t.methods = map[string]string{}
	}
	id := string(m.ID)
	kind := "notification"
	switch {
	case m.Method != "" && id != "":
		kind = "request"
		t.methods[dir+id] = m.Method
	case m.Method == "":
		kind = "response"
		other := "<-"
		if dir == "<-" {
			other = "->"
		}
		m.Method = t.methods[other+id]
		delete(t.methods, other+id)
		if len(m.Error) > 0 {
			kind = "error response"
		}
	}
	fmt.Fprintf(t.w, "%s %s %s %s %s (%d bytes) %s\n", time.Now().Format("15:04:05.000000"), dir, kind, id, m.Method, len(body), truncate(string(body), 300))
}

func (s *stream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	for {
		length := -1
		var total int64
		for {
			line, err := s.in.ReadString('\n')
			total += int64(len(line))
			if err != nil {
				return nil, total, err // end of input: the connection is over
			}
			line = strings.TrimRight(line, "\r\n")
			if line == "" {
				if length < 0 {
					continue // stray blank line between messages
				}
				break
			}
			name, value, ok := strings.Cut(line, ":")
			if !ok {
				continue // not a header: skip it
			}
			if strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
				n, err := strconv.Atoi(strings.TrimSpace(value))
				if err == nil && n >= 0 && n <= MaxMessage {
					length = n
				}
			}
		}
		body := make([]byte, length)
		if _, err := io.ReadFull(s.in, body); err != nil {
			return nil, total, err
		}
		total += int64(length)
		s.trace.message("<-", body)
		msg, err := jsonrpc2.DecodeMessage(body)
		if err != nil {
			note, _ := jsonrpc2.NewNotification(malformedMethod, map[string]string{"error": err.Error(), "message": truncate(string(body), 200)})
			return note, total, nil
		}
		return msg, total, nil
	}
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

func (s *stream) Write(ctx context.Context, msg jsonrpc2.Message) (int64, error) {
	data, err := json.Marshal(msg)
	if err != nil {
		return 0, fmt.Errorf("marshalling a message: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.trace.message("->", data)
	n, err := fmt.Fprintf(s.out, "Content-Length: %d\r\n\r\n", len(data))
	if err != nil {
		return int64(n), err
	}
	m, err := s.out.Write(data)
	return int64(n + m), err
}

func (s *stream) Close() error { return s.c.Close() }
