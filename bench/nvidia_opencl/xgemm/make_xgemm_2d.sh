#!/usr/bin/env bash
# make_xgemm_2d.sh XGEMM_CL OUT: CLBlast's Xgemm with its tile loads as 2D
# copies (copies_2d.h): the header in front, and GlobalToLocalA/B's two call
# sites in XgemmBody calling GAC_COPY_A/B instead. Fails if either call
# site is not found, so that a changed xgemm.cl cannot give a silent copy.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
in=$1 out=$2
a='GlobalToLocalA(agm, alm, kSizeM, tid, kwg);'
b='GlobalToLocalB(bgm, blm, kSizeN, tid, kwg);'
[ "$(grep -cF "$a" "$in")" = 1 ] && [ "$(grep -cF "$b" "$in")" = 1 ] ||
  { echo "make_xgemm_2d.sh: the tile loads of $in are not where they were" >&2; exit 1; }
{ cat "$here/copies_2d.h"; sed -e "s/$a/GAC_COPY_A(agm, alm, kSizeM, kwg);/" -e "s/$b/GAC_COPY_B(bgm, blm, kSizeN, kwg);/" "$in"; } > "$out.tmp"
mv "$out.tmp" "$out"
