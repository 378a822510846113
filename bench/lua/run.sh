#!/bin/sh
# Compares fib(27) in markii's curated gopher-lua state with the same
# script in wasmoon. Needs Go, Node and npm; installs wasmoon into a
# temporary directory.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$here/fib.mjs" "$tmp/"
(cd "$tmp" && npm install --silent --no-audit --no-fund wasmoon >/dev/null)
wasmoon_ms=$(cd "$tmp" && node fib.mjs)
go_ns=$(cd "$repo" && go test ./runtime/engine/ -run '^$' -bench 'Fib27Curated$' -benchtime 5x |
	awk '/^BenchmarkFib27Curated/ { print $3 }')
awk -v g="$go_ns" -v w="$wasmoon_ms" 'BEGIN {
	gm = g / 1e6
	printf "fib(27): markii curated gopher-lua %.1f ms, wasmoon %.1f ms, ratio markii/wasmoon %.2f\n", gm, w, gm / w
}'
