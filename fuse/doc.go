// Package fuse turns each cluster of a CNF definition into a single process by the process
// fusion algorithm of Robinson's thesis (chapter 4), prints fused processes, and runs them.
package fuse
