package syntax

// Node is implemented by every syntax tree node: each knows its source range.
type Node interface {
	Span() Range
}

// File is a parsed source file: its text, its declarations in source order and its comments.
type File struct {
	Name     string
	Src      []byte
	Decls    []Decl // *Signature and *Definition, in source order
	Comments []*Comment
	lines    lineTable
}

// NewFile wraps source text so that positions can be computed; Parse calls it.
func NewFile(name string, src []byte) *File {
	return &File{Name: name, Src: src, lines: newLineTable(src)}
}

// Definitions returns the file's definitions in source order.
func (f *File) Definitions() []*Definition {
	var defs []*Definition
	for _, d := range f.Decls {
		if def, ok := d.(*Definition); ok {
			defs = append(defs, def)
		}
	}
	return defs
}

// Text returns the source text of a range.
func (f *File) Text(r Range) string {
	s, e := clamp(f.Src, r.Start), clamp(f.Src, r.End)
	if e < s {
		return ""
	}
	return string(f.Src[s:e])
}

// Comment is a line comment (-- ...) or a block comment ({- ... -}), text included.
type Comment struct {
	Range
	Text string
}

// Decl is a top-level declaration: a *Signature or a *Definition.
type Decl interface {
	Node
	declNode()
}

// Signature is `name :: T1 -> ... -> R`.
type Signature struct {
	Range
	Name *Ident
	Type Type
}

// Definition is `name params = let bindings in results`.
type Definition struct {
	Range
	Name     *Ident
	Params   []*Ident
	Let      Pos // offset of the let keyword, or -1 if missing
	Bindings []*Binding
	In       Pos      // offset of the in keyword, or -1 if missing
	Results  []*Ident // the names after in
	Tuple    bool     // results were written as a parenthesised tuple
	// BadResults: a result was written as an expression (reported by the parser), so Results
	// lacks it and their count and positions say nothing about the signature's.
	BadResults bool
	Broken     bool // the parser reported an error inside this definition
}

// Binding is `names = combinator`. An external may bind several names; every other
// combinator binds exactly one.
type Binding struct {
	Range
	Names []*Ident
	Rhs   Combinator // nil when the right-hand side could not be parsed
}

// Name returns the first bound name, which names the binding in messages and graphs.
func (b *Binding) Name() string { return b.Names[0].Name }

func (*Signature) declNode()  {}
func (*Definition) declNode() {}

// Ident is a name occurrence: a variable, parameter, binder, host function or combinator.
type Ident struct {
	Range
	Name string
}

// Types of signatures.
type (
	// Type is a signature type.
	Type interface {
		Node
		typeNode()
	}
	// NamedType is a scalar type name (Int, Float, Bool, Nat, or any host type such as Point),
	// possibly applied to arguments (Maybe Int), or a type variable (a).
	NamedType struct {
		Range
		Name string
		Args []Type
	}
	// ArrayType is `Array T`.
	ArrayType struct {
		Range
		Elem Type
	}
	// TupleType is `(T1, ..., Tn)`; n = 0 is the unit type.
	TupleType struct {
		Range
		Elems []Type
	}
	// FuncType is `T1 -> ... -> Tn -> R`.
	FuncType struct {
		Range
		Params []Type
		Result Type
	}
)

func (*NamedType) typeNode() {}
func (*ArrayType) typeNode() {}
func (*TupleType) typeNode() {}
func (*FuncType) typeNode()  {}

// Combinators: the right-hand sides of bindings. Each embeds Call, which keeps the keyword and
// the arguments exactly as written; the typed fields are views of those arguments.
type (
	// Combinator is one of the array combinators of combinator normal form.
	Combinator interface {
		Node
		call() *Call
	}
	// Call is the combinator keyword and its arguments as written.
	Call struct {
		Range
		Keyword *Ident
		Args    []Expr
	}
	// Fold is `fold W z xs`: reduce xs with the worker W starting from z.
	Fold struct {
		Call
		Worker Expr
		Init   Expr
		Array  *Ident
	}
	// Map is `mapN W xs1 ... xsN` (map is map1): apply W elementwise to N arrays of one size.
	Map struct {
		Call
		Worker Expr
		Arrays []*Ident
	}
	// Filter is `filter W xs`: keep the elements of xs for which W is true.
	Filter struct {
		Call
		Worker Expr
		Array  *Ident
	}
	// Generate is `generate s W`: the array [W 0, ..., W (s-1)].
	Generate struct {
		Call
		Size   Expr // an *Ident naming a scalar, or an *IntLit
		Worker Expr
	}
	// Gather is `gather data indices`: [data ! i | i <- indices].
	Gather struct {
		Call
		Data    *Ident
		Indices *Ident
	}
	// Cross is `cross as bs`: the cartesian product, as in the outer loop over as.
	Cross struct {
		Call
		A, B *Ident
	}
	// Scan is `postscanl W z xs` or `prescanl W z xs`: the running folds of xs. Element i of
	// the inclusive postscanl is the fold of xs[0..i]; element i of the exclusive prescanl is
	// the fold of xs[0..i-1], so it starts with z. The output has the size of xs.
	Scan struct {
		Call
		Worker    Expr
		Init      Expr
		Array     *Ident
		Inclusive bool // postscanl
	}
	// Indexed is `indexed xs`: the pairs (i, xs ! i).
	Indexed struct {
		Call
		Array *Ident
	}
	// Zip is `zip xs ys`: the pairs of the elements at each position; xs and ys have one size.
	Zip struct {
		Call
		A, B *Ident
	}
	// Unzip is `(as, bs) = unzip ps`: the first and the second components of an array of pairs.
	Unzip struct {
		Call
		Array *Ident
	}
	// Slice is one of `take n xs`, `drop n xs`, `slice i n xs` and `tail xs`: the elements of xs
	// at positions Start, ..., Start+Count-1 that exist. Start and Count are scalar names or
	// integer literals; a nil Start is 0 and a nil Count is "to the end". tail is drop 1, and
	// its Start is a literal 1 placed at the keyword. Negative values count as 0.
	Slice struct {
		Call
		Start, Count Expr
		Array        *Ident
	}
	// Append is `append xs ys`: all of xs, then all of ys.
	Append struct {
		Call
		A, B *Ident
	}
	// Length is `length xs`: the number of elements of xs, a scalar.
	Length struct {
		Call
		Array *Ident
	}
	// Reverse is `reverse xs`: the elements of xs from the last to the first.
	Reverse struct {
		Call
		Array *Ident
	}
	// External is `external f args`: a call of a host function, a fusion barrier.
	External struct {
		Call
		Func *Ident
		Args []*Ident
	}
)

func (c *Call) call() *Call { return c }

// CallOf returns the keyword and the arguments of a combinator application as written.
func CallOf(c Combinator) *Call { return c.call() }

// Worker expressions: the scalar functions given to combinators.
type (
	// Expr is a worker expression.
	Expr interface {
		Node
		exprNode()
	}
	// IntLit is an integer literal.
	IntLit struct {
		Range
		Value int64
	}
	// FloatLit is a floating-point literal.
	FloatLit struct {
		Range
		Value float64
	}
	// BoolLit is True or False.
	BoolLit struct {
		Range
		Value bool
	}
	// App is a function application f a1 ... an.
	App struct {
		Range
		Fun  Expr
		Args []Expr
	}
	// Binary is an infix operator application x op y (op may be a backticked function).
	Binary struct {
		Range
		Op   *Op
		X, Y Expr
	}
	// Neg is prefix negation -x.
	Neg struct {
		Range
		X Expr
	}
	// Section is an operator section: (op), (x op) with X as left operand, or (op y) with Y.
	Section struct {
		Range
		Op   *Op
		X, Y Expr // at most one is non-nil
	}
	// Lambda is \p1 ... pn -> body.
	Lambda struct {
		Range
		Params []Pattern
		Body   Expr
	}
	// Tuple is (e1, ..., en), n >= 2, or () for n = 0.
	Tuple struct {
		Range
		Elems []Expr
	}
	// If is if c then t else e.
	If struct {
		Range
		Cond, Then, Else Expr
	}
	// Paren is a parenthesised expression, kept so that printing is faithful.
	Paren struct {
		Range
		X Expr
	}
	// BadExpr stands for an expression that did not parse.
	BadExpr struct {
		Range
	}
)

// Op is an operator occurrence; Name is canonical ("<=" for "≤", "." for "∘", "div" for `div`).
type Op struct {
	Range
	Name     string
	Backtick bool
}

func (*Ident) exprNode()    {}
func (*IntLit) exprNode()   {}
func (*FloatLit) exprNode() {}
func (*BoolLit) exprNode()  {}
func (*App) exprNode()      {}
func (*Binary) exprNode()   {}
func (*Neg) exprNode()      {}
func (*Section) exprNode()  {}
func (*Lambda) exprNode()   {}
func (*Tuple) exprNode()    {}
func (*If) exprNode()       {}
func (*Paren) exprNode()    {}
func (*BadExpr) exprNode()  {}

// Patterns bind lambda parameters.
type (
	// Pattern is a lambda parameter pattern: *Ident, *TuplePattern or *Wildcard.
	Pattern interface {
		Node
		patternNode()
	}
	// TuplePattern is (p1, ..., pn).
	TuplePattern struct {
		Range
		Elems []Pattern
	}
	// Wildcard is _.
	Wildcard struct {
		Range
	}
)

func (*Ident) patternNode()        {}
func (*TuplePattern) patternNode() {}
func (*Wildcard) patternNode()     {}
