package library

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"go.starlark.net/starlark"

	"gradbook/internal/words"
	"gradbook/notebook/kernel"
	"gradbook/notebook/plot"
	"gradbook/notebook/torch"
	"gradbook/notebook/values"
	"gradbook/tensor"
)

// The plot built-ins: each adds a plot under the cell.
//
//	plot(losses, title="Loss", ylabel="loss")      # a list, or a dict of them
//	scatter(X, y, title="The data")                # X: [x, y] pairs; y: classes
//	boundary(f, X, y, title="Decision boundary")   # f(x, y): its sign, shaded
//	hist({"layer 1": h1}, bins=50, saturated=0.97) # counts, overlaid per key

// addPlot returns a built-in's answer when it has made a plot, or an
// error that says which built-in could not: the plot goes under the cell.
func addPlot(thread *starlark.Thread, name string) func(p *plot.Plot, err error) (starlark.Value, error) {
	return func(p *plot.Plot, err error) (starlark.Value, error) {
		if err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		return starlark.None, kernel.RunOf(thread).Plot(p)
	}
}

// clipOptions cuts a plot's title and labels, which are drawn, to a
// readable length.
func clipOptions(o *plot.Options) {
	o.Title, o.XLabel, o.YLabel = kernel.Clip(o.Title), kernel.Clip(o.XLabel), kernel.Clip(o.YLabel)
}

// listOf reads x, a list of what the name of, item by item with item.
func listOf[T any](what, of string, x starlark.Value, item func(i int, v starlark.Value) (T, error)) ([]T, error) {
	it, ok := x.(starlark.Indexable)
	if !ok {
		return nil, fmt.Errorf("%s must be a list of %s, got %s", what, of, x.Type())
	}
	out := make([]T, it.Len())
	for i := range out {
		var err error
		if out[i], err = item(i, it.Index(i)); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func numbers(what string, x starlark.Value) ([]float64, error) {
	return listOf(what, "numbers", x, func(i int, v starlark.Value) (float64, error) {
		f, ok := values.AsFloat(v)
		if !ok {
			return 0, fmt.Errorf("%s[%d] is %s, not a number", what, i, v.Type())
		}
		return f, nil
	})
}

// plot(series, title="", xlabel="step", ylabel=""): a line plot of a list
// of numbers against its index, or of each list in a dict, named by its key.
func plotBuiltin(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var series starlark.Value
	o := plot.Options{XLabel: "step"}
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "series", &series, "title?", &o.Title, "xlabel?", &o.XLabel, "ylabel?", &o.YLabel); err != nil {
		return nil, err
	}
	clipOptions(&o)
	name := o.YLabel
	if name == "" {
		name = "y"
	}
	ss, err := seriesOf(series, name, "plot: series", "plot: series ", func(_, what string, v starlark.Value) ([]float64, error) {
		return numbers(what, v)
	})
	if err != nil {
		return nil, err
	}
	return addPlot(thread, b.Name())(plot.Line(ss, o))
}

// seriesOf reads the series of a plot with read: each value of a dict,
// named by its key (clipped), in the dict's order, which errors call
// keyed and the name; or else x alone, named one, which errors call
// alone.
func seriesOf(x starlark.Value, one, alone, keyed string, read func(name, what string, v starlark.Value) ([]float64, error)) ([]plot.Series, error) {
	d, ok := x.(*starlark.Dict)
	if !ok {
		ys, err := read(one, alone, x)
		if err != nil {
			return nil, err
		}
		return []plot.Series{{Name: one, Ys: ys}}, nil
	}
	var ss []plot.Series
	for _, item := range d.Items() {
		name, ok := starlark.AsString(item[0])
		if !ok {
			name = kernel.Short(item[0])
		}
		name = kernel.Clip(name)
		ys, err := read(name, keyed+name, item[1])
		if err != nil {
			return nil, err
		}
		ss = append(ss, plot.Series{Name: name, Ys: ys})
	}
	return ss, nil
}

// pointsOf reads points ([x, y] pairs) and their classes.
func pointsOf(name string, pts, classes starlark.Value) (plot.Points, error) {
	var ps plot.Points
	xys, err := listOf(name+": the points", "[x, y] pairs", pts, func(i int, v starlark.Value) ([]float64, error) {
		xy, err := numbers(fmt.Sprintf("%s: point %d", name, i), v)
		if err != nil || len(xy) != 2 {
			return nil, fmt.Errorf("%s: point %d must be an [x, y] pair of numbers", name, i)
		}
		return xy, nil
	})
	if err != nil {
		return ps, err
	}
	for _, xy := range xys {
		ps.X, ps.Y = append(ps.X, xy[0]), append(ps.Y, xy[1])
	}
	cs, err := numbers(name+": classes", classes)
	if err != nil {
		return ps, err
	}
	ps.Classes = cs
	return ps, nil
}

// scatter(points, classes, title="", xlabel="x", ylabel="y").
func scatterBuiltin(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var pts, classes starlark.Value
	o := plot.Options{XLabel: "x", YLabel: "y"}
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "points", &pts, "classes", &classes, "title?", &o.Title, "xlabel?", &o.XLabel, "ylabel?", &o.YLabel); err != nil {
		return nil, err
	}
	clipOptions(&o)
	ps, err := pointsOf(b.Name(), pts, classes)
	if err != nil {
		return nil, err
	}
	return addPlot(thread, b.Name())(plot.Scatter(ps, o))
}

// boundary(f, points, classes, title="", steps=50, xlabel="x", ylabel="y"):
// f(x, y) evaluated on a steps × steps grid, its sign shaded under the
// points. A traced f replays its tape at each point, without Starlark.
func boundaryBuiltin(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var f starlark.Callable
	var pts, classes starlark.Value
	steps := 50
	o := plot.Options{XLabel: "x", YLabel: "y"}
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "f", &f, "points", &pts, "classes", &classes, "title?", &o.Title, "steps?", &steps, "xlabel?", &o.XLabel, "ylabel?", &o.YLabel); err != nil {
		return nil, err
	}
	clipOptions(&o)
	if steps < 2 || steps > 200 {
		return nil, fmt.Errorf("boundary: steps must be between 2 and 200, got %d", steps)
	}
	ps, err := pointsOf(b.Name(), pts, classes)
	if err != nil {
		return nil, err
	}
	at := func(x, y float64) (float64, error) { return callNumber(thread, b.Name(), f, x, y) }
	if t, ok := f.(*values.Traced); ok {
		if t.ReturnsList() {
			return nil, fmt.Errorf("boundary: %s returns a list; the boundary needs a function that returns one number", t.Name())
		}
		if t.Inputs() != 2 {
			return nil, fmt.Errorf("boundary: %s was traced with %d inputs; trace it with two (x and y), as trace(f, [Value(0.0), Value(0.0)])", t.Name(), t.Inputs())
		}
		at = func(x, y float64) (float64, error) { return t.Replay(x, y) }
	}
	return addPlot(thread, b.Name())(plot.Boundary(ps, at, steps, o))
}

// heatmap(values, rows=None, cols=None, title=""): a grid of numbers
// shaded darker for larger, a list of rows (lists of numbers or Values),
// with labels for the rows and the columns: an attention head's weights,
// each query's row over the keys.
func heatmapBuiltin(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var values starlark.Value
	var rowsV, colsV starlark.Value = starlark.None, starlark.None
	var o plot.Options
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "values", &values, "rows?", &rowsV, "cols?", &colsV, "title?", &o.Title); err != nil {
		return nil, err
	}
	clipOptions(&o)
	grid, err := listOf("heatmap: values", "rows", values, func(i int, v starlark.Value) ([]float64, error) {
		return numbers(fmt.Sprintf("heatmap: row %d", i), v)
	})
	if err != nil {
		return nil, err
	}
	labels := func(what string, x starlark.Value) ([]string, error) {
		if x == starlark.None {
			return nil, nil
		}
		return listOf("heatmap: "+what, "labels", x, func(_ int, v starlark.Value) (string, error) {
			s, ok := starlark.AsString(v)
			if !ok {
				s = kernel.Short(v)
			}
			return kernel.Clip(s), nil
		})
	}
	rows, err := labels("rows", rowsV)
	if err != nil {
		return nil, err
	}
	cols, err := labels("cols", colsV)
	if err != nil {
		return nil, err
	}
	return addPlot(thread, b.Name())(plot.Heatmap(grid, rows, cols, o))
}

// hist(values, bins=50, title="", xlabel="value", saturated=0): a
// histogram of a tensor's numbers (all of them, whatever its shape), or
// of a list of numbers or Values; or of each of those in a dict, one
// series per key in the dict's order, overlaid on shared bins.
// saturated=0.97 makes the summary give each series' share beyond ±0.97.
func histBuiltin(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var series starlark.Value
	bins, saturated := 50, 0.0
	o := plot.Options{XLabel: "value", YLabel: "count"}
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "values", &series, "bins?", &bins, "title?", &o.Title, "xlabel?", &o.XLabel, "saturated?", &saturated); err != nil {
		return nil, err
	}
	clipOptions(&o)
	ss, err := seriesOf(series, "values", "hist: values", "hist: ", func(name, what string, v starlark.Value) ([]float64, error) {
		if t, ok := torch.TensorOf(v); ok {
			return t.Data(), finiteTensor(name, t)
		}
		return numbers(what, v)
	})
	if err != nil {
		return nil, err
	}
	return addPlot(thread, b.Name())(plot.Hist(ss, bins, saturated, o))
}

// finiteTensor returns an error that names the first NaN or infinite
// number of t, the series name's, by its place in t: [3, 4].
func finiteTensor(name string, t *tensor.Tensor) error {
	for i, x := range t.Data() {
		if !math.IsNaN(x) && !math.IsInf(x, 0) {
			continue
		}
		shape := t.Shape()
		at := make([]string, len(shape))
		for k := len(shape) - 1; k >= 0; k-- {
			at[k] = strconv.Itoa(i % shape[k])
			i /= shape[k]
		}
		return fmt.Errorf("hist: series %q holds %s at [%s]: the numbers counted must be finite", name, words.Number(x), strings.Join(at, ", "))
	}
	return nil
}
