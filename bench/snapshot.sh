#!/usr/bin/env bash
# Benchmark `markii snapshot` against shell loops doing the same work.
#
# In one run: generate N notes of 5 KB (default 1,000, each its own seed),
# then time three ways of rendering every note in 4 variants (width 80 and
# 120 × never and truecolor):
#   - markii snapshot --update (one process, every core);
#   - a shell loop of `markii render --width W --color L note > golden`;
#   - a shell loop of `lowdown -tterm --term-width W note > golden`
#     (lowdown has no color levels: the same 4 runs per note).
# It prints notes×variants per second for each and the ratios, and the peak
# RSS of markii snapshot on the first 100 notes and on all N.
#
#   bench/snapshot.sh            # 1,000 notes
#   NOTES=200 bench/snapshot.sh  # a quicker run
#
# It installs lowdown and GNU time with apt-get when they are missing.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/markii-snapbench.XXXXXX")"
trap 'rm -rf "$work"' EXIT
NOTES=${NOTES:-1000}

# shellcheck source=lib.sh
. "$here/lib.sh"
command -v lowdown >/dev/null 2>&1 || need_apt lowdown
[ -x /usr/bin/time ] || need_apt time

(cd "$root" && go build -o "$work/markii" .)
(cd "$here" && go build -o "$work/gen" ./gen)
mkdir -p "$work/notes" "$work/n100" "$work/render" "$work/lowdown"
for i in $(seq 1 "$NOTES"); do
	"$work/gen" -size 5120 -seed "$i" >"$work/notes/n$i.mk.md"
done
cp "$work"/notes/n{1..100}.mk.md "$work/n100/" 2>/dev/null || true
cores=$(getconf _NPROCESSORS_ONLN)
work_items=$((NOTES * 4))

now() { date +%s.%N; }
rate() { awk -v n="$1" -v t="$2" 'BEGIN { printf "%.0f", n / t }'; }

t0=$(now)
"$work/markii" snapshot --update --width 80,120 --color never,truecolor "$work/notes" >/dev/null
t1=$(now)
snap=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')

t0=$(now)
for f in "$work"/notes/*.mk.md; do
	b=$(basename "$f")
	for w in 80 120; do
		for l in never truecolor; do
			"$work/markii" render --width "$w" --color "$l" "$f" >"$work/render/$b.$w.$l"
		done
	done
done
t1=$(now)
loop=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')

t0=$(now)
for f in "$work"/notes/*.mk.md; do
	b=$(basename "$f")
	for w in 80 120; do
		for l in never truecolor; do
			lowdown -tterm --term-width "$w" "$f" >"$work/lowdown/$b.$w.$l"
		done
	done
done
t1=$(now)
low=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')

# A check exits 1 when snapshots are new or differ; only the RSS matters.
rss() { { /usr/bin/time -f %M "$work/markii" snapshot --width 80,120 --color never,truecolor "$1" 2>&1 >/dev/null || true; } | tail -1; }
rss100=$(rss "$work/n100")
rssall=$(rss "$work/notes")

echo "notes×variants per second, $NOTES notes × 4 variants, $cores cores, one run:"
printf '  markii snapshot        %8s /s  (%.2f s)\n' "$(rate "$work_items" "$snap")" "$snap"
printf '  markii render loop     %8s /s  (%.2f s)\n' "$(rate "$work_items" "$loop")" "$loop"
printf '  lowdown -tterm loop    %8s /s  (%.2f s)\n' "$(rate "$work_items" "$low")" "$low"
awk -v s="$snap" -v l="$loop" -v d="$low" 'BEGIN { printf "  snapshot vs render loop: %.1fx; vs lowdown loop: %.1fx\n", l / s, d / s }'
echo "peak RSS of markii snapshot (check): 100 notes ${rss100} KB, $NOTES notes ${rssall} KB"
