package tensor_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	. "gradbook/tensor"
)

// composedCases are the functions of compose.go, each checked as the ops'
// own are: against the scalar engine, forward mode and central
// differences.
func composedCases(r *rand.Rand) []gradCase {
	var cases []gradCase
	for _, s := range []struct {
		shape []int
		diag  int
	}{{[]int{4, 4}, 0}, {[]int{3, 5}, 1}, {[]int{2, 3, 3}, -1}, {[]int{2, 2, 3, 4}, 0}, {randShape(r, 2), 0}} {
		cases = append(cases, gradCase{fmt.Sprintf("tril %s diagonal %d", ShapeString(s.shape), s.diag), []input{in(normal, s.shape...)},
			func(x []*Tensor) (*Tensor, error) {
				y, err := x[0].Tril(s.diag)
				if err != nil {
					return nil, err
				}
				return y.Mul(Scalar(1.5))
			}})
	}
	for _, axis := range []int{0, 1, 2, -1} {
		cases = append(cases, gradCase{fmt.Sprintf("stack of 3 (2, 3) axis %d", axis), []input{in(normal, 2, 3), in(normal, 2, 3), in(normal, 2, 3)},
			func(x []*Tensor) (*Tensor, error) {
				y, err := Stack(axis, x...)
				if err != nil {
					return nil, err
				}
				return y.Tanh(), nil
			}})
	}
	for _, p := range []float64{0, 0.3, 1} {
		cases = append(cases, gradCase{fmt.Sprintf("dropout p=%v", p), []input{in(normal, 3, 5)},
			func(x []*Tensor) (*Tensor, error) {
				// The same mask each time the case runs: a fresh generator.
				return NewGenerator(4).Dropout(x[0], p)
			}})
	}
	return cases
}

func TestComposedAgainstScalarEngine(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 13))
	for _, c := range composedCases(r) {
		checkCase(t, r, c)
	}
}

// TestComposedNumbers checks what a learner reads: the triangle kept, the
// stacked shape, dropout's mask and scale.
func TestComposedNumbers(t *testing.T) {
	ones := Must(Ones(3, 3))
	tri := Must(ones.Tril(0))
	if want := []float64{1, 0, 0, 1, 1, 0, 1, 1, 1}; !slices.Equal(tri.Data(), want) {
		t.Errorf("tril(ones(3, 3)) = %v, want %v", tri.Data(), want)
	}
	up := Must(ones.Tril(1))
	if want := []float64{1, 1, 0, 1, 1, 1, 1, 1, 1}; !slices.Equal(up.Data(), want) {
		t.Errorf("tril(ones(3, 3), 1) = %v, want %v", up.Data(), want)
	}
	a, b := Must(New([]float64{1, 2}, 2)), Must(New([]float64{3, 4}, 2))
	s0, s1 := Must(Stack(0, a, b)), Must(Stack(1, a, b))
	if !slices.Equal(s0.Shape(), []int{2, 2}) || !slices.Equal(s0.Data(), []float64{1, 2, 3, 4}) {
		t.Errorf("stack axis 0: %v %v", s0.Shape(), s0.Data())
	}
	if !slices.Equal(s1.Data(), []float64{1, 3, 2, 4}) {
		t.Errorf("stack axis 1: %v", s1.Data())
	}
	x := Must(Ones(1000))
	d := Must(NewGenerator(1).Dropout(x, 0.25))
	kept := 0
	for _, v := range d.Data() {
		switch v {
		case 0:
		case 1 / 0.75:
			kept++
		default:
			t.Fatalf("dropout gave %v: want 0 or 1/(1 - p)", v)
		}
	}
	if kept < 700 || kept > 800 {
		t.Errorf("dropout p=0.25 kept %d of 1000", kept)
	}
	if d2 := Must(NewGenerator(1).Dropout(x, 0.25)); !slices.Equal(d2.Data(), d.Data()) {
		t.Error("dropout with the same seed gave another mask")
	}
	for _, c := range []struct {
		name string
		err  error
		kind error
	}{
		{"tril of a vector", func() error { _, err := a.Tril(0); return err }(), ErrShape},
		{"stack of two shapes", func() error { _, err := Stack(0, a, ones); return err }(), ErrShape},
		{"stack axis 3", func() error { _, err := Stack(3, a, b); return err }(), ErrAxis},
		{"dropout p=1.5", func() error { _, err := NewGenerator(1).Dropout(a, 1.5); return err }(), ErrValue},
	} {
		if !errors.Is(c.err, c.kind) {
			t.Errorf("%s: error %v, want %v", c.name, c.err, c.kind)
		}
	}
}
