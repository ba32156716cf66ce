package main

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/cnf-tools/cnf/syntax"
)

// source is one input file, read whole.
type source struct {
	path string
	src  []byte
}

// readSources reads the named files ("-" is standard input); a directory stands for the .cnf
// files under it (expandPaths). It reports every unreadable file and returns ok = false if
// there was one.
func readSources(e *env, paths []string) ([]source, bool) {
	expanded, ok := expandPaths(e, paths)
	var out []source
	for _, p := range expanded {
		var (
			data []byte
			err  error
		)
		if p == "-" {
			data, err = io.ReadAll(io.LimitReader(e.stdin, syntax.MaxFileSize+1))
			p = "<stdin>"
		} else {
			data, err = readFile(p)
		}
		if err != nil {
			e.errorf("%v", err)
			ok = false
			continue
		}
		out = append(out, source{path: p, src: data})
	}
	return out, ok
}

// expandPaths replaces each directory by the .cnf files under it, recursively, in lexical
// order, leaving out files and directories whose names start with "." (as gofmt does with
// ./...); other paths stay as they are. It reports directories it cannot read.
func expandPaths(e *env, paths []string) ([]string, bool) {
	ok := true
	var out []string
	for _, p := range paths {
		st, err := os.Stat(p)
		if p == "-" || err != nil || !st.IsDir() {
			out = append(out, p) // reading it reports what is wrong
			continue
		}
		before := len(out)
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if path != p && strings.HasPrefix(d.Name(), ".") {
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			if !d.IsDir() && strings.HasSuffix(d.Name(), ".cnf") {
				out = append(out, path)
			}
			return nil
		})
		switch {
		case err != nil:
			e.errorf("%v", err)
			ok = false
		case len(out) == before:
			// As go vet ./... says "matched no packages": a warning, not a failure.
			e.errorf("warning: %s has no .cnf files", p)
		}
	}
	return out, ok
}

func readFile(path string) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		return nil, fmt.Errorf("%s is a directory", path)
	}
	if st.Size() > syntax.MaxFileSize {
		return nil, fmt.Errorf("%s: file too large (%d bytes; the limit is %d)", path, st.Size(), syntax.MaxFileSize)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	return data, nil
}
