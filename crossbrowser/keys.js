// Keys as WebDriver names them: the same key actions go to WebKit through
// classic WebDriver and to Firefox through WebDriver BiDi, and each engine
// dispatches them as real key events to whatever has the focus (CodeMirror's
// content, in its shadow root, included).
const named = {
  Enter: "\uE007", Escape: "\uE00C", Tab: "\uE004", Backspace: "\uE003", Delete: "\uE017",
  Shift: "\uE008", Control: "\uE009", Alt: "\uE00A", Meta: "\uE03D",
  Home: "\uE011", End: "\uE010", ArrowLeft: "\uE012", ArrowUp: "\uE013", ArrowRight: "\uE014", ArrowDown: "\uE015",
};

// chord turns "Shift+Enter" or "a" into key actions: the modifiers down,
// the key down and up, the modifiers up.
function chord(combo) {
  const parts = combo === "+" ? ["+"] : combo.split("+");
  const values = parts.map((p) => {
    if (named[p]) return named[p];
    if ([...p].length === 1) return p;
    throw new Error(`keys: no key named ${JSON.stringify(p)}`);
  });
  const key = values.pop();
  return [
    ...values.map((value) => ({ type: "keyDown", value })),
    { type: "keyDown", value: key }, { type: "keyUp", value: key },
    ...values.reverse().map((value) => ({ type: "keyUp", value })),
  ];
}

// typing turns text into key actions, one key per character; a newline is
// the Enter key, as a person would press it.
function typing(text) {
  const actions = [];
  for (const ch of text) {
    const value = ch === "\n" ? named.Enter : ch;
    actions.push({ type: "keyDown", value }, { type: "keyUp", value });
  }
  return actions;
}

// click is the pointer actions of a left click at a point of the viewport.
function click(x, y) {
  return [
    { type: "pointerMove", x: Math.round(x), y: Math.round(y), origin: "viewport", duration: 0 },
    { type: "pointerDown", button: 0 },
    { type: "pointerUp", button: 0 },
  ];
}

module.exports = { chord, typing, click };
