package kernels

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
)

// Exports are the functions the kernels' module exports: gemm, the
// product, and scratch, the size of the buffer it needs.
var Exports = []string{"gemm", "scratch"}

// Check reports whether module is fit to share the Go program's memory,
// by its sections alone: it imports one memory, env.memory, of no maximum
// and not shared, and nothing else; it exports the functions of Exports
// and nothing else; and it has no memory, table, global, start function,
// element or data segment of its own, nor custom sections. Since a module
// that validates cannot name a global it does not have, it has no shadow
// stack that would write into Go's heap, and its stores go where its
// arguments point. gen.go checks the instructions as well (no
// memory.grow).
func Check(module []byte) error {
	r := &reader{b: module}
	if !bytes.HasPrefix(module, []byte("\x00asm\x01\x00\x00\x00")) {
		return errors.New("kernels: not a WebAssembly module of version 1")
	}
	r.off = 8
	allowed := map[byte]string{1: "type", 2: "import", 3: "function", 7: "export", 10: "code"}
	names := map[byte]string{0: "custom", 4: "table", 5: "memory", 6: "global", 8: "start", 9: "element", 11: "data", 12: "data count"}
	var seen []byte
	for r.off < len(module) {
		id := r.byte()
		size := r.uint()
		if r.err != nil || size > len(module)-r.off {
			return errors.New("kernels: a section runs past the end of the module")
		}
		body := &reader{b: module[r.off : r.off+size]}
		r.off += size
		if _, ok := allowed[id]; !ok {
			name := names[id]
			if name == "" {
				name = fmt.Sprintf("unknown (%d)", id)
			}
			return fmt.Errorf("kernels: the module has a %s section: it must have no memory, table, globals, data or start of its own", name)
		}
		seen = append(seen, id)
		switch id {
		case 2:
			if err := checkImports(body); err != nil {
				return err
			}
		case 7:
			if err := checkExports(body); err != nil {
				return err
			}
		}
	}
	for id, name := range allowed {
		if !slices.Contains(seen, id) {
			return fmt.Errorf("kernels: the module has no %s section", name)
		}
	}
	return nil
}

func checkImports(r *reader) error {
	n := r.uint()
	if n != 1 {
		return fmt.Errorf("kernels: the module imports %d things; it must import its memory alone", n)
	}
	mod, field, kind := r.name(), r.name(), r.byte()
	if r.err != nil || mod != "env" || field != "memory" || kind != 2 {
		return fmt.Errorf("kernels: the module imports %s.%s (kind %d); it must import env.memory alone", mod, field, kind)
	}
	flags := r.byte()
	r.uint() // the minimum, which Go's memory is far above
	if r.err != nil || flags != 0 || r.off != len(r.b) {
		return fmt.Errorf("kernels: the module's memory has limits flags %#x: it must have no maximum and not be shared, as Go's", flags)
	}
	return nil
}

func checkExports(r *reader) error {
	n := r.uint()
	var got []string
	for range n {
		name, kind := r.name(), r.byte()
		r.uint()
		if kind != 0 {
			return fmt.Errorf("kernels: the module exports %s of kind %d; it must export functions alone", name, kind)
		}
		got = append(got, name)
	}
	slices.Sort(got)
	if r.err != nil || !slices.Equal(got, Exports) {
		return fmt.Errorf("kernels: the module exports %v, not %v", got, Exports)
	}
	return nil
}

// A reader reads a module's bytes, LEB128 numbers and names; past the end
// it sets err and reads zeros.
type reader struct {
	b   []byte
	off int
	err error
}

func (r *reader) byte() byte {
	if r.off >= len(r.b) {
		r.err = errors.New("past the end")
		return 0
	}
	r.off++
	return r.b[r.off-1]
}

func (r *reader) uint() int {
	n, shift := 0, 0
	for {
		c := r.byte()
		n |= int(c&0x7f) << shift
		if c < 0x80 || r.err != nil {
			return n
		}
		if shift += 7; shift > 28 {
			r.err = errors.New("a number too long")
			return 0
		}
	}
}

func (r *reader) name() string {
	n := r.uint()
	if n > len(r.b)-r.off {
		r.err = errors.New("a name past the end")
		return ""
	}
	r.off += n
	return string(r.b[r.off-n : r.off])
}
