package ipynb_test

import (
	"math"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"gradbook/notebook/internal/celltest"
	"gradbook/notebook/kernel"
)

// drawProgram draws from every function of the random module, and makes
// moons, in the subset of Python that is also Starlark, printing one
// number or item a line: the page runs it as a cell, Python after
// gradbook.py.
const drawProgram = `
def out(xs):
    for x in xs:
        print(x)

def weighted(pop, ws, k):
    out(random.choices(pop, ws, k=k))

for s in [0, 1, 42, -7, 123456789, 9223372036854775807, -9223372036854775808]:
    random.seed(s)
    out([random.random() for _ in range(200)])
    out([random.uniform(-3, 5.5) for _ in range(200)])
    out([random.uniform(2, 2) for _ in range(3)])
    out([random.gauss() for _ in range(2000)])
    out([random.gauss(2.5, 0.1) for _ in range(200)])
    out([random.gauss(sigma=3) for _ in range(100)])
    for b in [0, 1, 2, 3, 6, 7, 10, 64, 100, 1000, 1 << 20, (1 << 40) + 3, (1 << 62) + 1, 9223372036854775806]:
        out([random.randint(0, b) for _ in range(50)])
    out([random.randint(-5, 5) for _ in range(100)])
    out([random.randint(1, 9223372036854775807) for _ in range(20)])
    out([random.randint(-(1 << 61), 1 << 61) for _ in range(20)])
    out([random.choice([10, 20, 30]) for _ in range(100)])
    out([random.choice(["a", "b", "c", "d", "e", "f", "g"]) for _ in range(100)])
    out([random.choice(list(range(1000))) for _ in range(100)])
    out([random.choice((7,)) for _ in range(5)])
    for n in [1, 2, 3, 5, 100, 1024, 1025]:
        out(random.choices(list(range(n)), k=50))
    out(random.choices([1, 2], k=0))
    weighted([1, 2, 3], [1, 0, 2], 100)
    weighted([1, 2, 3, 4], [0.5, 0.25, 0, 0.125], 100)
    weighted([1, 2, 3], [0, 0, 5], 20)
    weighted(list(range(50)), [i * i for i in range(50)], 200)
    weighted(["a", "b", "c"], [1e308, 0, 1e308], 100)
    weighted([1, 2], [1e-300, 3e-300], 100)
    for n in [0, 1, 2, 3, 5, 10, 33, 100, 1000]:
        xs = list(range(n))
        random.shuffle(xs)
        out(xs)
    out([random.random()])

for n, noise, seed in [(2, 0.1, 0), (3, 0.0, 1), (7, 0.3, 2), (100, 0.1, 1), (101, 1.0, 42), (1000, 0.05, -1), (20, 0.2, 9223372036854775807)]:
    X, y = moons(n, noise=noise, seed=seed)
    print(len(X), len(y))
    for p in X:
        out(p)
    out(y)
X, y = moons(50)
for p in X:
    out(p)

random.seed(5)
out([random.gauss(0, 1) for _ in range(20000)])
`

// countBranches, run in Python before drawProgram, counts how often the
// ziggurat takes its rare ways: the base strip's tail (log) and a wedge
// (exp).
const countBranches = `
_branches = {"log": 0, "exp": 0}
_log, _exp = _go_log, _go_exp
def _go_log(x):
    _branches["log"] += 1
    return _log(x)
def _go_exp(x):
    _branches["exp"] += 1
    return _exp(x)
`

// TestRandomIsThePages: the random module and moons of gradbook.py give
// the page's numbers, to the last bit, for the same calls in the same
// order: a program run both as a cell of the page and in Python.
func TestRandomIsThePages(t *testing.T) {
	lines := printsAsThePage(t, drawProgram, countBranches, `print("branches", _branches["log"], _branches["exp"])`, 0)
	last := strings.Fields(lines[len(lines)-1])
	// The rare ways of the ziggurat were taken, and agreed.
	if len(last) != 3 || last[0] != "branches" || last[1] == "0" || last[2] == "0" {
		t.Errorf("the draws took no rare way of the ziggurat: %q", last)
	}
	t.Logf("%d draws compared; the ziggurat's tail drew %s logs, its wedges %s exps", len(lines)-1, last[1], last[2])
}

// printsAsThePage runs prog as a cell of the page and in Python after
// gradbook.py, between before and after (Python only), and fails unless
// they print the same lines, numbers to the last bit (within tol,
// relative, if tol > 0); it returns what Python printed, after's lines
// last.
func printsAsThePage(t *testing.T, prog, before, after string, tol float64) []string {
	t.Helper()
	res := celltest.RunWith(kernel.Limits{Output: 1 << 26, Time: 5 * time.Minute}, prog)[0]
	if res.Err != nil {
		t.Fatalf("the cell: %v", res.Err)
	}
	all := strings.Split(strings.TrimSpace(python(t, before+prog+after)), "\n")
	want := strings.Split(strings.TrimSpace(res.Output), "\n")
	if len(all) != len(want)+strings.Count(after, "print(") {
		t.Fatalf("Python printed %d lines, the page %d:\n%s", len(all), len(want), strings.Join(all, "\n"))
	}
	lines := all[:len(want)]
	bad := 0
	for i := range want {
		if !sameItem(lines[i], want[i], tol) {
			if bad++; bad <= 10 {
				t.Errorf("line %d: Python %q, the page %q", i+1, lines[i], want[i])
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d lines differ", bad, len(want))
	}
	return all
}

// sameItem reports whether two printed items are the same: numbers to
// the last bit (the page writes 1e+22, Python 1e22) or within tol,
// relative, others as text.
func sameItem(a, b string, tol float64) bool {
	if a == b {
		return true
	}
	x, err1 := strconv.ParseFloat(a, 64)
	y, err2 := strconv.ParseFloat(b, 64)
	if err1 != nil || err2 != nil {
		return false
	}
	return math.Float64bits(x) == math.Float64bits(y) || math.Abs(x-y) <= tol*max(1, math.Abs(y))
}

// TestRandomFailsAsThePage: the random module and moons of gradbook.py
// refuse what the page refuses, saying the same.
func TestRandomFailsAsThePage(t *testing.T) {
	cases := []string{
		"random.randint(5, 1)",
		"random.choice([])",
		"random.choices([])",
		"random.choices([1, 2], weights=[1])",
		"random.choices([1, 2], weights=[0, 0])",
		"random.choices([1, 2], weights=[-1, 2])",
		"random.choices([1, 2], k=-1)",
		"random.choices([1, 2], k=1000001)",
		"random.uniform(1, 'a')",
		"random.gauss(float('nan'))",
		"moons(1)",
		"moons(10, noise=-1.0)",
		"moons(10, noise=1)",
		"moons(10.0)",
		"moons(10, seed=1.5)",
		"random.seed(1.5)",
		"random.seed(True)",
		"random.seed(1 << 63)",
		"random.randint(1.5, 2)",
		"random.randint(1, 1 << 64)",
		"random.choices([1, 2], k=1.5)",
		"random.choice(5)",
		"random.choice({1: 2})",
		"random.shuffle((1, 2))",
		"random.choices([1, 2], weights=5)",
		"random.choices([1, 2], weights=[1, 'a'])",
	}
	var py strings.Builder
	for _, c := range cases {
		py.WriteString("try:\n    " + c + "\n    print('no error')\nexcept Exception as e:\n    print(e)\n")
	}
	got := strings.Split(strings.TrimSpace(python(t, py.String())), "\n")
	if len(got) != len(cases) {
		t.Fatalf("Python printed %d lines for %d cases:\n%s", len(got), len(cases), strings.Join(got, "\n"))
	}
	for i, c := range cases {
		r := celltest.One(t, c)
		if r.Err == nil {
			t.Errorf("%s: the page gives no error", c)
			continue
		}
		if got[i] != r.Err.Msg {
			t.Logf("%s: %q", c, r.Err.Msg)
			t.Errorf("%s: Python says %q, the page %q", c, got[i], r.Err.Msg)
		}
	}
}

// torchDrawProgram draws from each of torch's random functions, in the
// subset of Python that is also Starlark, one number a line.
const torchDrawProgram = `
def out(t):
    for x in t.reshape(-1).tolist():
        print(x)

out(torch.randn(3))
for s in [0, 1, 42, -7, 9223372036854775807]:
    torch.manual_seed(s)
    out(torch.randn(2, 3))
    out(torch.randn((7,)))
    out(torch.rand(4, 5))
    for high in [1, 2, 3, 27, 65, 1000, 1 << 40]:
        out(torch.randint(0, high, (30,)))
    out(torch.randint(-5, 5, (2, 10)))
    out(torch.multinomial(torch.tensor([0.1, 0.5, 0.0, 0.4]), 20))
    out(torch.multinomial(torch.tensor([[1.0, 2.0, 3.0, 0.5], [0.0, 1.0, 0.0, 1.0]]), 2, replacement=False))
    out(torch.multinomial(torch.tensor([1e308, 0.0, 1e308]), 10))
    out(F.dropout(torch.ones(3, 4), 0.3, training=True))
    out(F.dropout(torch.ones(5), 0.5))
    out(torch.randn(1001))
`

// TestTorchRandomIsThePages: torch's random tensors in gradbook.py are
// the page's, to the last bit, for the same calls in the same order.
func TestTorchRandomIsThePages(t *testing.T) {
	if err := exec.Command("/usr/bin/python3", "-c", "import torch").Run(); err != nil {
		t.Skip("no PyTorch for /usr/bin/python3")
	}
	lines := printsAsThePage(t, torchDrawProgram, "", "", 0)
	t.Logf("%d draws compared", len(lines))
}
