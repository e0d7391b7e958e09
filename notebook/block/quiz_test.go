package block

import (
	"strings"
	"testing"

	"gradbook/internal/jsontext"
)

func TestNumericWrongAnswers(t *testing.T) {
	q, err := ParseQuiz("q", "x = 3, y = 4: dL/dw?\n--- given\nw = 1.0\nx = 3.0\ny = 4.0\ng = (w * x - y) * x\n--- answer dL/dw\ng\n--- wrong -6\nThe half was dropped.\n--- wrong 3\nThe sign flipped.\n")
	if err != nil {
		t.Fatal(err)
	}
	n := &Numeric{Expected: q.expected, Wrong: [][]Wrong{q.Answers[0].Wrong}}
	for _, tc := range []struct {
		got   float64
		right bool
		says  string
	}{{-3, true, ""}, {-6, false, "The half was dropped."}, {3, false, "The sign flipped."}, {7, false, ""}} {
		if right, says := n.Judge(0, tc.got); right != tc.right || says != tc.says {
			t.Errorf("Judge(%v) = %v %q, want %v %q", tc.got, right, says, tc.right, tc.says)
		}
	}
	// Without an explanation, the worked answer is the number asked for.
	if !strings.Contains(q.HTML(), `<div class="explain" hidden><h4>The answer</h4><p>dL/dw = -3</p></div>`) {
		t.Errorf("no worked answer in %s", q.HTML())
	}
	// The page's feedback, from the data the page carries.
	page := pageNumeric(t, q)
	for _, tc := range []struct {
		typed string
		right bool
		says  string
	}{
		{"−3", true, "All right."},
		{"-6", false, "Not quite. The half was dropped."},
		{"7", false, "Not quite."},
		{"seven", false, "Not quite. Type a number for dL/dw."},
	} {
		if right, says := page.Feedback([]string{tc.typed}); right != tc.right || says != tc.says {
			t.Errorf("Feedback(%q) = %v %q, want %v %q", tc.typed, right, says, tc.right, tc.says)
		}
	}
	if got := ChoiceFeedback(false, "<p>Each use sends back 1.</p>"); got != "<strong>Not quite.</strong> <p>Each use sends back 1.</p>" {
		t.Errorf("ChoiceFeedback: %q", got)
	}
	if _, err := ParseQuiz("q", "?\n--- given\ng = 1\n--- answer g\ng\n--- wrong 1\nBut that is right.\n"); err == nil || !strings.Contains(err.Error(), "is the right answer") {
		t.Errorf("a wrong value equal to the answer: %v", err)
	}
	if _, err := ParseQuiz("q", "?\n--- wrong 1\nNo answer before it.\n"); err == nil {
		t.Error("a wrong value before any answer was read")
	}
}

// A stated tolerance makes a number right within it of the exact answer,
// however many digits it has, and wins over a typical wrong number near
// it; several answers are judged in sentences that start with capitals
// whatever their labels; and a rounded answer without a tolerance is
// refused, since it marks the exact number wrong.
func TestNumericTolerance(t *testing.T) {
	_, err := ParseQuiz("q", "The first loss?\n--- given\nfirst = math.log(27)\n--- answer the loss ±0.01\nfirst\n--- wrong 3.29\nA near miss that is still right.\n--- wrong 2.45\nThe bigram's.\n")
	if err == nil || !strings.Contains(err.Error(), "the wrong value 3.29 is the right answer") {
		t.Fatalf("a wrong value within the tolerance: %v", err)
	}
	q, err := ParseQuiz("q", "The first loss?\n--- given\nfirst = math.log(27)\n--- answer the loss ±0.01\nfirst\n--- wrong 3.2\nA near miss.\n--- answer ln 2\nmath.log(2)\n")
	if err != nil {
		t.Fatal(err)
	}
	if q.Answers[0].Label != "the loss" || q.Answers[0].Tolerance != 0.01 || q.Answers[1].Tolerance != 0 {
		t.Fatalf("answers %+v", q.Answers)
	}
	page := pageNumeric(t, q)
	for _, tc := range []struct {
		typed []string
		right bool
		says  string
	}{
		{[]string{"3.2958", "0.693147"}, true, "All right. Right: the loss. Right: ln 2."},
		{[]string{"3.3", "0.6931472"}, true, "All right. Right: the loss. Right: ln 2."},
		{[]string{"3.30", "0.69"}, false, "Not quite. Right: the loss. Not right yet: ln 2."},
		{[]string{"3.2", "x"}, false, "Not quite. Not right yet: the loss. A near miss. Type a number for ln 2."},
		{[]string{"3.305", "0.693147"}, true, "All right. Right: the loss. Right: ln 2."},
		{[]string{"3.306", "0.693147"}, false, "Not quite. Not right yet: the loss. Right: ln 2."},
	} {
		if right, says := page.Feedback(tc.typed); right != tc.right || says != tc.says {
			t.Errorf("Feedback(%q) = %v %q, want %v %q", tc.typed, right, says, tc.right, tc.says)
		}
	}
	for body, want := range map[string]string{
		"?\n--- given\nx = 3.14159\n--- answer x\nround(x, 2)\n": "compute the number itself and say how close is right",
		"?\n--- given\nx = 3.14159\n--- answer x ±-1\nx\n":       "a positive number after the label",
		"?\n--- given\nx = 3.14159\n--- answer ±0.1\nx\n":        "a positive number after the label",
		"?\n--- given\nx = 3.14159\n--- answer x ±a bit\nx\n":    "",
	} {
		_, err := ParseQuiz("q", body)
		if want == "" {
			if err != nil {
				t.Errorf("%q: %v", body, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want an error saying %q", body, err, want)
		}
	}
}

// pageNumeric reads a numeric quiz as the page does, from the data its
// HTML carries.
func pageNumeric(t *testing.T, q *Quiz) *Numeric {
	t.Helper()
	data, err := jsontext.DecodeOrdered([]byte(strings.Split(strings.Split(q.HTML(), `class="block-data">`)[1], "</script>")[0]))
	if err != nil {
		t.Fatal(err)
	}
	page, err := NumericOf(data)
	if err != nil {
		t.Fatal(err)
	}
	return page
}

// Sections lists exactly the sections each parser accepts: the format's
// reference is tested against it.
func TestSectionsAreTheParsers(t *testing.T) {
	parse := map[string]func(string) error{
		"quiz":     func(b string) error { _, err := ParseQuiz("q", b); return err },
		"explore":  func(b string) error { _, err := ParseExplore("e", b); return err },
		"exercise": func(b string) error { _, err := ParseExercise("x", b); return err },
	}
	for kind, names := range Sections {
		for _, name := range append(names, "nonsense") {
			err := parse[kind]("Lead.\n--- " + name + " a 1 0 2 1\ntext")
			unknown := err != nil && strings.Contains(err.Error(), "unknown section")
			if unknown != (name == "nonsense") {
				t.Errorf("%s: --- %s: %v", kind, name, err)
			}
		}
	}
}

func TestInline(t *testing.T) {
	for in, want := range map[string]string{
		"plain":                       "plain",
		"*against* the gradient":      "<em>against</em> the gradient",
		"**twice** and `x.grad`":      "<strong>twice</strong> and <code>x.grad</code>",
		"a_b and snake_case_names":    "a_b and snake_case_names",
		"_em_ here":                   "<em>em</em> here",
		"2 * 3 * 4":                   "2 * 3 * 4",
		"<b>not bold</b> & `<i>`":     "&lt;b&gt;not bold&lt;/b&gt; &amp; <code>&lt;i&gt;</code>",
		"**unclosed and *half":        "**unclosed and *half",
		"*<script>alert(1)</script>*": "<em>&lt;script&gt;alert(1)&lt;/script&gt;</em>",
	} {
		if got := Inline(in); got != want {
			t.Errorf("Inline(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestReveal(t *testing.T) {
	for _, tc := range []struct {
		wrong        int
		right        bool
		hint, answer bool
	}{{0, false, false, false}, {1, false, false, false}, {2, false, true, false}, {3, false, true, true}, {1, true, false, true}} {
		if hint, answer := Reveal(tc.wrong, tc.right); hint != tc.hint || answer != tc.answer {
			t.Errorf("Reveal(%d, %v) = %v %v", tc.wrong, tc.right, hint, answer)
		}
	}
}
