#!/usr/bin/env bash
# Runs every Gradbook test on a fresh Debian machine, doing its own set-up:
# Debian's chromium, the npm packages from the lock file, the build, the
# checks (go mod tidy -diff, gofmt, go vet native and wasm, staticcheck), the Go tests natively
# and under WebAssembly in Node, and the Playwright specs in Chromium.
set -euo pipefail
cd "$(dirname "$0")"

step() { printf '\n== %s\n' "$*"; }

if ! command -v chromium >/dev/null 2>&1; then
  step "installing Debian's chromium"
  if [ "$(id -u)" -ne 0 ]; then echo "test.sh: chromium is missing; run as root to install it" >&2; exit 1; fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
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

step "gofmt"
unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './node_modules/*'))
if [ -n "$unformatted" ]; then echo "gofmt would change:"; echo "$unformatted"; exit 1; fi

step "go mod tidy -diff"
go mod tidy -diff

step "go vet (native and js/wasm)"
go vet ./...
GOOS=js GOARCH=wasm go vet ./...
GOOS=js GOARCH=wasm go vet -tags lms ./notebook/web/  # a SCORM package's gradbook.wasm

step "staticcheck (native and js/wasm)"
staticcheck="$(mktemp -d)/staticcheck"
go build -o "$staticcheck" honnef.co/go/tools/cmd/staticcheck
"$staticcheck" ./...
GOOS=js GOARCH=wasm "$staticcheck" ./...
GOOS=js GOARCH=wasm "$staticcheck" -tags lms ./notebook/web/

step "go test (native)"
go test ./...

step "go test (js/wasm, in Node)"
GOOS=js GOARCH=wasm go test -exec="$(go env GOROOT)/lib/wasm/go_js_wasm_exec" ./engine/... ./cmd/engine/... ./internal/jsvalue/ ./tensor/

step "build the site"
go run serve.go -build

step "Playwright in Debian's chromium"
npx playwright test
