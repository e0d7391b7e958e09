package block

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gradbook/notebook/draw"
)

const starterHead = `OPS = {
    "add": lambda a, b: a + b, "sub": lambda a, b: a - b, "mul": lambda a, b: a * b,
    "div": lambda a, b: a / b, "sq": lambda a: a * a, "tanh": lambda a: math.tanh(a),
    "relu": lambda a: a if a > 0 else 0.0, "neg": lambda a: -a,
}

def local_grads(op, args):
    if op == "add":
        return (1.0, 1.0)
    if op == "sub":
        return (1.0, -1.0)
    if op == "mul":
        return (args[1], args[0])
    if op == "div":
        return (1.0 / args[1], -args[0] / (args[1] * args[1]))
    if op == "sq":
        return (2.0 * args[0],)
    if op == "tanh":
        t = math.tanh(args[0])
        return (1.0 - t * t,)
    if op == "relu":
        return (1.0 if args[0] > 0 else 0.0,)
    if op == "neg":
        return (-1.0,)
`

func backwardWith(body string) string { return starterHead + "\n" + body }

// solution is the solution of the exercise that "--- check <check>"
// marks in site/lessons/<slug>.md, as the lesson file writes it.
func solution(t *testing.T, slug, check string) string {
	t.Helper()
	md, err := os.ReadFile(filepath.Join("..", "..", "site", "lessons", slug+".md"))
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(md), "\n--- check "+check+"\n")
	if !ok {
		t.Fatalf("%s.md has no exercise checked by %s", slug, check)
	}
	_, body, ok := strings.Cut(after, "\n--- solution\n")
	if !ok {
		t.Fatalf("%s.md's %s exercise has no solution", slug, check)
	}
	body, _, _ = strings.Cut(body, "\n```")
	return body + "\n"
}

// correctBackward is the exercise's solution; overwriteBackward has its
// classic bug, a gradient assigned (=) where it must be added (+=).
func correctBackward(t *testing.T) string { return solution(t, "reverse-accumulation", "backward") }

func overwriteBackward(t *testing.T) string {
	return strings.Replace(correctBackward(t), "+=", "=", 1)
}

func TestCheckBackward(t *testing.T) {
	correct := backwardWith(correctBackward(t))
	if r := CheckBackward(correct); !r.Passed {
		t.Fatalf("a correct backward fails: %s\n%v", r.Why, r.Lines)
	}
	if r := CheckBackward(correct); r.Drawing != nil {
		t.Errorf("a passed check comes with a drawing %q", r.Drawing.Title)
	}
	for name, tc := range map[string]struct{ src, says string }{
		"overwrite": {overwriteBackward(t), "x is used twice and got 1 instead of 2: are you assigning (=) instead of adding (+=)?"},
		"no zero for an unused leaf": {`def backward(graph, values, out):
    grads = {out: 1.0}
    for name, op, ins in reversed(graph):
        local = local_grads(op, [values[i] for i in ins])
        for i, g in zip(ins, local):
            grads[i] = grads.get(i, 0.0) + grads.get(name, 0.0) * g
    return grads`, "unused does not reach p, so its gradient is 0.0, but your dict has no entry for it"},
		"forgot to return": {`def backward(graph, values, out):
    grads = {name: 0.0 for name in values}`, "backward returned None"},
		"not defined": {`x = 1`, "Define a function backward(graph, values, out)"},
		"an error": {`def backward(graph, values, out):
    return values[out] / 0`, "backward stopped with an error"},
	} {
		r := CheckBackward(backwardWith(tc.src))
		if r.Passed || !strings.Contains(r.Why, tc.says) {
			t.Errorf("%s: passed %v, why %q; want it to say %q", name, r.Passed, r.Why, tc.says)
		}
	}
}

// A failed backward whose gradients can be compared comes with the hidden
// graph drawn, the learner's gradients beside the engine's and the first
// node where they part marked; one that returned nothing to compare has
// no drawing.
func TestCheckBackwardDrawsTheHiddenGraph(t *testing.T) {
	overwrite := backwardWith(overwriteBackward(t))
	r := CheckBackward(overwrite)
	if r.Drawing == nil {
		t.Fatalf("no drawing with %q", r.Why)
	}
	d := r.Drawing
	if d.FirstWrong < 0 {
		t.Fatalf("the drawing marks no node: %s", d.CompareText())
	}
	n := d.Nodes[d.FirstWrong]
	if n.Name != "x" || d.Theirs[d.FirstWrong] != 1 || n.Grad != 2 {
		t.Errorf("first wrong node %s: theirs %v, engine %v; want x: 1 beside 2", n.Name, d.Theirs[d.FirstWrong], n.Grad)
	}
	if text := d.CompareText(); !strings.Contains(text, "until x: its gradient is 2, but yours is 1") {
		t.Errorf("the drawing says %q", text)
	}
	if !strings.Contains(d.SVG(draw.View{}), "yours 1") {
		t.Error("the SVG does not show the learner's gradient beside the engine's")
	}
	if r := CheckBackward(backwardWith(`def backward(graph, values, out):
    grads = {name: 0.0 for name in values}`)); r.Drawing != nil {
		t.Errorf("backward returned None, yet the report draws %q", r.Drawing.Title)
	}
}

func TestQuizParsing(t *testing.T) {
	q, err := ParseQuiz("q", `If x is used twice in x + x, what is the derivative?
--- choice
One.
--- feedback
No.
--- choice correct
Two.
--- feedback
Yes.`)
	if err != nil || q.Kind() != "choice" || !q.Choices[1].Correct {
		t.Fatalf("%v %+v", err, q)
	}
	n, err := ParseQuiz("n", `Give dw.
--- given
w, x = Value(1.0), Value(3.0)
L = 0.5 * (w * x - 4).pow(2)
L.backward()
--- answer ∂L/∂w
w.grad
--- answer loss
L.value`)
	if err != nil {
		t.Fatal(err)
	}
	got, err := n.Expected()
	if err != nil || got[0] != -3 || got[1] != 0.5 {
		t.Errorf("expected answers %v %v", got, err)
	}
	for _, in := range []string{"-3", "−3", " -3.0 ", "-6/2"} {
		if x, ok := ParseNumber(in); !ok || !Close(x, -3) {
			t.Errorf("ParseNumber(%q) = %v %v", in, x, ok)
		}
	}
	if _, err := ParseQuiz("bad", "Q?\n--- choice\nA\n--- feedback\nf"); err == nil {
		t.Error("a quiz without a correct choice parses")
	}
}

func TestExploreTasks(t *testing.T) {
	e, err := ParseExplore("e", `L = (w·x + b − y)²
--- graph
[["wx", "mul", ["w", "x"]], ["s", "add", ["wx", "b"]], ["r", "sub", ["s", "y"]], ["L", "sq", ["r"]]]
--- out L
--- leaf w 2 -5 5 0.5
--- leaf x 3 -5 5 0.5
--- leaf b 1 -5 5 0.5
--- leaf y 5 -10 10 0.5
--- task zero near(L, 0)
Make the loss exactly 0.
--- task db near(d["b"], -6)
Make ∂L/∂b exactly −6.`)
	if err != nil {
		t.Fatal(err)
	}
	vals, grads, done, err := e.State(e.Start())
	if err != nil || vals["L"] != 4 || grads["w"] != 12 || grads["x"] != 8 || grads["b"] != 4 || grads["y"] != -4 || done[0] || done[1] {
		t.Fatalf("start: %v %v %v %v", vals, grads, done, err)
	}
	_, _, done, _ = e.State(map[string]float64{"w": 2, "x": 3, "b": 1, "y": 10})
	if done[0] || !done[1] {
		t.Errorf("y=10 should meet the db task only: %v", done)
	}
}

func TestReportText(t *testing.T) {
	pass := Report{Passed: true, Lines: []string{"✓ a", "✓ b"}}
	if got := pass.Text(); got != "All tests pass. Well done!\n✓ a\n✓ b" {
		t.Errorf("passed: %q", got)
	}
	fail := Report{Lines: []string{"✓ a", "✗ b"}, Why: "On b: got 1, expected 2"}
	if got := fail.Text(); got != "✓ a\n✗ b\nOn b: got 1, expected 2" {
		t.Errorf("failed: %q", got)
	}
	if got := (Report{Why: "Your code stops before it can be checked"}).Text(); got != "Your code stops before it can be checked" {
		t.Errorf("stopped: %q", got)
	}
}

// A Check keeps to its time even when the learner's code begins with one
// long matrix product (issue 34, finding 5): it took 57 s and passed.
func TestCheckKeepsToItsTimeInALongProduct(t *testing.T) {
	rep := CheckTests("a = torch.ones(2500, 2500)\nb = a.matmul(a)\ndef f():\n    return 1", []Test{{Name: "f", Code: "check(f(), 1)"}})
	if rep.Passed || !strings.Contains(rep.Why, "stopped after 5 s") && !strings.Contains(rep.Why, "too long to compute") {
		t.Errorf("report %+v", rep)
	}
}
