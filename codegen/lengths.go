package codegen

import (
	"github.com/cnf-tools/cnf/cluster"
	"github.com/cnf-tools/cnf/syntax"
)

// Arrays of one length by construction. A blocked loop runs every array it reads from memory
// (its roots) over one index range, so it needs their lengths equal. A map_n or zip of the
// loop that reads two roots checks that they are (blockable's joined groups); two roots read
// apart are equal too when the loops that made them say so: an array made by map, mapN, zip,
// unzip, indexed, reverse, a scan or gather has the length of what it walks (a mapN's or zip's
// inputs all have it: it failed otherwise), so b = map f xs has the length of xs whatever a
// caller passes. Only the bindings of loops that ran before the loop count: a mapN of a later
// loop that would fail on unequal lengths has not failed yet when this one runs.

// lengthClasses groups the arrays whose lengths are equal once the clusters before cluster k
// have run (every binding of theirs has run, and every length check of theirs has passed).
type lengthClasses map[string]string

// lengthsBefore builds the classes for the loop of cluster k of the definition's clustering.
func (d *definition) lengthsBefore(k int) lengthClasses {
	lc := lengthClasses{}
	for _, c := range d.cl.Clusters {
		if c.Index >= k {
			continue
		}
		for _, nd := range c.Nodes {
			lc.note(nd)
		}
	}
	return lc
}

// note joins the outputs of one binding with the inputs they take their length from.
func (lc lengthClasses) note(nd *cluster.Node) {
	b := nd.Binding
	var from []*syntax.Ident
	switch c := b.Rhs.(type) {
	case *syntax.Map:
		from = c.Arrays
	case *syntax.Zip:
		from = []*syntax.Ident{c.A, c.B}
	case *syntax.Unzip:
		from = []*syntax.Ident{c.Array}
	case *syntax.Indexed:
		from = []*syntax.Ident{c.Array}
	case *syntax.Reverse:
		from = []*syntax.Ident{c.Array}
	case *syntax.Scan:
		from = []*syntax.Ident{c.Array}
	case *syntax.Gather:
		from = []*syntax.Ident{c.Indices}
	default:
		return
	}
	for _, id := range b.Names {
		for _, a := range from {
			lc.join(id.Name, a.Name)
		}
	}
}

func (lc lengthClasses) find(a string) string {
	for {
		p, ok := lc[a]
		if !ok || p == a {
			return a
		}
		a = p
	}
}

func (lc lengthClasses) join(a, b string) {
	if ra, rb := lc.find(a), lc.find(b); ra != rb {
		lc[ra] = rb
	}
}

// same reports whether a and b have one length by construction.
func (lc lengthClasses) same(a, b string) bool { return lc.find(a) == lc.find(b) }
