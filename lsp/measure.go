package lsp

import (
	"context"
	"sync"
)

// measurements runs the editor's measurements of compiled code ("measure compiled") one at a
// time, in the order they were asked for: each runs every clustering on all the cores and
// takes gigabytes at the default size, so two at once would share the cores (and the times
// would be off by up to 25×, as 30 requests at once were) and could exhaust the memory. A
// request for a definition already waiting replaces it (the latest text wins); one for the
// definition being measured, with the same text, is merged with it; with another text it
// stops that measurement, which would be stale, and waits its turn.
type measurements struct {
	mu      sync.Mutex
	queue   []*measureJob
	running *measureJob
	wake    chan struct{} // a job was queued
	started bool          // the worker goroutine runs
}

// measureJob is one request to measure a definition of a document.
type measureJob struct {
	uri, name string
	vw        *view
	text      string // the definition's text when it was asked for
	ctx       context.Context
	cancel    context.CancelFunc // stops the job, queued or running
	p         *progress
}

func (j *measureJob) same(o *measureJob) bool { return j.uri == o.uri && j.name == o.name }

// benchmark asks for a measurement of the definition name of a view; it returns at once. The
// measurement ends when done, when the user cancels its progress, when the document closes,
// when a newer request for the definition replaces it, or when the server exits.
func (s *Server) benchmark(vw *view, name string) {
	if vw.def(name) == nil {
		return
	}
	job := &measureJob{uri: vw.uri, name: name, vw: vw, text: definitionText(vw, name)}
	m := &s.measure
	m.mu.Lock()
	if r := m.running; r != nil && r.same(job) && r.text == job.text && r.ctx.Err() == nil {
		m.mu.Unlock()
		return // a repeat of the measurement that runs
	}
	for _, q := range m.queue {
		if q.same(job) && q.text == job.text {
			m.mu.Unlock()
			return // a repeat of one that waits
		}
	}
	waiting := len(m.queue) > 0 || m.running != nil
	m.mu.Unlock()

	job.ctx, job.cancel = context.WithCancel(context.Background())
	message := "compiling the clusterings to C and running them at " + sizeText(s.benchSize()) + " elements"
	if waiting {
		message = "waiting for the measurement before it (one runs at a time)"
	}
	job.p = s.startProgress("Measuring "+name+" compiled", message, job.cancel)

	m.mu.Lock()
	defer m.mu.Unlock()
	// Asked again while the progress was being created: merge as above.
	merged := func() {
		job.cancel()
		job.p.end("merged with the same measurement asked for before")
	}
	if r := m.running; r != nil && r.same(job) {
		if r.text == job.text && r.ctx.Err() == nil {
			merged()
			return
		}
		r.cancel() // stale: its text is not the definition's any more
	}
	for i, q := range m.queue {
		if q.same(job) {
			if q.text == job.text {
				merged()
				return
			}
			q.cancel()
			q.p.end("replaced by a newer request")
			m.queue[i] = job
			return
		}
	}
	m.queue = append(m.queue, job)
	if !m.started {
		m.started = true
		m.wake = make(chan struct{}, 1)
		go s.measureLoop()
	}
	select {
	case m.wake <- struct{}{}:
	default:
	}
}

// measureLoop runs the queued measurements one after the other until the server exits.
func (s *Server) measureLoop() {
	m := &s.measure
	for {
		m.mu.Lock()
		for len(m.queue) == 0 {
			m.mu.Unlock()
			select {
			case <-m.wake:
			case <-s.exited:
				return
			}
			m.mu.Lock()
		}
		job := m.queue[0]
		m.queue = m.queue[1:]
		m.running = job
		m.mu.Unlock()

		s.measureOne(job)

		m.mu.Lock()
		m.running = nil
		m.mu.Unlock()
		job.cancel()
	}
}
