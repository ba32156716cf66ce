package main

import (
	"encoding/json"

	"github.com/cnf-tools/cnf/syntax"
)

// The JSON form of diagnostics, shared by every subcommand that reports them. Positions are
// LSP positions: 0-based lines, UTF-16 characters.
type (
	jsonRange struct {
		Start syntax.LSPPosition `json:"start"`
		End   syntax.LSPPosition `json:"end"`
	}
	jsonRelated struct {
		Range   jsonRange `json:"range"`
		Message string    `json:"message"`
	}
	jsonEdit struct {
		Range   jsonRange `json:"range"`
		NewText string    `json:"newText"`
	}
	jsonFix struct {
		Title string     `json:"title"`
		Edits []jsonEdit `json:"edits"`
	}
	jsonDiagnostic struct {
		Range    jsonRange     `json:"range"`
		Severity string        `json:"severity"`
		Code     string        `json:"code"`
		Message  string        `json:"message"`
		Related  []jsonRelated `json:"relatedInformation,omitempty"`
		Fixes    []jsonFix     `json:"fixes,omitempty"`
	}
)

func toJSONRange(f *syntax.File, r syntax.Range) jsonRange {
	return jsonRange{Start: f.LSPPosition(r.Start), End: f.LSPPosition(r.End)}
}

func toJSONDiagnostics(f *syntax.File, ds []syntax.Diagnostic) []jsonDiagnostic {
	out := make([]jsonDiagnostic, 0, len(ds))
	for _, d := range ds {
		jd := jsonDiagnostic{Range: toJSONRange(f, d.Range), Severity: d.Severity.String(), Code: d.Code, Message: d.Message}
		for _, r := range d.Related {
			jd.Related = append(jd.Related, jsonRelated{Range: toJSONRange(f, r.Range), Message: r.Message})
		}
		for _, fx := range d.Fixes {
			jf := jsonFix{Title: fx.Title, Edits: []jsonEdit{}}
			for _, e := range fx.Edits {
				jf.Edits = append(jf.Edits, jsonEdit{Range: toJSONRange(f, e.Range), NewText: e.NewText})
			}
			jd.Fixes = append(jd.Fixes, jf)
		}
		out = append(out, jd)
	}
	return out
}

// diagnosticsIn returns the diagnostics of at least the given severity that start in r.
func diagnosticsIn(ds []syntax.Diagnostic, r syntax.Range, worst syntax.Severity) []syntax.Diagnostic {
	var out []syntax.Diagnostic
	for _, d := range ds {
		if d.Severity <= worst && r.Contains(d.Range.Start) {
			out = append(out, d)
		}
	}
	return out
}

func writeJSON(e *env, v any) error {
	enc := json.NewEncoder(e.stdout)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false) // schemes contain "->"
	return enc.Encode(v)
}

// errorsOf are the diagnostics that are errors.
func errorsOf(ds []syntax.Diagnostic) []syntax.Diagnostic {
	var out []syntax.Diagnostic
	for _, d := range ds {
		if d.Severity <= syntax.Error {
			out = append(out, d)
		}
	}
	return out
}

// hasErrors says whether any diagnostic is an error.
func hasErrors(ds []syntax.Diagnostic) bool { return len(errorsOf(ds)) > 0 }
