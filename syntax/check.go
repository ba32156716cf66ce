package syntax

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Kind says whether a name denotes an array or a scalar.
type Kind uint8

const (
	Unknown Kind = iota // not yet known (a parameter or external output before its uses are seen)
	Scalar
	Array
)

func (k Kind) String() string {
	switch k {
	case Scalar:
		return "scalar"
	case Array:
		return "array"
	}
	return "unknown"
}

// Symbol is a name bound by a definition: a parameter or a binder.
type Symbol struct {
	Name    string
	Kind    Kind
	Decl    *Ident   // the parameter or binder occurrence
	Param   int      // index among the parameters, or -1 for a binder
	Binding *Binding // the binding that defines it; nil for a parameter
	Uses    []*Ident // every occurrence that refers to it, in source order
}

// Inputs are the names a binding reads, each once, in order of first occurrence.
type Inputs struct {
	Arrays  []*Symbol // arrays in array positions (for external: the array arguments)
	Scalars []*Symbol // scalars: free variables of workers, generate's size, scalar arguments of external
}

// Func is a checked definition: its symbols, every resolved name, the inputs of each binding
// and an order of the bindings in which each comes after the bindings it reads.
type Func struct {
	File    *File // the file the definition is in
	Def     *Definition
	Sig     *Signature // nil without a signature
	Params  []*Symbol
	Results []*Symbol // one per result name; nil where the name is not bound
	Symbols map[string]*Symbol
	Refs    map[*Ident]*Symbol // binders, parameters and uses
	Hosts   []*Ident           // names of host functions: free names in workers, external functions
	Inputs  map[*Binding]*Inputs
	Order   []*Binding // dependency order (source order among independent bindings)
	Valid   bool       // no syntax or name errors: later stages may analyse it
}

// Binding returns the binding that binds name, or nil.
func (fn *Func) Binding(name string) *Binding {
	if s := fn.Symbols[name]; s != nil {
		return s.Binding
	}
	return nil
}

// ParamType returns the type the signature declares for the i-th parameter, or nil (no
// signature, or one whose parameters do not match the definition's).
func (fn *Func) ParamType(i int) Type {
	if fn.Sig == nil {
		return nil
	}
	ft, ok := fn.Sig.Type.(*FuncType)
	if !ok || len(ft.Params) != len(fn.Def.Params) || i < 0 || i >= len(ft.Params) {
		return nil
	}
	return ft.Params[i]
}

// Program is a parsed and checked file.
type Program struct {
	File        *File
	Funcs       []*Func // one per definition, in source order
	Diagnostics []Diagnostic
}

// Func returns the checked definition called name, or nil.
func (p *Program) Func(name string) *Func {
	for _, fn := range p.Funcs {
		if fn.Def.Name.Name == name {
			return fn
		}
	}
	return nil
}

// Analyze parses and checks a source file: syntax, names, array/scalar kinds, combinator
// arities, signatures, cycles and unused names. Diagnostics are sorted by position.
func Analyze(name string, src []byte) *Program {
	f, diags := Parse(name, src)
	prog := Check(f)
	prog.Diagnostics = SortDiagnostics(append(diags, prog.Diagnostics...))
	return prog
}

// Check resolves names and checks every definition of a parsed file. A definition with syntax
// errors is checked as far as it parsed (a binding that did not parse still binds its names, so
// errors do not cascade), without unused-name warnings.
func Check(f *File) *Program {
	prog := &Program{File: f}
	c := &checker{file: f}
	sigs := map[string]*Signature{}
	defs := map[string]*Definition{}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *Signature:
			if prev := sigs[d.Name.Name]; prev != nil {
				c.errorf(d.Name.Range, CodeDuplicate, []Related{{prev.Name.Range, "the first signature"}},
					"%s has a second signature", d.Name.Name)
				continue
			}
			sigs[d.Name.Name] = d
		case *Definition:
			if prev := defs[d.Name.Name]; prev != nil {
				c.errorf(d.Name.Range, CodeDuplicate, []Related{{prev.Name.Range, "the first definition"}},
					"%s is defined twice", d.Name.Name)
				continue
			}
			defs[d.Name.Name] = d
		}
	}
	// A signature without a definition declares a host function (distance :: Point -> Float),
	// which compiled code calls in C. Only a near miss of a definition that has no signature
	// is worth a word: a misspelt signature would otherwise quietly declare a host function.
	for _, d := range f.Decls {
		s, ok := d.(*Signature)
		if !ok || defs[s.Name.Name] != nil || sigs[s.Name.Name] != s {
			continue
		}
		for _, d := range f.Decls {
			def, ok := d.(*Definition)
			if !ok || def.Name == nil {
				continue
			}
			name := def.Name.Name
			if sigs[name] == nil && len(name) > 2 && editDistance(name, s.Name.Name) <= 2 {
				c.report(Warning, s.Name.Range, CodeSignature, []Related{{def.Name.Range, "the definition " + name}},
					"%s has no definition, so this signature declares a host function; is it the signature of %s?", s.Name.Name, name)
				break
			}
		}
	}
	c.hosts = map[string]*Signature{}
	for name, sig := range sigs {
		if defs[name] == nil {
			c.hosts[name] = sig
		}
	}
	for _, def := range f.Definitions() {
		sig := sigs[def.Name.Name]
		if defs[def.Name.Name] != def {
			sig = nil
		}
		prog.Funcs = append(prog.Funcs, c.checkDef(def, sig))
	}
	prog.Diagnostics = c.diags
	return prog
}

type checker struct {
	file  *File
	diags []Diagnostic
	// hosts are the signatures without a definition: host functions.
	hosts map[string]*Signature
}

func (c *checker) report(sev Severity, r Range, code string, related []Related, format string, args ...any) {
	c.diags = append(c.diags, Diagnostic{Range: r, Severity: sev, Code: code, Message: fmt.Sprintf(format, args...), Related: related})
}

func (c *checker) errorf(r Range, code string, related []Related, format string, args ...any) {
	c.report(Error, r, code, related, format, args...)
}

// demand records that a name occurrence needs a symbol of some kind.
type demand struct {
	sym  *Symbol
	id   *Ident
	want Kind // Unknown: any kind (arguments of external)
	b    *Binding
	role string // what needs it, for messages: "filter", "the data argument of gather", ...
}

// defChecker holds the state of checking one definition.
type defChecker struct {
	*checker
	fn       *Func
	demands  []demand
	arityBad map[*Binding]bool
	broken   bool // the definition has syntax errors: uses may sit in the parts that did not parse
	errs     int
	// resultTypesOnce holds resultTypes' answer once computed (it reports a mismatch, which
	// must happen once).
	resultTypesOnce *[]Type
	// suggested counts the undefined names given a suggestion (each a scan of every name
	// bound): past maxSuggestions, a definition with thousands of them would take minutes.
	suggested int
}

// maxSuggestions is how many undefined names of one definition get a "did you mean".
const maxSuggestions = 100

func (d *defChecker) errorf(r Range, code string, related []Related, format string, args ...any) {
	d.errs++
	d.checker.errorf(r, code, related, format, args...)
}

// warnf reports a warning, except in a definition with syntax errors, where a name may look
// unused only because its use did not parse.
func (d *defChecker) warnf(r Range, code string, format string, args ...any) {
	if !d.broken {
		d.report(Warning, r, code, nil, format, args...)
	}
}

func (c *checker) checkDef(def *Definition, sig *Signature) *Func {
	fn := &Func{File: c.file, Def: def, Sig: sig, Symbols: map[string]*Symbol{}, Refs: map[*Ident]*Symbol{}, Inputs: map[*Binding]*Inputs{}}
	d := &defChecker{checker: c, fn: fn, arityBad: map[*Binding]bool{}, broken: def.Broken}
	d.declare()
	d.applySignature()
	for _, b := range def.Bindings {
		d.collect(b)
	}
	d.resolveKinds()
	d.checkArity()
	d.checkDemands()
	d.results()
	d.unused()
	d.order()
	fn.Valid = !def.Broken && d.errs == 0
	return fn
}

func (d *defChecker) declare() {
	fn, def := d.fn, d.fn.Def
	add := func(id *Ident, s *Symbol) {
		if IsCombinator(id.Name) {
			d.errorf(id.Range, CodeDuplicate, nil, "%s is a combinator and cannot be used as a name", id.Name)
		}
		if prev := fn.Symbols[id.Name]; prev != nil {
			what := "was bound here"
			if prev.Param >= 0 {
				what = fmt.Sprintf("is a parameter of %s", def.Name.Name)
			}
			d.errorf(id.Range, CodeDuplicate, []Related{{prev.Decl.Range, fmt.Sprintf("%s %s", id.Name, what)}},
				"%s is already bound", id.Name)
			fn.Refs[id] = prev
			return
		}
		fn.Symbols[id.Name] = s
		fn.Refs[id] = s
	}
	for i, p := range def.Params {
		s := &Symbol{Name: p.Name, Decl: p, Param: i}
		fn.Params = append(fn.Params, s)
		add(p, s)
	}
	for _, b := range def.Bindings {
		kind := Unknown
		switch b.Rhs.(type) {
		case *Fold, *Length:
			kind = Scalar
		case *External, nil:
		default:
			kind = Array
		}
		switch b.Rhs.(type) {
		case *External, nil:
		case *Unzip:
			if len(b.Names) != 2 {
				d.errorf(b.Names[0].Range, CodeArity, nil, "unzip binds two names, the first and the second components: `(as, bs) = unzip ps`; this binds %s", Plural(len(b.Names), "name"))
			}
		default:
			if len(b.Names) > 1 {
				d.errorf(b.Names[1].Range, CodeArity, nil, "only external and unzip can bind several names; %s binds one", CallOf(b.Rhs).Keyword.Name)
			}
		}
		for _, id := range b.Names {
			add(id, &Symbol{Name: id.Name, Kind: kind, Decl: id, Param: -1, Binding: b})
		}
	}
}

// applySignature takes parameter kinds from the signature and checks its shape.
func (d *defChecker) applySignature() {
	fn, def, sig := d.fn, d.fn.Def, d.fn.Sig
	if sig == nil || sig.Type == nil {
		return
	}
	params, result := []Type(nil), sig.Type
	if ft, ok := sig.Type.(*FuncType); ok {
		params, result = ft.Params, ft.Result
	}
	if len(params) != len(def.Params) {
		d.errorf(sig.Range, CodeSignature, []Related{{def.Name.Range, "the definition"}},
			"the signature of %s has %s, but the definition has %s", def.Name.Name,
			Plural(len(params), "parameter"), Plural(len(def.Params), "parameter"))
		return
	}
	for i, t := range params {
		if s := fn.Params[i]; fn.Symbols[s.Name] == s {
			s.Kind = kindOfType(t)
		}
	}
	_ = result // results are checked in results(), once kinds are known
}

func kindOfType(t Type) Kind {
	if _, ok := t.(*ArrayType); ok {
		return Array
	}
	return Scalar
}

// resultTypes returns the signature's type for each result, or nil when it does not fit (and
// says so, once).
func (d *defChecker) resultTypes() []Type {
	if d.resultTypesOnce == nil {
		types := d.matchResultTypes()
		d.resultTypesOnce = &types
	}
	return *d.resultTypesOnce
}

func (d *defChecker) matchResultTypes() []Type {
	sig, def := d.fn.Sig, d.fn.Def
	if sig == nil || sig.Type == nil || def.BadResults {
		return nil // a result the parser reported is missing: nothing to match by position
	}
	res := sig.Type
	if ft, ok := res.(*FuncType); ok {
		if len(ft.Params) != len(def.Params) {
			return nil
		}
		res = ft.Result
	}
	if len(def.Results) == 1 {
		return []Type{res}
	}
	if tt, ok := res.(*TupleType); ok && len(tt.Elems) == len(def.Results) {
		return tt.Elems
	}
	if len(def.Results) > 0 {
		d.errorf(res.Span(), CodeSignature, nil, "the signature of %s gives %s, but the definition returns %s",
			def.Name.Name, describeResultType(res), Plural(len(def.Results), "result"))
	}
	return nil
}

func describeResultType(t Type) string {
	if tt, ok := t.(*TupleType); ok {
		return Plural(len(tt.Elems), "result")
	}
	return "1 result"
}

func (d *defChecker) lookup(id *Ident) *Symbol {
	s := d.fn.Symbols[id.Name]
	if s != nil {
		d.fn.Refs[id] = s
		s.Uses = append(s.Uses, id)
	}
	return s
}

// suggest proposes a bound name one or two edits away from an undefined one. Ties go to a
// name of the wanted kind, then to one of the same length (a changed letter is the likeliest
// typo), then alphabetically.
func (d *defChecker) suggest(name string, want Kind) string {
	limit := 1 // a typo in a short name: one edit
	if len(name) > 4 {
		limit = 2
	}
	type cand struct {
		name             string
		dist, kind, size int
	}
	var best *cand
	for other, s := range d.fn.Symbols {
		c := cand{name: other, dist: editDistance(name, other)}
		if c.dist > limit {
			continue
		}
		if want != Unknown && s.Kind != Unknown && s.Kind != want {
			c.kind = 1
		}
		c.size = abs(len(other) - len(name))
		if best == nil || c.dist < best.dist ||
			c.dist == best.dist && (c.kind < best.kind ||
				c.kind == best.kind && (c.size < best.size || c.size == best.size && c.name < best.name)) {
			best = &c
		}
	}
	if best == nil {
		return ""
	}
	return best.name
}

// unbound reports an undefined name (what is "x" or "the result x"), suggesting a bound name
// one or two edits away, with a quick fix to it.
func (d *defChecker) unbound(id *Ident, want Kind, what string) {
	s := ""
	if d.suggested < maxSuggestions {
		d.suggested++
		s = d.suggest(id.Name, want)
	}
	if s == "" {
		d.errorf(id.Range, CodeUnbound, nil, "%s is not defined", what)
		return
	}
	n := len(d.checker.diags)
	d.errorf(id.Range, CodeUnbound, nil, "%s is not defined (did you mean %s?)", what, s)
	attachFixes(d.checker.diags, n, replaceWith(id.Range, s, "change to "+s))
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// need resolves a name that must be bound by the definition and records what it must be.
func (d *defChecker) need(b *Binding, id *Ident, want Kind, role string) *Symbol {
	s := d.lookup(id)
	if s == nil {
		d.unbound(id, want, id.Name)
		return nil
	}
	d.demands = append(d.demands, demand{sym: s, id: id, want: want, b: b, role: role})
	return s
}

func (d *defChecker) collect(b *Binding) {
	in := &Inputs{}
	d.fn.Inputs[b] = in
	addArray := func(s *Symbol) {
		if s != nil && !slices.Contains(in.Arrays, s) {
			in.Arrays = append(in.Arrays, s)
		}
	}
	addScalar := func(s *Symbol) {
		if s != nil && !slices.Contains(in.Scalars, s) {
			in.Scalars = append(in.Scalars, s)
		}
	}
	workerVars := func(e Expr, role string) {
		d.freeVars(e, nil, func(id *Ident) {
			if d.fn.Symbols[id.Name] == nil {
				d.fn.Hosts = append(d.fn.Hosts, id)
				return
			}
			addScalar(d.need(b, id, Scalar, role))
		})
	}
	switch r := b.Rhs.(type) {
	case *Fold:
		workerVars(r.Worker, "the worker of fold")
		workerVars(r.Init, "the starting value of fold")
		addArray(d.need(b, r.Array, Array, "fold"))
	case *Map:
		workerVars(r.Worker, "the worker of "+r.Keyword.Name)
		for _, a := range r.Arrays {
			addArray(d.need(b, a, Array, r.Keyword.Name))
		}
	case *Filter:
		workerVars(r.Worker, "the predicate of filter")
		addArray(d.need(b, r.Array, Array, "filter"))
	case *Generate:
		if id, ok := r.Size.(*Ident); ok {
			addScalar(d.need(b, id, Scalar, "the size of generate"))
		}
		workerVars(r.Worker, "the worker of generate")
	case *Gather:
		addArray(d.need(b, r.Data, Array, "the data argument of gather"))
		addArray(d.need(b, r.Indices, Array, "the index argument of gather"))
	case *Cross:
		addArray(d.need(b, r.A, Array, "cross"))
		addArray(d.need(b, r.B, Array, "cross"))
	case *Scan:
		kw := r.Keyword.Name
		workerVars(r.Worker, "the worker of "+kw)
		workerVars(r.Init, "the starting value of "+kw)
		addArray(d.need(b, r.Array, Array, kw))
	case *Slice:
		for _, e := range []Expr{r.Start, r.Count} {
			if id, ok := e.(*Ident); ok {
				addScalar(d.need(b, id, Scalar, "the count of "+r.Keyword.Name))
			}
		}
		addArray(d.need(b, r.Array, Array, r.Keyword.Name))
	case *Zip:
		addArray(d.need(b, r.A, Array, "zip"))
		addArray(d.need(b, r.B, Array, "zip"))
	case *Append:
		addArray(d.need(b, r.A, Array, "append"))
		addArray(d.need(b, r.B, Array, "append"))
	case *Indexed:
		addArray(d.need(b, r.Array, Array, "indexed"))
	case *Unzip:
		addArray(d.need(b, r.Array, Array, "unzip"))
	case *Length:
		addArray(d.need(b, r.Array, Array, "length"))
	case *Reverse:
		addArray(d.need(b, r.Array, Array, "reverse"))
	case *External:
		if s := d.fn.Symbols[r.Func.Name]; s != nil {
			d.errorf(r.Func.Range, CodeKind, []Related{{s.Decl.Range, r.Func.Name + " is bound here"}},
				"external needs the name of a host function, but %s is bound by %s", r.Func.Name, d.fn.Def.Name.Name)
		} else {
			d.fn.Hosts = append(d.fn.Hosts, r.Func)
		}
		for _, a := range r.Args {
			d.need(b, a, Unknown, "external")
		}
	}
}

// externalInputs splits the arguments of an external by kind, once kinds are resolved.
func (d *defChecker) externalInputs() {
	for _, b := range d.fn.Def.Bindings {
		r, ok := b.Rhs.(*External)
		if !ok {
			continue
		}
		in := d.fn.Inputs[b]
		for _, a := range r.Args {
			s := d.fn.Symbols[a.Name]
			if s == nil {
				continue
			}
			if s.Kind == Scalar {
				if !slices.Contains(in.Scalars, s) {
					in.Scalars = append(in.Scalars, s)
				}
			} else if !slices.Contains(in.Arrays, s) {
				in.Arrays = append(in.Arrays, s)
			}
		}
	}
}

// freeVars calls f for each variable of e not bound by an enclosing lambda, and records the
// host functions written as backticked operators.
func (d *defChecker) freeVars(e Expr, bound map[string]bool, f func(*Ident)) {
	switch e := e.(type) {
	case *Ident:
		if !bound[e.Name] {
			f(e)
		}
		return
	case *Binary:
		if e.Op.Backtick && !bound[e.Op.Name] && d.fn.Symbols[e.Op.Name] == nil {
			d.fn.Hosts = append(d.fn.Hosts, &Ident{Range: e.Op.Range, Name: e.Op.Name})
		}
	case *Lambda:
		inner := make(map[string]bool, len(bound)+len(e.Params))
		for k := range bound {
			inner[k] = true
		}
		// A name bound twice by one lambda (\x x -> x) is an error, as in Haskell ("conflicting
		// definitions"): which of the two the body means would be a guess, and the stages once
		// guessed differently. _ may repeat.
		// A lambda binds a handful of names: a scan, not a map, on this per-keystroke path.
		var binders []*Ident
		for _, p := range e.Params {
			PatternNames(p, func(id *Ident) {
				i := slices.IndexFunc(binders, func(b *Ident) bool { return b.Name == id.Name })
				if i >= 0 && id.Name != "_" {
					d.errorf(id.Range, CodeDuplicate, []Related{{binders[i].Range, id.Name + " is bound here"}},
						"%s is bound twice by this lambda; give each parameter its own name (or _ for one that is not used)", id.Name)
				}
				binders = append(binders, id)
				inner[id.Name] = true
			})
		}
		d.freeVars(e.Body, inner, f)
		return
	}
	for x := range Subexprs(e) {
		d.freeVars(x, bound, f)
	}
}

// resolveKinds gives parameters without a signature, and outputs of externals, the kind their
// uses demand; a use of the other kind is an error (reported in checkDemands).
func (d *defChecker) resolveKinds() {
	// An array position is certain evidence (the combinator's arity puts an array there); a
	// name inside a worker may be a mistake. So a name used in any array position is an array,
	// and its uses in workers are the errors.
	for _, dm := range d.demands {
		if dm.sym.Kind == Unknown && dm.want == Array {
			dm.sym.Kind = Array
		}
	}
	for _, dm := range d.demands {
		if dm.sym.Kind == Unknown && dm.want == Scalar {
			dm.sym.Kind = Scalar
		}
	}
	// External outputs that no combinator reads take their kind from the signature, else array.
	types := d.resultTypes()
	for i, id := range d.fn.Def.Results {
		if s := d.fn.Symbols[id.Name]; s != nil && s.Kind == Unknown && types != nil {
			s.Kind = kindOfType(types[i])
		}
	}
	d.hostResultKinds()
	for _, s := range d.fn.Symbols {
		if s.Kind == Unknown {
			s.Kind = Array
		}
	}
	d.externalInputs()
}

// hostResultKinds gives the outputs of an external whose host function has a signature (and
// that nothing else decided) the kinds the signature's result says: recurse :: Array Point ->
// Float makes `d = external recurse ps` a scalar; a tuple result gives one kind per name.
func (d *defChecker) hostResultKinds() {
	for _, b := range d.fn.Def.Bindings {
		ext, ok := b.Rhs.(*External)
		if !ok || ext.Func == nil || d.hosts[ext.Func.Name] == nil {
			continue
		}
		t := d.hosts[ext.Func.Name].Type
		if ft, ok := t.(*FuncType); ok {
			if len(ft.Params) != len(ext.Args) {
				continue // the type checker says what is wrong
			}
			t = ft.Result
		} else if len(ext.Args) > 0 {
			continue
		}
		results := []Type{t}
		if tt, ok := t.(*TupleType); ok && len(b.Names) > 1 {
			results = tt.Elems
		}
		if len(results) != len(b.Names) {
			continue
		}
		for i, id := range b.Names {
			if s := d.fn.Symbols[id.Name]; s != nil && s.Kind == Unknown && results[i] != nil {
				s.Kind = kindOfType(results[i])
			}
		}
	}
}

// checkArity reports mapN applied to the wrong number of arrays. The parser takes the last N
// arguments as the arrays; with kinds known, a run of arrays of another length is explained
// as such instead of as a kind error.
func (d *defChecker) checkArity() {
	for _, b := range d.fn.Def.Bindings {
		m, ok := b.Rhs.(*Map)
		if !ok {
			continue
		}
		n := len(m.Arrays)
		var run []string
		for i := len(m.Args) - 1; i >= 1; i-- {
			id, ok := m.Args[i].(*Ident)
			if !ok {
				break
			}
			s := d.fn.Symbols[id.Name]
			if s == nil || s.Kind != Array {
				break
			}
			run = append([]string{id.Name}, run...)
		}
		switch {
		case len(run) > n:
			suggestion := fmt.Sprintf("map%d", len(run))
			d.errorf(m.Range, CodeArity, nil, "%s takes %s, but is applied to %d (%s): use %s",
				m.Keyword.Name, Plural(n, "array"), len(run), strings.Join(run, ", "), suggestion)
			d.arityBad[b] = true
		case len(run) < n && len(run) > 0:
			d.errorf(m.Range, CodeArity, nil, "%s takes %s, but is applied to %d (%s)",
				m.Keyword.Name, Plural(n, "array"), len(run), strings.Join(run, ", "))
			d.arityBad[b] = true
		}
	}
}

func (d *defChecker) checkDemands() {
	firstUse := map[*Symbol]demand{}
	for _, dm := range d.demands {
		if dm.want == Unknown || d.arityBad[dm.b] {
			continue
		}
		s := dm.sym
		if s.Kind == dm.want {
			if _, seen := firstUse[s]; !seen {
				firstUse[s] = dm
			}
			continue
		}
		var related []Related
		origin := d.origin(s)
		if first, ok := firstUse[s]; ok && s.Binding == nil && d.fn.Sig == nil {
			related = append(related, Related{first.id.Range, fmt.Sprintf("%s is used as %s here", s.Name, article(s.Kind))})
		} else {
			related = append(related, Related{s.Decl.Range, origin})
		}
		switch dm.want {
		case Array:
			d.errorf(dm.id.Range, CodeKind, related, "%s needs an array here, but %s is a scalar", dm.role, s.Name)
		case Scalar:
			if strings.HasPrefix(dm.role, "the size") {
				d.errorf(dm.id.Range, CodeKind, related, "%s must be a scalar, but %s is an array", dm.role, s.Name)
			} else {
				d.errorf(dm.id.Range, CodeKind, related,
					"%s can only use scalars, but %s is an array: arrays are passed to a combinator as its array arguments", dm.role, s.Name)
			}
		}
	}
}

func article(k Kind) string {
	if k == Array {
		return "an array"
	}
	return "a scalar"
}

// origin says where a symbol's kind comes from, for related information.
func (d *defChecker) origin(s *Symbol) string {
	if s.Binding == nil {
		if d.fn.Sig != nil {
			return fmt.Sprintf("the signature makes %s %s", s.Name, article(s.Kind))
		}
		return fmt.Sprintf("%s is a parameter", s.Name)
	}
	if s.Binding.Rhs == nil {
		return s.Name + " is bound here"
	}
	return fmt.Sprintf("%s is %s: the result of %s", s.Name, article(s.Kind), CallOf(s.Binding.Rhs).Keyword.Name)
}

func (d *defChecker) results() {
	def := d.fn.Def
	types := d.resultTypes()
	for i, id := range def.Results {
		s := d.lookup(id)
		d.fn.Results = append(d.fn.Results, s)
		if s == nil {
			d.unbound(id, Unknown, "the result "+id.Name)
			continue
		}
		if types != nil {
			if want := kindOfType(types[i]); want != s.Kind {
				d.errorf(id.Range, CodeSignature, []Related{{types[i].Span(), "the type in the signature"}},
					"the signature says %s returns %s here, but %s is %s", def.Name.Name, article(want), s.Name, article(s.Kind))
			}
		}
	}
}

func (d *defChecker) unused() {
	var counts map[string]int
	bound := func() map[string]int {
		if counts == nil {
			counts = timesBound(d.fn.Def)
		}
		return counts
	}
	for _, p := range d.fn.Params {
		if d.fn.Symbols[p.Name] == p && len(p.Uses) == 0 && !strings.HasPrefix(p.Name, "_") {
			n := len(d.checker.diags)
			d.warnf(p.Decl.Range, CodeUnused, "parameter %s is never used", p.Name)
			if fix, ok := renameUnused(p.Decl, bound()); ok {
				attachFixes(d.checker.diags, n, fix)
			}
		}
	}
	for k, b := range d.fn.Def.Bindings {
		for _, id := range b.Names {
			s := d.fn.Symbols[id.Name]
			if s != nil && s.Decl == id && len(s.Uses) == 0 && !strings.HasPrefix(id.Name, "_") {
				n := len(d.checker.diags)
				d.warnf(id.Range, CodeUnused, "%s is never used", id.Name)
				if fix, ok := removeBinding(d.checker.file.Src, d.fn.Def, k, bound()); ok {
					attachFixes(d.checker.diags, n, fix)
				}
			}
		}
	}
}

// order sorts the bindings so that each comes after the bindings it reads, keeping source
// order where there is a choice, and reports cycles.
func (d *defChecker) order() {
	bs := d.fn.Def.Bindings
	index := map[*Binding]int{}
	for i, b := range bs {
		index[b] = i
	}
	deps := make([][]int, len(bs))
	for _, dm := range d.demands {
		if dm.sym.Binding != nil {
			i, j := index[dm.b], index[dm.sym.Binding]
			deps[i] = append(deps[i], j)
		}
	}
	for i := range deps {
		sort.Ints(deps[i])
	}
	for _, scc := range tarjan(deps) {
		if len(scc) == 1 && !hasEdge(deps, scc[0], scc[0]) {
			continue
		}
		d.reportCycle(scc, deps)
	}
	// Depth-first post-order over dependencies, visiting bindings in source order.
	state := make([]uint8, len(bs))
	var visit func(int)
	visit = func(i int) {
		if state[i] != 0 {
			return
		}
		state[i] = 1
		for _, j := range deps[i] {
			visit(j)
		}
		state[i] = 2
		d.fn.Order = append(d.fn.Order, bs[i])
	}
	for i := range bs {
		visit(i)
	}
}

func hasEdge(deps [][]int, i, j int) bool {
	for _, k := range deps[i] {
		if k == j {
			return true
		}
	}
	return false
}

func (d *defChecker) reportCycle(scc []int, deps [][]int) {
	bs := d.fn.Def.Bindings
	in := map[int]bool{}
	start := scc[0]
	for _, i := range scc {
		in[i] = true
		if i < start {
			start = i
		}
	}
	// A shortest cycle through the first binding in source order: breadth-first along "uses"
	// edges until an edge leads back to start. prev[j] = i records that i uses j.
	prev := map[int]int{}
	queue := []int{start}
	for found := false; len(queue) > 0 && !found; {
		i := queue[0]
		queue = queue[1:]
		for _, j := range deps[i] {
			if !in[j] {
				continue
			}
			if j == start {
				prev[start] = i
				found = true
				break
			}
			if _, seen := prev[j]; !seen {
				prev[j] = i
				queue = append(queue, j)
			}
		}
	}
	var back []int // the cycle after start, last first
	for cur := prev[start]; cur != start; cur = prev[cur] {
		back = append(back, cur)
	}
	order := append([]int{start}, reverseInts(back)...)
	var steps []string
	var related []Related
	for k, i := range order {
		j := order[(k+1)%len(order)]
		step := fmt.Sprintf("%s uses %s", bs[i].Name(), bs[j].Name())
		steps = append(steps, step)
		related = append(related, Related{bs[i].Names[0].Range, step})
	}
	if len(order) == 1 {
		d.errorf(bs[start].Names[0].Range, CodeCycle, nil, "%s uses itself: bindings cannot be recursive", bs[start].Name())
		return
	}
	d.errorf(bs[start].Names[0].Range, CodeCycle, related, "these bindings depend on each other in a cycle: %s", strings.Join(steps, ", "))
}

func reverseInts(xs []int) []int {
	out := make([]int, len(xs))
	for i, x := range xs {
		out[len(xs)-1-i] = x
	}
	return out
}

// tarjan returns the strongly connected components of a graph given as adjacency lists.
func tarjan(adj [][]int) [][]int {
	n := len(adj)
	index := make([]int, n)
	low := make([]int, n)
	onStack := make([]bool, n)
	for i := range index {
		index[i] = -1
	}
	var stack []int
	var sccs [][]int
	next := 0
	var strong func(int)
	strong = func(v int) {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		onStack[v] = true
		for _, w := range adj[v] {
			if index[w] < 0 {
				strong(w)
				low[v] = min(low[v], low[w])
			} else if onStack[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] == index[v] {
			var scc []int
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[w] = false
				scc = append(scc, w)
				if w == v {
					break
				}
			}
			sccs = append(sccs, scc)
		}
	}
	for v := 0; v < n; v++ {
		if index[v] < 0 {
			strong(v)
		}
	}
	return sccs
}

func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
