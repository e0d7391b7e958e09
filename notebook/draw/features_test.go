package draw

import (
	"encoding/xml"
	"math"
	"math/rand/v2"
	"os"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"gradbook/engine"
)

// A single value is trivial: no controls, and the step text says why.
func TestTrivial(t *testing.T) {
	one := Value(engine.NewValue(3, "x"), nil)
	if !one.Trivial() || one.ControlsHTML("c") != "" {
		t.Errorf("a single value: Trivial %v, controls %q", one.Trivial(), one.ControlsHTML("c"))
	}
	if got := one.StepText(0); !strings.Contains(got, "nothing to step") && !strings.Contains(got, "no reverse pass") {
		t.Errorf("StepText(0) = %q", got)
	}
	x := engine.NewValue(2, "x")
	two := Value(x.Tanh(), nil)
	if two.Trivial() || two.ControlsHTML("c") == "" {
		t.Error("tanh(x) is not trivial")
	}
	if got := two.StepText(0); !strings.Contains(got, "visits 1 node,") {
		t.Errorf("StepText(0) = %q, want the singular", got)
	}
	if got := judged(t).StepText(0); !strings.Contains(got, "visits 4 nodes,") {
		t.Errorf("StepText(0) = %q", got)
	}
}

// Every number a drawing shows is formatted by words.Rounded: the SVG,
// the table, the step text and the paths.
func TestNumbersEverywhere(t *testing.T) {
	x := engine.NewValue(0.00018151234, "x")
	w := engine.NewValue(-0.180706641, "w")
	d := Value(x.Mul(w).Tanh(), nil)
	svg, table, step, paths := d.SVG(View{ID: "n"}), d.TableHTML(), d.StepText(2), d.PathsHTML(0)
	for name, s := range map[string]string{"svg": svg, "table": table, "step": step, "paths": paths} {
		if strings.Contains(s, "0.00018151234") || strings.Contains(s, "0.18070664") {
			t.Errorf("%s shows a number with more than five digits: %s", name, s)
		}
	}
	if !strings.Contains(svg, "value 1.8151e-4") || !strings.Contains(table, "-0.18071") || !strings.Contains(step, "-0.18071") {
		t.Errorf("words.Rounded is not used:\n%s\n%s\n%s", svg, table, step)
	}
}

// What the learner named is escaped wherever it is shown.
func TestEscaped(t *testing.T) {
	hostile := `<script>alert("x")</script>&`
	a := engine.NewValue(2, hostile)
	d := Value(a.Mul(engine.NewValue(3, "b\"'")), nil)
	d.Title = hostile
	for name, s := range map[string]string{
		"svg":      d.SVG(View{ID: `"><x`}),
		"table":    d.TableHTML(),
		"controls": d.ControlsHTML(`"><x`),
		"paths":    d.PathsHTML(0),
	} {
		if strings.Contains(s, "<script") || strings.Contains(s, `"><x`) {
			t.Errorf("%s is not escaped: %s", name, s)
		}
		dec := xml.NewDecoder(strings.NewReader("<root>" + s + "</root>"))
		dec.Strict = false
		for {
			if _, err := dec.Token(); err != nil {
				if err.Error() != "EOF" {
					t.Errorf("%s does not parse: %v", name, err)
				}
				break
			}
		}
	}
}

// Compare shows both gradients and marks the first, in the order of the
// reverse pass, that is wrong; a missing one is wrong too.
func TestCompare(t *testing.T) {
	d := judged(t)
	// The learner's backward overwrote p's gradient: 240 instead of 300,
	// and so a and b are wrong too; they gave no c.
	theirs := map[string]float64{"L": 1, "t": 60, "r": 60, "p": 240, "a": 720, "b": 480}
	c := Compare(d, theirs)
	if c.FirstWrong != nodeOf(t, d, "p") {
		t.Fatalf("FirstWrong = %d (%s), want p", c.FirstWrong, c.Nodes[max(c.FirstWrong, 0)].Name)
	}
	if d.Theirs != nil || d.FirstWrong != -1 {
		t.Error("Compare changed the drawing it was given")
	}
	svg := c.SVG(View{ID: "c"})
	if !strings.Contains(svg, `class="node first-wrong" data-name="p"`) || !strings.Contains(svg, "yours 240") || !strings.Contains(svg, "yours: none") {
		t.Errorf("the SVG lacks the comparison: %.300s", svg)
	}
	if !strings.Contains(c.TableHTML(), `<tr data-name="p" class="first-wrong">`) || !strings.Contains(c.TableHTML(), `<td class="theirs wrong">240</td>`) {
		t.Errorf("the table lacks the comparison: %s", c.TableHTML())
	}
	if got := c.CompareText(); !strings.Contains(got, "until p: its gradient is 300, but yours is 240") {
		t.Errorf("CompareText = %q", got)
	}
	all := map[string]float64{}
	for _, n := range d.Nodes {
		all[n.Name] = n.Grad
	}
	if ok := Compare(d, all); ok.FirstWrong != -1 || !strings.Contains(ok.CompareText(), "match") {
		t.Errorf("a right backward: FirstWrong %d, %q", ok.FirstWrong, ok.CompareText())
	}
	if out := Compare(d, map[string]float64{"L": 0}); out.FirstWrong != d.Out || !strings.Contains(out.CompareText(), "is the output") {
		t.Errorf("a wrong output: FirstWrong %d, %q", out.FirstWrong, out.CompareText())
	}
	problems, err := Overlaps(svg)
	if err != nil || len(problems) > 0 {
		t.Errorf("the comparison overlaps: %v %q", err, problems)
	}
}

// mlp is a network of the MLP lesson's shape, 126 values.
func mlp() *Drawing { return network(rand.New(rand.NewPCG(1, 2)), []int{3, 4, 4, 1}, nil) }

// A large drawing folds into neurons; its steps inside a folded group are
// one stop each, said so; paths and focus still find what is folded.
func TestFolded(t *testing.T) {
	d := mlp()
	if !d.Folds() || len(d.Groups()) != 9 {
		t.Fatalf("Folds %v, groups %q: want the 9 neurons", d.Folds(), d.Groups())
	}
	folded, open := View{}, View{Expanded: d.Groups()}
	stops := d.Stops(folded)
	if len(stops) >= len(d.Steps) || stops[len(stops)-1] != len(d.Steps) {
		t.Errorf("Stops folded = %v for %d steps", stops, len(d.Steps))
	}
	if got := d.Stops(open); len(got) != len(d.Steps) {
		t.Errorf("Stops open: %d of %d", len(got), len(d.Steps))
	}
	folded.Step = stops[0]
	if got := d.StepTextIn(folded); !strings.Contains(got, "inside") || !strings.Contains(got, "folded") || !strings.Contains(got, "Open the group") {
		t.Errorf("StepTextIn = %q", got)
	}
	open.Step = 1
	if got := d.StepTextIn(open); !strings.HasPrefix(got, "Step 1 of") {
		t.Errorf("StepTextIn open = %q", got)
	}
	svg := d.SVG(folded)
	if !regexp.MustCompile(`class="node group folded[^"]* active"`).MatchString(svg) || !strings.Contains(svg, "data-focus=") {
		t.Errorf("the folded step is not shown: %.300s", svg)
	}
	if _, _, _, _, ok := d.Focus(folded); !ok {
		t.Error("no focus at a step")
	}
	// A path from a weight inside a folded group still lights the edges it
	// leaves the group by.
	w := -1
	for s, n := range d.Nodes {
		if n.Op == "" && len(n.Group) > 0 && n.Grad != 0 && groupKey(n.Group) != groupKey(d.Nodes[d.Out].Group) {
			w = s
			break
		}
	}
	paths, _ := d.PathsTo(w)
	var es []int
	for _, p := range paths {
		es = append(es, p.Edges...)
	}
	if !strings.Contains(d.SVG(View{Path: es}), "edge on-path") {
		t.Error("a path through folded groups lights no edge")
	}
	if got := d.ControlsHTML("m"); !strings.Contains(got, `class="group-open"`) || !strings.Contains(got, "<optgroup") {
		t.Errorf("the controls of a folded drawing: %s", got)
	}
}

// The groups made without given ones are the neurons: each activation
// with its weighted sum and weights. The inputs, constants that every
// first-layer neuron reads, belong to none.
func TestFallbackGroups(t *testing.T) {
	d := mlp()
	sizes := map[string]int{}
	for _, n := range d.Nodes {
		switch {
		case len(n.Group) == 1:
			sizes[n.Group[0]]++
		case !n.Const:
			t.Errorf("%s has group %q", n.Name, n.Group)
		}
	}
	// A first-layer neuron: a bias, 3 weights, 3 products, 3 sums and
	// tanh; the others read 4 neurons: a bias and 4 of each, and tanh.
	for g, n := range sizes {
		if n != 11 && n != 14 {
			t.Errorf("group %s has %d values", g, n)
		}
	}
	if len(sizes) != 9 {
		t.Errorf("%d groups", len(sizes))
	}
	if judged(t).Folds() {
		t.Error("a small drawing folds")
	}
}

// Given groups nest: a folded layer, then its neurons.
func TestGivenGroups(t *testing.T) {
	d := network(rand.New(rand.NewPCG(3, 4)), []int{2, 8, 8, 1}, func(layer, neuron int) []string {
		return []string{"layer " + strconv.Itoa(layer), "neuron " + strconv.Itoa(neuron)}
	})
	if !d.Folds() {
		t.Fatal("no folding")
	}
	count := func(v View) int { return strings.Count(d.SVG(v), `class="node group folded`) }
	if n := count(View{}); n != 3 {
		t.Errorf("%d folded boxes, want the 3 layers", n)
	}
	if n := count(View{Expanded: []string{"layer 1"}}); n != 2+8 {
		t.Errorf("layer 1 open: %d folded boxes, want 2 layers and 8 neurons", n)
	}
	if n := count(View{Expanded: []string{"layer 2 › neuron 3"}}); n != 2+7 {
		t.Errorf("a neuron of layer 2 open: %d folded boxes, want 2 layers and 7 neurons", n)
	}
}

// The drawing fits its column: it scales down to MinScale, and the page
// can ask which way to draw it.
func TestFitsColumn(t *testing.T) {
	d := mlp()
	w, _ := d.Size(View{})
	if w > 1280 {
		t.Errorf("the MLP folded is %g wide", w)
	}
	svg := d.SVG(View{})
	if !regexp.MustCompile(`viewBox="0 0 \d+ \d+" width="\d+" height="\d+" data-min-width="\d+"`).MatchString(svg) {
		t.Errorf("the SVG does not scale: %.200s", svg)
	}
	if d.LayoutFor(1000, View{}) || !d.LayoutFor(390, View{}) {
		t.Errorf("LayoutFor: 1000 px %v, 390 px %v", d.LayoutFor(1000, View{}), d.LayoutFor(390, View{}))
	}
	if vw, _ := d.Size(View{Vertical: true}); math.Ceil(vw*MinScale) > 390 {
		t.Errorf("top to bottom, the MLP needs %g px", math.Ceil(vw*MinScale))
	}
}

// The layout's font sizes are the stylesheets': no text in a drawing is
// larger than fontSize, and only the classes the checker counts as bold
// are bold.
func TestFontSizesMatchCSS(t *testing.T) {
	size := regexp.MustCompile(`font(?:-size)?:\s*(\d+(?:\.\d+)?)px`)
	weight := regexp.MustCompile(`font-weight:\s*(bold|[6-9]00)`)
	for _, f := range []string{"../../site/style.css", "../../site/embed.css"} {
		css, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, rule := range strings.Split(string(css), "}") {
			sel, body, ok := strings.Cut(rule, "{")
			if !ok || !strings.Contains(sel, "svg.graph") {
				continue
			}
			if m := size.FindStringSubmatch(body); m != nil {
				if px, _ := strconv.ParseFloat(m[1], 64); px > fontSize {
					t.Errorf("%s: %s sets %gpx, larger than the layout's %gpx", f, strings.TrimSpace(sel), px, fontSize)
				}
			}
			if weight.MatchString(body) {
				for _, class := range regexp.MustCompile(`\.([a-z-]+)`).FindAllStringSubmatch(sel, -1) {
					if class[1] != "graph" && class[1] != "gradbook-embed" && !bold(class[1]) && class[1] != "overwrite" && class[1] != "twice" && class[1] != "recursive" {
						t.Errorf("%s: %s is bold, but the layout measures .%s as regular", f, strings.TrimSpace(sel), class[1])
					}
				}
			}
		}
	}
}

// exported copies the exported fields of d into a new Drawing, as the
// message from the runner to the page (jsvalue) does.
func exported(d *Drawing) *Drawing {
	var c Drawing
	src, dst := reflect.ValueOf(d).Elem(), reflect.ValueOf(&c).Elem()
	for i := range src.NumField() {
		if src.Type().Field(i).IsExported() {
			dst.Field(i).Set(src.Field(i))
		}
	}
	return &c
}

// A drawing that crossed from the runner to the page with only its
// exported fields draws as the one made.
func TestExportedFieldsSuffice(t *testing.T) {
	for _, d := range []*Drawing{mlp(), judged(t), Compare(judged(t), map[string]float64{"L": 1})} {
		c := exported(d)
		for _, v := range []View{{ID: "x"}, {ID: "x", Vertical: true, Step: 2}, {ID: "x", Expanded: d.Groups()}} {
			if c.SVG(v) != d.SVG(v) {
				t.Errorf("the copy draws otherwise in %+v", v)
			}
		}
		if c.ControlsHTML("x") != d.ControlsHTML("x") || c.TableHTML() != d.TableHTML() || c.StepText(1) != d.StepText(1) {
			t.Error("the copy's controls, table or step text differ")
		}
	}
}
