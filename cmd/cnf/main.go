// Command cnf checks, analyses and fuses combinator normal form (CNF) array programs, and
// serves those analyses to editors as a language server.
//
// Usage:
//
//	cnf <command> [flags] [files]
//
// Run `cnf help` for the list of commands. Exit status: 0 success, 1 the programs have errors,
// 2 usage or I/O errors.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/pprof"
	"sort"
	"strings"
	"syscall"
	"time"
)

// Exit codes shared by every subcommand.
const (
	exitOK       = 0
	exitProblems = 1 // the programs have errors
	exitUsage    = 2 // bad flags, unreadable files
)

// env is what a subcommand may touch: its streams. Tests run subcommands in-process with
// buffers.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

func (e *env) errorf(format string, args ...any) {
	fmt.Fprintf(e.stderr, "cnf: "+format+"\n", args...)
}

// fail reports a command's error and returns the exit status for it: code, or, when the
// command was interrupted, exitInterrupted without a message (runMain prints one).
func (e *env) fail(code int, cmd string, err error) int {
	if errors.Is(err, context.Canceled) {
		return exitInterrupted
	}
	e.errorf("%s: %v", cmd, err)
	return code
}

// command is one subcommand. Each lives in a file of its own and registers itself in init.
type command struct {
	name    string
	args    string // argument synopsis for usage, e.g. "[--json] FILE..."
	summary string
	// flags declares the subcommand's flags on fs; run receives the remaining arguments.
	flags func(fs *flag.FlagSet)
	run   func(ctx context.Context, e *env, args []string) int
}

var registry = map[string]*command{}

func register(c *command) {
	if registry[c.name] != nil {
		panic("cnf: command registered twice: " + c.name)
	}
	registry[c.name] = c
}

func main() { os.Exit(runMain()) }

// exitInterrupted is the exit status after Ctrl-C, as shells report a process killed by SIGINT.
const exitInterrupted = 130

// interruptGrace is how long a command has to stop by itself after Ctrl-C: long work checks
// its context and stops sooner; what does not (parsing a huge file) is cut off then.
const interruptGrace = time.Second

// runMain runs the command line of this process. Ctrl-C (SIGINT) or SIGTERM cancels the
// command's context; if the command has not returned within interruptGrace, or on a second
// signal, the process exits at once with status 130.
func runMain() int {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	signals := make(chan os.Signal, 2)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(signals)
	go func() {
		<-signals
		cancel()
		select {
		case <-signals:
		case <-time.After(interruptGrace):
		}
		fmt.Fprintln(os.Stderr, "cnf: interrupted")
		os.Exit(exitInterrupted)
	}()
	if path := os.Getenv("CNF_CPUPROFILE"); path != "" { // for cnf's developers: go tool pprof
		if f, err := os.Create(path); err == nil && pprof.StartCPUProfile(f) == nil {
			defer pprof.StopCPUProfile()
		}
	}
	code := run(ctx, os.Args[1:], &env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr})
	if ctx.Err() != nil {
		fmt.Fprintln(os.Stderr, "cnf: interrupted")
		return exitInterrupted
	}
	return code
}

func run(ctx context.Context, args []string, e *env) int {
	if len(args) == 0 {
		usage(e.stderr)
		return exitUsage
	}
	name := args[0]
	switch name {
	case completeCommand:
		complete(e.stdout, args[1:])
		return exitOK
	case "help", "-h", "-help", "--help":
		if len(args) > 1 {
			if c := registry[args[1]]; c != nil {
				commandUsage(e.stdout, c, nil)
				return exitOK
			}
			e.errorf("unknown command %q", args[1])
			return exitUsage
		}
		usage(e.stdout)
		return exitOK
	}
	c := registry[name]
	if c == nil {
		e.errorf("unknown command %q (run 'cnf help' for the list)", name)
		return exitUsage
	}
	fs := flag.NewFlagSet("cnf "+c.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	if c.flags != nil {
		c.flags(fs)
	}
	rest, err := parseInterspersed(fs, args[1:])
	if errors.Is(err, flag.ErrHelp) {
		commandUsage(e.stdout, c, fs)
		return exitOK
	}
	if err != nil {
		e.errorf("%s: %v", c.name, err)
		commandUsage(e.stderr, c, fs)
		return exitUsage
	}
	return c.run(ctx, e, rest)
}

// parseInterspersed parses flags that may come before, between or after positional
// arguments (`cnf check a.cnf --json`). "--" ends flag parsing.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return positional, nil
		}
		// fs.Parse stops at the first non-flag; "--" is consumed by it, so detect it first.
		if len(args) > 0 && args[0] == "--" {
			return append(positional, args[1:]...), nil
		}
		positional = append(positional, args[0])
		args = args[1:]
	}
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "cnf checks, analyses and fuses combinator normal form (CNF) array programs.")
	fmt.Fprintln(w, "\nUsage:\n\n\tcnf <command> [flags] [files]\n\nCommands:")
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "\t%-8s %s\n", n, registry[n].summary)
	}
	fmt.Fprintln(w, "\nRun 'cnf help <command>' for a command's flags. A FILE of - reads standard input.")
	fmt.Fprintln(w, "Exit status: 0 success, 1 the programs have errors, 2 usage or I/O errors.")
}

// flagName is how the usage, the docs and the completions spell a flag: -w for a one-letter
// flag, --json for the others (the flag package accepts both forms of each).
func flagName(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// printFlags lists a command's flags as PrintDefaults does, spelt as flagName spells them.
func printFlags(w io.Writer, fs *flag.FlagSet) {
	fs.VisitAll(func(f *flag.Flag) {
		arg, usage := flag.UnquoteUsage(f)
		line := "  " + flagName(f.Name)
		if arg != "" {
			line += " " + arg
		}
		if len(line) <= 4 {
			line += "\t"
		} else {
			line += "\n    \t"
		}
		line += strings.ReplaceAll(usage, "\n", "\n    \t")
		if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "0" {
			line += fmt.Sprintf(" (default %s)", f.DefValue)
		}
		fmt.Fprintln(w, line)
	})
}

func commandUsage(w io.Writer, c *command, fs *flag.FlagSet) {
	fmt.Fprintf(w, "usage: cnf %s %s\n\n%s\n", c.name, c.args, c.summary)
	if fs == nil {
		fs = flag.NewFlagSet(c.name, flag.ContinueOnError)
		if c.flags != nil {
			c.flags(fs)
		}
	}
	var b strings.Builder
	printFlags(&b, fs)
	if b.Len() > 0 {
		fmt.Fprintf(w, "\nFlags:\n%s", b.String())
	}
}
