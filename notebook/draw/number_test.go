package draw

import (
	"math"
	"testing"
)

func TestNumber(t *testing.T) {
	tests := []struct {
		x    float64
		want string
	}{
		{0, "0"},
		{math.Copysign(0, -1), "0"},
		{42, "42"},
		{-3, "-3"},
		{123456, "123456"},
		{0.5, "0.5"},
		{0.18070664, "0.18071"},
		{5.1807066, "5.1807"},
		{-0.48873735, "-0.48874"},
		{138.83381924198252, "138.83"},
		{0.00018151, "1.8151e-4"},
		{-5.9172568213912854e-05, "-5.9173e-5"},
		{0.0013622535, "0.0013623"},
		{1.0 / 3, "0.33333"},
		{1234567.8, "1.2346e6"},
		{1e20, "1e20"},
		{2.5e-300, "2.5e-300"},
		{0.99999999, "1"},
		{math.Inf(1), "+inf"},
		{math.Inf(-1), "-inf"},
		{math.NaN(), "nan"},
	}
	for _, tc := range tests {
		if got := Number(tc.x); got != tc.want {
			t.Errorf("Number(%v) = %q, want %q", tc.x, got, tc.want)
		}
	}
}
