package cluster

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// WriteLP prints the model in CPLEX LP format, with readable names (x_sum1_gts, pi_sum1,
// c_gts), so that glpsol --lp, cbc or highs can solve the very same model. Variables that Fig
// 1.14 fixes appear with equal bounds, so every solver reports the model's objective (Fig 1.14's,
// with filtered arrays weighed as weights.go says).
func WriteLP(w io.Writer, m *Model, title string) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "\\ %s\n", title)
	fmt.Fprintf(bw, "\\ Fig 1.14 of Robinson's thesis: %d bindings, %d variables, %d constraints.\n", m.N, len(m.Vars), len(m.Rows))
	fmt.Fprintf(bw, "\\ x_i_j = 0: i and j share a loop; pi_i: position of i's loop; c_i = 1: i's array is materialised.\n")
	if m.Cuts > 0 {
		fmt.Fprintf(bw, "\\ %d of the constraints (tri_*) are transitivity cuts, not in the figure: they remove no clustering (cnf ilp --paper leaves them out).\n", m.Cuts)
	}
	if m.Lighter > 0 {
		fmt.Fprintf(bw, "\\ %d of the pairs weigh N^2/2^d, not N^2: the arrays they share are behind d filters (cnf ilp --paper gives every array the figure's N^2).\n", m.Lighter)
	}
	bw.WriteString("Minimize\n obj:")
	n := 0
	for i, v := range m.Vars {
		if v.Cost != 0 {
			writeTerm(bw, Term{Var: i, Coef: v.Cost}, m, n == 0, &n)
		}
	}
	if n == 0 && len(m.Vars) > 0 {
		bw.WriteString(" 0 " + m.Vars[0].Name)
	}
	bw.WriteString("\nSubject To\n")
	for _, r := range m.Rows {
		fmt.Fprintf(bw, " %s:", r.Name)
		k := 0
		for j, t := range r.Terms {
			writeTerm(bw, t, m, j == 0, &k)
		}
		switch {
		case math.IsInf(r.Lo, -1):
			fmt.Fprintf(bw, " <= %s\n", num(r.Hi))
		case math.IsInf(r.Hi, 1):
			fmt.Fprintf(bw, " >= %s\n", num(r.Lo))
		case r.Lo == r.Hi:
			fmt.Fprintf(bw, " = %s\n", num(r.Lo))
		default:
			// Ranged row: LP format has no ranges in Subject To; split it.
			fmt.Fprintf(bw, " >= %s\n %s_hi:", num(r.Lo), r.Name)
			for j, t := range r.Terms {
				writeTerm(bw, t, m, j == 0, &k)
			}
			fmt.Fprintf(bw, " <= %s\n", num(r.Hi))
		}
	}
	bw.WriteString("Bounds\n")
	for _, v := range m.Vars {
		switch {
		case v.Lo == v.Hi:
			fmt.Fprintf(bw, " %s = %s\n", v.Name, num(v.Lo))
		case math.IsInf(v.Lo, -1) && math.IsInf(v.Hi, 1):
			fmt.Fprintf(bw, " %s free\n", v.Name)
		case math.IsInf(v.Lo, -1):
			fmt.Fprintf(bw, " -inf <= %s <= %s\n", v.Name, num(v.Hi))
		case math.IsInf(v.Hi, 1):
			fmt.Fprintf(bw, " %s >= %s\n", v.Name, num(v.Lo))
		default:
			fmt.Fprintf(bw, " %s <= %s <= %s\n", num(v.Lo), v.Name, num(v.Hi))
		}
	}
	var bins []string
	for _, v := range m.Vars {
		if v.Kind == Binary {
			bins = append(bins, v.Name)
		}
	}
	if len(bins) > 0 {
		bw.WriteString("General\n")
		for i := 0; i < len(bins); i += 8 {
			bw.WriteString(" " + strings.Join(bins[i:min(i+8, len(bins))], " ") + "\n")
		}
	}
	bw.WriteString("End\n")
	return bw.Flush()
}

func writeTerm(w *bufio.Writer, t Term, m *Model, first bool, count *int) {
	*count++
	sign := " + "
	coef := t.Coef
	if coef < 0 {
		sign, coef = " - ", -coef
	}
	if first && sign == " + " {
		sign = " "
	}
	if coef == 1 {
		fmt.Fprintf(w, "%s%s", sign, m.Vars[t.Var].Name)
	} else {
		fmt.Fprintf(w, "%s%s %s", sign, num(coef), m.Vars[t.Var].Name)
	}
}

func num(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
