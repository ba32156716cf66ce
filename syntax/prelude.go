package syntax

// PreludeFunc is a host function every CNF program may call in a worker without declaring it:
// its name, its type in the notation of signatures (a, b are any types; Num and Ord types are
// Int and Float), and one line for completion and hovers. The reference interpreter implements
// each (fuse's builtin, checked by a test); other host functions are the user's.
type PreludeFunc struct {
	Name, Type, Doc string
}

// Prelude lists the host functions of the prelude.
var Prelude = []PreludeFunc{
	{"min", "a -> a -> a", "the smaller of two values"},
	{"max", "a -> a -> a", "the larger of two values"},
	{"abs", "a -> a", "the absolute value"},
	{"negate", "a -> a", "the value with the opposite sign"},
	{"signum", "a -> a", "-1, 0 or 1, the sign of the value"},
	{"subtract", "a -> a -> a", "subtract x y is y - x"},
	{"div", "Int -> Int -> Int", "integer division, rounding down (x `div` y)"},
	{"mod", "Int -> Int -> Int", "the remainder of div, with the sign of the divisor (x `mod` y)"},
	{"quot", "Int -> Int -> Int", "integer division, rounding towards zero"},
	{"rem", "Int -> Int -> Int", "the remainder of quot"},
	{"sqrt", "Float -> Float", "the square root"},
	{"exp", "Float -> Float", "e to the power of the value"},
	{"log", "Float -> Float", "the natural logarithm"},
	{"sin", "Float -> Float", "the sine"},
	{"cos", "Float -> Float", "the cosine"},
	{"fromIntegral", "Int -> Float", "the integer as a float"},
	{"toFloat", "Int -> Float", "the integer as a float"},
	{"truncate", "Float -> Int", "the float rounded towards zero"},
	{"round", "Float -> Int", "the float rounded to the nearest integer"},
	{"floor", "Float -> Int", "the float rounded down"},
	{"ceiling", "Float -> Int", "the float rounded up"},
	{"even", "Int -> Bool", "whether the integer is even"},
	{"odd", "Int -> Bool", "whether the integer is odd"},
	{"not", "Bool -> Bool", "logical negation"},
	{"fst", "(a, b) -> a", "the first component of a pair"},
	{"snd", "(a, b) -> b", "the second component of a pair"},
	{"id", "a -> a", "the value itself"},
	{"const", "a -> b -> a", "const x y is x"},
	{"infinity", "Float", "positive infinity"},
	{"negInfinity", "Float", "negative infinity"},
}

// LookupPrelude returns the prelude function called name.
func LookupPrelude(name string) (PreludeFunc, bool) {
	for _, f := range Prelude {
		if f.Name == name {
			return f, true
		}
	}
	return PreludeFunc{}, false
}
