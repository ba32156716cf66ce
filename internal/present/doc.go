// Package present shows clusterings to people and to clients: the summary that `cnf cluster
// --json` and the language server send (the JSON wire type, at the edge, as rust-analyzer keeps
// serialisable counterparts out of its analysis crates), the text report of `cnf cluster`, the
// Graphviz diagram (whole, or with loops collapsed to boxes) and the loops' palette. It reads
// package cluster's results and adds nothing to them: cluster knows nothing of colours, JSON or
// DOT.
package present
