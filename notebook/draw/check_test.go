package draw

// This file holds the overlap checker: it reads the boxes back out of a
// drawn SVG (every node, every label, every line of text, with its width
// estimated by textWidth) and reports any two that overlap, any text that
// leaves its box and anything the viewBox would clip.

import (
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Box is a rectangle read from a drawn SVG, in its user units.
type Box struct {
	What           string // says what it is, for messages
	Group          string // the group (node or edge) it belongs to
	Text           bool   // a line of text rather than a rectangle
	Frame          bool   // a group's frame, which contains nodes
	X0, Y0, X1, Y1 float64
}

func (b Box) String() string {
	return fmt.Sprintf("%s [%.1f,%.1f %.1f×%.1f]", b.What, b.X0, b.Y0, b.X1-b.X0, b.Y1-b.Y0)
}

func (b Box) overlaps(c Box, slack float64) bool {
	return b.X0 < c.X1-slack && c.X0 < b.X1-slack && b.Y0 < c.Y1-slack && c.Y0 < b.Y1-slack
}

func (b Box) inside(c Box, slack float64) bool {
	return b.X0 >= c.X0-slack && b.Y0 >= c.Y0-slack && b.X1 <= c.X1+slack && b.Y1 <= c.Y1+slack
}

// SVGBoxes reads the viewBox and every box of an SVG that SVG wrote.
// Text is as wide as textWidth says at fontSize, bold where the
// stylesheet makes it bold (.label, .wrong), and as tall as its ascent and
// descent; tspans with dx are placed after the text before them.
func SVGBoxes(svg string) (w, h float64, boxes []Box, err error) {
	dec := xml.NewDecoder(strings.NewReader(svg))
	type frame struct {
		dx, dy float64
		group  string
		name   string // the element's name
		class  string
	}
	stack := []frame{{}}
	attr := func(e xml.StartElement, name string) string {
		for _, a := range e.Attr {
			if a.Name.Local == name {
				return a.Value
			}
		}
		return ""
	}
	num := func(e xml.StartElement, name string) float64 {
		f, _ := strconv.ParseFloat(attr(e, name), 64)
		return f
	}
	// The text being read: its start, its anchor and its runs.
	type run struct {
		s    string
		bold bool
		dx   float64
	}
	var (
		inText       bool
		tx, ty       float64
		anchor, tcls string
		runs         []run
		group        string
		defs, edges  int
		chips        int
	)
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, 0, nil, err
		}
		top := stack[len(stack)-1]
		switch t := tok.(type) {
		case xml.StartElement:
			f := frame{dx: top.dx, dy: top.dy, group: top.group, name: t.Name.Local, class: attr(t, "class")}
			switch t.Name.Local {
			case "svg":
				vb := strings.Fields(attr(t, "viewBox"))
				if len(vb) == 4 {
					w, _ = strconv.ParseFloat(vb[2], 64)
					h, _ = strconv.ParseFloat(vb[3], 64)
				}
			case "defs":
				defs++
			case "g":
				if tr := attr(t, "transform"); strings.HasPrefix(tr, "translate(") {
					xy := strings.FieldsFunc(strings.TrimSuffix(strings.TrimPrefix(tr, "translate("), ")"), func(r rune) bool { return r == ',' || r == ' ' })
					if len(xy) == 2 {
						x, _ := strconv.ParseFloat(xy[0], 64)
						y, _ := strconv.ParseFloat(xy[1], 64)
						f.dx, f.dy = f.dx+x, f.dy+y
					}
				}
				switch {
				case strings.Contains(attr(t, "class"), "chip"):
					chips++ // a constant has a chip at each use
					f.group = fmt.Sprintf("chip %d %s", chips-1, attr(t, "data-name"))
				case attr(t, "data-name") != "":
					f.group = "node " + attr(t, "data-name")
				case attr(t, "data-group") != "":
					f.group = "group " + attr(t, "data-group")
				case attr(t, "data-from") != "":
					edges++ // an edge's key is its place: x*x draws two
					f.group = fmt.Sprintf("edge %d %s→%s", edges-1, attr(t, "data-from"), attr(t, "data-to"))
				}
			case "rect":
				if defs == 0 {
					x, y := f.dx+num(t, "x"), f.dy+num(t, "y")
					cls := attr(t, "class")
					what := "box of " + f.group
					if cls != "" {
						what = cls + " of " + f.group
					}
					boxes = append(boxes, Box{What: what, Group: f.group, Frame: strings.Contains(cls, "frame"),
						X0: x, Y0: y, X1: x + num(t, "width"), Y1: y + num(t, "height")})
				}
			case "text":
				if defs == 0 {
					inText, runs = true, nil
					tx, ty = f.dx+num(t, "x"), f.dy+num(t, "y")
					anchor, tcls, group = attr(t, "text-anchor"), f.class, f.group
				}
			case "tspan":
				runs = append(runs, run{dx: num(t, "dx"), bold: bold(f.class)})
			}
			stack = append(stack, f)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
			switch t.Name.Local {
			case "defs":
				defs--
			case "tspan":
				runs = append(runs, run{bold: bold(tcls)}) // the text after it
			case "text":
				if !inText {
					break
				}
				inText = false
				width, s := 0.0, ""
				for _, r := range runs {
					width += r.dx + textWidth(r.s, fontSize, r.bold)
					s += r.s
				}
				x0 := tx
				switch anchor {
				case "middle":
					x0 -= width / 2
				case "end":
					x0 -= width
				}
				boxes = append(boxes, Box{What: fmt.Sprintf("text %q of %s", s, group), Group: group, Text: true,
					X0: x0, Y0: ty - ascent*fontSize, X1: x0 + width, Y1: ty + descent*fontSize})
			}
		case xml.CharData:
			if inText {
				if len(runs) == 0 {
					runs = append(runs, run{bold: bold(tcls)})
				}
				runs[len(runs)-1].s += string(t)
			}
		}
	}
	return w, h, boxes, nil
}

func bold(class string) bool {
	for _, c := range strings.Fields(class) {
		if c == "label" || c == "wrong" || c == "first-wrong" {
			return true
		}
	}
	return false
}

// Overlaps lists what is wrong with the boxes of an SVG: two rectangles
// that overlap (frames aside, which hold nodes), two lines of text that
// overlap, a line of text over a rectangle other than its own, a line of
// text that leaves the rectangle of its group, and anything outside the
// viewBox.
func Overlaps(svg string) ([]string, error) {
	w, h, boxes, err := SVGBoxes(svg)
	if err != nil {
		return nil, err
	}
	const slack = 0.5 // a rounding's worth
	view := Box{X1: w, Y1: h}
	own := map[string]Box{} // the first rectangle of each group
	for _, b := range boxes {
		if !b.Text && !b.Frame && b.Group != "" {
			if _, ok := own[b.Group]; !ok {
				own[b.Group] = b
			}
		}
	}
	var problems []string
	for i, b := range boxes {
		if !b.inside(view, slack) {
			problems = append(problems, fmt.Sprintf("%s is clipped by the viewBox %gx%g", b, w, h))
		}
		if b.Frame {
			continue
		}
		if r, ok := own[b.Group]; ok && b.Text && !b.inside(r, slack) {
			problems = append(problems, fmt.Sprintf("%s runs out of %s", b, r))
		}
		for _, c := range boxes[:i] {
			if c.Frame || !b.overlaps(c, slack) {
				continue
			}
			if b.Group == c.Group && (b.Text && own[b.Group] == c || c.Text && own[c.Group] == b) {
				continue // text in its own box
			}
			problems = append(problems, fmt.Sprintf("%s overlaps %s", b, c))
		}
	}
	return problems, nil
}
