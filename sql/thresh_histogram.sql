-- Histogram (HEAVYTHRESH) streams: parameters, votes, count-sketch reports, the published
-- oracle and its frequencies against the rules applied by hand, and every error.
SET extra_float_digits = 0;

-- Parameters: a, b and the vote threshold as for a Bernoulli stream of the same
-- configuration; tau_b = 2(b+1)·y_Phi, y_Phi = sqrt(2 ln(16wnT/delta)/(t·l)), w = t·m.
SELECT ldp.heavythresh_create('words', 4000, 16, 200000, 2000, 2, 8, 0.1, 8, 64, estimate_noise => 0.5);
WITH y AS (SELECT sqrt(2 * ln(16 * 512 * 4000 * 16 / 0.1) / (8 * 200000)) AS y)
SELECT p.kind, p.hashes, p.width, abs(p.projection_error - y.y) < 1e-12 AS y_ok,
       (SELECT bool_and(abs(p.thresholds[i + 2] - 2 * (i + 1) * y.y) < 1e-12) FROM generate_series(-1, 4) i) AS taus_ok,
       p.vote_noise = d.a AND p.vote_threshold = d.vote_threshold AS as_bernoulli, p.estimate_noise
FROM ldp.thresh_params('words') p, y,
     ldp.thresh_derive(4000, 16, 200000, 2000, 2, 8, 0.1, NULL, 0.5, NULL) d;
SELECT round(a::numeric, 6) AS a, b, round(projection_error::numeric, 6) AS projection_error, max_truthful_votes,
       max_truthful_estimates, round(worst_case_loss::numeric, 4) AS worst_case_loss
FROM ldp.heavythresh_derive(4000, 16, 200000, 2000, 2, 8, 0.1, 8, 64, estimate_noise => 0.5);
-- heavythresh_derive takes hashes and width where heavythresh_create does (issue 27.5);
-- 0.9.0's order (hashes, width last), deprecated in 0.10.0, is gone in 0.11.0: one
-- function is left, and a call in the old order that does not fit the new one is
-- refused (42883)
SELECT p.oid::regprocedure AS heavythresh_derive FROM pg_proc p
WHERE p.pronamespace = 'ldp'::regnamespace AND p.proname = 'heavythresh_derive';
SELECT try_sql($$SELECT ldp.heavythresh_derive(4000, 16, 200000, 2000, 2, 8, 0.1, NULL, 0.5, NULL, 8, 64)$$);
SELECT (ldp.heavythresh_derive(4000, 16, 200000, 2000, 2, 8, 0.1, 8, 64, 1, 1, NULL)).b;
SELECT (ldp.heavythresh_derive(4000, 16, 200000, 2000, 2, 8, 0.1, 8, 64, 1.0, 1.0, NULL)).b;
-- a Bernoulli stream's device columns are NULL
SELECT ldp.thresh_create('bits', 10, 4, 100, 10, 1, 8, 0.1, 1, 1);
SELECT kind, hashes, width, projection_error FROM ldp.thresh_params('bits');

-- refused configurations
SELECT try_sql($$SELECT ldp.heavythresh_create('x', 4000, 16, 200000, 2000, 2, 8, 0.1, 8, 48, estimate_noise => 0.5)$$);
SELECT try_sql($$SELECT ldp.heavythresh_create('x', 4000, 16, 200000, 2000, 2, 8, 0.1, 0, 64, estimate_noise => 0.5)$$);
SELECT try_sql($$SELECT ldp.heavythresh_create('x', 4000, 16, 200000, 2000, 2, 8, 0.1, 4096, 2048, estimate_noise => 0.5)$$);
SELECT try_sql($$SELECT ldp.heavythresh_create('x', 4000, 16, 200000, 2000, 2, 4000, 0.1, 8, 64, estimate_noise => 800)$$);
SELECT try_sql($$SELECT ldp.heavythresh_create('x', 4000, 16, 200000, 2000, 2, 8, 0.1, 8, 64)$$);
SELECT try_sql($$SELECT ldp.heavythresh_create('x', 4000, 16, 200000, 2000, 2, 8, 0.1, NULL, 64, estimate_noise => 0.5)$$);
SELECT try_sql($$SELECT ldp.heavythresh_create('words', 4000, 16, 200000, 2000, 2, 8, 0.1, 8, 64, estimate_noise => 0.5)$$);
SELECT try_sql($$SELECT ldp.heavythresh_derive(4000, 16, 200000, 2000, 2, 8, 0.1, 8, NULL, estimate_noise => 0.5)$$);
-- a device that cannot afford one truthful vote and one truthful report is refused (a =
-- b = 1 > eps/3), as for thresh_create (0.9.0 created it with a warning)
SELECT try_sql($$SELECT ldp.heavythresh_create('lossy', 100, 4, 100, 100, 1, 1, 0.1, 2, 16, 1, 1)$$);
SELECT try_sql($$SELECT ldp.heavythresh_derive(100, 4, 100, 100, 1, 1, 0.1, 2, 16, 1, 1)$$);
SELECT cap_rule, worst_case_loss FROM ldp.thresh_params('words');

-- A small stream: 30 users, T = 4, a = b = 1, 4 hashes of width 16. Epoch 1: every
-- user votes 1 (the top level in epoch 1), a global update; each user holds one word,
-- so its report on its projected histogram is the word's Hashtogram report
-- (ldp.hashtogram_encode, seeded).
SELECT ldp.heavythresh_create('small', 30, 4, 100, 30, 1, 8, 0.1, 4, 16, 1, 1);
CREATE TEMP TABLE held AS
SELECT u::bigint AS u, CASE WHEN u % 3 = 0 THEN 'pear' ELSE 'apple' END AS item, (ldp.hashtogram_encode(
         CASE WHEN u % 3 = 0 THEN 'pear' ELSE 'apple' END, 1, 4, 16, u)).*
FROM generate_series(1, 30) u;
SELECT ldp.thresh_submit_votes('small', 1, (SELECT array_agg(u) FROM held), (SELECT array_agg(true) FROM held));
CALL ldp.thresh_close_votes('small', 1);
SELECT epoch, phase FROM ldp.thresh_status('small');
-- estimates are for Bernoulli streams, histogram reports for histogram streams
SELECT try_sql($$SELECT ldp.thresh_submit_estimates('small', 1, '{1}', '{t}')$$);
SELECT try_sql($$SELECT ldp.thresh_submit_histograms('bits', 1, '{1}', '{0}', '{0}', '{t}')$$);
-- refused whole: out of range, shapes, NULLs, another epoch, duplicates
SELECT try_sql($$SELECT ldp.thresh_submit_histograms('small', 1, '{1}', '{4}', '{0}', '{t}')$$);
SELECT try_sql($$SELECT ldp.thresh_submit_histograms('small', 1, '{1}', '{0}', '{16}', '{t}')$$);
SELECT try_sql($$SELECT ldp.thresh_submit_histograms('small', 1, '{1}', '{-1}', '{0}', '{t}')$$);
SELECT try_sql($$SELECT ldp.thresh_submit_histograms('small', 1, '{1,2}', '{0}', '{0,1}', '{t,f}')$$);
SELECT try_sql($$SELECT ldp.thresh_submit_histograms('small', 1, '{1}', '{{0}}', '{0}', '{t}')$$);
SELECT try_sql($$SELECT ldp.thresh_submit_histograms('small', 1, '{1}', '{NULL}', '{0}', '{t}')$$);
SELECT try_sql($$SELECT ldp.thresh_submit_histograms('small', 1, '{1}', NULL, '{0}', '{t}')$$);
SELECT try_sql($$SELECT ldp.thresh_submit_histograms('small', 2, '{1}', '{0}', '{0}', '{t}')$$);
SELECT try_sql($$SELECT ldp.thresh_submit_histograms('small', 9999999999, '{1}', '{0}', '{0}', '{t}')$$);
SELECT try_sql($$SELECT ldp.thresh_submit_histograms('small', 1, '{1,1}', '{0,0}', '{0,0}', '{t,t}')$$);
SELECT try_sql($$SELECT ldp.thresh_submit_histograms('nope', 1, '{1}', '{0}', '{0}', '{t}')$$);
SELECT count(*) AS stored FROM ldp.thresh_histograms;
SELECT ldp.thresh_submit_histograms('small', 1, array_agg(u ORDER BY u), array_agg(hash_index ORDER BY u),
                                    array_agg(coefficient ORDER BY u), array_agg(report ORDER BY u))
FROM held WHERE u <= 20;
SELECT try_sql($$SELECT ldp.thresh_submit_histograms('small', 1, '{25,20}', '{0,0}', '{0,0}', '{t,t}')$$);
SELECT ldp.thresh_submit_histograms('small', 1, array_agg(u ORDER BY u), array_agg(hash_index ORDER BY u),
                                    array_agg(coefficient ORDER BY u), array_agg(report ORDER BY u))
FROM held WHERE u > 20;
SELECT epoch, phase, estimate, std_error, estimate_reports FROM ldp.thresh_status('small');
-- no oracle before the epoch is closed
SELECT ldp.thresh_summary('small', 1) IS NULL AS none_yet, count(*) AS rows_yet
FROM ldp.thresh_frequencies('small', '{apple}');
CALL ldp.thresh_close_epoch('small', 1);
-- the published oracle is the hashtogram of the submitted reports, by hand
SELECT ldp.thresh_summary('small', 1)::text = (SELECT ldp.hashtogram_agg(hash_index, coefficient, report, 1, 4, 16)::text FROM held)
  AS summary_by_hand;
SELECT ldp.report_count(ldp.thresh_summary('small', 1)) AS reports;
SELECT f.epoch, f.item, f.frequency = g.frequency AND f.count = g.count AND f.std_error = g.std_error
         AND f.ci_lower = g.ci_lower AND f.ci_upper = g.ci_upper AS as_frequencies, f.last_update_epoch
FROM ldp.thresh_frequencies('small', '{apple,pear,plum}') f
JOIN ldp.frequencies((SELECT ldp.hashtogram_agg(hash_index, coefficient, report, 1, 4, 16) FROM held),
                     '{apple,pear,plum}') g USING (item);
-- epoch 2: no vote is 1, no update; the oracle of epoch 1 stays published
SELECT ldp.thresh_submit_votes('small', 2, (SELECT array_agg(u) FROM held), (SELECT array_agg(false) FROM held));
CALL ldp.thresh_close_votes('small', 2);
SELECT try_sql($$SELECT ldp.thresh_submit_histograms('small', 2, '{1}', '{0}', '{0}', '{t}')$$);
CALL ldp.thresh_close_epoch('small', 2);
SELECT ldp.thresh_summary('small', 2)::text = ldp.thresh_summary('small', 1)::text AS same_oracle;
SELECT epoch, item, last_update_epoch FROM ldp.thresh_frequencies('small', '{apple}');
SELECT epoch, item, last_update_epoch FROM ldp.thresh_frequencies('small', '{apple,pear}', 2);
SELECT count(*) FROM ldp.thresh_frequencies('small', '{apple}', 3);
-- epoch 3: an update that receives no report keeps the previous oracle (a WARNING)
SELECT ldp.thresh_submit_votes('small', 3, (SELECT array_agg(u) FROM held), (SELECT array_agg(true) FROM held));
CALL ldp.thresh_close_votes('small', 3);
CALL ldp.thresh_close_epoch('small', 3);
SELECT epoch, global_update, estimate_reports, estimate, std_error, last_update_epoch FROM ldp.thresh_history('small');
SELECT epoch, last_update_epoch FROM ldp.thresh_frequencies('small', '{apple}', 3);
-- a Bernoulli stream has no oracle
SELECT try_sql($$SELECT ldp.thresh_summary('bits', 1)$$);
SELECT try_sql($$SELECT * FROM ldp.thresh_frequencies('bits', '{apple}')$$);
SELECT try_sql($$SELECT ldp.thresh_summary('nope', 1)$$);

-- privileges: creating is not for PUBLIC; the submit grant covers histogram reports
SELECT has_function_privilege('public', 'ldp.heavythresh_create(text, bigint, int, int, bigint, int, float8, float8, int, int, float8, float8, float8)', 'EXECUTE') AS public_creates;
CREATE ROLE regress_ldp_hist_submitter;
SET ROLE regress_ldp_hist_submitter;
SELECT try_sql($$SELECT ldp.thresh_submit_histograms('small', 4, '{1}', '{0}', '{0}', '{t}')$$);
RESET ROLE;
SELECT ldp.grant_thresh('small', 'submit', 'regress_ldp_hist_submitter');
SELECT ldp.thresh_submit_votes('small', 4, (SELECT array_agg(u) FROM held), (SELECT array_agg(true) FROM held));
CALL ldp.thresh_close_votes('small', 4);
SET ROLE regress_ldp_hist_submitter;
SELECT ldp.thresh_submit_histograms('small', 4, '{1}', '{0}', '{0}', '{t}');
SELECT count(*) AS sees_reports FROM ldp.thresh_histograms;  -- the owner's only
RESET ROLE;
SELECT ldp.revoke_thresh('small', 'submit', 'regress_ldp_hist_submitter');
DROP ROLE regress_ldp_hist_submitter;
CALL ldp.thresh_close_epoch('small', 4);
SELECT f.epoch, f.last_update_epoch, ldp.report_count(ldp.thresh_summary('small', e)) AS reports
FROM generate_series(1, 4) e, LATERAL ldp.thresh_frequencies('small', '{apple}', e) f;
SELECT epoch, phase, last_update_epoch FROM ldp.thresh_status('small');

-- dropping a stream deletes its reports
SELECT ldp.thresh_drop('small');
SELECT count(*) AS left_reports FROM ldp.thresh_histograms;
SELECT ldp.thresh_drop('words');
SELECT ldp.thresh_drop('bits');

-- A Bernoulli stream of 0.8.0 keeps working across the update to 0.9.0 (its row gets
-- kind bernoulli), in the middle of an epoch. (The earlier tests' collections and
-- streams go with the extension, as in sql/security.sql, which comes next.)
SET client_min_messages = warning;
DROP EXTENSION ldp CASCADE;
RESET client_min_messages;
CREATE EXTENSION ldp VERSION '0.8.0';
SELECT ldp.thresh_create('old', 10, 4, 100, 10, 1, 8, 0.1, 1, 1);
SELECT ldp.thresh_submit_votes('old', 1, '{1,2,3,4,5,6,7,8,9,10}', '{t,t,t,t,t,t,t,t,t,t}');
CALL ldp.thresh_close_votes('old', 1);
SELECT ldp.thresh_submit_estimates('old', 1, '{1,2,3,4,5}', '{t,t,t,f,f}');
ALTER EXTENSION ldp UPDATE TO '0.9.0';
SELECT kind, hashes, width, projection_error, estimate_noise FROM ldp.thresh_params('old');
SELECT try_sql($$SELECT ldp.thresh_submit_estimates('old', 1, '{5}', '{t}')$$);
SELECT ldp.thresh_submit_estimates('old', 1, '{6,7,8,9,10}', '{t,t,t,f,f}');
CALL ldp.thresh_close_epoch('old', 1);
SELECT epoch, phase, last_update_epoch, round(estimate::numeric, 6) AS estimate, estimate_reports
FROM ldp.thresh_status('old');
SELECT epoch, votes, global_update, estimate_reports, round(estimate::numeric, 6) AS estimate FROM ldp.thresh_history('old');
SELECT try_sql($$SELECT ldp.thresh_summary('old', 1)$$);
SELECT ldp.thresh_drop('old');
DROP EXTENSION ldp;

-- Streams of 0.9.0 keep their cap rule across the update to 0.10.0 (issue 27.4). 0.9.0
-- created issue 27's configuration at eps = 1 with a warning (worst case 1.408), and a
-- histogram stream at a = b = 1, eps = 1; 'fine9' is within its epsilon. The update's
-- WARNING names the two over their epsilon; they keep 0.9.0's rule (spent_below_cap),
-- their parameters and history, and keep working mid-epoch; a new stream of the same
-- configuration is refused.
CREATE EXTENSION ldp VERSION '0.9.0';
SELECT ldp.thresh_create('old9', 100000, 32, 20000, 40000, 2, 1, 0.1);
SELECT ldp.heavythresh_create('oldh9', 100, 4, 100, 100, 1, 1, 0.1, 2, 16, 1, 1);
SELECT ldp.thresh_create('fine9', 10, 4, 100, 10, 1, 8, 0.1, 1, 1);
SELECT ldp.thresh_submit_votes('fine9', 1, '{1,2,3,4,5,6,7,8,9,10}', '{t,t,t,t,t,t,t,t,t,t}');
CALL ldp.thresh_close_votes('fine9', 1);
SELECT ldp.thresh_submit_estimates('fine9', 1, '{1,2,3,4,5}', '{t,t,t,f,f}');
SELECT ldp.thresh_submit_votes('old9', 1, '{1,2,3}', '{t,t,f}');
CREATE TEMP TABLE before9 AS
SELECT name, vote_noise, estimate_noise, vote_threshold, thresholds, epoch, phase, votes, yes_votes FROM ldp.thresh_streams;
ALTER EXTENSION ldp UPDATE TO '0.10.0';
SELECT name, kind, cap_rule FROM ldp.thresh_streams ORDER BY name;
SELECT (SELECT count(*) FROM before9) AS streams,
       bool_and(b.* IS NOT DISTINCT FROM (SELECT x FROM (SELECT s.name, s.vote_noise, s.estimate_noise, s.vote_threshold,
         s.thresholds, s.epoch, s.phase, s.votes, s.yes_votes FROM ldp.thresh_streams s WHERE s.name = b.name) x)) AS kept
FROM before9 b;
SELECT n AS name, p.cap_rule, round(p.worst_case_loss::numeric, 4) AS worst_case_loss, p.epsilon,
       p.worst_case_loss > p.epsilon AS over
FROM unnest('{fine9,old9,oldh9}'::text[]) n, ldp.thresh_params(n) p;
SELECT ldp.thresh_submit_votes('old9', 1, '{4,5}', '{t,t}');
CALL ldp.thresh_close_votes('old9', 1);
CALL ldp.thresh_close_epoch('old9', 1);
SELECT epoch, phase, last_update_epoch FROM ldp.thresh_status('old9');
SELECT epoch, votes, vote_share, global_update FROM ldp.thresh_history('old9');
SELECT ldp.thresh_submit_estimates('fine9', 1, '{6,7,8,9,10}', '{t,t,t,f,f}');
CALL ldp.thresh_close_epoch('fine9', 1);
SELECT epoch, votes, global_update, estimate_reports, round(estimate::numeric, 6) AS estimate FROM ldp.thresh_history('fine9');
SELECT try_sql($$SELECT ldp.thresh_create('new9', 100000, 32, 20000, 40000, 2, 1, 0.1)$$);
SELECT ldp.thresh_create('new9', 100000, 32, 20000, 40000, 2, 4, 0.1);
SELECT name, cap_rule FROM ldp.thresh_streams ORDER BY name;
SET client_min_messages = warning;
DROP EXTENSION ldp CASCADE;
RESET client_min_messages;
CREATE EXTENSION ldp;
