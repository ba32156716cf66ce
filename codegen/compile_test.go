package codegen

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const tinyC = "#include <stdio.h>\nint main(void) { puts(\"%s\"); return 0; }\n"

// A cache entry that is not what was built (truncated, or replaced by another executable) is
// compiled again, not run: before, a truncated one failed every later run with "exec format
// error" and a replaced one ran and printed its own output with status 0.
func TestCacheHealsBadEntries(t *testing.T) {
	t.Setenv("CNF_CACHE", t.TempDir())
	run := func(src string) string {
		exe, err := Build(context.Background(), src)
		if err != nil {
			t.Fatal(err)
		}
		out, err := Exec(context.Background(), exe, nil)
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(string(out))
	}
	a, b := fmt.Sprintf(tinyC, "a"), fmt.Sprintf(tinyC, "b")
	if got := run(a); got != "a" {
		t.Fatalf("a printed %q", got)
	}
	exeA, _ := Build(context.Background(), a)
	exeB, _ := Build(context.Background(), b)
	info, err := os.Stat(exeA)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(exeA, info.Size()/2); err != nil {
		t.Fatal(err)
	}
	if got := run(a); got != "a" {
		t.Errorf("after truncating its executable, a printed %q", got)
	}
	data, err := os.ReadFile(exeB)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(exeA, data, 0o755); err != nil {
		t.Fatal(err)
	}
	if got := run(a); got != "a" {
		t.Errorf("after its executable was replaced by b's, a printed %q", got)
	}
	if err := os.WriteFile(exeA+".sum", []byte("0000"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := run(a); got != "a" {
		t.Errorf("after its digest was spoilt, a printed %q", got)
	}
}

// slowC is a C file that takes gcc -O3 several seconds.
func slowC() string {
	var b strings.Builder
	b.WriteString("#include <stdint.h>\n")
	for f := 0; f < 2500; f++ {
		fmt.Fprintf(&b, "int64_t f%d(int64_t *a, int64_t n) { int64_t s = 0; for (int64_t i = 0; i < n; i++) { s += a[i] * %d; s ^= s >> 3; } return s; }\n", f, f)
	}
	b.WriteString("int main(void) { return 0; }\n")
	return b.String()
}

// An interrupted build stops at once and leaves nothing behind: no build directory, no
// compiler process. Before, cancelling killed only gcc's driver; cc1 held the stderr pipe, so
// Build waited for it to finish (past cnf's one-second grace after Ctrl-C, when the process
// exits and the build directory stayed).
func TestInterruptedBuildLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("CNF_CACHE", dir)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(400*time.Millisecond, cancel)
	start := time.Now()
	_, err := Build(ctx, slowC())
	took := time.Since(start)
	if err == nil {
		t.Fatal("the build was not interrupted")
	}
	if took > 1500*time.Millisecond {
		t.Errorf("Build returned %v after it started, %v after the cancel", took, took-400*time.Millisecond)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		t.Errorf("left behind: %s", e.Name())
	}
	// No process is left working in the build directory (gcc's cc1 and as ran there): the
	// kill is asynchronous, so look twice.
	inDir := func() []string {
		var pids []string
		procs, _ := filepath.Glob("/proc/[0-9]*/cwd")
		for _, cwd := range procs {
			if link, err := os.Readlink(cwd); err == nil && strings.HasPrefix(link, dir) {
				pids = append(pids, filepath.Base(filepath.Dir(cwd)))
			}
		}
		return pids
	}
	if len(inDir()) > 0 {
		time.Sleep(300 * time.Millisecond)
		if pids := inDir(); len(pids) > 0 {
			t.Errorf("processes still running in the build directory: %v", pids)
		}
	}
}

// A build directory whose process has died (SIGKILL during a build) is removed by the next
// build; a live process's is kept.
func TestDeadBuildsAreSwept(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("CNF_CACHE", dir)
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skip("no true command")
	}
	dead := filepath.Join(dir, fmt.Sprintf("build-%d-123", cmd.Process.Pid))
	live := filepath.Join(dir, fmt.Sprintf("build-%d-456", os.Getppid()))
	for _, d := range []string{dead, live} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(d, "prog.c"), []byte("x"), 0o644)
	}
	if _, err := Build(context.Background(), fmt.Sprintf(tinyC, "c")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dead); err == nil {
		t.Errorf("%s was kept", dead)
	}
	if _, err := os.Stat(live); err != nil {
		t.Errorf("%s was removed", live)
	}
}
