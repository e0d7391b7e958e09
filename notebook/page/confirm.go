package page

import (
	"time"

	"gradbook/notebook/block"
)

// ask shows a question with two answers inside root, before the node
// before (at the end if before is nil), and calls yes or no (either may be
// nil) once the learner picks one, as work of the page. The safe answer,
// no, has the focus. A question asked again in root replaces the one
// there. The box owns its listeners and releases them when it goes. It
// is the page's one confirm dialog: before a reset, a delete, and an
// import that would replace code.
func (p *Page) ask(root, before Node, question, yesLabel, noLabel string, yes, no func()) {
	if old := root.Query(block.Of(classConfirm)); old != nil {
		old.Remove()
	}
	box := p.elem("div", classConfirm, "", "role", "alertdialog", "aria-label", question)
	yesButton := p.button(classConfirmYes, yesLabel)
	noButton := p.button(classConfirmNo, noLabel)
	appendAll(box, p.elem("p", "", question), yesButton, p.doc.CreateText(" "), noButton)
	root.InsertBefore(box, before)
	noButton.Focus()
	// The answer that changes something takes no click until the question
	// has been seen: a page that frames this one cannot have a learner's
	// double click land on it (clickjacking).
	yesButton.SetAttr("disabled", "")
	p.clock.AfterFunc(askArm, func() { p.Do(func() { yesButton.RemoveAttr("disabled") }) })
	on := &handlers{}
	answer := func(f func()) func(Event) {
		return func(Event) {
			p.Do(func() {
				on.release()
				box.Remove()
				if f != nil {
					f()
				}
			})
		}
	}
	on.listen(p, noButton, "click", answer(no))
	on.listen(p, yesButton, "click", answer(yes))
}

// askArm is how long a question shows before its yes answer takes a
// click.
const askArm = 500 * time.Millisecond

// button makes a button of class with text.
func (p *Page) button(class, text string) Node {
	return p.elem("button", class, text, "type", "button")
}

// elem makes an element: a tag, its class and text ("" for none), and
// attributes as name, value pairs.
func (p *Page) elem(tag, class, text string, attrs ...string) Node {
	el := p.doc.Create(tag)
	if class != "" {
		el.AddClass(class)
	}
	for i := 0; i+1 < len(attrs); i += 2 {
		el.SetAttr(attrs[i], attrs[i+1])
	}
	if text != "" {
		el.SetText(text)
	}
	return el
}

// appendAll appends each of nodes to parent, in order.
func appendAll(parent Node, nodes ...Node) {
	for _, n := range nodes {
		parent.Append(n)
	}
}
