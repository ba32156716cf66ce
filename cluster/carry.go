package cluster

// Cuts carried from one stage of a long time limit to the next (Stages; the analysis core runs
// them): a stage's search starts its root loop again, and without its cuts the loop began from
// the model as formulated every time, so a stage of 4 s spent half its work finding again what
// the 2 s before it had found, and on `fans` programs the loop never got to the relaxations
// that read the optimum (fans 200 seed 3: 3,459,202 at 8 s, where the loop run to its end
// proves 3,018,812 in 4 s; docs/performance.md, "Stages that continue"). Carried, the next
// stage's loop starts from the cuts that bind in the last relaxation (their row duals are not
// zero: with the model's rows they give its optimum again, in a few thousand rows where every
// tight cut is tens of thousands): it continues where the stage before stopped, the same way
// on every run (each stage's cuts are decided by its work).

// Cuts are the root loop's cuts whose duals in its last relaxation are not zero, for the same
// graph's next solve (Options.Cuts). They belong to one model: a solve of another (other
// options, another graph) ignores them.
type Cuts struct {
	vars, rows int  // the model's columns and rows, to recognise it
	sameSize   bool // the model's variant
	list       []Row
	// lazy are the model's own rows that the loop's relaxation had taken in (lazyrows.go) and
	// that bind: they are not cuts (the search model has them already).
	lazy []Row
}

// cutsOf records the binding cuts and lazy rows of a root loop on m. Nil when there are none.
func cutsOf(m *Model, cuts, lazy []Row) *Cuts {
	if len(cuts)+len(lazy) == 0 {
		return nil
	}
	return &Cuts{vars: len(m.Vars), rows: len(m.Rows), sameSize: m.variant.SameSizeOnly, list: cuts, lazy: lazy}
}

// forModel is c when it was found for m (nil-safe), nil when for another model.
func (c *Cuts) forModel(m *Model) *Cuts {
	if c == nil || c.vars != len(m.Vars) || c.rows != len(m.Rows) || c.sameSize != m.variant.SameSizeOnly || len(m.variant.Together) > 0 {
		return nil
	}
	return c
}
