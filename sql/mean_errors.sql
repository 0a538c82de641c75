-- Every documented error of the mean aggregates, with its SQLSTATE.
SET search_path = public, ldp;

-- bad parameters: 22023
SELECT try_sql('SELECT rr_agg(true, 0)');
SELECT try_sql('SELECT rr_agg(true, -1)');
SELECT try_sql($$SELECT rr_agg(true, 'NaN')$$);
SELECT try_sql($$SELECT rr_agg(true, 'Infinity')$$);
SELECT try_sql('SELECT rr_agg(true, NULL)');
SELECT try_sql('SELECT onebit_mean_agg(true, 1, 0)');
SELECT try_sql('SELECT onebit_mean_agg(true, 1, -5)');
SELECT try_sql($$SELECT onebit_mean_agg(true, 1, 'Infinity')$$);
SELECT try_sql('SELECT onebit_mean_agg(true, 1, 10, 0.5)');
SELECT try_sql('SELECT onebit_mean_agg(true, 1, 10, -0.1)');
SELECT try_sql('SELECT laplace_mean_agg(1, 1, 0)');
SELECT try_sql('SELECT piecewise_mean_agg(1, 0, 10)');
-- parameters that change between rows of one aggregate: 22023
SELECT try_sql('SELECT rr_agg(true, i) FROM generate_series(1, 3) i');
SELECT try_sql('SELECT onebit_mean_agg(true, 1, 10 * i) FROM generate_series(1, 3) i');
SELECT try_sql('SELECT onebit_mean_agg(true, 1, 10, 0.1 * i) FROM generate_series(1, 3) i');
SELECT try_sql('SELECT laplace_mean_agg(1, 1, 10 + i) FROM generate_series(1, 3) i');
-- (also with ORDER BY in the aggregate, as a window aggregate, and in a prepared
-- statement; constant parameters skip the per-row check, other expressions do not)
SELECT try_sql('SELECT laplace_mean_agg(1, 1, 10 + i ORDER BY i) FROM generate_series(1, 3) i');
SELECT try_sql('SELECT piecewise_mean_agg(1, i, 10 ORDER BY i DESC) FROM generate_series(1, 3) i');
SELECT try_sql('SELECT rr_agg(true, i) OVER (ORDER BY i) FROM generate_series(1, 3) i');
PREPARE changing_eps(float8) AS SELECT rr_agg(true, $1 * i) FROM generate_series(1, 3) i;
SELECT try_sql('EXECUTE changing_eps(1)');
DEALLOCATE changing_eps;
-- parameters that are the same in every row without being constants are fine
SELECT report_count(laplace_mean_agg(1, e, m ORDER BY i)) FROM (SELECT i, 1.0::float8 e, 10.0::float8 m FROM generate_series(1, 3) i OFFSET 0) t;
SELECT report_count(rr_agg(true, e)) FROM (SELECT i, 0.5::float8 e FROM generate_series(1, 3) i OFFSET 0) t;
-- merging summaries of different mechanisms or parameters: 22023
SELECT try_sql($$SELECT rollup(s) FROM (VALUES ('v1:rr{epsilon=1,n=3,ones=1}'::mean_summary), ('v1:rr{epsilon=2,n=3,ones=1}')) v(s)$$);
SELECT try_sql($$SELECT rollup(s) FROM (VALUES ('v1:rr{epsilon=1,n=3,ones=1}'::mean_summary), ('v1:onebit{epsilon=1,max_value=1,gamma=0,n=3,ones=1}')) v(s)$$);
SELECT try_sql($$SELECT rollup(s) FROM (VALUES ('v1:onebit{epsilon=1,max_value=1,gamma=0,n=3,ones=1}'::mean_summary), ('v1:onebit{epsilon=1,max_value=2,gamma=0,n=3,ones=1}')) v(s)$$);
SELECT try_sql($$SELECT rollup(s) FROM (VALUES ('v1:onebit{epsilon=1,max_value=1,gamma=0,n=3,ones=1}'::mean_summary), ('v1:onebit{epsilon=1,max_value=1,gamma=0.25,n=3,ones=1}')) v(s)$$);
-- reports that cannot come from the mechanism: 22000
SELECT try_sql('SELECT piecewise_mean_agg(100, 1, 10)');
SELECT try_sql('SELECT piecewise_mean_agg(-50, 1, 10)');
SELECT try_sql($$SELECT piecewise_mean_agg('NaN', 1, 10)$$);
SELECT try_sql($$SELECT laplace_mean_agg('Infinity', 1, 10)$$);
SELECT try_sql('SELECT laplace_mean_agg(1e6, 1, 10)');
-- accessors
SELECT try_sql($$SELECT ci_lower('v1:rr{epsilon=1,n=3,ones=1}', 1.5)$$);
SELECT try_sql($$SELECT ci_upper('v1:rr{epsilon=1,n=3,ones=1}', 0)$$);
SELECT try_sql($$SELECT error_bound('v1:rr{epsilon=1,n=3,ones=1}', 0)$$);
SELECT try_sql('SELECT output_perturbation_epsilon(1, 0.5)');
SELECT try_sql('SELECT output_perturbation_epsilon(-1, 0.1)');
-- encoders: values outside [0, max_value] (22003) and bad parameters (22023)
SELECT try_sql('SELECT onebit_mean_encode(11, 1, 10, 1)');
SELECT try_sql('SELECT laplace_mean_encode(-1, 1, 10, 1)');
SELECT try_sql('SELECT piecewise_mean_encode(5, 0, 10, 1)');
SELECT try_sql('SELECT rr_encode(true, -1, 1)');
SELECT try_sql('SELECT onebit_mean_encode(5, 1, 10, 0.6, 1)');
-- transition functions outside an aggregate
SELECT try_sql('SELECT rr_trans(NULL, true, 1)');
