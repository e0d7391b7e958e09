package engine

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The switches that the tape and Value run give exactly the numbers of
// the op table, the rules' statement, for every op.
func TestSwitchMatchesTable(t *testing.T) {
	if len(ops) != int(numOps) {
		t.Fatalf("%d ops in the table, %d opcodes", len(ops), numOps)
	}
	for c, o := range ops {
		if got, ok := opNamed(o.name); !ok || got != opcode(c) {
			t.Errorf("opNamed(%q) = %d, %v; want %d", o.name, got, ok, c)
		}
	}
	if _, ok := opNamed("abs"); ok {
		t.Errorf("opNamed knows abs")
	}
	r := rand.New(rand.NewPCG(1, 2))
	same := func(x, y float64) bool {
		return math.Float64bits(x) == math.Float64bits(y) || math.IsNaN(x) && math.IsNaN(y)
	}
	special := []float64{0, 1, -1, 2, 0.5, -3, 1e-300, 700}
	for c := range numOps {
		o := ops[c]
		for i := range 1000 {
			a, b := r.NormFloat64()*3, r.NormFloat64()*3
			if i < len(special) {
				a = special[i]
				b = special[len(special)-1-i]
			}
			k := 0.0
			if o.konst {
				k = []float64{0, 1, 2, 3, -1, -0.5, 0.5}[i%7]
			}
			y := o.forward(a, b, k)
			if got := forward(c, a, b, k); !same(got, y) {
				t.Fatalf("%s(%v, %v, %v): the switch gives %v, the table %v", o.name, a, b, k, got, y)
			}
			da, db := o.local(a, b, k, y)
			ga, gb := local(c, a, b, k, y)
			if !same(ga, da) || !same(gb, db) {
				t.Fatalf("%s'(%v, %v, %v): the switch gives (%v, %v), the table (%v, %v)", o.name, a, b, k, ga, gb, da, db)
			}
		}
	}
}

// Make makes what the methods make, and refuses what they would not.
func TestMake(t *testing.T) {
	a, b := NewValue(0.5, "a"), NewValue(-2, "b")
	for _, c := range []struct {
		name string
		b    *Value
		k    float64
		want *Value
	}{
		{"add", b, 0, a.Add(b)},
		{"div", b, 0, a.Div(b)},
		{"relu", nil, 0, a.Relu()},
		{"pow", nil, 3, a.Pow(3)},
		{"detach", nil, 0, a.Detach()},
	} {
		var r Value
		if !r.Make(c.name, a, c.b, c.k) || r != *c.want {
			t.Errorf("Make(%s): %+v, want %+v", c.name, r, *c.want)
		}
	}
	var r Value
	for _, bad := range []struct {
		name string
		b    *Value
		k    float64
	}{{"abs", nil, 0}, {"add", nil, 0}, {"relu", b, 0}, {"tanh", nil, 2}} {
		if r.Make(bad.name, a, bad.b, bad.k) || r != (Value{}) {
			t.Errorf("Make(%q, b=%v, k=%v) made %+v", bad.name, bad.b != nil, bad.k, r)
		}
	}
}
