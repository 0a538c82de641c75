# Sourced by bench/rappor_reference.sh and bench/rappor_decode_r.sh.
#
# rappor_copy SRC DEST: google/rappor's client, bin and analysis directories from SRC (a
# work tree or a git dir) into DEST (a scratch directory: never committed), with
# analysis/R/alternative.R's library(limSolve) removed (bench/rappor_decode_r.R stands
# quadprog's solve.QP in for lsei); installs Debian's R packages when missing.
rappor_copy() {
  local src="$1" dest="$2" p sudo=()
  [ "$(id -u)" = 0 ] || sudo=(sudo)
  for p in r-base-core r-cran-glmnet r-cran-quadprog; do
    [ "$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)" = installed ] ||
      "${sudo[@]}" apt-get install -y "$p"
  done
  if [ -f "$src/client/python/rappor.py" ]; then
    cp -r "$src/client" "$src/bin" "$src/analysis" "$dest/"
  else
    git --git-dir="$src" archive HEAD client bin analysis | tar -x -C "$dest"
  fi
  sed -i 's/^library(limSolve)$/# library(limSolve): stood in by lsei in bench\/rappor_decode_r.R/' \
    "$dest/analysis/R/alternative.R"
}
