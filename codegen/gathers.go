package codegen

import (
	"fmt"
	"slices"

	"github.com/cnf-tools/cnf/syntax"
)

// Gathers checked after their pass. A gather's element is xs ! i, which fails when i is out
// of range (CNF_AT: a branch to cnf_fail). That branch was the only control flow of many
// blocked passes, and gcc vectorises no loop with a call in it, so the whole pass, maps, folds
// and tests beside the gather, ran one element at a time ("not vectorized: control flow in
// loop": classic 210, whose optimal pass also computes a map under a filter, was behind
// Megiddo and Sarkar's clustering; docs/performance.md, "Gathers checked after their pass").
//
// Where the gathers are the only part of a pass that can fail, each reads its element without
// a branch instead (CNF_GATHER: an index out of range reads element 0, of cnf_none when the
// array is empty, and sets the pass's flag) and keeps its indices in a block buffer; after the
// pass, when the flag is set, the block's indices are checked in order by CNF_AT, element by
// element and gather by gather as the pass has them, which fails at the first bad one with the
// interpreter's message. Nothing else in the pass can fail or be seen outside the loop before
// that (its stores go to the block's buffers, its folds to the loop's accumulators, and a
// failure ends the loop), so the results and the errors are those of the checked pass.

// checkedGathers are the gathers of the pass loop (without the nodes hoisted takes to a loop of
// their own) that read their elements without a branch and are checked after the pass; nil
// when the pass is scalar anyway (a Float fold or scan in order), when something else in it
// can fail or calls a host function, when it loads or stores tuples (tupled), or when it has
// no gather of Ints, Floats or Bools (the element types cnf_none has). probes are the nodes'
// probes, taken before any was bound (probe unbinds the node's vars); stored says which arrays
// the loop keeps in memory (its outputs and block buffers).
func (d *definition) checkedGathers(loop []*blockNode, hoisted map[*blockNode]bool, probes map[*blockNode]probed, stored func(string) bool) []*blockNode {
	if slices.ContainsFunc(loop, d.floatChain) {
		return nil
	}
	made := map[string]bool{} // what the pass makes (an input made elsewhere is read from memory)
	for _, bn := range loop {
		for _, id := range bn.b.Names {
			made[id.Name] = true
		}
	}
	var gathers []*blockNode
	for _, bn := range loop {
		if hoisted[bn] {
			continue
		}
		pr := probes[bn]
		if !pr.ok || pr.hostCalls > 0 || d.tupled(bn, made, stored) {
			return nil
		}
		if !isGather(bn) {
			if pr.effects > 0 {
				return nil
			}
			continue
		}
		switch d.info.Types[bn.b.Name()].Elem().Kind() {
		case "Int", "Float", "Bool":
		default:
			return nil
		}
		if pr.effects != 1 { // the gather's own index, nothing else
			return nil
		}
		gathers = append(gathers, bn)
	}
	return gathers
}

// tupled reports whether bn loads or stores arrays of tuples (indexed, zip, cross, a map of
// pairs) in memory: an input made outside the pass (not in made), or an output the loop
// keeps (stored). Vectorised, such elements are interleaved and taken apart by permutes,
// which cost more than the scalar pass a gather's check kept (classic 215's loop, which
// writes `indexed xs1`, ran slower with its gather checked after the pass, and faster with
// maps of Ints in place of the pairs). Pairs made and taken apart in the pass stay in
// registers and cost nothing of the kind (examples/deltas.cnf, whose `indexed` is unzipped
// in the pass, gains). docs/performance.md, "Gathers checked after their pass", has the
// measurements.
func (d *definition) tupled(bn *blockNode, made map[string]bool, stored func(string) bool) bool {
	pairs := func(a string) bool {
		t := d.info.Types[a]
		return t != nil && t.IsArray() && t.Elem().Kind() == "Tuple"
	}
	for _, a := range bn.ins {
		if pairs(a) && !made[a] {
			return true
		}
	}
	for _, id := range bn.b.Names {
		if pairs(id.Name) && stored(id.Name) {
			return true
		}
	}
	return false
}

// gatherCheck names what a pass's checked gathers use (p is the loop's prefix): the flag an
// index out of range sets, and for each gather its data's pointer and its indices' buffer.
type gatherCheck struct {
	gathers []*blockNode // in the pass's order
	bad     string
	data    map[*blockNode]string
	idx     map[*blockNode]string
}

// newGatherCheck names the pass's flag after its first gather (a gather is in one pass).
func newGatherCheck(p string, gathers []*blockNode) *gatherCheck {
	if len(gathers) == 0 {
		return nil
	}
	gc := &gatherCheck{gathers: gathers, bad: ident(p+"bad_", gathers[0].b.Name()), data: map[*blockNode]string{}, idx: map[*blockNode]string{}}
	for _, bn := range gathers {
		gc.data[bn] = ident(p+"gd_", bn.b.Name())
		gc.idx[bn] = ident(p+"gi_", bn.b.Name())
	}
	return gc
}

// declare writes, before the pass, the flag, and each gather's data pointer (cnf_none's
// elements for an empty array, so that no read is out of bounds) and index buffer (arr: a
// block buffer of the loop).
func (gc *gatherCheck) declare(d *definition, elemType func(string) (string, error), arr func(tn, name string) string) error {
	d.printf("\t\tint %s = 0; /* an index out of range in this pass (checkedGathers): checked after it */\n", gc.bad)
	for _, bn := range gc.gathers {
		g := bn.b.Rhs.(*syntax.Gather)
		data, ok := d.x.vars[g.Data.Name]
		if !ok {
			return fmt.Errorf("%s: the gathered array %s has no C name", bn.b.Name(), g.Data.Name)
		}
		tn, err := elemType(bn.b.Name())
		if err != nil {
			return err
		}
		d.printf("\t\tconst %s *%s = %s.len > 0 ? %s.data : cnf_none.%s;\n", tn, gc.data[bn], data.c, data.c, noneField(tn))
		d.printf("\t\t%s;\n", arr("int64_t", gc.idx[bn]))
	}
	return nil
}

// has reports whether bn is one of the pass's checked gathers (nil-safe: none).
func (gc *gatherCheck) has(bn *blockNode) bool {
	if gc == nil {
		return false
	}
	_, ok := gc.idx[bn]
	return ok
}

// element is the gather's element at index i (a C expression), and the statement that keeps
// the index for the check.
func (gc *gatherCheck) element(d *definition, bn *blockNode, i, kv string) (elem, keep string) {
	g := bn.b.Rhs.(*syntax.Gather)
	data := d.x.vars[g.Data.Name]
	return fmt.Sprintf("CNF_GATHER(%s, %s.len, %s, %s)", gc.data[bn], data.c, i, gc.bad),
		fmt.Sprintf("%s[%s] = %s;", gc.idx[bn], kv, i)
}

// check writes, after the pass over count elements, the check of its indices in order.
func (gc *gatherCheck) check(d *definition, kv, count string) {
	d.printf("\t\tif (__builtin_expect(%s, 0)) /* the first index out of range fails, as in a pass that checks each */\n", gc.bad)
	d.printf("\t\t\tfor (int64_t %s = 0; %s < %s; %s++) {\n", kv, kv, count, kv)
	for _, bn := range gc.gathers {
		g := bn.b.Rhs.(*syntax.Gather)
		d.printf("\t\t\t\t(void)CNF_AT(%s, %s[%s], %s);\n", d.x.vars[g.Data.Name].c, gc.idx[bn], kv, quote(bn.b.Name()))
	}
	d.printf("\t\t\t}\n")
}

// noneField is cnf_none's member of the C element type tn.
func noneField(tn string) string {
	switch tn {
	case "double":
		return "f"
	case "bool":
		return "b"
	}
	return "i"
}
