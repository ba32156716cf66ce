package fuse

import (
	"strings"
	"testing"

	"github.com/cnf-tools/cnf/syntax"
)

func TestParseValue(t *testing.T) {
	for _, c := range []struct{ in, want, err string }{
		{in: "42", want: "42"},
		{in: "-1.5", want: "-1.5"},
		{in: "True", want: "True"},
		{in: "false", want: "False"},
		{in: "(1, [2, 3])", want: "(1, [2, 3])"},
		{in: "[1,\n 2,\r\n 3]\n", want: "[1, 2, 3]"},
		{in: "[]", want: "[]"},
		{in: "9223372036854775807", want: "9223372036854775807"},
		{in: "9223372036854775808", err: "does not fit in 64 bits"},
		{in: "[1, 2", err: "expected , or ] at the end"},
		{in: "[1; 2]", err: `"1;"`},
		{in: strings.Repeat("[", 5000), err: "nested too deeply at position 1001"},
		{in: "[" + strings.Repeat("x", 10000) + "]", err: `"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"... at position 2 is not a number`},
	} {
		v, err := ParseValue(c.in)
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("ParseValue(%.20q): err %v, want one containing %q", c.in, err, c.err)
		case c.err != "" && len(err.Error()) > 200:
			t.Errorf("ParseValue(%.20q): an error of %d bytes", c.in, len(err.Error()))
		case c.err == "" && err != nil:
			t.Errorf("ParseValue(%.20q): %v", c.in, err)
		case c.err == "" && FormatValue(v) != c.want:
			t.Errorf("ParseValue(%.20q) = %s, want %s", c.in, FormatValue(v), c.want)
		}
	}
}

func TestConform(t *testing.T) {
	typ := func(src string) syntax.Type {
		f, diags := syntax.Parse("t.cnf", []byte("f :: "+src+" -> Int\nf x =\n  let y = length x\n  in y\n"))
		if syntax.HasErrors(diags) {
			t.Fatalf("%s: %v", src, diags)
		}
		return f.Decls[0].(*syntax.Signature).Type.(*syntax.FuncType).Params[0]
	}
	for _, c := range []struct{ typ, in, want, err string }{
		{typ: "Array Int", in: "[1, 2]", want: "[1, 2]"},
		{typ: "Array Float", in: "[1, 2.5]", want: "[1.0, 2.5]"},
		{typ: "Array (Int, Bool)", in: "[[1, true], (2, False)]", want: "[(1, True), (2, False)]"},
		{typ: "Array Point", in: "[(1.0, 2.0)]", want: "[(1.0, 2.0)]"},
		{typ: "Array Int", in: "[1, 2.5]", err: "element 1: expected an Int, found 2.5 (a Float)"},
		{typ: "Array (Int, Int)", in: "[(1, 2, 3)]", err: "element 0: expected a tuple of 2, found 3 components"},
		{typ: "Array Bool", in: "[1]", err: "element 0: expected a Bool, found 1 (an Int)"},
	} {
		v, err := ParseValue(c.in)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Conform(v, typ(c.typ))
		switch {
		case c.err != "" && (err == nil || err.Error() != c.err):
			t.Errorf("%s %s: err %v, want %q", c.typ, c.in, err, c.err)
		case c.err == "" && err != nil:
			t.Errorf("%s %s: %v", c.typ, c.in, err)
		case c.err == "" && FormatValue(got) != c.want:
			t.Errorf("%s %s = %s, want %s", c.typ, c.in, FormatValue(got), c.want)
		}
	}
}

// The reference interpreter implements every function of the syntax package's prelude.
func TestPreludeImplemented(t *testing.T) {
	for _, f := range syntax.Prelude {
		if _, ok := builtin(f.Name); !ok {
			t.Errorf("the prelude lists %s (%s), which the interpreter does not know", f.Name, f.Type)
		}
	}
}
