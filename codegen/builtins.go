package codegen

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/cnf-tools/cnf/syntax"
	"github.com/cnf-tools/cnf/types"
)

// arities of the prelude functions and operators compiled code knows, with their C in
// (*exprs).builtin: one table, as fuse's builtin is the interpreter's.
var arities = map[string]int{
	"+": 2, "-": 2, "*": 2, "/": 2, "div": 2, "mod": 2, "quot": 2, "rem": 2, "^": 2, "**": 2,
	"==": 2, "/=": 2, "<": 2, "<=": 2, ">": 2, ">=": 2, "min": 2, "max": 2, "&&": 2, "||": 2,
	"!": 2, "subtract": 2, "const": 2, ".": 2, "$": 2,
	"negate": 1, "abs": 1, "signum": 1, "sqrt": 1, "exp": 1, "log": 1, "sin": 1, "cos": 1,
	"fromIntegral": 1, "toFloat": 1, "truncate": 1, "round": 1, "floor": 1, "ceiling": 1,
	"even": 1, "odd": 1, "not": 1, "fst": 1, "snd": 1, "id": 1, "length": 1,
	"infinity": 0, "negInfinity": 0,
}

// builtin translates a prelude function or operator applied to args; ok is false when the name
// is none of them.
func (x *exprs) builtin(id *syntax.Ident, args []val, where string) (v val, ok bool, err error) {
	name := id.Name
	arity, known := arities[name]
	tuple := len(name) >= 3 && name[0] == '(' && name[len(name)-1] == ')' && strings.Trim(name[1:len(name)-1], ",") == ""
	if tuple {
		arity, known = len(name)-1, true
	}
	if !known {
		return val{}, false, nil
	}
	if len(args) < arity {
		if len(args) == 0 {
			return val{fn: id}, true, nil
		}
		return val{}, true, errAt(id, "%s is applied to %d of its %d arguments here; compiled code applies it to all", name, len(args), arity)
	}
	if name == "." || name == "$" {
		return val{}, true, errAt(id, "cannot compile (%s) as a function", name)
	}
	for _, a := range args[:arity] {
		if a.fn != nil && name != "const" && name != "id" {
			return val{}, true, errAt(id, "%s cannot take a function here", name)
		}
	}
	res, rt, err := x.builtinC(id, name, args[:arity], where, tuple)
	if err != nil {
		return val{}, true, err
	}
	if rest := args[arity:]; len(rest) > 0 {
		return val{}, true, errAt(id, "%s is applied to too many arguments", name)
	}
	return val{c: res, t: rt}, true, nil
}

// builtinC is the C of a fully applied builtin and its type.
func (x *exprs) builtinC(id *syntax.Ident, name string, a []val, where string, tuple bool) (string, *types.Type, error) {
	rt := x.rec[id]
	for range a {
		if rt == nil || rt.Kind() != "Func" {
			rt = nil
			break
		}
		rt = rt.Elems()[1]
	}
	if rt == nil && name != "infinity" && name != "negInfinity" {
		return "", nil, errAt(id, "the type of %s here is not known", name)
	}
	num := func(i int) string { return a[i].t.Kind() }
	switch name {
	case "infinity":
		return "INFINITY", rt, nil
	case "negInfinity":
		return "(-INFINITY)", rt, nil
	case "+", "-", "*":
		return fmt.Sprintf("(%s %s %s)", a[0].c, name, a[1].c), rt, nil
	case "/", "div", "mod", "quot", "rem":
		if name == "/" {
			if num(0) == "Float" {
				x.p.slow++
				return fmt.Sprintf("(%s / %s)", a[0].c, a[1].c), rt, nil
			}
			name = "quot"
		}
		if !nonZeroLiteral(a[1].c) {
			x.p.effects++ // by a literal other than 0 it cannot fail (MinInt64 / -1 wraps)
		}
		x.p.costly++ // 64-bit Int division has no vector instruction
		if !powerOfTwoLiteral(a[1].c) {
			x.p.scalar++ // by a power of two it is shifts, which gcc vectorises
		}
		if a[1].scalar != "" && x.divisors != nil {
			// A loop-invariant divisor: a multiplication and shifts instead of idiv.
			x.divisors[a[1].scalar] = true
			x.p.byInvariant++
			return fmt.Sprintf("cnf_%s_by(%s, %s, %s)", name, a[0].c, dividerName(a[1].scalar), where), rt, nil
		}
		if !isLiteral(a[1].c) {
			x.p.latent++
		}
		return fmt.Sprintf("cnf_%s(%s, %s, %s)", name, a[0].c, a[1].c, where), rt, nil
	case "^":
		if num(0) == "Float" {
			x.p.effects++
			return fmt.Sprintf("cnf_powf(%s, %s, %s)", a[0].c, a[1].c, where), rt, nil
		}
		x.p.effects++
		return fmt.Sprintf("cnf_powi(%s, %s, %s)", a[0].c, a[1].c, where), rt, nil
	case "**":
		x.p.costly++
		x.p.scalar++
		x.p.latent++
		return fmt.Sprintf("cnf_pow(%s, %s)", a[0].c, a[1].c), rt, nil
	case "subtract":
		return fmt.Sprintf("(%s - %s)", a[1].c, a[0].c), rt, nil
	case "==", "/=", "<", "<=", ">", ">=":
		op := map[string]string{"==": "==", "/=": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">="}[name]
		switch num(0) {
		case "Int", "Bool":
			return fmt.Sprintf("(%s %s %s)", a[0].c, op, a[1].c), rt, nil
		case "Float":
			// As the interpreter compares (fuse's compare): NaN is neither smaller nor larger,
			// so it compares equal, and <= is "not larger".
			return floatCompare(name, a[0].c, a[1].c), rt, nil
		}
		cmp, err := x.p.compare(a[0].t)
		if err != nil {
			return "", nil, errAt(id, "%v", err)
		}
		return fmt.Sprintf("(%s(%s, %s) %s 0)", cmp, a[0].c, a[1].c, op), rt, nil
	case "min", "max":
		minMax := x.p.minMax
		if x.scalar {
			minMax = x.p.scalarMinMax
		}
		f, err := minMax(name, a[0].t)
		if err != nil {
			return "", nil, errAt(id, "%v", err)
		}
		return fmt.Sprintf("%s(%s, %s)", f, a[0].c, a[1].c), rt, nil
	case "&&", "||":
		return fmt.Sprintf("(%s %s %s)", a[0].c, name, a[1].c), rt, nil
	case "!":
		x.p.effects++
		return fmt.Sprintf("CNF_AT(%s, %s, %s)", a[0].c, a[1].c, where), rt, nil
	case "const":
		if a[1].fn != nil {
			return a[0].c, rt, nil
		}
		return fmt.Sprintf("({ (void)(%s); %s; })", a[1].c, a[0].c), rt, nil
	case "negate":
		return "(-" + a[0].c + ")", rt, nil
	case "abs":
		if num(0) == "Float" {
			return "fabs(" + a[0].c + ")", rt, nil
		}
		return fmt.Sprintf("({ int64_t cnf_x_ = %s; cnf_x_ < 0 ? -cnf_x_ : cnf_x_; })", a[0].c), rt, nil
	case "signum":
		if num(0) == "Float" {
			return fmt.Sprintf("({ double cnf_x_ = %s; (double)((cnf_x_ > 0) - (cnf_x_ < 0)); })", a[0].c), rt, nil
		}
		return fmt.Sprintf("({ int64_t cnf_x_ = %s; (int64_t)((cnf_x_ > 0) - (cnf_x_ < 0)); })", a[0].c), rt, nil
	case "sqrt":
		x.p.slow++
		return fmt.Sprintf("sqrt((double)%s)", a[0].c), rt, nil
	case "exp", "log", "sin", "cos":
		x.p.costly++
		x.p.scalar++
		x.p.latent++
		// internal/numeric's algorithms, not libm's: the interpreter computes the same bits.
		return fmt.Sprintf("cnf_%s((double)%s)", name, a[0].c), rt, nil
	case "fromIntegral", "toFloat":
		return "((double)" + a[0].c + ")", rt, nil
	case "truncate", "round", "floor", "ceiling":
		if num(0) == "Int" {
			return a[0].c, rt, nil
		}
		f := map[string]string{"truncate": "trunc", "round": "nearbyint", "floor": "floor", "ceiling": "ceil"}[name]
		return fmt.Sprintf("cnf_f2i(%s(%s))", f, a[0].c), rt, nil
	case "even":
		return fmt.Sprintf("((%s) %% 2 == 0)", a[0].c), rt, nil
	case "odd":
		return fmt.Sprintf("((%s) %% 2 != 0)", a[0].c), rt, nil
	case "not":
		return "(!" + a[0].c + ")", rt, nil
	case "fst":
		return "(" + a[0].c + ").f0", rt, nil
	case "snd":
		return "(" + a[0].c + ").f1", rt, nil
	case "id":
		return a[0].c, rt, nil
	case "length":
		return "(" + a[0].c + ").len", rt, nil
	}
	if tuple {
		tn, err := x.p.ct.name(rt)
		if err != nil {
			return "", nil, errAt(id, "%v", err)
		}
		parts := make([]string, len(a))
		for i := range a {
			parts[i] = a[i].c
		}
		return fmt.Sprintf("((%s){%s})", tn, strings.Join(parts, ", ")), rt, nil
	}
	return "", nil, errAt(id, "cannot compile %s", name)
}

// floatCompare is a comparison of Floats with the interpreter's meaning, in plain C operators
// (which compilers can vectorize): a NaN operand makes < and > false and == true.
func floatCompare(op, a, b string) string {
	switch op {
	case "<":
		return fmt.Sprintf("(%s < %s)", a, b)
	case ">":
		return fmt.Sprintf("(%s > %s)", a, b)
	case "<=":
		return fmt.Sprintf("(!(%s > %s))", a, b)
	case ">=":
		return fmt.Sprintf("(!(%s < %s))", a, b)
	}
	eq := fmt.Sprintf("({ double cnf_a_ = %s, cnf_b_ = %s; !(cnf_a_ < cnf_b_) && !(cnf_a_ > cnf_b_); })", a, b)
	if op == "/=" {
		return "(!" + eq + ")"
	}
	return eq
}

// dividerName is the C variable of the divider of a scalar (cnf_divider in the runtime).
func dividerName(scalar string) string { return ident("dv_", scalar) }

// intLiteral matches an Int literal as the translation writes it.
var intLiteral = regexp.MustCompile(`^INT64_C\((-?[0-9]+)\)$`)

// isLiteral says the C c is an Int literal (INT64_C(7), or negated: (-INT64_C(7))).
func isLiteral(c string) bool {
	return intLiteral.MatchString(strings.TrimSuffix(strings.TrimPrefix(c, "(-"), ")"))
}

// powerOfTwoLiteral reports whether c is a positive Int literal that is a power of two.
func powerOfTwoLiteral(c string) bool {
	m := intLiteral.FindStringSubmatch(c)
	if m == nil {
		return false
	}
	n, err := strconv.ParseInt(m[1], 10, 64)
	return err == nil && n > 0 && n&(n-1) == 0
}

// nonZeroLiteral reports whether c is an Int literal other than zero.
func nonZeroLiteral(c string) bool {
	m := intLiteral.FindStringSubmatch(c)
	return m != nil && strings.Trim(m[1], "-0") != ""
}
