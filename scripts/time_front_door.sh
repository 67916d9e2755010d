#!/usr/bin/env bash
# time_front_door.sh [PAGE]: times the README's two commands as a new user
# meets them and writes the results page (default docs/results/FRONT_DOOR.md).
# A fresh clone of this repository's HEAD in a scratch folder, then, one
# after the other, scripts/run.sh and scripts/test.sh there, each timed whole
# and split by the "time:" line it prints. Run it with nothing else on the
# machine: it prints the load average before it starts, and the page keeps it.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
page=$(realpath -m "${1:-docs/results/FRONT_DOOR.md}")
scratch=$(mktemp -d)
# What each command printed, and ninja's logs of its builds, stay here.
logs=${GAC_FRONT_DOOR_LOGS:-/tmp/gac-front-door}
rm -rf "$logs" && mkdir -p "$logs"
keep() {
  cp "$scratch"/*.log "$logs"/ 2>/dev/null || true
  for b in build-release build-test build-test-release; do
    [ -f "$scratch/gac/$b/.ninja_log" ] && cp "$scratch/gac/$b/.ninja_log" "$logs/$b.ninja_log"
  done
  rm -rf "$scratch"
}
trap keep EXIT
load=$(cut -d' ' -f1-3 /proc/loadavg)
echo "time_front_door: load average before: $load"
git clone -q "$root" "$scratch/gac"
commit=$(git -C "$scratch/gac" rev-parse --short=12 HEAD)

# run NAME SCRIPT: runs SCRIPT in the clone; NAME.log, NAME.seconds, NAME.status.
run() {
  local start=$SECONDS status=0
  (cd "$scratch/gac" && "$2") > "$scratch/$1.log" 2>&1 || status=$?
  echo $((SECONDS - start)) > "$scratch/$1.seconds"
  echo "$status" > "$scratch/$1.status"
  echo "time_front_door: $2: $(cat "$scratch/$1.seconds") s, exit $status"
}
run main scripts/run.sh
run test scripts/test.sh

split() { grep '^time: ' "$scratch/$1.log" | tail -1 | sed 's/^time: //'; }
last() { grep -E "$2" "$scratch/$1.log" | tail -1; }
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
memory=$(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo)
debian=$(cat /etc/debian_version 2>/dev/null || echo unknown)
pocl=$(dpkg-query -W -f='${Version}' libpocl2 2>/dev/null || echo unknown)
slowest=$(grep -E '^ *[0-9]+/[0-9]+ Test +#' "$scratch/test.log" |
  sed -E 's/^ *[0-9]+\/[0-9]+ Test +#[0-9]+: ([^ ]+) \.*[^0-9]*([0-9.]+) sec$/\2 \1/' | sort -rn | head -12 |
  awk '{printf "| `%s` | %.0f |\n", $2, $1}')

cat > "$page" <<EOF
# Results: the two commands

What a new user waits for: the README's two commands in a fresh clone, on a
machine with nothing else running. Written by \`scripts/time_front_door.sh\`,
which clones the repository's HEAD into a scratch folder and runs
\`scripts/run.sh\`, then \`scripts/test.sh\`, there; run it again to refresh
this page. Each script prints the split itself (its \`time:\` line).

Machine: $(nproc) cores ($cpu), $memory, Debian $debian, PoCL $pocl.
Date: $(date -u +%Y-%m-%d). Commit: \`$commit\`. Load average before the
clone: $load. Packages: the Debian packages were installed beforehand, so the
install step only checked them (on a machine without them, \`apt-get\` adds
the time of the download and install).

| command | wall | split | last line |
|---|---:|---|---|
| \`scripts/run.sh\` | $(cat "$scratch/main.seconds") s | $(split main) | \`$(last main 'passed, [0-9]+ failed$')\` |
| \`scripts/test.sh\` | $(cat "$scratch/test.seconds") s | $(split test) | \`$(last test 'tests passed|tests failed')\` |

The slowest tests (seconds each; CTest runs as many at once as there are cores):

| test | seconds |
|---|---:|
$slowest
EOF
echo "time_front_door: wrote $page; the commands' output is in $logs"
[ "$(cat "$scratch/main.status")" = 0 ] && [ "$(cat "$scratch/test.status")" = 0 ]
