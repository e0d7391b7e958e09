package notebook_test

import (
	"strings"
	"testing"

	"gradbook/notebook"
	"gradbook/notebook/internal/celltest"
	"gradbook/notebook/kernel"
)

// The cell language as a whole: its two examples, a lesson's cells run
// one by one against all at once, and the caps on what a run sends to the
// page, whatever makes it.

// The two examples every cell must run as typed.
const valueExample = `a = Value(2.0, "a"); b = Value(3.0, "b"); c = Value(1.0, "c")
u = a*b + c
L = u*u
L.backward()
print(a.grad, b.grad, c.grad)`

const listExample = `g = [["p", "mul", ["a", "b"]], ["u", "add", ["p", "c"]], ["L", "sq", ["u"]]]
vals = evaluate(g, {"a": 2.0, "b": 3.0, "c": 1.0})
print(backward(g, vals, "L"))`

func TestExamples(t *testing.T) {
	r := celltest.One(t, valueExample)
	if r.Err != nil || r.Output != "42.0 28.0 14.0\n" {
		t.Errorf("Value example: output %q, error %v", r.Output, r.Err)
	}
	if len(r.Drawings) != 1 || r.Drawings[0].Nodes[r.Drawings[0].Out].Label != "L" {
		t.Errorf("Value example: drawings %+v", r.Drawings)
	}
	r = celltest.One(t, listExample)
	want := `{"a": 42.0, "b": 28.0, "c": 14.0, "p": 14.0, "u": 14.0, "L": 1.0}` + "\n"
	if r.Err != nil || r.Output != want {
		t.Errorf("list example: output %q, error %v", r.Output, r.Err)
	}
}

// Every lesson gives the same results from kept state as from scratch:
// run each lesson's cells one by one, as a learner going down the page
// does (each run starting from the kept state of the cells above), and
// compare with one run of them all without the cache.
func TestLessonCellsOneByOne(t *testing.T) {
	model := []string{"X, y = moons(20, seed=3)\nw = Value(0.5, \"w\")",
		"def loss_of(ps):\n    return sum([((ps[0] * x[0] - yi) * (ps[0] * x[0] - yi)) for x, yi in zip(X, y)])",
		"step = trace(loss_of, [w])\nlosses = []\nfor k in range(5):\n    losses.append(step([w]))\n    w.value -= 0.01 * w.grad\nprint(losses)",
		"print(w.value, w.grad)\nplot(losses)",
	}
	s := notebook.NewSession()
	want := s.Run(kernel.Request{Cells: model, All: true, Fresh: true}).Cells
	for i := range model {
		got := s.Run(kernel.Request{Cells: model[:i+1]}).Last()
		if got.Output != want[i].Output || len(got.Plots) != len(want[i].Plots) {
			t.Errorf("cell %d: %q, want %q", i+1, got.Output, want[i].Output)
		}
	}
	// And again, all from kept state.
	for i := range model {
		if got := s.Run(kernel.Request{Cells: model[:i+1]}).Last(); got.Output != want[i].Output {
			t.Errorf("cell %d again: %q, want %q", i+1, got.Output, want[i].Output)
		}
	}
}

// No message a run sends to the page is larger than the caps: not an
// error's, not a check's, however large the values in them.
func TestMessagesAreCapped(t *testing.T) {
	for name, src := range map[string]string{
		"an error about a huge value": "x = \"a\" * 5000000\nint(x)",
		"a huge fail":                 `fail("b" * 3000000)`,
		"a huge line of code":         "x = 1 + " + strings.Repeat("1 + ", 200000) + "nope",
		"a check of huge strings":     `check("a" * 3000000, "b" * 3000000)`,
		"a check with a huge label":   `check(1, 2, label="L" * 3000000)`,
		"a Value with a huge label":   "v = Value(1.0, \"w\" * 3000000)\nprint(len(v.label))",
		"a million checks":            "for i in range(1000000):\n    check(i, i)",
		"a million failing checks":    "for i in range(1000000):\n    check(i, -1)",
		"a plot with a huge title":    `plot([1, 2], title="t" * 3000000)`,
	} {
		t.Run(name, func(t *testing.T) {
			r := celltest.One(t, src)
			total := len(r.Output)
			if e := r.Err; e != nil {
				total += len(e.Msg) + len(e.Code) + len(e.Hint) + len(e.Where)
				for _, s := range []string{e.Msg, e.Code, e.Hint, e.Where} {
					if len(s) > kernel.MaxMessage+40 {
						t.Errorf("an error's text has %d bytes", len(s))
					}
				}
			}
			for _, c := range r.Checks {
				total += len(c.Text) + len(c.Label)
			}
			if len(r.Checks) > kernel.MaxChecks {
				t.Errorf("%d checks recorded", len(r.Checks))
			}
			for _, p := range r.Plots {
				total += len(p.SVG) + len(p.Title)
			}
			if total > kernel.MaxOutput+kernel.MaxChecks*2*kernel.MaxMessage {
				t.Errorf("the result carries %d bytes", total)
			}
		})
	}
	r := celltest.One(t, "for i in range(2000):\n    check(i, i if i != 1500 else -1)")
	if r.Passed() || r.MoreChecks != 1000 || r.MoreFailed != 1 {
		t.Errorf("a failure past the recorded checks: passed %v, %d more, %d failed", r.Passed(), r.MoreChecks, r.MoreFailed)
	}
}
