package lsp

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/cnf-tools/cnf/codegen"
	"github.com/cnf-tools/cnf/syntax"
)

// cmdBenchmark compiles every clustering of a definition to native code (codegen.Bench, as cnf
// bench does), runs them on the same random inputs in the background with a progress the user
// can cancel, and then shows the measurement on the definition: in its lens and its hover, for
// as long as the definition's text is the one measured. Arguments: the document URI and the
// definition's name.
const cmdBenchmark = "cnf.benchmark"

// cmdShowC is the C of a definition under its optimal clustering (cnf build), or why it
// cannot be compiled. Arguments: the document URI and the definition's name.
const cmdShowC = "cnf.showC"

// benchRuns are the editor's benchmark's runs: fewer than cnf bench's 5. Its size is
// Options.BenchSize.
const benchRuns = 3

// benchSize is the size of the editor's benchmark.
func (s *Server) benchSize() int64 {
	if n := s.options().BenchSize; n > 0 {
		return n
	}
	return 10_000_000
}

// measurement is a definition's benchmark result.
type measurement struct {
	text    string // the definition's text when it was measured
	summary string // one line, for the lens
	detail  string // a line per clustering, for the lens's tooltip
	header  []string
	rows    [][]string // a row per clustering and the copy loop, for the hover's table
	verdict string     // said plainly when a baseline measured faster
}

// measureOne runs one measurement (in measureLoop): with the engine quiet, so that no solve
// shares the cores with what is timed, and the memory check of cnf bench (codegen.Bench).
func (s *Server) measureOne(job *measureJob) {
	vw, name, p := job.vw, job.name, job.p
	s.mu.Lock()
	d := s.docs[vw.uri]
	s.mu.Unlock()
	def := vw.def(name)
	if d == nil || def == nil || job.ctx.Err() != nil {
		p.end("stopped")
		return
	}
	ctx, cancel := s.documentJob(job.ctx, d)
	defer cancel()
	size := s.benchSize()
	release, err := s.engine.Quiet(ctx)
	if err != nil {
		p.end("stopped")
		return
	}
	p.report("compiling the clusterings to C and running them at " + sizeText(size) + " elements")
	res, err := s.bench(ctx, def.Sizes, codegen.BenchClusterings(def.Report, def.Fused()), codegen.BenchOptions{Size: size, Runs: benchRuns, Seed: 1, Host: hostBeside(vw.uri)})
	release()
	switch {
	case ctx.Err() != nil:
		p.end("stopped")
		return
	case err != nil:
		p.end("failed")
		var ce *codegen.CompileError
		if errors.As(err, &ce) {
			pos := vw.file.Prog.Syntax.File.Position(ce.Range.Start)
			err = fmt.Errorf("line %d: %s", pos.Line, ce.Message)
		}
		s.warnUser("measuring %s: %v", name, err)
		return
	}
	m := describeBench(res, size)
	m.text = job.text
	p.end(m.summary)
	s.mu.Lock()
	if cur := s.docs[vw.uri]; cur == d {
		measured := map[string]measurement{name: m} // copied on write: views read it unlocked
		for k, v := range d.measured {
			if k != name {
				measured[k] = v
			}
		}
		d.measured = measured
	}
	s.mu.Unlock()
	s.refreshLenses()
}

// describeBench is the lens's line ("measured at 10⁷: 2 loops 31 ms · unfused 5 loops 58 ms ·
// 1.9×", with "· slower than megiddo (25 ms)" when a baseline measured faster by more than 5%,
// as it can: the cost model counts arrays, not time) and the hover's table.
func describeBench(res *codegen.BenchResult, size int64) measurement {
	byName := map[string]*codegen.Measured{}
	for _, m := range res.Clusterings {
		byName[m.Name] = m
	}
	opt, unf := byName["optimal"], byName["unfused"]
	m := measurement{summary: fmt.Sprintf("measured at %s: %s %s · unfused %s %s · %.1f×",
		sizeText(size), syntax.Plural(opt.Loops, "loop"), ms(opt.Seconds), syntax.Plural(unf.Loops, "loop"), ms(unf.Seconds), unf.Seconds/opt.Seconds)}
	var best *codegen.Measured
	for _, c := range res.Clusterings {
		if c != opt && (best == nil || c.Seconds < best.Seconds) {
			best = c
		}
	}
	if best != nil && best.Seconds*1.05 < opt.Seconds {
		m.summary += fmt.Sprintf(" · slower than %s (%s)", best.Name, ms(best.Seconds))
		m.verdict = fmt.Sprintf("The optimal clustering measured slower than %s (%s against %s): fewer loops did not run faster here.", best.Name, ms(opt.Seconds), ms(best.Seconds))
	}
	m.header = []string{"clustering", "loops", "median", "vs unfused", "MB streamed"}
	var b strings.Builder
	for _, c := range res.Clusterings {
		name := c.Name
		if c.SameAs != "" {
			name += " (the same C as " + c.SameAs + ")"
		}
		m.rows = append(m.rows, []string{name, fmt.Sprint(c.Loops), ms(c.Seconds), fmt.Sprintf("%.2f×", unf.Seconds/c.Seconds), fmt.Sprintf("%.0f", float64(c.Bytes)/1e6)})
		fmt.Fprintf(&b, "%s: %s, %s (%.2f× unfused), %.0f MB streamed\n", c.Name, syntax.Plural(c.Loops, "loop"), ms(c.Seconds), unf.Seconds/c.Seconds, float64(c.Bytes)/1e6)
	}
	if res.CopySeconds > 0 {
		m.rows = append(m.rows, []string{"copy loop", "", ms(res.CopySeconds), "", fmt.Sprintf("%.0f", float64(res.CopyBytes)/1e6)})
		fmt.Fprintf(&b, "copy loop over %.0f MB: %s\n", float64(res.CopyBytes)/1e6, ms(res.CopySeconds))
	}
	for _, a := range res.Assumed {
		fmt.Fprintf(&b, "inputs: %s\n", a)
	}
	m.detail = b.String()
	return m
}

func ms(s float64) string {
	if s < 0.01 {
		return fmt.Sprintf("%.2f ms", s*1e3)
	}
	return fmt.Sprintf("%.0f ms", s*1e3)
}

// sizeText prints 10000000 as 10⁷.
func sizeText(n int64) string {
	exp := 0
	for m := n; m >= 10 && m%10 == 0; m /= 10 {
		exp++
	}
	if n != pow10(exp) || exp < 3 {
		return fmt.Sprint(n)
	}
	sup := []rune("⁰¹²³⁴⁵⁶⁷⁸⁹")
	var b strings.Builder
	for _, r := range fmt.Sprint(exp) {
		b.WriteRune(sup[r-'0'])
	}
	return "10" + b.String()
}

func pow10(e int) int64 {
	n := int64(1)
	for ; e > 0; e-- {
		n *= 10
	}
	return n
}

// definitionText is the text of a definition in a view, "" when it is not there.
func definitionText(vw *view, name string) string {
	for _, def := range vw.file.Prog.Syntax.File.Definitions() {
		if def.Name.Name == name {
			return string(vw.file.Text[def.Range.Start:min(int(def.Range.End), len(vw.file.Text))])
		}
	}
	return ""
}

// measured is a definition's measurement, if its text is still the one measured.
func (vw *view) measured(name string) (measurement, bool) {
	m, ok := vw.measurements[name]
	if !ok || m.text != definitionText(vw, name) {
		return measurement{}, false
	}
	return m, true
}

// showC is the C of a definition under its optimal clustering, or a C comment saying why it
// cannot be compiled (located), so that the view says it where the C would be.
func showC(vw *view, name string) TextResult {
	def := vw.def(name)
	host := hostBeside(vw.uri)
	f, err := codegen.Emit(def.Sizes, def.Report.Ours.Clustering, codegen.Options{Host: host, Fused: def.Fused()}, codegen.NoMain)
	if err != nil {
		var ce *codegen.CompileError
		msg := err.Error()
		if errors.As(err, &ce) {
			pos := vw.file.Prog.Syntax.File.Position(ce.Range.Start)
			msg = fmt.Sprintf("line %d, column %d: %s", pos.Line, pos.Column, ce.Message)
		}
		return TextResult{Function: name, Text: fmt.Sprintf("/* %s cannot be compiled to C: %s.\n * (Host functions take their C from a file beside the program with its name and .c,\n * or from cnf build --host FILE.c.) */\n", name, strings.ReplaceAll(msg, "*/", "* /"))}
	}
	// The view starts where the definition's code does: the runtime before it is the same in
	// every file (cnf build writes the whole file).
	text := f.Source
	if _, rest, ok := strings.Cut(text, "\n/* Types"); ok {
		from := ""
		if host != nil {
			from = "\n * Host functions and types from " + filepath.Base(host.Path) + "."
		}
		text = fmt.Sprintf("/* %s under its optimal clustering, as cnf build writes it after the runtime\n * (cnf_fail, cnf_quot, CNF_AT, ...: run cnf build for the whole file).%s */\n\n/* Types", name, from) + rest
	}
	return TextResult{Function: name, Text: text}
}

// hostBeside is the host file of a program in the editor: the file beside it with its name and
// .c (quickhull.cnf, quickhull.c), as cnf build --host would be given; nil when there is none
// (or the document is not a file).
func hostBeside(uri string) *codegen.Host {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" || !strings.HasSuffix(u.Path, ".cnf") {
		return nil
	}
	path := filepath.FromSlash(strings.TrimSuffix(u.Path, ".cnf") + ".c")
	src, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	return &codegen.Host{Path: path, Src: string(src)}
}
