package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/cnf-tools/cnf/fuse"
	"github.com/cnf-tools/cnf/syntax"
)

// argList collects repeated --arg name=value flags.
type argList []string

func (a *argList) String() string     { return strings.Join(*a, " ") }
func (a *argList) Set(v string) error { *a = append(*a, v); return nil }

// inputsOf reads the --arg flags of cnf run into the inputs of fn: one per parameter, each
// given once, read from the command line or, for name=@FILE, from a file (arrays too long
// for a command line; JSON numbers, booleans and arrays read as they are), and checked against
// the signature's types where there is one. Every error is a usage error.
func inputsOf(fn *syntax.Func, args []string, stdin io.Reader) (map[string]fuse.Value, error) {
	inputs := map[string]fuse.Value{}
	for _, a := range args {
		name, text, ok := strings.Cut(a, "=")
		if !ok {
			return nil, fmt.Errorf("--arg %q: expected name=value", shorten(a))
		}
		sym := fn.Symbols[name]
		if sym == nil || sym.Param < 0 {
			return nil, fmt.Errorf("%s is not a parameter of %s", shorten(name), fn.Def.Name.Name)
		}
		if _, dup := inputs[name]; dup {
			return nil, fmt.Errorf("--arg %s is given twice", name)
		}
		if file, ok := strings.CutPrefix(text, "@"); ok {
			data, err := readArgFile(file, stdin)
			if err != nil {
				return nil, fmt.Errorf("--arg %s: %w", name, err)
			}
			text = string(data)
		}
		v, err := fuse.ParseValue(text)
		if err != nil {
			return nil, fmt.Errorf("--arg %s: %w", name, err)
		}
		if err := fuse.CheckInput(sym, v); err != nil {
			return nil, err
		}
		if t := fn.ParamType(sym.Param); t != nil {
			if v, err = fuse.Conform(v, t); err != nil {
				return nil, fmt.Errorf("--arg %s: the signature says %s: %w", name, syntax.FormatType(t), err)
			}
		}
		inputs[name] = v
	}
	if err := fuse.CheckInputs(fn, inputs); err != nil {
		return nil, err
	}
	return inputs, nil
}

// readArgFile reads the value of an --arg name=@FILE; @- is standard input.
func readArgFile(path string, stdin io.Reader) ([]byte, error) {
	if path == "-" {
		return io.ReadAll(io.LimitReader(stdin, syntax.MaxFileSize+1))
	}
	return readFile(path)
}

// shorten cuts a user's text for an error message.
func shorten(s string) string {
	if r := []rune(s); len(r) > 60 {
		return string(r[:57]) + "..."
	}
	return s
}
