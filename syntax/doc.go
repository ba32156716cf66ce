// Package syntax is the front end of cnf: it lexes and parses combinator normal form (CNF)
// programs, keeps a source range on every node, resolves names, checks arrays against scalars,
// combinator arities, signatures and cycles, and reports located, recoverable diagnostics.
//
// It knows nothing of size inference, clustering or editors: positions are byte offsets, with
// conversions to the line/column that users read and to LSP positions (UTF-16).
package syntax
