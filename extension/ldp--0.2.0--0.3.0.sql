-- ldp 0.2.0 -> 0.3.0: the confidence intervals of the mean summaries, and the compact stored form.
\echo Use "ALTER EXTENSION ldp UPDATE TO '0.3.0'" to load this file. \quit

-- ci_lower / ci_upper keep their signatures; what they compute changed in the
-- library: Clopper-Pearson for the bit mechanisms, Student's t for the others.
COMMENT ON FUNCTION @extschema@.ci_lower(@extschema@.mean_summary, float8) IS 'Lower end of the two-sided confidence interval (default 95%): bit mechanisms (rr, onebit) map the Clopper-Pearson interval of the share of 1 reports through the decoding (coverage at least the confidence for every n); laplace and piecewise use estimate - t * std_error, Student''s t on n - 1 degrees of freedom. NULL without reports (real-valued: fewer than 2).';
COMMENT ON FUNCTION @extschema@.ci_upper(@extschema@.mean_summary, float8) IS 'Upper end of the two-sided confidence interval (default 95%): bit mechanisms (rr, onebit) map the Clopper-Pearson interval of the share of 1 reports through the decoding (coverage at least the confidence for every n); laplace and piecewise use estimate + t * std_error, Student''s t on n - 1 degrees of freedom. NULL without reports (real-valued: fewer than 2).';

-- Real-valued summaries are stored in their compact binary form (about 100 bytes
-- instead of 1.2 KB): a final function packs what the aggregates and rollup
-- return. Summaries stored by earlier versions stay readable as they are.
CREATE FUNCTION @extschema@.mean_final(@extschema@.mean_summary) RETURNS @extschema@.mean_summary
  AS 'MODULE_PATHNAME', 'ldp_mean_final' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.mean_final(@extschema@.mean_summary) IS 'Final function of ldp.laplace_mean_agg, ldp.piecewise_mean_agg and ldp.rollup(mean_summary): the summary in its stored form (real-valued mechanisms: the compact binary form).';
CREATE OR REPLACE AGGREGATE @extschema@.laplace_mean_agg(report float8, epsilon float8, max_value float8) (
  SFUNC = @extschema@.laplace_mean_trans, STYPE = @extschema@.mean_summary,
  FINALFUNC = @extschema@.mean_final, COMBINEFUNC = @extschema@.mean_combine, PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE @extschema@.piecewise_mean_agg(report float8, epsilon float8, max_value float8) (
  SFUNC = @extschema@.piecewise_mean_trans, STYPE = @extschema@.mean_summary,
  FINALFUNC = @extschema@.mean_final, COMBINEFUNC = @extschema@.mean_combine, PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE @extschema@.rollup(@extschema@.mean_summary) (
  SFUNC = @extschema@.mean_combine, STYPE = @extschema@.mean_summary,
  FINALFUNC = @extschema@.mean_final, COMBINEFUNC = @extschema@.mean_combine, PARALLEL = SAFE);
