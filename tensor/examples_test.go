package tensor_test

import (
	"fmt"

	"gradbook/tensor"
)

func ExampleScalars() {
	x := tensor.Must(tensor.FromNested([]float64{1, 2, 3})).SetRequiresGrad(true)
	x.Label = "x"
	y := tensor.Must(x.Mul(x)).SumAll() // x·x summed
	if err := y.Backward(); err != nil {
		fmt.Println(err)
		return
	}

	// The same computation, one scalar at a time: a graph to draw.
	m := tensor.Scalars(y)
	root := m[y][0]
	root.Backward()
	fmt.Println("tensor:", x.Grad)
	for _, v := range m[x] {
		fmt.Printf("%s %v\n", v.Label, v.Grad)
	}
	fmt.Println(root.Op(), root.Inputs()[0].Op(), root.Inputs()[1].Op())
	// Output:
	// tensor: [2, 4, 6]
	// x[0] 2
	// x[1] 4
	// x[2] 6
	// add add mul
}

func ExampleTensor_Take() {
	C := tensor.Must(tensor.Arange(0, 6, 1))
	C = tensor.Must(C.Reshape(3, 2)).SetRequiresGrad(true) // an embedding: 3 rows of 2
	Xb := tensor.Must(tensor.FromNested([]any{[]int{0, 2}, []int{2, 2}}))
	emb := tensor.Must(C.Take(Xb)) // C[Xb]
	fmt.Println(tensor.ShapeString(emb.Shape()), emb)
	if err := emb.SumAll().Backward(); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(C.Grad) // row 2 was picked three times
	// Output:
	// (2, 2, 2) [[[0, 1], [4, 5]], [[4, 5], [4, 5]]]
	// [[1, 1], [0, 0], [3, 3]]
}

func ExampleCrossEntropy() {
	logits := tensor.Must(tensor.FromNested([]any{[]float64{1000, 0, -1000}, []float64{0, 0, 0}})).SetRequiresGrad(true)
	targets := tensor.Must(tensor.FromNested([]int{0, 2}))
	loss := tensor.Must(tensor.CrossEntropy(logits, targets)) // exp(1000) would overflow
	if err := loss.Backward(); err != nil {
		fmt.Println(err)
		return
	}
	l, _ := loss.Item()
	fmt.Printf("%.4f\n", l)
	fmt.Printf("%.4f\n", logits.Grad.Data()) // (softmax − onehot) / 2
	// Output:
	// 0.5493
	// [0.0000 0.0000 0.0000 0.1667 0.1667 -0.3333]
}

func ExampleTensor_SetTangent() {
	x := tensor.Must(tensor.FromNested([]float64{1, 2}))
	_ = x.SetTangent(tensor.Must(tensor.FromNested([]float64{1, 1})))
	y := tensor.Must(x.Mul(x)).SumAll() // x₀² + x₁²
	fmt.Println(y, y.Tangent())         // the derivative along (1, 1): 2x₀ + 2x₁
	// Output: 5 6
}

func ExampleTensor_Index() {
	m := tensor.Must(tensor.Must(tensor.Arange(0, 12, 1)).Reshape(3, 4))
	col := tensor.Must(m.Index(tensor.All(), tensor.At(1)))                     // m[:, 1]
	rev := tensor.Must(m.Index(tensor.SliceStep(tensor.Omit, tensor.Omit, -1))) // m[::-1]
	fmt.Println(col)
	fmt.Println(rev)
	// Output:
	// [1, 5, 9]
	// [[8, 9, 10, 11], [4, 5, 6, 7], [0, 1, 2, 3]]
}
