package codegen

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// The system headers every generated file includes (runtimeIncludes) cost gcc most of a small
// program's compile: immintrin.h alone, for the compaction's and the streaming stores' AVX-512
// intrinsics, took 0.4-0.6 s of 0.5-0.9 s (docs/performance.md, "Emitting and compiling a
// 100-binding program, again"). Build compiles them once into a precompiled header (gcc's
// .gch, made with the same compiler and flags) and has gcc read it first (-include): the
// file's own #include lines then find the headers already read. gcc uses a .gch only when it
// fits the compile, else reads the header's text, so the executable is the same bytes either
// way (TestPrecompiledHeadersChangeNothing). clang and other compilers compile without one.

// pchName is the header that holds runtimeIncludes, beside its .gch.
const pchName = "cnf_sys.h"

// precompiled returns the directory whose pchName (with its .gch) a compile of cc (whose
// --version says version, "" when it is not gcc) with flags may -include, making it if it is
// not there; "" when cc is not gcc or the header cannot be
// made (the compile then reads the headers as text). The headers are kept apart from the
// compiled programs (PCHDir), so that a fresh cache of programs (CNF_CACHE, as the tests and
// benchmarks set it) does not make them again.
func precompiled(ctx context.Context, cc string, flags []string, version string) string {
	root := PCHDir()
	if root == "" || version == "" {
		return ""
	}
	// The key has gcc's own version: a .gch of another gcc at the same path is not read.
	sum := sha256.Sum256([]byte(Version + "\x00" + cc + "\x00" + version + "\x00" + strings.Join(flags, " ") + "\x00" + machine() + "\x00" + runtimeIncludes))
	dir := filepath.Join(root, "pch-"+hex.EncodeToString(sum[:12]))
	if makePCH(ctx, cc, flags, root, dir) != nil {
		return ""
	}
	return dir
}

// PCHDir is where the runtime's precompiled headers are kept: $CNF_PCH_DIR, else cnf/pch in
// the user's cache directory; "" (none: compiles read the headers as text) when CNF_PCH_DIR
// is "off" or there is no cache directory.
func PCHDir() string {
	if d := os.Getenv("CNF_PCH_DIR"); d != "" {
		if d == "off" {
			return ""
		}
		return d
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(d, "cnf", "pch")
}

// makePCH writes pchName and its .gch into dir, unless both are there. They are made in a
// build directory of root (which sweep removes if this process dies) and renamed into
// place, the .gch last: gcc fails on a truncated one, where it ignores one that does not fit.
func makePCH(ctx context.Context, cc string, flags []string, root, dir string) error {
	gch := filepath.Join(dir, pchName+".gch")
	if _, err := os.Stat(gch); err == nil {
		return nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	sweep(root)
	tmp, err := os.MkdirTemp(root, fmt.Sprintf("build-%d-", os.Getpid()))
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if err := os.WriteFile(filepath.Join(tmp, pchName), []byte(runtimeIncludes), 0o644); err != nil {
		return err
	}
	args := append(append([]string{}, flags...), "-x", "c-header", "-o", pchName+".gch", pchName)
	cmd := command(ctx, cc, args...)
	cmd.Dir = tmp
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("precompiling the runtime's headers: %v: %s", err, out)
	}
	if err := os.Rename(filepath.Join(tmp, pchName), filepath.Join(dir, pchName)); err != nil {
		return err
	}
	return os.Rename(filepath.Join(tmp, pchName+".gch"), gch)
}

// gccVersion is what cc --version says when cc is GCC, else "" (clang's says no "Free
// Software Foundation").
func gccVersion(ctx context.Context, cc string) string {
	out, err := exec.CommandContext(ctx, cc, "--version").Output()
	if err != nil || !strings.Contains(string(out), "Free Software Foundation") {
		return ""
	}
	return string(out)
}
