package tensor

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
)

// TestFastLoopsAreTheRules checks each loop of fast.go against its op's
// rule in the table, forward and backward, to the bit (any NaN for a
// NaN), for every elementwise op of the table (those without a loop are
// counted as such), on random shapes that broadcast in each way (same
// shape, a row, a column, a scalar, both stretched) and on elements that
// include zeros of both signs, infinities and NaNs.
func TestFastLoopsAreTheRules(t *testing.T) {
	r := rand.New(rand.NewPCG(36, 2))
	specials := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), 1, -1}
	fill := func(shape ...int) *Tensor {
		x := newTensor(shape)
		for i := range x.data {
			if r.IntN(4) == 0 {
				x.data[i] = specials[r.IntN(len(specials))]
			} else {
				x.data[i] = r.NormFloat64()
			}
		}
		return x
	}
	same := func(a, b []float64) int {
		for i := range a {
			if math.Float64bits(a[i]) != math.Float64bits(b[i]) && !(math.IsNaN(a[i]) && math.IsNaN(b[i])) {
				return i
			}
		}
		return -1
	}
	shapes := [][2][]int{{{2, 3}, {2, 3}}, {{2, 3}, {3}}, {{3, 1}, {1, 4}}, {{}, {2, 3}}, {{4, 1, 3}, {2, 1}}, {{5}, {}},
		{{2, 0}, {2, 1}}, {{3, 4}, {3, 1}}, {{1, 4}, {3, 1}}, {{3, 1}, {3, 4}}, {{}, {}}, {{7}, {7}},
		// rows long enough for the loops that take four or eight elements at a time, and their rest
		{{3, 19}, {3, 19}}, {{2, 13}, {13}}, {{}, {3, 11}}, {{5, 1}, {5, 17}}, {{17}, {}}, {{9, 8}, {9, 1}}}
	exponents := []float64{2, -0.5, -1, 3, 0, 0.5}
	checked, without := map[string]int{}, map[string]bool{}
	for round := range 144 {
		s := shapes[round%len(shapes)]
		for op := range opMatmul { // the elementwise ops, each the engine's rule
			a, b := fill(s[0]...).SetRequiresGrad(true), fill(s[1]...).SetRequiresGrad(true)
			var y *Tensor
			if ops[op].arity == 1 {
				y = a.unary(op, exponents[round%len(exponents)])
			} else {
				y = Must(a.binary(op, b))
				if round%5 == 0 {
					y = Must(a.binary(op, a)) // x∘x: both gradients into one
				}
			}
			n := y.node
			want, got := newTensor(y.shape), newTensor(y.shape)
			ops[op].forward(n, want)
			if !fastForward(n, got) {
				without[ops[op].name] = true
				continue
			}
			if i := same(got.data, want.data); i >= 0 {
				t.Fatalf("%s %v: element %d is %v, the rule's %v", ops[op].name, s, i, got.data[i], want.data[i])
			}
			gy := fill(y.shape...).data
			gx, wantGx := make([][]float64, len(n.in)), make([][]float64, len(n.in))
			for i, x := range n.in {
				gx[i], wantGx[i] = fill(x.shape...).data, nil
				wantGx[i] = append([]float64(nil), gx[i]...)
			}
			if len(n.in) == 2 && n.in[0] == n.in[1] {
				gx[1], wantGx[1] = gx[0], wantGx[0]
			}
			fastVJP(n, y, gy, gx)
			ops[op].vjp(n, y, gy, wantGx)
			for i := range gx {
				if j := same(gx[i], wantGx[i]); j >= 0 {
					t.Fatalf("%s %v: gradient %d element %d is %v, the rule's %v", ops[op].name, s, i, j, gx[i][j], wantGx[i][j])
				}
			}
			checked[ops[op].name]++
		}
	}
	for _, name := range []string{"add", "sub", "mul", "div", "relu", "neg", "exp", "log", "tanh", "pow"} {
		if checked[name] == 0 {
			t.Errorf("%s has no loop in fast.go", name)
		}
	}
	t.Logf("checked: %v; the table's loops alone: %v", checked, without)
}

// TestFastTransposeIsTheGather checks transpose's strided loops of
// fast.go against its rule in the table, the gather of the offsets that
// walk lists, forward and backward, to the bit, for T and for every pair
// of axes of random shapes (with dimensions of 1 and 0 among them).
func TestFastTransposeIsTheGather(t *testing.T) {
	r := rand.New(rand.NewPCG(36, 3))
	checked := 0
	for round := range 400 {
		shape := make([]int, 1+r.IntN(4))
		for i := range shape {
			shape[i] = 1 + r.IntN(4)
			if round%3 == 0 && len(shape) <= 3 { // rows for the loops four a turn, and copies
				shape[i] = 1 + r.IntN(19)
			}
			if round%23 == 0 && i == 0 {
				shape[i] = 0
			}
		}
		x := newTensor(shape).SetRequiresGrad(true)
		for i := range x.data {
			x.data[i] = r.NormFloat64()
		}
		var y *Tensor
		if round%5 == 0 {
			y = x.T()
		} else {
			y = Must(x.Transpose(r.IntN(len(shape)), -1-r.IntN(len(shape))))
		}
		if y == x {
			continue
		}
		n := y.node
		want, got := newTensor(y.shape), newTensor(y.shape)
		ops[opTranspose].forward(n, want)
		if !fastForward(n, got) {
			t.Fatal("transpose has no loop in fast.go")
		}
		for i := range want.data {
			if got.data[i] != want.data[i] {
				t.Fatalf("transpose of %v to %v: element %d is %v, the gather's %v", shape, y.shape, i, got.data[i], want.data[i])
			}
		}
		gy := make([]float64, len(y.data))
		for i := range gy {
			gy[i] = r.NormFloat64()
		}
		g, wantG := make([]float64, len(x.data)), make([]float64, len(x.data))
		for i := range g {
			g[i] = r.NormFloat64()
			wantG[i] = g[i]
		}
		fastVJP(n, y, gy, [][]float64{g})
		ops[opTranspose].vjp(n, y, gy, [][]float64{wantG})
		for i := range g {
			if math.Float64bits(g[i]) != math.Float64bits(wantG[i]) {
				t.Fatalf("transpose of %v to %v: gradient element %d is %v, the gather's %v", shape, y.shape, i, g[i], wantG[i])
			}
		}
		checked++
	}
	t.Logf("%d transposes checked", checked)
}

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

// TestExpShiftedIsExp checks expShifted, the loop of softmax's numerators,
// against exp element by element, to the bit, and its sums against theirs
// added in order, on rows that cross every edge of its fast path (±708,
// near 0, the ends of exp's range, infinities and NaN).
func TestExpShiftedIsExp(t *testing.T) {
	r := rand.New(rand.NewPCG(36, 8))
	edges := []float64{0, math.Copysign(0, -1), 708, -708, math.Nextafter(708, 1000), math.Nextafter(-708, -1000),
		0x1p-28, -0x1p-28, math.Nextafter(0x1p-28, 1), math.Nextafter(-0x1p-28, -1), 709.7, -745.1, -745.2, 709.8,
		-709, -720, 1e-300, math.Inf(1), math.Inf(-1), math.NaN(), 1, -1, 0.5, -0.5}
	for round := range 1000 {
		rows, count := 1+r.IntN(4), 1+r.IntN(70)
		x := make([]float64, rows*count)
		for i := range x {
			switch r.IntN(4) {
			case 0:
				x[i] = edges[r.IntN(len(edges))]
			case 1:
				x[i] = (r.Float64() - 0.5) * 1500
			default:
				x[i] = r.NormFloat64() * 5
			}
		}
		ms, ss := make([]float64, rows), make([]float64, rows)
		for i := range ms {
			if round%2 == 0 {
				ms[i] = x[r.IntN(len(x))]
			}
		}
		y := make([]float64, len(x))
		expShifted(y, x, count, ms, ss)
		for row, m := range ms {
			want := 0.0
			for i := row * count; i < (row+1)*count; i++ {
				e := exp(x[i] - m)
				if math.Float64bits(y[i]) != math.Float64bits(e) && !(math.IsNaN(y[i]) && math.IsNaN(e)) {
					t.Fatalf("exp(%v − %v): expShifted gives %v, exp %v", x[i], m, y[i], e)
				}
				want += e
			}
			if s := ss[row]; math.Float64bits(s) != math.Float64bits(want) && !(math.IsNaN(s) && math.IsNaN(want)) {
				t.Fatalf("the sum of row %d: %v, want %v", row, s, want)
			}
		}
	}
}

// TestRowLoopsAreAddTo checks addRows and addRowsTo, a linear's bias and
// its gradient, against a call of addTo for each row, to the bit, on
// rows of every length from 1 to 40 (the loops take eight elements a
// turn, then four, then one).
func TestRowLoopsAreAddTo(t *testing.T) {
	r := rand.New(rand.NewPCG(36, 9))
	fill := func(n int) []float64 {
		x := make([]float64, n)
		for i := range x {
			x[i] = r.NormFloat64()
		}
		return x
	}
	for cols := 1; cols <= 40; cols++ {
		rows := 1 + r.IntN(5)
		y, b := fill(rows*cols), fill(cols)
		want := append([]float64(nil), y...)
		for i := 0; i < len(want); i += cols {
			addTo(want[i:i+cols], b)
		}
		addRows(y, b)
		g, x := fill(cols), fill(rows*cols)
		wantG := append([]float64(nil), g...)
		for i := 0; i < len(x); i += cols {
			addTo(wantG, x[i:i+cols])
		}
		addRowsTo(g, x)
		for i := range y {
			if math.Float64bits(y[i]) != math.Float64bits(want[i]) {
				t.Fatalf("addRows, rows of %d: element %d is %v, want %v", cols, i, y[i], want[i])
			}
		}
		for i := range g {
			if math.Float64bits(g[i]) != math.Float64bits(wantG[i]) {
				t.Fatalf("addRowsTo, rows of %d: element %d is %v, want %v", cols, i, g[i], wantG[i])
			}
		}
	}
}
