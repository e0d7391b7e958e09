package fill

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
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

// starter is a notebook as package ipynb writes one, cut short.
const starter = `{"cells": [
 {"cell_type": "markdown", "id": "gradbook-about", "metadata": {}, "source": ["*Exported.*"]},
 {"cell_type": "code", "execution_count": null, "id": "first", "metadata": {}, "outputs": [], "source": ["x = Value(2.0)\n", "check(x.value, 2)"]},
 {"cell_type": "markdown", "id": "q", "metadata": {}, "source": ["**Quiz.** What is 1 + 1?\n", "\n", "- 2\n", "- 3"]},
 {"cell_type": "code", "execution_count": null, "id": "double", "metadata": {}, "outputs": [], "source": ["def double(v):\n", "    return v"]}
 ], "metadata": {"title": "Sample"}, "nbformat": 4, "nbformat_minor": 5}`

// The learner's work replaces the code of the cells it names, in Python,
// adds their answer under the quiz and their scratch cells at the end;
// the rest of the notebook is as it was.
func TestNotebook(t *testing.T) {
	out, err := Notebook([]byte(starter), Work{
		Code:    map[string]string{"double": "def double(v):\n    return v + v", "first": "for c in w.elems(): pass", "nowhere": "x = 1"},
		Answers: map[string]string{"q": " 2,\n  as the\tfirst choice "},
		Cells:   []string{"print(1)", "y = 2\nprint(y)"},
	})
	if err != nil {
		t.Fatal(err)
	}
	var nb struct {
		Cells []struct {
			Type   string   `json:"cell_type"`
			ID     string   `json:"id"`
			Source []string `json:"source"`
			Count  *int     `json:"execution_count"`
			Out    []any    `json:"outputs"`
		} `json:"cells"`
		Metadata      map[string]any `json:"metadata"`
		NBFormat      int            `json:"nbformat"`
		NBFormatMinor int            `json:"nbformat_minor"`
	}
	if err := json.Unmarshal(out, &nb); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	got := map[string]string{}
	var ids []string
	for _, c := range nb.Cells {
		ids = append(ids, c.Type+":"+c.ID)
		got[c.ID] = strings.Join(c.Source, "")
	}
	if want := "markdown:gradbook-about code:first markdown:q code:double code:cell-1 code:cell-2"; strings.Join(ids, " ") != want {
		t.Errorf("cells %s, want %s", strings.Join(ids, " "), want)
	}
	for id, want := range map[string]string{
		"gradbook-about": "*Exported.*",
		"first":          "for c in list(w): pass",
		"q":              "**Quiz.** What is 1 + 1?\n\n- 2\n- 3\n\n*Your answer:* 2, as the first choice",
		"double":         "def double(v):\n    return v + v",
		"cell-1":         "print(1)",
		"cell-2":         "y = 2\nprint(y)",
	} {
		if got[id] != want {
			t.Errorf("cell %s is %q, want %q", id, got[id], want)
		}
	}
	if last := nb.Cells[len(nb.Cells)-1]; last.Count != nil || last.Out == nil || len(last.Out) != 0 {
		t.Errorf("a scratch cell is not a code cell never run: count %v, outputs %v", last.Count, last.Out)
	}
	if nb.NBFormat != 4 || nb.NBFormatMinor != 5 || nb.Metadata["title"] != "Sample" {
		t.Errorf("the notebook's own fields changed: %d.%d %v", nb.NBFormat, nb.NBFormatMinor, nb.Metadata)
	}
}

// Without work, the notebook comes back as it was.
func TestNotebookWithoutWork(t *testing.T) {
	out, err := Notebook([]byte(starter), Work{})
	if err != nil {
		t.Fatal(err)
	}
	var a, b any
	if err := json.Unmarshal([]byte(starter), &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(out, &b); err != nil {
		t.Fatal(err)
	}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if string(ja) != string(jb) {
		t.Errorf("the notebook changed:\n%s\nwant\n%s", jb, ja)
	}
}

// A file that is not a notebook is refused, saying why.
func TestNotANotebook(t *testing.T) {
	for file, says := range map[string]string{
		"<html>404</html>":            "not a Jupyter notebook",
		`{"nbformat": 4}`:             "it has no cells",
		`{"cells": {}}`:               "its cells are not a list",
		`{"cells": [{"id": "a"}, 3]}`: "cell 2 is not an object",
	} {
		_, err := Notebook([]byte(file), Work{Code: map[string]string{"a": "x"}})
		if !errors.Is(err, ErrNotANotebook) || !strings.Contains(err.Error(), says) {
			t.Errorf("%s: error %v, want one that says %q", file, err, says)
		}
	}
}
