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
