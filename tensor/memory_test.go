package tensor_test

import (
	"runtime"
	"testing"
	"weak"

	. "gradbook/tensor"
)

// A result holds on to its inputs only to run the chain rule back
// through them: when none requires a gradient it must let them go, or a
// loop such as m = 0.9*m + 0.1*g (an optimizer's running mean, nothing
// requiring a gradient) keeps every step's tensors, and a cell of a
// thousand steps runs out of memory. When one does require a gradient,
// the result keeps it (which shows that the test can tell).
func TestResultsLetGoOfInputsWithoutGradients(t *testing.T) {
	for _, grad := range []bool{false, true} {
		x := Must(Ones(3, 4))
		x.SetRequiresGrad(grad)
		inputs := []weak.Pointer[Tensor]{weak.Make(x)}
		y := x
		for range 5 {
			y = Must(Must(y.Mul(Scalar(0.9))).Add(Must(Ones(3, 4))))
			inputs = append(inputs, weak.Make(y))
		}
		x = nil
		runtime.GC()
		kept := 0
		for _, p := range inputs[:len(inputs)-1] {
			if p.Value() != nil {
				kept++
			}
		}
		if want := map[bool]int{false: 0, true: 5}[grad]; kept != want {
			t.Errorf("requires_grad %v: the last result keeps %d of the 5 tensors before it alive, want %d", grad, kept, want)
		}
		runtime.KeepAlive(y)
	}
}
