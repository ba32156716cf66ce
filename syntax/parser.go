package syntax

import (
	"fmt"
	"strconv"
	"strings"
)

// MaxNesting bounds the nesting of parentheses, lambdas, ifs, operator chains and types: an
// expression is at most this many levels deep as a tree. Deeper input is reported as an error
// instead of exhausting the stack, here or in any later pass (every pass that recurses over
// expressions relies on it: 100,000 nested parentheses, a million nested lambdas and a sum of a
// million terms are test inputs).
const MaxNesting = 1000

// Parse parses a CNF source file. It never fails: it always returns a File holding every
// declaration it could recognise, plus the syntax diagnostics. An error inside one binding or
// definition is reported and parsing resumes at the next binding or definition, so one mistake
// does not hide the diagnostics of the rest of the file.
//
// Layout. A line that starts in column 1 with a name begins a new declaration (a signature or a
// definition). Inside `let ... in`, bindings are separated by ";" or by a line whose first tokens
// are `name =`, `a, b =` or `(a, b) =`; any other line continues the binding above it. This
// accepts every layout Haskell accepts for these programs, and also the paper listings, whose
// columns do not always line up once copied out of a PDF.
func Parse(name string, src []byte) (*File, []Diagnostic) {
	f := NewFile(name, src)
	p := &parser{file: f, src: src}
	if len(src) > MaxFileSize {
		p.diags = append(p.diags, Diagnostic{Range: Range{0, 0}, Severity: Error, Code: CodeSyntax,
			Message: fmt.Sprintf("file too large: %d bytes (the limit is %d)", len(src), MaxFileSize)})
		return f, p.diags
	}
	p.toks, f.Comments = lex(src, func(r Range, msg string) {
		p.diags = append(p.diags, Diagnostic{Range: r, Severity: Error, Code: CodeLexical, Message: msg})
	})
	p.parseFile()
	// A definition that contains a lexical error is broken too.
	for _, d := range f.Decls {
		if def, ok := d.(*Definition); ok {
			for _, dg := range p.diags {
				if dg.Severity == Error && def.Range.Contains(dg.Range.Start) {
					def.Broken = true
					break
				}
			}
		}
	}
	return f, p.diags
}

type parser struct {
	file    *File
	src     []byte
	toks    []token
	i       int
	lastEnd Pos // end of the last consumed token
	diags   []Diagnostic
	errs    int  // syntax errors reported so far
	muted   bool // an error was reported since the last recovery point
	depth   int
	def     *Definition     // the definition being parsed, marked Broken on error
	namesOf *Definition     // the definition whose bound names names holds (boundHere)
	names   map[string]bool // the names namesOf binds, made when first asked for
}

// ---- token access -------------------------------------------------------------------------

func (p *parser) tok() token { return p.toks[p.i] }

func (p *parser) peek(k int) token {
	if p.i+k >= len(p.toks) {
		return p.toks[len(p.toks)-1]
	}
	return p.toks[p.i+k]
}

func (p *parser) next() {
	if p.toks[p.i].kind != tEOF {
		p.lastEnd = Pos(p.toks[p.i].end)
		p.i++
	}
}

func (p *parser) text(t token) string { return string(p.src[t.pos:t.end]) }

func rng(t token) Range { return Range{Pos(t.pos), Pos(t.end)} }

// describe names a token for messages: `name xs`, `operator +`, `end of file`.
func (p *parser) describe(t token) string {
	switch t.kind {
	case tEOF:
		return "end of file"
	case tIdent:
		return fmt.Sprintf("name %s", p.text(t))
	case tInt, tFloat:
		return fmt.Sprintf("number %s", p.text(t))
	case tOp, tBacktick:
		return fmt.Sprintf("operator %s", p.text(t))
	}
	return fmt.Sprintf("%q", p.text(t))
}

func (p *parser) errorf(r Range, format string, args ...any) {
	if p.def != nil {
		p.def.Broken = true
	}
	if p.muted {
		return
	}
	p.muted = true
	p.errs++
	p.diags = append(p.diags, Diagnostic{Range: r, Severity: Error, Code: CodeSyntax, Message: fmt.Sprintf(format, args...)})
}

// errorAtTok reports an error at the current token; at a line break it points just after the
// previous token, where the missing text belongs.
func (p *parser) errorExpected(what string) {
	t := p.tok()
	if t.kind == tEOF || (t.first() && p.i > 0) {
		p.errorf(Range{p.lastEnd, p.lastEnd}, "expected %s, found %s", what, p.describeAhead(t))
		return
	}
	p.errorf(rng(t), "expected %s, found %s", what, p.describe(t))
}

func (p *parser) describeAhead(t token) string {
	if t.kind == tEOF {
		return "end of file"
	}
	return "end of line"
}

func (p *parser) enter() bool {
	p.depth++
	if p.depth > MaxNesting {
		p.errorf(rng(p.tok()), "expression nested too deeply (more than %d levels)", MaxNesting)
		return false
	}
	return true
}

func (p *parser) leave() { p.depth-- }

// ---- layout -------------------------------------------------------------------------------

// isTopStart reports whether token i begins a declaration: a name in column 1.
func (p *parser) isTopStart(i int) bool {
	t := p.toks[i]
	return t.kind == tIdent && t.col1()
}

// isBindingStart reports whether the first-on-line token i begins a binding: `a =`, `a, b =` or
// `(a, b) =`. The look-ahead is bounded, so the check is cheap on any input.
func (p *parser) isBindingStart(i int) bool {
	t := p.toks[i]
	if !t.first() {
		return false
	}
	j := i
	paren := false
	if t.kind == tLParen {
		paren = true
		j++
	}
	for n := 0; n < 64 && j < len(p.toks); n++ {
		if p.toks[j].kind != tIdent {
			return false
		}
		j++
		if p.toks[j].kind == tComma {
			j++
			continue
		}
		if paren {
			if p.toks[j].kind != tRParen {
				return false
			}
			j++
		}
		return p.toks[j].kind == tEquals
	}
	return false
}

// atBindingBoundary reports whether the current token ends the binding being parsed.
func (p *parser) atBindingBoundary() bool {
	t := p.tok()
	switch t.kind {
	case tEOF, tIn, tSemi, tRBrace:
		return true
	}
	return p.isTopStart(p.i) || (t.first() && p.isBindingStart(p.i))
}

func (p *parser) syncBinding() {
	for !p.atBindingBoundary() {
		p.next()
	}
}

func (p *parser) syncTop() {
	for p.tok().kind != tEOF && !p.isTopStart(p.i) {
		p.next()
	}
}

// ---- declarations -------------------------------------------------------------------------

func (p *parser) parseFile() {
	for p.tok().kind != tEOF {
		p.muted = false
		p.def = nil
		if !p.isTopStart(p.i) {
			t := p.tok()
			if t.first() && !t.col1() && t.kind == tIdent {
				p.errorf(rng(t), "expected a definition or a signature in column 1, found %s (declarations start at the beginning of a line)", p.describe(t))
			} else {
				p.errorf(rng(t), "expected a definition or a signature, found %s", p.describe(t))
			}
			p.next()
			p.syncTop()
			continue
		}
		var d Decl
		if p.peek(1).kind == tDColon {
			d = p.parseSignature()
		} else {
			d = p.parseDefinition()
		}
		if d != nil {
			p.file.Decls = append(p.file.Decls, d)
		}
		if p.tok().kind != tEOF && !p.isTopStart(p.i) {
			t := p.tok()
			switch {
			case t.kind == tWhere:
				p.errorf(rng(t), "where clauses are not part of CNF: write each helper as a definition of its own")
			default:
				p.errorf(rng(t), "unexpected %s after the end of %s", p.describe(t), declName(d))
			}
			p.syncTop()
		}
	}
}

func declName(d Decl) string {
	switch d := d.(type) {
	case *Signature:
		return "the signature of " + d.Name.Name
	case *Definition:
		return d.Name.Name
	}
	return "the declaration"
}

func (p *parser) ident() *Ident {
	t := p.tok()
	p.next()
	return &Ident{Range: rng(t), Name: p.text(t)}
}

func (p *parser) parseSignature() *Signature {
	name := p.ident()
	p.next() // ::
	sig := &Signature{Name: name}
	p.depth = 0
	sig.Type = p.parseType()
	sig.Range = Range{name.Start, p.lastEnd}
	if sig.Type == nil {
		p.syncTop()
		return sig
	}
	return sig
}

// ---- types --------------------------------------------------------------------------------

func (p *parser) atTypeStop() bool {
	t := p.tok()
	return t.kind == tEOF || p.isTopStart(p.i)
}

func (p *parser) parseType() Type {
	if !p.enter() {
		return nil
	}
	defer p.leave()
	t := p.parseBType()
	if t == nil {
		return nil
	}
	if p.tok().kind != tArrow || p.atTypeStop() {
		return t
	}
	parts := []Type{t}
	for p.tok().kind == tArrow && !p.atTypeStop() {
		p.next()
		u := p.parseBType()
		if u == nil {
			return nil
		}
		parts = append(parts, u)
	}
	res := parts[len(parts)-1]
	return &FuncType{Range: Range{parts[0].Span().Start, res.Span().End}, Params: parts[:len(parts)-1], Result: res}
}

func (p *parser) atATypeStart() bool {
	t := p.tok()
	return (t.kind == tIdent || t.kind == tLParen) && !p.isTopStart(p.i)
}

// parseBType parses a type application: Array T, or a named type with arguments.
func (p *parser) parseBType() Type {
	t := p.tok()
	if t.kind == tIdent && !p.isTopStart(p.i) {
		name := p.ident()
		if name.Name == "Array" {
			if !p.atATypeStart() {
				p.errorExpected("the element type of Array")
				return nil
			}
			elem := p.parseAType()
			if elem == nil {
				return nil
			}
			return &ArrayType{Range: Range{name.Start, elem.Span().End}, Elem: elem}
		}
		nt := &NamedType{Range: name.Range, Name: name.Name}
		for p.atATypeStart() {
			a := p.parseAType()
			if a == nil {
				return nil
			}
			nt.Args = append(nt.Args, a)
			nt.End = a.Span().End
		}
		return nt
	}
	return p.parseAType()
}

func (p *parser) parseAType() Type {
	t := p.tok()
	switch {
	case t.kind == tIdent && !p.isTopStart(p.i):
		name := p.ident()
		if name.Name == "Array" {
			p.errorf(name.Range, "Array needs an element type here: write (Array T)")
			return nil
		}
		return &NamedType{Range: name.Range, Name: name.Name}
	case t.kind == tLParen:
		if !p.enter() {
			return nil
		}
		defer p.leave()
		open := t
		p.next()
		if p.tok().kind == tRParen {
			p.next()
			return &TupleType{Range: Range{Pos(open.pos), p.lastEnd}}
		}
		first := p.parseType()
		if first == nil {
			return nil
		}
		elems := []Type{first}
		for p.tok().kind == tComma {
			p.next()
			u := p.parseType()
			if u == nil {
				return nil
			}
			elems = append(elems, u)
		}
		if p.tok().kind != tRParen {
			p.errorExpected(fmt.Sprintf(") to close the ( at %s", p.where(Pos(open.pos))))
			return nil
		}
		p.next()
		if len(elems) == 1 {
			return first
		}
		return &TupleType{Range: Range{Pos(open.pos), p.lastEnd}, Elems: elems}
	}
	p.errorExpected("a type")
	return nil
}

func (p *parser) where(pos Pos) string {
	ps := p.file.Position(pos)
	return fmt.Sprintf("line %d, column %d", ps.Line, ps.Column)
}

// ---- definitions --------------------------------------------------------------------------

func (p *parser) parseDefinition() *Definition {
	name := p.ident()
	def := &Definition{Name: name, Let: -1, In: -1}
	p.def = def
	defer func() { def.Range = Range{name.Start, p.lastEnd} }()
	for {
		t := p.tok()
		if t.kind == tIdent && !p.isTopStart(p.i) {
			def.Params = append(def.Params, p.ident())
			continue
		}
		if t.kind == tLParen || t.kind == tUnderscore {
			p.errorf(rng(t), "parameters of %s must be plain names: patterns are not part of CNF", name.Name)
			p.syncTop()
			return def
		}
		break
	}
	switch t := p.tok(); t.kind {
	case tEquals:
		p.next()
	case tBar:
		p.errorf(rng(t), "guards are not part of CNF: write each case of %s as a definition of its own", name.Name)
		p.syncTop()
		return def
	default:
		p.errorExpected(fmt.Sprintf("= after the parameters of %s", name.Name))
		p.syncTop()
		return def
	}
	if p.tok().kind != tLet {
		p.errorExpected("let after =")
		if n := len(p.diags); n > 0 && p.diags[n-1].Code == CodeSyntax {
			p.diags[n-1].Message += fmt.Sprintf(" (a definition has the form `%s params = let bindings in results`)", name.Name)
		}
		p.syncTop()
		return def
	}
	def.Let = Pos(p.tok().pos)
	p.next()
	var brace token
	hasBrace := p.tok().kind == tLBrace
	if hasBrace {
		brace = p.tok()
		p.next()
	}
	for {
		t := p.tok()
		if t.kind == tIn || t.kind == tEOF || t.kind == tRBrace || p.isTopStart(p.i) {
			break
		}
		if t.kind == tSemi {
			p.next()
			continue
		}
		before := p.i
		if b := p.parseBinding(); b != nil {
			def.Bindings = append(def.Bindings, b)
		}
		if p.i == before { // no progress: skip the token so that parsing terminates
			p.next()
		}
	}
	p.muted = false
	if hasBrace {
		if p.tok().kind != tRBrace {
			p.errorExpected(fmt.Sprintf("} to close the { at %s", p.where(Pos(brace.pos))))
			p.syncTop()
			return def
		}
		p.next()
	} else if t := p.tok(); t.kind == tRBrace {
		p.errorf(rng(t), "unexpected }: this let block did not start with {")
		p.next()
	}
	if p.tok().kind != tIn {
		hint := ""
		if p.isTopStart(p.i) {
			hint = " (a line that starts in column 1 begins a new definition: indent the bindings of a let)"
		}
		p.errorf(Range{p.lastEnd, p.lastEnd}, "missing `in` and the results of %s%s", name.Name, hint)
		return def
	}
	def.In = Pos(p.tok().pos)
	p.next()
	p.parseResults(def)
	return def
}

func (p *parser) parseResults(def *Definition) {
	t := p.tok()
	isName := func() bool { return p.tok().kind == tIdent && !p.isTopStart(p.i) }
	switch {
	case p.resultExpression(false):
		def.BadResults = true
	case isName():
		def.Results = []*Ident{p.ident()}
	case t.kind == tLParen:
		p.next()
		def.Tuple = true
		if p.tok().kind == tRParen {
			p.errorf(Range{Pos(t.pos), Pos(p.tok().end)}, "%s must return at least one result", def.Name.Name)
			p.next()
			return
		}
		for {
			if p.resultExpression(true) {
				// The tuple goes on after it: the names after a bad result are still
				// results (checked as bound, and used).
				def.BadResults = true
				if p.tok().kind == tComma {
					p.next()
					continue
				}
				if p.tok().kind == tRParen {
					p.next()
				}
				return
			}
			if !isName() {
				p.errorExpected("a result name (results are names bound by the let)")
				return
			}
			def.Results = append(def.Results, p.ident())
			if p.tok().kind == tComma {
				p.next()
				continue
			}
			break
		}
		if p.tok().kind != tRParen {
			p.errorExpected(fmt.Sprintf(") to close the results that start at %s", p.where(Pos(t.pos))))
			return
		}
		p.next()
	default:
		p.errorExpected(fmt.Sprintf("the results of %s after in: a name or a tuple of names", def.Name.Name))
	}
}

// resultExpression reports a result written as an expression (`length xs`, `count + s`,
// `(map f xs)`) rather than a name, with one error over the whole expression, and skips it.
// In a tuple the result ends at a comma or the closing parenthesis, and in any case at the end
// of the line or a where. It returns false, consuming nothing, when the result is a single
// name or does not start like an expression (the caller reports that).
func (p *parser) resultExpression(inTuple bool) bool {
	first := p.tok()
	if first.kind == tEOF || first.kind == tRParen || first.kind == tComma || p.isTopStart(p.i) ||
		(!inTuple && first.kind == tLParen) {
		return false // a tuple's elements are checked one by one
	}
	end, depth := p.i, 0
	for ; ; end++ {
		t := p.toks[end]
		if t.kind == tEOF || (end > p.i && (t.first() || p.text(t) == "where")) {
			break // the parts of a result stay on its line; where clauses have their own error
		}
		if depth == 0 && inTuple && (t.kind == tComma || t.kind == tRParen) {
			break
		}
		switch t.kind {
		case tLParen:
			depth++
		case tRParen:
			depth--
		}
		if depth < 0 {
			break
		}
	}
	if end == p.i+1 && first.kind == tIdent || end == p.i {
		return false
	}
	last := p.toks[end-1]
	r := Range{Pos(first.pos), Pos(last.end)}
	var names []string
	onlyNames := true // nothing but names and commas: results meant as a list
	for _, t := range p.toks[p.i:end] {
		switch t.kind {
		case tIdent:
			names = append(names, p.text(t))
			onlyNames = onlyNames && !IsCombinator(p.text(t))
		case tComma:
		default:
			onlyNames = false
		}
	}
	text := strings.Join(strings.Fields(string(p.src[first.pos:last.end])), " ")
	n := len(p.diags)
	list := strings.Join(names, ", ")
	switch {
	case onlyNames && len(names) > 1 && inTuple:
		p.errorf(r, "results are separated by commas: (%s)", list)
		attachFixes(p.diags, n, replaceWith(r, list, "separate the results with commas"))
	case onlyNames && len(names) > 1:
		p.errorf(r, "several results are written as a tuple: (%s)", list)
		attachFixes(p.diags, n, replaceWith(r, "("+list+")", "write the results as a tuple: ("+list+")"))
	case onlyNames:
		p.errorf(r, "expected a result name or a tuple of names (a, b), found `%s`", text)
	default:
		p.errorf(r, "a result must be a name bound by the let, not an expression: bind `%s` to a name in the let and return the name", text)
		if fix, ok := p.bindResult(r, text); ok {
			attachFixes(p.diags, n, fix)
		}
	}
	p.i = end
	p.lastEnd = r.End
	return true
}

// ---- bindings and combinators -------------------------------------------------------------

func (p *parser) parseBinding() *Binding {
	p.muted = false
	p.depth = 0
	errs := p.errs
	start := p.tok()
	b := &Binding{}
	defer func() {
		if p.errs > errs {
			p.syncBinding()
		}
	}()
	paren := start.kind == tLParen
	if paren {
		p.next()
	}
	for {
		if p.tok().kind != tIdent || p.isTopStart(p.i) {
			if len(b.Names) == 0 && !paren {
				p.errorExpected("a binding `name = combinator arguments`")
			} else {
				p.errorExpected("a name")
			}
			return nil
		}
		b.Names = append(b.Names, p.ident())
		if p.tok().kind != tComma {
			break
		}
		p.next()
	}
	if paren {
		if p.tok().kind != tRParen {
			p.errorExpected(")")
			return nil
		}
		p.next()
	}
	if p.tok().kind != tEquals {
		p.errorExpected(fmt.Sprintf("= after %s", b.Names[len(b.Names)-1].Name))
		return nil
	}
	p.next()
	b.Rhs = p.parseCombinator()
	b.Range = Range{Pos(start.pos), p.lastEnd}
	if b.Rhs != nil && !p.atBindingBoundary() {
		t := p.tok()
		if t.kind == tOp || t.kind == tBacktick {
			p.errorf(rng(t), "the right side of a binding is one combinator application: operators such as %s belong inside a worker function", p.text(t))
		} else {
			p.errorf(rng(t), "unexpected %s after the binding of %s", p.describe(t), b.Name())
		}
	}
	return b
}

func (p *parser) canStartArg() bool {
	switch p.tok().kind {
	case tIdent, tInt, tFloat, tLParen, tLambda, tUnderscore, tLBracket, tBad:
		return !p.atBindingBoundary()
	}
	return false
}

func (p *parser) parseCombinator() Combinator {
	t := p.tok()
	if t.kind != tIdent || p.atBindingBoundary() {
		p.errorExpected("a combinator application such as map, filter or fold")
		return nil
	}
	kw := p.ident()
	var args []Expr
	for p.canStartArg() {
		var a Expr
		if p.tok().kind == tLambda {
			a = p.parseExpr()
		} else {
			a = p.parseAtom()
		}
		if a == nil {
			return nil
		}
		if deeperThan(a, MaxNesting) {
			// A chain of operators is built in a loop, so the parser's own count does not see
			// its depth; every later pass would recurse through it.
			p.errorf(a.Span(), "expression nested too deeply (more than %d levels)", MaxNesting)
			return nil
		}
		args = append(args, a)
	}
	return p.buildCombinator(kw, args)
}

// MapArity returns N for the combinator name mapN ("map" is map1), and false for other names.
func MapArity(name string) (int, bool) {
	if name == "map" {
		return 1, true
	}
	digits, ok := strings.CutPrefix(name, "map")
	if !ok || digits == "" || digits[0] == '0' || len(digits) > 4 {
		return 0, false
	}
	n, err := strconv.Atoi(digits)
	return n, err == nil && n >= 1
}

// notCombinators suggests the CNF spelling of familiar functions written on the right of a
// binding.
var notCombinators = map[string]string{
	"zipWith":     "use map2 f xs ys (both arrays must have the same size)",
	"zipWith3":    "use map3",
	"sum":         "use fold (+) 0 xs",
	"product":     "use fold (*) 1 xs",
	"minimum":     "use fold min z xs with a starting value z",
	"maximum":     "use fold max z xs with a starting value z",
	"foldl":       "use fold",
	"foldr":       "use fold",
	"reduce":      "use fold",
	"scanl":       "use postscanl (inclusive: element i includes xs ! i) or prescanl (exclusive)",
	"scanl1":      "use postscanl with a starting value",
	"scan":        "use postscanl (inclusive) or prescanl (exclusive)",
	"concat":      "use append xs ys",
	"splitAt":     "use take n xs and drop n xs",
	"enumerate":   "use indexed xs",
	"zip3":        "use map3 (\\x y z -> (x, y, z)) xs ys zs",
	"fst":         "use map fst ps, or unzip ps for both components",
	"index":       "use gather data indices",
	"backpermute": "use gather data indices",
}

func (p *parser) buildCombinator(kw *Ident, args []Expr) Combinator {
	call := Call{Keyword: kw, Args: args, Range: kw.Range}
	if len(args) > 0 {
		call.End = args[len(args)-1].Span().End
	}
	n := len(args)
	arity := func(format string, a ...any) Combinator {
		p.errorf(call.Range, format, a...)
		return nil
	}
	// The arity of every combinator but external and map_n is the table's (Accepts).
	tableArity := func() Combinator {
		info, _ := LookupCombinator(kw.Name)
		return arity("%s", info.ArityMessage(kw.Name, n))
	}
	accepts := func() bool {
		info, ok := LookupCombinator(kw.Name)
		return ok && info.Accepts(n)
	}
	array := func(e Expr, what string) *Ident {
		if id, ok := e.(*Ident); ok {
			return id
		}
		p.errorf(e.Span(), "expected an array name as %s of %s", what, kw.Name)
		return nil
	}
	switch kw.Name {
	case "fold":
		if !accepts() {
			return tableArity()
		}
		xs := array(args[n-1], "the last argument")
		if xs == nil {
			return nil
		}
		return &Fold{Call: call, Worker: worker(args[:n-2]), Init: args[n-2], Array: xs}
	case "filter":
		if !accepts() {
			return tableArity()
		}
		xs := array(args[n-1], "the last argument")
		if xs == nil {
			return nil
		}
		return &Filter{Call: call, Worker: worker(args[:n-1]), Array: xs}
	case "generate":
		if !accepts() {
			return tableArity()
		}
		if !p.countArg(args[0], "size", kw.Name) {
			return nil
		}
		return &Generate{Call: call, Size: args[0], Worker: worker(args[1:])}
	case "gather", "cross":
		if !accepts() {
			return tableArity()
		}
		a, b := array(args[0], "the first argument"), array(args[1], "the second argument")
		if a == nil || b == nil {
			return nil
		}
		if kw.Name == "gather" {
			return &Gather{Call: call, Data: a, Indices: b}
		}
		return &Cross{Call: call, A: a, B: b}
	case "postscanl", "prescanl":
		if !accepts() {
			return tableArity()
		}
		xs := array(args[n-1], "the last argument")
		if xs == nil {
			return nil
		}
		return &Scan{Call: call, Worker: worker(args[:n-2]), Init: args[n-2], Array: xs, Inclusive: kw.Name == "postscanl"}
	case "indexed", "unzip", "tail", "length", "reverse":
		if !accepts() {
			return tableArity()
		}
		xs := array(args[0], "the argument")
		if xs == nil {
			return nil
		}
		switch kw.Name {
		case "indexed":
			return &Indexed{Call: call, Array: xs}
		case "unzip":
			return &Unzip{Call: call, Array: xs}
		case "tail":
			return &Slice{Call: call, Start: &IntLit{Range: kw.Range, Value: 1}, Array: xs}
		case "length":
			return &Length{Call: call, Array: xs}
		}
		return &Reverse{Call: call, Array: xs}
	case "zip", "append":
		if !accepts() {
			return tableArity()
		}
		a, b := array(args[0], "the first argument"), array(args[1], "the second argument")
		if a == nil || b == nil {
			return nil
		}
		if kw.Name == "zip" {
			return &Zip{Call: call, A: a, B: b}
		}
		return &Append{Call: call, A: a, B: b}
	case "take", "drop", "slice":
		if !accepts() {
			return tableArity()
		}
		for k, a := range args[:n-1] {
			what := "count"
			if kw.Name == "slice" && k == 0 {
				what = "start"
			}
			if !p.countArg(a, what, kw.Name) {
				return nil
			}
		}
		xs := array(args[n-1], "the last argument")
		if xs == nil {
			return nil
		}
		switch kw.Name {
		case "take":
			return &Slice{Call: call, Count: args[0], Array: xs}
		case "drop":
			return &Slice{Call: call, Start: args[0], Array: xs}
		}
		return &Slice{Call: call, Start: args[0], Count: args[1], Array: xs}
	case "external":
		if n < 1 {
			return arity("external needs the name of a host function, as in `external f xs`")
		}
		fn, ok := args[0].(*Ident)
		if !ok {
			p.errorf(args[0].Span(), "external needs the name of a host function first")
			return nil
		}
		ext := &External{Call: call, Func: fn}
		for _, a := range args[1:] {
			id, ok := a.(*Ident)
			if !ok {
				p.errorf(a.Span(), "the arguments of external must be names of arrays or scalars")
				return nil
			}
			ext.Args = append(ext.Args, id)
		}
		return ext
	}
	if k, ok := MapArity(kw.Name); ok {
		if n < k+1 {
			return arity("%s needs a worker and %s, as in `%s`; it has %s", kw.Name, Plural(k, "array"), mapExample(kw.Name, k), Plural(n, "argument"))
		}
		m := &Map{Call: call, Worker: worker(args[:n-k])}
		for i, a := range args[n-k:] {
			id := array(a, fmt.Sprintf("argument %d", n-k+i+1))
			if id == nil {
				return nil
			}
			m.Arrays = append(m.Arrays, id)
		}
		return m
	}
	msg := fmt.Sprintf("%s is not a combinator: the right side of a binding must be a combinator application such as map, filter or fold", kw.Name)
	var fix Fix
	if p.boundHere(kw.Name) {
		// `d = s - t`, `ys = xs`: a name of the let (or a parameter) where a combinator
		// goes; not a host function, whatever its spelling.
		msg = fmt.Sprintf("%s is bound by this definition, not a combinator: the right side of a binding must be a combinator application such as map, filter or fold. "+
			"To compute with a scalar, do it inside a combinator's function, which may use any scalar the let binds (as in `map (\\x -> x - s) xs` for a scalar s); "+
			"to name %s again, use %s itself instead", kw.Name, kw.Name, kw.Name)
	} else if s, ok := notCombinators[kw.Name]; ok {
		msg += "; " + s
	} else if c := nearestCombinator(kw.Name); c != "" {
		msg += fmt.Sprintf(" (did you mean %s?)", c)
		fix = replaceWith(kw.Range, c, "change to "+c)
	} else {
		msg += fmt.Sprintf(" (to call the host function %s, write `external %s ...`)", kw.Name, kw.Name)
		fix = replaceWith(Range{kw.Start, kw.Start}, "external ", "call the host function: external "+kw.Name)
	}
	at := len(p.diags)
	p.errorf(kw.Range, "%s", msg)
	if fix.Title != "" {
		attachFixes(p.diags, at, fix)
	}
	return nil
}

// boundHere reports whether name is a parameter of the definition being parsed or a name
// bound by one of its bindings: those parsed so far, and those below (a line starting
// `name =`, `name, other =` or `(name, other) =`, up to the next definition).
func (p *parser) boundHere(name string) bool {
	if p.def == nil {
		return false
	}
	if p.namesOf != p.def {
		// Made once per definition: the bindings parsed so far and the lines below.
		p.namesOf, p.names = p.def, map[string]bool{}
		for _, id := range p.def.Params {
			p.names[id.Name] = true
		}
		for _, b := range p.def.Bindings {
			for _, id := range b.Names {
				p.names[id.Name] = true
			}
		}
		for i := p.i; i < len(p.toks) && p.toks[i].kind != tEOF && (i == p.i || !p.isTopStart(i)); i++ {
			if p.toks[i].first() {
				p.lineBinds(i)
			}
		}
	}
	return p.names[name]
}

// lineBinds adds to p.names the names before the `=` of the line starting at token i, if
// nothing but names, commas and parentheses come before it.
func (p *parser) lineBinds(i int) {
	var names []string
	for j := i; j < len(p.toks); j++ {
		t := p.toks[j]
		switch {
		case j > i && t.first():
			return
		case t.kind == tIdent:
			names = append(names, p.text(t))
		case t.kind == tEquals:
			for _, n := range names {
				p.names[n] = true
			}
			return
		case t.kind != tComma && t.kind != tLParen && t.kind != tRParen:
			return
		}
	}
}

// countArg checks a size, count or start argument (of generate, take, drop, slice): a scalar
// name or an integer literal.
func (p *parser) countArg(e Expr, what, kw string) bool {
	switch e.(type) {
	case *Ident, *IntLit:
		return true
	}
	p.errorf(e.Span(), "the %s given to %s must be a scalar name or an integer literal", what, kw)
	return false
}

// nearestCombinator returns the combinator keyword one or two edits away from a misspelling,
// or "".
func nearestCombinator(name string) string {
	limit := 1
	if len(name) > 5 {
		limit = 2
	}
	best, bestDist := "", limit+1
	for _, c := range Combinators {
		if c == "mapN" {
			continue
		}
		if d := editDistance(name, c); d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}

func mapExample(name string, k int) string {
	var b strings.Builder
	b.WriteString(name + " f")
	for i := 1; i <= k && i <= 3; i++ {
		fmt.Fprintf(&b, " xs%d", i)
	}
	if k > 3 {
		fmt.Fprintf(&b, " ... xs%d", k)
	}
	return b.String()
}

// Plural writes a count with its noun: "1 loop", "3 loops".
func Plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// worker joins the worker arguments of a combinator (a function and its scalar arguments)
// into one expression.
func worker(args []Expr) Expr {
	if len(args) == 1 {
		return args[0]
	}
	return &App{Range: Range{args[0].Span().Start, args[len(args)-1].Span().End}, Fun: args[0], Args: args[1:]}
}

// ---- worker expressions -------------------------------------------------------------------

type fixity struct {
	prec  int
	assoc byte // 'l', 'r' or 'n'
}

// fixities are Haskell's for the Prelude operators. Other operators and backticked functions
// get Haskell's default, infixl 9.
var fixities = map[string]fixity{
	".": {9, 'r'}, "!!": {9, 'l'},
	"^": {8, 'r'}, "^^": {8, 'r'}, "**": {8, 'r'},
	"*": {7, 'l'}, "/": {7, 'l'}, "div": {7, 'l'}, "mod": {7, 'l'}, "quot": {7, 'l'}, "rem": {7, 'l'},
	"+": {6, 'l'}, "-": {6, 'l'},
	"==": {4, 'n'}, "/=": {4, 'n'}, "<": {4, 'n'}, "<=": {4, 'n'}, ">": {4, 'n'}, ">=": {4, 'n'},
	"elem": {4, 'n'}, "notElem": {4, 'n'},
	"&&": {3, 'r'}, "||": {2, 'r'},
	"$": {0, 'r'},
}

var opAliases = map[string]string{"∘": ".", "≤": "<=", "≥": ">=", "≠": "/="}

func (p *parser) opAt(t token) *Op {
	text := p.text(t)
	op := &Op{Range: rng(t), Name: text}
	if t.kind == tBacktick {
		op.Name = strings.Trim(text, "`")
		op.Backtick = true
	} else if alias, ok := opAliases[text]; ok {
		op.Name = alias
	}
	return op
}

func fixityOf(op *Op) fixity {
	if f, ok := fixities[op.Name]; ok {
		return f
	}
	return fixity{9, 'l'}
}

func (p *parser) parseExpr() Expr {
	switch p.tok().kind {
	case tLambda, tIf:
		// A lambda's body and an if's branches nest: count them like parentheses.
		if !p.enter() {
			return nil
		}
		defer p.leave()
		if p.tok().kind == tLambda {
			return p.parseLambda()
		}
		return p.parseIf()
	}
	return p.parseOpExpr(0)
}

// atOperator reports whether the current token is an infix operator that continues the
// expression. An operator directly before ")" is a left section and ends the expression.
func (p *parser) atOperator() bool {
	t := p.tok()
	if t.kind != tOp && t.kind != tBacktick {
		return false
	}
	return p.peek(1).kind != tRParen
}

// parseOpExpr parses operators by precedence climbing. It is where every kind of nesting
// (parentheses, right-associative chains, negations, lambda bodies) passes once per level, so
// it is where nesting depth is counted.
func (p *parser) parseOpExpr(minPrec int) Expr {
	if !p.enter() {
		return nil
	}
	defer p.leave()
	var lhs Expr
	if t := p.tok(); t.kind == tOp && p.text(t) == "-" {
		p.next()
		x := p.parseOpExpr(7)
		if x == nil {
			return nil
		}
		lhs = &Neg{Range: Range{Pos(t.pos), x.Span().End}, X: x}
	} else {
		lhs = p.parseApp()
	}
	if lhs == nil {
		return nil
	}
	lastNonAssoc := -1
	for p.atOperator() {
		op := p.opAt(p.tok())
		fx := fixityOf(op)
		if fx.prec < minPrec {
			break
		}
		if fx.assoc == 'n' && lastNonAssoc == fx.prec {
			p.errorf(op.Range, "%s cannot follow another comparison without parentheses: write (a < b) && (b < c) or parenthesise", op.Name)
			return nil
		}
		p.next()
		next := fx.prec + 1
		if fx.assoc == 'r' {
			next = fx.prec
		}
		var rhs Expr
		switch p.tok().kind {
		case tLambda, tIf:
			rhs = p.parseExpr()
		default:
			rhs = p.parseOpExpr(next)
		}
		if rhs == nil {
			return nil
		}
		lhs = &Binary{Range: Range{lhs.Span().Start, rhs.Span().End}, Op: op, X: lhs, Y: rhs}
		if fx.assoc == 'n' {
			lastNonAssoc = fx.prec
		} else {
			lastNonAssoc = -1
		}
	}
	return lhs
}

func (p *parser) parseApp() Expr {
	fun := p.parseAtom()
	if fun == nil {
		return nil
	}
	var args []Expr
	for p.canStartArg() {
		if p.tok().kind == tLambda {
			a := p.parseExpr()
			if a == nil {
				return nil
			}
			args = append(args, a)
			break
		}
		a := p.parseAtom()
		if a == nil {
			return nil
		}
		args = append(args, a)
	}
	if len(args) == 0 {
		return fun
	}
	return &App{Range: Range{fun.Span().Start, args[len(args)-1].Span().End}, Fun: fun, Args: args}
}

func (p *parser) parseAtom() Expr {
	t := p.tok()
	if p.atBindingBoundary() && t.kind != tIn && t.kind != tSemi && t.kind != tEOF && t.kind != tRBrace {
		p.errorExpected("an expression")
		return nil
	}
	switch t.kind {
	case tIdent:
		id := p.ident()
		switch id.Name {
		case "True":
			return &BoolLit{Range: id.Range, Value: true}
		case "False":
			return &BoolLit{Range: id.Range, Value: false}
		}
		return id
	case tInt:
		p.next()
		v, err := strconv.ParseInt(strings.ReplaceAll(p.text(t), "_", ""), 10, 64)
		if err != nil {
			p.errorf(rng(t), "integer literal %s does not fit in 64 bits", p.text(t))
			return nil
		}
		return &IntLit{Range: rng(t), Value: v}
	case tFloat:
		p.next()
		v, err := strconv.ParseFloat(strings.ReplaceAll(p.text(t), "_", ""), 64)
		if err != nil {
			p.errorf(rng(t), "number %s is out of range", p.text(t))
			return nil
		}
		return &FloatLit{Range: rng(t), Value: v}
	case tLParen:
		return p.parseParen()
	case tBad:
		p.next()
		if p.def != nil {
			p.def.Broken = true
		}
		return &BadExpr{Range: rng(t)}
	case tLambda, tIf:
		return p.parseExpr()
	case tUnderscore:
		p.errorf(rng(t), "_ can only stand for an ignored lambda parameter")
		return nil
	case tLBracket:
		p.errorf(rng(t), "lists are not part of CNF: arrays are passed to combinators by name")
		return nil
	case tLet:
		p.errorf(rng(t), "let can only start the body of a definition")
		return nil
	}
	p.errorExpected("an expression")
	return nil
}

func (p *parser) parseParen() Expr {
	open := p.tok()
	p.next()
	closeParen := func() bool {
		if p.tok().kind != tRParen {
			p.errorExpected(fmt.Sprintf(") to close the ( at %s", p.where(Pos(open.pos))))
			return false
		}
		p.next()
		return true
	}
	t := p.tok()
	switch {
	case t.kind == tRParen:
		p.next()
		return &Tuple{Range: Range{Pos(open.pos), p.lastEnd}}
	case t.kind == tComma:
		// A tuple constructor, (,) or (,,) ...: a host function.
		name := "("
		for p.tok().kind == tComma {
			name += ","
			p.next()
		}
		if !closeParen() {
			return nil
		}
		return &Ident{Range: Range{Pos(open.pos), p.lastEnd}, Name: name + ")"}
	case (t.kind == tOp || t.kind == tBacktick) && p.peek(1).kind == tRParen:
		op := p.opAt(t)
		p.next()
		p.next()
		return &Section{Range: Range{Pos(open.pos), p.lastEnd}, Op: op}
	case t.kind == tBacktick || t.kind == tOp && p.text(t) != "-":
		op := p.opAt(t)
		p.next()
		y := p.parseExpr()
		if y == nil || !closeParen() {
			return nil
		}
		return &Section{Range: Range{Pos(open.pos), p.lastEnd}, Op: op, Y: y}
	}
	first := p.parseExpr()
	if first == nil {
		return nil
	}
	if t := p.tok(); (t.kind == tOp || t.kind == tBacktick) && p.peek(1).kind == tRParen {
		op := p.opAt(t)
		p.next()
		p.next()
		return &Section{Range: Range{Pos(open.pos), p.lastEnd}, Op: op, X: first}
	}
	if p.tok().kind == tComma {
		elems := []Expr{first}
		for p.tok().kind == tComma {
			p.next()
			e := p.parseExpr()
			if e == nil {
				return nil
			}
			elems = append(elems, e)
		}
		if !closeParen() {
			return nil
		}
		return &Tuple{Range: Range{Pos(open.pos), p.lastEnd}, Elems: elems}
	}
	if !closeParen() {
		return nil
	}
	return &Paren{Range: Range{Pos(open.pos), p.lastEnd}, X: first}
}

func (p *parser) parseLambda() Expr {
	start := p.tok()
	p.next()
	var params []Pattern
	for p.tok().kind != tArrow {
		pat := p.parsePattern()
		if pat == nil {
			return nil
		}
		params = append(params, pat)
	}
	if len(params) == 0 {
		p.errorf(rng(p.tok()), "a lambda needs at least one parameter before ->")
		return nil
	}
	p.next() // ->
	body := p.parseExpr()
	if body == nil {
		return nil
	}
	return &Lambda{Range: Range{Pos(start.pos), body.Span().End}, Params: params, Body: body}
}

func (p *parser) parsePattern() Pattern {
	t := p.tok()
	switch {
	case t.kind == tIdent && !p.atBindingBoundary():
		return p.ident()
	case t.kind == tUnderscore:
		p.next()
		return &Wildcard{Range: rng(t)}
	case t.kind == tLParen:
		if !p.enter() {
			return nil
		}
		defer p.leave()
		p.next()
		var elems []Pattern
		for {
			e := p.parsePattern()
			if e == nil {
				return nil
			}
			elems = append(elems, e)
			if p.tok().kind != tComma {
				break
			}
			p.next()
		}
		if p.tok().kind != tRParen {
			p.errorExpected(fmt.Sprintf(") to close the pattern that starts at %s", p.where(Pos(t.pos))))
			return nil
		}
		p.next()
		if len(elems) == 1 {
			return elems[0]
		}
		return &TuplePattern{Range: Range{Pos(t.pos), p.lastEnd}, Elems: elems}
	}
	p.errorExpected("a lambda parameter (a name, _ or a tuple pattern) or ->")
	return nil
}

func (p *parser) parseIf() Expr {
	start := p.tok()
	p.next()
	cond := p.parseExpr()
	if cond == nil {
		return nil
	}
	if p.tok().kind != tThen {
		p.errorExpected("then")
		return nil
	}
	p.next()
	th := p.parseExpr()
	if th == nil {
		return nil
	}
	if p.tok().kind != tElse {
		p.errorExpected("else")
		return nil
	}
	p.next()
	el := p.parseExpr()
	if el == nil {
		return nil
	}
	return &If{Range: Range{Pos(start.pos), el.Span().End}, Cond: cond, Then: th, Else: el}
}
