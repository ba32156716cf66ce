// Package lsp is the cnf language server: it serves what package analysis finds in CNF
// documents (diagnostics, hovers, code lenses, commands, navigation, completion, formatting)
// to editors over the Language Server Protocol.
//
// It is the only package that knows the protocol and JSON. Each handler is a typed function
// from its params to its result, registered in one routing table (routes.go), which decodes
// and encodes. The reading loop never analyses and never writes: a document's text is parsed
// by its own worker goroutine, clustered after a debounce in a goroutine cancelled by the next
// edit, requests run in goroutines, and every write goes through the connection from other
// goroutines (diagnostics through a versioned outbox that drops what a newer version has
// replaced).
package lsp
