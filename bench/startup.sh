#!/usr/bin/env bash
# Start-up of markii against a Go hello world, in one run.
#
# Times `markii --version`, a 5 KB render (width 100, truecolor) and
# `markii run` of a note with one script (the host and its script worker,
# which is the same binary started again) with markii built at BASE
# (default HEAD~1) and at the work tree, plus a Go hello world, and prints
# the median wall time, the CPU time (user+sys) and each one's ratio to the
# hello world. The goal is a 5 KB render within 6x a hello world.
#
#   bench/startup.sh                  # BASE=HEAD~1, 40 runs each
#   BASE=main RUNS=60 bench/startup.sh
#
# It needs hyperfine and python3 (apt-get install -y hyperfine).
# GODEBUG=inittrace=1 markii --version shows what each package's init costs.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/markii-startup.XXXXXX")"
trap 'git -C "$root" worktree remove --force "$work/base" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT

BASE=${BASE:-HEAD~1}
RUNS=${RUNS:-40}

for tool in hyperfine python3; do
	command -v "$tool" >/dev/null 2>&1 || { echo "bench: please install $tool" >&2; exit 1; }
done

echo "building markii at $BASE and at the work tree, and a hello world…" >&2
git -C "$root" worktree add --detach "$work/base" "$BASE" >/dev/null 2>&1
(cd "$work/base" && go build -o "$work/markii-base" .)
(cd "$root" && go build -o "$work/markii-new" .)
mkdir "$work/hello"
printf 'package main\n\nimport "fmt"\n\nfunc main() { fmt.Println("hello, world") }\n' >"$work/hello/main.go"
printf 'module hello\n\ngo 1.22\n' >"$work/hello/go.mod"
(cd "$work/hello" && go build -o "$work/hello-world" .)
(cd "$here" && go run ./gen -size 5120 >"$work/5k.md")
printf '# One script\n\n```lua {name=answer}\nreturn 6 * 7\n```\n\nThe answer is ::stat{data=answer}.\n' >"$work/one.mk.md"

# A home of its own, so the runs store values and grants nowhere else.
export HOME="$work/home" XDG_CONFIG_HOME="$work/home/config" XDG_STATE_HOME="$work/home/state"
mkdir -p "$HOME"
"$work/markii-new" run "$work/one.mk.md" >/dev/null
"$work/markii-base" run "$work/one.mk.md" >/dev/null

cmds=()
names=()
add() { names+=("$1"); cmds+=("$2"); }
add "hello world" "$work/hello-world"
for m in base new; do
	add "markii-$m --version" "$work/markii-$m --version"
	add "markii-$m render 5 KB" "$work/markii-$m render --width 100 --color truecolor $work/5k.md"
	add "markii-$m run" "$work/markii-$m run $work/one.mk.md"
done

hyperfine -N --warmup 3 --runs "$RUNS" --export-json "$work/hf.json" "${cmds[@]}" >/dev/null 2>&1

python3 - "$work/hf.json" "${names[@]}" <<'PY'
import json, sys, statistics
results = json.load(open(sys.argv[1]))["results"]
names = sys.argv[2:]
wall = {n: statistics.median(r["times"]) * 1000 for n, r in zip(names, results)}
cpu = {n: (r["user"] + r["system"]) * 1000 for n, r in zip(names, results)}
h = "hello world"
print(f"{'command':24} {'wall ms':>8} {'ratio':>6} {'cpu ms':>8} {'ratio':>6}")
for n in names:
    print(f"{n:24} {wall[n]:8.2f} {wall[n]/wall[h]:6.1f} {cpu[n]:8.2f} {cpu[n]/cpu[h]:6.1f}")
PY
printf 'load average at the end: %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
