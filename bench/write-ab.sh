#!/usr/bin/env bash
# Write-path A/B on a shared machine: two servers ingest the same vigil-agent backfill AT THE
# SAME TIME, each on its own fresh data directory and fed by its own agent, so both see the
# same background load; the figure is each one's CPU seconds per million points and their
# ratio, per pair. Sequential repetitions on a machine shared with other work drift by ±30 %;
# concurrent pairs of the same binary (an A/A run) agree within about ±4 %.
#
#   bench/write-ab.sh [-r pairs] [-n hosts] [-t ticks] [-s senders] [-p profile_seconds] A B
#
# A and B are "<kind> <binary> [flags…]" with kind vigil-storage or victoriametrics, e.g.
#
#   bench/write-ab.sh "vigil-storage /tmp/vs-new" "vigil-storage .vigil/bin/vigil-storage"
#   bench/write-ab.sh "vigil-storage .vigil/bin/vigil-storage" "victoriametrics .vigil/bin/victoria-metrics"
#   bench/write-ab.sh "vigil-storage .vigil/bin/vigil-storage -ingest.visibilityInterval=0" \
#                     "vigil-storage .vigil/bin/vigil-storage"
#
# Defaults: 4 pairs, 50 hosts x 30 ticks (2.07 M points, 69,150 new series: a backfill),
# 4 senders. With -p, each server's CPU profile of the first pair is written to
# $WORK/<A|B>.pprof (vigil-storage runs with -pprof) for `go tool pprof -top -cum`.
# Needs .vigil/bin/vigil-agent (make install). Prints one line per pair, then the medians.
set -euo pipefail

reps=4 hosts=50 ticks=30 senders=4 profile=0
while getopts "r:n:t:s:p:" o; do
	case $o in
	r) reps=$OPTARG ;;
	n) hosts=$OPTARG ;;
	t) ticks=$OPTARG ;;
	s) senders=$OPTARG ;;
	p) profile=$OPTARG ;;
	*) sed -n '2,22p' "$0" >&2 && exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 2 ] || { sed -n '2,22p' "$0" >&2; exit 2; }

root=$(cd "$(dirname "$0")/.." && pwd)
agent=${VIGIL_HOME:-$root/.vigil}/bin/vigil-agent
[ -x "$agent" ] || { echo "write-ab: $agent is not built (make install)" >&2; exit 1; }
WORK=${WORK:-$(mktemp -d /tmp/write-ab.XXXXXX)}
token=$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')
points=$((hosts * 1383 * ticks))

# one <name> <pair> <spec…>: start the server, backfill it, print "<points/s> <CPU s per M points>"
one() {
	local name=$1 pair=$2 kind=$3 bin=$4
	shift 4
	local d=$WORK/$name.$pair port args=() target=() pid prof="" cpu0 cpu1 secs
	mkdir -p "$d"
	port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	args=(-httpListenAddr="127.0.0.1:$port" -storageDataPath="$d/data" -dedup.minScrapeInterval=1ms
		-search.latencyOffset=1s -retentionPeriod=100y -loggerLevel=WARN)
	case $kind in
	vigil-storage)
		printf %s "$token" >"$d/token" && chmod 600 "$d/token"
		args+=(-tenancy.internalTokenFile="$d/token" -pprof)
		target=(-target=storage -token.file="$d/token" -storage.workspace=bench)
		;;
	victoriametrics) target=(-target=vm) ;;
	*) echo "write-ab: unknown kind $kind" >&2 && return 1 ;;
	esac
	"$bin" "${args[@]}" "$@" >"$d/server.log" 2>&1 &
	pid=$!
	for _ in $(seq 100); do curl -sf "127.0.0.1:$port/health" >/dev/null && break; sleep 0.2; done
	cpu0=$(awk '{print $14 + $15}' "/proc/$pid/stat")
	if [ "$profile" -gt 0 ] && [ "$pair" = 1 ]; then
		(sleep 1 && curl -s -H "Authorization: Bearer $token" -o "$WORK/$name.pprof" \
			"127.0.0.1:$port/debug/pprof/profile?seconds=$profile") &
		prof=$!
	fi
	"$agent" -simulate="$hosts" -simulate.interval=10s "${target[@]}" -gateway.url="http://127.0.0.1:$port" \
		-buffer.path="$d/buffer" -precision=ms -simulate.backfill=$((ticks * 10 + 3600))s \
		-simulate.maxPoints="$points" -simulate.senders="$senders" -simulate.seed=1 >"$d/agent.log" 2>&1
	cpu1=$(awk '{print $14 + $15}' "/proc/$pid/stat")
	[ -z "$prof" ] || wait "$prof"
	kill "$pid" && wait "$pid" 2>/dev/null || true
	grep -q ' 0 send errors' "$d/agent.log" || echo "write-ab: $name pair $pair had send errors: $d/agent.log" >&2
	secs=$(grep -o 'in [0-9.]*s: generated' "$d/agent.log" | tail -1 | tr -dc '0-9.')
	awk -v p="$points" -v s="$secs" -v c=$((cpu1 - cpu0)) -v hz="$(getconf CLK_TCK)" \
		'BEGIN { printf "%d %.3f\n", p / s, c / hz / (p / 1e6) }'
	rm -rf "$d/data" "$d/buffer"
}

# shellcheck disable=SC2086 # A and B are word lists on purpose
for pair in $(seq "$reps"); do
	one A "$pair" $1 >"$WORK/A.out" &
	a=$!
	one B "$pair" $2 >"$WORK/B.out" &
	b=$!
	wait $a $b
	read -r apps acpu <"$WORK/A.out"
	read -r bpps bcpu <"$WORK/B.out"
	echo "pair $pair: A $apps points/s $acpu CPU s/M | B $bpps points/s $bcpu CPU s/M | CPU A/B $(awk -v a="$acpu" -v b="$bcpu" 'BEGIN { printf "%.3f", a / b }') points/s A/B $(awk -v a="$apps" -v b="$bpps" 'BEGIN { printf "%.3f", a / b }')" | tee -a "$WORK/pairs.txt"
done
median() { sort -n | awk '{ v[NR] = $1 } END { printf "%.3f", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
echo "median of $reps pairs: CPU per point A/B $(awk '{ print $(NF - 3) }' "$WORK/pairs.txt" | median)," \
	"points/s A/B $(awk '{ print $NF }' "$WORK/pairs.txt" | median) (work dir $WORK)"
