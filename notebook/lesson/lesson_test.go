package lesson

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"gradbook/notebook/block"
	"gradbook/notebook/cellindex"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestRender renders each testdata/*.md and compares the body with
// testdata/*.golden.html (go test -update rewrites them).
func TestRender(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.md")
	for _, f := range files {
		slug := strings.TrimSuffix(filepath.Base(f), ".md")
		t.Run(slug, func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			l, err := Parse(slug, src)
			if err != nil {
				t.Fatal(err)
			}
			golden := strings.TrimSuffix(f, ".md") + ".golden.html"
			if *update {
				if err := os.WriteFile(golden, []byte(l.Body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if l.Body != string(want) {
				t.Errorf("rendered %s differs from %s:\n%s", f, golden, l.Body)
			}
		})
	}
}

func TestParse(t *testing.T) {
	src, _ := os.ReadFile("testdata/sample.md")
	l, err := Parse("sample", src)
	if err != nil {
		t.Fatal(err)
	}
	if l.Title != "A sample lesson" || l.Minutes != 5 || l.Order != 3 || !strings.HasPrefix(l.Summary, "Front matter") {
		t.Errorf("front matter: %+v", l)
	}
	if len(l.Cells) != 2 || l.Cells[0].ID != "first" || l.Cells[1].ID != "sample-2" || l.Cells[1].Number != 2 {
		t.Fatalf("cells: %+v %+v", l.Cells[0], l.Cells[1])
	}
	if l.Cells[1].Source != "y.backward()\ncheck(x.grad, 6)" {
		t.Errorf("source %q", l.Cells[1].Source)
	}
	if !strings.Contains(l.Body, "&lt;b&gt;escaped&lt;/b&gt;") {
		t.Error("a plain code block is not escaped")
	}
}

func TestHostileLessonIsInert(t *testing.T) {
	src, _ := os.ReadFile("testdata/hostile.md")
	l, err := Parse("hostile", src)
	if err != nil {
		t.Fatal(err)
	}
	// A textarea's content is text, escaped by construction: drop it, then
	// look for anything that could run.
	low := strings.ToLower(l.Body)
	for {
		i := strings.Index(low, "<textarea")
		j := strings.Index(low, "</textarea>")
		if i < 0 || j < i {
			break
		}
		low = low[:i] + low[j+len("</textarea>"):]
	}
	low = strings.ReplaceAll(low, `<img src="" alt="image">`, "")
	for _, bad := range []string{"<script", "<img", "<iframe", "onerror", "onclick", `href="javascript`, `src="javascript`, `href="data:`} {
		if strings.Contains(low, bad) {
			t.Errorf("the rendered lesson contains %q:\n%s", bad, l.Body)
		}
	}
}

func TestNoLaTeX(t *testing.T) {
	lessons, err := LoadDir("../../site/lessons")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range lessons {
		for _, tex := range []string{`\frac`, `\partial`, `\sum`, `$$`, `\cdot`} {
			if strings.Contains(l.Body, tex) {
				t.Errorf("lesson %s has raw LaTeX %q: write math in Unicode", l.Slug, tex)
			}
		}
	}
}

func TestBadLessons(t *testing.T) {
	for src, want := range map[string]string{
		"no title here":                                 "no title",
		"---\ntitle: x\n":                               "no closing ---",
		"---\nminutes: soon\n---\n# T":                  "minutes must be a whole number",
		"---\ncolour: red\n---\n# T":                    `unknown key "colour"`,
		"# T\n```python id=a\n```\n```python id=a\n```": `id "a" is used twice`,
		"# T\n```python id=9x\n```":                     `id "9x"`,
	} {
		if _, err := Parse("bad", []byte(src)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q) = %v, want an error with %q", src, err, want)
		}
	}
}

// TestLessonsRun checks every lesson as go run serve.go -check does: every
// cell in order, every exercise's starter (it must fail) and solution (it
// must pass), every quiz's answers and every explore task's reachability.
// Lessons are tested code. The cells run once, for Check and for the
// counts here (Let's build GPT trains for over a minute).
func TestLessonsRun(t *testing.T) {
	lessons, err := LoadDir("../../site/lessons")
	if err != nil {
		t.Fatal(err)
	}
	if len(lessons) == 0 {
		t.Fatal("no lessons found")
	}
	for _, l := range lessons {
		t.Run(l.Slug, func(t *testing.T) {
			errs, results := check(l)
			for _, e := range errs {
				t.Error(e)
			}
			checks, exercises, quizzes := 0, 0, 0
			for _, c := range l.Cells {
				switch c.Kind {
				case "quiz":
					quizzes++
					// Feedback builds up: after two wrong answers a hint.
					if q, err := block.ParseQuiz(c.ID, c.Source); err == nil && q.Kind() != "open" && q.Hint == "" {
						t.Errorf("quiz %s has no --- hint for a learner who answered wrong twice", c.ID)
					}
				case "exercise":
					exercises++
				}
			}
			for _, r := range results {
				checks += len(r.Checks)
				for _, c := range r.Checks {
					// "✓ the step lowered the loss = False" says the
					// opposite of what passed: a label states what holds.
					if c.Label != "" && c.Passed && c.Expected == "False" {
						t.Errorf("the check labelled %q expects False, so it reads %q: compare the other way and expect True", c.Label, c.Text)
					}
				}
			}
			if checks == 0 {
				t.Errorf("lesson %s checks none of its numbers", l.Slug)
			}
			if exercises == 0 {
				t.Errorf("lesson %s has no exercise: every lesson asks the learner to write code", l.Slug)
			}
			t.Logf("%s: %d exercises, %d quizzes, %d checked numbers", l.Slug, exercises, quizzes, checks)
		})
	}
}

// The engine's page is static HTML: it must carry the same CSP as the
// pages the build writes.
func TestEnginePageCSP(t *testing.T) {
	b, err := os.ReadFile("../../site/engine.html")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `content="`+CSP+`"`) {
		t.Errorf("site/engine.html does not carry the CSP %q", CSP)
	}
}

// TestLinkSchemes lists what survives in a lesson's links: exactly the
// documented schemes (http, https, mailto) and relative addresses.
func TestLinkSchemes(t *testing.T) {
	kept := []string{"https://example.org/x", "http://example.org", "mailto:someone@example.org", "reverse-accumulation.html", "#worked", "../index.html", "?frame", "HTTPS://EXAMPLE.ORG"}
	dropped := []string{"javascript:alert(1)", "JaVaScRiPt:x", "data:text/html,x", "tel:+123", "ftp://example.org/f", "intent://x#Intent;end", "blob:https://example.org/uuid", "//evil.example/x", `/\evil.example`, "vbscript:x", "file:///etc/passwd",
		// Character references and escapes that the page decodes.
		"&#47;/evil.example/x", "&#x2F;&#x2f;evil.example", "&sol;/evil.example", "&#109;s-msdt:/id", "&#116;el:+1", "&#98;lob:x", "chrome&#58;//settings", "steam&colon;//run", `\/\/evil.example`, "java&#9;script:x", "&#32;javascript:x"}
	for _, u := range kept {
		if !allowedURL(u) {
			t.Errorf("%q is refused, want it kept", u)
		}
	}
	for _, u := range dropped {
		if allowedURL(u) {
			t.Errorf("%q is kept, want it refused", u)
		}
		l, err := Parse("links", []byte("# Links\n\nA [link]("+u+") and ![image]("+u+") and <"+u+">.\n"))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(l.Body, "href=") || strings.Contains(l.Body, "src=") {
			t.Errorf("%q survives in the page: %s", u, l.Body)
		}
		if !strings.Contains(l.Body, "link") {
			t.Errorf("%q: the link's text is lost: %s", u, l.Body)
		}
	}
	l, _ := Parse("links", []byte("# Links\n\n[kept](https://example.org/x)\n"))
	if !strings.Contains(l.Body, `<a href="https://example.org/x">kept</a>`) {
		t.Errorf("an https link: %s", l.Body)
	}
}

// No two elements of a lesson's page share an id: a heading named like an
// exercise keeps its own.
func TestUniqueIDs(t *testing.T) {
	lessons, err := LoadDir("../../site/lessons")
	if err != nil {
		t.Fatal(err)
	}
	idAttr := regexp.MustCompile(` id="([^"]+)"`)
	for _, l := range lessons {
		seen := map[string]bool{}
		for _, m := range idAttr.FindAllStringSubmatch(l.Body, -1) {
			if seen[m[1]] {
				t.Errorf("%s: id %q is used twice", l.Slug, m[1])
			}
			seen[m[1]] = true
		}
	}
}

// Each exercise's region is named by the heading that introduces it, so
// that two exercises on one page are two landmarks with names of their
// own (not both "Exercise: your code").
func TestExerciseRegionsHaveTheirOwnNames(t *testing.T) {
	lessons, err := LoadDir("../../site/lessons")
	if err != nil {
		t.Fatal(err)
	}
	section := regexp.MustCompile(`<section class="cell exercise" id="([^"]+)"[^>]* aria-labelledby="([^"]+)"`)
	for _, l := range lessons {
		names := map[string]string{}
		for _, m := range section.FindAllStringSubmatch(l.Body, -1) {
			el := regexp.MustCompile(`<(h[1-6]|label)[^>]* id="` + regexp.QuoteMeta(m[2]) + `"[^>]*>(.*?)</(h[1-6]|label)>`).FindStringSubmatch(l.Body)
			if el == nil {
				t.Errorf("%s: %s is labelled by #%s, which is not there", l.Slug, m[1], m[2])
				continue
			}
			name := regexp.MustCompile(`<[^>]+>`).ReplaceAllString(el[2], "")
			if name == "Exercise: your code" {
				t.Errorf("%s: %s is named %q, not by its heading", l.Slug, m[1], name)
			}
			if other, ok := names[name]; ok {
				t.Errorf("%s: %s and %s are both named %q", l.Slug, other, m[1], name)
			}
			names[name] = m[1]
		}
	}
}

// A renamed lesson: its old address leads to it, cells.json knows its old
// name, and a name that is no longer free is refused.
func TestRenamedLesson(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("fan-out.md", "---\ntitle: Fan-out\nrenamed-from: 04-fan-out, fanout\n---\n\n```python id=square\nx = 1\n```\n")
	lessons, problems := Load(dir)
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	out := t.TempDir()
	if err := Build(out, lessons, 0); err != nil {
		t.Fatal(err)
	}
	for _, old := range []string{"04-fan-out", "fanout"} {
		b, err := os.ReadFile(filepath.Join(out, "lessons", old+".html"))
		if err != nil || !strings.Contains(string(b), `<link rel="canonical" href="fan-out.html">`) || !strings.Contains(string(b), `moved.js`) {
			t.Errorf("%s.html: %v\n%s", old, err, b)
		}
	}
	b, _ := os.ReadFile(filepath.Join(out, "cells.json"))
	sc, err := cellindex.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	if src, _, err := sc.Cell("04-fan-out", "square"); err != nil || src != "x = 1" {
		t.Errorf("the cell by the old name: %q %v", src, err)
	}
	page, _ := os.ReadFile(filepath.Join(out, "lessons", "fan-out.html"))
	if !strings.Contains(string(page), `data-renamed-from="04-fan-out fanout"`) {
		t.Errorf("the page does not carry its earlier names")
	}
	// An earlier name that is a lesson's name now, or another's earlier one.
	write("04-fan-out.md", "# Another\n")
	write("other.md", "---\nrenamed-from: fanout\n---\n# Other\n")
	_, problems = Load(dir)
	var msgs []string
	for _, p := range problems {
		msgs = append(msgs, p.Error())
	}
	got := strings.Join(msgs, "\n")
	if !strings.Contains(got, "renamed-from: 04-fan-out is the name of a lesson") || !strings.Contains(got, "renamed-from: fanout was fan-out's name too") {
		t.Errorf("problems:\n%s", got)
	}
}

// Lesson folders that would stall or mislead the build: each is refused
// quickly, with a message naming the file, and the build goes on.
func TestHostileLessonFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		t.Helper()
		f := filepath.Join(dir, name)
		if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return f
	}
	write("good.md", "# Good\n")
	write("emphasis.md", "# E\n\n"+strings.Repeat("*a_", 70000))
	write("brackets.md", "# B\n\n"+strings.Repeat("[a](", 30000))
	var nested strings.Builder
	nested.WriteString("# N\n\n")
	for i := range 100 {
		nested.WriteString(strings.Repeat("  ", i) + "- x\n")
	}
	write("nested.md", nested.String())
	write("huge.md", "# H\n\n"+strings.Repeat("word ", 60000))
	if err := os.Symlink("/etc/hostname", filepath.Join(dir, "linked.md")); err != nil {
		t.Fatal(err)
	}
	mkfifo(t, filepath.Join(dir, "fifo.md"))
	start := time.Now()
	lessons, problems := Load(dir)
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("the folder took %v to load", took)
	}
	if len(lessons) == 0 || lessons[0].Slug != "good" {
		t.Errorf("lessons %v", lessons)
	}
	var msgs []string
	for _, p := range problems {
		msgs = append(msgs, p.Error())
	}
	got := strings.Join(msgs, "\n")
	for _, want := range []string{
		"emphasis.md:1: the lesson has 140,000 emphasis marks",
		"brackets.md:1: the lesson has 30,000 brackets",
		"nested.md:", "nested 33 deep here",
		"huge.md: 300,005 bytes, more than the 262,144 a lesson file may have: skipped",
		"linked.md: a symbolic link, and lessons are read from regular files only: skipped",
		fifoSkipped,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("no problem says %q:\n%s", want, got)
		}
	}
}

// Code run at build time has the limits of a run: a quiz's given code
// that asks for gigabytes is a problem of the lesson, not "0 problems".
func TestBuildTimeCodeIsLimited(t *testing.T) {
	dir := t.TempDir()
	src := "# Q\n\n```quiz id=q\nHow many?\n--- given\nx = [0] * 40000000\n--- answer n\nlen(x)\n```\n"
	if err := os.WriteFile(filepath.Join(dir, "q.md"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	_, problems := CheckDirs(dir)
	if len(problems) == 0 || !strings.Contains(problems[0].Error(), "more than 512 MB") {
		t.Errorf("problems %v", problems)
	}
}
