#!/usr/bin/env bash
# A big-endian module: gac-opt must read it, write it back byte-identical (in
# big-endian), print it exactly as it prints the little-endian original, and
# validate it.
#
# Usage: big_endian.sh GAC_OPT GAC_AS PYTHON3 WORKDIR INPUT TARGET_ENV
#   INPUT: a little-endian .spv, or a .spvasm assembled first with gac-as.
set -euo pipefail

if [[ $# -ne 6 ]]; then
  echo "usage: $0 GAC_OPT GAC_AS PYTHON3 WORKDIR INPUT TARGET_ENV" >&2
  exit 2
fi
gac_opt=$1 gac_as=$2 python3=$3 work=$4 input=$5 env=$6
here=$(cd "$(dirname "$0")" && pwd)
name=$(basename "$input")
mkdir -p "$work"
w=$work/$name.be

fail() {
  echo "FAIL [$name, big-endian] $*" >&2
  exit 1
}

le=$w.le.spv
case $input in
  *.spvasm) "$gac_as" "$input" -o "$le" || fail "gac-as cannot assemble it" ;;
  *) cp "$input" "$le" ;;
esac
"$python3" "$here/byteswap.py" "$le" "$w.spv"
[[ $(od -An -tx1 -N4 "$w.spv" | tr -d ' \n') == 07230203 ]] || fail "byteswap.py did not give a big-endian magic"

# Validated below, in the module's environment.
"$gac_opt" --skip-validation "$w.spv" -o "$w.out.spv" || fail "gac-opt cannot read the big-endian module"
cmp "$w.spv" "$w.out.spv" || fail "gac-opt IN -o OUT changed the big-endian binary (byte order not kept?)"

"$gac_opt" --print "$le" >"$w.le.txt"
"$gac_opt" --print "$w.spv" >"$w.txt" || fail "gac-opt --print fails on the big-endian module"
diff -u "$w.le.txt" "$w.txt" || fail "--print of the big-endian module differs from the little-endian one"
# gac-as writes little-endian: the text gives back the original.
"$gac_as" "$w.txt" -o "$w.as.spv"
cmp "$le" "$w.as.spv" || fail "gac-as of the printed big-endian module is not the little-endian original"

"$gac_opt" --validate --target-env="$env" "$w.spv" || fail "gac-opt --validate --target-env=$env rejects it"
echo "PASS [$name, big-endian]"
