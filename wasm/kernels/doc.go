// Package kernels is Gradbook's matrix products at the browser's speed:
// float64 kernels in WebAssembly SIMD (f64x2) for tensor's products and
// their two backward products, in a small module of their own that works
// on the Go program's memory in place.
//
// Go's WebAssembly port emits no SIMD, so the kernels are C (src/kernels.c),
// built by gen.go with Debian's clang 14, wasm-ld and wabt into
// kernels.wasm, which is committed and embedded (Module); ./test.sh
// builds it again and fails if the committed binary differs:
//
//	go generate ./wasm/kernels
//
// The module imports the Go program's memory (gradbook.wasm's
// exports.mem) and has none of its own: no data, no globals, no stack in
// memory; Check is the test of that on the binary, and gen.go checks its
// instructions too. A product is C += A·B over a batch of matrices given
// by their addresses and strides (tensor.Product), so that the backward
// products dA = dC·Bᵀ and dB = Aᵀ·dC read the operands where they are,
// without transposing them first. Each element of C is added up in the
// plain Go loop's order, each product and sum rounded on its own, so the
// kernels give tensor's numbers to the last bit: a browser with the
// kernels and one without compute the same.
//
// In a program compiled to WebAssembly, Install compiles the module into
// the program's own memory and makes it tensor's Kernel; where the
// browser has no WebAssembly SIMD, or forbids compiling it, the plain Go
// loops run, and Install says which runs. Natively there is nothing to
// install: tensor's plain loops are the only path.
package kernels
