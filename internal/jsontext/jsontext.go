// Package jsontext reads and writes JSON without reflection: values are
// map[string]any, []any, string, float64, bool and nil. It keeps
// encoding/json, and the size it adds, out of the notebook's wasm.
package jsontext

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// maxDepth bounds nesting, so hostile input cannot exhaust the stack.
const maxDepth = 200

// Decode parses one JSON value.
func Decode(data []byte) (any, error) { return decode(decoder{data: data}) }

// DecodeOrdered is Decode with objects as Object, keeping the order of
// their members (and any repeated name).
func DecodeOrdered(data []byte) (any, error) { return decode(decoder{data: data, ordered: true}) }

func decode(d decoder) (any, error) {
	v, err := d.value(0)
	if err != nil {
		return nil, err
	}
	if d.ws(); d.pos != len(d.data) {
		return nil, fmt.Errorf("json: unexpected text at byte %d", d.pos+1)
	}
	return v, nil
}

type decoder struct {
	data    []byte
	pos     int
	ordered bool // objects as Object
}

// eat skips c if it is the next byte, and reports whether it was.
func (d *decoder) eat(c byte) bool {
	if d.pos < len(d.data) && d.data[d.pos] == c {
		d.pos++
		return true
	}
	return false
}

// after reads what follows a member of an object or an element of an
// array: a ',' before the next one, or close at the end.
func (d *decoder) after(close byte) (done bool, err error) {
	d.ws()
	if d.eat(',') {
		return false, nil
	}
	if d.eat(close) {
		return true, nil
	}
	return false, d.fail(fmt.Sprintf("',' or '%c'", close))
}

func (d *decoder) ws() {
	for d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return
		}
	}
}

func (d *decoder) fail(what string) error {
	if d.pos >= len(d.data) {
		return fmt.Errorf("json: the text ends where %s was expected", what)
	}
	return fmt.Errorf("json: expected %s at byte %d", what, d.pos+1)
}

func (d *decoder) value(depth int) (any, error) {
	if depth > maxDepth {
		return nil, errors.New("json: nested too deeply")
	}
	d.ws()
	if d.pos >= len(d.data) {
		return nil, d.fail("a value")
	}
	switch c := d.data[d.pos]; {
	case c == '{':
		d.pos++
		var m map[string]any
		var o Object
		if d.ordered {
			o = Object{}
		} else {
			m = map[string]any{}
		}
		result := func() any {
			if d.ordered {
				return o
			}
			return m
		}
		d.ws()
		if d.eat('}') {
			return result(), nil
		}
		for {
			d.ws()
			if d.pos >= len(d.data) || d.data[d.pos] != '"' {
				return nil, d.fail("a key in quotes")
			}
			k, err := d.str()
			if err != nil {
				return nil, err
			}
			d.ws()
			if !d.eat(':') {
				return nil, d.fail("':'")
			}
			v, err := d.value(depth + 1)
			if err != nil {
				return nil, err
			}
			if d.ordered {
				o = append(o, Member{k, v})
			} else {
				m[k] = v
			}
			if done, err := d.after('}'); done || err != nil {
				return result(), err
			}
		}
	case c == '[':
		d.pos++
		a := []any{}
		d.ws()
		if d.eat(']') {
			return a, nil
		}
		for {
			v, err := d.value(depth + 1)
			if err != nil {
				return nil, err
			}
			a = append(a, v)
			if done, err := d.after(']'); done || err != nil {
				return a, err
			}
		}
	case c == '"':
		return d.str()
	case c == 't' || c == 'f' || c == 'n':
		for _, lit := range []struct {
			s string
			v any
		}{{"true", true}, {"false", false}, {"null", nil}} {
			if len(d.data)-d.pos >= len(lit.s) && string(d.data[d.pos:d.pos+len(lit.s)]) == lit.s {
				d.pos += len(lit.s)
				return lit.v, nil
			}
		}
		return nil, d.fail("a value")
	case c == '-' || c >= '0' && c <= '9':
		start := d.pos
		for d.pos < len(d.data) && (d.data[d.pos] == '-' || d.data[d.pos] == '+' || d.data[d.pos] == '.' || d.data[d.pos] == 'e' || d.data[d.pos] == 'E' || d.data[d.pos] >= '0' && d.data[d.pos] <= '9') {
			d.pos++
		}
		f, err := strconv.ParseFloat(string(d.data[start:d.pos]), 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) { // 1e999 reads as +Inf
			return nil, fmt.Errorf("json: bad number at byte %d", start+1)
		}
		return f, nil
	}
	return nil, d.fail("a value")
}

func (d *decoder) str() (string, error) {
	start := d.pos
	d.pos++
	var out []byte
	for d.pos < len(d.data) {
		c := d.data[d.pos]
		switch {
		case c == '"':
			d.pos++
			if out == nil {
				return string(d.data[start+1 : d.pos-1]), nil
			}
			return string(out), nil
		case c < 0x20:
			return "", fmt.Errorf("json: control character in a string at byte %d", d.pos+1)
		case c == '\\':
			if out == nil {
				out = append([]byte(nil), d.data[start+1:d.pos]...)
			}
			d.pos++
			if d.pos >= len(d.data) {
				return "", d.fail("an escape")
			}
			switch e := d.data[d.pos]; e {
			case '"', '\\', '/':
				out = append(out, e)
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'u':
				r, ok := d.hex4(d.pos + 1)
				if !ok {
					return "", d.fail("four hex digits")
				}
				d.pos += 4
				if utf16.IsSurrogate(r) {
					if r2, ok := d.hex4(d.pos + 3); ok && d.pos+2 < len(d.data) && d.data[d.pos+1] == '\\' && d.data[d.pos+2] == 'u' {
						if dr := utf16.DecodeRune(r, r2); dr != utf8.RuneError {
							r = dr
							d.pos += 6
						}
					}
				}
				out = utf8.AppendRune(out, r)
			default:
				return "", d.fail("an escape")
			}
			d.pos++
		default:
			if out != nil {
				out = append(out, c)
			}
			d.pos++
		}
	}
	return "", fmt.Errorf("json: a string starting at byte %d never ends", start+1)
}

func (d *decoder) hex4(i int) (rune, bool) {
	if i+4 > len(d.data) {
		return 0, false
	}
	n, err := strconv.ParseUint(string(d.data[i:i+4]), 16, 32)
	return rune(n), err == nil
}

// Encode writes v as JSON: maps with their keys sorted, or an Object to
// keep an order.
func Encode(v any) []byte { return Append(nil, v) }

// Object is a JSON object whose members keep their order.
type Object []Member

// Index returns the position of o's member name (the first, if it is
// repeated), or -1.
func (o Object) Index(name string) int {
	for i, m := range o {
		if m.Name == name {
			return i
		}
	}
	return -1
}

// Get returns the value of o's member name, or nil.
func (o Object) Get(name string) any {
	if i := o.Index(name); i >= 0 {
		return o[i].Value
	}
	return nil
}

// Member is one name and value of an Object.
type Member struct {
	Name  string
	Value any
}

// Append appends v as JSON to buf.
func Append(buf []byte, v any) []byte {
	switch v := v.(type) {
	case nil:
		return append(buf, "null"...)
	case bool:
		return strconv.AppendBool(buf, v)
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return append(buf, "null"...)
		}
		return strconv.AppendFloat(buf, v, 'g', -1, 64)
	case int:
		return strconv.AppendInt(buf, int64(v), 10)
	case int64:
		return strconv.AppendInt(buf, v, 10)
	case string:
		return AppendString(buf, v)
	case []string:
		return appendList(buf, '[', v, ']', AppendString)
	case []any:
		return appendList(buf, '[', v, ']', Append)
	case Object:
		return appendList(buf, '{', v, '}', func(buf []byte, m Member) []byte {
			return Append(append(AppendString(buf, m.Name), ':'), m.Value)
		})
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		o := make(Object, len(keys))
		for i, k := range keys {
			o[i] = Member{k, v[k]}
		}
		return Append(buf, o)
	}
	return append(buf, "null"...)
}

// appendList appends xs between open and close, each by add, separated
// by commas: an array, or an object's members.
func appendList[T any](buf []byte, open byte, xs []T, close byte, add func([]byte, T) []byte) []byte {
	buf = append(buf, open)
	for i, x := range xs {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = add(buf, x)
	}
	return append(buf, close)
}

// AppendString appends s as a JSON string.
func AppendString(buf []byte, s string) []byte {
	const hex = "0123456789abcdef"
	buf = append(buf, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			buf = append(buf, c)
			i++
			continue
		}
		if c < utf8.RuneSelf {
			switch c {
			case '"', '\\':
				buf = append(buf, '\\', c)
			case '\n':
				buf = append(buf, '\\', 'n')
			case '\r':
				buf = append(buf, '\\', 'r')
			case '\t':
				buf = append(buf, '\\', 't')
			default:
				buf = append(buf, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			buf = append(buf, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			buf = append(buf, '\\', 'u', '2', '0', '2', hex[r&0xf])
		default:
			buf = append(buf, s[i:i+size]...)
		}
		i += size
	}
	return append(buf, '"')
}

// Helpers that read a decoded object's members.

// String returns m[k] if it is a string.
func String(m map[string]any, k string) (string, bool) {
	s, ok := m[k].(string)
	return s, ok
}

// Number returns m[k] if it is a number.
func Number(m map[string]any, k string) (float64, bool) {
	f, ok := m[k].(float64)
	return f, ok
}

// Bool returns m[k] if it is a boolean.
func Bool(m map[string]any, k string) (bool, bool) {
	b, ok := m[k].(bool)
	return b, ok
}
