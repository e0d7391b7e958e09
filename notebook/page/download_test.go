package page_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// downloaded reads the notebook the learner got as file: each cell's
// source by id, and the ids in order.
func (b *bench) downloaded(file string) (map[string]string, []string) {
	b.t.Helper()
	data, ok := b.browser.downloads[file]
	if !ok {
		b.t.Fatalf("no %s downloaded (the status says %q, notices %q)", file, b.status(), b.notices())
	}
	var nb struct {
		Cells []struct {
			Type   string   `json:"cell_type"`
			ID     string   `json:"id"`
			Source []string `json:"source"`
		} `json:"cells"`
	}
	if err := json.Unmarshal(data, &nb); err != nil {
		b.t.Fatalf("%s is not JSON: %v", file, err)
	}
	cells := map[string]string{}
	var ids []string
	for _, c := range nb.Cells {
		cells[c.ID] = strings.Join(c.Source, "")
		ids = append(ids, c.Type+":"+c.ID)
	}
	return cells, ids
}

// A lesson's notebook has the learner's code as it is now, edited or
// not, and their answers under the quizzes; the lesson's own prose and
// built-ins come with it, and the status says what to do with the file.
func TestDownloadALesson(t *testing.T) {
	b, _ := openTyped(t, blocks, "double", "b = L * 3\nprint(b.value)")
	b.click(`#quiz-choice input[value="1"]`)
	b.typeInto(b.find("#quiz-numeric"), "input.answer-input", "3")
	b.typeInto(b.find("#quiz-open"), "textarea.open-answer", "each path\nadds its share")
	b.click("#download-notebook")
	cells, ids := b.downloaded("test-blocks.ipynb")
	for id, want := range map[string]string{
		"double":  "b = L * 3\nprint(b.value)",
		"worked":  "a = Value(2.0, \"a\")\nL = a * a\nL.backward()\nprint(a.grad)",
		"choice":  "*Your answer:* Two.",
		"numeric": "*Your answer:* 3",
		"open":    "*Your answer:* each path adds its share",
	} {
		if !strings.Contains(cells[id], want) {
			t.Errorf("the notebook's cell %s is %q, want it to hold %q", id, cells[id], want)
		}
	}
	if strings.Contains(cells["guess"], "Your answer") {
		t.Errorf("a quiz not answered has an answer: %q", cells["guess"])
	}
	if len(ids) < 2 || ids[0] != "markdown:gradbook-about" || ids[1] != "code:gradbook-builtins" || !strings.Contains(cells["gradbook-builtins"], "class Value") {
		t.Errorf("the notebook does not start with the built-ins: %q", ids)
	}
	if got := b.status(); got != "Downloaded test-blocks.ipynb: open it in Jupyter or Colab and run its cells from the top." {
		t.Errorf("the status says %q", got)
	}
}

// An exercise's notebook cell holds the learner's code.
func TestDownloadAnExercise(t *testing.T) {
	b := open(t, "lessons/a-exercises.html")
	b.typeCode(b.exercise("back"), "def backward(graph, values, out):\n    return {out: 1.0}")
	b.click("#download-notebook")
	cells, _ := b.downloaded("a-exercises.ipynb")
	if got := cells["back"]; got != "def backward(graph, values, out):\n    return {out: 1.0}" {
		t.Errorf("the exercise's cell is %q", got)
	}
	if !strings.Contains(cells["back-tests"], "_gradbook_checker(\"backward\"") {
		t.Errorf("the exercise's tests are not after it: %q", cells["back-tests"])
	}
}

// The scratch page's notebook has its cells, in order, after the
// built-ins.
func TestDownloadTheScratchPage(t *testing.T) {
	b, _ := openTyped(t, scratchPage, "scratch-1", "x = Value(3.0)")
	b.click("#add-cell")
	b.typeCode(b.cell("scratch-2"), "for c in \"ab\".elems():\n    print(c)")
	b.click("#download-notebook")
	cells, ids := b.downloaded("scratch.ipynb")
	if got := strings.Join(ids, " "); got != "markdown:gradbook-about code:gradbook-builtins code:cell-1 code:cell-2" {
		t.Errorf("the scratch notebook's cells are %s", got)
	}
	if cells["cell-1"] != "x = Value(3.0)" || cells["cell-2"] != "for c in list(\"ab\"):\n    print(c)" {
		t.Errorf("the scratch cells are %q and %q", cells["cell-1"], cells["cell-2"])
	}
}

// When the notebook cannot be fetched (offline before the site was kept),
// the learner is told, and nothing is downloaded.
func TestDownloadFails(t *testing.T) {
	b := open(t, blocks)
	b.browser.fetchErr = errors.New("Failed to fetch")
	b.click("#download-notebook")
	if len(b.browser.downloads) != 0 {
		t.Errorf("something was downloaded: %v", b.browser.downloads)
	}
	if n := b.notices(); len(n) != 1 || !strings.Contains(n[0], "The notebook could not be made (Failed to fetch). Your work is kept in this browser") {
		t.Errorf("the notices are %q", n)
	}
	if b.find("#download-notebook").HasAttr("disabled") {
		t.Error("the button stays disabled")
	}
}
