package notebook

import (
	"strings"
	"testing"

	"gradbook/notebook/kernel"
)

func TestCheckWithNaN(t *testing.T) {
	r := runOne(t, `check(1, 1, tol=float("nan"))`+"\n"+`check(float("nan"), float("nan"))`+"\n"+`check(1, 2, tol=float("nan"))`)
	if len(r.Checks) != 3 || !r.Checks[0].Passed || !r.Checks[1].Passed || r.Checks[2].Passed {
		t.Errorf("checks %+v", r.Checks)
	}
}

// check compares strings as strings, and lists and dicts of them; a list
// that holds itself is an error, not an endless comparison.
func TestCheckStrings(t *testing.T) {
	r := runOne(t, `check("a", "a")
check(["x"], ["x"])
check({"k": "v"}, {"k": "v"})
check("a", "b")`)
	if r.Err != nil || len(r.Checks) != 4 || !r.Checks[0].Passed || !r.Checks[1].Passed || !r.Checks[2].Passed || r.Checks[3].Passed {
		t.Fatalf("checks %+v, error %v", r.Checks, r.Err)
	}
	if got := r.Checks[3].Text; got != `✗ "a": got "a", expected "b"` {
		t.Errorf("the failed check reads %q", got)
	}
	r = runOne(t, "xs = [1]\nxs.append(xs)\ncheck(xs, xs)")
	if r.Err == nil || !strings.Contains(r.Err.Msg, "nested more than 64 deep") {
		t.Errorf("a list that holds itself: %v", r.Err)
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
			r := runOne(t, src)
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
	r := runOne(t, "for i in range(2000):\n    check(i, i if i != 1500 else -1)")
	if r.Passed() || r.MoreChecks != 1000 || r.MoreFailed != 1 {
		t.Errorf("a failure past the recorded checks: passed %v, %d more, %d failed", r.Passed(), r.MoreChecks, r.MoreFailed)
	}
}
