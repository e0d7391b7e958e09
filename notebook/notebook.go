package notebook

import (
	"go.starlark.net/starlark"

	"gradbook/notebook/kernel"
	"gradbook/notebook/library"
	"gradbook/notebook/torch"
	"gradbook/notebook/values"
)

// NewSession returns an empty Session of the cell language: the kernel
// with every built-in (Builtins), and in each chain of cells the parts of
// the Values, the tensors and the library.
func NewSession() *kernel.Session { return kernel.NewSession(Builtins(), newParts) }

func newParts() []kernel.Part {
	return []kernel.Part{values.NewPart(), torch.NewPart(), library.NewPart()}
}

// Builtins returns every built-in of the cell language: the Value type's
// (package values), the tensors' (package torch) and the library's.
func Builtins() starlark.StringDict {
	return kernel.Builtins(values.Builtins(), torch.Builtins(), library.Builtins())
}
