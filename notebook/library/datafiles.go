package library

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"gradbook/notebook/kernel"
)

// Data files are the data sets cells read through built-ins: names()
// reads names.txt, shakespeare() tinyshakespeare.txt. They are not part
// of gradbook.wasm: the site serves them beside the pages (data/), the
// page hands the runner the ones a job's code names (NeedsData), which
// the runner gives SetDataFile, and native runs (-check, the tests) read
// the copies embedded in the Go binary (DataFile).

// dataOf maps each built-in that reads a data file to the file.
var dataOf = map[string]string{"names": "names.txt", "shakespeare": "tinyshakespeare.txt"}

// DataFiles lists the data files' names, in order, for the site build.
func DataFiles() []string {
	files := slices.Collect(maps.Values(dataOf))
	slices.Sort(files)
	return files
}

// MaxDataFile caps the size of a data file handed to a run.
const MaxDataFile = 4_000_000

// NeedsData returns the data files that code which names one of the
// built-ins reading them needs, once each, in sources' order. It reads
// identifiers, not text: a comment or a string that says "names" needs
// nothing. Sources that do not parse need nothing either: they cannot run.
// A source that says one of the built-ins' names is parsed to find out.
func NeedsData(sources ...string) []string {
	var files []string
	for _, src := range sources {
		if !mentionsData(src) { // cheap: most cells read no data
			continue
		}
		f, err := kernel.Parse("cell", src)
		if err != nil {
			continue
		}
		syntax.Walk(f, func(n syntax.Node) bool {
			if id, ok := n.(*syntax.Ident); ok {
				if file, ok := dataOf[id.Name]; ok && !slices.Contains(files, file) {
					files = append(files, file)
				}
			}
			return true
		})
	}
	return files
}

// mentionsData reports whether src has the name of a built-in that reads
// a data file anywhere in its text.
func mentionsData(src string) bool {
	for name := range dataOf {
		if strings.Contains(src, name) {
			return true
		}
	}
	return false
}

var given struct {
	sync.Mutex
	files map[string]string
}

// SetDataFile gives this process's runs the data file name, as the site
// serves it: the runner calls it with the files a job brings. It refuses
// a name that is no data file, and a file over MaxDataFile.
func SetDataFile(name, text string) error {
	if !slices.Contains(DataFiles(), name) {
		return fmt.Errorf("%s is not one of the data files (%s)", name, strings.Join(DataFiles(), ", "))
	}
	if len(text) > MaxDataFile {
		return fmt.Errorf("data/%s is %d bytes, over the %d a run takes", name, len(text), MaxDataFile)
	}
	given.Lock()
	defer given.Unlock()
	if given.files == nil {
		given.files = map[string]string{}
	}
	given.files[name] = text
	return nil
}

// dataFile returns the contents of a data file: the one SetDataFile
// gave, or natively the embedded copy.
func dataFile(name string) (string, error) {
	given.Lock()
	text, ok := given.files[name]
	given.Unlock()
	if ok {
		return text, nil
	}
	if text, ok := DataFile(name); ok {
		return text, nil
	}
	return "", fmt.Errorf("data/%s has not reached the runner: the page could not load it", name)
}

// namesBuiltin is names(): the 32,033 first names of names.txt, in lower
// case, as a list of strings in the file's order: the data set the GPT
// lessons train on.
func namesBuiltin(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	text, err := dataCall(b, args, kwargs, "names.txt")
	if err != nil {
		return nil, err
	}
	lines := strings.Split(strings.TrimSpace(strings.ReplaceAll(text, "\r\n", "\n")), "\n")
	out := make([]starlark.Value, 0, len(lines))
	for _, l := range lines {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, starlark.String(l))
		}
	}
	return starlark.NewList(out), nil
}

// shakespeareBuiltin is shakespeare(): the whole of tinyshakespeare.txt,
// 1,115,394 characters of Shakespeare's plays, as one string: the data
// set of the lesson "Let's build GPT".
func shakespeareBuiltin(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	text, err := dataCall(b, args, kwargs, "tinyshakespeare.txt")
	if err != nil {
		return nil, err
	}
	return starlark.String(text), nil
}

// dataCall is the text of data file name for b, a built-in that takes no
// arguments and returns a data set: an error names b.
func dataCall(b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple, name string) (string, error) {
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 0); err != nil {
		return "", err
	}
	text, err := dataFile(name)
	if err != nil {
		return "", fmt.Errorf("%s: %v", b.Name(), err)
	}
	return text, nil
}
