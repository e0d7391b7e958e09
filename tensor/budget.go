package tensor

// This file holds Budget, which bounds the time of the long computations
// (matrix products), for a program that must stop them on time without
// the package knowing whose time it is.

import "gradbook/engine"

// Budget bounds the work of matrix products, the only computations of
// the package whose time has no bound of its own (every other op does
// at most a few times MaxSize steps). A product of more than PanelWork
// multiply-adds calls it before each panel (see SetKernel) with the
// multiply-adds left in the product, the whole product's before the
// first: an error stops the product, and the Budget's Matmul, Linear or
// Backward returns that error, leaving nothing changed. A notebook's run
// gives one that refuses up front what cannot finish in the time left,
// and stops a product once the time is up. A nil Budget allows
// everything.
type Budget func(work int) error

// stopped carries a Budget's error out of the product it stops, to the
// Budget's method that ran it.
type stopped struct{ err error }

// spend calls b, and stops the computation on its error.
func (b Budget) spend(work int) {
	if err := b(work); err != nil {
		panic(stopped{err})
	}
}

// catch recovers a Budget's error into *err; any other panic goes on.
func catch(err *error) {
	if r := recover(); r != nil {
		s, ok := r.(stopped)
		if !ok {
			panic(r)
		}
		*err = s.err
	}
}

// Matmul is t.Matmul(u) within the budget: its product, and its tangent
// in forward mode; the node it records keeps no budget, so a later
// Backward has its own.
func (b Budget) Matmul(t, u *Tensor) (y *Tensor, err error) {
	defer catch(&err)
	return t.matmul(u, b)
}

// Linear is Linear(x, weight, bias) within the budget.
func (b Budget) Linear(x, weight, bias *Tensor) (y *Tensor, err error) {
	defer catch(&err)
	return linear(x, weight, bias, b)
}

// Backward is t.BackwardWith(grad, mode) within the budget: stopped, it
// leaves every gradient as it was.
func (b Budget) Backward(t, grad *Tensor, mode engine.Mode) (err error) {
	defer catch(&err)
	return t.backward(grad, mode, b)
}
