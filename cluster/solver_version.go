package cluster

// #cgo pkg-config: highs
// // Declared here rather than by including highs_c_api.h: that header defines constants with
// // global scope, which collide at link time with lanl/highs's own inclusion of it.
// const char* Highs_version(void);
import "C"

// SolverVersion returns the version of the linked HiGHS library, as "1.10.0".
func SolverVersion() string {
	v := C.GoString(C.Highs_version())
	if len(v) > 0 && v[0] == 'v' {
		v = v[1:]
	}
	return v
}
