package draw

import (
	"strings"
	"testing"

	"gradbook/engine"
)

func TestControlsCarryTheirNames(t *testing.T) {
	a, b := engine.NewValue(2, "a"), engine.NewValue(3, "b")
	d := Value(a.Mul(b), nil)
	html := d.ControlsHTML("d")
	for _, c := range []string{ClassStep, ClassStepBack, ClassStepAll, ClassOverwrite, ClassPathsFrom} {
		if !strings.Contains(html, `class="`+c+`"`) {
			t.Errorf("the controls have no element of class %s: %s", c, html)
		}
	}
}

// The recursive backward's view of b = a + a; c = b + b: a gets 8, and b
// says it passed its gradient on twice; the second call without zeroing
// doubles every gradient.
func TestBugViews(t *testing.T) {
	a := engine.NewValue(3, "a")
	b := a.Add(a)
	b.Label = "b"
	c := b.Add(b)
	c.Label = "c"
	d := Value(c, nil)
	rec := d.SVG(View{ID: "r", Bug: engine.RecursiveBug})
	for _, want := range []string{`class="recursive wrong"`, "recursive: 8", "recursive: 2 (sent on 2×)"} {
		if !strings.Contains(rec, want) {
			t.Errorf("the recursive view lacks %q", want)
		}
	}
	twice := d.SVG(View{ID: "t", Bug: engine.TwiceBug})
	if !strings.Contains(twice, `class="twice wrong" x="8" y="63">2nd call: 8</text>`) {
		t.Errorf("the second call's view does not show a's 8 as the twice bug's:\n%s", twice)
	}
	for b, class := range BugClasses {
		if svg := d.SVG(View{ID: "b", Bug: b}); !strings.Contains(svg, `class="`+class+` wrong"`) {
			t.Errorf("the view of bug %d has no line of class %q", b, class+" wrong")
		}
	}
	html := d.ControlsHTML("d")
	for _, c := range []string{ClassTwice, ClassRecursive} {
		if !strings.Contains(html, `class="`+c+`"`) {
			t.Errorf("the controls have no toggle of class %s", c)
		}
	}
	// A chain, where visiting order is right: no recursive toggle.
	x := engine.NewValue(1, "x")
	if html := Value(x.Tanh().Exp(), nil).ControlsHTML("e"); strings.Contains(html, ClassRecursive) {
		t.Error("a chain offers the recursive toggle, which changes nothing in it")
	}
}
