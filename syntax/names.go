package syntax

import (
	"unicode"
	"unicode/utf8"
)

// ValidName reports whether name can be bound by a definition, a parameter or a binding: an
// identifier starting with a lowercase letter or _ (primes allowed) that is neither a keyword
// (Haskell's where, case, of and do included) nor a combinator.
func ValidName(name string) bool {
	r, size := utf8.DecodeRuneInString(name)
	if name == "" || name == "_" || !(unicode.IsLower(r) || r == '_') || r == 'λ' {
		return false
	}
	for _, c := range name[size:] {
		if !isIdentRest(c) {
			return false
		}
	}
	if _, ok := keywords[name]; ok {
		return false
	}
	return !IsCombinator(name)
}
