// The worked example, computed by the engine.
autodiff.ready.then(() => {
  const graph = [["p", "mul", ["a", "b"]], ["u", "add", ["p", "c"]], ["L", "sq", ["u"]]];
  const values = autodiff.evaluate(graph, { a: 2, b: 3, c: 1 });
  const grads = autodiff.backward(graph, values, "L");
  const body = document.querySelector("#example tbody");
  for (const name of Object.keys(values)) {
    const row = body.insertRow();
    row.dataset.name = name;
    for (const text of [name, values[name], grads[name]]) row.insertCell().textContent = String(text);
  }
  document.getElementById("engine-status").textContent = "Computed by the engine.";
}, (err) => {
  document.getElementById("engine-status").textContent = `The engine did not load: ${err.message}`;
});
