// Package ratesfile reads and writes the rates file: what each filter of a definition read and
// kept on real inputs (`cnf run --profile` writes it; `--rates` and the editor's
// cnf.solver.rates read it), in the JSON form docs/json.md describes:
//
//	{"version": "cnf-rates/1", "functions": {"deep": {"a": {"read": 10, "kept": 5}}}}
//
// A hand-written entry may give "rate" (the fraction kept, 0 to 1) instead of the counts. The
// format lives here, at the edge, for the two edges that use it (cmd/cnf and lsp); the
// clustering sees only cluster.Rates.
package ratesfile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"

	"github.com/cnf-tools/cnf/cluster"
	"github.com/cnf-tools/cnf/fuse"
)

// Version is the format's version, written in every file and required when reading.
const Version = "cnf-rates/1"

// File is the file's JSON form.
type File struct {
	Version   string                       `json:"version"`
	Functions map[string]map[string]Record `json:"functions"`
}

// Record is one filter's entry: its counts, or a rate.
type Record struct {
	Read *int64   `json:"read,omitempty"`
	Kept *int64   `json:"kept,omitempty"`
	Rate *float64 `json:"rate,omitempty"`
}

// Read reads a rates file into the engine's form, checking every entry: an error names the
// file, and the definition and filter of a bad entry.
func Read(path string) (map[string]cluster.Rates, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading the rates: %w", err)
	}
	return Parse(path, data)
}

// Parse is Read's check of a rates file's bytes (path names it in errors).
func Parse(path string, data []byte) (map[string]cluster.Rates, error) {
	var f File
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("%s: not a rates file (as cnf run --profile writes): %w", path, err)
	}
	if f.Version != Version {
		return nil, fmt.Errorf("%s: version %q, want %q", path, f.Version, Version)
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

// With returns the bytes of the rates file old (nil: none yet) with function's entry replaced
// by counts; the other definitions' entries are kept. old that is not a rates file is an error.
func With(path string, old []byte, function string, counts map[string]fuse.FilterCount) ([]byte, error) {
	f := File{Version: Version, Functions: map[string]map[string]Record{}}
	if old != nil {
		var prev File
		if json.Unmarshal(old, &prev) != nil || prev.Version != Version {
			return nil, fmt.Errorf("%s exists and is not a rates file: not overwritten", path)
		}
		if prev.Functions != nil {
			f.Functions = prev.Functions
		}
	}
	entry := map[string]Record{} // encoding/json writes it in name order
	for name, c := range counts {
		entry[name] = Record{Read: &c.Read, Kept: &c.Kept}
	}
	f.Functions[function] = entry
	out, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(out, '\n'), nil
}
