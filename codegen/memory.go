package codegen

import (
	"fmt"
	"os"
	"strings"

	"github.com/cnf-tools/cnf/syntax"
)

// CheckMemory refuses a benchmark size whose arrays (every parameter and binding an array of
// size elements of at least 8 bytes, a lower bound) cannot fit in the memory this machine has
// available, rather than leaving the compiled program to be killed. Bench applies it, so
// `cnf bench` and the editor's measurement refuse alike.
func CheckMemory(fn *syntax.Func, size int64) error {
	arrays := int64(0)
	for _, s := range fn.Symbols {
		if s.Kind == syntax.Array {
			arrays++
		}
	}
	avail := availableMemory()
	if avail <= 0 || arrays == 0 {
		return nil
	}
	if size > avail/8/arrays {
		return fmt.Errorf("%d elements need at least %d MB for %d arrays of 8-byte elements; this machine has %d MB available", size, size/1e6*8*arrays, arrays, avail>>20)
	}
	return nil
}

// availableMemory is MemAvailable of /proc/meminfo in bytes, or 0 when it is not known.
func availableMemory() int64 {
	data, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		var kb int64
		if _, err := fmt.Sscanf(line, "MemAvailable: %d kB", &kb); err == nil {
			return kb << 10
		}
	}
	return 0
}
