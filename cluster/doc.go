// Package cluster builds the dependency graph of a CNF definition, with fusible and
// fusion-preventing edges, and finds the optimal clustering of its bindings into loops by
// integer linear programming, solved by HiGHS (linked in), or in a build without cgo by a
// solver executable (highs, glpsol, cbc), or without any by exhaustive search and the greedy
// clustering.
package cluster
