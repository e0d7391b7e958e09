package ipynb

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"gradbook/notebook/lesson"
)

func TestPython(t *testing.T) {
	for src, want := range map[string]string{
		`for c in w.elems(): pass`:                     `for c in list(w): pass`,
		`for c in (w + ".").elems(): pass`:             `for c in list((w + ".")): pass`,
		`xs = [c for c in doc.text.elems()]`:           `xs = [c for c in list(doc.text)]`,
		`ys = words[0].elems() + "x.elems()".elems()`:  `ys = list(words[0]) + list("x.elems()")`,
		`print("a.elems()")  # w.elems()`:              `print("a.elems()")  # w.elems()`,
		"h = x @ W\nlogits[:, -1]":                     "h = x @ W\nlogits[:, -1]",
		`s = sorted({c: 1 for c in w.elems()}.keys())`: `s = sorted({c: 1 for c in list(w)}.keys())`,
	} {
		if got := Python(src); got != want {
			t.Errorf("Python(%q) = %q, want %q", src, got, want)
		}
	}
}

const sample = "---\ntitle: Sample\n---\n# Sample\n\nSome *prose*.\n\n```python id=first\nx = Value(2.0, \"x\")\ncheck(x.value, 2)\n```\n\n```quiz id=q\nWhat is 1 + 1?\n--- choice correct\n2\n--- feedback\nYes.\n--- choice\n3\n--- feedback\nNo.\n```\n\n## Exercise\n\n```exercise id=double\ndef double(v):\n    return v\n--- test doubles 3\ncheck(double(3), 6)\n--- solution\ndef double(v):\n    return 2 * v\n```\n"

func TestOf(t *testing.T) {
	l, err := lesson.Parse("sample", []byte(sample))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		work Work
		o    Options
		code string // the exercise's code cell
	}{
		{"as the lesson has it", Work{}, Options{}, "def double(v):\n    return v"},
		{"solved", Work{}, Options{Solved: true}, "def double(v):\n    return v\n\ndef double(v):\n    return 2 * v"},
		{"the learner's work", Work{Code: map[string]string{"double": "def double(v):\n    return v + v", "first": "x = 3"}, Answers: map[string]string{"q": "3"}}, Options{Solved: true}, "def double(v):\n    return v + v"},
	} {
		nb, err := Of(l, tc.work, tc.o)
		if err != nil {
			t.Fatal(err)
		}
		var kinds []string
		byID := map[string]Cell{}
		for _, c := range nb.Cells {
			k := "code"
			if c.Markdown {
				k = "md"
			}
			kinds = append(kinds, k+":"+c.ID)
			byID[c.ID] = c
		}
		want := "md:gradbook-about code:gradbook-builtins md:prose-0 code:first md:q md:prose-3 code:double code:double-tests"
		if got := strings.Join(kinds, " "); got != want {
			t.Errorf("%s: cells %s, want %s", tc.name, got, want)
		}
		if got := byID["double"].Source; got != tc.code {
			t.Errorf("%s: the exercise's code is %q, want %q", tc.name, got, tc.code)
		}
		if !strings.Contains(byID["gradbook-builtins"].Source, Module) {
			t.Errorf("%s: the first code cell does not define the built-ins", tc.name)
		}
		tests := byID["double-tests"].Source
		if !strings.Contains(tests, "def _test_1():\n    check(double(3), 6)\n") || !strings.Contains(tests, `_gradbook_test("doubles 3", _test_1)`) {
			t.Errorf("%s: the tests cell is\n%s", tc.name, tests)
		}
		q := byID["q"].Source
		if !strings.Contains(q, "What is 1 + 1?") || !strings.Contains(q, "- 2\n- 3") {
			t.Errorf("%s: the quiz is %q", tc.name, q)
		}
		if answer := tc.work.Answers["q"]; answer != "" && !strings.Contains(q, "*Your answer:* "+answer) {
			t.Errorf("%s: the quiz does not keep the answer %q: %q", tc.name, answer, q)
		}
		if mine, ok := tc.work.Code["first"]; ok && byID["first"].Source != mine {
			t.Errorf("%s: the code cell is %q, not the learner's %q", tc.name, byID["first"].Source, mine)
		}
	}
}

// TestWrite: the JSON is nbformat 4.5's: every cell has an id, metadata
// and its source as lines; code cells a null execution count and no
// outputs; Markdown cells neither.
func TestWrite(t *testing.T) {
	nb := &Notebook{Title: "T", Cells: []Cell{{ID: "m", Markdown: true, Source: "# T\n\ntext"}, {ID: "c", Source: "x = 1\nprint(x)\n", Hidden: true}}}
	var b bytes.Buffer
	if err := Write(&b, nb); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Cells         []map[string]any `json:"cells"`
		NBFormat      int              `json:"nbformat"`
		NBFormatMinor int              `json:"nbformat_minor"`
		Metadata      map[string]any   `json:"metadata"`
	}
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if got.NBFormat != 4 || got.NBFormatMinor != 5 || got.Metadata["kernelspec"] == nil {
		t.Errorf("nbformat %d.%d, metadata %v", got.NBFormat, got.NBFormatMinor, got.Metadata)
	}
	m, c := got.Cells[0], got.Cells[1]
	if m["cell_type"] != "markdown" || m["id"] != "m" || m["outputs"] != nil || m["execution_count"] != nil {
		t.Errorf("markdown cell %v", m)
	}
	if _, ok := m["execution_count"]; ok {
		t.Errorf("a markdown cell has an execution_count: %v", m)
	}
	if v, ok := c["execution_count"]; !ok || v != nil {
		t.Errorf("a code cell's execution_count is %v (present: %v), want null", v, ok)
	}
	if outs, ok := c["outputs"].([]any); !ok || len(outs) != 0 {
		t.Errorf("a code cell's outputs are %v", c["outputs"])
	}
	if src := c["source"].([]any); len(src) != 2 || src[0] != "x = 1\n" || src[1] != "print(x)\n" {
		t.Errorf("source %q", src)
	}
	if md := c["metadata"].(map[string]any); md["jupyter"] == nil {
		t.Errorf("the built-ins' cell is not folded: %v", md)
	}
}

// TestEveryLesson: every lesson of the site makes a notebook, exercises
// and quizzes included.
func TestEveryLesson(t *testing.T) {
	lessons, err := lesson.LoadDir("../../site/lessons")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range lessons {
		nb, err := Of(l, Work{}, Options{Solved: true})
		if err != nil {
			t.Errorf("%s: %v", l.Slug, err)
			continue
		}
		if err := Write(new(bytes.Buffer), nb); err != nil {
			t.Errorf("%s: %v", l.Slug, err)
		}
	}
}
