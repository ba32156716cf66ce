package lsp

import "context"

// documentJob is the context of a background job on a document (a proof, a measurement): it
// ends when the job is cancelled (parent), when the document closes, or when the server exits.
// cancel releases it.
func (s *Server) documentJob(parent context.Context, d *document) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(parent)
	go func() {
		select {
		case <-d.done:
		case <-s.exited:
		case <-ctx.Done():
		}
		cancel()
	}()
	return ctx, cancel
}
