// The bridge's own functions (bridge.cpp), declared for cgo. HiGHS's prototypes are not copied
// here: bridge.cpp includes HiGHS's header.
#ifndef CNF_HIGHS_BRIDGE_H
#define CNF_HIGHS_BRIDGE_H
#ifdef __cplusplus
extern "C" {
#endif

// cnf_highs_set_start gives HiGHS a feasible solution to start from; 0 when it took it.
int cnf_highs_set_start(void* highs, const double* cols);

// cnf_highs_outcome reads the model status, whether a feasible solution exists, its objective,
// and (when cols is not null and ncols matches) its column values. It returns -1 when HiGHS
// cannot report them.
int cnf_highs_outcome(void* highs, int* status, int* feasible, double* objective, double* cols, int ncols);

// cnf_highs_dual_bound reads the MIP search's dual bound: no solution has a smaller objective.
// It returns -1 when HiGHS cannot report it.
int cnf_highs_dual_bound(void* highs, double* bound);

// cnf_watch is what the callback of cnf_highs_watch shares with Go: the flag that stops the
// solve, and the branch and bound's latest primal and dual bounds (mip is non-zero once the
// search has reported them). Every field the Go side writes during a solve, or reads from
// another thread, is accessed atomically.
//
// The search's work is counted deterministically: at each of the branch and bound's
// interrupt points, work = its LP iterations so far * per_iteration + its nodes so far *
// per_node. The solve stops at the first such point where work >= work_limit (when
// work_limit > 0) and sets out_of_work. HiGHS's search is deterministic and calls these
// points at the same moments of it on every run, so where it stops does not depend on the
// machine's load (unlike its time limit).
typedef struct {
  int stop;
  int mip;
  double primal;
  double dual;
  double work_limit;
  double per_iteration;
  double per_node;
  double work;
  int out_of_work;
  long long iterations;
  long long nodes;
} cnf_watch;

// cnf_highs_watch installs a callback at the simplex, interior-point and branch-and-bound
// interrupt points: HiGHS stops at the next of them once w->stop is non-zero (or the work
// limit is reached), and the branch-and-bound ones record the search's bounds and work in w.
// w must stay valid until the solve returns. 0 on success.
int cnf_highs_watch(void* highs, cnf_watch* w);

// cnf_highs_interrupt sets the flag that cnf_highs_watch's callback reads (atomically: HiGHS
// reads it from its own threads).
void cnf_highs_interrupt(cnf_watch* w);

// cnf_highs_watched reads the bounds the callback recorded; 0 when the search has reported
// none yet.
int cnf_highs_watched(cnf_watch* w, double* primal, double* dual);

// cnf_highs_iterations is the number of iterations of the instance's last LP solve: simplex,
// interior point and crossover together.
long long cnf_highs_iterations(void* highs);

// cnf_highs_lower_work_limit lowers w's work limit to limit (atomically: the callback reads
// it on HiGHS's thread); a higher limit, or one where there is none, is set too only when the
// limit is unset.
void cnf_highs_lower_work_limit(cnf_watch* w, double limit);

// cnf_highs_work reads the work the callback recorded and whether the work limit stopped the
// solve (read after the solve has returned).
void cnf_highs_work(cnf_watch* w, double* work, int* out_of_work, long long* iterations, long long* nodes);

// cnf_highs_num_rows is the number of rows of the instance's model.
int cnf_highs_num_rows(void* highs);

// cnf_highs_num_nz is the number of nonzeros of the instance's constraint matrix.
long long cnf_highs_num_nz(void* highs);

// cnf_highs_num_cols is the number of columns of the instance's model.
int cnf_highs_num_cols(void* highs);

// cnf_highs_reduced_costs reads the reduced costs of the columns of a solved LP into duals
// (ncols of them) and the duals of its rows into row_duals (nrows of them). 0 on success.
int cnf_highs_reduced_costs(void* highs, double* duals, int ncols, double* row_duals, int nrows);

// cnf_highs_delete_rows deletes the n rows whose indices set lists (ascending); the rows after
// them move up. 0 on success.
int cnf_highs_delete_rows(void* highs, int n, const int* set);

// cnf_highs_add_rows adds rows lo <= A x <= hi to the instance's model, A given row by row:
// row k's nonzeros are index/value[starts[k] .. starts[k+1]) (the last ends at nnz). A solved
// LP keeps its basis, so the next cnf_highs_run starts from it. 0 on success.
int cnf_highs_add_rows(void* highs, int nrow, const double* lo, const double* hi, int nnz,
                       const int* starts, const int* index, const double* value);

// cnf_highs_run solves the instance's model (again): 0 when HiGHS ran without error.
int cnf_highs_run(void* highs);

// cnf_highs_version is HiGHS's version string, as "1.10.0".
const char* cnf_highs_version(void);

// Model status codes the Go side distinguishes (kHighsModelStatus* in highs_c_api.h, checked
// against the header by static_assert in bridge.cpp).
enum {
  CNF_HIGHS_OPTIMAL = 7,
  CNF_HIGHS_INFEASIBLE = 8,
  CNF_HIGHS_TIME_LIMIT = 13,
  CNF_HIGHS_ITERATION_LIMIT = 14,
  CNF_HIGHS_INTERRUPT = 17,
};

#ifdef __cplusplus
}
#endif
#endif
