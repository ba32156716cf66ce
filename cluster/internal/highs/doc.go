// Package highs is cnf's one door to the HiGHS solver: it solves a mixed-integer linear
// program and owns everything that touches HiGHS's memory.
//
// The model is built, configured and run through github.com/lanl/highs (the binding the design
// names). What lanl/highs v1.0.0 lacks goes through HiGHS's C API in bridge.cpp, which includes
// HiGHS's own header (interfaces/highs_c_api.h) rather than copying its prototypes: a starting
// solution, the incumbent of a solve that stops at its time limit, an interrupt callback so
// that cancelling a solve stops HiGHS itself, and, for the cutting-plane loop of package
// cluster, an LP kept in one instance that takes new rows and is re-solved from its previous
// basis, with its reduced costs (LP).
//
// Lifetime. lanl/highs frees a HiGHS instance in a finalizer of its Go wrapper. The instance is
// used through its C handle (by lanl/highs's own Solve and by the bridge) after the last Go use
// of that wrapper, so without care the garbage collector could free the instance in the middle
// of a solve (seen: a SIGSEGV in Highs_getIntInfoValue, and a solver double written over Go
// memory). Solve keeps the wrapper reachable until its last use of the handle has returned;
// the stress test runs concurrent, cancelled and time-limited solves with the collector
// running flat out.
//
// Without cgo the package still compiles: Version is empty and Solve returns
// ErrUnavailable, so the pure-Go parts of cluster build and test everywhere.
package highs
