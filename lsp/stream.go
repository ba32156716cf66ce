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
	in  *bufio.Reader
	out io.Writer
	c   io.Closer
	mu  sync.Mutex
}

func newStream(rwc io.ReadWriteCloser) *stream {
	return &stream{in: bufio.NewReader(rwc), out: rwc, c: rwc}
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
	n, err := fmt.Fprintf(s.out, "Content-Length: %d\r\n\r\n", len(data))
	if err != nil {
		return int64(n), err
	}
	m, err := s.out.Write(data)
	return int64(n + m), err
}

func (s *stream) Close() error { return s.c.Close() }
