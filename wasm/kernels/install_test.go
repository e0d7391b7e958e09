//go:build js && wasm

package kernels

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"syscall/js"
	"testing"

	"gradbook/tensor"
	"gradbook/tensor/tensortest"
)

// The tests run in Node with the program's memory handed over by
// testdata/exec.js:
//
//	GOOS=js GOARCH=wasm go test -exec="$PWD/testdata/go_js_wasm_exec" .

// kernels returns the kernels compiled into this test's memory.
func kernels(t testing.TB) *Kernels {
	t.Helper()
	memory := js.Global().Get("goMemory")
	if memory.IsUndefined() {
		t.Fatal("no memory to compile the kernels into: run the tests with -exec=$PWD/testdata/go_js_wasm_exec")
	}
	k, status := install(memory)
	if k == nil {
		t.Fatal(status)
	}
	return k
}

// TestKernelsAgainstPlain checks the kernels against the plain loops, to
// the bit, on random products of every layout and awkward size (1, odd,
// not a multiple of the vector width or of the tiles), up to sizes that
// cross every block of the kernels (KC = NC = 256, MC = 64).
func TestKernelsAgainstPlain(t *testing.T) {
	k := kernels(t)
	r := rand.New(rand.NewPCG(36, 1))
	count := 0
	for i := range 3000 {
		size := []int{3, 9, 17, 40}[i%4]
		if i%100 == 99 {
			size = 300
		}
		p := tensortest.RandomProduct(r, size)
		want := tensortest.Reference(p)
		k.call(p) // whatever its size: Product would leave the smallest to Plain
		if j := tensortest.FirstDifference(p.C, want); j >= 0 {
			t.Fatalf("%s: element %d is %v with the kernels, %v by the definition", tensortest.Describe(p), j, p.C[j], want[j])
		}
		count++
	}
	t.Logf("%d products, the same to the bit", count)
}

// TestProductDeclinesSmall checks that Product leaves a product of fewer
// than MinWork multiply-adds, or one reaching past its slices, to Plain,
// touching nothing.
func TestProductDeclinesSmall(t *testing.T) {
	k := kernels(t)
	c := []float64{1, 2, 3, 4}
	small := tensor.Product{Batch: 1, M: 2, N: 2, K: 2, A: []float64{1, 2, 3, 4}, AR: 2, AC: 1, B: []float64{1, 0, 0, 1}, BR: 2, BC: 1, C: c, CR: 2}
	if k.Product(small) || c[0] != 1 {
		t.Errorf("the kernels took a product of 8 multiply-adds: %v", c)
	}
	big := small
	big.M, big.N, big.K = 8, 8, 8
	if k.Product(big) {
		t.Error("the kernels took a product that reaches past its slices")
	}
}

// TestInstallSaysWhatRuns checks what Install says and installs: the
// kernels where it can, and the plain loops, with the reason, where
// there is no memory, no SIMD, or the browser refuses the module; the
// products are right either way.
func TestInstallSaysWhatRuns(t *testing.T) {
	memory := js.Global().Get("goMemory")
	wasm := js.Global().Get("WebAssembly")
	validate, module := wasm.Get("validate"), wasm.Get("Module")
	defer func() {
		wasm.Set("validate", validate)
		wasm.Set("Module", module)
		tensor.SetKernel(nil)
	}()
	noSIMD := js.FuncOf(func(js.Value, []js.Value) any { return false })
	defer noSIMD.Release()
	refuse := js.Global().Get("Function").New("throw new WebAssembly.CompileError('Wasm code generation disallowed by embedder')")
	cases := []struct {
		name   string
		memory js.Value
		setup  func()
		want   string
	}{
		{"the kernels", memory, func() {}, SIMD},
		{"no memory", js.Undefined(), func() {}, Plain + ": the program's loader gave no memory for the kernels"},
		{"not a memory", js.Global().Get("Object").New(), func() {}, Plain + ": the program's loader gave no memory for the kernels"},
		{"no SIMD", memory, func() { wasm.Set("validate", noSIMD) }, Plain + ": this browser has no WebAssembly SIMD"},
		{"a CSP", memory, func() { wasm.Set("Module", refuse) }, Plain + ": this browser refused the kernels' module (JavaScript error: Wasm code generation disallowed by embedder)"},
		{"the kernels again", memory, func() {}, SIMD},
	}
	g := tensor.NewGenerator(3)
	x, w := tensor.Must(g.Randn(33, 20)), tensor.Must(g.Randn(20, 17))
	tensor.SetKernel(nil)
	want := tensor.Must(x.Matmul(w)).Data()
	for _, c := range cases {
		c.setup()
		got := Install(c.memory)
		wasm.Set("validate", validate)
		wasm.Set("Module", module)
		if got != c.want {
			t.Errorf("%s: Install said %q, want %q", c.name, got, c.want)
		}
		// What Install installed computes the product right.
		if y := tensor.Must(x.Matmul(w)).Data(); tensortest.FirstDifference(y, want) >= 0 {
			t.Errorf("%s: a product is not the plain loops'", c.name)
		}
		// A kernel installed or not: a product that the kernels take if
		// they are there is right.
		counter := &counting{}
		if c.want == SIMD {
			counter.Kernel = kernels(t)
		}
		tensor.SetKernel(counter)
		y := tensor.Must(x.Matmul(w)).Data()
		if i := tensortest.FirstDifference(y, want); i >= 0 {
			t.Errorf("%s: element %d of a product is %v, the plain loops' %v", c.name, i, y[i], want[i])
		}
		if c.want == SIMD && counter.taken == 0 || c.want != SIMD && counter.taken > 0 {
			t.Errorf("%s: the kernels took %d products", c.name, counter.taken)
		}
	}
}

// counting counts the products a Kernel, if any, takes.
type counting struct {
	tensor.Kernel
	taken int
}

func (c *counting) Product(p tensor.Product) bool {
	if c.Kernel == nil || !c.Kernel.Product(p) {
		return false
	}
	c.taken++
	return true
}

// BenchmarkCall is a call of the kernels on one multiply-add: the cost of
// going from Go through JavaScript into them and back.
func BenchmarkCall(b *testing.B) {
	k := kernels(b)
	p := tensor.Product{Batch: 1, M: 1, N: 1, K: 1, A: make([]float64, 1), AR: 1, AC: 1, B: make([]float64, 1), BR: 1, BC: 1, C: make([]float64, 1), CR: 1}
	b.ReportAllocs()
	for b.Loop() {
		k.call(p)
	}
}

// BenchmarkSmall is small square products with the kernels and with the
// plain loops, in ns: where the kernels start to pay (MinWork).
func BenchmarkSmall(b *testing.B) {
	k := kernels(b)
	for _, n := range []int{2, 3, 4, 5, 6, 8, 12} {
		p := tensor.Product{Batch: 1, M: n, N: n, K: n, A: make([]float64, n*n), AR: n, AC: 1, B: make([]float64, n*n), BR: n, BC: 1, C: make([]float64, n*n), CR: n}
		b.Run(fmt.Sprintf("%d³/kernels", n), func(b *testing.B) {
			for b.Loop() {
				k.call(p)
			}
		})
		b.Run(fmt.Sprintf("%d³/plain", n), func(b *testing.B) {
			for b.Loop() {
				p.Plain()
			}
		})
	}
}

// BenchmarkKernels is the figures' products, alone, in GFLOP/s: the
// forward product (nn), dA = dC·Bᵀ (nt) and dB = Aᵀ·dC (tn).
func BenchmarkKernels(b *testing.B) {
	k := kernels(b)
	for _, s := range [][3]int{{64, 64, 64}, {256, 256, 256}, {512, 64, 256}} {
		m, kk, n := s[0], s[1], s[2]
		for _, layout := range []string{"nn", "nt", "tn"} {
			p := tensor.Product{Batch: 1, M: m, N: n, K: kk, A: make([]float64, m*kk), AR: kk, AC: 1, B: make([]float64, kk*n), BR: n, BC: 1, C: make([]float64, m*n), CR: n}
			if strings.HasSuffix(layout, "t") {
				p.BR, p.BC = 1, kk
			}
			if strings.HasPrefix(layout, "t") {
				p.AR, p.AC = 1, m
			}
			b.Run(fmt.Sprintf("%dx%dx%d/%s", m, kk, n, layout), func(b *testing.B) {
				for b.Loop() {
					k.call(p)
				}
				b.ReportMetric(2*float64(m*kk*n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			})
		}
	}
}
