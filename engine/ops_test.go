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
