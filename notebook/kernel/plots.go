package kernel

import (
	"fmt"

	"gradbook/notebook/plot"
)

// MaxPlots is how many plots one cell may draw.
const MaxPlots = 20

// Plot puts p under the cell that is running; a quiet run keeps none.
func (r *Run) Plot(p *plot.Plot) error {
	if r.Quiet() {
		return nil
	}
	if len(r.plots[r.current]) >= MaxPlots {
		return fmt.Errorf("a cell may draw at most %d plots", MaxPlots)
	}
	r.plots[r.current] = append(r.plots[r.current], p)
	return nil
}
