// Package cluster builds the dependency graph of a CNF definition, with fusible and
// fusion-preventing edges, and finds the optimal clustering of its bindings into loops by
// integer linear programming, solved by HiGHS.
package cluster
