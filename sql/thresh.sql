-- THRESH streams: parameters, the epoch state machine, reports, decisions, errors.
SET extra_float_digits = 0;

-- Parameters against docs/algorithms/thresh.md#thresh-parameters written out in SQL (independent of the core):
-- n = 100000, T = 32, l = 20000, L = 40000, m = 2, eps = 8, delta = 0.1
SELECT ldp.thresh_create('daily', 100000, 32, 20000, 40000, 2, 8, 0.1);
WITH f AS (
  SELECT sqrt(2 * 100000 * ln(12 * 2 * 32 / 0.1)) AS s,
         sqrt(ln(12 * 32 / 0.1) / (2 * 100000)) AS x,
         sqrt(ln(12 * 100000 * 32 / 0.1) / (2 * 20000)) AS y)
SELECT abs(p.vote_noise - 4 * f.s / (40000 - 3 * f.s)) < 1e-12 AS a_ok,
       abs(p.estimate_noise - 2 * f.x / (f.y - f.x)) < 1e-12 AS b_ok,
       abs(p.vote_threshold - (1 / (exp(p.vote_noise) + 1) + sqrt(ln(10 * 32 / 0.1) / (2 * 100000)))) < 1e-12 AS threshold_ok,
       cardinality(p.thresholds) AS n_thresholds,
       (SELECT bool_and(abs(p.thresholds[i + 2] - 2 * (i + 1) * f.y) < 1e-12) FROM generate_series(-1, 5) i) AS taus_ok
FROM ldp.thresh_params('daily') p, f;
SELECT users, epochs, epoch_rounds, min_group_size, groups, epsilon, delta, round(vote_noise::numeric, 6) AS a,
       round(estimate_noise::numeric, 6) AS b, round(vote_threshold::numeric, 6) AS vote_threshold,
       (SELECT array_agg(round(t::numeric, 6)) FROM unnest(thresholds) t) AS thresholds
FROM ldp.thresh_params('daily');
SELECT round(a::numeric, 6) AS a, round(b::numeric, 6) AS b, max_truthful_votes, max_truthful_estimates,
       round(worst_case_loss::numeric, 4) AS worst_case_loss, round(accuracy_bound::numeric, 4) AS accuracy_bound
FROM ldp.thresh_derive(100000, 32, 20000, 40000, 2, 8, 0.1, NULL, NULL, NULL);
-- its devices run the 0.10.0 cap rule, caps eps/3: floor(8/(3a)) = 17 votes,
-- floor(8/(3b)) = 3 estimates, a worst case of 34a + 3b <= eps (thresh_params and
-- thresh_budget say the same)
SELECT p.cap_rule, p.worst_case_loss = d.worst_case_loss AS as_derived, p.worst_case_loss <= p.epsilon AS within,
       round(p.worst_case_loss::numeric, 4) AS worst_case_loss
FROM ldp.thresh_params('daily') p, ldp.thresh_derive(100000, 32, 20000, 40000, 2, 8, 0.1, NULL, NULL, NULL) d;
SELECT cap_rule FROM ldp.thresh_streams WHERE name = 'daily';
SELECT * FROM ldp.thresh_status('daily');

-- refused configurations, each naming what to change
SELECT try_sql($$SELECT ldp.thresh_create('x', 100000, 32, 20000, 4000, 2, 8, 0.1)$$);
SELECT try_sql($$SELECT ldp.thresh_create('x', 1000, 32, 20000, 500, 2, 8, 0.1)$$);
SELECT try_sql($$SELECT ldp.thresh_create('x', 100000, 32, 2000000, 40000, 2, 8, 0.1)$$);
SELECT try_sql($$SELECT ldp.thresh_create('x', 0, 32, 20000, 40000, 2, 8, 0.1)$$);
SELECT try_sql($$SELECT ldp.thresh_create('x', 100000, 0, 20000, 40000, 2, 8, 0.1)$$);
SELECT try_sql($$SELECT ldp.thresh_create('x', 100000, 32, 0, 40000, 2, 8, 0.1)$$);
SELECT try_sql($$SELECT ldp.thresh_create('x', 100000, 32, 20000, 60000, 2, 8, 0.1)$$);
SELECT try_sql($$SELECT ldp.thresh_create('x', 100000, 32, 20000, 40000, 0, 8, 0.1)$$);
SELECT try_sql($$SELECT ldp.thresh_create('x', 100000, 32, 20000, 40000, 2, 0, 0.1)$$);
SELECT try_sql($$SELECT ldp.thresh_create('x', 100000, 32, 20000, 40000, 2, 'infinity', 0.1)$$);
SELECT try_sql($$SELECT ldp.thresh_create('x', 100000, 32, 20000, 40000, 2, 8, 1)$$);
SELECT try_sql($$SELECT ldp.thresh_create('x', 100000, 32, 20000, 40000, 2, 8, 'NaN')$$);
SELECT try_sql($$SELECT ldp.thresh_create('x', 100000, 32, 20000, 40000, 2, 8, NULL)$$);
SELECT try_sql($$SELECT ldp.thresh_create('x', 100000, 32, 20000, 40000, 2, 8, 0.1, -1)$$);
SELECT try_sql($$SELECT ldp.thresh_create('x', 100000, 32, 20000, 40000, 2, 8, 0.1, NULL, 0)$$);
SELECT try_sql($$SELECT ldp.thresh_create('daily', 100000, 32, 20000, 40000, 2, 8, 0.1)$$);
SELECT try_sql($$SELECT ldp.thresh_create('', 100000, 32, 20000, 40000, 2, 8, 0.1)$$);
SELECT count(*) AS streams FROM ldp.thresh_streams;
-- overriding a and b lifts the two refusals
SELECT ldp.thresh_create('small', 10, 4, 100, 1, 1, 8, 0.1, vote_noise => 1, estimate_noise => 1);
SELECT vote_noise, estimate_noise, round(vote_threshold::numeric, 6) AS vote_threshold FROM ldp.thresh_params('small');

-- Epoch 1 of 'small' (a = b = 1, T = 4, delta = 0.1): with v votes the update rule is
-- share > 1/(e+1) + sqrt(ln(400)/(2v)); for v = 10: 0.268941 + 0.547333 = 0.816274.
SELECT ldp.thresh_submit_votes('small', 1, '{1,2,3,4,5}', '{t,t,t,t,t}');
SELECT ldp.thresh_submit_votes('small', 1, '{6,7,8,9}', '{t,t,t,f}');
SELECT ldp.thresh_submit_votes('small', 1, '{}', '{}');
-- refused whole: nothing of these batches is stored
SELECT try_sql($$SELECT ldp.thresh_submit_votes('small', 1, '{10,10}', '{t,t}')$$);
SELECT try_sql($$SELECT ldp.thresh_submit_votes('small', 1, '{10,3}', '{t,t}')$$);
SELECT try_sql($$SELECT ldp.thresh_submit_votes('small', 1, '{10,11}', '{t}')$$);
SELECT try_sql($$SELECT ldp.thresh_submit_votes('small', 1, '{10,NULL}', '{t,t}')$$);
SELECT try_sql($$SELECT ldp.thresh_submit_votes('small', 1, '{10,11}', '{t,NULL}')$$);
SELECT try_sql($$SELECT ldp.thresh_submit_votes('small', 1, '{{10,11}}', '{{t,t}}')$$);
SELECT try_sql($$SELECT ldp.thresh_submit_votes('small', 1, NULL, '{t}')$$);
SELECT try_sql($$SELECT ldp.thresh_submit_votes('small', 2, '{10}', '{t}')$$);
SELECT try_sql($$SELECT ldp.thresh_submit_votes('small', 1, '{10,11}', '{t,t}')$$);
SELECT try_sql($$SELECT ldp.thresh_submit_votes('nope', 1, '{10}', '{t}')$$);
SELECT try_sql($$SELECT ldp.thresh_submit_estimates('small', 1, '{1}', '{t}')$$);
SELECT try_sql($$CALL ldp.thresh_close_epoch('small')$$);
SELECT count(*) AS stored_votes, count(*) FILTER (WHERE vote) AS yes FROM ldp.thresh_votes v
JOIN ldp.thresh_streams s ON s.id = v.stream WHERE s.name = 'small';
SELECT * FROM ldp.thresh_status('small');
SELECT ldp.thresh_submit_votes('small', 1, '{10}', '{t}');
-- 9 yes of 10: 0.9 > 0.816274, a global update
CALL ldp.thresh_close_votes('small');
SELECT epoch, votes, vote_share, round(vote_threshold::numeric, 6) AS vote_threshold, global_update,
       estimate_reports, estimate FROM ldp.thresh_history('small');
-- a second close of the same phase is a no-op (with its epoch), an error without
CALL ldp.thresh_close_votes('small', 1);
SELECT try_sql($$CALL ldp.thresh_close_votes('small')$$);
SELECT try_sql($$SELECT ldp.thresh_submit_votes('small', 1, '{11}', '{t}')$$);
-- estimates: 6 ones of 10 → (0.6(e+1) - 1)/(e - 1) = 0.716395,
-- std_error (e+1)/(e-1)·sqrt(0.6·0.4/10) = 0.335238 (unbiased, so not clamped to [0, 1])
SELECT ldp.thresh_submit_estimates('small', 1, '{1,2,3,4,5,6,7,8,9,10}', '{t,t,t,t,t,t,f,f,f,f}');
SELECT try_sql($$SELECT ldp.thresh_submit_estimates('small', 1, '{1}', '{t}')$$);
CALL ldp.thresh_close_epoch('small');
SELECT epoch, phase, last_update_epoch, round(estimate::numeric, 6) AS estimate, round(std_error::numeric, 6) AS std_error
FROM ldp.thresh_status('small');
SELECT round(((0.6 * (exp(1) + 1) - 1) / (exp(1) - 1))::numeric, 6) AS by_hand,
       round(((exp(1) + 1) / (exp(1) - 1) * sqrt(0.6 * 0.4 / 10))::numeric, 6) AS se_by_hand;
CALL ldp.thresh_close_epoch('small', 1);

-- Epoch 2: 3 of 4 votes say "changed": 0.75 < 1/(e+1) + sqrt(ln(400)/8) = 1.134, no update;
-- the previous estimate stays published and no estimates are taken.
SELECT ldp.thresh_submit_votes('small', 2, '{1,2,3,4}', '{t,t,t,f}');
CALL ldp.thresh_close_votes('small', 2);
SELECT epoch, phase, last_update_epoch FROM ldp.thresh_status('small');
SELECT try_sql($$SELECT ldp.thresh_submit_estimates('small', 2, '{1}', '{t}')$$);
CALL ldp.thresh_close_epoch('small', 2);
-- Epoch 3 without any vote: no update. Epoch 4, the last, then the stream is finished.
CALL ldp.thresh_close_votes('small', 3);
CALL ldp.thresh_close_epoch('small', 3);
SELECT ldp.thresh_submit_votes('small', 4, '{1,2,3,4,5,6,7,8,9,10}', '{t,t,t,t,t,t,t,t,t,t}');
CALL ldp.thresh_close_votes('small', 4);
SELECT ldp.thresh_submit_estimates('small', 4, '{1,2,3,4,5,6,7,8,9,10}', '{t,t,t,t,t,t,t,t,t,f}');
CALL ldp.thresh_close_epoch('small', 4);
SELECT epoch, votes, vote_share, round(vote_threshold::numeric, 6) AS vote_threshold, global_update,
       estimate_reports, round(estimate::numeric, 6) AS estimate, round(std_error::numeric, 6) AS std_error,
       last_update_epoch
FROM ldp.thresh_history('small');
SELECT epoch, phase, last_update_epoch, round(estimate::numeric, 6) AS estimate FROM ldp.thresh_status('small');
CALL ldp.thresh_close_epoch('small', 4);
SELECT try_sql($$CALL ldp.thresh_close_votes('small')$$);
SELECT try_sql($$CALL ldp.thresh_close_epoch('small')$$);
SELECT try_sql($$SELECT ldp.thresh_submit_votes('small', 5, '{1}', '{t}')$$);
-- The cap rule (issue 27.4): a device sends a truthful vote (estimate) only if its
-- counter after it stays within eps/3, so it loses at most 2a*floor(eps/(3a)) +
-- b*floor(eps/(3b)) <= eps, and a configuration that cannot afford one truthful vote
-- and one truthful estimate is refused (22023), saying what works. Issue 27's
-- configuration at eps = 1 (0.9.0 created it, warning of a worst case of 1.408):
-- b = 0.8129 > eps/3 = 0.3333.
SELECT try_sql($$SELECT ldp.thresh_create('s', 100000, 32, 20000, 40000, 2, 1, 0.1)$$);
SELECT try_sql($$SELECT * FROM ldp.thresh_derive(100000, 32, 20000, 40000, 2, 1, 0.1, NULL, NULL, NULL)$$);
-- what it suggests works: epsilon >= 2.43857 (one estimate), or epoch_rounds <= 4887
SELECT ldp.thresh_create('s', 100000, 32, 20000, 40000, 2, 2.43857, 0.1);
SELECT cap_rule, round(estimate_noise::numeric, 6) AS b, round(worst_case_loss::numeric, 4) AS worst_case_loss,
       worst_case_loss <= epsilon AS within
FROM ldp.thresh_params('s');
SELECT ldp.thresh_drop('s');
SELECT max_truthful_votes, max_truthful_estimates, round(worst_case_loss::numeric, 4) AS worst_case_loss
FROM ldp.thresh_derive(100000, 32, 4887, 40000, 2, 1, 0.1, NULL, NULL, NULL);
SELECT try_sql($$SELECT * FROM ldp.thresh_derive(100000, 32, 4888, 40000, 2, 1, 0.1, NULL, NULL, NULL)$$);
-- a derived a too large for eps/3: the smallest min_group_size that works
SELECT try_sql($$SELECT ldp.thresh_create('x', 100000, 32, 20000, 5000, 2, 0.5, 0.1, estimate_noise => 0.1)$$);
-- given noises: a = b = eps/3 exactly affords one of each (a worst case of eps itself); a
-- hair less epsilon does not
SELECT max_truthful_votes, max_truthful_estimates, worst_case_loss FROM ldp.thresh_derive(10, 4, 100, 1, 1, 3, 0.1, 1, 1, NULL);
SELECT try_sql($$SELECT * FROM ldp.thresh_derive(10, 4, 100, 1, 1, 2.9999999, 0.1, 1, 1, NULL)$$);
SELECT try_sql($$SELECT ldp.thresh_create('loose', 10, 4, 100, 1, 1, 1, 0.1, 1, 1)$$);
SELECT count(*) AS streams FROM ldp.thresh_streams WHERE name IN ('s', 'x', 'loose');
-- thresh_budget under each rule, at issue 27's a and b: 0.9.0's (ceil) passes eps = 1
SELECT r AS cap_rule, b.max_truthful_votes, b.max_truthful_estimates, round(b.worst_case_loss::numeric, 4) AS worst_case_loss
FROM unnest('{spent_below_cap,next_within_cap}'::text[]) r,
     ldp.thresh_budget(1, 0.1486797582278275, 0.8128552531730954, r) b;
SELECT try_sql($$SELECT ldp.thresh_budget(1, 0.1, 0.1, 'paper')$$);
SELECT try_sql($$SELECT ldp.thresh_budget(1, 0, 0.1, 'next_within_cap')$$);
-- more votes than users
SELECT ldp.thresh_create('tiny', 3, 2, 100, 1, 1, 8, 0.1, 1, 1);
SELECT try_sql($$SELECT ldp.thresh_submit_votes('tiny', 1, '{1,2,3,4}', '{t,t,t,t}')$$);
SELECT try_sql($$SELECT * FROM ldp.thresh_status('nope')$$);
SELECT try_sql($$SELECT * FROM ldp.thresh_history('nope')$$);
SELECT try_sql($$SELECT * FROM ldp.thresh_params('nope')$$);
SELECT try_sql($$CALL ldp.thresh_close_votes('nope')$$);
SELECT try_sql($$SELECT ldp.thresh_drop('nope')$$);
SELECT ldp.thresh_drop('small');
SELECT ldp.thresh_drop('tiny');
SELECT (SELECT count(*) FROM ldp.thresh_votes) AS votes, (SELECT count(*) FROM ldp.thresh_estimates) AS estimates,
       (SELECT count(*) FROM ldp.thresh_epochs) AS epochs, (SELECT string_agg(name, ',') FROM ldp.thresh_streams) AS streams;

-- The kinds of stream and report are registry rows (50_thresh.sql, 61_heavythresh.sql):
-- the functions that create, submit, close and drop name no kind.
SELECT k.kind, k.derive, k.publish, k.reports, r.phase, r.report_table, r.int_columns, r.check_batch
FROM ldp.thresh_kinds k JOIN ldp.thresh_report_kinds r ON r.kind = k.reports ORDER BY 1;
SELECT p.proname FROM pg_proc p
WHERE p.pronamespace = 'ldp'::regnamespace
  AND p.proname IN ('thresh_create_stream', 'thresh_submit', '_thresh_close_votes', '_thresh_close_epoch', '_thresh_drop')
  AND p.prosrc ~ '''(bernoulli|histograms?|votes|estimates)''';
