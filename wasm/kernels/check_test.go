package kernels

import (
	"strings"
	"testing"
)

// TestCommittedModule checks the committed kernels.wasm: it may share
// the Go program's memory.
func TestCommittedModule(t *testing.T) {
	if err := Check(Module); err != nil {
		t.Fatal(err)
	}
}

// split returns the sections of a module, each whole: id, size, body.
func split(t *testing.T, module []byte) [][]byte {
	t.Helper()
	var out [][]byte
	r := &reader{b: module, off: 8}
	for r.off < len(module) {
		start := r.off
		r.byte()
		size := r.uint()
		r.off += size
		if r.err != nil || r.off > len(module) {
			t.Fatal("bad module")
		}
		out = append(out, module[start:r.off])
	}
	return out
}

func section(id byte, body ...byte) []byte { return append([]byte{id, byte(len(body))}, body...) }

func name(s string) []byte { return append([]byte{byte(len(s))}, s...) }

func join(parts ...[]byte) []byte {
	var b []byte
	for _, p := range parts {
		b = append(b, p...)
	}
	return b
}

// TestCheckRefuses checks that Check refuses each way a module could
// reach beyond what it is given.
func TestCheckRefuses(t *testing.T) {
	s := split(t, Module) // type, import, function, export, code
	if len(s) != 5 {
		t.Fatalf("the committed module has %d sections, not 5", len(s))
	}
	header := Module[:8]
	typ, imp, fn, exp, code := s[0], s[1], s[2], s[3], s[4]
	memImport := func(flags ...byte) []byte {
		return section(2, join([]byte{1}, name("env"), name("memory"), []byte{2}, flags)...)
	}
	cases := []struct {
		name   string
		module []byte
		want   string
	}{
		{"a global: a shadow stack", join(header, typ, imp, fn, section(6, 1, 0x7f, 1, 0x41, 0, 0x0b), exp, code), "global section"},
		{"a data segment", join(header, typ, imp, fn, exp, code, section(11, 1, 0, 0x41, 0, 0x0b, 1, 0xff)), "data section"},
		{"a memory of its own", join(header, typ, fn, section(5, 1, 0, 1), exp, code), "memory section"},
		{"a table", join(header, typ, imp, fn, section(4, 1, 0x70, 0, 1), exp, code), "table section"},
		{"a custom section", join(header, typ, imp, fn, exp, code, section(0, name("producers")...)), "custom section"},
		{"a second import", join(header, typ, section(2, join([]byte{2}, name("env"), name("memory"), []byte{2, 0, 1}, name("env"), name("f"), []byte{0, 0})...), fn, exp, code), "imports 2 things"},
		{"a function import", join(header, typ, section(2, join([]byte{1}, name("env"), name("f"), []byte{0, 0})...), fn, exp, code), "env.f"},
		{"a memory with a maximum", join(header, typ, memImport(1, 1, 2), fn, exp, code), "no maximum"},
		{"a shared memory", join(header, typ, memImport(3, 1, 2), fn, exp, code), "not be shared"},
		{"no code", join(header, typ, imp, fn, exp), "no code section"},
		{"an export too many", join(header, typ, imp, fn, section(7, join([]byte{3}, name("gemm"), []byte{0, 1}, name("scratch"), []byte{0, 0}, name("x"), []byte{0, 0})...), code), "exports [gemm scratch x]"},
		{"a memory export", join(header, typ, imp, fn, section(7, join([]byte{1}, name("memory"), []byte{2, 0})...), code), "of kind 2"},
		{"not wasm", []byte("\x00asm\x02\x00\x00\x00"), "version 1"},
		{"cut short", join(header, []byte{10, 100, 1}), "past the end"},
	}
	for _, c := range cases {
		err := Check(c.module)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Check said %v, want an error with %q", c.name, err, c.want)
		}
	}
}
