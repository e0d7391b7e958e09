package lesson

// This file writes SCORM packages: a course's lessons as a zip that an LMS
// (Moodle, Canvas, Blackboard, …) takes, one SCO per lesson.

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"encoding/xml"
	"errors"
	"fmt"
	"html/template"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	texttemplate "text/template"
	"time"

	"gradbook/notebook/library"
	"gradbook/notebook/lms"
)

// A Package is a SCORM package of a course's lessons, as WriteSCORM
// writes it.
type Package struct {
	Version lms.Version
	// ID is the manifest's identifier: a letter or _, then letters,
	// digits, _, - and . (an XML name), at most 64 characters. An LMS may
	// take a package with the ID of one it has as a new version of it.
	ID string
	// Title is the course's title, as the LMS lists it.
	Title string
	// Passing is the passing score, from 0 to 1, of the lessons that set
	// none in their front matter; 0 for none.
	Passing float64
}

// SCORMFiles are the files of the built site that a package's lesson
// pages need, beside the pages: the styles, the scripts, the notebook's
// wasm, the runner and the code editor, with the editor's licences, and
// the data files cells read (data/names.txt, which the page fetches for
// a cell that calls names()), with data/README.txt, which says where
// they come from. The service worker is not among them: the LMS serves
// the package.
var SCORMFiles = append([]string{
	"favicon.svg", "style.css", "noscript.css",
	"wasm_exec.js", "autodiff.js", "gradbook.js", "gradbook.wasm", "runner.js",
	"editor.js", "editor-licenses.txt",
	"data/README.txt",
}, dataFiles()...)

// dataFiles are the data files' paths in a built site (WriteData).
func dataFiles() []string {
	var out []string
	for _, name := range library.DataFiles() {
		out = append(out, "data/"+name)
	}
	return out
}

// Manifest is the name of a package's manifest, at its root.
const Manifest = "imsmanifest.xml"

// The identifiers a package's manifest uses besides the package's own:
// an item and a resource per lesson (item-<lesson>, sco-<lesson>), the
// organisation and the files every lesson shares.
const (
	itemPrefix = "item-"
	scoPrefix  = "sco-"
	orgSuffix  = "-org"
	sharedID   = "gradbook-runtime"
)

// identifierRE is what a manifest's identifiers are: XML names (xs:ID)
// without a colon.
var identifierRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.-]*$`)

// CheckIdentifier says why id cannot be a package's identifier, or nil.
func CheckIdentifier(id string) error {
	switch {
	case id == "":
		return errors.New("an identifier is needed")
	case len(id) > 64:
		return fmt.Errorf("%q has %d characters, and an identifier may have 64", id[:20]+"…", len(id))
	case !identifierRE.MatchString(id):
		return fmt.Errorf("%q is not an identifier: start with a letter or _, then use letters, digits, _, - and . only", id)
	case id == sharedID || strings.HasPrefix(id, itemPrefix) || strings.HasPrefix(id, scoPrefix):
		return fmt.Errorf("%q is a name the manifest gives its own parts (%s, %s…, %s…): choose another", id, sharedID, itemPrefix, scoPrefix)
	}
	return nil
}

// Written says what WriteSCORM wrote.
type Written struct {
	File    string
	Bytes   int64 // the zip's size
	Lessons int
	Files   int // in the zip, the manifest included
}

// WriteSCORM writes the package p of lessons, in their course order, to
// file: imsmanifest.xml with one SCO per lesson, each lesson's page
// (SCORMPage), and SCORMFiles from the built site in dir, so that the
// lessons run from the package alone. It writes to a temporary file and
// renames it, so that file is whole or untouched.
func WriteSCORM(file, dir string, lessons []*Lesson, p Package) (*Written, error) {
	if _, ok := lms.ParseVersion(string(p.Version)); !ok {
		return nil, fmt.Errorf("SCORM version %q: Gradbook writes 1.2 and 2004", string(p.Version))
	}
	if err := CheckIdentifier(p.ID); err != nil {
		return nil, fmt.Errorf("the package's identifier: %w", err)
	}
	if len(lessons) == 0 {
		return nil, errors.New("no lessons to put in the package")
	}
	for _, l := range lessons {
		if l.Problem != nil {
			return nil, fmt.Errorf("%s: %w", l.Slug, l.Problem)
		}
	}
	if strings.TrimSpace(p.Title) == "" {
		p.Title = "Gradbook"
	}
	manifest, err := manifestOf(lessons, p)
	if err != nil {
		return nil, err
	}
	tmp, err := os.CreateTemp(filepath.Dir(file), "."+filepath.Base(file)+".*")
	if err != nil {
		return nil, err
	}
	defer os.Remove(tmp.Name()) // after the rename, there is nothing there
	z := zip.NewWriter(tmp)
	z.RegisterCompressor(zip.Deflate, func(w io.Writer) (io.WriteCloser, error) { return flate.NewWriter(w, flate.BestCompression) })
	now := time.Now()
	add := func(name string, body []byte) error {
		h := &zip.FileHeader{Name: name, Method: zip.Deflate, Modified: now}
		h.SetMode(0o644)
		w, err := z.CreateHeader(h)
		if err != nil {
			return err
		}
		_, err = w.Write(body)
		return err
	}
	err = add(Manifest, manifest)
	for _, l := range lessons {
		if err != nil {
			break
		}
		var page []byte
		if page, err = SCORMPage(l, p.Version, passingOf(l, p)); err == nil {
			err = add("lessons/"+l.Slug+".html", page)
		}
	}
	for _, f := range SCORMFiles {
		if err != nil {
			break
		}
		var b []byte
		if b, err = packageFile(dir, f); err == nil {
			err = add(f, b)
		}
	}
	if err == nil {
		err = z.Close()
	}
	if err == nil {
		// CreateTemp's 0600 would make the package the author's alone.
		err = tmp.Chmod(0o644)
	}
	if err == nil {
		err = tmp.Close()
	} else {
		tmp.Close()
	}
	if err != nil {
		return nil, err
	}
	if err := os.Rename(tmp.Name(), file); err != nil {
		return nil, err
	}
	info, err := os.Stat(file)
	if err != nil {
		return nil, err
	}
	return &Written{File: file, Bytes: info.Size(), Lessons: len(lessons), Files: 1 + len(lessons) + len(SCORMFiles)}, nil
}

// packageFile reads one of SCORMFiles: a data file from the copy the
// program embeds (library.DataFile), as Build writes it, since a
// package is made without the site's pages; the others from the built
// site in dir.
func packageFile(dir, f string) ([]byte, error) {
	if f == "data/README.txt" {
		return []byte(library.DataReadme()), nil
	}
	if name, ok := strings.CutPrefix(f, "data/"); ok {
		if text, ok := library.DataFile(name); ok {
			return []byte(text), nil
		}
	}
	return os.ReadFile(filepath.Join(dir, f))
}

// passingOf is a lesson's passing score in package p: its own, else the
// package's.
func passingOf(l *Lesson, p Package) float64 {
	if l.PassingScore > 0 {
		return l.PassingScore
	}
	return p.Passing
}

// SCORMPage renders a lesson's page for a package of version v, with its
// passing score (0 to 1, 0 for none): the lesson page without the site's
// links (the LMS moves between lessons), with what the page reports to
// the LMS (its items and records) on its body.
func SCORMPage(l *Lesson, v lms.Version, passing float64) ([]byte, error) {
	data := map[string]any{
		"Lesson":  l,
		"Body":    template.HTML(l.Body),
		"HasH1":   strings.Contains(l.Body, "<h1"),
		"Version": string(v),
		"Passing": "",
	}
	if passing > 0 {
		data["Passing"] = strconv.FormatFloat(passing, 'f', -1, 64)
	}
	var b bytes.Buffer
	if err := pages.ExecuteTemplate(&b, "scorm.html", data); err != nil {
		return nil, fmt.Errorf("lessons/%s.html: %w", l.Slug, err)
	}
	return b.Bytes(), nil
}

// manifestOf writes a package's imsmanifest.xml.
func manifestOf(lessons []*Lesson, p Package) ([]byte, error) {
	type item struct {
		Item, SCO, Href, Title string
		Passing                float64
	}
	var items []item
	seen := map[string]bool{p.ID: true, p.ID + orgSuffix: true, sharedID: true}
	for _, l := range lessons {
		it := item{Item: itemPrefix + l.Slug, SCO: scoPrefix + l.Slug, Href: "lessons/" + l.Slug + ".html", Title: l.Title, Passing: passingOf(l, p)}
		for _, id := range []string{it.Item, it.SCO} {
			if seen[id] {
				return nil, fmt.Errorf("the identifier %s is used twice in the manifest", id)
			}
			seen[id] = true
		}
		items = append(items, it)
	}
	tmpl, typeAttr := manifest2004, "scormType"
	if p.Version == lms.SCORM12 {
		tmpl, typeAttr = manifest12, "scormtype"
	}
	var b bytes.Buffer
	err := tmpl.Execute(&b, map[string]any{"ID": p.ID, "Org": p.ID + orgSuffix, "Title": p.Title, "Items": items, "Shared": sharedID, "Files": SCORMFiles, "TypeAttr": typeAttr})
	return b.Bytes(), err
}

// resources is both manifests' resources: a SCO per lesson, which
// depends on one asset of the files every lesson needs. Only the name of
// the type attribute differs (1.2 spells it scormtype).
const resources = `{{define "resources"}}  <resources>
{{- range .Items}}
    <resource identifier="{{x .SCO}}" type="webcontent" adlcp:{{$.TypeAttr}}="sco" href="{{x .Href}}">
      <file href="{{x .Href}}"/>
      <dependency identifierref="{{x $.Shared}}"/>
    </resource>
{{- end}}
    <resource identifier="{{x .Shared}}" type="webcontent" adlcp:{{.TypeAttr}}="asset">
{{- range .Files}}
      <file href="{{x .}}"/>
{{- end}}
    </resource>
  </resources>{{end}}`

var manifestFuncs = texttemplate.FuncMap{
	"x": func(s string) string {
		var b bytes.Buffer
		xml.EscapeText(&b, []byte(s))
		return b.String()
	},
	"measure":  func(p float64) string { return strconv.FormatFloat(math.Round(p*1e4)/1e4, 'f', -1, 64) },
	"mastery":  func(p float64) string { return strconv.FormatFloat(math.Round(p*1e4)/1e2, 'f', -1, 64) },
	"positive": func(p float64) bool { return p > 0 },
}

// manifest2004 is a SCORM 2004 4th edition manifest: an organisation of
// one item per lesson, each a SCO with its page and the shared files, and
// where the lesson has a passing score, its primary objective satisfied
// by that measure (the LMS gives it to the page as
// cmi.scaled_passing_score).
var manifest2004 = texttemplate.Must(texttemplate.Must(texttemplate.New("2004").Funcs(manifestFuncs).Parse(resources)).Parse(`<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="{{x .ID}}" version="1"
  xmlns="http://www.imsglobal.org/xsd/imscp_v1p1"
  xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_v1p3"
  xmlns:adlseq="http://www.adlnet.org/xsd/adlseq_v1p3"
  xmlns:adlnav="http://www.adlnet.org/xsd/adlnav_v1p3"
  xmlns:imsss="http://www.imsglobal.org/xsd/imsss"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  xsi:schemaLocation="http://www.imsglobal.org/xsd/imscp_v1p1 imscp_v1p1.xsd http://www.adlnet.org/xsd/adlcp_v1p3 adlcp_v1p3.xsd http://www.adlnet.org/xsd/adlseq_v1p3 adlseq_v1p3.xsd http://www.adlnet.org/xsd/adlnav_v1p3 adlnav_v1p3.xsd http://www.imsglobal.org/xsd/imsss imsss_v1p0.xsd">
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>2004 4th Edition</schemaversion>
  </metadata>
  <organizations default="{{x .Org}}">
    <organization identifier="{{x .Org}}">
      <title>{{x .Title}}</title>
{{- range .Items}}
      <item identifier="{{x .Item}}" identifierref="{{x .SCO}}">
        <title>{{x .Title}}</title>
{{- if positive .Passing}}
        <imsss:sequencing>
          <imsss:objectives>
            <imsss:primaryObjective objectiveID="{{x .Item}}-passed" satisfiedByMeasure="true">
              <imsss:minNormalizedMeasure>{{measure .Passing}}</imsss:minNormalizedMeasure>
            </imsss:primaryObjective>
          </imsss:objectives>
        </imsss:sequencing>
{{- end}}
      </item>
{{- end}}
      <imsss:sequencing>
        <imsss:controlMode choice="true" flow="true"/>
      </imsss:sequencing>
    </organization>
  </organizations>
{{template "resources" .}}
</manifest>
`))

// manifest12 is a SCORM 1.2 manifest: the same organisation, with each
// lesson's passing score as its mastery score (0 to 100), which the LMS
// gives to the page as cmi.student_data.mastery_score.
var manifest12 = texttemplate.Must(texttemplate.Must(texttemplate.New("1.2").Funcs(manifestFuncs).Parse(resources)).Parse(`<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="{{x .ID}}" version="1.0"
  xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2"
  xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  xsi:schemaLocation="http://www.imsproject.org/xsd/imscp_rootv1p1p2 imscp_rootv1p1p2.xsd http://www.imsglobal.org/xsd/imsmd_rootv1p2p1 imsmd_rootv1p2p1.xsd http://www.adlnet.org/xsd/adlcp_rootv1p2 adlcp_rootv1p2.xsd">
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>1.2</schemaversion>
  </metadata>
  <organizations default="{{x .Org}}">
    <organization identifier="{{x .Org}}">
      <title>{{x .Title}}</title>
{{- range .Items}}
      <item identifier="{{x .Item}}" identifierref="{{x .SCO}}" isvisible="true">
        <title>{{x .Title}}</title>
{{- if positive .Passing}}
        <adlcp:masteryscore>{{mastery .Passing}}</adlcp:masteryscore>
{{- end}}
      </item>
{{- end}}
    </organization>
  </organizations>
{{template "resources" .}}
</manifest>
`))
