-- Every documented error of the mean aggregates, with its SQLSTATE.
SET search_path = public, ldp;
CREATE FUNCTION pg_temp.try(query text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE query;
  RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
  RETURN SQLSTATE || ': ' || SQLERRM;
END $$;

-- bad parameters: 22023
SELECT pg_temp.try('SELECT rr_agg(true, 0)');
SELECT pg_temp.try('SELECT rr_agg(true, -1)');
SELECT pg_temp.try($$SELECT rr_agg(true, 'NaN')$$);
SELECT pg_temp.try($$SELECT rr_agg(true, 'Infinity')$$);
SELECT pg_temp.try('SELECT rr_agg(true, NULL)');
SELECT pg_temp.try('SELECT onebit_mean_agg(true, 1, 0)');
SELECT pg_temp.try('SELECT onebit_mean_agg(true, 1, -5)');
SELECT pg_temp.try($$SELECT onebit_mean_agg(true, 1, 'Infinity')$$);
SELECT pg_temp.try('SELECT onebit_mean_agg(true, 1, 10, 0.5)');
SELECT pg_temp.try('SELECT onebit_mean_agg(true, 1, 10, -0.1)');
SELECT pg_temp.try('SELECT laplace_mean_agg(1, 1, 0)');
SELECT pg_temp.try('SELECT piecewise_mean_agg(1, 0, 10)');
-- parameters that change between rows of one aggregate: 22023
SELECT pg_temp.try('SELECT rr_agg(true, i) FROM generate_series(1, 3) i');
SELECT pg_temp.try('SELECT onebit_mean_agg(true, 1, 10 * i) FROM generate_series(1, 3) i');
SELECT pg_temp.try('SELECT onebit_mean_agg(true, 1, 10, 0.1 * i) FROM generate_series(1, 3) i');
SELECT pg_temp.try('SELECT laplace_mean_agg(1, 1, 10 + i) FROM generate_series(1, 3) i');
-- merging summaries of different mechanisms or parameters: 22023
SELECT pg_temp.try($$SELECT rollup(s) FROM (VALUES ('v1:rr{epsilon=1,n=3,ones=1}'::mean_summary), ('v1:rr{epsilon=2,n=3,ones=1}')) v(s)$$);
SELECT pg_temp.try($$SELECT rollup(s) FROM (VALUES ('v1:rr{epsilon=1,n=3,ones=1}'::mean_summary), ('v1:onebit{epsilon=1,max_value=1,gamma=0,n=3,ones=1}')) v(s)$$);
SELECT pg_temp.try($$SELECT rollup(s) FROM (VALUES ('v1:onebit{epsilon=1,max_value=1,gamma=0,n=3,ones=1}'::mean_summary), ('v1:onebit{epsilon=1,max_value=2,gamma=0,n=3,ones=1}')) v(s)$$);
SELECT pg_temp.try($$SELECT rollup(s) FROM (VALUES ('v1:onebit{epsilon=1,max_value=1,gamma=0,n=3,ones=1}'::mean_summary), ('v1:onebit{epsilon=1,max_value=1,gamma=0.25,n=3,ones=1}')) v(s)$$);
-- reports that cannot come from the mechanism: 22000
SELECT pg_temp.try('SELECT piecewise_mean_agg(100, 1, 10)');
SELECT pg_temp.try('SELECT piecewise_mean_agg(-50, 1, 10)');
SELECT pg_temp.try($$SELECT piecewise_mean_agg('NaN', 1, 10)$$);
SELECT pg_temp.try($$SELECT laplace_mean_agg('Infinity', 1, 10)$$);
SELECT pg_temp.try('SELECT laplace_mean_agg(1e6, 1, 10)');
-- accessors
SELECT pg_temp.try($$SELECT ci_lower('v1:rr{epsilon=1,n=3,ones=1}', 1.5)$$);
SELECT pg_temp.try($$SELECT ci_upper('v1:rr{epsilon=1,n=3,ones=1}', 0)$$);
SELECT pg_temp.try($$SELECT error_bound('v1:rr{epsilon=1,n=3,ones=1}', 0)$$);
SELECT pg_temp.try('SELECT output_perturbation_epsilon(1, 0.5)');
SELECT pg_temp.try('SELECT output_perturbation_epsilon(-1, 0.1)');
-- encoders: values outside [0, max_value] (22003) and bad parameters (22023)
SELECT pg_temp.try('SELECT onebit_mean_encode(11, 1, 10, 1)');
SELECT pg_temp.try('SELECT laplace_mean_encode(-1, 1, 10, 1)');
SELECT pg_temp.try('SELECT piecewise_mean_encode(5, 0, 10, 1)');
SELECT pg_temp.try('SELECT rr_encode(true, -1, 1)');
SELECT pg_temp.try('SELECT onebit_mean_encode(5, 1, 10, 0.6, 1)');
-- transition functions outside an aggregate
SELECT pg_temp.try('SELECT rr_trans(NULL, true, 1)');
