// Package draw draws the graphs that cells build: the layout of the nodes
// in columns by depth, the SVG, the reverse pass one step at a time, and
// the paths from a value to the output.
//
// A Drawing has one node per value and one edge per use of a value, so x*x
// gives x two edges. Each edge carries its contribution on the reverse
// pass, the upstream gradient times the local derivative; Steps is the
// reverse pass one node at a time; the overwrite view shows the gradients
// the overwrite bug would give; PathsTo lists every path from a value to
// the output, whose products add up to its gradient.
//
// Value draws the expression behind an engine.Value; Graph draws a
// compiled engine.Tape with the value of every slot. The drawings of the
// lessons' graphs are golden files in testdata:
//
//	go test ./notebook/draw -update
//
// rewrites them after a change that was meant.
package draw
