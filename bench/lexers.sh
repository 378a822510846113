#!/usr/bin/env bash
# Start-up cost of syntax highlighting: markii at two commits against
# lowdown and glamour, in one run.
#
# Renders a 5 KB note with no code and the same note with one Go fence,
# at width 100 with truecolor, plus `markii --version`, with markii built
# at BASE (default HEAD~1) and at the work tree, and prints the median
# wall and CPU (user+sys) times with the ratios to lowdown and glamour.
#
#   bench/lexers.sh                 # BASE=HEAD~1, 30 runs each
#   BASE=main RUNS=50 bench/lexers.sh
#
# It needs hyperfine, lowdown and python3 (apt-get install -y hyperfine
# lowdown).
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/markii-lexers.XXXXXX")"
trap 'git -C "$root" worktree remove --force "$work/base" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT

BASE=${BASE:-HEAD~1}
RUNS=${RUNS:-30}

for tool in hyperfine lowdown python3; do
	command -v "$tool" >/dev/null 2>&1 || { echo "bench: please install $tool" >&2; exit 1; }
done

echo "building markii at $BASE and at the work tree, and the peers…" >&2
git -C "$root" worktree add --detach "$work/base" "$BASE" >/dev/null 2>&1
(cd "$work/base" && go build -o "$work/markii-base" .)
(cd "$root" && go build -o "$work/markii-new" .)
(cd "$here" && go build -o "$work/glamour" ./glamour && go build -o "$work/gen" ./gen)

# The generated note without its fenced blocks, then with one Go fence.
"$work/gen" -size 5120 | awk '/^```/ { fence = !fence; next } !fence' >"$work/nocode.md"
{
	cat "$work/nocode.md"
	printf '\n```go\nfunc sum(xs []int) int {\n\ttotal := 0\n\tfor _, x := range xs {\n\t\ttotal += x\n\t}\n\treturn total\n}\n```\n'
} >"$work/gofence.md"

cmds=()
names=()
add() { names+=("$1"); cmds+=("$2"); }
add "markii-base --version" "$work/markii-base --version"
add "markii-new --version" "$work/markii-new --version"
for note in nocode gofence; do
	add "markii-base $note" "$work/markii-base render --width 100 --color truecolor --quiet $work/$note.md"
	add "markii-new $note" "$work/markii-new render --width 100 --color truecolor --quiet $work/$note.md"
	add "lowdown $note" "lowdown -tterm --term-width=100 $work/$note.md"
	add "glamour $note" "$work/glamour $work/$note.md"
done

hyperfine -N --warmup 3 --runs "$RUNS" --export-json "$work/hf.json" "${cmds[@]}" >/dev/null 2>&1

python3 - "$work/hf.json" "${names[@]}" <<'EOF'
import json, sys, statistics
results = json.load(open(sys.argv[1]))["results"]
names = sys.argv[2:]
wall = {n: statistics.median(r["times"]) * 1000 for n, r in zip(names, results)}
cpu = {n: (r["user"] + r["system"]) * 1000 for n, r in zip(names, results)}
print(f"{'command':26} {'wall ms':>9} {'cpu ms':>8}")
for n in names:
    print(f"{n:26} {wall[n]:9.2f} {cpu[n]:8.2f}")
print()
print("ratios (wall median, cpu mean):")
b, a = "markii-base --version", "markii-new --version"
print(f"  --version new/base: wall {wall[a]/wall[b]:.2f}, cpu {cpu[a]/cpu[b]:.2f}")
for note in ("nocode", "gofence"):
    for m in ("base", "new"):
        k = f"markii-{m} {note}"
        print(f"  {k:22} /lowdown wall {wall[k]/wall['lowdown '+note]:.2f} cpu {cpu[k]/cpu['lowdown '+note]:.2f}"
              f"   /glamour wall {wall[k]/wall['glamour '+note]:.2f} cpu {cpu[k]/cpu['glamour '+note]:.2f}")
EOF
printf 'load average at the end: %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
