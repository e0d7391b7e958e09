// Command serve builds the Gradbook site and serves it:
//
//	go run serve.go                  # build, then serve on http://127.0.0.1:8080
//	go run serve.go -addr :9000      # another address
//	go run serve.go -build           # build only
//	go run serve.go -out DIR         # build, and write the static site to DIR
//	go run serve.go -lessons DIR     # add a folder of your own lessons
//	                                 # (-builtin=false: yours alone)
//	go run serve.go -check -lessons DIR
//	                                 # run every cell, exercise, quiz and task
//	                                 # of the lessons; file:line: problems
//	go run serve.go -new DIR/NAME    # write a starter lesson DIR/NAME.md
//	go run serve.go -import course.ipynb -lessons DIR
//	                                 # a Jupyter notebook as the lesson
//	                                 # DIR/course.md, then checked
//	go run serve.go -scorm course.zip
//	                                 # the lessons as a SCORM 2004 package
//	go run serve.go -scorm12 course.zip
//	                                 # as a SCORM 1.2 package
//
// While it serves, saving a lesson file rebuilds the pages and reloads the
// tabs that show it (live preview); a lesson with an error shows the error
// on its page. Exported sites have no live preview.
//
// Building compiles the engine (wasm/engine) to engine.wasm and the
// notebook (wasm/gradbook) to gradbook.wasm, copies wasm_exec.js from the
// same Go toolchain (so they always match), and renders the lessons in
// site/lessons/*.md to HTML pages with the index and the scratch page.
// Everything built goes to build/ (-dir), beside a copy of site/'s static
// files: site/ holds sources only. Each file that compresses gets a brotli
// and a gzip copy beside it (gradbook.wasm.br, gradbook.wasm.gz), made
// once per change; the server sends the one the browser accepts.
package main

import (
	"bytes"
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
	"strconv"
	"strings"
	"sync"
	"time"

	"gradbook/internal/precompress"
	"gradbook/internal/preview"
	"gradbook/internal/words"
	"gradbook/notebook/ipynb"
	"gradbook/notebook/ipynb/importer"
	"gradbook/notebook/lesson"
	"gradbook/notebook/lms"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "`host:port` to serve on")
	buildOnly := flag.Bool("build", false, "build the site and exit")
	fixtures := flag.String("fixtures", "", "also build the lessons in `dir` into fixtures/ of the build, unlisted (for tests)")
	out := flag.String("out", "", "write the complete static site to `dir` and exit")
	var folders []string
	flag.Func("lessons", "also build the lessons in `dir` (repeat it, or separate folders with commas)", func(v string) error {
		for _, d := range strings.Split(v, ",") {
			if d = strings.TrimSpace(d); d != "" {
				folders = append(folders, d)
			}
		}
		return nil
	})
	builtin := flag.Bool("builtin", true, "include Gradbook's own lessons (site/lessons); -builtin=false serves the -lessons folders alone")
	check := flag.Bool("check", false, "check every lesson (cells, exercises, quizzes, explore tasks), print file:line: problems and exit non-zero if any; with -lessons, those folders only (add -builtin for Gradbook's too)")
	newLesson := flag.String("new", "", "write a starter lesson, showing every block kind, to `dir/name`.md and exit")
	siteDir := flag.String("dir", "build", "build into `dir`: the static files are copied there from site/, which holds sources only")
	scorm2004 := flag.String("scorm", "", "write the lessons as a SCORM 2004 (4th edition) package, one SCO per lesson, to `file.zip` and exit")
	scorm12 := flag.String("scorm12", "", "write the lessons as a SCORM 1.2 package to `file.zip` and exit")
	scormID := flag.String("scorm-id", "", "the package's `identifier` in its manifest: a letter or _, then letters, digits, _, - and . (default: from the zip's file name)")
	scormTitle := flag.String("scorm-title", "Gradbook", "the course's `title`, as the LMS lists it")
	notebooks := flag.String("ipynb", "", "write each lesson as a Jupyter notebook (`dir`/<lesson>.ipynb) that runs in Python with PyTorch, and exit")
	solved := flag.Bool("solved", false, "with -ipynb, fill each exercise with its solution, so that its hidden tests pass")
	importNB := flag.String("import", "", "turn the Jupyter notebook `file.ipynb` into a lesson in the -lessons folder (Markdown cells as prose, code cells as cells, cells tagged exercise, solution, tests or quiz as those blocks), check it as -check does, print its problems and exit")
	overwrite := flag.Bool("overwrite", false, "with -import, replace a lesson file of the same name")
	passing := flag.String("passing-score", "", "in a SCORM package, the passing score (a `percentage`, 80%) of the lessons whose front matter sets none")
	ancestors := lesson.AnyAncestor
	flag.Func("frame-ancestors", "the `sources` that may show the site's pages in frames, as CSP's frame-ancestors takes them: * (any course page: the default), or your course sites (\"https://course.example.org https://*.example.edu\"); in what it serves and in an export's _headers", func(v string) error {
		var err error
		ancestors, err = lesson.FrameAncestors(v)
		return err
	})
	flag.Parse()
	log.SetFlags(0)
	if filepath.Clean(*siteDir) == "site" {
		log.Fatalf("serve: -dir site would mix what is built with site/'s sources: build elsewhere (the default is build/)")
	}

	if *newLesson != "" {
		if filepath.Dir(*newLesson) == "." {
			log.Fatalf("serve: -new wants a folder for your lessons and a name: -new mycourse/%s", *newLesson)
		}
		file, err := lesson.WriteStarter(*newLesson)
		if err != nil {
			log.Fatalf("serve: %v", err)
		}
		fmt.Printf("Wrote %s. Preview it with:\n  go run serve.go -lessons %s\nand check it with:\n  go run serve.go -check -lessons %s\n", file, filepath.Dir(file), filepath.Dir(file))
		return
	}
	if *importNB != "" {
		if len(folders) != 1 {
			log.Fatalf("serve: -import wants the one folder to write the lesson to: -import %s -lessons mycourse", *importNB)
		}
		importNotebook(*importNB, folders[0], *overwrite)
		return
	}
	// -check -lessons DIR checks DIR alone, unless -builtin is asked for.
	if *check && len(folders) > 0 {
		asked := false
		flag.Visit(func(f *flag.Flag) { asked = asked || f.Name == "builtin" })
		*builtin = *builtin && asked
	}
	dirs := folders
	if *builtin {
		dirs = append([]string{filepath.Join("site", "lessons")}, folders...)
	}
	if len(dirs) == 0 {
		log.Fatalf("serve: no lessons: give -lessons DIR, or leave -builtin on")
	}
	if *scorm2004 != "" || *scorm12 != "" {
		if *out != "" || *check {
			log.Fatalf("serve: -scorm and -scorm12 write packages and exit: leave out -out and -check")
		}
		// The packages' site is built in a folder of its own: their
		// gradbook.wasm reports to an LMS, and the site's (-dir) must not
		// become it.
		tmp, err := os.MkdirTemp("", "gradbook-scorm-")
		if err != nil {
			log.Fatalf("serve: %v", err)
		}
		err = writePackages(filepath.Join(tmp, "site"), dirs, map[lms.Version]string{lms.SCORM2004: *scorm2004, lms.SCORM12: *scorm12}, *scormID, *scormTitle, *passing)
		os.RemoveAll(tmp)
		if err != nil {
			log.Fatalf("serve: %v", err)
		}
		return
	}
	if *notebooks != "" {
		if err := writeNotebooks(*notebooks, dirs, *solved); err != nil {
			log.Fatalf("serve: %v", err)
		}
		return
	}
	if *check {
		start := time.Now()
		n, problems := lesson.CheckDirs(dirs...)
		for _, p := range problems {
			fmt.Println(p)
		}
		fmt.Printf("Checked %s in %.1f s: %s.\n", words.Count(n, "lesson"), time.Since(start).Seconds(), words.Count(len(problems), "problem"))
		if len(problems) > 0 {
			os.Exit(1)
		}
		return
	}
	live := *out == "" && !*buildOnly
	b := &builder{dir: *siteDir, lessonDirs: dirs, fixtures: *fixtures, live: live}
	if err := b.prepare(); err != nil {
		log.Fatalf("serve: the build failed, so nothing is served:\n%v", err)
	}
	watcher := preview.NewWatcher(dirs...) // from the files the first build reads
	problems, err := b.pages(b.preview.Gen())
	if err != nil {
		log.Fatalf("serve: the build failed, so nothing is served:\n%v", err)
	}
	for _, p := range problems {
		fmt.Println(p)
	}
	if len(problems) > 0 && !live {
		log.Fatalf("serve: %s: fix them first", words.Count(len(problems), "lesson problem"))
	}
	if !live {
		b.compress()
	}
	if *out != "" {
		version, err := lesson.Export(*siteDir, *out, ancestors)
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
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	mux := http.NewServeMux()
	mux.Handle("/", handler(*siteDir, ancestors))
	b.preview.Routes(mux, ctx.Done())
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	// Serving starts at once: until a file has its compressed copies
	// (gradbook.wasm's brotli takes 15 s when it changed), it is sent
	// as it is.
	go b.compress()
	go b.watch(ctx, watcher)
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

// writePackages builds the site into dir and writes a SCORM package of
// the lessons in dirs for each version given a file. Everything it can
// check (the lessons, the identifier, the passing score) is checked
// before the build.
func writePackages(dir string, dirs []string, files map[lms.Version]string, id, title, passing string) error {
	var pass float64
	if passing != "" {
		p, err := lesson.ParsePassingScore(passing)
		if err != nil {
			return fmt.Errorf("-passing-score: %v", err)
		}
		pass = p
	}
	if files[lms.SCORM2004] != "" && filepath.Clean(files[lms.SCORM2004]) == filepath.Clean(files[lms.SCORM12]) {
		return fmt.Errorf("-scorm and -scorm12 name the same file, %s: give each version its own", files[lms.SCORM12])
	}
	ids := map[lms.Version]string{}
	for v, file := range files {
		if file == "" {
			continue
		}
		ids[v] = id
		if id == "" {
			ids[v] = packageID(file)
		}
		if err := lesson.CheckIdentifier(ids[v]); err != nil {
			return fmt.Errorf("-scorm-id: %v (it becomes the manifest's identifier)", err)
		}
		if st, err := os.Stat(file); err == nil && st.IsDir() {
			return fmt.Errorf("%s is a folder: give the package's file, such as %s", file, filepath.Join(file, "course.zip"))
		}
		if st, err := os.Stat(filepath.Dir(file)); err != nil || !st.IsDir() {
			return fmt.Errorf("%s: there is no folder %s to write it in: make it first", file, filepath.Dir(file))
		}
	}
	lessons, problems := lesson.Load(dirs...)
	for _, p := range problems {
		fmt.Println(p)
	}
	if len(problems) > 0 {
		return fmt.Errorf("%s: fix them first; no package was written", words.Count(len(problems), "lesson problem"))
	}
	// The packages' gradbook.wasm reports to the LMS (web/lms.go); the
	// site's has no need to.
	b := &builder{dir: dir, lessonDirs: dirs, tags: "lms"}
	if err := b.prepare(); err != nil {
		return fmt.Errorf("the build failed, so no package was written:\n%v", err)
	}
	for _, v := range []lms.Version{lms.SCORM2004, lms.SCORM12} {
		if files[v] == "" {
			continue
		}
		w, err := lesson.WriteSCORM(files[v], dir, lessons, lesson.Package{Version: v, ID: ids[v], Title: title, Passing: pass})
		if err != nil {
			return fmt.Errorf("writing %s: %v", files[v], err)
		}
		fmt.Printf("Wrote %s: a %s package of %s, %s. Upload it to your LMS as a SCORM package.\n", w.File, v, words.Count(w.Lessons, "lesson"), words.Bytes(w.Bytes))
	}
	return nil
}

// packageID makes a package's identifier from its file's name: course.zip
// is "course", "My course (2027).zip" is "My-course-2027".
func packageID(file string) string {
	name := strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
	var b strings.Builder
	for _, r := range name {
		switch {
		case r < 128 && (r == '_' || r == '.' || r == '-' || r >= '0' && r <= '9' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z'):
			b.WriteRune(r)
		case b.Len() > 0 && !strings.HasSuffix(b.String(), "-"):
			b.WriteByte('-')
		}
	}
	id := strings.Trim(b.String(), "-.")
	switch {
	case id == "":
		id = "course"
	case !(id[0] == '_' || id[0] >= 'A' && id[0] <= 'Z' || id[0] >= 'a' && id[0] <= 'z'):
		id = "course-" + id
	}
	if len(id) > 64 {
		id = strings.TrimRight(id[:64], "-.")
	}
	if lesson.CheckIdentifier(id) != nil {
		return "gradbook-course"
	}
	return id
}

// displayAddr turns a listener address into one a browser can open.
func displayAddr(a string) string {
	host, port, err := net.SplitHostPort(a)
	if err != nil || (host != "::" && host != "0.0.0.0" && host != "") {
		return a
	}
	return net.JoinHostPort("127.0.0.1", port)
}

// builder builds the site into dir: the wasm programs and wasm_exec.js
// once (prepare), the pages whenever a lesson changes (pages).
type builder struct {
	dir        string
	lessonDirs []string
	fixtures   string
	tags       string // build tags of gradbook.wasm: "lms" for SCORM packages
	live       bool
	preview    preview.Hub
	mu         sync.Mutex // one page build at a time
	zmu        sync.Mutex // one pass of compression at a time
}

// compress gives every file of the build that compresses its fresh
// compressed copies.
func (b *builder) compress() {
	b.zmu.Lock()
	defer b.zmu.Unlock()
	start := time.Now()
	n, err := precompress.Dir(b.dir)
	if err != nil {
		log.Printf("serve: compressing the built files: %v (they are served as they are)", err)
		return
	}
	if n > 0 {
		fmt.Printf("Wrote %s (brotli and gzip) in %.1f s.\n", words.Count(n, "compressed file"), time.Since(start).Seconds())
	}
}

// watch rebuilds the pages when a lesson file is saved and tells the open
// pages, until ctx ends.
func (b *builder) watch(ctx context.Context, w *preview.Watcher) {
	w.Run(ctx, 200*time.Millisecond, func(slugs []string) {
		start := time.Now()
		problems, err := b.pages(b.preview.Gen() + 1)
		if err != nil {
			log.Printf("serve: rebuilding the pages: %v", err)
			return
		}
		for _, p := range problems {
			fmt.Println(p)
		}
		fmt.Printf("Rebuilt for %s in %d ms; told %s.\n", strings.Join(slugs, ", "), time.Since(start).Milliseconds(), words.Count(b.preview.Listeners(), "open page"))
		b.preview.Publish(slugs)
		go b.compress()
	})
}

// prepare copies the static files into b.dir, compiles the two wasm
// programs into it and copies the toolchain's wasm_exec.js.
func (b *builder) prepare() error {
	dir := b.dir
	if err := lesson.Copy("site", dir); err != nil {
		return fmt.Errorf("copying site/ to %s: %v", dir, err)
	}
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return fmt.Errorf("go env GOROOT: %v", err)
	}
	wasms := map[string]string{"engine.wasm": "./wasm/engine", "gradbook.wasm": "./wasm/gradbook"}
	// The notebook inlines only where the time goes: the runtime (70 %
	// slower steps without), math, the engine and the tensors (whose
	// loops call math.Float64bits and small helpers per element or per
	// row: a call each without). Inlining everything else
	// (the DOM bindings, fmt, reflect, …) bought no speed we could measure
	// and cost 150 KB of the gzipped download (2.13 MB, then 1.98 MB);
	// inlining Starlark and the cell runtime (whose hot path, a Value's
	// arithmetic, is written out by hand) cost 38 KB more, and the moons
	// and GPT steps took the same time within noise without it (as wasm
	// in Node: 101-106 and 124-131 ms, against 98-104 and 127-129).
	inline := []string{"-gcflags=all=-l", "-gcflags=runtime=", "-gcflags=math=", "-gcflags=gradbook/engine=", "-gcflags=gradbook/tensor="}
	errs := make(chan error, len(wasms))
	for out, pkg := range wasms {
		go func() {
			args := []string{"build", "-trimpath", "-ldflags=-s -w", "-o", filepath.Join(dir, out)}
			if out == "gradbook.wasm" {
				args = append(args, inline...)
				if b.tags != "" {
					args = append(args, "-tags="+b.tags)
				}
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
	wasmExec, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "wasm_exec.js"))
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "wasm_exec.js"), wasmExec, 0o644)
}

// pages renders every page and the service worker, as the live preview's
// generation gen, and returns the lessons' problems: a lesson that does
// not parse gets a page that shows its error. It returns an error only
// when the pages cannot be written.
func (b *builder) pages(gen int) ([]*lesson.Error, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	lessons, problems := lesson.Load(b.lessonDirs...)
	if !b.live {
		gen = 0
	}
	if err := lesson.Build(b.dir, lessons, gen); err != nil {
		return problems, err
	}
	fmt.Printf("Built %s.\n", words.Count(len(lessons), "lesson"))
	if b.fixtures != "" {
		if _, err := lesson.BuildFixtures(b.dir, b.fixtures); err != nil {
			return problems, err
		}
	}
	_, err := lesson.WriteServiceWorker(b.dir)
	return problems, err
}

// maxPath is the longest address served.
const maxPath = 1024

// decodedLength is the header that gives a compressed file's size once
// decoded (Content-Length is what travels), so that site/autodiff.js can
// say how much of gradbook.wasm has loaded.
const decodedLength = "Gradbook-Decoded-Length"

// handler serves dir with the headers the site needs, its pages framed
// only by ancestors (lesson.FrameAncestors'). A file that
// compresses is sent as its brotli or gzip copy (precompress.Dir) when the
// request's Accept-Encoding allows it and the copy is fresh, as it is
// otherwise.
func handler(dir, ancestors string) http.Handler {
	mime.AddExtensionType(".wasm", "application/wasm")
	files := http.FileServer(http.Dir(dir))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// No file of the site has a name this long; the file system would
		// refuse it with an error the file server answers 500 to.
		if len(r.URL.Path) > maxPath {
			http.Error(w, "no such page: the address is too long", http.StatusRequestURITooLong)
			return
		}
		h := w.Header()
		h.Set("Cache-Control", "no-cache")
		h.Set("Content-Security-Policy", lesson.CSP+"; frame-ancestors "+ancestors)
		// Course pages on other origins load the embed script, the wasm
		// and the cells from here, and read how much of the wasm came.
		h.Set("Access-Control-Allow-Origin", "*")
		h.Set("Access-Control-Expose-Headers", "Content-Encoding, "+decodedLength)
		h.Set("X-Content-Type-Options", "nosniff")
		if (r.Method == http.MethodGet || r.Method == http.MethodHead) && serveFile(w, r, http.Dir(dir)) {
			return
		}
		files.ServeHTTP(w, r)
	})
}

// serveFile serves a file that compresses, in the encoding the request
// accepts, and reports whether it did; it leaves the rest (other files,
// folders, what is not there) to http.FileServer. It serves index.html as
// itself: http.FileServer would redirect it to the folder, and a cached
// redirect cannot answer a navigation.
func serveFile(w http.ResponseWriter, r *http.Request, root http.Dir) bool {
	name := path.Clean("/" + r.URL.Path)
	if strings.HasSuffix(r.URL.Path, "/") {
		name = path.Join(name, "index.html")
	}
	if !precompress.Compressible(name) {
		return false
	}
	f, err := root.Open(name)
	if err != nil {
		return false
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil || !info.Mode().IsRegular() {
		return false
	}
	h := w.Header()
	h.Add("Vary", "Accept-Encoding")
	if t := mime.TypeByExtension(path.Ext(name)); t != "" {
		h.Set("Content-Type", t)
	}
	h.Set(decodedLength, strconv.FormatInt(info.Size(), 10))
	var body io.ReadSeeker = f
	// A range is of the file's own bytes, as a client that resumes a
	// download or seeks means it: a Range request gets them, unencoded.
	if r.Header.Get("Range") == "" {
		for _, e := range precompress.Accepted(r.Header.Get("Accept-Encoding")) {
			c, err := root.Open(name + e.Ext)
			if err != nil {
				continue
			}
			defer c.Close()
			if ci, err := c.Stat(); err == nil && precompress.Fresh(info, ci) {
				body = c
				h.Set("Content-Encoding", e.Name)
				// ServeContent leaves it out once an encoding is set.
				h.Set("Content-Length", strconv.FormatInt(ci.Size(), 10))
				break
			}
		}
	}
	http.ServeContent(w, r, name, info.ModTime(), body)
	return true
}

// writeNotebooks writes each lesson in dirs as dir/<lesson>.ipynb.
func writeNotebooks(dir string, dirs []string, solved bool) error {
	lessons, err := lesson.LoadDirs(dirs...)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, l := range lessons {
		nb, err := lesson.NotebookOf(l, ipynb.Options{Solved: solved})
		if err != nil {
			return err
		}
		var b bytes.Buffer
		if err := ipynb.Write(&b, nb); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, l.Slug+".ipynb"), b.Bytes(), 0o644); err != nil {
			return err
		}
	}
	// The data sets the built-ins read (names()), beside the notebooks.
	if err := lesson.WriteData(dir); err != nil {
		return err
	}
	fmt.Printf("Wrote %s to %s, and the data sets they read to %s.\n", words.Count(len(lessons), "notebook"), dir, filepath.Join(dir, "data"))
	return nil
}

// importNotebook writes the notebook file nb as a lesson in dir, prints
// the lesson's problems as -check does, and exits non-zero if it has any.
func importNotebook(nb, dir string, overwrite bool) {
	file, problems, err := importer.File(nb, dir, overwrite)
	if err != nil {
		log.Fatalf("serve: %v", err)
	}
	for _, p := range problems {
		fmt.Println(p)
	}
	if len(problems) > 0 {
		fmt.Printf("Wrote %s: %s to mend, then check it with:\n  go run serve.go -check -lessons %s\n", file, words.Count(len(problems), "problem"), dir)
		os.Exit(1)
	}
	fmt.Printf("Wrote %s: it passes -check. Preview it with:\n  go run serve.go -lessons %s\n", file, dir)
}
