package syntax

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/cnf-tools/cnf/internal/golden"
)

// docs/language.md's table of combinators is the one CombinatorTable makes; go test ./syntax
// -update rewrites it.
func TestLanguageTableInDocs(t *testing.T) {
	const path = "../docs/language.md"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	start := strings.Index(doc, "| combinator | type | meaning | size rule |")
	if start < 0 {
		t.Fatalf("%s has no table of combinators", path)
	}
	end := start
	for end < len(doc) && doc[end] == '|' {
		end += strings.IndexByte(doc[end:], '\n') + 1
	}
	want := LanguageTable()
	if doc[start:end] == want {
		return
	}
	if *golden.Update {
		if err := os.WriteFile(path, []byte(doc[:start]+want+doc[end:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s's table of combinators differs from CombinatorTable (go test ./syntax -update):\n--- docs ---\n%s--- table ---\n%s", path, doc[start:end], want)
}

// The VS Code grammar highlights every combinator of the table as a combinator.
func TestGrammarKnowsEveryCombinator(t *testing.T) {
	data, err := os.ReadFile("../vscode-extension/syntaxes/cnf.tmLanguage.json")
	if err != nil {
		t.Fatal(err)
	}
	var grammar any
	if err := json.Unmarshal(data, &grammar); err != nil {
		t.Fatal(err)
	}
	// Every pattern that marks keyword.other.combinator.cnf, as a whole match or a capture.
	var patterns []*regexp.Regexp
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			if m, ok := v["match"].(string); ok && strings.Contains(string(mustJSON(v)), "keyword.other.combinator.cnf") {
				// TextMate's lookbehinds and Oniguruma's syntax aside, the alternatives are
				// plain words: keep the group of names.
				if i := strings.Index(m, "("); i >= 0 {
					for _, group := range regexp.MustCompile(`\(((?:[a-z0-9\[\]\-*]+\|)+[a-z0-9\[\]\-*]+)\)`).FindAllStringSubmatch(m, -1) {
						patterns = append(patterns, regexp.MustCompile(`^(?:`+group[1]+`)$`))
					}
				}
			}
			for _, x := range v {
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(grammar)
	for _, c := range CombinatorTable {
		name := c.Name
		if name == "mapN" {
			name = "map3"
		}
		found := false
		for _, p := range patterns {
			found = found || p.MatchString(name)
		}
		if !found {
			t.Errorf("the grammar does not highlight %s as a combinator", name)
		}
	}
}

func mustJSON(v any) []byte {
	data, _ := json.Marshal(v)
	return data
}

// Every entry of the table is complete, and the parser knows every combinator by it.
func TestCombinatorTableComplete(t *testing.T) {
	for _, c := range CombinatorTable {
		if c.Usage == "" || c.Type == "" || len(c.Params) == 0 || c.Needs == "" || c.Example == "" || c.Doc == "" || c.Meaning == "" || c.SizeRule == "" {
			t.Errorf("%s: incomplete entry %+v", c.Name, c)
		}
		for _, w := range c.Whole {
			found := false
			for _, p := range c.Params {
				found = found || strings.HasPrefix(p, w)
			}
			if !found {
				t.Errorf("%s: Whole names %q, which is not a parameter", c.Name, w)
			}
		}
		if c.Name == "mapN" {
			continue
		}
		if !IsCombinator(c.Name) {
			t.Errorf("IsCombinator(%q) is false", c.Name)
		}
		// The example parses as an application of the combinator.
		src := "f as bs data indices xs ys n i =\n  let r = " + c.Example + "\n  in  r\n"
		if _, diags := Parse("t.cnf", []byte(src)); HasErrors(diags) {
			t.Errorf("%s: the example %q does not parse: %v", c.Name, c.Example, diags)
		}
	}
}

// The parser takes its arities from the table (CombinatorInfo.Accepts): one argument too few
// is the table's arity error, and so is one too many for a fixed combinator; the table's own
// example parses clean. (external and map_n count their arguments themselves.)
func TestParserAritiesAreTheTables(t *testing.T) {
	for _, c := range CombinatorTable {
		if c.Name == "external" || c.Name == "mapN" || c.Name == "map" {
			continue
		}
		apply := func(n int) []Diagnostic {
			args := make([]string, n)
			for i := range args {
				args[i] = fmt.Sprintf("a%d", i)
			}
			src := fmt.Sprintf("f a0 a1 a2 a3 =\n  let y = %s %s\n  in  y\n", c.Name, strings.Join(args, " "))
			_, diags := Parse("arity.cnf", []byte(src))
			return diags
		}
		has := func(diags []Diagnostic, n int) bool {
			for _, d := range diags {
				if d.Message == c.ArityMessage(c.Name, n) {
					return true
				}
			}
			return false
		}
		if n := len(c.Params) - 1; !has(apply(n), n) {
			t.Errorf("%s with %d arguments: no arity error %q", c.Name, n, c.ArityMessage(c.Name, n))
		}
		if n := len(c.Params) + 1; c.Fixed && !has(apply(n), n) {
			t.Errorf("%s with %d arguments: no arity error", c.Name, n)
		}
		if n := len(c.Params); has(apply(n), n) {
			t.Errorf("%s with its %d parameters: an arity error", c.Name, n)
		}
	}
}
