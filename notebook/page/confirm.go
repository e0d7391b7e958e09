package page

import "gradbook/notebook/block"

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
	box := p.doc.Create("div")
	box.AddClass(classConfirm)
	box.SetAttr("role", "alertdialog")
	box.SetAttr("aria-label", question)
	text := p.doc.Create("p")
	text.SetText(question)
	box.Append(text)
	yesButton := p.button(classConfirmYes, yesLabel)
	noButton := p.button(classConfirmNo, noLabel)
	box.Append(yesButton)
	box.Append(p.doc.CreateText(" "))
	box.Append(noButton)
	root.InsertBefore(box, before)
	noButton.Focus()
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

// button makes a button of class with text.
func (p *Page) button(class, text string) Node {
	b := p.doc.Create("button")
	b.SetAttr("type", "button")
	b.AddClass(class)
	b.SetText(text)
	return b
}
