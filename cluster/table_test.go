package cluster

import (
	"strings"
	"testing"

	"github.com/cnf-tools/cnf/syntax"
)

// The dependency graph's fusion rules (uses, Fig 1.10) agree with the combinator table: an
// edge into a combinator prevents fusion exactly when the argument it feeds is one the table
// says is read whole. Each combinator is applied to arrays made by maps (fusible producers),
// so only the consumer's rule decides.
func TestFusionRulesMatchTable(t *testing.T) {
	for _, c := range syntax.CombinatorTable {
		name := c.Name
		if name == "mapN" {
			name = "map2"
		}
		// Array arguments get producers p0, p1, ...; other arguments are scalars or workers.
		var args, lets []string
		arrays := map[string]string{} // producer -> parameter name
		for i, p := range c.Params {
			pname := strings.Fields(p)[0]
			isArray := strings.Contains(p, "Array") || pname == "args"
			switch {
			case name == "map2" && i > 0:
				isArray = true
			case name == "external" && i == 0:
				args = append(args, "h")
				continue
			}
			if !isArray {
				args = append(args, map[bool]string{true: "(\\a b -> a)", false: "1"}[strings.Contains(p, "->")])
				if strings.HasPrefix(pname, "worker") && (name == "fold" || strings.HasSuffix(name, "scanl")) {
					args[len(args)-1] = "(+)"
				}
				if pname == "predicate" {
					args[len(args)-1] = "(> 0)"
				}
				if name == "generate" && pname == "worker" {
					args[len(args)-1] = "(\\i -> i)"
				}
				continue
			}
			prod := "p" + string(rune('0'+i))
			arrays[prod] = pname
			elem := "x"
			if pname == "ps" {
				elem = "(x, x)"
			}
			producer := "map (\\x -> " + elem + ") xs"
			if name == "length" {
				producer = "filter (> 0) xs" // a length of a parameter's size is no node
			}
			lets = append(lets, prod+" = "+producer)
			args = append(args, prod)
		}
		if name == "map2" {
			args[0] = "(+)"
		}
		lhs := "r"
		if name == "unzip" {
			lhs = "r, r2"
		}
		src := "f xs =\n  let " + strings.Join(lets, "\n      ") + "\n      " + lhs + " = " + name + " " + strings.Join(args, " ") + "\n  in  r\n"
		if name == "generate" {
			src = "f xs =\n  let r = generate 3 (\\i -> i)\n  in  r\n"
		}
		sizes := sizesOf(t, src)
		g := NewGraph(sizes)
		r := g.Node("r")
		if r == nil {
			t.Fatalf("%s: no node r in\n%s", c.Name, src)
		}
		for _, e := range g.In(r.ID) {
			param := arrays[e.From.Name]
			whole := false
			for _, w := range c.Whole {
				whole = whole || w == param || w == "args ..." && name == "external"
			}
			if e.Preventing != whole {
				t.Errorf("%s: the edge from %s (its %s) prevents fusion: %v; the table says read whole: %v\n%s", c.Name, e.From.Name, param, e.Preventing, whole, src)
			}
		}
	}
}
