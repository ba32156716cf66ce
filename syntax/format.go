package syntax

import (
	"bytes"
	"sort"
	"strconv"
	"strings"
)

// Format prints a parsed file in canonical layout: one blank line between definitions, a
// signature directly above its definition, `let` on its own line below the header with the
// bindings aligned on their `=`, and `in` below them. Comments are kept: a comment on the same
// line as the end of a binding stays at the end of that line, and every other comment is placed
// before the declaration or binding that follows it. Parentheses are those of the source plus
// any the tree needs for its structure, so Parse(Format(f)) has the same structure as f.
//
// Format refuses nothing, but formatting a file with syntax errors drops the parts that did not
// parse; callers (the language server's formatter) only format files without errors.
func Format(f *File) []byte {
	pr := &printer{file: f, comments: append([]*Comment(nil), f.Comments...)}
	sort.Slice(pr.comments, func(i, j int) bool { return pr.comments[i].Start < pr.comments[j].Start })
	for i, d := range f.Decls {
		if i > 0 {
			if _, isDef := f.Decls[i-1].(*Definition); isDef {
				pr.buf.WriteString("\n")
			}
		}
		pr.leading(d.Span().Start, "")
		switch d := d.(type) {
		case *Signature:
			pr.buf.WriteString(d.Name.Name + " :: ")
			if d.Type != nil {
				pr.buf.WriteString(FormatType(d.Type))
			}
			pr.trailing(d.End)
			pr.buf.WriteString("\n")
		case *Definition:
			pr.definition(d)
		}
	}
	pr.leading(Pos(len(f.Src)+1), "")
	return pr.buf.Bytes()
}

type printer struct {
	file     *File
	buf      bytes.Buffer
	comments []*Comment
}

// leading prints, each on its own line, the comments that start before pos.
func (pr *printer) leading(pos Pos, indent string) {
	for len(pr.comments) > 0 && pr.comments[0].Start < pos {
		c := pr.comments[0]
		pr.comments = pr.comments[1:]
		pr.buf.WriteString(indent + strings.TrimRight(c.Text, " \t\r") + "\n")
	}
}

// trailing prints a comment that starts on the line where end lies, after the code.
func (pr *printer) trailing(end Pos) {
	if len(pr.comments) == 0 {
		return
	}
	c := pr.comments[0]
	if c.Start >= end && pr.file.Position(c.Start).Line == pr.file.Position(end).Line && !strings.Contains(c.Text, "\n") {
		pr.comments = pr.comments[1:]
		pr.buf.WriteString("  " + strings.TrimRight(c.Text, " \t\r"))
	}
}

func (pr *printer) definition(d *Definition) {
	pr.buf.WriteString(d.Name.Name)
	for _, p := range d.Params {
		pr.buf.WriteString(" " + p.Name)
	}
	pr.buf.WriteString(" =\n")
	width := 0
	for _, b := range d.Bindings {
		width = max(width, len([]rune(binders(b))))
	}
	for i, b := range d.Bindings {
		pr.leading(b.Start, "      ")
		if i == 0 {
			pr.buf.WriteString("  let ")
		} else {
			pr.buf.WriteString("      ")
		}
		names := binders(b)
		pr.buf.WriteString(names + strings.Repeat(" ", width-len([]rune(names))) + " = ")
		if b.Rhs != nil {
			pr.buf.WriteString(FormatCombinator(b.Rhs))
		}
		pr.trailing(b.End)
		pr.buf.WriteString("\n")
	}
	if len(d.Bindings) == 0 {
		pr.buf.WriteString("  let\n")
	}
	if d.In >= 0 {
		pr.leading(d.In, "      ")
	}
	pr.buf.WriteString("  in  ")
	pr.buf.WriteString(formatResults(d))
	pr.trailing(d.End)
	pr.buf.WriteString("\n")
}

func binders(b *Binding) string {
	names := make([]string, len(b.Names))
	for i, n := range b.Names {
		names[i] = n.Name
	}
	return strings.Join(names, ", ")
}

func formatResults(d *Definition) string {
	names := make([]string, len(d.Results))
	for i, r := range d.Results {
		names[i] = r.Name
	}
	if len(names) == 1 && !d.Tuple {
		return names[0]
	}
	return "(" + strings.Join(names, ", ") + ")"
}

// FormatType prints a signature type.
func FormatType(t Type) string {
	var b strings.Builder
	writeType(&b, t, 0)
	return b.String()
}

// Type contexts: 0 anywhere, 1 left of an arrow, 2 argument of a type constructor.
func writeType(b *strings.Builder, t Type, ctx int) {
	switch t := t.(type) {
	case *NamedType:
		if len(t.Args) > 0 && ctx >= 2 {
			b.WriteString("(")
			defer b.WriteString(")")
		}
		b.WriteString(t.Name)
		for _, a := range t.Args {
			b.WriteString(" ")
			writeType(b, a, 2)
		}
	case *ArrayType:
		if ctx >= 2 {
			b.WriteString("(")
			defer b.WriteString(")")
		}
		b.WriteString("Array ")
		writeType(b, t.Elem, 2)
	case *TupleType:
		b.WriteString("(")
		for i, e := range t.Elems {
			if i > 0 {
				b.WriteString(", ")
			}
			writeType(b, e, 0)
		}
		b.WriteString(")")
	case *FuncType:
		if ctx >= 1 {
			b.WriteString("(")
			defer b.WriteString(")")
		}
		for _, p := range t.Params {
			writeType(b, p, 1)
			b.WriteString(" -> ")
		}
		writeType(b, t.Result, 0)
	}
}

// FormatCombinator prints a combinator application as written: keyword and arguments.
func FormatCombinator(c Combinator) string {
	call := CallOf(c)
	var b strings.Builder
	b.WriteString(call.Keyword.Name)
	for _, a := range call.Args {
		b.WriteString(" ")
		writeExpr(&b, a, precAtom)
	}
	return b.String()
}

// FormatExpr prints a worker expression.
func FormatExpr(e Expr) string {
	var b strings.Builder
	writeExpr(&b, e, 0)
	return b.String()
}

// FormatAtom prints a worker expression as an argument: parenthesised unless it is atomic.
func FormatAtom(e Expr) string {
	var b strings.Builder
	writeExpr(&b, e, precAtom)
	return b.String()
}

// Precedence levels for printing: operators use their fixity (0-9); negation sits at 6.
const (
	precApp  = 10
	precAtom = 11
)

func exprPrec(e Expr) int {
	switch e := e.(type) {
	case *Lambda, *If:
		return -1
	case *Binary:
		return fixityOf(e.Op).prec
	case *Neg:
		return 6
	case *App:
		return precApp
	}
	return precAtom
}

func writeExpr(b *strings.Builder, e Expr, ctx int) {
	if p := exprPrec(e); ctx > 0 && p < ctx {
		b.WriteString("(")
		writeExpr(b, e, 0)
		b.WriteString(")")
		return
	}
	switch e := e.(type) {
	case *Ident:
		b.WriteString(e.Name)
	case *IntLit:
		b.WriteString(strconv.FormatInt(e.Value, 10))
	case *FloatLit:
		s := strconv.FormatFloat(e.Value, 'g', -1, 64)
		if !strings.ContainsAny(s, ".eEnI") {
			s += ".0"
		}
		b.WriteString(s)
	case *BoolLit:
		if e.Value {
			b.WriteString("True")
		} else {
			b.WriteString("False")
		}
	case *App:
		writeExpr(b, e.Fun, precApp)
		for _, a := range e.Args {
			b.WriteString(" ")
			writeExpr(b, a, precAtom)
		}
	case *Binary:
		fx := fixityOf(e.Op)
		lctx, rctx := fx.prec+1, fx.prec+1
		switch fx.assoc {
		case 'l':
			lctx = fx.prec
		case 'r':
			rctx = fx.prec
		}
		writeExpr(b, e.X, lctx)
		b.WriteString(" " + opText(e.Op) + " ")
		writeExpr(b, e.Y, rctx)
	case *Neg:
		b.WriteString("-")
		writeExpr(b, e.X, 7)
	case *Section:
		b.WriteString("(")
		inner := fixityOf(e.Op).prec + 1
		switch {
		case e.X != nil:
			writeExpr(b, e.X, inner)
			b.WriteString(" " + opText(e.Op))
		case e.Y != nil:
			b.WriteString(opText(e.Op) + " ")
			writeExpr(b, e.Y, inner)
		default:
			b.WriteString(opText(e.Op))
		}
		b.WriteString(")")
	case *Lambda:
		b.WriteString(`\`)
		for i, p := range e.Params {
			if i > 0 {
				b.WriteString(" ")
			}
			writePattern(b, p)
		}
		b.WriteString(" -> ")
		writeExpr(b, e.Body, 0)
	case *Tuple:
		b.WriteString("(")
		for i, x := range e.Elems {
			if i > 0 {
				b.WriteString(", ")
			}
			writeExpr(b, x, 0)
		}
		b.WriteString(")")
	case *If:
		b.WriteString("if ")
		writeExpr(b, e.Cond, 0)
		b.WriteString(" then ")
		writeExpr(b, e.Then, 0)
		b.WriteString(" else ")
		writeExpr(b, e.Else, 0)
	case *Paren:
		b.WriteString("(")
		writeExpr(b, e.X, 0)
		b.WriteString(")")
	case *BadExpr:
		b.WriteString("_")
	}
}

func opText(op *Op) string {
	if op.Backtick {
		return "`" + op.Name + "`"
	}
	return op.Name
}

func writePattern(b *strings.Builder, p Pattern) {
	switch p := p.(type) {
	case *Ident:
		b.WriteString(p.Name)
	case *Wildcard:
		b.WriteString("_")
	case *TuplePattern:
		b.WriteString("(")
		for i, e := range p.Elems {
			if i > 0 {
				b.WriteString(", ")
			}
			writePattern(b, e)
		}
		b.WriteString(")")
	}
}
