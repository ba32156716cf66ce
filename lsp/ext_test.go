package lsp

import (
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/cnf-tools/cnf/internal/present"
)

// The VS Code extension mirrors cnf's own protocol in vscode-extension/src/lsp_ext.ts: each
// type there has the JSON fields of its Go twin, no more and no fewer, and every command the
// server executes is named there.
func TestExtensionMirrorsProtocol(t *testing.T) {
	src, err := os.ReadFile("../vscode-extension/src/lsp_ext.ts")
	if err != nil {
		t.Fatal(err)
	}
	ts := string(src)
	iface := regexp.MustCompile(`(?ms)^export interface (\w+) \{\n(.*?)^\}`)
	field := regexp.MustCompile(`(?m)^  (\w+)\??:`)
	declared := map[string][]string{}
	for _, m := range iface.FindAllStringSubmatch(ts, -1) {
		for _, f := range field.FindAllStringSubmatch(m[2], -1) {
			declared[m[1]] = append(declared[m[1]], f[1])
		}
	}
	for _, v := range []any{ClusteringResult{}, TextResult{}, Status{}, DefinitionStatus{}, BindingLoop{}, Term{},
		present.Summary{}, present.ClusterSummary{}, present.Baselines{}, present.EdgeSummary{}} {
		typ := reflect.TypeOf(v)
		got, ok := declared[typ.Name()]
		if !ok {
			t.Errorf("lsp_ext.ts has no interface %s", typ.Name())
			continue
		}
		var want []string
		for i := range typ.NumField() {
			name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
			if name != "" && name != "-" {
				want = append(want, name)
			}
		}
		// The extension may leave out what it does not use, but never invent a field.
		for _, f := range got {
			if !slices.Contains(want, f) {
				t.Errorf("lsp_ext.ts %s.%s: the server sends no such field (it sends %v)", typ.Name(), f, want)
			}
		}
		for _, f := range []string{"bindings", "loop", "color", "terms", "fusionPreventing", "line", "url"} {
			if slices.Contains(want, f) && !slices.Contains(got, f) {
				t.Errorf("lsp_ext.ts %s lacks %s, which the extension needs", typ.Name(), f)
			}
		}
	}
	for _, c := range commandNames {
		if !strings.Contains(ts, "'"+c+"'") {
			t.Errorf("lsp_ext.ts does not name the command %s", c)
		}
	}
	if !strings.Contains(ts, "'"+statusMethod+"'") {
		t.Errorf("lsp_ext.ts does not name %s", statusMethod)
	}
}
