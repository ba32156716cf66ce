package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/cnf-tools/cnf/cluster"
	"github.com/cnf-tools/cnf/fuse"
	"github.com/cnf-tools/cnf/internal/analysis"
	"github.com/cnf-tools/cnf/syntax"
)

// The rates file (`cnf run --profile FILE` writes it, `--rates FILE` reads it): what each
// filter read and kept on real inputs, by definition and filter binding name:
//
//	{"version": "cnf-rates/1", "functions": {"deep": {"a": {"read": 10, "kept": 5}}}}
//
// A hand-written entry may give "rate" (the fraction kept, 0 to 1) instead of the counts.

const ratesVersion = "cnf-rates/1"

type ratesFile struct {
	Version   string                           `json:"version"`
	Functions map[string]map[string]rateRecord `json:"functions"`
}

type rateRecord struct {
	Read *int64   `json:"read,omitempty"`
	Kept *int64   `json:"kept,omitempty"`
	Rate *float64 `json:"rate,omitempty"`
}

// readRates reads a rates file into the engine's form, checking every entry.
func readRates(path string) (map[string]cluster.Rates, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading the rates: %w", err)
	}
	var f ratesFile
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("%s: not a rates file (as cnf run --profile writes): %w", path, err)
	}
	if f.Version != ratesVersion {
		return nil, fmt.Errorf("%s: version %q, want %q", path, f.Version, ratesVersion)
	}
	out := map[string]cluster.Rates{}
	for fn, filters := range f.Functions {
		rs := cluster.Rates{}
		for name, r := range filters {
			where := fmt.Sprintf("%s: %s, filter %s", path, fn, name)
			switch {
			case r.Rate != nil && (r.Read != nil || r.Kept != nil):
				return nil, fmt.Errorf("%s: give either rate or read and kept", where)
			case r.Rate != nil:
				if !(*r.Rate >= 0 && *r.Rate <= 1) {
					return nil, fmt.Errorf("%s: rate %v is not between 0 and 1", where, *r.Rate)
				}
				rs[name] = *r.Rate
			case r.Read == nil || r.Kept == nil:
				return nil, fmt.Errorf("%s: needs read and kept (or rate)", where)
			case *r.Read < 0 || *r.Kept < 0 || *r.Kept > *r.Read:
				return nil, fmt.Errorf("%s: kept %d of %d read is not a count", where, *r.Kept, *r.Read)
			default:
				rs[name] = fuse.FilterCount{Read: *r.Read, Kept: *r.Kept}.Rate()
			}
		}
		out[fn] = rs
	}
	return out, nil
}

// writeProfile records one definition's filter counts in the rates file at path: the file's
// other definitions are kept when it is a rates file already, and it is written whole or not
// at all (replaceFile).
func writeProfile(path, function string, counts map[string]fuse.FilterCount) error {
	f := ratesFile{Version: ratesVersion, Functions: map[string]map[string]rateRecord{}}
	data, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return fmt.Errorf("reading the rates file: %w", err)
	default:
		var old ratesFile
		if json.Unmarshal(data, &old) != nil || old.Version != ratesVersion {
			return fmt.Errorf("%s exists and is not a rates file: not overwritten", path)
		}
		if old.Functions != nil {
			f.Functions = old.Functions
		}
	}
	entry := map[string]rateRecord{}
	names := make([]string, 0, len(counts))
	for name := range counts {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		c := counts[name]
		entry[name] = rateRecord{Read: &c.Read, Kept: &c.Kept}
	}
	f.Functions[function] = entry
	out, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return err
	}
	return replaceFile(path, append(out, '\n'))
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
	names := make([]string, 0, len(rs))
	for name := range rs {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if !slices.Contains(filters, name) {
			has := "it has none"
			if len(filters) > 0 {
				has = "its filters: " + strings.Join(filters, ", ")
			}
			fmt.Fprintf(e.stderr, "cnf: %s: warning: the rates name %s, which is not a filter of %s (%s): not used\n", cmd, name, fn.Def.Name.Name, has)
		}
	}
}
