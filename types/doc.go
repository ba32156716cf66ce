// Package types infers the element type of every array, scalar and worker of a CNF definition
// (Int, Float, Bool, tuples, host types), the first step of compiling a clustering to native
// code: parameters are typed by the signature where there is one, bindings by their
// combinator's type (syntax.CombinatorTable), workers by Hindley-Milner style unification over
// literals, operators and the typed prelude (syntax.Prelude), and host functions by the file's
// signatures that have no definition. Numeric literals are Int or Float as their uses say, Int
// when nothing does. Clashes are diagnostics (code "type") at the expression where they show.
package types
