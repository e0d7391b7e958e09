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

func TestInt(t *testing.T) {
	for n, want := range map[int]string{0: "0", 9999: "9999", -9999: "-9999", 10000: "10,000", 2000000: "2,000,000", 123456: "123,456", -1234567: "-1,234,567"} {
		if got := Int(n); got != want {
			t.Errorf("Int(%d) = %q, want %q", n, got, want)
		}
	}
	if got := Count(64401, "node"); got != "64,401 nodes" {
		t.Errorf("Count(64401) = %q", got)
	}
}

func TestList(t *testing.T) {
	for _, tc := range []struct {
		names []string
		want  string
	}{{nil, ""}, {[]string{"a"}, "`a`"}, {[]string{"a", "b"}, "`a` and `b`"}, {[]string{"a", "b", "c"}, "`a`, `b` and `c`"}} {
		if got := List(tc.names); got != tc.want {
			t.Errorf("List(%q) = %q, want %q", tc.names, got, tc.want)
		}
	}
	if Plural(1, "is", "are") != "is" || Plural(3, "is", "are") != "are" {
		t.Error("Plural")
	}
}

func TestBytes(t *testing.T) {
	for n, want := range map[float64]string{1: "1 byte", 512: "512 bytes", 42_000: "42 kB", 1_500_000: "1.5 MB", 5_000_000: "5 MB", 2_100_000_000: "2.1 GB"} {
		if got := Bytes(n); got != want {
			t.Errorf("Bytes(%v) = %q, want %q", n, got, want)
		}
	}
}

func TestRounded(t *testing.T) {
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
		if got := Rounded(tc.x); got != tc.want {
			t.Errorf("Rounded(%v) = %q, want %q", tc.x, got, tc.want)
		}
	}
}
