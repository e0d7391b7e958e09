#!/usr/bin/env bash
# Runs every Gradbook test on a fresh Debian machine, doing its own set-up:
# the browsers from Debian (chromium; WebKitGTK's webkit2gtk-driver, with
# xvfb for its MiniBrowser; firefox-esr), the tools that build the
# matrix-product kernels (clang, lld, wabt), Jupyter with PyTorch for the
# exported notebooks (jupyter-nbconvert, python3-ipykernel, python3-torch,
# python3-matplotlib), the npm packages from the lock file, the build, the checks (go mod tidy -diff, gofmt, go vet native and
# wasm, staticcheck), the Go tests natively and under WebAssembly in Node,
# the Playwright specs in Chromium, and the cross-engine smoke suite in
# WebKit and Firefox (crossbrowser/).
set -euo pipefail
cd "$(dirname "$0")"

step() { printf '\n== %s\n' "$*"; }

# Debian's packages for each command the suites drive.
missing=()
for need in chromium:chromium WebKitWebDriver:webkit2gtk-driver Xvfb:xvfb firefox-esr:firefox-esr clang:clang wasm-ld:lld wat2wasm:wabt; do
  command -v "${need%%:*}" >/dev/null 2>&1 || missing+=("${need#*:}")
done
# Debian's Python, for the notebooks: Jupyter's kernel, PyTorch, matplotlib.
command -v jupyter-nbconvert >/dev/null 2>&1 || missing+=(jupyter-nbconvert)
for need in ipykernel:python3-ipykernel torch:python3-torch matplotlib:python3-matplotlib; do
  /usr/bin/python3 -c "import ${need%%:*}" >/dev/null 2>&1 || missing+=("${need#*:}")
done
if [ "${#missing[@]}" -gt 0 ]; then
  step "installing from Debian: ${missing[*]}"
  if [ "$(id -u)" -ne 0 ]; then echo "test.sh: ${missing[*]} missing; run as root to install them" >&2; exit 1; fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

step "npm ci"
PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund

step "the editor bundle is current (go generate ./cmd/editorbundle)"
committed="$(mktemp -d)"
cp site/editor.js site/editor-licenses.txt "$committed/"
go generate ./cmd/editorbundle
for f in editor.js editor-licenses.txt; do
  if ! cmp -s "$committed/$f" "site/$f"; then
    echo "site/$f is not what cmd/editorbundle makes from editor.js and package-lock.json: run go generate ./cmd/editorbundle and commit it"; exit 1
  fi
done

step "the matrix-product kernels are current (go generate ./wasm/kernels)"
cp wasm/kernels/kernels.wasm "$committed/"
go generate ./wasm/kernels
if ! cmp -s "$committed/kernels.wasm" wasm/kernels/kernels.wasm; then
  echo "wasm/kernels/kernels.wasm is not what wasm/kernels/gen.go makes from src/kernels.c: run go generate ./wasm/kernels and commit it"; exit 1
fi

step "gofmt"
unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './node_modules/*'))
if [ -n "$unformatted" ]; then echo "gofmt would change:"; echo "$unformatted"; exit 1; fi

step "go mod tidy -diff"
go mod tidy -diff

step "go vet (native and js/wasm)"
go vet ./...
GOOS=js GOARCH=wasm go vet ./...
go vet -tags lms ./notebook/page/                        # a SCORM package's page
GOOS=js GOARCH=wasm go vet -tags lms ./notebook/web/  # and its gradbook.wasm

step "staticcheck (native and js/wasm)"
staticcheck="$(mktemp -d)/staticcheck"
go build -o "$staticcheck" honnef.co/go/tools/cmd/staticcheck
"$staticcheck" ./...
"$staticcheck" -tags lms ./notebook/page/
GOOS=js GOARCH=wasm "$staticcheck" ./...
GOOS=js GOARCH=wasm "$staticcheck" -tags lms ./notebook/web/

step "go test (native)"
go test ./...
go test -tags lms ./notebook/page/  # a SCORM package's page with its LMS

step "go test (js/wasm, in Node)"
GOOS=js GOARCH=wasm go test -exec="$(go env GOROOT)/lib/wasm/go_js_wasm_exec" ./engine/... ./wasm/engine/... ./internal/jsvalue/ ./tensor/
# Nested data, with a browser's stack rather than the 8 MB Go's script gives Node.
GOOS=js GOARCH=wasm go test -exec="$PWD/notebook/kernel/testdata/go_js_wasm_exec" -run 'TestDeep|TestFormat' ./notebook/kernel/

step "go test (js/wasm, in Node, with the SIMD kernels)"
GOOS=js GOARCH=wasm go test -exec="$PWD/wasm/kernels/testdata/go_js_wasm_exec" ./wasm/kernels/ ./tensor/

step "lessons as Jupyter notebooks, run in Debian's Python with PyTorch (jupyter nbconvert --execute)"
# The lessons whose notebooks run in Python today, each exercise solved;
# any error or ✗ line fails. (The others need more of gradbook.py: README,
# "Gradbook and Jupyter".)
notebooks="$(mktemp -d)"
go run serve.go -ipynb "$notebooks" -solved
ran=()
for l in a-derivative-is-a-nudge chain-rule fan-out reverse-accumulation gradient-flow every-path checking-gradients neurons-and-mlp capstone-micrograd from-values-to-tensors forward-or-reverse training-on-moons gpt-from-values backprop-ninja activations-and-gradients lets-build-gpt attention-backward; do
  ran+=("$notebooks/$l.ipynb")
done
PATH="/usr/bin:$PATH" PYDEVD_DISABLE_FILE_VALIDATION=1 jupyter nbconvert --to notebook --execute --output-dir "$notebooks/ran" "${ran[@]}"
/usr/bin/python3 notebook/ipynb/testdata/outputs.py "$notebooks"/ran/*.ipynb

# The site is built by Playwright's own servers (playwright.config.js),
# and again by the cross-engine suite's: a build step of its own here
# cost a minute and checked nothing they do not.

step "Playwright in Debian's chromium"
npx playwright test

step "the cross-engine smoke suite in WebKit and Firefox"
node crossbrowser/run.js webkit firefox
