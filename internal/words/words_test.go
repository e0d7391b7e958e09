package words

import (
	"math"
	"testing"
)

func TestNumberAndCount(t *testing.T) {
	for x, want := range map[float64]string{42: "42", -0.5: "-0.5", 1.0 / 3: "0.33333333", math.Inf(1): "+inf", math.Inf(-1): "-inf", 1e20: "1e+20"} {
		if got := Number(x); got != want {
			t.Errorf("Number(%v) = %q, want %q", x, got, want)
		}
	}
	if got := Number(math.NaN()); got != "nan" {
		t.Errorf("Number(NaN) = %q", got)
	}
	if Count(1, "input") != "1 input" || Count(2, "input") != "2 inputs" || Count(0, "record") != "0 records" {
		t.Errorf("Count: %q %q %q", Count(1, "input"), Count(2, "input"), Count(0, "record"))
	}
}
