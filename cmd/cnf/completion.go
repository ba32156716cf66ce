package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/cnf-tools/cnf/cluster"
	"github.com/cnf-tools/cnf/syntax"
	"github.com/cnf-tools/cnf/syntax/gen"
)

// Shell completion works as cobra's and clap's dynamic completions do: the script a shell
// sources (cnf completion bash|zsh|fish) is a thin function that asks cnf itself what fits,
// with `cnf __complete WORD... CURRENT`. cnf answers from the command registry and each
// command's flags, so completions never drift from the commands; --function offers the
// definitions of the files already on the command line, and --arg their parameters.
//
// The answer is one candidate per line ("value" or "value\tdescription"), then a directive
// line: ":files" (also complete .cnf files and directories), ":anyfile" (any file), or ":none".

// completeCommand is the hidden command the scripts call; run handles it before any flag
// parsing, since its arguments are someone else's command line.
const completeCommand = "__complete"

func init() {
	register(&command{
		name:    "completion",
		args:    "bash|zsh|fish",
		summary: "print a shell completion script (bash: source <(cnf completion bash))",
		run: func(ctx context.Context, e *env, args []string) int {
			if len(args) != 1 || completionScripts[args[0]] == "" {
				e.errorf("completion: give one of bash, zsh, fish")
				return exitUsage
			}
			fmt.Fprint(e.stdout, completionScripts[args[0]])
			return exitOK
		},
	})
}

// complete writes the candidates for the last of words (the word being completed, perhaps
// empty); words are the command line after "cnf".
func complete(w io.Writer, words []string) {
	if len(words) == 0 {
		words = []string{""}
	}
	cur := words[len(words)-1]
	var cands []candidate
	directive := ":none"
	defer func() {
		for _, c := range cands {
			if strings.HasPrefix(c.value, cur) {
				if c.about != "" {
					fmt.Fprintf(w, "%s\t%s\n", c.value, c.about)
				} else {
					fmt.Fprintln(w, c.value)
				}
			}
		}
		fmt.Fprintln(w, directive)
	}()
	if len(words) == 1 {
		cands = commandCandidates()
		return
	}
	c := registry[words[0]]
	switch {
	case words[0] == "help":
		if len(words) == 2 {
			cands = commandCandidates()
		}
		return
	case c == nil:
		return
	case c.name == "completion":
		if len(words) == 2 {
			cands = []candidate{{"bash", ""}, {"fish", ""}, {"zsh", ""}}
		}
		return
	}
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	if c.flags != nil {
		c.flags(fs)
	}
	if prev := words[len(words)-2]; strings.HasPrefix(prev, "-") && !strings.Contains(prev, "=") {
		if f := fs.Lookup(strings.TrimLeft(prev, "-")); f != nil && !isBoolFlag(f) {
			cands, directive = flagValueCandidates(f.Name, words[1:len(words)-2])
			return
		}
	}
	if strings.HasPrefix(cur, "-") {
		fs.VisitAll(func(f *flag.Flag) {
			_, usage := flag.UnquoteUsage(f)
			cands = append(cands, candidate{flagName(f.Name), firstClause(usage)})
		})
		return
	}
	switch c.name {
	case "gen", "version", "lsp":
		return // no file arguments
	}
	directive = ":files"
}

// candidate is one completion and what it is, for shells that show descriptions.
type candidate struct{ value, about string }

func commandCandidates() []candidate {
	var out []candidate
	for name, c := range registry {
		out = append(out, candidate{name, c.summary})
	}
	out = append(out, candidate{"help", "show the commands, or a command's flags"})
	sort.Slice(out, func(i, j int) bool { return out[i].value < out[j].value })
	return out
}

// flagValueCandidates completes the value of flag name, given the other words on the line.
func flagValueCandidates(name string, others []string) ([]candidate, string) {
	switch name {
	case "solver":
		var out []candidate
		for _, s := range cluster.SolverNames {
			out = append(out, candidate{s, ""})
		}
		return out, ":none"
	case "shape":
		var out []candidate
		for _, s := range gen.Shapes {
			out = append(out, candidate{s, ""})
		}
		return out, ":none"
	case "clustering":
		var out []candidate
		for _, c := range clusterings {
			out = append(out, candidate{c, ""})
		}
		return out, ":none"
	case "rpc-trace", "host", "o":
		return nil, ":anyfile"
	case "function":
		var out []candidate
		for _, d := range definitionsIn(others) {
			out = append(out, candidate{d.Name.Name, syntax.Plural(len(d.Params), "parameter") + ", " + syntax.Plural(len(d.Bindings), "binding")})
		}
		return out, ":none"
	case "arg":
		var out []candidate
		for _, d := range definitionsIn(others) {
			for _, p := range d.Params {
				out = append(out, candidate{p.Name + "=", "a parameter of " + d.Name.Name})
			}
		}
		return out, ":none"
	}
	return nil, ":none"
}

// definitionsIn parses the .cnf files among words (flag values included: harmless) and returns
// their definitions, each name once.
func definitionsIn(words []string) []*syntax.Definition {
	var out []*syntax.Definition
	var seen []string
	for _, w := range words {
		if !strings.HasSuffix(w, ".cnf") {
			continue
		}
		src, err := os.ReadFile(w)
		if err != nil || len(src) > syntax.MaxFileSize {
			continue
		}
		f, _ := syntax.Parse(w, src)
		for _, decl := range f.Decls {
			if d, ok := decl.(*syntax.Definition); ok && d.Name != nil && !slices.Contains(seen, d.Name.Name) {
				seen = append(seen, d.Name.Name)
				out = append(out, d)
			}
		}
	}
	return out
}

func isBoolFlag(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// firstClause is a flag's usage up to its first parenthesis or colon, for a one-line
// description.
func firstClause(usage string) string {
	if i := strings.IndexAny(usage, "(:;"); i > 0 {
		usage = usage[:i]
	}
	return strings.TrimSpace(usage)
}

// completionScripts are the scripts `cnf completion SHELL` prints: each asks `cnf __complete`
// and turns its directive into the shell's own file completion.
var completionScripts = map[string]string{
	"bash": `# bash completion for cnf: source <(cnf completion bash)
_cnf() {
	local cur=${COMP_WORDS[COMP_CWORD]} out directive line
	local -a lines
	out=$(cnf __complete "${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null) || return
	mapfile -t lines <<<"$out"
	directive=${lines[-1]}
	unset 'lines[-1]'
	COMPREPLY=()
	for line in "${lines[@]}"; do
		[ -n "$line" ] && COMPREPLY+=("${line%%$'\t'*}")
	done
	case $directive in
	:files)
		compopt -o filenames 2>/dev/null
		mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -d -- "$cur"; compgen -f -X '!*.cnf' -- "$cur")
		;;
	:anyfile)
		compopt -o filenames 2>/dev/null
		mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -f -- "$cur")
		;;
	esac
	if [ ${#COMPREPLY[@]} -eq 1 ] && [[ ${COMPREPLY[0]} == *= ]]; then
		compopt -o nospace 2>/dev/null
	fi
	return 0
}
complete -F _cnf cnf
`,
	"zsh": `#compdef cnf
# zsh completion for cnf: cnf completion zsh > "${fpath[1]}/_cnf" (or source <(cnf completion zsh))
_cnf() {
	local -a lines cands assigns
	local directive line
	lines=("${(@f)$(cnf __complete "${(@)words[2,CURRENT]}" 2>/dev/null)}")
	directive=${lines[-1]}
	for line in "${(@)lines[1,-2]}"; do
		[[ -n $line ]] || continue
		if [[ ${line%%$'\t'*} == *= ]]; then
			assigns+=("${line%%$'\t'*}")
		elif [[ $line == *$'\t'* ]]; then
			cands+=("${${line%%$'\t'*}//:/\\:}:${line#*$'\t'}")
		else
			cands+=("${line//:/\\:}")
		fi
	done
	(( ${#cands} )) && _describe -t values 'cnf' cands
	(( ${#assigns} )) && compadd -S '' -a assigns
	case $directive in
	:files) _files -g '*.cnf' ;;
	:anyfile) _files ;;
	esac
}
if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
	_cnf "$@"
else
	compdef _cnf cnf
fi
`,
	"fish": `# fish completion for cnf: cnf completion fish > ~/.config/fish/completions/cnf.fish
function __cnf_complete
	set -l tokens (commandline -opc) (commandline -ct)
	set -e tokens[1]
	set -l out (cnf __complete $tokens 2>/dev/null)
	set -l directive $out[-1]
	set -e out[-1]
	for line in $out
		echo $line
	end
	switch $directive
		case :files
			for f in (commandline -ct)*
				if test -d $f
					echo $f/
				else if string match -q '*.cnf' -- $f
					echo $f
				end
			end
		case :anyfile
			__fish_complete_path (commandline -ct)
	end
end
complete -c cnf -f -a '(__cnf_complete)'
`,
}
