//go:build js && wasm

// Package jsvalue turns plain Go data (structs of numbers, strings and
// booleans, slices, maps by string and pointers of them) into JavaScript values and back,
// so that it can cross a postMessage as one structured clone, with no
// text format in between. A struct becomes an object keyed by its field
// names; nil pointers and slices become null.
package jsvalue

import (
	"fmt"
	"reflect"
	"syscall/js"
)

// Of returns x as a JavaScript value.
func Of(x any) js.Value { return of(reflect.ValueOf(x)) }

func of(v reflect.Value) js.Value {
	switch v.Kind() {
	case reflect.Invalid:
		return js.Null()
	case reflect.Bool:
		return js.ValueOf(v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return js.ValueOf(float64(v.Int()))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return js.ValueOf(float64(v.Uint()))
	case reflect.Float32, reflect.Float64:
		return js.ValueOf(v.Float())
	case reflect.String:
		return js.ValueOf(v.String())
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return js.Null()
		}
		return of(v.Elem())
	case reflect.Slice:
		if v.IsNil() {
			return js.Null()
		}
		fallthrough
	case reflect.Array:
		a := js.Global().Get("Array").New(v.Len())
		for i := range v.Len() {
			a.SetIndex(i, of(v.Index(i)))
		}
		return a
	case reflect.Map:
		if v.Type().Key().Kind() != reflect.String {
			break
		}
		if v.IsNil() {
			return js.Null()
		}
		// No prototype: a key is only ever a key.
		o := js.Global().Get("Object").Call("create", js.Null())
		for it := v.MapRange(); it.Next(); {
			o.Set(it.Key().String(), of(it.Value()))
		}
		return o
	case reflect.Struct:
		o := js.Global().Get("Object").New()
		t := v.Type()
		for i := range t.NumField() {
			if f := t.Field(i); f.IsExported() {
				o.Set(f.Name, of(v.Field(i)))
			}
		}
		return o
	}
	panic(fmt.Sprintf("jsvalue: cannot send a %s", v.Type()))
}

// Into sets what ptr points to from j, which Of made from a value of the
// same type. Fields that j lacks stay as they are.
func Into(j js.Value, ptr any) (err error) {
	v := reflect.ValueOf(ptr)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return fmt.Errorf("jsvalue: Into needs a pointer, got %T", ptr)
	}
	defer func() {
		// A message of the wrong shape (js.Value panics on a wrong type).
		if r := recover(); r != nil {
			err = fmt.Errorf("jsvalue: a message of the wrong shape: %v", r)
		}
	}()
	into(j, v.Elem())
	return nil
}

func into(j js.Value, v reflect.Value) {
	if j.IsNull() || j.IsUndefined() {
		return
	}
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(j.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(int64(j.Float()))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(uint64(j.Float()))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(j.Float())
	case reflect.String:
		v.SetString(j.String())
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		into(j, p.Elem())
		v.Set(p)
	case reflect.Slice:
		n := j.Length()
		s := reflect.MakeSlice(v.Type(), n, n)
		for i := range n {
			into(j.Index(i), s.Index(i))
		}
		v.Set(s)
	case reflect.Map:
		if v.Type().Key().Kind() != reflect.String {
			panic(fmt.Sprintf("cannot read a %s", v.Type()))
		}
		m := reflect.MakeMap(v.Type())
		// Own properties only, whatever their names.
		entries := js.Global().Get("Object").Call("entries", j)
		for i := range entries.Length() {
			e := entries.Index(i)
			val := reflect.New(v.Type().Elem()).Elem()
			into(e.Index(1), val)
			m.SetMapIndex(reflect.ValueOf(e.Index(0).String()).Convert(v.Type().Key()), val)
		}
		v.Set(m)
	case reflect.Struct:
		t := v.Type()
		for i := range t.NumField() {
			if f := t.Field(i); f.IsExported() {
				into(j.Get(f.Name), v.Field(i))
			}
		}
	default:
		panic(fmt.Sprintf("cannot read a %s", v.Type()))
	}
}
