package draw

import (
	"strings"
	"testing"

	"gradbook/engine"
)

// judged is p = a·b, r = p·c, t = r + p, L = t² at a = 2, b = 3, c = 4:
// p is used twice (60 from t, then 240 from r: 300), and the steps are
// L, t, r, p.
func judged(t *testing.T) *Drawing {
	t.Helper()
	d, err := drawn(t, engine.Graph{
		{Name: "p", Op: "mul", Inputs: []string{"a", "b"}},
		{Name: "r", Op: "mul", Inputs: []string{"p", "c"}},
		{Name: "t", Op: "add", Inputs: []string{"r", "p"}},
		{Name: "L", Op: "sq", Inputs: []string{"t"}},
	}, map[string]float64{"a": 2, "b": 3, "c": 4}, "L")
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// edgeOf finds the edge from → to.
func edgeOf(t *testing.T, d *Drawing, from, to string) int {
	t.Helper()
	for i, e := range d.Edges {
		if d.Nodes[e.From].Name == from && d.Nodes[e.To].Name == to {
			return i
		}
	}
	t.Fatalf("no edge %s → %s", from, to)
	return -1
}

func nodeOf(t *testing.T, d *Drawing, name string) int {
	t.Helper()
	for s, n := range d.Nodes {
		if n.Name == name {
			return s
		}
	}
	t.Fatalf("no node %s", name)
	return -1
}

func TestJudge(t *testing.T) {
	d := judged(t)
	tests := []struct {
		name     string
		step     int
		from, to string
		typed    float64
		right    bool
		why      string // a part of the verdict's reason
	}{
		{"right", 4, "a", "p", 900, true, "Right"},
		{"rounded", 4, "a", "p", 900.3, true, "Right"},
		{"first step", 1, "t", "L", 60, true, "Right"},
		{"forgot the upstream gradient", 4, "a", "p", 3, false, "local derivative ∂p/∂a alone"},
		{"upstream 1: the local derivative is the answer", 2, "r", "t", 60, true, "Right"},
		{"the same input instead of the other", 4, "a", "p", 600, false, "multiplies by a itself"},
		{"the other input, and no upstream", 4, "a", "p", 2, false, "Then multiply by the gradient"},
		{"overwrote instead of added", 4, "a", "p", 720, false, "last contribution it received, 240"},
		{"a sign slip", 4, "a", "p", -900, false, "the sign is not"},
		{"something else", 4, "a", "p", 17, false, "Not yet"},
		{"an edge of another step", 3, "a", "p", 900, false, "not one that step 3 sends"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := d.Judge(tc.step, edgeOf(t, d, tc.from, tc.to), tc.typed)
			if v.Right != tc.right || !strings.Contains(v.Why, tc.why) {
				t.Errorf("Judge(%d, %s→%s, %v) = %+v, want right %v and %q", tc.step, tc.from, tc.to, tc.typed, v, tc.right, tc.why)
			}
		})
	}
}

func TestJudgeGrad(t *testing.T) {
	d := judged(t)
	tests := []struct {
		name  string
		step  int
		node  string
		typed float64
		right bool
		why   string
	}{
		{"the output", 0, "L", 1, true, "is the output"},
		{"nothing yet", 1, "p", 0, true, "nothing has reached p"},
		{"one contribution", 2, "p", 60, true, "one contribution"},
		{"the sum", 3, "p", 300, true, "2 contributions p has received add up to 300"},
		{"overwrote instead of added", 3, "p", 240, false, "only the last contribution to p"},
		{"the overwrite bug at the end", 4, "a", 720, false, "only the last contribution"},
		{"a sign slip", 3, "p", -300, false, "the sign is not"},
		{"too early", 1, "a", 900, false, "Nothing has reached a yet"},
		{"something else", 3, "p", 3, false, "add up every contribution"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := d.JudgeGrad(tc.step, nodeOf(t, d, tc.node), tc.typed)
			if v.Right != tc.right || !strings.Contains(v.Why, tc.why) {
				t.Errorf("JudgeGrad(%d, %s, %v) = %+v, want right %v and %q", tc.step, tc.node, tc.typed, v, tc.right, tc.why)
			}
		})
	}
}

// Blanks asks for every edge of a step but those from constants.
func TestBlanks(t *testing.T) {
	d := judged(t)
	if got := d.Blanks(4); len(got) != 2 || got[0] != edgeOf(t, d, "a", "p") || got[1] != edgeOf(t, d, "b", "p") {
		t.Errorf("Blanks(4) = %v", got)
	}
	x := engine.NewValue(3, "x")
	c := Value(engine.NewValue(2, "").Mul(x), nil)
	if got := c.Blanks(1); len(got) != 1 || c.Nodes[c.Edges[got[0]].From].Name != "x" {
		t.Errorf("Blanks of 2·x = %v: the constant 2 is asked for", got)
	}
	if d.Blanks(0) != nil || d.Blanks(5) != nil {
		t.Error("Blanks outside the pass")
	}
}
