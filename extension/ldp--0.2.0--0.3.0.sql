-- ldp 0.2.0 -> 0.3.0: the confidence intervals of the mean summaries.
\echo Use "ALTER EXTENSION ldp UPDATE TO '0.3.0'" to load this file. \quit

-- ci_lower / ci_upper keep their signatures; what they compute changed in the
-- library: Clopper-Pearson for the bit mechanisms, Student's t for the others.
COMMENT ON FUNCTION @extschema@.ci_lower(@extschema@.mean_summary, float8) IS 'Lower end of the two-sided confidence interval (default 95%): bit mechanisms (rr, onebit) map the Clopper-Pearson interval of the share of 1 reports through the decoding (coverage at least the confidence for every n); laplace and piecewise use estimate - t * std_error, Student''s t on n - 1 degrees of freedom. NULL without reports (real-valued: fewer than 2).';
COMMENT ON FUNCTION @extschema@.ci_upper(@extschema@.mean_summary, float8) IS 'Upper end of the two-sided confidence interval (default 95%): bit mechanisms (rr, onebit) map the Clopper-Pearson interval of the share of 1 reports through the decoding (coverage at least the confidence for every n); laplace and piecewise use estimate + t * std_error, Student''s t on n - 1 degrees of freedom. NULL without reports (real-valued: fewer than 2).';
