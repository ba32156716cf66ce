package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
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
	err   error   // what ended the connection, if the stream ended it; guarded by mu
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

// ErrFraming is the cause of a connection ended because its base-protocol framing was broken:
// the header of a message did not say its length, so where the next message starts is lost.
var ErrFraming = errors.New("broken message framing")

// Read reads the next message. A body that is not JSON-RPC is turned into a malformedMethod
// notification and the connection goes on. Headers without a usable Content-Length end the
// connection with an error wrapping ErrFraming: the body's end cannot be found, and going on
// would read the rest of the stream as headers and leave the server deaf. A message longer
// than MaxMessage is skipped (its length is known, so the stream stays in step) and reported.
func (s *stream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	for {
		length, sawHeader, badLength := int64(-1), false, ""
		var total int64
		for {
			line, err := s.in.ReadString('\n')
			total += int64(len(line))
			if err != nil {
				if sawHeader || strings.TrimSpace(line) != "" {
					return nil, total, s.fail(fmt.Errorf("%w: the input ended inside a message header", ErrFraming))
				}
				return nil, total, err // end of input between messages: the connection is over
			}
			line = strings.TrimRight(line, "\r\n")
			if line == "" {
				if !sawHeader {
					continue // stray blank line between messages
				}
				break
			}
			sawHeader = true
			name, value, ok := strings.Cut(line, ":")
			if !ok || !strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
				continue // another header (Content-Type) or a stray line: not ours to judge
			}
			n, err := strconv.ParseInt(strings.TrimSpace(value), 10, 64)
			if err != nil || n < 0 {
				badLength = strings.TrimSpace(value)
				continue
			}
			length = n
		}
		switch {
		case length < 0 && badLength != "":
			return nil, total, s.fail(fmt.Errorf("%w: Content-Length %q is not a length", ErrFraming, truncate(badLength, 40)))
		case length < 0:
			return nil, total, s.fail(fmt.Errorf("%w: a message header without Content-Length", ErrFraming))
		case length > MaxMessage:
			skipped, err := io.CopyN(io.Discard, s.in, length)
			total += skipped
			if err != nil {
				return nil, total, s.fail(fmt.Errorf("%w: the input ended inside a message of %d bytes", ErrFraming, length))
			}
			note, _ := jsonrpc2.NewNotification(malformedMethod, map[string]string{
				"error": fmt.Sprintf("a message of %d bytes was skipped: the limit is %d bytes", length, MaxMessage)})
			return note, total, nil
		}
		body := make([]byte, length)
		if _, err := io.ReadFull(s.in, body); err != nil {
			return nil, total, s.fail(fmt.Errorf("%w: the input ended inside a message of %d bytes", ErrFraming, length))
		}
		total += length
		s.trace.message("<-", body)
		msg, err := jsonrpc2.DecodeMessage(body)
		if err != nil {
			note, _ := jsonrpc2.NewNotification(malformedMethod, map[string]string{"error": err.Error(), "message": truncate(string(body), 200)})
			return note, total, nil
		}
		return msg, total, nil
	}
}

// fail records the error that ends the connection, for Run to report.
func (s *stream) fail(err error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err == nil {
		s.err = err
	}
	return err
}

// failure is the error that ended the connection, or nil.
func (s *stream) failure() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
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
