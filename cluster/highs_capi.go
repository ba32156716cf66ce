package cluster

// #cgo pkg-config: highs
// #include <stdlib.h>
// #include "util/HighsInt.h"
// // Prototypes of the HiGHS C API (interfaces/highs_c_api.h defines global constants that
// // collide with lanl/highs's own inclusion of it, so it is not included here).
// HighsInt Highs_getModelStatus(const void* highs);
// HighsInt Highs_getIntInfoValue(const void* highs, const char* info, HighsInt* value);
// HighsInt Highs_getSolution(const void* highs, double* col_value, double* col_dual, double* row_value, double* row_dual);
// HighsInt Highs_getNumCol(const void* highs);
// HighsInt Highs_getNumRow(const void* highs);
// double Highs_getObjectiveValue(const void* highs);
// HighsInt Highs_setSolution(void* highs, const double* col_value, const double* row_value, const double* col_dual, const double* row_dual);
//
// #include "lp_data/HighsCallbackStruct.h"
// HighsInt Highs_setCallback(void* highs, HighsCCallbackType user_callback, void* user_callback_data);
// HighsInt Highs_startCallback(void* highs, const int callback_type);
//
// // cnfInterrupt is the HiGHS callback of a watched solve: it asks HiGHS to stop once the
// // flag that Go sets is non-zero. HiGHS calls it from its own threads, so the flag is read
// // atomically.
// static void cnfInterrupt(int type, const char* message, const HighsCallbackDataOut* out,
//                          HighsCallbackDataIn* in, void* flag) {
//   if (in != 0 && __atomic_load_n((int*)flag, __ATOMIC_ACQUIRE)) {
//     in->user_interrupt = 1;
//   }
// }
//
// // cnfWatch installs cnfInterrupt for the simplex, interior point and branch-and-bound
// // interrupt points (kHighsCallbackSimplexInterrupt, IpmInterrupt, MipInterrupt).
// static int cnfWatch(void* highs, int* flag) {
//   if (Highs_setCallback(highs, cnfInterrupt, flag) != 0) return -1;
//   if (Highs_startCallback(highs, 1) != 0) return -1;
//   if (Highs_startCallback(highs, 2) != 0) return -1;
//   if (Highs_startCallback(highs, 6) != 0) return -1;
//   return 0;
// }
import "C"

import (
	"reflect"
	"sync/atomic"
	"unsafe"

	"github.com/lanl/highs"
)

// HiGHS model status codes that matter here (kHighsModelStatus* in highs_c_api.h).
const (
	highsStatusOptimal        = 7
	highsStatusTimeLimit      = 13
	highsStatusIterationLimit = 14
	highsSolutionFeasible     = 2
)

// handle returns the HiGHS instance a lanl/highs RawModel wraps. lanl/highs v1.0.0 has no call
// to give HiGHS a starting solution, and drops the solution of a solve that ends with a warning
// (see afterWarning); both need the instance. The handle is an unexported field: reflect reads
// it (reading, unlike writing, is allowed). If lanl/highs ever changes that field, handle
// returns nil and callers do without: no starting solution, or the fallback of a failed solve.
func handle(raw *highs.RawModel) unsafe.Pointer {
	f := reflect.ValueOf(raw).Elem().FieldByName("obj")
	if !f.IsValid() || f.Kind() != reflect.UnsafePointer {
		return nil
	}
	return f.UnsafePointer()
}

// setStart gives HiGHS a feasible solution to start from, so that a solve stopped by its time
// limit still returns at least that. It reports whether HiGHS took it.
func setStart(raw *highs.RawModel, values []float64) bool {
	obj := handle(raw)
	if obj == nil || len(values) == 0 {
		return false
	}
	col := make([]C.double, len(values))
	for i, v := range values {
		col[i] = C.double(v)
	}
	return C.Highs_setSolution(obj, &col[0], nil, nil, nil) == 0
}

// afterWarning reads the outcome of a solve that HiGHS ended with a warning status.
//
// lanl/highs v1.0.0's RawModel.Solve returns an error and no solution whenever Highs_run
// reports a warning, and HiGHS reports one when it stops at its time limit: exactly when the
// best solution found so far is wanted. The HiGHS instance still holds that solution, so it is
// read here through the C API. ok is false when the instance cannot be reached.
func afterWarning(raw *highs.RawModel) (status int, values []float64, objective float64, ok bool) {
	obj := handle(raw)
	if obj == nil {
		return 0, nil, 0, false
	}
	status = int(C.Highs_getModelStatus(obj))
	var ps C.HighsInt
	name := C.CString("primal_solution_status")
	defer C.free(unsafe.Pointer(name))
	if C.Highs_getIntInfoValue(obj, name, &ps) != 0 || ps != highsSolutionFeasible {
		return status, nil, 0, true
	}
	nc, nr := int(C.Highs_getNumCol(obj)), int(C.Highs_getNumRow(obj))
	col := make([]C.double, max(nc, 1))
	colDual := make([]C.double, max(nc, 1))
	row := make([]C.double, max(nr, 1))
	rowDual := make([]C.double, max(nr, 1))
	if C.Highs_getSolution(obj, &col[0], &colDual[0], &row[0], &rowDual[0]) != 0 {
		return status, nil, 0, true
	}
	values = make([]float64, nc)
	for i := range values {
		values[i] = float64(col[i])
	}
	return status, values, float64(C.Highs_getObjectiveValue(obj)), true
}

// interrupter stops a running HiGHS solve from another goroutine, through a HiGHS callback:
// without it a cancelled solve would keep a core busy until its time limit.
type interrupter struct {
	flag *C.int // in C memory: HiGHS reads it while Go may move its own
}

// watch installs the interrupt callback on the instance that raw wraps. It returns nil when
// the instance cannot be reached or HiGHS refuses the callback; the solve then runs to its
// time limit.
func watch(raw *highs.RawModel) *interrupter {
	obj := handle(raw)
	if obj == nil {
		return nil
	}
	flag := (*C.int)(C.calloc(1, C.size_t(unsafe.Sizeof(C.int(0)))))
	if C.cnfWatch(obj, flag) != 0 {
		C.free(unsafe.Pointer(flag))
		return nil
	}
	return &interrupter{flag: flag}
}

// stop asks the solve to end at HiGHS's next interrupt point.
func (in *interrupter) stop() {
	atomic.StoreInt32((*int32)(unsafe.Pointer(in.flag)), 1)
}

// free releases the flag; call it only after the solve has returned.
func (in *interrupter) free() {
	C.free(unsafe.Pointer(in.flag))
}
