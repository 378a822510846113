#!/usr/bin/env bash
# Benchmark markii render against its peers on generated markdown.
#
# In one run: generate realistic notes of 5 KB, 1 MB and 10 MB (plus the
# 1 MB note with one component per paragraph), render each at width 100
# with truecolor using markii, glamour v2.0.1, lowdown -tterm and
# goldmark's HTML renderer (the parse-and-print floor), then print median
# wall time, peak RSS and the markii/peer ratios.
#
#   bench/run.sh            # default: 7 runs for 5 KB, 5 for 1 MB, 3 for 10 MB
#   RUNS_SMALL=20 RUNS_MEDIUM=10 RUNS_LARGE=5 bench/run.sh
#   SKIP_GLAMOUR_LARGE=1 bench/run.sh   # glamour on 10 MB takes ~30 s a run
#
# It installs lowdown, hyperfine and GNU time with apt-get when they are
# missing.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/markii-bench.XXXXXX")"
trap 'rm -rf "$work"' EXIT

RUNS_SMALL=${RUNS_SMALL:-7}
RUNS_MEDIUM=${RUNS_MEDIUM:-5}
RUNS_LARGE=${RUNS_LARGE:-3}

# shellcheck source=lib.sh
. "$here/lib.sh"
command -v lowdown >/dev/null 2>&1 || need_apt lowdown
# hyperfine times a command without a shell in between; the shell-loop
# fallback below adds a process start to every run.
command -v hyperfine >/dev/null 2>&1 || (need_apt hyperfine) || true
[ -x /usr/bin/time ] || need_apt time

echo "building markii and the peers…" >&2
(cd "$root" && go build -o "$work/markii" .)
(cd "$here" && go build -o "$work/glamour" ./glamour && go build -o "$work/goldmarkhtml" ./goldmarkhtml && go build -o "$work/gen" ./gen)

"$work/gen" -size 5120 >"$work/5KB.md"
"$work/gen" -size 1048576 >"$work/1MB.md"
"$work/gen" -size 10485760 >"$work/10MB.md"
"$work/gen" -size 1048576 -components >"$work/1MB-components.md"

# cmd_for PEER FILE prints the command line that renders FILE with PEER.
cmd_for() {
	case "$1" in
	markii) echo "$work/markii render --width 100 --color truecolor --quiet $2" ;;
	glamour) echo "$work/glamour $2" ;;
	lowdown) echo "lowdown -tterm --term-width=100 $2" ;;
	goldmark-html) echo "$work/goldmarkhtml $2" ;;
	esac
}

# peak_rss CMD prints the peak RSS in KB of one run of CMD (the warm-up).
peak_rss() {
	/usr/bin/time -f "%M" -o "$work/rss" $1 >/dev/null 2>&1 || true
	tail -1 "$work/rss"
}

# measure CMD RUNS prints "median_ms peak_rss_kb" over RUNS timed runs.
measure() {
	local cmd="$1" runs="$2" i start end
	local times=() rss
	$cmd >/dev/null 2>&1 || { echo "fail fail"; return; }
	rss=$(peak_rss "$cmd")
	for ((i = 0; i < runs; i++)); do
		start=$(date +%s%N)
		$cmd >/dev/null 2>&1
		end=$(date +%s%N)
		times+=($(((end - start) / 1000)))
	done
	local median
	median=$(printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
	awk -v us="$median" -v rss="$rss" 'BEGIN {printf "%.1f %d\n", us/1000, rss}'
}

# hyperfine gives steadier medians when it is installed.
measure_hf() {
	local cmd="$1" runs="$2"
	local json="$work/hf.json"
	hyperfine -N --warmup 1 --runs "$runs" --export-json "$json" "$cmd" >/dev/null 2>&1 || { echo "fail fail"; return; }
	local median rss
	median=$(python3 -c 'import json,sys; print("%.1f" % (json.load(open(sys.argv[1]))["results"][0]["median"]*1000))' "$json")
	rss=$(peak_rss "$cmd")
	echo "$median $rss"
}

if command -v hyperfine >/dev/null 2>&1 && command -v python3 >/dev/null 2>&1; then
	measure=measure_hf
	echo "timing with hyperfine" >&2
else
	measure=measure
	echo "timing with a shell loop (install hyperfine for steadier figures)" >&2
fi

declare -A med rss
peers=(markii lowdown goldmark-html glamour)
sizes=(5KB 1MB 10MB 1MB-components)
for size in "${sizes[@]}"; do
	case "$size" in
	5KB) runs=$RUNS_SMALL ;;
	10MB) runs=$RUNS_LARGE ;;
	*) runs=$RUNS_MEDIUM ;;
	esac
	for peer in "${peers[@]}"; do
		if [ "$size" = 1MB-components ] && [ "$peer" != markii ]; then
			continue
		fi
		if [ "$peer" = glamour ] && [ "$size" = 10MB ]; then
			if [ "${SKIP_GLAMOUR_LARGE:-0}" = 1 ]; then continue; fi
			runs=1
		fi
		echo "  $peer on $size ($runs runs)…" >&2
		read -r m r < <($measure "$(cmd_for "$peer" "$work/$size.md")" "$runs")
		med[$peer,$size]=$m
		rss[$peer,$size]=$r
	done
done

ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" || a == "fail" || b == "fail" || b == 0) print "-"; else printf "%.2f", a / b }'
}

echo
printf 'load average at the end of the run: %s (timings are only comparable within one run)\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
printf 'input sizes: 5KB=%s 1MB=%s 10MB=%s 1MB-components=%s bytes\n' \
	"$(wc -c <"$work/5KB.md")" "$(wc -c <"$work/1MB.md")" "$(wc -c <"$work/10MB.md")" "$(wc -c <"$work/1MB-components.md")"
echo
printf '%-16s %-14s %12s %12s %14s\n' size peer "median ms" "peak RSS MB" "markii/peer"
for size in 5KB 1MB 10MB; do
	for peer in "${peers[@]}"; do
		m=${med[$peer,$size]:-}
		[ -z "$m" ] && continue
		r=${rss[$peer,$size]:-0}
		rmb=$(awk -v k="$r" 'BEGIN { if (k == "fail") print "-"; else printf "%.1f", k/1024 }')
		printf '%-16s %-14s %12s %12s %14s\n' "$size" "$peer" "$m" "$rmb" "$(ratio "${med[markii,$size]}" "$m")"
	done
done
echo
m=${med[markii,1MB-components]}
printf '1 MB with one component per paragraph: %s ms (%s MB), ratio to the plain 1 MB note: %s\n' \
	"$m" "$(awk -v k="${rss[markii,1MB-components]}" 'BEGIN { printf "%.1f", k/1024 }')" "$(ratio "$m" "${med[markii,1MB]}")"
