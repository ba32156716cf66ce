package fuse

import (
	"context"
	"errors"
	"strings"

	"github.com/cnf-tools/cnf/infer"
)

// ProgramError is the error a definition reports on these inputs after a loop-by-loop
// semantics (fused processes, process networks, compiled code) failed with err: the
// reference semantics's, which docs/language.md ("Errors") defines as the program's error —
// the first failing binding in dependency order, at its first failing element. A fused loop
// meets its bindings' failures element by element, and loops run in the clustering's order,
// so when several bindings fail it may meet another one first; the reference is run again on
// the same inputs (only on this error path) to name the one the language defines. Where the
// reference cannot run (a host function it does not know, its element limit, the context's
// end) or, against every test, succeeds, err stands.
func ProgramError(ctx context.Context, sizes *infer.Result, inputs map[string]Value, ext Externals, err error) error {
	if err == nil || ctx.Err() != nil {
		return err
	}
	_, refErr := RunReference(ctx, sizes, inputs, ext)
	var re *RunError
	var host *UnknownHostError
	if refErr == nil || !errors.As(refErr, &re) || errors.As(refErr, &host) || ctx.Err() != nil {
		return err
	}
	if IsElementLimit(refErr) && !strings.Contains(err.Error(), errElementLimit.Error()) {
		// The reference stopped at its limit before it could meet the error met: that one
		// stands. (Both at the limit: the reference's names the binding alike.)
		return err
	}
	return refErr
}
