// Package codegen compiles a CNF definition under a clustering to C: one loop per cluster, each
// its fused process (fuse) translated instruction by instruction into labels and gotos, with the
// element types of package types as C types. It also compiles the C with the system compiler,
// runs it on inputs through a binary protocol, and times it (cnf build, cnf run --compiled,
// cnf bench). It is the stage after fuse: the thesis compiles every clustering "to isolate the
// true cost of the various clusterings" (Robinson, chapter 5).
package codegen
