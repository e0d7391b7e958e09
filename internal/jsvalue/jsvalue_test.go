//go:build js && wasm

package jsvalue

import (
	"math"
	"reflect"
	"syscall/js"
	"testing"
)

type inner struct {
	X, Y float64
	Tags []string
}

type outer struct {
	Name   string
	N      int
	OK     bool
	Inners []*inner
	Maybe  *inner
	Xs     []float64
	Files  map[string]string
	hidden int
}

func TestRoundTrip(t *testing.T) {
	in := outer{Name: "a \"b\" <c>", N: -3, OK: true, Inners: []*inner{{X: 1.5, Y: math.Inf(1), Tags: []string{"p"}}, {}}, Xs: []float64{0, -2}, Files: map[string]string{"names.txt": "ann\nbob", "__proto__": "a key like any other"}, hidden: 7}
	j := Of(in)
	if got := j.Get("Inners").Index(0).Get("X").Float(); got != 1.5 {
		t.Errorf("Inners[0].X is %v in JavaScript", got)
	}
	if !j.Get("Maybe").IsNull() || !j.Get("hidden").IsUndefined() {
		t.Errorf("nil pointer or unexported field crossed")
	}
	// Through a structured clone, as postMessage sends it.
	j = js.Global().Call("structuredClone", j)
	var out outer
	if err := Into(j, &out); err != nil {
		t.Fatal(err)
	}
	in.hidden = 0
	if !reflect.DeepEqual(in, out) {
		t.Errorf("got %+v, want %+v", out, in)
	}
}

func TestWrongShape(t *testing.T) {
	var out outer
	if err := Into(js.ValueOf(map[string]any{"Inners": "not a list"}), &out); err == nil {
		t.Error("a string where a list belongs was read")
	}
}
