// The HiGHS C API calls that lanl/highs v1.0.0 does not offer. This is C++ so that HiGHS's own
// header can be included: the header defines its constants (kHighsStatusOk, ...) at file scope;
// in C they have external linkage and collide at link time with lanl/highs's inclusion of the
// same header, while in C++ a namespace-scope const has internal linkage.
#include <vector>

#include "interfaces/highs_c_api.h"
#include "bridge.h"

static_assert(CNF_HIGHS_OPTIMAL == kHighsModelStatusOptimal, "HiGHS model status codes changed");
static_assert(CNF_HIGHS_INFEASIBLE == kHighsModelStatusInfeasible, "HiGHS model status codes changed");
static_assert(CNF_HIGHS_TIME_LIMIT == kHighsModelStatusTimeLimit, "HiGHS model status codes changed");
static_assert(CNF_HIGHS_ITERATION_LIMIT == kHighsModelStatusIterationLimit, "HiGHS model status codes changed");
static_assert(CNF_HIGHS_INTERRUPT == kHighsModelStatusInterrupt, "HiGHS model status codes changed");

extern "C" {

int cnf_highs_set_start(void* highs, const double* cols) {
  return Highs_setSolution(highs, cols, nullptr, nullptr, nullptr) == kHighsStatusOk ? 0 : -1;
}

int cnf_highs_outcome(void* highs, int* status, int* feasible, double* objective, double* cols, int ncols) {
  *status = (int)Highs_getModelStatus(highs);
  HighsInt ps = 0;
  if (Highs_getIntInfoValue(highs, "primal_solution_status", &ps) != kHighsStatusOk) return -1;
  *feasible = ps == kHighsSolutionStatusFeasible;
  *objective = Highs_getObjectiveValue(highs);
  if (!*feasible || cols == nullptr) return 0;
  HighsInt nc = Highs_getNumCol(highs);
  if (nc != ncols) return -1;
  // Every array is passed: older HiGHS versions do not check for null.
  std::vector<double> col_dual(nc > 0 ? nc : 1);
  HighsInt nr = Highs_getNumRow(highs);
  std::vector<double> row_value(nr > 0 ? nr : 1), row_dual(nr > 0 ? nr : 1);
  if (Highs_getSolution(highs, cols, col_dual.data(), row_value.data(), row_dual.data()) != kHighsStatusOk) return -1;
  return 0;
}

int cnf_highs_dual_bound(void* highs, double* bound) {
  return Highs_getDoubleInfoValue(highs, "mip_dual_bound", bound) == kHighsStatusOk ? 0 : -1;
}

static void cnf_interrupt(int type, const char* message, const HighsCallbackDataOut* out,
                          HighsCallbackDataIn* in, void* data) {
  (void)message;
  cnf_watch* w = static_cast<cnf_watch*>(data);
  if (type == kHighsCallbackMipInterrupt && out != nullptr) {
    double primal = out->mip_primal_bound, dual = out->mip_dual_bound;
    __atomic_store(&w->primal, &primal, __ATOMIC_RELAXED);
    __atomic_store(&w->dual, &dual, __ATOMIC_RELAXED);
    __atomic_store_n(&w->mip, 1, __ATOMIC_RELEASE);
    double work = (double)out->mip_total_lp_iterations * w->per_iteration +
                  (double)out->mip_node_count * w->per_node;
    __atomic_store(&w->work, &work, __ATOMIC_RELAXED);
    __atomic_store_n(&w->iterations, (long long)out->mip_total_lp_iterations, __ATOMIC_RELAXED);
    __atomic_store_n(&w->nodes, (long long)out->mip_node_count, __ATOMIC_RELAXED);
    double limit;
    __atomic_load(&w->work_limit, &limit, __ATOMIC_ACQUIRE);
    if (limit > 0 && work >= limit && in != nullptr) {
      __atomic_store_n(&w->out_of_work, 1, __ATOMIC_RELEASE);
      in->user_interrupt = 1;
    }
  }
  if (in != nullptr && __atomic_load_n(&w->stop, __ATOMIC_ACQUIRE)) {
    in->user_interrupt = 1;
  }
}

int cnf_highs_watched(cnf_watch* w, double* primal, double* dual) {
  if (!__atomic_load_n(&w->mip, __ATOMIC_ACQUIRE)) return 0;
  __atomic_load(&w->primal, primal, __ATOMIC_RELAXED);
  __atomic_load(&w->dual, dual, __ATOMIC_RELAXED);
  return 1;
}

int cnf_highs_watch(void* highs, cnf_watch* w) {
  if (Highs_setCallback(highs, cnf_interrupt, w) != kHighsStatusOk) return -1;
  if (Highs_startCallback(highs, kHighsCallbackSimplexInterrupt) != kHighsStatusOk) return -1;
  if (Highs_startCallback(highs, kHighsCallbackIpmInterrupt) != kHighsStatusOk) return -1;
  if (Highs_startCallback(highs, kHighsCallbackMipInterrupt) != kHighsStatusOk) return -1;
  return 0;
}

void cnf_highs_interrupt(cnf_watch* w) { __atomic_store_n(&w->stop, 1, __ATOMIC_RELEASE); }

int cnf_highs_add_rows(void* highs, int nrow, const double* lo, const double* hi, int nnz,
                       const int* starts, const int* index, const double* value) {
  // HighsInt may be wider than int: copy the indices.
  std::vector<HighsInt> s(starts, starts + nrow), ix(index, index + nnz);
  return Highs_addRows(highs, nrow, lo, hi, nnz, s.data(), ix.data(), value) == kHighsStatusOk ? 0 : -1;
}

int cnf_highs_delete_rows(void* highs, int n, const int* set) {
  std::vector<HighsInt> s(set, set + n);
  return Highs_deleteRowsBySet(highs, n, s.data()) == kHighsStatusOk ? 0 : -1;
}

int cnf_highs_run(void* highs) { return Highs_run(highs) == kHighsStatusError ? -1 : 0; }

int cnf_highs_reduced_costs(void* highs, double* duals, int ncols, double* row_duals, int nrows) {
  HighsInt ds = 0;
  if (Highs_getIntInfoValue(highs, "dual_solution_status", &ds) != kHighsStatusOk) return -1;
  if (ds != kHighsSolutionStatusFeasible) return -1;
  HighsInt nc = Highs_getNumCol(highs);
  if (nc != ncols) return -1;
  HighsInt nr = Highs_getNumRow(highs);
  if (nr != nrows) return -1;
  std::vector<double> col_value(nc > 0 ? nc : 1), row_value(nr > 0 ? nr : 1);
  if (Highs_getSolution(highs, col_value.data(), duals, row_value.data(), row_duals) != kHighsStatusOk) return -1;
  return 0;
}

void cnf_highs_lower_work_limit(cnf_watch* w, double limit) {
  double old;
  __atomic_load(&w->work_limit, &old, __ATOMIC_ACQUIRE);
  while ((old <= 0 || limit < old) &&
         !__atomic_compare_exchange(&w->work_limit, &old, &limit, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
  }
}

void cnf_highs_work(cnf_watch* w, double* work, int* out_of_work, long long* iterations, long long* nodes) {
  *iterations = __atomic_load_n(&w->iterations, __ATOMIC_ACQUIRE);
  *nodes = __atomic_load_n(&w->nodes, __ATOMIC_ACQUIRE);
  __atomic_load(&w->work, work, __ATOMIC_ACQUIRE);
  *out_of_work = __atomic_load_n(&w->out_of_work, __ATOMIC_ACQUIRE);
}

long long cnf_highs_iterations(void* highs) {
  long long total = 0;
  for (const char* name : {"simplex_iteration_count", "ipm_iteration_count", "crossover_iteration_count"}) {
    HighsInt n = 0;
    if (Highs_getIntInfoValue(highs, name, &n) == kHighsStatusOk && n > 0) total += n;
  }
  return total;
}

int cnf_highs_num_cols(void* highs) { return (int)Highs_getNumCol(highs); }

int cnf_highs_num_rows(void* highs) { return (int)Highs_getNumRow(highs); }

long long cnf_highs_num_nz(void* highs) { return (long long)Highs_getNumNz(highs); }

const char* cnf_highs_version(void) { return Highs_version(); }

}  // extern "C"
