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
	data, err := jsontext.DecodeOrdered([]byte(strings.Split(strings.Split(q.HTML(), `class="block-data">`)[1], "</script>")[0]))
	if err != nil {
		t.Fatal(err)
	}
	page, err := NumericOf(data)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		typed string
		right bool
		says  string
	}{
		{"−3", true, "All right. dL/dw: right."},
		{"-6", false, "Not quite. dL/dw: not right yet. The half was dropped."},
		{"7", false, "Not quite. dL/dw: not right yet."},
		{"seven", false, "Not quite. dL/dw: type a number."},
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
