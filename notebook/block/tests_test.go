package block

import (
	"strings"
	"testing"
)

func TestExerciseTests(t *testing.T) {
	body := `def local(op, x):
    return 0.0
--- test relu above 0
check(local("relu", 2.0), 1.0, label="relu's slope at 2")
--- test relu at exactly 0
if local("relu", 0.0) != 0.0:
    fail("At exactly 0, relu's slope is taken as 0, as PyTorch does.")
--- test tanh
check(local("tanh", 0.5), 1 - math.pow(math.tanh(0.5), 2), label="tanh's slope at 0.5")
--- hint
Look at the lesson.
--- solution
def local(op, x):
    if op == "relu":
        return 1.0 if x > 0 else 0.0
    return 1 - math.tanh(x) * math.tanh(x)
`
	x, err := ParseExercise("local", body)
	if err != nil {
		t.Fatal(err)
	}
	if err := x.Verify(); err != nil {
		t.Fatal(err)
	}
	if len(x.Tests) != 3 || x.Tests[1].Name != "relu at exactly 0" {
		t.Fatalf("tests %+v", x.Tests)
	}
	r := x.Judge(x.Starter)
	if r.Passed || !strings.Contains(r.Why, "On relu above 0: relu's slope at 2: got 0, expected 1") {
		t.Errorf("starter: %+v", r)
	}
	// Learner code cannot pass by replacing what the tests check with.
	cheat := x.Starter + "\ndef check(*a, **k):\n    return True\ndef fail(*a):\n    pass\n"
	if r := x.Judge(cheat); r.Passed || r.Why != "Your code defines `check` and `fail`, which are Gradbook's own: the tests call them. Give yours other names." {
		t.Errorf("the starter with check and fail replaced: %+v", r)
	}
	if r := x.Judge(x.Starter + "\nlen = 3\n" + x.Solution); r.Passed || !strings.Contains(r.Why, "`len`, which is Gradbook's own") {
		t.Errorf("a solution that replaces len: %+v", r)
	}
	// Every test runs; a test's fail() message, the most specific, leads
	// as written.
	r = x.Judge("def local(op, x):\n    return 1.0 if x >= 0 else 0.0")
	if r.Passed || !strings.HasPrefix(r.Why, "At exactly 0, relu's slope is taken as 0, as PyTorch does.") || len(r.Lines) != 3 || r.Lines[0] != "✓ relu above 0" || r.Lines[2] != "✗ tanh" {
		t.Errorf("relu(0) = 1: %+v", r)
	}
	if !strings.Contains(r.Why, "2 of 3 tests fail") {
		t.Errorf("the report does not count the failures: %q", r.Why)
	}
	// A check that fails leads only where no test says more.
	r = x.Judge("def local(op, x):\n    return 1.0 if x > 0 else 0.0")
	if r.Passed || !strings.HasPrefix(r.Why, "On tanh: tanh's slope at 0.5") || len(r.Lines) != 3 {
		t.Errorf("tanh wrong: %+v", r)
	}
	// An error inside the learner's function names their line.
	r = x.Judge("def local(op, x):\n    return 1 / 0")
	if r.Passed || !strings.Contains(r.Why, "your code stopped with an error") || !strings.Contains(r.Why, "return 1 / 0") {
		t.Errorf("error in learner's code: %+v", r)
	}
	r = x.Judge(x.Starter + "\n\n" + x.Solution)
	if !r.Passed || len(r.Lines) != 3 {
		t.Errorf("solution: %+v", r)
	}
	if !strings.Contains(x.HTML(), `<template class="test" data-name="relu at exactly 0">if local(&#34;relu&#34;, 0.0)`) {
		t.Errorf("the tests are not in the page as inert templates:\n%s", x.HTML())
	}
}

func TestExerciseRules(t *testing.T) {
	for _, tc := range []struct{ body, want string }{
		{"x = 1\n--- test one\ncheck(x, 1)\n--- solution\nx = 1", "the starter code already passes"},
		{"x = 0\n--- test one\ncheck(x, 1)\n--- solution\nx = 2", "the solution does not pass its own check"},
		{"x = 0\n--- test one\ncheck(x, 1)", "needs a --- solution"},
		{"x = 0\n--- test\ncheck(x, 1)\n--- solution\nx = 1", "line 2: --- test: name the test"},
		{"x = 0\n--- solution\nx = 1", "needs a checker"},
	} {
		x, err := ParseExercise("x", tc.body)
		if err == nil {
			err = x.Verify()
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want %q", tc.body, err, tc.want)
		}
	}
}
