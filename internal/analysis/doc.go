// Package analysis is the one place where cnf's stages are assembled: the front end and size
// inference (syntax, infer), the clustering with its baselines (cluster) and process fusion
// (fuse). The command (cmd/cnf) and the language server (lsp) both ask it their questions,
// so the pipeline is built once and behaves the same in both.
//
// An Engine serves a whole command run or server session. It analyses each version of a file
// into a File: the front end and sizes at once (they are fast and bounded), the clustering and
// fusion of each definition on demand, computed once however many ask. It caches clusterings
// by the canonical form of each definition's graph (cluster.Graph.Key), so an edit that leaves
// the graph unchanged (inside a worker, a literal, a comment) reuses the clustering without a
// solve and an unchanged program never changes its answer. A solve's effort is deterministic
// work (cluster/effort.go), so the answer for a text is the same in the server and in `cnf
// cluster`, on an idle machine and a busy one. It lets at most one solve per slot (a core) run
// at a time, newest work first.
//
// Answers are plain data (cluster.Report, cluster.Exclusion, syntax.Diagnostic); rendering
// them as hover text, JSON or lens titles is the callers' job.
package analysis
