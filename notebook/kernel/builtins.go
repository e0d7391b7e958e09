package kernel

import (
	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
)

// Builtin is a built-in of cells, by name: its function, or the members
// of a module of that name, or a value made elsewhere (Starlark's math
// module). A table of them, []Builtin, is static data in the file that
// defines them; Builtins makes the tables into what a Session is given.
type Builtin struct {
	Name    string
	Fn      func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error)
	Members []Builtin // the module's: name.member
	Value   starlark.Value
}

// Builtins returns the built-ins of the tables, by name.
func Builtins(tables ...[]Builtin) starlark.StringDict {
	all := starlark.StringDict{}
	for _, table := range tables {
		for _, b := range table {
			all[b.Name] = b.make("")
		}
	}
	return all
}

// make makes b, a member of the module prefix (if not "").
func (b Builtin) make(prefix string) starlark.Value {
	switch {
	case b.Fn != nil:
		return starlark.NewBuiltin(prefix+b.Name, b.Fn)
	case b.Members != nil:
		m := &starlarkstruct.Module{Name: b.Name, Members: make(starlark.StringDict, len(b.Members))}
		for _, member := range b.Members {
			m.Members[member.Name] = member.make(b.Name + ".")
		}
		return m
	}
	return b.Value
}
