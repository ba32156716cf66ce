package lsp

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// progress is a work-done progress the server shows in a client that supports them
// (window.workDoneProgress): a long clustering, or a proof of optimality. The user may cancel
// it from the client.
type progress struct {
	s     *Server
	token string
	once  sync.Once
}

// progresses are the progresses shown, by token, with what cancelling each does.
type progresses struct {
	mu     sync.Mutex
	next   int
	cancel map[string]func()
}

type workDoneProgressCreateParams struct {
	Token string `json:"token"`
}

type progressParams struct {
	Token string `json:"token"`
	Value any    `json:"value"`
}

type workDoneProgressBegin struct {
	Kind        string `json:"kind"` // "begin"
	Title       string `json:"title"`
	Cancellable bool   `json:"cancellable"`
	Message     string `json:"message,omitempty"`
}

type workDoneProgressReport struct {
	Kind    string `json:"kind"` // "report"
	Message string `json:"message"`
}

type workDoneProgressEnd struct {
	Kind    string `json:"kind"` // "end"
	Message string `json:"message,omitempty"`
}

type workDoneProgressCancelParams struct {
	Token string `json:"token"`
}

// startProgress shows a progress titled title; cancel (which may be nil) runs if the user
// cancels it. It returns nil for a client without work-done progress. It is called from a
// goroutine other than the reading one: it waits for the client to create the token.
func (s *Server) startProgress(title, message string, cancel func()) *progress {
	if !s.capabilities().Window.WorkDoneProgress {
		return nil
	}
	s.progress.mu.Lock()
	s.progress.next++
	token := fmt.Sprintf("cnf-%d", s.progress.next)
	if cancel != nil {
		if s.progress.cancel == nil {
			s.progress.cancel = map[string]func(){}
		}
		s.progress.cancel[token] = cancel
	}
	s.progress.mu.Unlock()
	ctx, done := context.WithTimeout(context.Background(), 5*time.Second)
	defer done()
	var result any
	if _, err := s.conn.Call(ctx, "window/workDoneProgress/create", workDoneProgressCreateParams{Token: token}, &result); err != nil {
		s.log.Printf("window/workDoneProgress/create: %v", err)
		return nil
	}
	s.notify("$/progress", progressParams{Token: token, Value: workDoneProgressBegin{Kind: "begin", Title: title, Cancellable: cancel != nil, Message: message}})
	return &progress{s: s, token: token}
}

// report updates the progress's message (a nil progress, or one that has ended, does nothing).
func (p *progress) report(message string) {
	if p == nil {
		return
	}
	p.s.progress.mu.Lock()
	_, open := p.s.progress.cancel[p.token]
	p.s.progress.mu.Unlock()
	if open {
		p.s.notify("$/progress", progressParams{Token: p.token, Value: workDoneProgressReport{Kind: "report", Message: message}})
	}
}

// end ends the progress (once; a nil progress does nothing).
func (p *progress) end(message string) {
	if p == nil {
		return
	}
	p.once.Do(func() {
		p.s.progress.mu.Lock()
		delete(p.s.progress.cancel, p.token)
		p.s.progress.mu.Unlock()
		p.s.notify("$/progress", progressParams{Token: p.token, Value: workDoneProgressEnd{Kind: "end", Message: message}})
	})
}

// cancelProgress handles window/workDoneProgress/cancel.
func (s *Server) cancelProgress(ctx context.Context, p *workDoneProgressCancelParams) {
	s.progress.mu.Lock()
	cancel := s.progress.cancel[p.Token]
	s.progress.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}
