package notebook_test

import (
	"fmt"

	"gradbook/notebook"
	"gradbook/notebook/kernel"
)

// A Session runs cells: each sees what the cells above it leave.
func ExampleSession_Run() {
	s := notebook.NewSession()
	res := s.Run(kernel.Request{Cells: []string{
		`a = Value(2.0, "a")`,
		"L = a * a\nL.backward()\nprint(a.grad)",
	}})
	fmt.Print(res.Last().Output)
	// Output: 4.0
}
