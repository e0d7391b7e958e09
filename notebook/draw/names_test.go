package draw_test

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gradbook/notebook/draw"
	"gradbook/notebook/lesson"
)

// mlpPass returns the drawing of the MLP lesson's pass through its small
// network, as Run all draws it.
func mlpPass(t *testing.T) *draw.Drawing {
	t.Helper()
	l, err := lesson.LoadFile("../../site/lessons/neurons-and-mlp.md")
	if err != nil {
		t.Fatal(err)
	}
	res := runCells(l.Code("mlp-pass"))
	if ds := res[len(res)-1].Drawings; len(ds) == 1 {
		return ds[0]
	}
	t.Fatalf("the pass draws %d graphs", len(res[len(res)-1].Drawings))
	return nil
}

// paramNames are the names of a drawing's leaves that are not constants,
// and the Paths menu's choices.
func paramNames(d *draw.Drawing) (leaves, menu []string) {
	for _, n := range d.Nodes {
		if n.Op == "" && !n.Const {
			leaves = append(leaves, n.Name)
		}
	}
	for _, m := range regexp.MustCompile(`<option value="\d+">([^<]*)</option>`).FindAllStringSubmatch(d.ControlsHTML("g"), -1) {
		menu = append(menu, m[1])
	}
	return leaves, menu
}

// The folded MLP names its parameters, never by their numbers: in the
// lesson, by their places (w[1][0][2], b[1][0]); in a network whose
// Values have no labels, by their neuron and role (L1 neuron 2 · w3).
func TestMLPParametersAreNamed(t *testing.T) {
	d := mlpPass(t)
	leaves, menu := paramNames(d)
	if len(leaves) != 41 {
		t.Errorf("%d parameters drawn, want 41: %v", len(leaves), leaves)
	}
	named(t, "the lesson's", leaves, menu, "w[1][0][2]", "b[1][0]", "w[0][3][0]", "b[2][0]")
	res := runCells([]string{`def neuron(nin, seed):
    return [Value(w) for w in uniform(nin + 1, seed=seed)]

def fire(n, x):
    s = n[-1]
    for w, xi in zip(n[:-1], x):
        s = s + w * xi
    return s.tanh()

model = [[neuron(3, 10 + j) for j in range(4)], [neuron(4, 20 + j) for j in range(4)], [neuron(4, 30)]]
x = [2.0, 3.0, -1.0]
for lay in model:
    x = [fire(n, x) for n in lay]
x[0].backward()`})
	d = res[0].Drawings[0]
	leaves, menu = paramNames(d)
	named(t, "unlabelled", leaves, menu, "L1 neuron 2 · w3", "L1 neuron 2 · b", "L2 neuron 4 · w1", "L3 neuron 1 · w4")
}

// named checks that the leaves and the Paths menu have each of want, and
// that none is named by its number.
func named(t *testing.T, which string, leaves, menu []string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !slices.Contains(leaves, w) || !slices.Contains(menu, w) {
			t.Errorf("%s: no parameter %s among the leaves %v or the Paths menu", which, w, leaves)
		}
	}
	for _, name := range append(leaves, menu...) {
		if _, err := strconv.ParseFloat(name, 64); err == nil {
			t.Errorf("%s: a value is named by its number, %s", which, name)
		}
	}
}

// The Paths menu calls each value as the step texts do, never by a
// number the drawing made up to tell two of a kind apart ("mul#17").
func TestPathsMenuNamesOpsAsStepsDo(t *testing.T) {
	d := mlpPass(t)
	_, menu := paramNames(d)
	called := map[string]bool{}
	for s := range d.Nodes {
		called[d.Called(s)] = true
	}
	ops := 0
	for _, m := range menu {
		if regexp.MustCompile(`#\d`).MatchString(m) || m == "mul" || m == "tanh" {
			t.Errorf("the Paths menu lists %q", m)
		}
		if strings.HasPrefix(m, "mul (the ") {
			ops++
			if !called[m] {
				t.Errorf("the Paths menu lists %q, which no step text says", m)
			}
		}
	}
	if ops == 0 {
		t.Errorf("the Paths menu lists no product as the step texts name it: %v", menu)
	}
	if len(slices.Compact(slices.Sorted(slices.Values(menu)))) != len(menu) {
		t.Errorf("two choices of the Paths menu read the same: %v", menu)
	}
}
