package lesson

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"gradbook/notebook/library"
	"gradbook/notebook/lms"
)

// node is an element of a parsed XML document.
type node struct {
	name     xml.Name
	attrs    []xml.Attr
	children []*node
	text     string
}

func (n *node) attr(space, local string) string {
	for _, a := range n.attrs {
		if a.Name.Space == space && a.Name.Local == local {
			return a.Value
		}
	}
	return ""
}

// kids are the children of n named space:local.
func (n *node) kids(space, local string) []*node {
	var out []*node
	for _, c := range n.children {
		if c.name.Space == space && c.name.Local == local {
			out = append(out, c)
		}
	}
	return out
}

func (n *node) kid(t *testing.T, space, local string) *node {
	t.Helper()
	k := n.kids(space, local)
	if len(k) != 1 {
		t.Fatalf("<%s> has %d <%s> (in %s), want 1", n.name.Local, len(k), local, space)
	}
	return k[0]
}

// walk calls f for n and every element under it.
func (n *node) walk(f func(*node)) {
	f(n)
	for _, c := range n.children {
		c.walk(f)
	}
}

func parseXML(t *testing.T, b []byte) *node {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(b))
	var stack []*node
	var root *node
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("the manifest is not well-formed XML: %v", err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			n := &node{name: tok.Name, attrs: tok.Attr}
			if len(stack) > 0 {
				top := stack[len(stack)-1]
				top.children = append(top.children, n)
			} else {
				root = n
			}
			stack = append(stack, n)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) > 0 {
				stack[len(stack)-1].text += string(tok)
			}
		}
	}
	return root
}

func unzip(t *testing.T, file string) map[string][]byte {
	t.Helper()
	r, err := zip.OpenReader(file)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	files := map[string][]byte{}
	for _, f := range r.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		if f.Mode() != 0o644 {
			t.Errorf("%s unzips as %v, want a file anyone may read (-rw-r--r--)", f.Name, f.Mode())
		}
		if _, twice := files[f.Name]; twice {
			t.Errorf("%s is in the zip twice", f.Name)
		}
		files[f.Name] = b
	}
	return files
}

// fakeSite is a built site's files that a package takes, small, as
// serve.go -scorm prepares them: without the pages, nor the data files
// that Build writes beside them.
func fakeSite(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range SCORMFiles {
		if strings.HasPrefix(f, "data/") {
			continue
		}
		if err := os.WriteFile(filepath.Join(dir, f), []byte("/* "+f+" */"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// The namespaces each version's manifest is in.
var namespaces = map[lms.Version]struct{ cp, adlcp, imsss, schemaVersion, scormType string }{
	lms.SCORM2004: {"http://www.imsglobal.org/xsd/imscp_v1p1", "http://www.adlnet.org/xsd/adlcp_v1p3", "http://www.imsglobal.org/xsd/imsss", "2004 4th Edition", "scormType"},
	lms.SCORM12:   {"http://www.imsproject.org/xsd/imscp_rootv1p1p2", "http://www.adlnet.org/xsd/adlcp_rootv1p2", "", "1.2", "scormtype"},
}

// A package's manifest has what SCORM requires of it, for both versions:
// its schema and version, a default organisation with one item per lesson
// in the course's order, each a SCO whose page and files are in the zip
// and share the runtime's files, unique identifiers that are XML names,
// every file in the zip listed, and each lesson's passing score where
// the version carries it.
func TestSCORMManifest(t *testing.T) {
	lessons, problems := Load("testdata/scorm")
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	site := fakeSite(t)
	for _, v := range []lms.Version{lms.SCORM2004, lms.SCORM12} {
		t.Run(string(v), func(t *testing.T) {
			ns := namespaces[v]
			file := filepath.Join(t.TempDir(), "course.zip")
			w, err := WriteSCORM(file, site, lessons, Package{Version: v, ID: "gradbook.test_1", Title: "Backprop & <more>", Passing: 0.5})
			if err != nil {
				t.Fatal(err)
			}
			if st, err := os.Stat(file); err != nil || st.Mode().Perm() != 0o644 {
				t.Errorf("the package's file: %v %v, want -rw-r--r--", st.Mode(), err)
			}
			files := unzip(t, file)
			if w.Lessons != 2 || w.Files != len(files) || w.Bytes == 0 {
				t.Errorf("Written %+v for %d files", w, len(files))
			}
			// The data files cells read are whole, as the site serves them.
			names, _ := library.DataFile("names.txt")
			if string(files["data/names.txt"]) != names || len(names) < 200_000 || string(files["data/README.txt"]) != library.DataReadme() {
				t.Errorf("data/names.txt has %d bytes (want the %d of names()), data/README.txt %d", len(files["data/names.txt"]), len(names), len(files["data/README.txt"]))
			}
			m := parseXML(t, files[Manifest])
			if m == nil || m.name != (xml.Name{Space: ns.cp, Local: "manifest"}) {
				t.Fatalf("the root is %v, want manifest in %s", m, ns.cp)
			}
			if m.attr("", "identifier") != "gradbook.test_1" {
				t.Errorf("identifier %q", m.attr("", "identifier"))
			}
			md := m.kid(t, ns.cp, "metadata")
			if s := strings.TrimSpace(md.kid(t, ns.cp, "schema").text); s != "ADL SCORM" {
				t.Errorf("schema %q", s)
			}
			if s := strings.TrimSpace(md.kid(t, ns.cp, "schemaversion").text); s != ns.schemaVersion {
				t.Errorf("schemaversion %q, want %q", s, ns.schemaVersion)
			}

			// Every identifier is an XML name, and no two are the same.
			ids := map[string]bool{}
			m.walk(func(n *node) {
				id := n.attr("", "identifier")
				if id == "" {
					return
				}
				if !regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.-]*$`).MatchString(id) || ids[id] {
					t.Errorf("identifier %q is not an XML name, or is there twice", id)
				}
				ids[id] = true
			})

			resources := map[string]*node{}
			listed := map[string]bool{}
			for _, r := range m.kid(t, ns.cp, "resources").kids(ns.cp, "resource") {
				resources[r.attr("", "identifier")] = r
				if r.attr("", "type") != "webcontent" {
					t.Errorf("resource %s: type %q", r.attr("", "identifier"), r.attr("", "type"))
				}
				for _, f := range r.kids(ns.cp, "file") {
					href := f.attr("", "href")
					if _, ok := files[href]; !ok {
						t.Errorf("the manifest lists %s, which is not in the zip", href)
					}
					listed[href] = true
				}
			}
			for name := range files {
				if name != Manifest && !listed[name] {
					t.Errorf("%s is in the zip but in no resource", name)
				}
			}

			orgs := m.kid(t, ns.cp, "organizations")
			var org *node
			for _, o := range orgs.kids(ns.cp, "organization") {
				if o.attr("", "identifier") == orgs.attr("", "default") {
					org = o
				}
			}
			if org == nil {
				t.Fatalf("no organization is the default, %q", orgs.attr("", "default"))
			}
			if title := org.kid(t, ns.cp, "title").text; title != "Backprop & <more>" {
				t.Errorf("the course's title %q", title)
			}
			items := org.kids(ns.cp, "item")
			if len(items) != len(lessons) {
				t.Fatalf("%d items for %d lessons", len(items), len(lessons))
			}
			for i, it := range items {
				l := lessons[i] // in the course's order
				if title := it.kid(t, ns.cp, "title").text; title != l.Title {
					t.Errorf("item %d is %q, want %q, the course's lesson %d", i+1, title, l.Title, i+1)
				}
				r := resources[it.attr("", "identifierref")]
				if r == nil {
					t.Fatalf("item %s names no resource", it.attr("", "identifier"))
				}
				href := r.attr("", "href")
				if r.attr(ns.adlcp, ns.scormType) != "sco" || href != "lessons/"+l.Slug+".html" {
					t.Errorf("%s: %s %q, href %q", l.Slug, ns.scormType, r.attr(ns.adlcp, ns.scormType), href)
				}
				if !slices.ContainsFunc(r.kids(ns.cp, "file"), func(f *node) bool { return f.attr("", "href") == href }) {
					t.Errorf("%s does not list its own page", l.Slug)
				}
				dep := r.kid(t, ns.cp, "dependency")
				shared := resources[dep.attr("", "identifierref")]
				if shared == nil || shared.attr(ns.adlcp, ns.scormType) != "asset" || len(shared.kids(ns.cp, "file")) != len(SCORMFiles) {
					t.Errorf("%s depends on %v, not the runtime's files", l.Slug, dep.attr("", "identifierref"))
				}
				checkPage(t, v, l, files)
			}

			// Passing scores: the lesson's own (75%), else the package's (50%).
			want := []string{"0.75", "0.5"}
			for i, it := range items {
				var got string
				if v == lms.SCORM12 {
					if k := it.kids(ns.adlcp, "masteryscore"); len(k) == 1 {
						got = strings.TrimSpace(k[0].text)
					}
					want[i] = map[string]string{"0.75": "75", "0.5": "50"}[want[i]]
				} else {
					seq := it.kid(t, ns.imsss, "sequencing")
					po := seq.kid(t, ns.imsss, "objectives").kid(t, ns.imsss, "primaryObjective")
					if po.attr("", "satisfiedByMeasure") != "true" {
						t.Errorf("item %d: the objective is not satisfied by its measure", i+1)
					}
					got = strings.TrimSpace(po.kid(t, ns.imsss, "minNormalizedMeasure").text)
				}
				if got != want[i] {
					t.Errorf("item %d: passing score %q, want %q", i+1, got, want[i])
				}
			}
			if v == lms.SCORM12 && bytes.Contains(files[Manifest], []byte("imsss")) {
				t.Errorf("a 1.2 manifest with 2004's sequencing")
			}
		})
	}
}

// checkPage checks a lesson's page in a package: it reports to the
// version's API, with the lesson's items and records, and loads nothing
// from outside the package nor links to another page of it.
func checkPage(t *testing.T, v lms.Version, l *Lesson, files map[string][]byte) {
	t.Helper()
	page := string(files["lessons/"+l.Slug+".html"])
	for _, want := range []string{`data-lms="` + string(v) + `"`, `data-lesson="` + l.Slug + `"`, `data-items="` + strings.Join(l.Items(), " ") + `"`, `data-records="` + strings.Join(l.Records(), " ") + `"`} {
		if !strings.Contains(page, want) {
			t.Errorf("%s's page lacks %s", l.Slug, want)
		}
	}
	for _, m := range regexp.MustCompile(`(?:src|href)="([^"#]*)`).FindAllStringSubmatch(page, -1) {
		ref := m[1]
		if ref == "" {
			continue // #main
		}
		if strings.Contains(ref, ":") || strings.HasPrefix(ref, "/") {
			t.Errorf("%s's page loads %s, from outside the package", l.Slug, ref)
			continue
		}
		if strings.HasSuffix(ref, ".html") {
			t.Errorf("%s's page links to %s: the LMS moves between lessons", l.Slug, ref)
		}
		if _, ok := files[filepath.ToSlash(filepath.Join("lessons", ref))]; !ok {
			t.Errorf("%s's page loads %s, which is not in the package", l.Slug, ref)
		}
	}
}

// What the pages' scripts fetch beside them is in every package, but for
// the service worker, which a package's page does not start.
func TestSCORMFilesHaveWhatScriptsFetch(t *testing.T) {
	b, err := os.ReadFile("../../site/gradbook.js")
	if err != nil {
		t.Fatal(err)
	}
	fetched := regexp.MustCompile("new URL\\([\"`]([^\"`]+)[\"`]").FindAllStringSubmatch(string(b), -1)
	data := false
	for _, m := range fetched {
		switch {
		case m[1] == "data/${name}": // one of the data files
			data = true
			for _, name := range library.DataFiles() {
				if !slices.Contains(SCORMFiles, "data/"+name) {
					t.Errorf("gradbook.js fetches the data file data/%s, which SCORMFiles lacks", name)
				}
			}
		case m[1] != "sw.js" && !slices.Contains(SCORMFiles, m[1]):
			t.Errorf("gradbook.js fetches %s, which SCORMFiles lacks", m[1])
		}
	}
	if len(fetched) < 3 || !data {
		t.Errorf("found %d of the files gradbook.js fetches (data files: %v): the test no longer reads it right", len(fetched), data)
	}
	for _, name := range []string{"wasm_exec.js", "runner.js"} { // the runner's script, read by readRunner
		if !strings.Contains(string(b), `"`+name+`"`) || !slices.Contains(SCORMFiles, name) {
			t.Errorf("the runner's %s is not read as expected, or not in SCORMFiles", name)
		}
	}
	if !strings.Contains(string(b), "|| document.body.dataset.lms ||") {
		t.Errorf("gradbook.js does not leave the service worker out of a package's pages (document.body.dataset.lms)")
	}
}

// Bad input is refused with what is wrong, and writes nothing.
func TestSCORMRefuses(t *testing.T) {
	lessons, _ := Load("testdata/scorm")
	site := fakeSite(t)
	broken := &Lesson{Slug: "broken", Title: "broken (has an error)", Problem: &Error{File: "broken.md", Line: 3, Msg: "unknown block kind"}}
	noWasm := t.TempDir()
	for _, f := range SCORMFiles {
		if f != "gradbook.wasm" {
			os.WriteFile(filepath.Join(noWasm, f), []byte("x"), 0o644)
		}
	}
	for _, tc := range []struct {
		name    string
		dir     string
		lessons []*Lesson
		p       Package
		want    string
	}{
		{"no lessons", site, nil, Package{Version: lms.SCORM2004, ID: "c"}, "no lessons"},
		{"a lesson with an error", site, append(slices.Clone(lessons), broken), Package{Version: lms.SCORM2004, ID: "c"}, "broken: broken.md:3: unknown block kind"},
		{"a version", site, lessons, Package{Version: "2004 3rd", ID: "c"}, `SCORM version "2004 3rd"`},
		{"a name that is no identifier", site, lessons, Package{Version: lms.SCORM12, ID: "my course"}, `"my course" is not an identifier`},
		{"an identifier of the manifest's own", site, lessons, Package{Version: lms.SCORM12, ID: "item-first"}, "a name the manifest gives its own parts"},
		{"a site not built", noWasm, lessons, Package{Version: lms.SCORM2004, ID: "c"}, "gradbook.wasm"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := t.TempDir()
			file := filepath.Join(out, "course.zip")
			_, err := WriteSCORM(file, tc.dir, tc.lessons, tc.p)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one that says %q", err, tc.want)
			}
			if left, _ := os.ReadDir(out); len(left) != 0 {
				t.Errorf("left %v behind", left)
			}
		})
	}
}

func TestCheckIdentifier(t *testing.T) {
	for id, ok := range map[string]bool{
		"gradbook": true, "course_1.v2": true, "_x": true, "Backprop-2027": true,
		"": false, "2027-course": false, "my course": false, "a:b": false, "é": false, "gradbook-runtime": false, "sco-x": false,
		strings.Repeat("a", 64): true, strings.Repeat("a", 65): false,
	} {
		if err := CheckIdentifier(id); (err == nil) != ok {
			t.Errorf("%q: %v", id, err)
		}
	}
}

func TestParsePassingScore(t *testing.T) {
	for s, want := range map[string]float64{"80%": 0.8, "80": 0.8, " 75.5 % ": 0.755, "100%": 1, "0": -1, "101%": -1, "abc": -1, "-5%": -1, "": -1, "NaN": -1} {
		got, err := ParsePassingScore(s)
		if want < 0 {
			if err == nil {
				t.Errorf("%q: %v, want an error", s, got)
			}
			continue
		}
		if err != nil || got != want {
			t.Errorf("%q: %v %v, want %v", s, got, err, want)
		}
	}
	_, err := Parse("x", []byte("---\ntitle: X\npassing-score: lots\n---\n\nProse.\n"))
	var e *Error
	if !errors.As(err, &e) || e.Line != 3 || !strings.Contains(e.Msg, "passing-score") {
		t.Errorf("a bad passing-score: %v", err)
	}
}
