package ipynb

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// sample is a lesson's parts: prose, a code cell, a quiz, an exercise.
var sample = Lesson{Slug: "sample", Title: "Sample", Parts: []Part{
	{Prose: "# Sample\n\nSome *prose*."},
	{ID: "first", Kind: "python", Source: "x = Value(2.0, \"x\")\ncheck(x.value, 2)"},
	{ID: "q", Kind: "quiz", Source: "What is 1 + 1?\n--- choice correct\n2\n--- feedback\nYes.\n--- choice\n3\n--- feedback\nNo."},
	{Prose: "## Exercise"},
	{ID: "double", Kind: "exercise", Source: "def double(v):\n    return v\n--- test doubles 3\ncheck(double(3), 6)\n--- solution\ndef double(v):\n    return 2 * v"},
}}

func TestOf(t *testing.T) {
	for _, tc := range []struct {
		name string
		o    Options
		code string // the exercise's code cell
	}{
		{"as the lesson has it", Options{}, "def double(v):\n    return v"},
		{"solved", Options{Solved: true}, "def double(v):\n    return v\n\ndef double(v):\n    return 2 * v"},
	} {
		nb, err := Of(sample, tc.o)
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
		want := "md:gradbook-about code:gradbook-builtins md:prose-0 code:first md:q md:prose-3 code:double-before code:double code:double-tests"
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
		if !strings.Contains(q, "What is 1 + 1?") || !strings.Contains(q, "- 2\n- 3") || strings.Contains(q, "Yes.") {
			t.Errorf("%s: the quiz is %q", tc.name, q)
		}
	}
	if _, err := Of(Lesson{Slug: "odd", Parts: []Part{{ID: "x", Kind: "table", Source: "1"}}}, Options{}); err == nil || !strings.Contains(err.Error(), "odd: cell x: a table block has no notebook form") {
		t.Errorf("an unknown block: %v", err)
	}
}

// The scratch page's notebook is the built-ins alone.
func TestScratch(t *testing.T) {
	nb := Scratch()
	if len(nb.Cells) != 2 || nb.Cells[0].ID != "gradbook-about" || !strings.Contains(nb.Cells[0].Source, "scratch page") || nb.Cells[1].ID != "gradbook-builtins" {
		t.Errorf("the scratch notebook is %+v", nb.Cells)
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
