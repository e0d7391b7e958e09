// Package fakedom is a browser's document in memory, for the native tests
// of the page's logic (package page): it implements page.Document,
// page.Node, page.Event and page.Clock, as net/http/httptest's recorder
// implements http.ResponseWriter.
//
// A test parses a page as the build writes it (Parse), starts the page's
// logic on it, acts as a learner does (Click, Type, Key, Choose, and the
// window's FireWindow and SetHidden), moves a Clock by hand, and reads
// back what the learner would see (Text, VisibleText, Value, Checked,
// attributes; HTML for golden files and failure messages).
//
// It is faithful where the page's logic can tell, and small:
//   - The parser reads the build's own markup, which is well formed:
//     tags, attributes (quoted, unquoted, bare), void and raw-text
//     elements, RCDATA (textarea, title), SVG with its self-closing tags,
//     character references, templates (whose content is not below them,
//     as in a browser), and the few end tags a browser implies (an open
//     p, li or option).
//   - Selectors are the page contract's: tags, *, #id, .class, [attr],
//     [attr=value] with or without quotes, compounds, the descendant and
//     child combinators, comma lists. Any other panics, saying so.
//   - Events bubble from their target to the document, then the window.
//     The learner's actions fire what a browser fires, in its order, and
//     do its default actions (a checkbox toggled, a label's control
//     clicked); focus, mouse and key-up events are not fired.
//   - Nothing is laid out: an element is as wide as the document says
//     (SetWidth; DefaultWidth at first) unless the test sets its own
//     (SetClientWidth, SetScrollWidth, SetOffsetHeight, SetTop), and 0
//     wide when it is not shown (hidden, or out of the document).
//
// One mutex guards a document. It is never held while a listener runs, so
// a listener may read and change the document, and the page's goroutines
// may while the test's fires events.
package fakedom
