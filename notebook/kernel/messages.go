package kernel

import (
	"fmt"
	"runtime"
	"strings"
)

// This file holds the only places where Gradbook reads another library's
// message text: the few Starlark (and Go runtime) errors that it turns
// into a learner's words and cannot tell apart otherwise. Each is pinned
// by a test at the versions go.mod requires (messages_test.go), so that an
// upgrade that rewords one fails there, not in a learner's cell. Stop
// reasons are never read back from messages: they are values (stop.go).

// uninitialized reads the name in Starlark's error for a global used
// before the cell that assigns it has run: every name a cell binds is
// predeclared for the cells above it, and reading one that is not bound
// yet says so.
func uninitialized(msg string) (name string, ok bool) {
	name, ok = strings.CutPrefix(msg, "internal error: predeclared variable ")
	if ok {
		name, ok = strings.CutSuffix(name, " is uninitialized")
	}
	return name, ok && name != "" && !strings.ContainsRune(name, ' ')
}

// frozenMutation reports whether msg is Starlark's refusal to change a
// frozen list, dict or set ("cannot append to frozen list").
func frozenMutation(msg string) bool {
	return strings.Contains(msg, "frozen")
}

// tooLarge reports whether a panic is Go's refusal to make a slice larger
// than the address space: in the browser, [0] * 300000000 asks for 4.8 GB
// at once, which is the memory limit met in one statement.
func tooLarge(r any) bool {
	e, ok := r.(runtime.Error)
	return ok && (strings.Contains(e.Error(), "len out of range") || strings.Contains(e.Error(), "cap out of range"))
}

// plainSyntax says a Starlark parser's "got X, want Y" in plain words,
// where it can, and moves it to the line the mistake is on: src is the
// cell, line and col where the parser stopped. It returns the message and
// its line.
func plainSyntax(msg, src string, line, col int) (string, int) {
	got, want, ok := strings.Cut(strings.TrimPrefix(msg, "got "), ", want ")
	if !ok || !strings.HasPrefix(msg, "got ") {
		return msg, line
	}
	switch {
	case want == "')'" || want == "']'" || want == "'}'":
		if open, at := unclosed(src, line, col); open != "" {
			return fmt.Sprintf("'%s' opened on line %d is never closed", open, at), at
		}
	case got == "indent":
		return "this line is indented, but no line above it opens a block (a line ending in ':', such as if, for, while or def): take out the spaces or tab at its start", line
	case got == "newline" && want == "':'":
		if col <= 1 && line > 1 {
			line-- // the parser stops at the start of the next line
		}
		return "a ':' is missing at the end of this line: if, for, while and def end with one, and the lines of their block come after it, indented", line
	case got == "end of file" && want == "primary expression":
		return "the cell ends in the middle of an expression: something is missing after its last operator", line
	case got == "'='":
		return "'=' assigns a value and cannot stand here: to compare two values, write ==", line
	}
	return fmt.Sprintf("expected %s here, but found %s", want, got), line
}

// unclosed finds the bracket still open where the parser stopped, reading
// src as Starlark's scanner does (strings and comments skipped), and
// returns it and its line.
func unclosed(src string, line, col int) (string, int) {
	type open struct {
		c    byte
		line int
	}
	var stack []open
	l := 1
	lines := strings.Split(src, "\n")
	for li, text := range lines {
		l = li + 1
		if l > line {
			break
		}
		for i := 0; i < len(text); i++ {
			if l == line && col > 0 && i >= col-1 {
				break
			}
			switch c := text[i]; c {
			case '#':
				i = len(text)
			case '"', '\'':
				q := string(c)
				if strings.HasPrefix(text[i:], strings.Repeat(q, 3)) {
					q = strings.Repeat(q, 3)
				}
				end := strings.Index(text[i+len(q):], q)
				if end < 0 {
					i = len(text)
				} else {
					i += len(q) + end + len(q) - 1
				}
			case '(', '[', '{':
				stack = append(stack, open{c, l})
			case ')', ']', '}':
				if len(stack) > 0 {
					stack = stack[:len(stack)-1]
				}
			}
		}
	}
	if len(stack) == 0 {
		return "", 0
	}
	top := stack[len(stack)-1]
	return string(top.c), top.line
}
