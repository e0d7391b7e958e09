package engine

import "testing"

func TestSizeAtMost(t *testing.T) {
	x := NewValue(2, "x")
	y := x
	for range 100 {
		y = y.Mul(x).Add(NewValue(1, ""))
	}
	if got, want := SizeAtMost(y, 1000), Size(y); got != want {
		t.Errorf("SizeAtMost(y, 1000) = %d, want %d", got, want)
	}
	if got := SizeAtMost(y, 10); got <= 10 || got > 12 {
		t.Errorf("SizeAtMost(y, 10) = %d, want just above 10", got)
	}
}
