package syntax

import "strings"

// CombinatorInfo is everything cnf says about one combinator apart from what it means to each
// stage: its type and argument roles, its size rule and which arguments it reads whole (for
// people), how it is written, and its documentation. The parser's arity messages, hovers,
// completion, signature help, docs/language.md (checked by a test) and the checks of the
// generator and the fusion rules read this table; each stage keeps its own semantic switch
// (as go/types does: one universe of builtins, a switch per pass). docs/architecture.md lists
// the places a new combinator touches.
type CombinatorInfo struct {
	Name  string // the keyword; "mapN" stands for map2, map3, ...
	Usage string // as docs/language.md writes it: "fold W z xs"
	Type  string // "(a -> b -> a) -> a -> Array b -> a"
	// Params name the arguments, with their types, for signature help.
	Params []string
	// Needs says what the arguments are, for arity errors; Example is a whole application.
	// Fixed combinators take exactly their arguments ("takes ...: `example`"); the others take
	// a worker of any number of arguments ("needs ..., as in `example`").
	Needs, Example string
	Fixed          bool
	Doc            string // one line, for hovers and completion
	Meaning        string // docs/language.md's meaning column
	SizeRule       string // docs/language.md's size rule column
	Transducer     bool   // its output size is its own, chosen at run time (section 1.7)
	// Whole lists the array arguments (by Params name) that must exist in full before the
	// combinator runs: the edges from their producers prevent fusion (Fig 1.10).
	Whole []string
	// Walks names (by Params name) the array the combinator walks element by element: its
	// iteration size is that array's size (infer's iteration sizes), and its output has at most
	// that many elements (the compiled code's allocation). "" for a combinator that walks no
	// one input (generate, cross, append, external). Read through Walked.
	Walks string
}

// Signature is the combinator's type as a hover shows it: "fold :: (a -> b -> a) -> ...".
func (c *CombinatorInfo) Signature() string {
	switch c.Name {
	case "unzip":
		return "(as, bs) = unzip :: " + c.Type
	case "external":
		return "external f args"
	}
	return c.Name + " :: " + c.Type
}

// Accepts reports whether the combinator takes n arguments: exactly its parameters when it is
// fixed, else at least as many (a worker may be written as several arguments: `fold max 0 xs`
// has three, `fold f a 0 xs` a worker of two). The parser reads it for every combinator but
// external and map_n, whose arguments it counts itself.
func (c *CombinatorInfo) Accepts(n int) bool {
	if c.Fixed {
		return n == len(c.Params)
	}
	return n >= len(c.Params)
}

// ArityMessage is the error for an application of the combinator with n arguments.
func (c *CombinatorInfo) ArityMessage(name string, n int) string {
	if c.Fixed {
		return name + " takes " + c.Needs + ": `" + c.Example + "`; it has " + Plural(n, "argument")
	}
	return name + " needs " + c.Needs + ", as in `" + c.Example + "`; it has " + Plural(n, "argument")
}

// CombinatorTable lists every combinator, the thesis's first (Fig 1.2), then section 1.7's.
var CombinatorTable = []*CombinatorInfo{
	{Name: "fold", Usage: "fold W z xs", Type: "(a -> b -> a) -> a -> Array b -> a",
		Params: []string{"worker :: a -> b -> a", "start :: a", "xs :: Array b"},
		Needs:  "a worker, a starting value and an array", Example: "fold (+) 0 xs",
		Doc:      "Reduces an array with a worker, from a starting value. Its value exists only after its whole loop.",
		Meaning:  "reduce `xs` with `W`, starting from `z`; a scalar",
		SizeRule: "none: its iteration size is the size of `xs`",
		Walks:    "xs"},
	{Name: "map", Usage: "map W xs", Type: "(a -> b) -> Array a -> Array b",
		Params: []string{"worker :: a -> b", "xs :: Array a"},
		Needs:  "a worker and an array", Example: "map (+ 1) xs",
		Doc:      "Applies the worker to every element; the output has the input's size.",
		Meaning:  "apply `W` to every element",
		SizeRule: "output has the size of `xs`",
		Walks:    "xs"},
	{Name: "mapN", Usage: "mapN W xs1 ... xsN", Type: "(a1 -> ... -> aN -> b) -> Array a1 -> ... -> Array aN -> Array b",
		Params: []string{"worker :: a1 -> ... -> aN -> b", "xs1 :: Array a1", "xsN :: Array aN"},
		Needs:  "a worker and N arrays", Example: "map2 (+) xs ys",
		Doc:      "Applies the worker elementwise to N arrays, which must have the same size.",
		Meaning:  "`map2`, `map3`, ...: apply `W` elementwise to N arrays (like `zipWith`)",
		SizeRule: "**all inputs must have the same size**; the output has it too",
		Walks:    "xs1"},
	{Name: "filter", Usage: "filter W xs", Type: "(a -> Bool) -> Array a -> Array a",
		Params: []string{"predicate :: a -> Bool", "xs :: Array a"},
		Needs:  "a predicate and an array", Example: "filter (> 0) xs",
		Doc:        "Keeps the elements for which the predicate holds; the output size is known only at run time.",
		Meaning:    "keep the elements for which `W` is `True`",
		SizeRule:   "output has a new, unknown (∃) size",
		Transducer: true,
		Walks:      "xs"},
	{Name: "generate", Usage: "generate s W", Type: "Nat -> (Nat -> a) -> Array a",
		Params: []string{"size :: Nat", "worker :: Nat -> a"},
		Needs:  "a size and a worker", Example: "generate n (\\i -> i * i)",
		Doc:      "Builds [W 0, ..., W (s-1)]; the size is known only at run time.",
		Meaning:  "`[W 0, ..., W (s-1)]`; `s` is a scalar name or an integer literal",
		SizeRule: "output has a new, unknown (∃) size"},
	{Name: "gather", Usage: "gather data indices", Type: "Array a -> Array Nat -> Array a",
		Params: []string{"data :: Array a", "indices :: Array Nat"},
		Needs:  "two arrays, the data and the indices", Example: "gather data indices", Fixed: true,
		Doc:      "Reads data at each index: the output has the indices' size; data must be materialised first.",
		Meaning:  "`[data ! i \\| i <- indices]`",
		SizeRule: "output has the size of `indices`",
		Whole:    []string{"data"},
		Walks:    "indices"},
	{Name: "cross", Usage: "cross as bs", Type: "Array a -> Array b -> Array (a, b)",
		Params: []string{"as :: Array a", "bs :: Array b"},
		Needs:  "two arrays", Example: "cross as bs", Fixed: true,
		Doc:      "Every pair, the loop over the first array outermost; the second array must be materialised first.",
		Meaning:  "every pair, the loop over `as` outermost",
		SizeRule: "output has size `k1 × k2`",
		Whole:    []string{"bs"}},
	{Name: "external", Usage: "external f args", Type: "host function",
		Params: []string{"f", "args ..."},
		Needs:  "the name of a host function", Example: "external f xs",
		Doc:      "Calls a host function between loops: a fusion barrier; its array outputs get sizes known only at run time.",
		Meaning:  "call the host function `f` on arrays and scalars",
		SizeRule: "every array output has a new, unknown (∃) size",
		Whole:    []string{"args ..."}},
	{Name: "postscanl", Usage: "postscanl W z xs", Type: "(a -> b -> a) -> a -> Array b -> Array a",
		Params: []string{"worker :: a -> b -> a", "start :: a", "xs :: Array b"},
		Needs:  "a worker, a starting value and an array", Example: "postscanl (+) 0 xs",
		Doc:      "Inclusive scan: element i is the fold of the first i+1 elements. The output has the input's size and fuses like map.",
		Meaning:  "inclusive scan: element i is the fold of `xs[0..i]`",
		SizeRule: "output has the size of `xs`",
		Walks:    "xs"},
	{Name: "prescanl", Usage: "prescanl W z xs", Type: "(a -> b -> a) -> a -> Array b -> Array a",
		Params: []string{"worker :: a -> b -> a", "start :: a", "xs :: Array b"},
		Needs:  "a worker, a starting value and an array", Example: "prescanl (+) 0 xs",
		Doc:      "Exclusive scan: element i is the fold of the first i elements, so it starts with the starting value. The output has the input's size and fuses like map.",
		Meaning:  "exclusive scan: element i is the fold of `xs[0..i-1]`, so element 0 is `z`",
		SizeRule: "output has the size of `xs`",
		Walks:    "xs"},
	{Name: "indexed", Usage: "indexed xs", Type: "Array a -> Array (Nat, a)",
		Params: []string{"xs :: Array a"},
		Needs:  "one array", Example: "indexed xs", Fixed: true,
		Doc:      "Pairs each element with its position; the output has the input's size.",
		Meaning:  "each element with its position, `(i, xs ! i)`",
		SizeRule: "output has the size of `xs`",
		Walks:    "xs"},
	{Name: "zip", Usage: "zip xs ys", Type: "Array a -> Array b -> Array (a, b)",
		Params: []string{"xs :: Array a", "ys :: Array b"},
		Needs:  "two arrays", Example: "zip xs ys", Fixed: true,
		Doc:      "Pairs the elements at each position; both arrays must have the same size (map2 (\\x y -> (x, y))).",
		Meaning:  "the pairs of elements at each position (`map2 (,)`; for triples, `map3 (\\a b c -> (a, b, c))`)",
		SizeRule: "**both inputs must have the same size**; the output has it too",
		Walks:    "xs"},
	{Name: "unzip", Usage: "as, bs = unzip ps", Type: "Array (a, b) -> (Array a, Array b)",
		Params: []string{"ps :: Array (a, b)"},
		Needs:  "one array", Example: "unzip xs", Fixed: true,
		Doc:      "Splits an array of pairs into the first and the second components, both of the input's size.",
		Meaning:  "the first and the second components (`map fst`, `map snd` in one)",
		SizeRule: "both outputs have the size of `ps`",
		Walks:    "ps"},
	{Name: "take", Usage: "take n xs", Type: "Int -> Array a -> Array a",
		Params: []string{"n :: Int", "xs :: Array a"},
		Needs:  "a count and an array", Example: "take n xs", Fixed: true,
		Doc:        "The first n elements (all of them when n is larger). A transducer like filter: its output size is known only at run time.",
		Meaning:    "the first `n` elements: all of them when `n` is larger, none when `n <= 0`",
		SizeRule:   "output has a new, unknown (∃) size",
		Transducer: true,
		Walks:      "xs"},
	{Name: "drop", Usage: "drop n xs", Type: "Int -> Array a -> Array a",
		Params: []string{"n :: Int", "xs :: Array a"},
		Needs:  "a count and an array", Example: "drop n xs", Fixed: true,
		Doc:        "All but the first n elements (none when n is larger). A transducer like filter: its output size is known only at run time.",
		Meaning:    "all but the first `n` elements: none when `n` is larger, all when `n <= 0`",
		SizeRule:   "output has a new, unknown (∃) size",
		Transducer: true,
		Walks:      "xs"},
	{Name: "slice", Usage: "slice i n xs", Type: "Int -> Int -> Array a -> Array a",
		Params: []string{"start :: Int", "n :: Int", "xs :: Array a"},
		Needs:  "a start, a count and an array", Example: "slice i n xs", Fixed: true,
		Doc:        "The elements at positions i to i+n-1 that exist. A transducer like filter: its output size is known only at run time.",
		Meaning:    "the elements at the positions p with `i <= p < i + n` that exist (never an error)",
		SizeRule:   "output has a new, unknown (∃) size",
		Transducer: true,
		Walks:      "xs"},
	{Name: "tail", Usage: "tail xs", Type: "Array a -> Array a",
		Params: []string{"xs :: Array a"},
		Needs:  "one array", Example: "tail xs", Fixed: true,
		Doc:        "All but the first element (drop 1; empty for an empty array). A transducer like filter.",
		Meaning:    "`drop 1 xs`: all but the first element; empty for an empty array",
		SizeRule:   "output has a new, unknown (∃) size",
		Transducer: true,
		Walks:      "xs"},
	{Name: "append", Usage: "append xs ys", Type: "Array a -> Array a -> Array a",
		Params: []string{"xs :: Array a", "ys :: Array a"},
		Needs:  "two arrays", Example: "append xs ys", Fixed: true,
		Doc:      "All of the first array, then all of the second: size k1 + k2, in that order. Its inputs are read from memory; its consumers fuse with it.",
		Meaning:  "all of `xs`, then all of `ys`",
		SizeRule: "output has size `k1 + k2` (not commutative)"},
	{Name: "length", Usage: "length xs", Type: "Array a -> Int",
		Params: []string{"xs :: Array a"},
		Needs:  "one array", Example: "length xs", Fixed: true,
		Doc:      "The number of elements. Known before any loop when the array's size comes from the parameters; otherwise counted over the array whose size it is, and its users wait for it.",
		Meaning:  "the number of elements; a scalar",
		SizeRule: "none (see below)",
		Walks:    "xs"},
	{Name: "reverse", Usage: "reverse xs", Type: "Array a -> Array a",
		Params: []string{"xs :: Array a"},
		Needs:  "one array", Example: "reverse xs", Fixed: true,
		Doc:      "The elements from last to first, with the input's size. Reads its input from the end, so the input must be materialised first; its consumers fuse with it.",
		Meaning:  "the elements from last to first",
		SizeRule: "output has the size of `xs`",
		Whole:    []string{"xs"},
		Walks:    "xs"},
}

// LookupCombinator returns the table entry of a keyword (map2, map3, ... find mapN).
func LookupCombinator(name string) (*CombinatorInfo, bool) {
	if n, ok := MapArity(name); ok {
		name = "map"
		if n > 1 {
			name = "mapN"
		}
	}
	for _, c := range CombinatorTable {
		if c.Name == name {
			return c, true
		}
	}
	return nil, false
}

// Combinators lists the combinator keywords (mapN stands for map2, map3, ...).
var Combinators = func() []string {
	out := make([]string, len(CombinatorTable))
	for i, c := range CombinatorTable {
		out[i] = c.Name
	}
	return out
}()

// IsCombinator reports whether name is a combinator keyword.
func IsCombinator(name string) bool {
	_, ok := LookupCombinator(name)
	return ok && name != "mapN"
}

// LanguageTable is docs/language.md's table of combinators, in Markdown.
func LanguageTable() string {
	var b strings.Builder
	b.WriteString("| combinator | type | meaning | size rule |\n|---|---|---|---|\n")
	for _, c := range CombinatorTable {
		typ := "`" + c.Type + "`"
		if c.Name == "external" {
			typ = c.Type
		}
		b.WriteString("| `" + c.Usage + "` | " + typ + " | " + c.Meaning + " | " + c.SizeRule + " |\n")
	}
	return b.String()
}

// SameLength returns the arrays a combinator reads element by element together, which must
// have one length (mapN's, zip's), with its keyword; nil for the others.
func SameLength(c Combinator) (keyword string, arrays []*Ident) {
	switch m := c.(type) {
	case *Map:
		return m.Keyword.Name, m.Arrays
	case *Zip:
		return "zip", []*Ident{m.A, m.B}
	}
	return "", nil
}

// Walked is the array a combinator application walks element by element (the table's Walks),
// or nil. Parameters map to arguments by position: from the front for a fixed combinator; from
// the back for one whose worker may be written as several arguments (its parameters after the
// worker are fixed in number); map_n's first array is the N-th argument from the back.
func Walked(c Combinator) *Ident {
	call := CallOf(c)
	info, ok := LookupCombinator(call.Keyword.Name)
	if !ok || info.Walks == "" {
		return nil
	}
	at := -1
	for i, p := range info.Params {
		if name, _, _ := strings.Cut(p, " ::"); name == info.Walks {
			at = i
		}
	}
	n := len(call.Args)
	switch k, isMap := MapArity(call.Keyword.Name); {
	case at < 0:
		return nil
	case isMap:
		at = n - k
	case !info.Fixed:
		at = n - (len(info.Params) - at)
	}
	if at < 0 || at >= n {
		return nil
	}
	id, _ := call.Args[at].(*Ident)
	return id
}
