//go:build js && wasm

package kernels

import (
	"fmt"
	"runtime"
	"syscall/js"
	"unsafe"

	"gradbook/tensor"
)

// What computes the products, in the words Install returns.
const (
	// SIMD is what Install returns when the kernels compute the products.
	SIMD = "WebAssembly SIMD kernels (f64x2)"
	// Plain starts what Install returns when the plain Go loops do,
	// followed by why.
	Plain = "plain Go loops"
)

// MinWork is the fewest multiply-adds of a product that the kernels take:
// a call from Go through JavaScript into the kernels costs about a
// microsecond, which the plain loops spend on this many.
const MinWork = 128

// Kernels are the kernels compiled into the program's own memory: a
// tensor.Kernel. They must not be called from two goroutines at once
// (they share one scratch buffer); in WebAssembly nothing else runs while
// they compute.
type Kernels struct {
	gemm    js.Value  // the module's export
	scratch []float64 // gemm's scratch buffer, on Go's heap
	test    []float64 // the self-test's operands, on the heap too (see call)
}

var _ tensor.Kernel = (*Kernels)(nil)

// Install compiles the kernels into memory, the program's own
// WebAssembly.Memory (its instance's exports.mem, which its loader hands
// over), checks them on a product, and makes them tensor's Kernel, or
// else uninstalls any (tensor.SetKernel(nil)). It
// returns what computes matrix products from now on, for people: SIMD, or
// Plain and why the kernels could not be used: there is no memory, the
// browser has no WebAssembly SIMD, it refused to compile or link the
// module (a Content-Security-Policy without 'wasm-unsafe-eval' where the
// program runs), or the kernels computed a product wrong. It never
// panics: the plain loops stay where anything fails.
func Install(memory js.Value) string {
	k, status := install(memory)
	if k == nil {
		tensor.SetKernel(nil) // not a nil *Kernels in an interface
		return status
	}
	tensor.SetKernel(k)
	return status
}

// install makes the Kernels, or says why not.
func install(memory js.Value) (k *Kernels, status string) {
	defer func() {
		if p := recover(); p != nil {
			k, status = nil, fmt.Sprintf("%s: the kernels could not start (%v)", Plain, p)
		}
	}()
	wasm := js.Global().Get("WebAssembly")
	switch {
	case wasm.Type() != js.TypeObject:
		return nil, Plain + ": this browser runs no WebAssembly here"
	case memory.Type() != js.TypeObject || !memory.InstanceOf(wasm.Get("Memory")):
		return nil, Plain + ": the program's loader gave no memory for the kernels"
	}
	bytes := js.Global().Get("Uint8Array").New(len(Module))
	js.CopyBytesToJS(bytes, Module)
	if !wasm.Call("validate", bytes).Bool() {
		return nil, Plain + ": this browser has no WebAssembly SIMD"
	}
	k, err := compile(wasm, bytes, memory)
	if err == nil {
		err = k.selfTest()
	}
	if err != nil {
		return nil, fmt.Sprintf("%s: %v", Plain, err)
	}
	return k, SIMD
}

// compile compiles and instantiates the module, turning what JavaScript
// throws into an error.
func compile(wasm, bytes, memory js.Value) (k *Kernels, err error) {
	defer func() {
		if p := recover(); p != nil {
			k, err = nil, fmt.Errorf("this browser refused the kernels' module (%v)", p)
		}
	}()
	module := wasm.Get("Module").New(bytes)
	env := js.Global().Get("Object").New()
	env.Set("memory", memory)
	imports := js.Global().Get("Object").New()
	imports.Set("env", env)
	exports := wasm.Get("Instance").New(module, imports).Get("exports")
	n := exports.Call("scratch").Int()
	return &Kernels{gemm: exports.Get("gemm"), scratch: make([]float64, n)}, nil
}

// selfTest computes a product of awkward sizes and every layout with the
// kernels and with the plain loops, and says whether they differ: a
// browser whose SIMD computed otherwise would be told, and not used.
func (k *Kernels) selfTest() error {
	const m, n, kk = 7, 9, 11
	k.test = make([]float64, m*kk+kk*n+2*m*n)
	defer func() { k.test = nil }()
	a, b, want, got := k.test[:m*kk], k.test[m*kk:m*kk+kk*n], k.test[m*kk+kk*n:m*kk+kk*n+m*n], k.test[m*kk+kk*n+m*n:]
	for i := range a {
		a[i] = float64(i%13) - 6.5
	}
	for i := range b {
		b[i] = float64(i%7)/8 - 0.375
	}
	for _, p := range []tensor.Product{
		{Batch: 1, M: m, N: n, K: kk, A: a, AR: kk, AC: 1, B: b, BR: n, BC: 1},
		{Batch: 1, M: m, N: n, K: kk, A: a, AR: kk, AC: 1, B: b, BR: 1, BC: kk},
		{Batch: 1, M: m, N: n, K: kk, A: a, AR: 1, AC: m, B: b, BR: n, BC: 1},
	} {
		for i := range want {
			want[i] = float64(i % 3)
		}
		copy(got, want)
		p.C, p.CR = want, n
		p.Plain()
		p.C = got
		k.call(p)
		for i := range got {
			if got[i] != want[i] {
				return fmt.Errorf("the kernels computed a product wrong in this browser (element %d: %v, not %v)", i, got[i], want[i])
			}
		}
	}
	return nil
}

// Product computes p with the kernels, when it has at least MinWork
// multiply-adds.
func (k *Kernels) Product(p tensor.Product) bool {
	if p.Batch*p.M*p.N*p.K < MinWork || !p.Valid() {
		return false
	}
	k.call(p)
	return true
}

// call runs gemm on p's slices in place, by their addresses in the
// memory that the kernels share with Go. That is safe only for slices on
// Go's heap, whose objects never move, and not on a goroutine's stack,
// which is copied elsewhere when it grows (as it may while the call goes
// through syscall/js). Every slice here is on the heap: tensor hands its
// products to a Kernel through an interface, so the compiler cannot prove
// that they stay on a stack, and the self-test's are in a field of the
// heap's Kernels. KeepAlive keeps them alive until the kernels return.
func (k *Kernels) call(p tensor.Product) {
	k.gemm.Invoke(p.Batch, p.M, p.N, p.K,
		addr(p.A), p.AB, p.AR, p.AC,
		addr(p.B), p.BB, p.BR, p.BC,
		addr(p.C), p.CB, p.CR, addr(k.scratch))
	runtime.KeepAlive(p.A)
	runtime.KeepAlive(p.B)
	runtime.KeepAlive(p.C)
	runtime.KeepAlive(k.scratch)
}

// addr is the address of a slice's first element in the program's
// memory, where the kernels read it.
func addr(s []float64) int { return int(uintptr(unsafe.Pointer(unsafe.SliceData(s)))) }
