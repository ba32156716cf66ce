// Package numeric is cnf's arithmetic that the C compilers' libraries would otherwise decide:
// integer and Float powers, exp, log, sin, cos and Float power (**), written once as algorithms
// of +, -, *, / and bit operations, in Go (this package: the reference interpreter and the
// process networks call it) and in C (C, the same algorithms line by line: generated code
// calls it). Each operation rounds as IEEE 754 double arithmetic does in both languages, so
// both give the same bits: no fused multiply-adds (every product that feeds a sum is converted
// explicitly to float64 here, which the Go specification says rounds it; generated C is
// compiled with -ffp-contract=off), no libm. Go's math and glibc's libm each round their
// functions in their own way and disagree on about a quarter of sin's results; this package is
// what both semantics agree on instead.
//
// Accuracy: exp, log, sin and cos are within one unit in the last place of the exact result
// (reduction of sin and cos is exact for every finite argument, by the bits of 2/π); ** works
// in double-double arithmetic and is correctly rounded but for rare halfway cases; x ^ n
// multiplies by repeated squaring, as Haskell's (^) does, with the rounding of each
// multiplication. The test compares the Go and the C of each function on a million inputs
// bit for bit and bounds their error against a higher-precision reference.
package numeric
