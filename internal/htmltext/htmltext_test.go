package htmltext

import (
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// Escape escapes as html.EscapeString does, character for character.
func TestEscapeIsHTMLs(t *testing.T) {
	for _, s := range []string{
		"", "plain", `<b>"x" & 'y'</b>`, "a<b>c", "&amp;", "∂L/∂w < 0", "\u00a0tab\there\n", "<<>>&&''\"\"",
	} {
		if got, want := Escape(s), html.EscapeString(s); got != want {
			t.Errorf("Escape(%q) = %q, want %q", s, got, want)
		}
	}
}

// gradbook.wasm does not link package html, whose table of character
// references would cost its download 70 KB (21 KB gzip): a package of the
// notebook that escapes text uses Escape.
func TestTheNotebookLinksNoHTMLPackage(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	// go test caches a result by the files the test itself opens, not
	// those go list reads: opening the module's Go files here makes a
	// change to any of them run the test again.
	err := filepath.WalkDir("../..", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".") && d.Name() != "..") {
			return filepath.SkipDir
		}
		if strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go") || d.Name() == "go.mod" {
			_, err = os.ReadFile(path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(goTool); err != nil {
		goTool = "go"
	}
	cmd := exec.Command(goTool, "list", "-deps", "gradbook/wasm/gradbook")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	if slices.Contains(strings.Fields(string(out)), "html") {
		t.Error("gradbook.wasm imports package html: use gradbook/internal/htmltext's Escape instead of html.EscapeString")
	}
}
