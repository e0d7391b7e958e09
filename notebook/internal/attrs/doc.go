// Package attrs is a Starlark type's attributes as one table, from which
// its Attr, AttrNames and SetField all come, and its methods' dispatch:
// a name is written once, where its code is.
//
//	var valueAttrs = attrs.New(
//		[]attrs.Field[*Value]{{Name: "grad", Get: grad, Set: setGrad}},
//		[]attrs.Method[*Value]{{Name: "backward", Call: (*Value).backward}},
//	)
//	func (v *Value) Attr(name string) (starlark.Value, error) { return valueAttrs.Attr(v, name) }
package attrs
