// Package cluster builds the dependency graph of a CNF definition, with fusible and
// fusion-preventing edges, and finds the optimal clustering of its bindings into loops by
// integer linear programming (the thesis's Fig 1.14), solved by HiGHS (linked in), or in a
// build without cgo by a solver executable (highs, glpsol, cbc), or without any by exhaustive
// search and the greedy clustering. It knows nothing of how a clustering is shown (JSON, text,
// colours, diagrams: package internal/present) or of editors.
//
// The package is large; its files by job:
//
//   - The graph and what a clustering is: graph.go (nodes, edges, fusion rules, concestors),
//     clustering.go (clusters, loops numbered once, reads and writes), check.go (validity
//     without the ILP), decision.go (the graph's key and a clustering carried to an equal
//     graph), values.go (clusterings to and from the model's column values).
//   - The weights: weights.go (the objective's pair weights, filters' rates), uniform.go
//     (filters whose test is the same for every element, by its text).
//   - Baselines and heuristics: baselines.go (unfused, stream fusion), merge.go (the merger
//     both greedy merges use), greedy.go, improve.go (single moves and polish), kick.go (kicks
//     from polish's local optimum, for work the search cannot use), exhaustive.go
//     (every partition, up to ten bindings), twins.go (interchangeable nodes).
//   - The ILP: model.go (Fig 1.14's columns and rows, the objective), order.go, cuts.go
//     (transitivity cuts in the formulation), budget.go (model size limits), lp.go (CPLEX LP
//     text for external solvers).
//   - The root loop, before HiGHS searches: rootcuts.go (the cutting-plane loop without π),
//     separators.go (the table of cut families and the cut pool), triangles.go, paths.go,
//     convexity.go, cycles.go, stars.go (the families), lazyrows.go (concestor rows added
//     when violated), orderfree.go (π added back), reading.go (clusterings read from
//     relaxations), carry.go (the binding cuts a stage of a long limit hands the next).
//   - Solving: cluster.go (Solve: the stages, fallbacks, notes), solve.go (a model, split into
//     independent parts), solver.go (HiGHS in this process), external.go (solver executables),
//     effort.go (work instead of time), race.go (two searches decided by work), progress.go
//     (bounds as they improve).
//   - Explanations: explain.go (why a binding is not in another loop).
package cluster
