package library_test

import (
	"strings"
	"testing"

	"gradbook/notebook"
	"gradbook/notebook/internal/celltest"
	"gradbook/notebook/kernel"
)

// The random module gives the same numbers in every run of the same
// cells: from scratch, from a kept state, and after a run that drew more.
func TestRandomIsTheSameInEveryRun(t *testing.T) {
	cells := []string{"random.seed(3)\nws = [random.gauss(0, 1) for _ in range(3)]", "print(random.random(), random.randint(1, 6), random.choice(['a', 'b', 'c']))"}
	fresh := notebook.NewSession().Run(kernel.Request{Cells: cells}).Last()
	if fresh.Err != nil {
		t.Fatal(fresh.Err)
	}
	s := notebook.NewSession()
	first := s.Run(kernel.Request{Cells: cells}).Last().Output
	again := s.Run(kernel.Request{Cells: cells}).Last().Output // from the first cell's kept state
	if first != fresh.Output || again != fresh.Output {
		t.Errorf("runs differ: %q, %q, %q", fresh.Output, first, again)
	}
	// Unseeded, a run starts at seed 0.
	a := celltest.One(t, "print(random.random())").Output
	b := celltest.One(t, "random.seed(0)\nprint(random.random())").Output
	if a != b {
		t.Errorf("an unseeded run gives %q, seed 0 %q", a, b)
	}
}

func TestRandomFunctions(t *testing.T) {
	printsExactly(t, `random.seed(1)
xs = list(range(10))
random.shuffle(xs)
print(sorted(xs) == list(range(10)), xs != list(range(10)))
picks = random.choices(["never", "always"], weights=[0, 1], k=50)
print(len(picks), picks.count("always") if hasattr(picks, "count") else len([p for p in picks if p == "always"]))
g = [random.gauss(2.0, 0.5) for _ in range(4000)]
mean = sum(g) / len(g)
sd = math.sqrt(sum([(x - mean) * (x - mean) for x in g]) / len(g))
print(abs(mean - 2.0) < 0.05, abs(sd - 0.5) < 0.05)
u = [random.uniform(-1, 1) for _ in range(1000)]
print(min(u) >= -1, max(u) < 1)
d = [random.randint(1, 3) for _ in range(300)]
print(min(d), max(d))`, "True True\n50 50\nTrue True\nTrue True\n1 3\n")
	celltest.Fails(t, map[string]string{
		"random.choices([1, 2], weights=[1])":     "weights must be a list of 2 numbers",
		"random.choices([1, 2], weights=[0, 0])":  "the weights add up to 0",
		"random.choices([1, 2], weights=[-1, 2])": "weights are numbers, at least 0",
		"random.randint(5, 1)":                    "b (1) is below a (5)",
		"random.choice([])":                       "the sequence is empty",
	})
	// A list a cell above made is frozen: shuffle says to copy it.
	res := notebook.NewSession().Run(kernel.Request{Cells: []string{"xs = [1, 2, 3]", "random.shuffle(xs)"}}).Last()
	if res.Err == nil || !strings.Contains(res.Err.Msg, "shuffle a copy, xs = list(xs)") {
		t.Errorf("shuffling a frozen list: %v", res.Err)
	}
}

// Weights whose sum overflows to inf ([1e308, 1e308]) are drawn fairly,
// by random.choices and torch.multinomial alike, not always the last
// (issue 34, finding 8).
func TestHugeWeightsDrawFairly(t *testing.T) {
	printsExactly(t, `picks = random.choices(["a", "b"], weights=[1e308, 1e308], k=2000)
n = len([p for p in picks if p == "a"])
print(800 < n and n < 1200)
picks = random.choices(["a", "b", "c"], weights=[1e308, 0, 1e308], k=2000)
print(len([p for p in picks if p == "b"]))
draws = torch.multinomial(torch.tensor([1e308, 1e308]), 2000).tolist()
m = len([d for d in draws if d == 0])
print(800 < m and m < 1200)`, "True\n0\nTrue\n")
}
