package draw

import (
	"reflect"
	"regexp"
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

// "You do the backward pass" shows no answer before it is earned: at the
// start only the output's gradient, 1, is drawn, every other gradient is
// 0 and every edge's contribution a dot, and the picture's description
// and the table say no more; after a step, what that step sent, and no
// more.
func TestPracticeHidesAnswers(t *testing.T) {
	d := judged(t)
	contribs := regexp.MustCompile(`<text class="contrib"[^>]*>([^<]*)</text>`)
	shown := func(svg string) []string {
		var got []string
		for _, m := range contribs.FindAllStringSubmatch(svg, -1) {
			if m[1] != "·" {
				got = append(got, m[1])
			}
		}
		return got
	}
	start := d.SVG(View{ID: "p", Practice: true})
	if got := shown(start); got != nil {
		t.Errorf("at the start, the edges show contributions %v", got)
	}
	for _, answer := range []string{"grad 300", "grad 60", "grad 900", "grad 600", "grad 360", "gradient 300", "gradient 900"} {
		if strings.Contains(start, answer) {
			t.Errorf("at the start, the drawing shows %q", answer)
		}
	}
	if !strings.Contains(start, "grad 1<") || !strings.Contains(start, "gradient 1;") {
		t.Errorf("at the start, the output's gradient 1 is not shown:\n%s", start)
	}
	if table := d.TableHTMLIn(View{Practice: true}); strings.Contains(table, "<td>300</td>") || strings.Contains(table, "<td>600</td>") || !strings.Contains(table, "so far") {
		t.Errorf("at the start, the table gives the answers away:\n%s", table)
	}
	// After step 1 (at L = t²): t has its 60, sent along one edge.
	one := d.SVG(View{ID: "p", Practice: true, Step: 1})
	if got := shown(one); !reflect.DeepEqual(got, []string{"60"}) {
		t.Errorf("after step 1, the edges show %v, want [60]", got)
	}
	if strings.Contains(one, "grad 300") || !strings.Contains(one, "grad 60") {
		t.Errorf("after step 1, the gradients shown are wrong:\n%s", one)
	}
	// The finished pass, outside practice, shows them all.
	if all := d.SVG(View{ID: "p"}); !strings.Contains(all, "grad 300") || len(shown(all)) == 0 {
		t.Error("the finished pass hides its gradients")
	}
}

// A step names its node so that it cannot be taken for another: two
// products without names are both "mul" in the drawing, and are told
// apart by which is computed first and by their values.
func TestCalledTellsNodesApart(t *testing.T) {
	a, b := engine.NewValue(2, "a"), engine.NewValue(3, "b")
	c, e := engine.NewValue(4, "c"), engine.NewValue(5, "e")
	d := Value(a.Mul(b).Add(c.Mul(e)), nil)
	// Steps: the add, then c·e (computed second), then a·b.
	if got := d.StepText(2); !strings.Contains(got, "at mul (the second, value 20)") {
		t.Errorf("StepText(2) = %q", got)
	}
	if got := d.StepText(3); !strings.Contains(got, "at mul (the first, value 6)") {
		t.Errorf("StepText(3) = %q", got)
	}
	if got := d.StepText(1); !strings.Contains(got, "mul (the first, value 6).grad += ") || !strings.Contains(got, "mul (the second, value 20).grad += ") {
		t.Errorf("StepText(1) = %q: its two inputs are not told apart", got)
	}
	if got := d.Called(nodeOf(t, d, "a")); got != "a" {
		t.Errorf("Called(a) = %q, want its label alone", got)
	}
	if got := judged(t).StepText(1); !strings.Contains(got, "at L (sq)") {
		t.Errorf("a named node: StepText(1) = %q", got)
	}
}
