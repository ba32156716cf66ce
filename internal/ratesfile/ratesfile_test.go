package ratesfile

import (
	"strings"
	"testing"

	"github.com/cnf-tools/cnf/fuse"
)

// Parse reads counts and hand-written rates, and names the file, definition and filter of
// every bad entry; With keeps the other definitions' entries and round-trips through Parse.
func TestParseAndWith(t *testing.T) {
	good := `{"version": "cnf-rates/1", "functions": {"p": {"f": {"read": 4, "kept": 1}, "g": {"rate": 0.9}, "h": {"read": 0, "kept": 0}}}}`
	r, err := Parse("r.json", []byte(good))
	if err != nil {
		t.Fatal(err)
	}
	if r["p"]["f"] != 0.25 || r["p"]["g"] != 0.9 || r["p"]["h"] != 1 {
		t.Errorf("rates %v, want f 0.25, g 0.9, h 1 (read nothing)", r["p"])
	}
	for _, c := range []struct{ src, want string }{
		{`{"version": "cnf-rates/2", "functions": {}}`, `version "cnf-rates/2"`},
		{`{"version": "cnf-rates/1", "functions": {"p": {"f": {"read": 1, "kept": 2}}}}`, "r.json: p, filter f: kept 2 of 1 read is not a count"},
		{`{"version": "cnf-rates/1", "functions": {"p": {"f": {"rate": -0.1}}}}`, "rate -0.1 is not between 0 and 1"},
		{`{"version": "cnf-rates/1", "functions": {"p": {"f": {"rate": 1, "read": 1}}}}`, "give either rate or read and kept"},
		{`{"version": "cnf-rates/1", "functions": {"p": {"f": {"read": 1}}}}`, "needs read and kept"},
		{`{"version": "cnf-rates/1", "functions": {}, "extra": 1}`, "not a rates file"},
		{`not json`, "not a rates file"},
	} {
		if _, err := Parse("r.json", []byte(c.src)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Parse(%s): %v, want an error with %q", c.src, err, c.want)
		}
	}
	data, err := With("r.json", []byte(good), "q", map[string]fuse.FilterCount{"k": {Read: 10, Kept: 3}})
	if err != nil {
		t.Fatal(err)
	}
	back, err := Parse("r.json", data)
	if err != nil {
		t.Fatal(err)
	}
	if back["q"]["k"] != 0.3 || back["p"]["f"] != 0.25 {
		t.Errorf("after With: %v", back)
	}
	if _, err := With("x.cnf", []byte("f xs = ..."), "q", nil); err == nil || !strings.Contains(err.Error(), "not overwritten") {
		t.Errorf("With over a file that is not a rates file: %v", err)
	}
}
