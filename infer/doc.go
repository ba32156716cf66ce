// Package infer infers the size of every array of a CNF definition, its size scheme (∀/∃), the
// iteration size of every binding, parent transducers and compatible concestors, and explains
// size errors.
package infer
