package codegen

import (
	"fmt"
	"slices"
	"strings"

	"github.com/cnf-tools/cnf/fuse"
	"github.com/cnf-tools/cnf/syntax"
	"github.com/cnf-tools/cnf/types"
)

// selects writes a case without a branch when it can: a filter's test, whose two paths (each a
// few updates, pushes, drops and jumps) meet again at once, becomes selects (x = c ? e : x),
// conditional stores (out.data[out.len] = e; out.len += c) and the drops both paths make. A
// branch on data is taken at random, and a mispredicted branch costs more than the work of both
// paths: in the quickhull benchmark the filter's branch was 7 ns of the fused loop's 8 ns per
// element. A variable the other path never touches and nothing reads after the paths meet
// (dead there, liveIn) is assigned without a select, since compilers turn selects of structs
// back into branches. It applies only when nothing on either path can fail or has an effect (an
// integer division, an index, a host call), since both paths are evaluated; the paths' own
// labels stay for the other ways in. It returns the code, ending in the goto to where the paths
// meet, and whether it applies.
func (d *definition) selects(proc *fuse.Process, live map[fuse.Label]map[string]bool, in *fuse.Instr, cond string, vars map[string]string, writes, scalars map[string]bool, whereOf func(syntax.Expr) string, label func(fuse.Label) string) (string, bool, error) {
	thenSeq, elseSeq := chain(proc, in.Next.Label), chain(proc, in.Else.Label)
	join := -1
	for i, l := range thenSeq {
		if slices.Contains(elseSeq, l) {
			join = i
			break
		}
	}
	if join < 0 {
		return "", false, nil
	}
	meet := thenSeq[join]
	thenPath, elsePath := thenSeq[:join], elseSeq[:slices.Index(elseSeq, meet)]
	if !sameDrops(proc, thenPath, elsePath) {
		return "", false, nil
	}
	var b strings.Builder
	c := d.p.local("c")
	fmt.Fprintf(&b, "\t{ /* a select, not a branch */\n\t\tbool %s = %s;\n", c, cond)
	before := d.p.effects
	// path writes one path's updates and pushes, guarded by guard; unguarded lists the
	// variables it may assign without a select.
	path := func(first fuse.Next, labels []fuse.Label, guard string, unguarded func(string) bool) error {
		update := func(n fuse.Next) error {
			for _, u := range n.Updates {
				v, err := d.x.value(u.Expr, nil, whereOf(u.Expr))
				if err != nil {
					return err
				}
				if unguarded(u.Var) {
					fmt.Fprintf(&b, "\t\t%s = %s;\n", vars[u.Var], v)
					continue
				}
				d.selectInto(&b, vars[u.Var], guard, v, d.x.vars[u.Var].t)
			}
			return nil
		}
		if err := update(first); err != nil {
			return err
		}
		for _, l := range labels {
			next := proc.Instrs[l]
			if next.Op == fuse.Push && (writes[next.Chan] || scalars[next.Chan]) {
				v, err := d.x.value(next.Expr, nil, whereOf(next.Expr))
				if err != nil {
					return err
				}
				o := cname(next.Chan)
				if writes[next.Chan] {
					fmt.Fprintf(&b, "\t\t%s.data[%s.len] = %s;\n\t\t%s.len += %s;\n", o, o, v, o, guard)
				} else {
					d.selectInto(&b, o, guard, v, d.info.Types[next.Chan])
				}
			}
			if err := update(next.Next); err != nil {
				return err
			}
		}
		return nil
	}
	elseQuiet := len(in.Else.Updates) == 0
	for _, l := range elsePath {
		next := proc.Instrs[l]
		elseQuiet = elseQuiet && len(next.Next.Updates) == 0 && next.Op != fuse.Push
	}
	// With a quiet else path (drops and jumps only), a variable dead where the paths meet is
	// never read when the test fails: assign it unconditionally.
	thenFree := func(v string) bool { return elseQuiet && !live[meet][v] }
	if err := path(in.Next, thenPath, c, thenFree); err != nil {
		return "", false, err
	}
	if err := path(in.Else, elsePath, "!"+c, func(string) bool { return false }); err != nil {
		return "", false, err
	}
	if d.p.effects != before {
		return "", false, nil
	}
	for _, l := range thenPath {
		if next := proc.Instrs[l]; next.Op == fuse.Drop {
			fmt.Fprintf(&b, "\t\t%s++;\n", d.cursor(next.Chan))
		}
	}
	fmt.Fprintf(&b, "\t}\n\tgoto %s;\n", label(meet))
	return b.String(), true, nil
}

// chain is the labels from start along instructions with one way on (jump, push, drop), at
// most 8, ending with the first label that is not one of them.
func chain(proc *fuse.Process, start fuse.Label) []fuse.Label {
	out := []fuse.Label{start}
	for at := start; len(out) <= 8; {
		in, ok := proc.Instrs[at]
		if !ok || (in.Op != fuse.Jump && in.Op != fuse.Push && in.Op != fuse.Drop) {
			break
		}
		at = in.Next.Label
		if slices.Contains(out, at) {
			break
		}
		out = append(out, at)
	}
	return out
}

// sameDrops reports whether two paths drop the same channels, as many times each.
func sameDrops(proc *fuse.Process, a, b []fuse.Label) bool {
	count := map[string]int{}
	for _, l := range a {
		if in := proc.Instrs[l]; in.Op == fuse.Drop {
			count[in.Chan]++
		}
	}
	for _, l := range b {
		if in := proc.Instrs[l]; in.Op == fuse.Drop {
			count[in.Chan]--
		}
	}
	for _, n := range count {
		if n != 0 {
			return false
		}
	}
	return true
}

// selectInto writes dst = c ? v : dst. A tuple is selected component by component: compilers
// turn a select of scalars into a conditional move or a blend, but a select of a struct into a
// branch.
func (d *definition) selectInto(b *strings.Builder, dst, c, v string, t *types.Type) {
	if t == nil || t.Kind() != "Tuple" {
		fmt.Fprintf(b, "\t\t%s = %s ? %s : %s;\n", dst, c, v, dst)
		return
	}
	tn, err := d.p.ct.name(t)
	if err != nil {
		fmt.Fprintf(b, "\t\t%s = %s ? %s : %s;\n", dst, c, v, dst)
		return
	}
	tmp := d.p.local("s")
	fmt.Fprintf(b, "\t\t%s %s = %s;\n", tn, tmp, v)
	var leaves func(path string, t *types.Type)
	leaves = func(path string, t *types.Type) {
		if t.Kind() != "Tuple" {
			fmt.Fprintf(b, "\t\t%s%s = %s ? %s%s : %s%s;\n", dst, path, c, tmp, path, dst, path)
			return
		}
		for i, e := range t.Elems() {
			leaves(fmt.Sprintf("%s.f%d", path, i), e)
		}
	}
	leaves("", t)
}
