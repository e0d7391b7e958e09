package htmltext

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

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
	cmd := exec.Command("go", "list", "-deps", "gradbook/wasm/gradbook")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	if strings.Contains("\n"+string(out), "\nhtml\n") {
		t.Error("gradbook.wasm imports package html: use gradbook/internal/htmltext's Escape instead of html.EscapeString")
	}
}
