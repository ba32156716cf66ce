package main

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/cnf-tools/cnf/fuse"
	"github.com/cnf-tools/cnf/internal/analysis"
	"github.com/cnf-tools/cnf/internal/ratesfile"
	"github.com/cnf-tools/cnf/syntax"
)

// writeProfile records one definition's filter counts in the rates file at path: the file's
// other definitions are kept when it is a rates file already, and it is written whole or not
// at all (replaceFile).
func writeProfile(path, function string, counts map[string]fuse.FilterCount) error {
	old, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		old = nil
	case err != nil:
		return fmt.Errorf("reading the rates file: %w", err)
	}
	data, err := ratesfile.With(path, old, function, counts)
	if err != nil {
		return err
	}
	return replaceFile(path, data)
}

// warnRates says, on standard error, which names the rates give a definition that are not its
// filters (a misspelling, or a rates file of another version of the program): their rates are
// not used, and the clustering would otherwise not say why it did not change.
func warnRates(e *env, engine *analysis.Engine, cmd string, fn *syntax.Func) {
	rs := engine.Config().Rates[fn.Def.Name.Name]
	if len(rs) == 0 {
		return
	}
	var filters []string
	for _, b := range fn.Def.Bindings {
		if _, ok := b.Rhs.(*syntax.Filter); ok {
			filters = append(filters, b.Name())
		}
	}
	for _, name := range slices.Sorted(maps.Keys(rs)) {
		if !slices.Contains(filters, name) {
			has := "it has none"
			if len(filters) > 0 {
				has = "its filters: " + strings.Join(filters, ", ")
			}
			fmt.Fprintf(e.stderr, "cnf: %s: warning: the rates name %s, which is not a filter of %s (%s): not used\n", cmd, name, fn.Def.Name.Name, has)
		}
	}
}
