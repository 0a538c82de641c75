# google/rappor's analysis/R/decode.R on a counts file and a map file, under several R
# seeds (its Decode resamples with rnorm), timed inside R (not R's start-up). Used by
# bench/rappor_reference.sh and bench/rappor_decode_r.sh; not google/rappor code.
#
#   Rscript bench/rappor_decode_r.R RAPPOR PARAMS COUNTS MAP SEEDS RUNS_CSV TIME_TXT
#
# RAPPOR is a copy of google/rappor whose analysis/R/alternative.R has its
# library(limSolve) line removed: limSolve is not in Debian, and lsei (called by
# ConstrainedLinModel with type = 2 and no equality constraints, which limSolve solves
# with quadprog's solve.QP) is stood in by solve.QP on Dmat = AᵀA (plus 1e-10·max diag,
# so that colliding columns leave it positive definite), dvec = AᵀB, Amat = Gᵀ, bvec = H.
library(quadprog)
args <- commandArgs(trailingOnly = TRUE)
rappor <- args[1]
Sys.setenv(RAPPOR_REPO = paste0(rappor, "/"))
lsei <- function(A, B, G, H, type = 2) {
  A <- as.matrix(A)
  G <- as.matrix(G)
  D <- crossprod(A)
  diag(D) <- diag(D) + 1e-10 * max(diag(D))
  list(X = solve.QP(D, as.vector(crossprod(A, B)), t(G), H)$solution)
}
source(paste0(rappor, "/analysis/R/read_input.R"))
source(paste0(rappor, "/analysis/R/decode.R"))
params <- ReadParameterFile(args[2])
counts <- ReadCountsFile(args[3], params)
map <- ReadMapFile(args[4], params)$map
seeds <- seq_len(as.integer(args[5]))
runs <- NULL
elapsed <- 0
cpu <- 0
for (seed in seeds) {
  set.seed(seed)
  t0 <- proc.time()
  res <- Decode(counts, map, params, quiet = TRUE)
  t1 <- proc.time()
  elapsed <- elapsed + t1[["elapsed"]] - t0[["elapsed"]]
  cpu <- cpu + (t1[["user.self"]] + t1[["sys.self"]]) - (t0[["user.self"]] + t0[["sys.self"]])
  fit <- res$fit
  if (nrow(fit) > 0)
    runs <- rbind(runs, data.frame(seed = seed, string = fit$string, estimate = fit$estimate,
                                   std_error = fit$std_error))
}
write.csv(runs, args[6], row.names = FALSE, quote = FALSE)
writeLines(sprintf("%.4f seconds per Decode() (mean of %d, inside R; CPU %.4f s)", elapsed / length(seeds),
                   length(seeds), cpu / length(seeds)),
           args[7])
