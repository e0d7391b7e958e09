//go:build js && wasm

package tensor_test

import (
	"fmt"
	"os"
	"syscall/js"
	"testing"

	"gradbook/wasm/kernels"
)

// TestMain runs tensor's tests and benchmarks with the WebAssembly SIMD
// kernels when the test runs with the kernels' memory handed over
// (wasm/kernels/testdata/go_js_wasm_exec), and with the plain loops
// otherwise (Go's own go_js_wasm_exec): every oracle comparison holds on
// both paths.
func TestMain(m *testing.M) {
	if memory := js.Global().Get("goMemory"); !memory.IsUndefined() {
		if status := kernels.Install(memory); status != kernels.SIMD {
			fmt.Println("tensor: the kernels did not install:", status)
			os.Exit(1)
		}
	}
	os.Exit(m.Run())
}
