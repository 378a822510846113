#!/usr/bin/env bash
# What the audit trail and signatures cost, in one hyperfine run:
#   - markii run on a one-script note with an empty state directory and
#     with a 100 MB audit.jsonl beside it (the run only appends to it and
#     never reads it: the chain head gives it the hash to chain to);
#   - markii verify on a signed 10 MB bundle, against markii render of
#     the same bundle (the floor: reading and hashing the files).
# The median, the fastest run and the CPU time (user + system) of each,
# and their ratios, are printed: on a loaded machine the wall-clock
# figures wander and the CPU time and the fastest run say more.
#
#   bench/audit.sh            # 21 runs each
#   RUNS=41 bench/audit.sh
#
# Needs hyperfine, python3 and ssh-keygen (openssh-client).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/markii-audit.XXXXXX")"
trap 'rm -rf "$work"' EXIT
RUNS=${RUNS:-21}

(cd "$root" && go build -o "$work/markii" .)
m="$work/markii"
printf '# One\n\n```lua {name=v}\nreturn 1 + 1\n```\n\nThe value is :value[v].\n' > "$work/note.mk.md"

homeA="$work/a" homeB="$work/b" homeC="$work/c"
mkdir -p "$homeA/state/markii" "$homeB/state/markii"
python3 - "$homeB/state/markii/audit.jsonl" <<'PY'
import sys, json
rec = json.dumps({"v":1,"time":"2026-12-03T12:00:00Z","run":"old","event":"request","method":"GET",
                  "host":"api.example.org","path":"/v1/items","decision":"allowed","status":200,"prev":"0"*64})
line = (rec + "\n").encode()
with open(sys.argv[1], "wb") as f:
    n = (100 << 20) // len(line) + 1
    f.write(line * n)
PY
chmod 600 "$homeB/state/markii/audit.jsonl"

# A signed 10 MB bundle: a document, a script and 10 MB of assets.
b="$work/bundle"
mkdir -p "$b/scripts" "$b/assets"
printf '{"spec":"0.1.0","document":"note.mk.md"}' > "$b/manifest.json"
printf '# Bundle\n\n```lua {name=v src=scripts/a.lua}\n```\n' > "$b/note.mk.md"
printf 'return 2\n' > "$b/scripts/a.lua"
head -c $((10 << 20)) /dev/urandom | base64 > "$b/assets/data.txt"
ssh-keygen -q -t ed25519 -N '' -f "$work/key" -C bench
mkdir -p "$homeC/config/markii"
echo "bench@example.org $(cut -d' ' -f1,2 "$work/key.pub")" > "$homeC/config/markii/allowed_signers"

run_in() { HOME="$1" XDG_CONFIG_HOME="$1/config" XDG_STATE_HOME="$1/state" "${@:2}"; }
run_in "$homeC" "$m" sign "$b" --key "$work/key" >/dev/null
run_in "$homeC" "$m" verify "$b" >/dev/null
# Both homes have run once, so neither pays for creating its state.
run_in "$homeA" "$m" run "$work/note.mk.md" >/dev/null
run_in "$homeB" "$m" run "$work/note.mk.md" >/dev/null

# A run beside the 100 MB trail opens it write-only and never reads it
# (strace, when there is one, counts the opens that could read).
if command -v strace >/dev/null; then
	run_in "$homeB" strace -f -e trace=openat -o "$work/trace" "$m" run "$work/note.mk.md" >/dev/null 2>&1
	reads=$(grep 'audit.jsonl"' "$work/trace" | grep -vc 'O_WRONLY' || true)
	writes=$(grep 'audit.jsonl"' "$work/trace" | grep -c 'O_WRONLY' || true)
	echo "one run beside the 100 MB trail opened it ${writes} times write-only and ${reads} times readable"
fi

e() { echo env HOME="$1" XDG_CONFIG_HOME="$1/config" XDG_STATE_HOME="$1/state" "${@:2}"; }
hyperfine -N --style basic --warmup 2 --runs "$RUNS" --export-json "$work/times.json" \
	-n "run, empty state" "$(e "$homeA" "$m" run "$work/note.mk.md")" \
	-n "run, 100 MB audit.jsonl" "$(e "$homeB" "$m" run "$work/note.mk.md")" \
	-n "verify, signed 10 MB bundle" "$(e "$homeC" "$m" verify "$b")" \
	-n "render, same bundle (floor)" "$(e "$homeC" "$m" render --color never "$b")" >&2
size=$(du -m "$homeB/state/markii/audit.jsonl" | cut -f1)
python3 - "$work/times.json" "$size" <<'PY'
import json, sys
r = {x["command"]: x for x in json.load(open(sys.argv[1]))["results"]}
med = lambda n: r[n]["median"] * 1000
low = lambda n: r[n]["min"] * 1000
cpu = lambda n: (r[n]["user"] + r[n]["system"]) * 1000
a, b = "run, empty state", "run, 100 MB audit.jsonl"
v, f = "verify, signed 10 MB bundle", "render, same bundle (floor)"
print(f"{'':40} {'median':>9} {'min':>9} {'cpu':>9}")
for n in (a, b, v, f):
    print(f"{n:40} {med(n):7.1f}ms {low(n):7.1f}ms {cpu(n):7.1f}ms")
print(f"run with a {sys.argv[2]} MB trail / without: median {med(b)/med(a):.3f}, min {low(b)/low(a):.3f}, cpu {cpu(b)/cpu(a):.3f}")
print(f"verify / render of the bundle:        median {med(v)/med(f):.3f}, min {low(v)/low(f):.3f}, cpu {cpu(v)/cpu(f):.3f}")
PY
