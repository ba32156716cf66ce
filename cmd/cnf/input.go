package main

import (
	"fmt"
	"io"
	"os"

	"github.com/cnf-tools/cnf/syntax"
)

// source is one input file, read whole.
type source struct {
	path string
	src  []byte
}

// readSources reads the named files ("-" is standard input). It reports every unreadable file
// and returns ok = false if there was one.
func readSources(e *env, paths []string) ([]source, bool) {
	ok := true
	var out []source
	for _, p := range paths {
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
