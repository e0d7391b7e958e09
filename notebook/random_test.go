package notebook

import (
	"gradbook/notebook/kernel"
	"strings"
	"testing"
)

// The random module gives the same numbers in every run of the same
// cells: from scratch, from a kept state, and after a run that drew more.
func TestRandomIsTheSameInEveryRun(t *testing.T) {
	cells := []string{"random.seed(3)\nws = [random.gauss(0, 1) for _ in range(3)]", "print(random.random(), random.randint(1, 6), random.choice(['a', 'b', 'c']))"}
	fresh := NewSession().Run(kernel.Request{Cells: cells}).Last()
	if fresh.Err != nil {
		t.Fatal(fresh.Err)
	}
	s := NewSession()
	first := s.Run(kernel.Request{Cells: cells}).Last().Output
	again := s.Run(kernel.Request{Cells: cells}).Last().Output // from the first cell's kept state
	if first != fresh.Output || again != fresh.Output {
		t.Errorf("runs differ: %q, %q, %q", fresh.Output, first, again)
	}
	// Unseeded, a run starts at seed 0.
	a := runOne(t, "print(random.random())").Output
	b := runOne(t, "random.seed(0)\nprint(random.random())").Output
	if a != b {
		t.Errorf("an unseeded run gives %q, seed 0 %q", a, b)
	}
}

func TestRandomFunctions(t *testing.T) {
	r := runOne(t, `random.seed(1)
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
print(min(d), max(d))`)
	if r.Err != nil || r.Output != "True True\n50 50\nTrue True\nTrue True\n1 3\n" {
		t.Errorf("output %q, error %v", r.Output, r.Err)
	}
	for src, says := range map[string]string{
		"random.choices([1, 2], weights=[1])":     "weights must be a list of 2 numbers",
		"random.choices([1, 2], weights=[0, 0])":  "the weights add up to 0",
		"random.choices([1, 2], weights=[-1, 2])": "weights are numbers, at least 0",
		"random.randint(5, 1)":                    "b (1) is below a (5)",
		"random.choice([])":                       "the sequence is empty",
		"xs = [1, 2]":                             "",
	} {
		r := runOne(t, src)
		if says == "" {
			continue
		}
		if r.Err == nil || !strings.Contains(r.Err.Msg, says) {
			t.Errorf("%s: error %v, want it to say %q", src, r.Err, says)
		}
	}
	// A list a cell above made is frozen: shuffle says to copy it.
	res := NewSession().Run(kernel.Request{Cells: []string{"xs = [1, 2, 3]", "random.shuffle(xs)"}}).Last()
	if res.Err == nil || !strings.Contains(res.Err.Msg, "shuffle a copy, xs = list(xs)") {
		t.Errorf("shuffling a frozen list: %v", res.Err)
	}
}

// names() reads the 32,033 names of names.txt; NeedsData finds the cells
// that need it by their identifiers, not their text.
func TestNames(t *testing.T) {
	r := runOne(t, "ns = names()\nprint(len(ns), ns[0], ns[-1])")
	if r.Err != nil || r.Output != "32033 emma zzyzx\n" {
		t.Errorf("output %q, error %v", r.Output, r.Err)
	}
	for srcs, want := range map[string]string{
		"ns = names()":                   "names.txt",
		"f = names\nns = f()":            "names.txt",
		"# names\nprint('names')":        "",
		"x = (names":                     "", // does not parse: cannot run
		"print(1)|||docs = names()[:10]": "names.txt",
	} {
		got := strings.Join(NeedsData(strings.Split(srcs, "|||")...), ",")
		if got != want {
			t.Errorf("NeedsData(%q) = %q, want %q", srcs, got, want)
		}
	}
	if err := SetDataFile("secrets.txt", "x"); err == nil {
		t.Error("SetDataFile takes a file that is no data file")
	}
}

// max over Values is on the graph: the gradient goes to the largest, and a
// traced softmax that subtracts detach(max(…)) replays with new numbers.
func TestMaxOfValues(t *testing.T) {
	r := runOne(t, `a, b = Value(1.0, "a"), Value(3.0, "b")
m = max([a, b, 2.0])
m.backward()
print(m.value, a.grad, b.grad, max(1, 5, 2), max([3, 4]))
def sm0(xs):
    top = detach(max(xs))
    exps = [(x - top).exp() for x in xs]
    return exps[0] / sum(exps)
t = trace(sm0, [Value(0.0), Value(0.0)])
print(t([0.0, 0.0]), round(t([1000.0, 1000.0 + math.log(3)]), 12))`)
	if r.Err != nil || r.Output != "3.0 0.0 1.0 5 4\n0.5 0.25\n" {
		t.Errorf("output %q, error %v", r.Output, r.Err)
	}
	r = runOne(t, `def sm0(xs):
    top = max([x.value for x in xs])
    return xs[0] - top
t = trace(sm0, [Value(0.0), Value(1.0)])`)
	if r.Err == nil || !strings.Contains(r.Err.Msg, "detach(max(xs)) rather than max of the .value of each") {
		t.Errorf("a max of .value under trace: %v", r.Err)
	}
}

// A traced function called with inputs of a new shape records a tape for
// it and keeps it; numbers and nested lists are inputs too.
func TestTraceRetracesForANewShape(t *testing.T) {
	r := runOne(t, `w = Value(2.0, "w")
def f(w, xs):
    return sum([w * x for x in xs])
t = trace(f, w, [1.0, 2.0])
print(t(w, [1.0, 2.0]), w.grad, t.tapes)
print(t(w, [1.0, 2.0, 3.0]), w.grad, t.tapes, t.sizes)
print(t(w, [4.0, 5.0]), w.grad, t.tapes, t.nodes)
g = trace(lambda rows: rows[0][0] * rows[1][1], [[1.0, 2.0], [3.0, 4.0]])
print(g([[2.0, 0.0], [0.0, 5.0]]), g.tapes)`)
	want := "6.0 3.0 1\n12.0 6.0 2 [8, 11]\n18.0 9.0 2 8\n10.0 1\n"
	if r.Err != nil || r.Output != want {
		t.Errorf("output %q, want %q; error %v", r.Output, want, r.Err)
	}
	r = runOne(t, `t = trace(lambda xs: xs[0] * 2, [Value(1.0)])
print(t(["a"]))`)
	if r.Err == nil || !strings.Contains(r.Err.Msg, "want a Value, a number or a list of them, got a string") && !strings.Contains(r.Err.Msg, "got string") {
		t.Errorf("a string input: %v", r.Err)
	}
}

// A traced function may return a list: its replay computes the list
// forward, as an optimizer's update of every parameter at once. .grads
// gives the gradients with respect to plain numbers too.
func TestTraceListsAndGrads(t *testing.T) {
	r := runOne(t, `def update(theta, g, h):
    lr = h[0]
    return [t - lr * gi for t, gi in zip(theta, g)] + [lr * 2]
upd = trace(update, [1.0, 2.0], [0.5, -0.5], [0.1])
print(upd([1.0, 2.0], [0.5, -0.5], [0.1]), upd([0.0, 0.0], [1.0, 1.0], [1.0]))
f = trace(lambda th: th[0] * th[0] + 3 * th[1], [1.0, 1.0])
print(f([2.0, 5.0]), f.grads)
print(trace(lambda x: Value(7.0), Value(1.0))(Value(2.0)))`)
	want := "[0.95, 2.05, 0.2] [-1.0, -1.0, 2.0]\n19.0 [[4.0, 3.0]]\n7.0\n"
	if r.Err != nil || r.Output != want {
		t.Errorf("output %q, want %q; error %v", r.Output, want, r.Err)
	}
	r = runOne(t, "u = trace(lambda xs: [xs[0] * 2], [1.0])\nu([2.0])\nprint(u.grads)")
	if r.Err == nil || !strings.Contains(r.Err.Msg, "a function that returns a list has none") {
		t.Errorf(".grads after a list: %v", r.Err)
	}
}

// A traced function that builds its graph from globals, called with
// numbers for a shape it has not seen, is refused: its new tape would hold
// those globals as constants.
func TestTraceRefusesGlobalsForANewShape(t *testing.T) {
	r := runOne(t, `ws = [Value(1.0), Value(2.0)]
def f(params, xs):
    return sum([w * x for w, x in zip(ws, xs)])
t = trace(f, ws, [1.0, 1.0])
print(t([3.0, 4.0], [1.0, 1.0]))
print(t([3.0, 4.0], [1.0, 1.0, 1.0]))`)
	if r.Err == nil || !strings.Contains(r.Err.Msg, "f does not use its input 1, which it was called with as numbers: a traced function must build its graph from its inputs") {
		t.Errorf("output %q, error %v", r.Output, r.Err)
	}
}
