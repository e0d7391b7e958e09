package ipynb_test

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"gradbook/notebook/ipynb"
	"gradbook/notebook/lesson"
)

// python runs code after gradbook.py in Debian's Python 3, and returns
// what it prints; the test is skipped where there is none (./test.sh
// installs it).
func python(t *testing.T, code string) string {
	t.Helper()
	bin := "/usr/bin/python3"
	if _, err := os.Stat(bin); err != nil {
		t.Skip("no /usr/bin/python3")
	}
	f := filepath.Join(t.TempDir(), "run.py")
	if err := os.WriteFile(f, []byte(ipynb.Module+"\n"+code), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, f).CombinedOutput()
	if err != nil {
		t.Fatalf("python: %v\n%s", err, out)
	}
	return string(out)
}

// TestUniformIsThePages: gradbook.py's uniform draws the numbers the
// page's does, to the last bit, from Go's PCG.
func TestUniformIsThePages(t *testing.T) {
	var want []string
	for _, seed := range []uint64{0, 7, 1 << 40} {
		r := rand.New(rand.NewPCG(seed, 0x756e69666f726d))
		for range 5 {
			want = append(want, strconv.FormatFloat(-1+2*r.Float64(), 'g', 17, 64))
		}
	}
	got := python(t, `for seed in (0, 7, 1 << 40):
    for x in uniform(5, seed=seed):
        print("%.17g" % x)`)
	if strings.Join(strings.Fields(got), " ") != strings.Join(want, " ") {
		t.Errorf("gradbook.py's uniform:\n%s\nGo's:\n%s", got, strings.Join(want, "\n"))
	}
}

// TestValueIsTheEngines: the Value of gradbook.py gives the engine's
// gradients, with the two classic bugs and accumulate as the page has
// them.
func TestValueIsTheEngines(t *testing.T) {
	got := python(t, `
a = Value(2.0, "a"); b = a + a; c = b + b
c.backward(); print(a.grad)
c.backward(recursive=True); print(a.grad)
x = Value(3.0); y = x * x
y.backward(overwrite=True); print(x.grad)
y.backward(); y.backward(accumulate=True); print(x.grad)
w = Value(0.5); L = (w * 3 + 1).tanh().pow(2) / (w.exp() - w.log() + w.sigmoid()) - detach(w) * w.relu()
L.backward(); print("%.12f %.12f" % (L.value, w.grad))
m = max([Value(1.0), Value(4.0), 2.0]); m.backward(); print(m)
print(Value(2.0, "w"))
`)
	want := "4.0\n8.0\n3.0\n12.0\n"
	if !strings.HasPrefix(got, want) {
		t.Errorf("got\n%s\nwant it to start\n%s", got, want)
	}
	// Every op at once: f(w) − detach(w)·relu(w), whose derivative is
	// f′(w) − w (detach passes no gradient back).
	f := func(w float64) float64 {
		return math.Pow(math.Tanh(3*w+1), 2) / (math.Exp(w) - math.Log(w) + 1/(1+math.Exp(-w)))
	}
	const w, h = 0.5, 1e-6
	var L, g float64
	for _, line := range strings.Split(got, "\n") {
		if n, _ := fmt.Sscanf(line, "%g %g", &L, &g); n == 2 {
			break
		}
	}
	if want := f(w) - w*w; math.Abs(L-want) > 1e-12 {
		t.Errorf("L = %v, want %v", L, want)
	}
	if want := (f(w+h)-f(w-h))/(2*h) - w; math.Abs(g-want) > 1e-8 {
		t.Errorf("dL/dw = %v, want %v", g, want)
	}
	if !strings.Contains(got, `Value(data=2, grad=0, label="w")`) || !strings.Contains(got, "Value(data=4, grad=1)") {
		t.Errorf("Values print otherwise than in the page:\n%s", got)
	}
}

// TestTraceIsThePages: gradbook.py's trace records a tape and replays
// it as the page's does: the numbers, the gradients of the inputs and of
// the Values the function reads, .grads, .nodes, and a tape per shape.
// (Its ops are Python's math, the page's Go's: tanh, exp, log may round
// the last bit otherwise, so numbers agree to 1e-12.)
func TestTraceIsThePages(t *testing.T) {
	printsAsThePage(t, `
def out(xs):
    for x in xs:
        print(x)

w, b, c = Value(0.5), Value(-0.3), Value(2.0)
def f(ps, x):
    s = ps[0] * x
    for p in ps[1:]:
        s = s + p * p
    return ((s * c).tanh().pow(2) + max(s, c).relu() - detach(c) * s.exp() / (s.sigmoid() + 1)).pow(2).log()
step = trace(f, [w, b], 1.5)
out([step.nodes, step.tapes])
for x in [1.5, 0.25, -2.0]:
    out([step([w, b], x), w.grad, b.grad, c.grad])
    out(step.grads[0])
    out([step.grads[1]])
w.value = 0.75
out([step([w, b], 1.5), w.grad, b.grad, c.grad, step([0.1, 0.2], 3)])
out([step([w, b, Value(1.0)], 1.5), w.grad, b.grad, step.nodes, step.tapes])
out(step.sizes)
pair = trace(lambda a, k: [a * k, a + k], Value(3.0), 4.0)
out(pair(Value(5.0), 2.0))
`, "", "", 1e-12)
}

// script joins a notebook's code cells into one Python program.
func script(nb *ipynb.Notebook) string {
	var b strings.Builder
	for _, c := range nb.Cells {
		if !c.Markdown {
			b.WriteString(c.Source + "\n\n")
		}
	}
	return b.String()
}

// runScript runs a program in Debian's Python 3 and returns what it
// printed and whether it ended well.
func runScript(t *testing.T, src string) (string, bool) {
	t.Helper()
	if _, err := os.Stat("/usr/bin/python3"); err != nil {
		t.Skip("no /usr/bin/python3")
	}
	f := filepath.Join(t.TempDir(), "nb.py")
	if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("/usr/bin/python3", f).CombinedOutput()
	return string(out), err == nil
}

// TestHiddenTestsInPython: an exercise's hidden tests, in the notebook,
// stop at the starter code with the failing test's name, and pass the
// solution; the backward checker's graphs too (reverse accumulation's
// exercise), and the layer checker's (the neurons lesson's).
func TestHiddenTestsInPython(t *testing.T) {
	l, err := lesson.Parse("sample", []byte(sample))
	if err != nil {
		t.Fatal(err)
	}
	ra, err := lesson.LoadFile("../../site/lessons/reverse-accumulation.md")
	if err != nil {
		t.Fatal(err)
	}
	neurons, err := lesson.LoadFile("../../site/lessons/neurons-and-mlp.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		l            *lesson.Lesson
		starterFails string
		solvedPasses string
	}{
		{l, "✗ doubles 3", "✓ doubles 3"},
		{ra, "✗ the worked example", "✓ a random graph"},
		{neurons, "✗ the classic neuron", "✓ inputs that are Values: their gradients flow too"},
	} {
		for _, solved := range []bool{false, true} {
			nb, err := lesson.NotebookOf(tc.l, ipynb.Options{Solved: solved})
			if err != nil {
				t.Fatal(err)
			}
			out, ok := runScript(t, script(nb))
			switch {
			case !solved && (ok || !strings.Contains(out, tc.starterFails)):
				t.Errorf("%s: the starter code ran (ended well: %v) without %q:\n%s", tc.l.Slug, ok, tc.starterFails, out)
			case solved && (!ok || !strings.Contains(out, tc.solvedPasses)):
				t.Errorf("%s: the solution did not pass (ended well: %v, %q):\n%s", tc.l.Slug, ok, tc.solvedPasses, out)
			}
		}
	}
}

// sample is a small lesson: prose, a code cell, a quiz, an exercise.
const sample = "---\ntitle: Sample\n---\n# Sample\n\nSome *prose*.\n\n```python id=first\nx = Value(2.0, \"x\")\ncheck(x.value, 2)\n```\n\n```quiz id=q\nWhat is 1 + 1?\n--- choice correct\n2\n--- feedback\nYes.\n--- choice\n3\n--- feedback\nNo.\n```\n\n## Exercise\n\n```exercise id=double\ndef double(v):\n    return v\n--- test doubles 3\ncheck(double(3), 6)\n--- solution\ndef double(v):\n    return 2 * v\n```\n"

// TestEveryLesson: every lesson of the site makes a notebook, exercises
// and quizzes included.
func TestEveryLesson(t *testing.T) {
	lessons, err := lesson.LoadDir("../../site/lessons")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range lessons {
		nb, err := lesson.NotebookOf(l, ipynb.Options{Solved: true})
		if err != nil {
			t.Errorf("%s: %v", l.Slug, err)
			continue
		}
		if err := ipynb.Write(new(bytes.Buffer), nb); err != nil {
			t.Errorf("%s: %v", l.Slug, err)
		}
	}
}

// What an exercise defines, changes or draws stays in it, as in the page:
// after its tests the notebook's names are what they were, and the random
// numbers go on from where they stood before it.
func TestExerciseKeepsItsNames(t *testing.T) {
	got := python(t, `Yb = [1, 2, 3]
kept = "the lesson's"
random.seed(3)
first = random.random()
random.seed(3)
_gradbook_exercise()
Yb = [4]
kept = "the exercise's"
mine = 5
def _test_1():
    pass
random.random()
_gradbook_exercise_done()
print(Yb, kept, "mine" in globals(), "_test_1" in globals(), random.random() == first)`)
	if want := "[1, 2, 3] the lesson's False False True\n"; got != want {
		t.Errorf("after an exercise the notebook printed %q, want %q", got, want)
	}
}
