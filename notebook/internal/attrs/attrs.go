package attrs

import (
	"fmt"
	"slices"
	"strings"

	"go.starlark.net/starlark"
)

// Field is an attribute of a value of type T that is not a method.
type Field[T any] struct {
	Name string
	Get  func(x T) (starlark.Value, error) // nil: it can be set, not read
	Set  func(x T, v starlark.Value) error // nil: it cannot be set
}

// Method is a method of a value of type T: Call, called with the value
// it is bound to (b is the method itself, for its name), or NoArgs, for a
// method that takes no arguments.
type Method[T any] struct {
	Name   string
	Call   func(x T, thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error)
	NoArgs func(x T) (starlark.Value, error)
}

// Table is the attributes of type T.
type Table[T starlark.Value] struct {
	fields   []Field[T]
	methods  map[string]*starlark.Builtin
	names    []string // sorted: what AttrNames gives
	settable string   // ".a, .b and .c", for SetField's error
}

// New returns the table of fields (in the order SetField's error lists
// the settable ones) and methods. Each method is a built-in made once and
// bound to a value when a cell reads it: one heap object, not a closure
// and a built-in.
func New[T starlark.Value](fields []Field[T], methods []Method[T]) *Table[T] {
	t := &Table[T]{fields: fields, methods: make(map[string]*starlark.Builtin, len(methods))}
	var settable []string
	for _, f := range fields {
		if f.Get != nil {
			t.names = append(t.names, f.Name)
		}
		if f.Set != nil {
			settable = append(settable, "."+f.Name)
		}
	}
	for _, m := range methods {
		t.methods[m.Name] = starlark.NewBuiltin(m.Name, func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if m.NoArgs == nil {
				return m.Call(b.Receiver().(T), thread, b, args, kwargs)
			}
			if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 0); err != nil {
				return nil, err
			}
			return m.NoArgs(b.Receiver().(T))
		})
		t.names = append(t.names, m.Name)
	}
	slices.Sort(t.names)
	if n := len(settable); n > 1 {
		t.settable = strings.Join(settable[:n-1], ", ") + " and " + settable[n-1]
	} else if n == 1 {
		t.settable = settable[0]
	}
	return t
}

// Names lists the attributes that can be read, methods included, sorted:
// the type's AttrNames.
func (t *Table[T]) Names() []string { return t.names }

// Attr returns x's attribute name, a method bound to x, or nil, nil if
// x has none of that name: the type's Attr.
func (t *Table[T]) Attr(x T, name string) (starlark.Value, error) {
	for i := range t.fields {
		if f := &t.fields[i]; f.Name == name && f.Get != nil {
			return f.Get(x)
		}
	}
	if m := t.methods[name]; m != nil {
		return m.BindReceiver(x), nil
	}
	return nil, nil
}

// SetField sets x's field name to v: the type's SetField.
func (t *Table[T]) SetField(x T, name string, v starlark.Value) error {
	for i := range t.fields {
		if f := &t.fields[i]; f.Name == name && f.Set != nil {
			return f.Set(x, v)
		}
	}
	err := fmt.Errorf("%s has no settable field .%s (%s can be set)", x.Type(), name, t.settable)
	if !slices.Contains(t.names, name) {
		// Starlark adds the nearest name, for a misspelling.
		return starlark.NoSuchAttrError(err.Error())
	}
	return err
}
