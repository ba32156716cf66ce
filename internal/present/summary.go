package present

import (
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/cnf-tools/cnf/cluster"
	"github.com/cnf-tools/cnf/syntax"
)

// Summary is a report in printable form: what `cnf cluster --json` prints.
type Summary struct {
	Name         string  `json:"name"`
	Loops        int     `json:"loops"`
	Objective    int     `json:"objective"`
	Optimal      bool    `json:"optimal"`
	SolveSeconds float64 `json:"solveSeconds"`
	// Work is the work the solve spent, in work units (effort.go): the same on every run,
	// unlike SolveSeconds. Clocked says that the clock's safety net stopped it instead.
	Work     int64  `json:"work"`
	Clocked  bool   `json:"clocked,omitempty"`
	Fallback string `json:"fallback,omitempty"`
	// Note says why a clustering is not proven optimal.
	Note string `json:"note,omitempty"`
	// Bound is a lower bound on the optimum's objective: Objective when Optimal, else what
	// the solver proved (0 when nothing is known).
	Bound       int              `json:"bound"`
	Clusters    []ClusterSummary `json:"clusters"`
	Baselines   Baselines        `json:"baselines"`
	Preventing  []EdgeSummary    `json:"fusionPreventing"`
	Variables   int              `json:"variables"`
	Constraints int              `json:"constraints"`
	// Known maps each length computed before any loop to the expression that computes it.
	Known map[string]string `json:"known,omitempty"`
	// Dead lists the bindings that are never computed (arrays used only by lengths).
	Dead []string `json:"neverComputed,omitempty"`
	// Rates are the measured filter rates the weights used (--rates), by filter name.
	Rates map[string]float64 `json:"rates,omitempty"`
	// KnownRates are the rates of the filters whose test is the same for every element, decided
	// by its text (0: keeps nothing, 1: everything), which the weights used instead of the guess.
	KnownRates map[string]float64 `json:"knownRates,omitempty"`
}

// ClusterSummary describes one cluster.
type ClusterSummary struct {
	Bindings     []string `json:"bindings"`
	Reads        []string `json:"reads"`
	ReadsScalars []string `json:"readsScalars,omitempty"`
	Writes       []string `json:"writes"`
	Contracted   []string `json:"contracted"`
	Scalars      []string `json:"scalars,omitempty"`
	External     bool     `json:"external,omitempty"`
	// Loop is the cluster's loop number (1-based; 0 for an external) and Color its colour
	// (Colors).
	Loop  int    `json:"loop,omitempty"`
	Color string `json:"color,omitempty"`
}

// Baselines are the loop counts of Table 1.1's other clusterings. Megiddo and Sarkar's comes
// from an ILP too: MegiddoOptimal says whether it was proven optimal (under a time limit it may
// not be, and its loop count is then that of the best clustering found).
type Baselines struct {
	Unfused        int  `json:"unfused"`
	Stream         int  `json:"stream"`
	Megiddo        int  `json:"megiddo"`
	MegiddoOptimal bool `json:"megiddoOptimal"`
}

// MegiddoText is the Megiddo and Sarkar loop count for people: "3", or "5 (not proven
// optimal)".
func (b Baselines) MegiddoText() string {
	if b.MegiddoOptimal {
		return fmt.Sprint(b.Megiddo)
	}
	return fmt.Sprintf("%d (not proven optimal)", b.Megiddo)
}

// EdgeSummary is a fusion-preventing edge and why it prevents fusion.
type EdgeSummary struct {
	From    string   `json:"from"`
	To      string   `json:"to"`
	Reasons []string `json:"reasons"`
}

func orEmpty(xs []string) []string {
	if xs == nil {
		return []string{}
	}
	return xs
}

// Summarize returns the printable form of a report.
func Summarize(r *cluster.Report) Summary {
	s := Summary{
		Name:         r.Graph.Sizes.Func.Def.Name.Name,
		Loops:        r.Ours.Loops(),
		Objective:    r.Ours.Objective,
		Optimal:      r.Ours.Optimal,
		SolveSeconds: r.Ours.SolveTime.Seconds(),
		Work:         int64(math.Round(r.Ours.Work)),
		Clocked:      r.Ours.Clocked,
		Fallback:     r.Ours.Fallback,
		Note:         r.Ours.Note,
		Bound:        r.Ours.Bound,
		Baselines:    BaselinesOf(r),
		Preventing:   []EdgeSummary{},
		Clusters:     []ClusterSummary{},
		Rates:        r.Graph.MeasuredRates(),
		KnownRates:   r.Graph.KnownRates(),
	}
	if s.Optimal {
		s.Bound = s.Objective
	}
	if m := r.Ours.Model; m != nil {
		s.Variables, s.Constraints = len(m.Vars), len(m.Rows)
	} else {
		// No model was built (the greedy clustering was optimal at no cost, or the model
		// was over the budget): the size it would have had.
		size := cluster.EstimateModel(r.Graph, false)
		s.Variables, s.Constraints = size.Columns, size.Rows
	}
	colors := Colors(r.Ours.Clustering)
	for _, c := range r.Ours.Clusters {
		names := c.Names()
		if c.External() {
			names = nil
			for _, id := range c.Nodes[0].Binding.Names {
				names = append(names, id.Name)
			}
		}
		s.Clusters = append(s.Clusters, ClusterSummary{
			Bindings: names, Reads: orEmpty(c.Reads), ReadsScalars: c.ReadsScalars,
			Writes: orEmpty(c.Writes), Contracted: orEmpty(c.Contracted), Scalars: c.Scalars, External: c.External(),
			Loop: r.Ours.LoopNumber(c.Index), Color: colors[r.Ours.LoopNumber(c.Index)],
		})
	}
	for _, b := range r.Graph.Known {
		if s.Known == nil {
			s.Known = map[string]string{}
		}
		l, _ := r.Graph.Sizes.LengthOf(b)
		s.Known[b.Name()] = syntax.FormatExpr(l.Known)
	}
	for _, b := range r.Graph.Dead {
		s.Dead = append(s.Dead, b.Name())
	}
	for _, e := range r.Graph.Edges {
		if e.Preventing {
			s.Preventing = append(s.Preventing, EdgeSummary{From: e.From.Name, To: e.To.Name, Reasons: e.Reasons})
		}
	}
	return s
}

// RatesText lists measured filter rates by name, as percentages ("f 100%, g 25%"); name
// renders each filter's name (plain, or as code in a hover).
func RatesText(rates map[string]float64, name func(string) string) string {
	names := slices.Sorted(maps.Keys(rates))
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = fmt.Sprintf("%s %.3g%%", name(n), 100*rates[n])
	}
	return strings.Join(parts, ", ")
}

// KnownRatesText lists filters of a known rate (0 or 1) as "a keeps none, b keeps all", by name.
func KnownRatesText(rates map[string]float64, name func(string) string) string {
	names := slices.Sorted(maps.Keys(rates))
	parts := make([]string, len(names))
	for i, n := range names {
		what := "keeps all"
		if rates[n] == 0 {
			what = "keeps none"
		}
		parts[i] = name(n) + " " + what
	}
	return strings.Join(parts, ", ")
}

// BaselinesOf counts the loops of the baseline clusterings.
func BaselinesOf(r *cluster.Report) Baselines {
	return Baselines{Unfused: r.Unfused.Loops(), Stream: r.Stream.Loops(), Megiddo: r.Megiddo.Loops(),
		MegiddoOptimal: r.Megiddo.Optimal && r.Megiddo.Fallback == ""}
}

// WriteText prints the report for people; withTime adds the solve time (golden tests leave it
// out, since it varies).
func WriteText(w io.Writer, r *cluster.Report, withTime bool) {
	s := Summarize(r)
	status := "optimal"
	if !s.Optimal {
		status = "not proven optimal: " + r.Ours.NotProven()
	}
	if s.Fallback != "" {
		status = s.Fallback
	}
	if withTime {
		status += fmt.Sprintf(", solved in %s", r.Ours.SolveTime.Round(10_000))
	}
	fmt.Fprintf(w, "%s: %s, objective %d (%s)\n", s.Name, syntax.Plural(s.Loops, "loop"), s.Objective, status)
	b := s.Baselines
	fmt.Fprintf(w, "  baselines: unfused %d, stream fusion %d, Megiddo & Sarkar %s\n", b.Unfused, b.Stream, b.MegiddoText())
	if len(s.Rates) > 0 {
		fmt.Fprintf(w, "  weighed by measured filter rates: %s\n", RatesText(s.Rates, func(n string) string { return n }))
	}
	if len(s.KnownRates) > 0 {
		fmt.Fprintf(w, "  filters whose test is the same for every element, weighed so: %s\n", KnownRatesText(s.KnownRates, func(n string) string { return n }))
	}
	for _, k := range r.Graph.Known {
		fmt.Fprintf(w, "  before any loop: %s = %s\n", k.Name(), s.Known[k.Name()])
	}
	if len(s.Dead) > 0 {
		fmt.Fprintf(w, "  never computed: %s\n", strings.Join(s.Dead, ", "))
	}
	loop := 0
	for k, c := range s.Clusters {
		if c.External {
			b := r.Ours.Clusters[k].Nodes[0].Binding
			fmt.Fprintf(w, "  external: %s = %s\n", strings.Join(c.Bindings, ", "), syntax.FormatCombinator(b.Rhs))
			continue
		}
		loop++
		fmt.Fprintf(w, "  loop %d: %s\n", loop, strings.Join(c.Bindings, ", "))
		var parts []string
		if len(c.Reads) > 0 {
			parts = append(parts, "reads "+strings.Join(c.Reads, ", "))
		}
		if len(c.ReadsScalars) > 0 {
			parts = append(parts, "uses "+strings.Join(c.ReadsScalars, ", "))
		}
		if len(c.Writes) > 0 {
			parts = append(parts, "writes "+strings.Join(c.Writes, ", "))
		}
		if len(c.Contracted) > 0 {
			parts = append(parts, "contracts "+strings.Join(c.Contracted, ", "))
		}
		if len(c.Scalars) > 0 {
			parts = append(parts, "computes "+strings.Join(c.Scalars, ", "))
		}
		if len(parts) > 0 {
			fmt.Fprintf(w, "    %s\n", strings.Join(parts, "; "))
		}
	}
	if len(s.Preventing) > 0 {
		fmt.Fprintf(w, "  fusion-preventing edges:\n")
		for _, e := range s.Preventing {
			fmt.Fprintf(w, "    %s -> %s: %s\n", e.From, e.To, strings.Join(e.Reasons, "; "))
		}
	}
}
