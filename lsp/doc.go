// Package lsp is the cnf language server: it analyses CNF documents on every edit and serves
// diagnostics, hovers, code lenses and commands to editors over the Language Server Protocol.
package lsp
