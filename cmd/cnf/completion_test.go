package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// What `cnf __complete` offers at each position: commands, flags as usage spells them, flag
// values (solvers, shapes, definitions and parameters of the files on the line), and file
// completion where a FILE goes.
func TestComplete(t *testing.T) {
	dir := t.TempDir()
	prog := filepath.Join(dir, "p.cnf")
	src := "f xs ys =\n  let a = map (+ 1) xs\n  in  a\ng zs = let b = map (+ 1) zs in b\n"
	if err := os.WriteFile(prog, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		words []string
		want  []string // values, then the directive
	}{
		{[]string{"cl"}, []string{"cluster", ":none"}},
		{[]string{"f"}, []string{"fmt", "fuse", ":none"}},
		{[]string{"help", "ch"}, []string{"check", ":none"}},
		{[]string{"completion", ""}, []string{"bash", "fish", "zsh", ":none"}},
		{[]string{"fmt", "-"}, []string{"--check", "-d", "-l", "-w", ":none"}},
		{[]string{"cluster", "--s"}, []string{"--solver", ":none"}},
		{[]string{"cluster", "--solver", "g"}, []string{"glpk", ":none"}},
		{[]string{"cluster", "--json", ""}, []string{":files"}},
		{[]string{"cluster", "--time-limit", ""}, []string{":none"}},
		{[]string{"gen", "--shape", "f"}, []string{"fans", ":none"}},
		{[]string{"gen", ""}, []string{":none"}},
		{[]string{"lsp", "--rpc-trace", ""}, []string{":anyfile"}},
		{[]string{"fuse", prog, "--function", ""}, []string{"f", "g", ":none"}},
		{[]string{"run", prog, "--arg", "y"}, []string{"ys=", ":none"}},
		{[]string{"run", "--arg", ""}, []string{":none"}}, // no file on the line yet
		{[]string{"frobnicate", ""}, []string{":none"}},
	}
	for _, tc := range tests {
		var b strings.Builder
		complete(&b, tc.words)
		var got []string
		for _, line := range strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n") {
			value, _, _ := strings.Cut(line, "\t")
			got = append(got, value)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("cnf __complete %q (-want +got):\n%s", tc.words, diff)
		}
	}
}

// Every command the registry has is offered, so completion cannot fall behind the commands.
func TestCompleteOffersEveryCommand(t *testing.T) {
	var b strings.Builder
	complete(&b, []string{""})
	for name := range registry {
		if !strings.Contains(b.String(), name+"\t") {
			t.Errorf("%s is not offered:\n%s", name, b.String())
		}
	}
}
