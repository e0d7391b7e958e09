// The cells' code editor: CodeMirror 6 with Python's syntax (Starlark's),
// behind the small interface that notebook/web uses, so that the notebook
// never depends on CodeMirror's internals. cmd/editorbundle bundles this
// file and its npm packages into site/editor.js.
import { EditorView, ViewPlugin, keymap, lineNumbers, highlightActiveLine, highlightActiveLineGutter, highlightSpecialChars, drawSelection, Decoration } from "@codemirror/view";
import { EditorState, StateField, StateEffect, Prec, Compartment } from "@codemirror/state";
import { history, defaultKeymap, historyKeymap, indentWithTab, isolateHistory } from "@codemirror/commands";
import { indentOnInput, bracketMatching, syntaxHighlighting, defaultHighlightStyle, HighlightStyle, indentUnit } from "@codemirror/language";
import { closeBrackets, closeBracketsKeymap } from "@codemirror/autocomplete";
import { searchKeymap, highlightSelectionMatches } from "@codemirror/search";
import { python } from "@codemirror/lang-python";

// CodeMirror's default colours, but for the two that are too light on
// the editor's background (#f3f4f1) to read, under WCAG's 4.5:1: a
// string's escapes, "\n" (#e40, 3.5:1), and invalid code (#f00, 3.6:1),
// darkened to 5.5:1 and 5.3:1 (5.0:1 and 4.9:1 on the active line, #e8ebe4).
const darker = { "#e40": "#b33800", "#f00": "#c00" };
const highlightStyle = HighlightStyle.define(defaultHighlightStyle.specs.map((s) => (darker[s.color] ? { ...s, color: darker[s.color] } : s)));

// The line an error names, marked until the code changes.
const setMark = StateEffect.define();
const errorLine = Decoration.line({ class: "cm-error-line", attributes: { "aria-invalid": "true" } });
const marks = StateField.define({
  create: () => Decoration.none,
  update(deco, tr) {
    for (const e of tr.effects) {
      if (e.is(setMark)) {
        if (e.value < 1 || e.value > tr.state.doc.lines) return Decoration.none;
        return Decoration.set([errorLine.range(tr.state.doc.line(e.value).from)]);
      }
    }
    return tr.docChanged ? Decoration.none : deco;
  },
  provide: (f) => EditorView.decorations.from(f),
});

// A long line wraps with its own indentation: each line is marked with
// how far it is indented (in columns, tabs counted as 4, up to maxHang),
// and the theme gives each mark a hanging indent of that many columns, so
// that the rest of a wrapped line starts under its code, not at the
// margin. Only the lines in view are marked.
const maxHang = 40;
const hangs = Array.from({ length: maxHang + 1 }, (_, n) => Decoration.line({ class: `cm-hang-${n}` }));
function hangOf(view) {
  const marks = [];
  for (const { from, to } of view.visibleRanges) {
    for (let pos = from; pos <= to;) {
      const line = view.state.doc.lineAt(pos);
      let cols = 0;
      for (const ch of line.text) {
        if (ch === " ") cols++;
        else if (ch === "\t") cols += 4 - (cols % 4);
        else break;
      }
      if (cols > 0) marks.push(hangs[Math.min(cols, maxHang)].range(line.from));
      pos = line.to + 1;
    }
  }
  return Decoration.set(marks);
}
const hangingIndent = ViewPlugin.fromClass(class {
  constructor(view) { this.decorations = hangOf(view); }
  update(u) { if (u.docChanged || u.viewportChanged) this.decorations = hangOf(u.view); }
}, { decorations: (v) => v.decorations });
const hangRules = {};
for (let n = 1; n <= maxHang; n++) {
  // .cm-line's own left padding is 6px.
  hangRules[`.cm-hang-${n}`] = { paddingLeft: `calc(${n}ch + 6px)`, textIndent: `-${n}ch` };
}

// The editor's looks, in the page's colours. Styles reach the editor as
// constructed style sheets inside its shadow root, which a page's CSP
// (style-src 'self') allows, where CodeMirror's <style> element would be
// refused.
const theme = EditorView.theme({
  "&": { backgroundColor: "#f3f4f1", color: "#1d2430", fontSize: "0.92rem" },
  "&.cm-focused": { outline: "2px solid #1b5fc1", outlineOffset: "-2px" },
  ".cm-scroller": { fontFamily: 'ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace', lineHeight: "1.45" },
  ".cm-content": { padding: "6px 0" },
  ".cm-gutters": { backgroundColor: "#eceee9", color: "#5b6576", borderRight: "1px solid #d5dae2" },
  ".cm-activeLine": { backgroundColor: "#e8ebe4" },
  ".cm-error-line": { backgroundColor: "#fbe4e6", boxShadow: "inset 3px 0 0 #a3141f" },
  ...hangRules,
});

// create puts an editor into parent, in a shadow root, with the given
// text. label names it for screen readers and hint describes its keys;
// onChange is called after every edit, onRun on Shift+Enter or
// Ctrl/Cmd+Enter. setText replaces the text without calling onChange.
export function create(parent, text, { label, hint, onChange, onRun }) {
  const run = () => { onRun(); return true; };
  let setting = false; // setText's own change is not the learner's edit
  const attrs = { "aria-label": label };
  if (hint) attrs["aria-description"] = hint;
  const named = new Compartment();
  const root = parent.attachShadow({ mode: "open" });
  const view = new EditorView({
    root,
    parent: root,
    state: EditorState.create({
      doc: text,
      extensions: [
        Prec.highest(keymap.of([{ key: "Shift-Enter", run }, { key: "Mod-Enter", run }])),
        lineNumbers(),
        highlightActiveLineGutter(),
        highlightSpecialChars(),
        history(),
        drawSelection(),
        indentOnInput(),
        indentUnit.of("    "),
        EditorState.tabSize.of(4),
        syntaxHighlighting(highlightStyle, { fallback: true }),
        bracketMatching(),
        closeBrackets(),
        highlightActiveLine(),
        highlightSelectionMatches(),
        keymap.of([...closeBracketsKeymap, ...defaultKeymap, ...searchKeymap, ...historyKeymap, indentWithTab]),
        python(),
        EditorView.lineWrapping,
        hangingIndent,
        named.of(EditorView.contentAttributes.of(attrs)),
        theme,
        marks,
        EditorView.updateListener.of((u) => { if (u.docChanged && !setting) onChange(); }),
      ],
    }),
  });
  return {
    text: () => view.state.doc.toString(),
    setText(s) {
      setting = true;
      try {
        view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: s } });
      } finally {
        setting = false;
      }
    },
    focus: () => view.focus(),
    // label renames the editor (a scratch cell renumbered).
    label(text) {
      attrs["aria-label"] = text;
      view.dispatch({ effects: named.reconfigure(EditorView.contentAttributes.of({ ...attrs })) });
    },
    // mark marks line n (from 1) as the one an error names; 0 clears.
    // The notebook calls it after every run, and a run closes the undo
    // step: what was typed before it and what is typed after it are
    // undone separately, however quickly they follow each other.
    mark: (n) => view.dispatch({ effects: setMark.of(n), annotations: isolateHistory.of("full") }),
    destroy: () => view.destroy(),
  };
}
