package block

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"gradbook/internal/htmltext"
	"gradbook/internal/jsontext"
	"gradbook/internal/words"
	"gradbook/notebook/kernel"
	"gradbook/notebook/values"
)

// Quiz is a question with feedback. Its lead is the question; its
// sections make it one of three kinds:
//
//	--- choice [correct]     a multiple-choice answer, then
//	--- feedback             what a learner who picks it reads
//
//	--- given                Starlark that computes the answers, then
//	--- answer <label> [±t]  one expression per number asked for (right
//	                         within t of it, if given), each
//	--- wrong <number>       with what a typical wrong number means, and
//	--- explain              the worked solution, shown once answered
//
//	--- model                an open question's model answer, shown
//	                         after the learner has written their own
//
//	--- hint                 shown after two wrong answers; after three,
//	                         the worked answer (the right choice and its
//	                         feedback, or the explanation, or without one
//	                         the numbers asked for)
//
// Text may use Markdown's inline emphasis, **strong** and `code`.
type Quiz struct {
	ID       string
	Question string
	Choices  []Choice
	Given    string
	Answers  []Answer
	Explain  string
	Model    string
	Hint     string

	expected []float64 // what each answer computes, from Expected
}

// Choice is one answer of a multiple-choice quiz.
type Choice struct {
	Text     string
	Feedback string
	Correct  bool
}

// Answer is one number a numeric quiz asks for, computed by Expr after
// the quiz's given code has run, with feedback for typical wrong numbers.
// Tolerance is how far a typed number may be from it and still be right
// (`--- answer the loss ±0.01`); 0 means the default of Close.
type Answer struct {
	Label     string
	Expr      string
	Tolerance float64
	Wrong     []Wrong
}

// Wrong is a typical wrong answer and what it tells the learner: −6 for
// −3 means the ½ was dropped.
type Wrong struct {
	Value    float64
	Feedback string
}

// ParseQuiz reads a quiz block.
func ParseQuiz(id, body string) (*Quiz, error) {
	lead, sections := splitSections(body)
	q := &Quiz{ID: id, Question: lead}
	if q.Question == "" {
		return nil, errors.New("a quiz needs a question before its first --- line")
	}
	for _, s := range sections {
		switch s.Name {
		case "choice":
			q.Choices = append(q.Choices, Choice{Text: s.Text, Correct: len(s.Args) > 0 && s.Args[0] == "correct"})
		case "feedback":
			if len(q.Choices) == 0 {
				return nil, blockErr(s, "feedback must follow a choice")
			}
			q.Choices[len(q.Choices)-1].Feedback = s.Text
		case "given":
			q.Given = s.Text
		case "answer":
			if len(s.Args) == 0 || s.Text == "" {
				return nil, blockErr(s, "write --- answer <label>, then the expression that computes it")
			}
			a := Answer{Label: strings.Join(s.Args, " "), Expr: s.Text}
			if last := s.Args[len(s.Args)-1]; strings.HasPrefix(last, "±") {
				tol, ok := ParseNumber(strings.TrimPrefix(last, "±"))
				if !ok || tol <= 0 || len(s.Args) == 1 {
					return nil, blockErr(s, "write --- answer <label> ±<tolerance>, a positive number after the label: ±0.01")
				}
				a.Label, a.Tolerance = strings.Join(s.Args[:len(s.Args)-1], " "), tol
			}
			if a.Tolerance == 0 && callsRound(a.Expr) {
				return nil, blockErr(s, "answer %s: a rounded answer marks the exact number wrong; compute the number itself and say how close is right, --- answer %s ±0.01", a.Label, a.Label)
			}
			q.Answers = append(q.Answers, a)
		case "wrong":
			if len(q.Answers) == 0 {
				return nil, blockErr(s, "--- wrong must follow the --- answer it is a wrong value of")
			}
			v, ok := ParseNumber(strings.Join(s.Args, " "))
			if !ok || s.Text == "" {
				return nil, blockErr(s, "write --- wrong <number>, then what that number tells the learner")
			}
			a := &q.Answers[len(q.Answers)-1]
			a.Wrong = append(a.Wrong, Wrong{Value: v, Feedback: strings.Join(strings.Fields(s.Text), " ")})
		case "explain":
			q.Explain = s.Text
		case "model":
			q.Model = s.Text
		case "hint":
			q.Hint = s.Text
		default:
			return nil, unknownSection("quiz", s)
		}
	}
	kinds := 0
	for _, has := range []bool{len(q.Choices) > 0, len(q.Answers) > 0, q.Model != ""} {
		if has {
			kinds++
		}
	}
	if kinds != 1 {
		return nil, errors.New("a quiz has either choices, or answers, or a model answer")
	}
	if len(q.Choices) > 0 {
		correct := 0
		for i, c := range q.Choices {
			if c.Feedback == "" {
				return nil, fmt.Errorf("choice %d has no feedback", i+1)
			}
			if c.Correct {
				correct++
			}
		}
		if correct != 1 {
			return nil, fmt.Errorf("mark exactly one choice correct, not %d", correct)
		}
	}
	if len(q.Answers) > 0 {
		var err error
		if q.expected, err = q.Expected(); err != nil {
			return nil, err
		}
		for i, a := range q.Answers {
			for _, w := range a.Wrong {
				if Within(w.Value, q.expected[i], a.Tolerance) {
					return nil, fmt.Errorf("answer %s: the wrong value %v is the right answer", a.Label, w.Value)
				}
			}
		}
	}
	return q, nil
}

// Kind is "choice", "numeric" or "open".
func (q *Quiz) Kind() string {
	switch {
	case len(q.Choices) > 0:
		return QuizChoice
	case len(q.Answers) > 0:
		return QuizNumeric
	}
	return QuizOpen
}

// Expected runs the quiz's given code and returns the number each answer's
// expression computes.
func (q *Quiz) Expected() ([]float64, error) {
	res := onBehalf(q.Given)
	if e := res.Last().Err; e != nil {
		return nil, fmt.Errorf("given: %s", e.Brief())
	}
	globals := res.Globals
	out := make([]float64, len(q.Answers))
	for i, a := range q.Answers {
		v, err := evalExpr(a.Expr, globals)
		if err != nil {
			return nil, fmt.Errorf("answer %s: %v", a.Label, err)
		}
		f, ok := values.AsFloat(v)
		if !ok {
			return nil, fmt.Errorf("answer %s: %s is a %s, not a number", a.Label, a.Expr, v.Type())
		}
		out[i] = f
	}
	return out, nil
}

// evalExpr evaluates a Starlark expression with env as its globals.
func evalExpr(expr string, env starlark.StringDict) (starlark.Value, error) {
	thread := kernel.NewThread("expr", kernel.CheckBudget, "the answer's expression ran too long (an endless loop?)")
	return starlark.EvalOptions(&syntax.FileOptions{}, thread, "answer", expr, env)
}

// ParseNumber reads a number as a learner types it: "-3", "−3", "0.5",
// "1/2", "1e-3".
func ParseNumber(s string) (float64, bool) {
	s = strings.TrimSpace(strings.ReplaceAll(s, "−", "-"))
	s = strings.ReplaceAll(s, ",", ".")
	if num, den, ok := strings.Cut(s, "/"); ok {
		a, err1 := strconv.ParseFloat(strings.TrimSpace(num), 64)
		b, err2 := strconv.ParseFloat(strings.TrimSpace(den), 64)
		if err1 != nil || err2 != nil || b == 0 {
			return 0, false
		}
		return a / b, true
	}
	f, err := strconv.ParseFloat(s, 64)
	return f, err == nil && !math.IsInf(f, 0) && !math.IsNaN(f)
}

// Close reports whether a typed answer matches the expected number, to
// within 1e-6 (relative above 1).
func Close(got, want float64) bool {
	return math.Abs(got-want) <= 1e-6*math.Max(1, math.Abs(want))
}

// Within reports whether a typed answer is right: within tol of the
// expected number, or Close to it where tol is 0 (none was stated). The
// answer is the exact number, so a learner's is right however many of its
// digits they type, as long as it is within tol.
func Within(got, want, tol float64) bool {
	if tol > 0 {
		return math.Abs(got-want) <= tol*(1+1e-12)
	}
	return Close(got, want)
}

// callsRound reports whether an answer's expression calls round: the
// expected number is then rounded, and only a learner who rounds it the
// same way would be right.
func callsRound(expr string) bool {
	e, err := (&syntax.FileOptions{}).ParseExpr("answer", expr, 0)
	if err != nil {
		return false // Expected says what is wrong with it
	}
	found := false
	syntax.Walk(e, func(n syntax.Node) bool {
		if c, ok := n.(*syntax.CallExpr); ok {
			if id, ok := c.Fn.(*syntax.Ident); ok && id.Name == "round" {
				found = true
			}
		}
		return !found
	})
	return found
}

// HTML renders the quiz: a fieldset with its question, the inputs for its
// kind, a button and an announced place for feedback.
func (q *Quiz) HTML() string {
	id := "quiz-" + q.ID
	var w writer
	w.open("section", "class", classes(ClassCell, KindQuiz), "id", id, AttrCellID, q.ID, AttrKind, KindQuiz, AttrQuiz, q.Kind())
	w.open("fieldset")
	w.el("legend", "Check your understanding")
	w.markup("div", paragraphs(q.Question), "class", "question")
	switch q.Kind() {
	case QuizChoice:
		for i, c := range q.Choices {
			at := fmt.Sprintf("%s-c%d", q.ID, i+1)
			w.open("div", "class", "choice")
			w.open("input", "type", "radio", "name", q.ID, "id", at, "value", strconv.Itoa(i))
			w.markup("label", Inline(c.Text), "for", at)
			w.close("div")
		}
	case QuizNumeric:
		for i, a := range q.Answers {
			at := fmt.Sprintf("%s-a%d", q.ID, i+1)
			w.open("div", "class", "answer-field")
			w.el("label", a.Label, "for", at)
			w.text(" ")
			w.open("input", "type", "text", "inputmode", "decimal", "autocomplete", "off", "id", at, "class", ClassAnswerInput)
			w.close("div")
		}
	case QuizOpen:
		w.el("label", "Your answer", "for", q.ID+"-text")
		w.el("textarea", "", "class", ClassOpenAnswer, "id", q.ID+"-text", "rows", "3")
	}
	w.close("fieldset")
	check := "Check my answer"
	if q.Kind() == QuizOpen {
		check = "Show the model answer"
	}
	w.el("button", check, "type", "button", "class", ClassAnswer, "disabled", bare)
	w.el("div", "", "class", ClassFeedback, "role", "status", "aria-live", "polite")
	if len(q.Choices) > 0 {
		// Each choice's feedback, as the page shows it once that choice
		// is checked: markup of the build's, every text escaped.
		choices := make([]any, len(q.Choices))
		for i, c := range q.Choices {
			choices[i] = jsontext.Object{{Name: "correct", Value: c.Correct}, {Name: "feedback", Value: paragraphs(c.Feedback)}}
		}
		w.WriteString(dataScript(jsontext.Object{{Name: "choices", Value: choices}}))
	}
	if q.expected != nil {
		// The expected numbers, computed once, here: the browser only compares.
		expected := make([]any, len(q.expected))
		for i, x := range q.expected {
			expected[i] = x
		}
		wrong := make([]any, len(q.Answers))
		for i, a := range q.Answers {
			ws := make([]any, len(a.Wrong))
			for k, wr := range a.Wrong {
				ws[k] = jsontext.Object{{Name: "value", Value: wr.Value}, {Name: "feedback", Value: wr.Feedback}}
			}
			wrong[i] = ws
		}
		labels := make([]any, len(q.Answers))
		tolerance := make([]any, len(q.Answers))
		for i, a := range q.Answers {
			labels[i], tolerance[i] = a.Label, a.Tolerance
		}
		w.WriteString(dataScript(jsontext.Object{{Name: "labels", Value: labels}, {Name: "expected", Value: expected}, {Name: "tolerance", Value: tolerance}, {Name: "wrong", Value: wrong}}))
	}
	if q.Hint != "" {
		w.markup("div", "<h4>A hint</h4>"+paragraphs(q.Hint), "class", ClassQuizHint, "hidden", bare)
	}
	switch {
	case q.Explain != "":
		w.markup("div", "<h4>Worked solution</h4>"+paragraphs(q.Explain), "class", ClassExplain, "hidden", bare)
	case len(q.Choices) > 0:
		for _, c := range q.Choices {
			if c.Correct {
				w.markup("div", "<h4>The answer</h4><p>"+Inline(c.Text)+"</p>"+paragraphs(c.Feedback), "class", ClassExplain, "hidden", bare)
			}
		}
	case q.expected != nil:
		// Without an authored explanation, the answer is at least the
		// numbers themselves.
		w.open("div", "class", ClassExplain, "hidden", bare)
		w.el("h4", "The answer")
		for i, a := range q.Answers {
			w.el("p", a.Label+" = "+words.Number(q.expected[i]))
		}
		w.close("div")
	}
	if q.Model != "" {
		w.markup("div", "<h4>A model answer</h4>"+paragraphs(q.Model), "class", ClassModel, "hidden", bare)
	}
	w.close("section")
	return w.String()
}

// paragraphs renders plain text, blank lines between paragraphs, as HTML.
func paragraphs(text string) string {
	var b strings.Builder
	for _, p := range strings.Split(strings.TrimSpace(text), "\n\n") {
		if p = strings.TrimSpace(p); p != "" {
			fmt.Fprintf(&b, "<p>%s</p>", Inline(strings.Join(strings.Fields(p), " ")))
		}
	}
	return b.String()
}

// Inline renders Markdown's inline marks in text as HTML, escaping
// everything else: *emphasis* and _emphasis_, **strong**, and `code`.
// Nothing else of Markdown, and no HTML, gets through.
func Inline(text string) string {
	var b strings.Builder
	for len(text) > 0 {
		switch {
		case text[0] == '`':
			if end := strings.IndexByte(text[1:], '`'); end >= 0 {
				b.WriteString("<code>" + htmltext.Escape(text[1:1+end]) + "</code>")
				text = text[2+end:]
				continue
			}
		case strings.HasPrefix(text, "**"):
			if end := strings.Index(text[2:], "**"); end > 0 {
				b.WriteString("<strong>" + Inline(text[2:2+end]) + "</strong>")
				text = text[4+end:]
				continue
			}
		case text[0] == '*' || text[0] == '_':
			mark := text[:1]
			if end := strings.Index(text[1:], mark); end > 0 && text[1] != ' ' && text[end] != ' ' && (mark == "*" || end+2 >= len(text) || !isWordByte(text[end+2])) {
				b.WriteString("<em>" + Inline(text[1:1+end]) + "</em>")
				text = text[2+end:]
				continue
			}
		}
		next := strings.IndexAny(text[1:], "`*_")
		if next < 0 {
			next = len(text) - 1
		}
		b.WriteString(htmltext.Escape(text[:1+next]))
		text = text[1+next:]
	}
	return b.String()
}

func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// After how many wrong answers a quiz shows its hint, and its worked
// answer.
const (
	HintAfter   = 2
	AnswerAfter = 3
)

// Reveal says what a quiz shows after wrong wrong answers: its hint, and
// its worked answer (also once it is answered right).
func Reveal(wrong int, right bool) (hint, answer bool) {
	return wrong >= HintAfter && !right, right || wrong >= AnswerAfter
}

// Numeric is a numeric quiz as the page has it: the answers' labels, the
// expected numbers, how close to each is right (0: Close) and the typical
// wrong ones, from the quiz's data.
type Numeric struct {
	Labels    []string
	Expected  []float64
	Tolerance []float64
	Wrong     [][]Wrong
}

// NumericOf reads a numeric quiz's data.
func NumericOf(data any) (*Numeric, error) {
	o, _ := data.(jsontext.Object)
	n := &Numeric{}
	found := false
	for _, m := range o {
		list, ok := m.Value.([]any)
		if !ok {
			continue
		}
		switch m.Name {
		case "labels":
			for _, x := range list {
				l, _ := x.(string)
				n.Labels = append(n.Labels, l)
			}
		case "expected":
			found = true
			for _, x := range list {
				f, _ := x.(float64)
				n.Expected = append(n.Expected, f)
			}
		case "tolerance":
			for _, x := range list {
				f, _ := x.(float64)
				n.Tolerance = append(n.Tolerance, f)
			}
		case "wrong":
			for _, ws := range list {
				var row []Wrong
				items, _ := ws.([]any)
				for _, w := range items {
					var x Wrong
					wo, _ := w.(jsontext.Object)
					for _, f := range wo {
						switch v := f.Value.(type) {
						case float64:
							x.Value = v
						case string:
							x.Feedback = v
						}
					}
					row = append(row, x)
				}
				n.Wrong = append(n.Wrong, row)
			}
		}
	}
	if !found {
		return nil, errors.New("the page carries no expected answers")
	}
	return n, nil
}

// Judge says whether got answers question i, and what to tell the
// learner: the feedback for a typical wrong number, if it is one. A
// number within the answer's tolerance is right, even where it is also
// near a typical wrong one.
func (n *Numeric) Judge(i int, got float64) (right bool, feedback string) {
	if i >= len(n.Expected) {
		return false, ""
	}
	tol := 0.0
	if i < len(n.Tolerance) {
		tol = n.Tolerance[i]
	}
	if Within(got, n.Expected[i], tol) {
		return true, ""
	}
	if i < len(n.Wrong) {
		for _, w := range n.Wrong[i] {
			if Close(got, w.Value) {
				return false, w.Feedback
			}
		}
	}
	return false, ""
}

// Feedback judges the answers a learner typed, one per answer in order,
// and says so as HTML, in sentences that each start with a capital
// whatever the labels are: "All right." or "Not quite.", then for one
// answer what a typical wrong number means, and for several a sentence
// per answer, "Right: ∂L/∂w." or "Not right yet: ∂L/∂b." (with what a
// typical wrong number means). right is whether all are right.
func (n *Numeric) Feedback(typed []string) (right bool, text string) {
	right = len(typed) == len(n.Expected)
	var lines []string
	for i, s := range typed {
		label := fmt.Sprintf("answer %d", i+1)
		if i < len(n.Labels) && n.Labels[i] != "" {
			label = htmltext.Escape(n.Labels[i])
		}
		got, ok := ParseNumber(s)
		if !ok {
			right = false
			lines = append(lines, TypeANumber(label))
			continue
		}
		good, why := n.Judge(i, got)
		right = right && good
		if why != "" {
			why = Inline(why)
		}
		switch {
		case len(typed) == 1 && why != "":
			lines = append(lines, why)
		case len(typed) == 1:
		case good:
			lines = append(lines, "Right: "+label+".")
		case why != "":
			lines = append(lines, "Not right yet: "+label+". "+why)
		default:
			lines = append(lines, "Not right yet: "+label+".")
		}
	}
	head := "Not quite."
	if right {
		head = "All right."
	}
	return right, strings.Join(append([]string{head}, lines...), " ")
}

// TypeANumber is what a numeric quiz says to an answer that is not a
// number, named by its label.
func TypeANumber(label string) string {
	return "Type a number for " + label + "."
}

// Choices is a multiple-choice quiz as the page has it: for each choice,
// whether it is right and its feedback, from the quiz's data.
type Choices struct {
	Correct  []bool
	Feedback []string // markup of the build's
}

// ChoicesOf reads a multiple-choice quiz's data.
func ChoicesOf(data any) (*Choices, error) {
	o, _ := data.(jsontext.Object)
	c := &Choices{}
	for _, m := range o {
		list, ok := m.Value.([]any)
		if m.Name != "choices" || !ok {
			continue
		}
		for _, x := range list {
			var right bool
			var fb string
			xo, _ := x.(jsontext.Object)
			for _, f := range xo {
				switch v := f.Value.(type) {
				case bool:
					right = v
				case string:
					fb = v
				}
			}
			c.Correct = append(c.Correct, right)
			c.Feedback = append(c.Feedback, fb)
		}
	}
	if len(c.Correct) == 0 {
		return nil, errors.New("the page carries no choices")
	}
	return c, nil
}

// Judge says whether the choice typed (its value, "0" for the first) is
// right, and what to tell the learner, as markup; ok is false for a
// value that is no choice.
func (c *Choices) Judge(value string) (right bool, feedback string, ok bool) {
	i, err := strconv.Atoi(value)
	if err != nil || i < 0 || i >= len(c.Correct) {
		return false, "", false
	}
	return c.Correct[i], ChoiceFeedback(c.Correct[i], c.Feedback[i]), true
}

// ChoiceFeedback is what a multiple-choice quiz says to the choice
// picked, as HTML: whether it is right, then that choice's feedback
// (HTML, as the quiz's markup has it).
func ChoiceFeedback(right bool, feedback string) string {
	if right {
		return "<strong>Right.</strong> " + feedback
	}
	return "<strong>Not quite.</strong> " + feedback
}
