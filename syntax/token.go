package syntax

// tokenKind classifies a lexical token.
type tokenKind uint8

const (
	tEOF        tokenKind = iota
	tIdent                // lowercase or uppercase identifier, primes allowed: xs, above', Array
	tInt                  // 42
	tFloat                // 1.5, 2e3
	tOp                   // operator symbol: + - * / == <= && . $ ...
	tBacktick             // `name` used infix
	tLParen               // (
	tRParen               // )
	tComma                // ,
	tSemi                 // ;
	tEquals               // =
	tDColon               // ::
	tArrow                // -> or →
	tLambda               // \ or λ
	tBar                  // | (guards: not part of CNF, reported)
	tUnderscore           // _
	tLBracket             // [ (lists: not part of CNF, reported)
	tRBracket             // ]
	tLBrace               // { (explicit let blocks: let { a = ...; b = ... })
	tRBrace               // }
	tBad                  // a literal CNF does not have (a string): already reported, parsed as a BadExpr
	tLet                  // keywords
	tIn
	tIf
	tThen
	tElse
	tWhere
	tCase
	tOf
	tDo
)

var keywords = map[string]tokenKind{
	"let": tLet, "in": tIn, "if": tIf, "then": tThen, "else": tElse,
	"where": tWhere, "case": tCase, "of": tOf, "do": tDo,
}

var tokenNames = [...]string{
	tEOF: "end of file", tIdent: "name", tInt: "integer", tFloat: "number", tOp: "operator",
	tBacktick: "infix function", tLParen: "(", tRParen: ")", tComma: ",", tSemi: ";",
	tEquals: "=", tDColon: "::", tArrow: "->", tLambda: `\`, tBar: "|", tUnderscore: "_",
	tLBracket: "[", tRBracket: "]", tBad: "literal", tLBrace: "{", tRBrace: "}", tLet: "let", tIn: "in", tIf: "if", tThen: "then",
	tElse: "else", tWhere: "where", tCase: "case", tOf: "of", tDo: "do",
}

// Token flags.
const (
	flagFirst uint8 = 1 << iota // first token on its line
	flagCol1                    // starts in column 1
)

// token is one lexical token. Tokens are small (no text) because a 10 MB file yields millions
// of them; the text is sliced from the source when the parser needs it.
type token struct {
	kind  tokenKind
	flags uint8
	pos   int32
	end   int32
}

func (t token) first() bool { return t.flags&flagFirst != 0 }
func (t token) col1() bool  { return t.flags&flagCol1 != 0 }
