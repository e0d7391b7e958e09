//go:build ignore

// gen builds kernels.wasm from src/kernels.c with Debian's clang 14, wasm-ld
// and wabt, and refuses a module that could write into the Go program's
// memory anywhere but where it is told: run it with
//
//	go generate ./wasm/kernels
//
// and commit kernels.wasm with src/kernels.c. test.sh runs it again and fails
// if the committed binary is not what it makes.
//
// The steps: clang compiles src/kernels.c to an object file, wasm-ld links it
// into a module that imports its memory, and wasm2wat prints that module
// as text, every instruction by name, which gen checks: the one import is
// env.memory; no instruction reads or writes a global (the only one is the
// shadow stack's pointer, __stack_pointer, which a local that clang could
// not keep in a WebAssembly local would move, to write into Go's heap), or
// grows memory, or calls through a table; there is no data, no element
// segment and no start function. Then it drops the table and the global
// that wasm-ld always defines and nothing uses, assembles the text again
// with wat2wasm, and checks the result with wasm-validate and with
// kernels.Check, the test the package runs on the committed binary.
package main

import (
	"bytes"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"

	"gradbook/wasm/kernels"
)

// Flags: -O3 for speed, no fused multiply-add (the plain Go loop rounds
// each product and each sum), no library and no built-in calls (the
// module has nothing to call), and loads of f64x2 through memcpy, which
// strict aliasing must not reorder.
var (
	cflags  = []string{"--target=wasm32", "-msimd128", "-O3", "-ffp-contract=off", "-fno-strict-aliasing", "-nostdlib", "-fno-builtin"}
	ldflags = []string{"--no-entry", "--import-memory", "--strip-all", "-z", "stack-size=0"}
)

// forbidden are what the module's text must not hold, and why.
var forbidden = []struct{ re, why string }{
	{`\bglobal\.(get|set)\b`, "uses a global: the shadow stack (__stack_pointer), so it would write into Go's heap; keep every local a scalar or a vector, no arrays, no address taken"},
	{`\bmemory\.(grow|size)\b`, "grows or sizes memory, which is Go's to manage"},
	{`\bcall_indirect\b`, "calls through a table"},
	{`\(data\b`, "has a data segment, which would be written into Go's memory"},
	{`\(elem\b`, "has an element segment"},
	{`\(start\b`, "has a start function"},
}

func main() {
	log.SetFlags(0)
	tmp, err := os.MkdirTemp("", "kernels")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	obj, linked, wat := filepath.Join(tmp, "kernels.o"), filepath.Join(tmp, "linked.wasm"), filepath.Join(tmp, "kernels.wat")
	run("clang", append(cflags, "-c", filepath.Join("src", "kernels.c"), "-o", obj)...)
	run("wasm-ld", append(ldflags, "-o", linked, obj)...)
	text := run("wasm2wat", linked)

	var problems []string
	for _, f := range forbidden {
		if regexp.MustCompile(f.re).MatchString(text) {
			problems = append(problems, "the module "+f.why)
		}
	}
	var kept []string
	for _, line := range strings.Split(text, "\n") {
		t := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(t, "(import "):
			if !regexp.MustCompile(`^\(import "env" "memory" \(memory \(;0;\) \d+\)\)$`).MatchString(t) {
				problems = append(problems, "the module imports something other than its memory: "+t)
			}
		case strings.HasPrefix(t, "(table "), strings.HasPrefix(t, "(global "):
			continue // unused, as the checks above show
		}
		kept = append(kept, line)
	}
	if len(problems) > 0 {
		log.Fatalf("gen: src/kernels.c does not make a module that may share Go's memory:\n  %s", strings.Join(problems, "\n  "))
	}
	if err := os.WriteFile(wat, []byte(strings.Join(kept, "\n")), 0o644); err != nil {
		log.Fatal(err)
	}
	out := filepath.Join(tmp, "kernels.wasm")
	run("wat2wasm", wat, "-o", out)
	run("wasm-validate", out)
	module, err := os.ReadFile(out)
	if err != nil {
		log.Fatal(err)
	}
	if err := kernels.Check(module); err != nil {
		log.Fatalf("gen: %v", err)
	}
	if err := os.WriteFile("kernels.wasm", module, 0o644); err != nil {
		log.Fatal(err)
	}
}

// run runs a tool and returns what it printed, or stops with what went
// wrong, naming the Debian package that has the tool when it is missing.
func run(tool string, args ...string) string {
	cmd := exec.Command(tool, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		pkg := map[string]string{"clang": "clang", "wasm-ld": "lld"}[tool]
		if pkg == "" {
			pkg = "wabt"
		}
		if _, ok := err.(*exec.Error); ok {
			log.Fatalf("gen: %s is missing: apt-get install %s", tool, pkg)
		}
		log.Fatalf("gen: %s %s: %v\n%s", tool, strings.Join(args, " "), err, stderr.String())
	}
	return stdout.String()
}
