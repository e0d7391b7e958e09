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
	for n, want := range map[int64]string{1 << 20: "1 MB", 512 << 20: "512 MB", 3 << 19: "1.5 MB", 512 << 10: "512 kB", 2000: "2 kB", 1536: "1.5 kB", 300: "300 bytes", 1: "1 byte"} {
		if got := Bytes(n); got != want {
			t.Errorf("Bytes(%d) = %q, want %q", n, got, want)
		}
	}
}
