// Package draw draws the graphs that cells build: the layout, the SVG, the
// reverse pass one step at a time, the paths from a value to the output,
// the learner's own backward pass judged step by step, and a learner's
// gradients compared with the engine's.
//
// # Drawings
//
// A Drawing has one node per value and one edge per use of a value, so x*x
// gives x two edges. Each edge carries its contribution on the reverse
// pass, the upstream gradient times the local derivative; Steps is the
// reverse pass one node at a time; a View with a Bug (an engine.Mode:
// OverwriteBug, TwiceBug, RecursiveBug) shows the gradients that classic
// bug would give beside the right ones; PathsTo lists every path from a value to
// the output, whose products add up to its gradient.
//
// Value draws the expression behind an engine.Value; Graph draws a
// compiled engine.Tape with the value of every slot:
//
//	d := draw.Value(L, names, draw.WithGroups(groupOf), draw.WithConstants(isConstant))
//	svg := d.SVG(draw.View{ID: "cell-3-d1", Step: 2})
//
// A single value (Trivial) has nothing to step through; a caller may leave
// its drawing out. Every number is written by words.Rounded: five
// significant digits, integers as integers, scientific form when small or
// huge.
//
// # Layout
//
// Nodes go in layers by depth, left to right (or top to bottom with
// View.Vertical, the layers as rows, wrapped when too wide for a phone),
// a leaf just before its first use. Each box is as wide as its widest
// text, estimated by textWidth at the stylesheets' 12 px. Within a layer
// the order cuts crossings (barycentre sweeps, then swaps of neighbours);
// an edge that crosses layers passes through a dummy point in each, so it
// runs between boxes, not under them; positions pull each box level with
// what it links to. Each edge label goes where it overlaps no box and no
// other label, preferring a place that hides no other edge; where none is
// free the gap grows. Nothing overlaps and nothing leaves the viewBox:
// the tests check every drawing of every lesson and seeded random graphs
// with an overlap checker that reads the boxes back out of the SVG.
//
// Constants (leaves without a name whose gradient nobody needs) are
// chips on the node that uses them. A drawing of more than FoldAbove
// values folds: each group is one box with its output's value and
// gradient, until View.Expanded opens it; an open group keeps the folded
// picture around it (the other boxes' layers and order). Groups are paths the caller
// gives (WithGroups: a function call, a layer, a neuron)
// or, if none, each activation, value used twice and the output with the
// values only it uses. A step inside a folded group lights the group;
// Stops and StepTextIn take a run of them as one stop.
//
// # The SVG and the page
//
// The SVG has its natural width and height and a viewBox, so that a
// stylesheet may scale it to its column; data-min-width (MinWidth) is the
// narrowest it reads at, and LayoutFor picks the way to draw for a
// column. Nodes are g.node[data-name] with .label, .val, .grad and, in
// the overwrite view, .overwrite.wrong lines; folded groups are
// g.node.group.folded[data-group]; edges are g.edge[data-from][data-to]
// with a text.contrib; chips are g.chip; a comparison adds .theirs lines
// and marks .first-wrong. Everything the learner named is escaped.
// ControlsHTML, StepText, PathsHTML and TableHTML are the HTML around it.
//
// # You do the backward pass
//
// Blanks lists the contributions a learner types at a step; Judge and
// JudgeGrad accept a typed number to four significant digits and name the
// usual slips. Compare draws a learner's gradients beside the engine's and
// marks the first node, in the order of the reverse pass, where they part.
//
// The drawings of the lessons' graphs are golden files in testdata:
//
//	go test ./notebook/draw -update
//
// rewrites them after a change that was meant.
package draw
