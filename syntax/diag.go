package syntax

import (
	"fmt"
	"io"
	"sort"
)

// Severity orders diagnostics as LSP does: Error is the most severe.
type Severity int

const (
	Error       Severity = 1
	Warning     Severity = 2
	Information Severity = 3
	Hint        Severity = 4
)

func (s Severity) String() string {
	switch s {
	case Error:
		return "error"
	case Warning:
		return "warning"
	case Information:
		return "information"
	case Hint:
		return "hint"
	}
	return fmt.Sprintf("severity(%d)", int(s))
}

// Diagnostic codes: stable identifiers for kinds of diagnostics, for scripts and editors.
const (
	CodeSyntax    = "syntax"    // the text does not parse
	CodeLexical   = "lexical"   // a character or byte that cannot start a token
	CodeUnbound   = "unbound"   // a name that is not defined where one is required
	CodeDuplicate = "duplicate" // a name bound twice, or two signatures for one definition
	CodeKind      = "kind"      // an array used as a scalar or a scalar as an array
	CodeArity     = "arity"     // a combinator applied to the wrong number of arrays or arguments
	CodeCycle     = "cycle"     // bindings that depend on each other
	CodeSignature = "signature" // a signature that does not fit its definition
	CodeUnused    = "unused"    // a binding or parameter that nothing uses
	CodeTooMany   = "too-many"  // further diagnostics were dropped
)

// Related is a secondary location that explains a diagnostic (LSP relatedInformation).
type Related struct {
	Range   Range
	Message string
}

// Diagnostic is a located message about a source file.
type Diagnostic struct {
	Range    Range
	Severity Severity
	Code     string
	Message  string
	Related  []Related
	Fixes    []Fix // quick fixes, if the change that resolves it is clear
}

// MaxDiagnostics bounds the diagnostics reported for one file, so that binary garbage or a
// generated file full of errors gives a readable report.
const MaxDiagnostics = 200

// SortDiagnostics orders diagnostics by position, then severity, then message, and caps the list
// at MaxDiagnostics, ending it with a note when anything was dropped.
func SortDiagnostics(ds []Diagnostic) []Diagnostic {
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := ds[i], ds[j]
		if a.Range.Start != b.Range.Start {
			return a.Range.Start < b.Range.Start
		}
		if a.Severity != b.Severity {
			return a.Severity < b.Severity
		}
		return a.Message < b.Message
	})
	if len(ds) > MaxDiagnostics {
		dropped := len(ds) - MaxDiagnostics
		last := ds[MaxDiagnostics-1].Range
		ds = append(ds[:MaxDiagnostics:MaxDiagnostics], Diagnostic{
			Range:    Range{last.Start, last.Start},
			Severity: Information,
			Code:     CodeTooMany,
			Message:  fmt.Sprintf("%d more diagnostics not shown", dropped),
		})
	}
	return ds
}

// HasErrors reports whether any diagnostic is an error.
func HasErrors(ds []Diagnostic) bool {
	for _, d := range ds {
		if d.Severity == Error {
			return true
		}
	}
	return false
}

// WriteDiagnostics prints diagnostics as `path:line:col: severity: message`, each followed by a
// `path:line:col: note: message` line per related location and a `path:line:col: fix: title`
// line per quick fix (at its first edit). Columns count characters from 1.
func WriteDiagnostics(w io.Writer, path string, f *File, ds []Diagnostic) {
	for _, d := range ds {
		p := f.Position(d.Range.Start)
		fmt.Fprintf(w, "%s:%d:%d: %s: %s\n", path, p.Line, p.Column, d.Severity, d.Message)
		for _, r := range d.Related {
			rp := f.Position(r.Range.Start)
			fmt.Fprintf(w, "%s:%d:%d: note: %s\n", path, rp.Line, rp.Column, r.Message)
		}
		for _, fx := range d.Fixes {
			fp := p
			if len(fx.Edits) > 0 {
				fp = f.Position(fx.Edits[0].Range.Start)
			}
			fmt.Fprintf(w, "%s:%d:%d: fix: %s\n", path, fp.Line, fp.Column, fx.Title)
		}
	}
}
