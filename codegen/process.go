package codegen

import (
	"context"
	"os/exec"
	"time"
)

// command is an exec.Cmd for a child process of cnf (the C compiler, a compiled program, a
// benchmark) whose whole process tree ends with the context and, where the system can say so,
// with cnf itself: it runs in its own process group, and cancelling kills the group (the C
// compiler's cc1 and as hold its stderr open: killing only the driver left them running and
// cmd.Wait waiting for them); on Linux the child is also killed when cnf dies, even by
// SIGKILL. WaitDelay bounds the wait for output that a grandchild still holds.
func command(ctx context.Context, name string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, name, args...)
	ownGroup(cmd)
	cmd.WaitDelay = 2 * time.Second
	return cmd
}
