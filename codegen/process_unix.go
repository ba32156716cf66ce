//go:build unix && !linux

package codegen

import (
	"os/exec"
	"syscall"
)

// ownGroup puts the child in a process group of its own, killed whole on cancel.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}

// alive reports whether the process pid exists.
func alive(pid int) bool { return syscall.Kill(pid, 0) != syscall.ESRCH }
