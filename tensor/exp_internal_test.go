package tensor

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
)

// TestExpIsMathExp checks exp against math.Exp on random arguments over
// the whole range where exp is neither 0 nor +Inf, around its edges, and
// at the special values: to the bit under WebAssembly, where exp is expGo
// and math.Exp Go's own code (test.sh runs it there), and expGo within 4
// ulps natively, where math.Exp is assembly (away from the edges of the
// range, where the assembly's own differ).
func TestExpIsMathExp(t *testing.T) {
	r := rand.New(rand.NewPCG(36, 7))
	xs := []float64{0, math.Copysign(0, -1), 1, -1, 1e-300, -1e-300, 0x1p-29, -0x1p-29, 0x1p-27, -0x1p-27,
		709.78, 709.79, -708.39, -708.4, -709, -744.4, -745.1, -745.2, 710, -746,
		math.Inf(1), math.Inf(-1), math.NaN(), math.MaxFloat64, -math.MaxFloat64}
	for range 200000 {
		xs = append(xs, (r.Float64()*2-1)*746, r.NormFloat64(), r.NormFloat64()*30, -r.ExpFloat64()*20)
	}
	for k := -1075; k <= 1025; k++ { // where k, the power of 2, changes: each side
		x := float64(k) * math.Ln2
		xs = append(xs, math.Nextafter(x, -1000), x, math.Nextafter(x, 1000), x+0.5*math.Ln2, x-0.5*math.Ln2)
	}
	for _, x := range xs {
		got, want := exp(x), math.Exp(x)
		if math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
			t.Fatalf("exp(%v) = %v, math.Exp gives %v", x, got, want)
		}
		g := expGo(x)
		if runtime.GOARCH == "wasm" {
			if math.Float64bits(g) != math.Float64bits(want) && !(math.IsNaN(g) && math.IsNaN(want)) {
				t.Fatalf("expGo(%v) = %v, math.Exp gives %v", x, g, want)
			}
		} else if math.Abs(x) < 700 && math.Abs(g-want) > 4*0x1p-52*want {
			t.Fatalf("expGo(%v) = %v, more than 4 ulps from math.Exp's %v", x, g, want)
		}
	}
}
