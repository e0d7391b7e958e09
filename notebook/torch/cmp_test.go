package torch

import "testing"

// The sums that take a gradient back to its tensor's shape, for each way
// a tensor broadcasts.
func TestStretchedSums(t *testing.T) {
	for _, c := range []struct {
		got, want []int
		says      string
	}{
		{[]int{32, 27}, []int{32, 1}, " (.sum(1, keepdim=True))"},
		{[]int{32, 27}, []int{1, 27}, " (.sum(0, keepdim=True))"},
		{[]int{32, 27}, []int{27}, " (.sum(0))"},
		{[]int{4, 32, 27}, []int{32, 1}, " (.sum(0).sum(1, keepdim=True))"},
		{[]int{32, 27}, []int{5}, ""},
	} {
		if got := stretchedSums(c.got, c.want); got != c.says {
			t.Errorf("%v for %v: %q, want %q", c.got, c.want, got, c.says)
		}
	}
}
