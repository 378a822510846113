#!/usr/bin/env bash
# What the audit trail and signatures cost, in one run:
#   - markii run on a one-script note with an empty state directory and
#     with a 100 MB audit.jsonl beside it (the run only appends to it);
#   - markii verify on a signed 10 MB bundle, against markii render of
#     the same bundle (the floor: reading and hashing the files).
# Runs are interleaved (A B A B …) so load on the machine hits both alike;
# the medians and the ratio are printed.
#
#   bench/audit.sh            # 21 runs each
#   RUNS=41 bench/audit.sh
#
# Needs python3 and ssh-keygen (openssh-client).
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

# ms prints a command's wall time in milliseconds.
ms() { local s e; s=$(date +%s%N); "$@" >/dev/null 2>&1 || true; e=$(date +%s%N); echo $(( (e - s) / 1000000 )); }

declare -a A B V R
for i in $(seq "$RUNS"); do
	# Which of the two goes first alternates, so neither always follows
	# the 10 MB render.
	if (( i % 2 )); then
		A+=("$(ms run_in "$homeA" "$m" run "$work/note.mk.md")")
		B+=("$(ms run_in "$homeB" "$m" run "$work/note.mk.md")")
	else
		B+=("$(ms run_in "$homeB" "$m" run "$work/note.mk.md")")
		A+=("$(ms run_in "$homeA" "$m" run "$work/note.mk.md")")
	fi
	V+=("$(ms run_in "$homeC" "$m" verify "$b")")
	R+=("$(ms run_in "$homeC" "$m" render --color never "$b")")
done
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
ma=$(median "${A[@]}") mb=$(median "${B[@]}") mv=$(median "${V[@]}") mr=$(median "${R[@]}")
size=$(du -m "$homeB/state/markii/audit.jsonl" | cut -f1)
echo "markii run, one script, empty state:          ${ma} ms (median of $RUNS)"
echo "markii run, one script, ${size} MB audit.jsonl:     ${mb} ms  ratio $(python3 -c "print(f'{$mb/$ma:.3f}')")"
echo "markii verify, signed 10 MB bundle:           ${mv} ms"
echo "markii render, same bundle (floor):           ${mr} ms  ratio verify/render $(python3 -c "print(f'{$mv/$mr:.3f}')")"
