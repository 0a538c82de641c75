#!/bin/sh
# Lists the C++ functions of src/ and test/ longer than N lines (default 150), longest
# first: "lines file:start-end name" (Universal Ctags gives each definition's end line;
# lambdas count in the function that holds them). CONTRIBUTING.md: no function past
# about 150 lines.
set -eu
limit=${1:-150}
cd "$(dirname "$0")/.."
ctags --languages=C++ --kinds-C++=f --fields=+ne -R -x --_xformat='%F	%n	%{end}	%N' src test |
  awk -F '\t' -v limit="$limit" '$3 != "" && $3 - $2 + 1 > limit && $4 !~ /^__anon/ {
    printf "%d %s:%d-%d %s\n", $3 - $2 + 1, $1, $2, $3, $4 }' |
  sort -rn
