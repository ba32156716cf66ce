package codegen

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/cnf-tools/cnf/fuse"
	"github.com/cnf-tools/cnf/types"
)

// The Go side of the harness protocol (harness.go), little-endian as every machine cnf builds
// for is.

// Encode appends v, of type t, to buf.
func Encode(buf []byte, v fuse.Value, t *types.Type) ([]byte, error) {
	switch t.Kind() {
	case "Int":
		n, ok := v.(int64)
		if !ok {
			return nil, fmt.Errorf("%s is not an Int", fuse.FormatValue(v))
		}
		return binary.LittleEndian.AppendUint64(buf, uint64(n)), nil
	case "Float":
		switch x := v.(type) {
		case float64:
			return binary.LittleEndian.AppendUint64(buf, math.Float64bits(x)), nil
		case int64:
			return binary.LittleEndian.AppendUint64(buf, math.Float64bits(float64(x))), nil
		}
		return nil, fmt.Errorf("%s is not a Float", fuse.FormatValue(v))
	case "Bool":
		b, ok := v.(bool)
		if !ok {
			return nil, fmt.Errorf("%s is not a Bool", fuse.FormatValue(v))
		}
		if b {
			return append(buf, 1), nil
		}
		return append(buf, 0), nil
	case "Tuple":
		tu, ok := v.(fuse.Tuple)
		if !ok || len(tu) != len(t.Elems()) {
			return nil, fmt.Errorf("%s is not a %s", fuse.FormatValue(v), t)
		}
		var err error
		for i, e := range t.Elems() {
			if buf, err = Encode(buf, tu[i], e); err != nil {
				return nil, err
			}
		}
		return buf, nil
	case "Array":
		arr, ok := v.(fuse.Array)
		if !ok {
			return nil, fmt.Errorf("%s is not an array", fuse.FormatValue(v))
		}
		buf = binary.LittleEndian.AppendUint64(buf, uint64(len(arr)))
		var err error
		for _, x := range arr {
			if buf, err = Encode(buf, x, t.Elem()); err != nil {
				return nil, err
			}
		}
		return buf, nil
	}
	return nil, fmt.Errorf("a value of type %s cannot be passed to compiled code", t)
}

var errShort = errors.New("the compiled program's output ended early")

// Decode reads a value of type t from the start of buf and returns the rest.
func Decode(buf []byte, t *types.Type) (fuse.Value, []byte, error) {
	switch t.Kind() {
	case "Int", "Float":
		if len(buf) < 8 {
			return nil, nil, errShort
		}
		u := binary.LittleEndian.Uint64(buf)
		if t.Kind() == "Int" {
			return int64(u), buf[8:], nil
		}
		return math.Float64frombits(u), buf[8:], nil
	case "Bool":
		if len(buf) < 1 {
			return nil, nil, errShort
		}
		return buf[0] != 0, buf[1:], nil
	case "Tuple":
		out := make(fuse.Tuple, len(t.Elems()))
		for i, e := range t.Elems() {
			var err error
			if out[i], buf, err = Decode(buf, e); err != nil {
				return nil, nil, err
			}
		}
		return out, buf, nil
	case "Array":
		if len(buf) < 8 {
			return nil, nil, errShort
		}
		n := binary.LittleEndian.Uint64(buf)
		buf = buf[8:]
		if n > uint64(len(buf)) {
			return nil, nil, errShort
		}
		out := make(fuse.Array, n)
		for i := range out {
			var err error
			if out[i], buf, err = Decode(buf, t.Elem()); err != nil {
				return nil, nil, err
			}
		}
		return out, buf, nil
	}
	return nil, nil, fmt.Errorf("a value of type %s cannot come from compiled code", t)
}

// Print reads a value of type t from r, as Decode does, and writes it to w as
// fuse.FormatValue writes it, element by element: a result of tens of millions of elements is
// never held whole (it took gigabytes of boxed values and their text in cnf's own process).
func Print(w *bufio.Writer, r *bufio.Reader, t *types.Type) error {
	var word [8]byte
	switch t.Kind() {
	case "Int", "Float":
		if _, err := io.ReadFull(r, word[:]); err != nil {
			return errShort
		}
		u := binary.LittleEndian.Uint64(word[:])
		if t.Kind() == "Int" {
			_, err := w.Write(strconv.AppendInt(word[:0], int64(u), 10))
			return err
		}
		_, err := w.WriteString(fuse.FormatValue(math.Float64frombits(u)))
		return err
	case "Bool":
		b, err := r.ReadByte()
		if err != nil {
			return errShort
		}
		_, err = w.WriteString(fuse.FormatValue(b != 0))
		return err
	case "Tuple":
		w.WriteByte('(')
		for i, e := range t.Elems() {
			if i > 0 {
				w.WriteString(", ")
			}
			if err := Print(w, r, e); err != nil {
				return err
			}
		}
		return w.WriteByte(')')
	case "Array":
		if _, err := io.ReadFull(r, word[:]); err != nil {
			return errShort
		}
		n := binary.LittleEndian.Uint64(word[:])
		w.WriteByte('[')
		for i := uint64(0); i < n; i++ {
			if i > 0 {
				w.WriteString(", ")
			}
			if err := Print(w, r, t.Elem()); err != nil {
				return err
			}
		}
		return w.WriteByte(']')
	}
	return fmt.Errorf("a value of type %s cannot come from compiled code", t)
}
