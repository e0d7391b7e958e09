// Command serve builds the Gradbook site and serves it:
//
//	go run serve.go                  # build, then serve on http://127.0.0.1:8080
//	go run serve.go -addr :9000      # another address
//	go run serve.go -build           # build only
//	go run serve.go -out DIR         # build, and write the static site to DIR
//
// Building compiles the engine to site/engine.wasm and the notebook to
// site/notebook.wasm, copies wasm_exec.js from the same Go toolchain (so
// they always match), and renders the lessons in site/lessons/*.md to
// HTML pages with the index and the scratch page.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"mime"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path"
	"path/filepath"
	"strings"
	"time"

	"gradbook/notebook/lesson"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "`host:port` to serve on")
	buildOnly := flag.Bool("build", false, "build the site and exit")
	fixtures := flag.String("fixtures", "", "also build the lessons in `dir` into site/fixtures/, unlisted (for tests)")
	out := flag.String("out", "", "write the complete static site to `dir` and exit")
	flag.Parse()
	log.SetFlags(0)

	if err := build("site", *fixtures); err != nil {
		log.Fatalf("serve: the build failed, so nothing is served:\n%v", err)
	}
	if *out != "" {
		version, err := lesson.Export("site", *out)
		if err != nil {
			log.Fatalf("serve: exporting to %s: %v", *out, err)
		}
		fmt.Printf("Wrote the site to %s (version %s): serve that folder from any static host, under any path.\n", *out, version)
		return
	}
	if *buildOnly {
		return
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatalf("serve: %v", err)
	}
	fmt.Printf("Gradbook is at http://%s/\n", displayAddr(ln.Addr().String()))
	srv := &http.Server{Handler: handler("site"), ReadHeaderTimeout: 10 * time.Second}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		srv.Shutdown(shutdown)
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		log.Fatalf("serve: %v", err)
	}
}

// displayAddr turns a listener address into one a browser can open.
func displayAddr(a string) string {
	host, port, err := net.SplitHostPort(a)
	if err != nil || (host != "::" && host != "0.0.0.0" && host != "") {
		return a
	}
	return net.JoinHostPort("127.0.0.1", port)
}

// build compiles the two wasm programs into dir, copies the toolchain's
// wasm_exec.js, and renders the pages.
func build(dir, fixtures string) error {
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return fmt.Errorf("go env GOROOT: %v", err)
	}
	wasms := map[string]string{"engine.wasm": "./wasm", "notebook.wasm": "./cmd/notebook"}
	// The notebook inlines only where the time goes: the runtime, math,
	// Starlark, the engine and the cell runtime. Inlining everything else
	// (the DOM bindings, fmt, reflect, …) bought no speed we could measure
	// and cost 150 KB of the gzipped download (2.13 MB, now 1.98 MB).
	inline := []string{"-gcflags=all=-l", "-gcflags=runtime=", "-gcflags=math=", "-gcflags=go.starlark.net/...=", "-gcflags=gradbook/engine=", "-gcflags=gradbook/notebook="}
	errs := make(chan error, len(wasms))
	for out, pkg := range wasms {
		go func() {
			args := []string{"build", "-trimpath", "-ldflags=-s -w", "-o", filepath.Join(dir, out)}
			if out == "notebook.wasm" {
				args = append(args, inline...)
			}
			cmd := exec.Command("go", append(args, pkg)...)
			cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
			if msg, err := cmd.CombinedOutput(); err != nil {
				errs <- fmt.Errorf("go build %s: %v\n%s", pkg, err, msg)
				return
			}
			errs <- nil
		}()
	}
	for range wasms {
		if e := <-errs; e != nil && err == nil {
			err = e
		}
	}
	if err != nil {
		return err
	}
	src := filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "wasm_exec.js")
	if err := copyFile(filepath.Join(dir, "wasm_exec.js"), src); err != nil {
		return err
	}
	lessons, err := lesson.Build(dir)
	if err != nil {
		return err
	}
	fmt.Printf("Built %d lessons.\n", len(lessons))
	if fixtures != "" {
		if _, err := lesson.BuildFixtures(dir, fixtures); err != nil {
			return err
		}
	}
	_, err = lesson.WriteServiceWorker(dir)
	return err
}

func copyFile(dst, src string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// handler serves dir with the headers the site needs.
func handler(dir string) http.Handler {
	mime.AddExtensionType(".wasm", "application/wasm")
	files := http.FileServer(http.Dir(dir))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Cache-Control", "no-cache")
		h.Set("Content-Security-Policy", lesson.CSP+"; frame-ancestors *")
		// Course pages on other origins load the embed script, the wasm
		// and the cells from here.
		h.Set("Access-Control-Allow-Origin", "*")
		h.Set("X-Content-Type-Options", "nosniff")
		// Serve index.html as itself: http.FileServer would redirect it to
		// the folder, and a cached redirect cannot answer a navigation.
		if path.Base(r.URL.Path) == "index.html" {
			f, err := os.Open(filepath.Join(dir, filepath.FromSlash(path.Clean("/"+r.URL.Path))))
			if err != nil {
				http.NotFound(w, r)
				return
			}
			defer f.Close()
			if st, err := f.Stat(); err == nil {
				http.ServeContent(w, r, "index.html", st.ModTime(), f)
				return
			}
		}
		files.ServeHTTP(w, r)
	})
}
