------------------------------------------------------------------------------
-- Closing a collection's epochs (docs/collections.md#closing-epochs): what is closed is
-- a set of epochs kept in the catalog (collection_catalog.closed); an epoch with
-- reports also gets a row of ldp.collection_epochs, an epoch without none. Nothing
-- closed is ever replaced by a summary of fewer reports unless asked (accept_fewer);
-- close_due_epochs closes the due epochs nearest now first, skips a run of empty
-- epochs in one probe of the source, and works in chunks of a bounded number of
-- epochs that it commits one by one (src/pg/collections/close_due.cpp). The time is
-- ldp.collection_clock(): now(), moved by the superuser-only setting
-- ldp.clock_offset (a testing aid). A clock that ran ahead shows itself as a close
-- later than now: what it closed that has not ended is open again, and what it
-- stored is closed again once it has ended.
------------------------------------------------------------------------------

ALTER TABLE @extschema@.collection_catalog
  ADD COLUMN closed pg_catalog.int8multirange NOT NULL DEFAULT '{}',
  ADD COLUMN last_close_at timestamptz;
COMMENT ON COLUMN @extschema@.collection_catalog.closed IS 'The closed epochs (with or without reports); those with reports have a row of ldp.collection_epochs.';
COMMENT ON COLUMN @extschema@.collection_catalog.last_close_at IS 'The latest time a close of this collection ran at (by ldp.collection_clock): a later one than now means the clock ran ahead.';

CREATE FUNCTION @extschema@.collection_clock() RETURNS timestamptz
  AS 'MODULE_PATHNAME', 'ldp_collection_clock' LANGUAGE C STABLE PARALLEL SAFE;
REVOKE ALL ON FUNCTION @extschema@.collection_clock() FROM PUBLIC;
COMMENT ON FUNCTION @extschema@.collection_clock() IS 'Internal: the time the collections'' closes go by: now() plus the superuser-only setting ldp.clock_offset (seconds; 0 but in tests).';

-- The end of an epoch (the start of the next), or 22023 naming the epoch itself.
CREATE FUNCTION @extschema@.collection_checked_end(c @extschema@.collections, epoch bigint) RETURNS timestamptz
  LANGUAGE plpgsql STABLE STRICT SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  RETURN @extschema@.collection_epoch_start(c, epoch + 1);
EXCEPTION WHEN datetime_field_overflow OR numeric_value_out_of_range THEN
  RAISE EXCEPTION 'epoch % of collection "%" is outside the range of timestamps', epoch, c.name
    USING ERRCODE = 'invalid_parameter_value';
END $$;
REVOKE ALL ON FUNCTION @extschema@.collection_checked_end(@extschema@.collections, bigint) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@.collection_checked_end(@extschema@.collections, bigint) IS 'Internal: the instant an epoch of a collection row ends, or error 22023 naming the epoch when that is not a representable time.';

-- The collection's summary call still runs on its source, as its owner, and returns
-- its kind's type: checked by planning it over no row (nothing of the source is
-- read). A column renamed, dropped or retyped fails here with the collection named.
CREATE FUNCTION @extschema@.collection_check_call(c @extschema@.collections) RETURNS void
  LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  source text := @extschema@.collection_source(c);
  got regtype;
  state text;
  msg text;
BEGIN
  BEGIN
    SELECT r.t INTO got
    FROM @extschema@._as_role(c.owner, pg_catalog.format('SELECT pg_catalog.pg_typeof((%s' || pg_catalog.chr(10) || ')) FROM %s WHERE false',
                                                         c.summary, source), NULL, NULL) AS r(t regtype);
  EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE, msg = MESSAGE_TEXT;
    RAISE EXCEPTION 'the summary of collection "%" does not run on %: %', c.name, source, msg
      USING ERRCODE = state, DETAIL = pg_catalog.format('Its summary is %s.', c.summary),
            HINT = 'Restore what changed in the source (a column renamed, dropped or of another type), or point the collection at a source it runs on with ldp.alter_collection_source.';
  END;
  IF got IS DISTINCT FROM @extschema@.collection_summary_type(c)::regtype THEN
    RAISE EXCEPTION 'the summary of collection "%" now returns %, not % (a column it reads changed type)', c.name, got,
                    @extschema@.collection_summary_type(c)
      USING ERRCODE = 'datatype_mismatch', DETAIL = pg_catalog.format('Its summary is %s.', c.summary),
            HINT = 'Change the column of the source back, or point the collection at a source where it returns its kind with ldp.alter_collection_source.';
  END IF;
END $$;
REVOKE ALL ON FUNCTION @extschema@.collection_check_call(@extschema@.collections) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@.collection_check_call(@extschema@.collections) IS 'Internal: checks that a collection''s summary call still plans on its source as its owner and returns its kind''s type; else an error naming the collection.';

-- Stores the summaries of epochs lo..hi of c with one scan of the source (run as the
-- collection's owner): an epoch with reports gets a row, or its row is replaced if
-- the source holds at least as many reports for it as the row counted. Fewer ('the
-- source lost rows since the close'): mode 'refuse' raises 55000, 'accept' replaces
-- (or deletes the row when none are left), 'keep' keeps the row with a WARNING.
-- Returns the number of rows written.
CREATE FUNCTION @extschema@.collection_close_range(c @extschema@.collections, lo bigint, hi bigint, mode text)
  RETURNS bigint LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  at timestamptz := @extschema@.collection_clock();
  written bigint;
  fewer bigint[];
  f bigint[];
BEGIN
  PERFORM @extschema@.collection_check_call(c);
  EXECUTE pg_catalog.format(
    'WITH r AS MATERIALIZED ('
    '  SELECT @extschema@.collection_epoch_of($4, r.bin) AS e, r.n, r.s::@extschema@.summary AS s'
    '  FROM @extschema@._as_role($5, $6, $1, $2) AS r(bin timestamptz, n bigint, s %s) WHERE r.n > 0),'
    ' old AS (SELECT ce.epoch, ce.reports FROM @extschema@.collection_epochs ce'
    '         WHERE ce.collection = $3 AND ce.epoch BETWEEN $7 AND $8),'
    ' up AS (INSERT INTO @extschema@.collection_epochs AS ce (collection, epoch, epoch_start, reports, closed_at, summary)'
    '        SELECT $3, r.e, @extschema@.collection_epoch_start($4, r.e), r.n, $9, r.s FROM r'
    '        ON CONFLICT (collection, epoch) DO UPDATE'
    '          SET reports = excluded.reports, summary = excluded.summary, closed_at = excluded.closed_at'
    '          WHERE ce.reports <= excluded.reports OR $10'
    '        RETURNING ce.epoch)'
    ' SELECT (SELECT pg_catalog.count(*) FROM up),'
    '        (SELECT pg_catalog.array_agg(ARRAY[o.epoch, o.reports, coalesce(r.n, 0)] ORDER BY o.epoch)'
    '         FROM old o LEFT JOIN r ON r.e = o.epoch'
    '         WHERE coalesce(r.n, 0) < o.reports AND o.epoch NOT IN (SELECT u.epoch FROM up u))',
    @extschema@.collection_summary_type(c))
  INTO written, fewer
  USING @extschema@.collection_checked_start(c, lo), @extschema@.collection_checked_end(c, hi),
        c.name, c, c.owner, @extschema@.collection_scan(c, true, lo < hi), lo, hi, at, mode = 'accept';
  IF fewer IS NULL THEN
    RETURN written;
  END IF;
  FOREACH f SLICE 1 IN ARRAY fewer LOOP
    IF mode = 'refuse' THEN
      RAISE EXCEPTION 'epoch % of collection "%" keeps its summary of % reports: the source now holds % for it', f[1], c.name, f[2], f[3]
        USING ERRCODE = 'object_not_in_prerequisite_state',
              DETAIL = 'Rows were deleted from the source since the epoch was closed; a refresh never replaces a summary by one of fewer reports unless asked.',
              HINT = pg_catalog.format('Keep it (do nothing), or CALL ldp.close_epoch(%L, %s, refresh => true, accept_fewer => true) to replace it by the source''s %s reports.',
                                       c.name, f[1], f[3]);
    ELSIF mode = 'accept' THEN  -- no report left for it: the epoch is closed empty
      DELETE FROM @extschema@.collection_epochs ce WHERE ce.collection = c.name AND ce.epoch = f[1];
      written := written + 1;
    ELSE
      UPDATE @extschema@.collection_epochs ce SET closed_at = at WHERE ce.collection = c.name AND ce.epoch = f[1];
      RAISE WARNING 'collection "%": epoch % keeps its summary of % reports; the source now holds % for it', c.name, f[1], f[2], f[3]
        USING DETAIL = 'Rows were deleted from the source since the epoch was closed.',
              HINT = pg_catalog.format('CALL ldp.close_epoch(%L, %s, refresh => true, accept_fewer => true) replaces it by the source''s %s reports.',
                                       c.name, f[1], f[3]);
    END IF;
  END LOOP;
  RETURN written;
END $$;
REVOKE ALL ON FUNCTION @extschema@.collection_close_range(@extschema@.collections, bigint, bigint, text) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@.collection_close_range(@extschema@.collections, bigint, bigint, text) IS 'Internal: stores the summaries of the epochs lo..hi of a collection that have reports in one scan of its source, never replacing a stored summary by one of fewer reports but in mode accept (refuse: error 55000; keep: a WARNING).';

-- Marks epochs closed and records the close's time.
CREATE FUNCTION @extschema@.collection_mark_closed(c @extschema@.collections, epochs pg_catalog.int8multirange)
  RETURNS void LANGUAGE sql SET search_path = pg_catalog, pg_temp AS $$
  UPDATE @extschema@.collection_catalog d
  SET closed = d.closed + epochs,
      last_close_at = greatest(d.last_close_at, @extschema@.collection_clock())
  WHERE d.name = c.name $$;
REVOKE ALL ON FUNCTION @extschema@.collection_mark_closed(@extschema@.collections, pg_catalog.int8multirange) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@.collection_mark_closed(@extschema@.collections, pg_catalog.int8multirange) IS 'Internal: adds epochs to a collection''s closed set and records the time of the close.';

-- The closed set as the next close will see it: a clock that ran ahead (a close later
-- than now) may have closed epochs that have not ended, and stored epochs before they
-- ended; both are open again (the stored rows stay, and are closed again once ended).
CREATE FUNCTION @extschema@.collection_closed_now(c @extschema@.collections) RETURNS pg_catalog.int8multirange
  LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp AS $$
  SELECT CASE WHEN d.last_close_at IS NULL OR d.last_close_at <= @extschema@.collection_clock() THEN d.closed
              ELSE d.closed
                   - pg_catalog.int8multirange(pg_catalog.int8range(@extschema@.collection_epoch_of(c, @extschema@.collection_clock()), NULL))
                   - coalesce((SELECT pg_catalog.range_agg(pg_catalog.int8range(ce.epoch, ce.epoch, '[]'))
                               FROM @extschema@.collection_epochs ce
                               WHERE ce.collection = c.name AND ce.closed_at > @extschema@.collection_clock()), '{}')
         END
  FROM @extschema@.collection_catalog d WHERE d.name = c.name $$;
REVOKE ALL ON FUNCTION @extschema@.collection_closed_now(@extschema@.collections) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@.collection_closed_now(@extschema@.collections) IS 'Internal: a collection''s closed epochs less those a clock that ran ahead closed before they ended (not ended now, or stored with a closed_at later than now).';

-- The newest due work: the highest run [a, b] of ended epochs that are not closed,
-- from epoch 0 (starts_at) or the lowest closed epoch on, and the newest epoch in it
-- that has reports or a stored row (newest; NULL for none). A run below every closed
-- epoch (or with nothing closed) is work only when it holds reports.
CREATE FUNCTION @extschema@.collection_due_work(c @extschema@.collections, closed pg_catalog.int8multirange,
                                                OUT a bigint, OUT b bigint, OUT newest bigint, OUT bottom boolean)
  LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  last_due bigint := @extschema@.collection_epoch_of(c, @extschema@.collection_clock()) - 1;
  open_runs pg_catalog.int8multirange;
  run pg_catalog.int8range;
  t timestamptz;
BEGIN
  IF last_due < least(0, pg_catalog.lower(closed)) THEN
    RETURN;
  END IF;
  open_runs := pg_catalog.int8multirange(pg_catalog.int8range(least(0, pg_catalog.lower(closed)), last_due, '[]')) - closed;
  IF pg_catalog.isempty(open_runs) THEN
    RETURN;
  END IF;
  SELECT r INTO run FROM pg_catalog.unnest(open_runs) AS r ORDER BY pg_catalog.lower(r) DESC LIMIT 1;
  a := pg_catalog.lower(run);
  b := pg_catalog.upper(run) - 1;
  bottom := pg_catalog.isempty(closed) OR pg_catalog.lower(closed) > b;
  SELECT r.t INTO t
  FROM @extschema@._as_role(c.owner, pg_catalog.format('SELECT pg_catalog.max(%I) FROM %s WHERE %I >= $1 AND %I < $2',
                                                       c.time_column, @extschema@.collection_source(c), c.time_column, c.time_column),
                            @extschema@.collection_checked_start(c, a), @extschema@.collection_checked_end(c, b)) AS r(t timestamptz);
  newest := greatest(@extschema@.collection_epoch_of(c, t),
                     (SELECT pg_catalog.max(ce.epoch) FROM @extschema@.collection_epochs ce
                      WHERE ce.collection = c.name AND ce.epoch BETWEEN a AND b));
END $$;
REVOKE ALL ON FUNCTION @extschema@.collection_due_work(@extschema@.collections, pg_catalog.int8multirange) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@.collection_due_work(@extschema@.collections, pg_catalog.int8multirange) IS 'Internal: the newest run of ended epochs that are not closed, and its newest epoch with reports or a stored row (one probe of the source).';

------------------------------------------------------------------------------
-- The API: privileged twins (ldp_privileged) but close_due_epochs's chunks, which
-- close_due.cpp runs as the catalog's owner.
------------------------------------------------------------------------------

CREATE FUNCTION @extschema@._close_epoch(caller regrole, name text, epoch bigint, refresh boolean, accept_fewer boolean)
  RETURNS void LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  c @extschema@.collections;
  ends timestamptz;
BEGIN
  IF name IS NULL OR epoch IS NULL OR refresh IS NULL OR accept_fewer IS NULL THEN
    RAISE EXCEPTION 'close_epoch needs a name, an epoch, refresh and accept_fewer' USING ERRCODE = 'null_value_not_allowed';
  END IF;
  c := @extschema@.collection_for(caller, name, 'UPDATE');  -- concurrent closers wait here
  PERFORM @extschema@.collection_checked_start(c, epoch);
  ends := @extschema@.collection_checked_end(c, epoch);
  IF ends > @extschema@.collection_clock() THEN
    RAISE EXCEPTION 'epoch % of collection "%" has not ended yet (it ends at %)', epoch, name, ends
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF @extschema@.collection_closed_now(c) @> epoch AND NOT refresh THEN
    RETURN;  -- closed: left as it is
  END IF;
  PERFORM @extschema@.collection_close_range(c, epoch, epoch, CASE WHEN accept_fewer THEN 'accept' ELSE 'refuse' END);
  PERFORM @extschema@.collection_mark_closed(c, pg_catalog.int8multirange(pg_catalog.int8range(epoch, epoch, '[]')));
END $$;
REVOKE ALL ON FUNCTION @extschema@._close_epoch(regrole, text, bigint, boolean, boolean) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@._close_epoch(regrole, text, bigint, boolean, boolean) IS 'Internal: ldp.close_epoch run as the catalog''s owner for the calling role.';
CREATE PROCEDURE @extschema@.close_epoch(name text, epoch bigint, refresh boolean DEFAULT false, accept_fewer boolean DEFAULT false)
  AS 'MODULE_PATHNAME', 'ldp_privileged' LANGUAGE C;
COMMENT ON PROCEDURE @extschema@.close_epoch(text, bigint, boolean, boolean) IS 'Closes an ended epoch: stores its summary and report count (an epoch without reports is closed without a row). A closed epoch is left as it is unless refresh, which recomputes it to take in late reports, but never replaces its summary by one of fewer reports (rows deleted since the close: error 55000) unless accept_fewer. Needs the close privilege; the query runs as the collection''s owner.';

-- One chunk of close_due_epochs: the newest due work, at most `epochs` epochs with
-- reports (fewer when the stored summaries are large: about 32 MiB of them).
CREATE FUNCTION @extschema@._close_due_chunk(caller regrole, name text, epochs integer,
                                             OUT stored bigint, OUT more boolean, OUT first_epoch bigint, OUT last_epoch bigint)
  LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  c @extschema@.collections;
  now_closed pg_catalog.int8multirange;
  w record;
  size bigint;
  k bigint;
BEGIN
  IF name IS NULL THEN
    RAISE EXCEPTION 'close_due_epochs needs a collection name' USING ERRCODE = 'null_value_not_allowed';
  END IF;
  IF epochs IS NULL OR epochs < 1 THEN
    RAISE EXCEPTION 'a chunk of close_due_epochs closes at least one epoch, not %', epochs USING ERRCODE = 'invalid_parameter_value';
  END IF;
  c := @extschema@.collection_for(caller, name, 'UPDATE');  -- concurrent closers wait here
  PERFORM @extschema@.collection_source(c);  -- the definition still holds, even with nothing due
  stored := 0;
  more := false;
  -- a clock that ran ahead: what it closed too early is open from now on
  now_closed := @extschema@.collection_closed_now(c);
  UPDATE @extschema@.collection_catalog d SET closed = now_closed, last_close_at = @extschema@.collection_clock()
  WHERE d.name = c.name AND d.last_close_at > @extschema@.collection_clock();
  w := @extschema@.collection_due_work(c, now_closed);
  IF w.a IS NULL OR (w.newest IS NULL AND w.bottom) THEN
    RETURN;  -- nothing due
  END IF;
  first_epoch := w.a;
  IF w.newest IS NOT NULL THEN
    SELECT pg_catalog.octet_length(@extschema@.summary_send(x.summary)) INTO size  -- one detoasted
    FROM (SELECT ce.summary FROM @extschema@.collection_epochs ce WHERE ce.collection = c.name AND ce.summary IS NOT NULL
          ORDER BY ce.epoch DESC LIMIT 1) x;
    k := CASE WHEN size IS NULL THEN 1 ELSE least(epochs, greatest(1, 33554432 / size)) END;
    first_epoch := greatest(w.a, w.newest - k + 1);
    stored := @extschema@.collection_close_range(c, first_epoch, w.b, 'keep');
    IF w.bottom THEN  -- below every closed epoch, closed from the oldest with reports on
      first_epoch := coalesce((SELECT pg_catalog.min(ce.epoch) FROM @extschema@.collection_epochs ce
                               WHERE ce.collection = c.name AND ce.epoch BETWEEN first_epoch AND w.b), w.newest);
    END IF;
  END IF;
  last_epoch := w.b;
  PERFORM @extschema@.collection_mark_closed(c, pg_catalog.int8multirange(pg_catalog.int8range(first_epoch, last_epoch, '[]')));
  more := true;
END $$;
REVOKE ALL ON FUNCTION @extschema@._close_due_chunk(regrole, text, integer) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@._close_due_chunk(regrole, text, integer) IS 'Internal: one chunk of ldp.close_due_epochs, run as the catalog''s owner for the calling role: the newest run of due epochs that are not closed, closed down to its epochs epochs with reports (an empty run at once). more: call again.';
CREATE OR REPLACE PROCEDURE @extschema@.close_due_epochs(name text)
  AS 'MODULE_PATHNAME', 'ldp_close_due_epochs' LANGUAGE C;
COMMENT ON PROCEDURE @extschema@.close_due_epochs(text) IS 'Closes the ended epochs not closed yet, newest first: from the first report''s epoch (not before starts_at) or the first closed one on. Epochs without reports are closed without a row, a run of them at once. Works in chunks, each committed when the CALL is not inside a transaction block, for about half of statement_timeout (60 s without one); a NOTICE says when more are due. What pg_cron runs. Needs the close privilege; the query runs as the collection''s owner.';

CREATE FUNCTION @extschema@._late_reports(caller regrole, name text)
  RETURNS TABLE(epoch bigint, counted bigint, present bigint, late bigint, deleted bigint, status text)
  LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  c @extschema@.collections := @extschema@.collection_for(caller, name, 'SELECT');
  closed pg_catalog.int8multirange := @extschema@.collection_closed_now(c);
  at timestamptz := @extschema@.collection_clock();
  lo bigint;
  hi bigint;
BEGIN
  SELECT least(pg_catalog.min(ce.epoch), pg_catalog.lower(closed)), greatest(pg_catalog.max(ce.epoch), pg_catalog.upper(closed) - 1)
    INTO lo, hi
  FROM @extschema@.collection_epochs ce WHERE ce.collection = c.name;
  IF lo IS NULL THEN
    RETURN;
  END IF;
  RETURN QUERY
    SELECT coalesce(s.epoch, p.e), coalesce(s.reports, 0), coalesce(p.n, 0),
           greatest(coalesce(p.n, 0) - coalesce(s.reports, 0), 0), greatest(coalesce(s.reports, 0) - coalesce(p.n, 0), 0),
           CASE WHEN s.epoch IS NOT NULL AND (s.closed_at > at OR NOT closed @> s.epoch) THEN 'closed early'
                WHEN coalesce(p.n, 0) > coalesce(s.reports, 0) THEN 'late'
                WHEN coalesce(p.n, 0) < coalesce(s.reports, 0) THEN 'deleted'
                ELSE 'unchanged' END
    FROM (SELECT ce.epoch, ce.reports, ce.closed_at FROM @extschema@.collection_epochs ce WHERE ce.collection = c.name) s
    FULL JOIN (SELECT @extschema@.collection_epoch_of(c, r.bin) AS e, r.n
               FROM @extschema@._as_role(c.owner, @extschema@.collection_scan(c, false),
                                         @extschema@.collection_checked_start(c, lo),
                                         @extschema@.collection_checked_end(c, hi)) AS r(bin timestamptz, n bigint)
               WHERE r.n > 0) p ON p.e = s.epoch
    WHERE s.epoch IS NOT NULL OR closed @> p.e
    ORDER BY 1;
END $$;
REVOKE ALL ON FUNCTION @extschema@._late_reports(regrole, text) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@._late_reports(regrole, text) IS 'Internal: ldp.late_reports run as the catalog''s owner for the calling role.';
CREATE FUNCTION @extschema@.late_reports(name text)
  RETURNS TABLE(epoch bigint, counted bigint, present bigint, late bigint, deleted bigint, status text)
  AS 'MODULE_PATHNAME', 'ldp_privileged' LANGUAGE C VOLATILE;
COMMENT ON FUNCTION @extschema@.late_reports(text) IS 'Per closed epoch with a stored summary, and per closed epoch without one that now has reports: the reports its summary counted, the reports the source holds now (counted as the collection''s owner), late = present - counted when more, deleted = counted - present when fewer (net counts: rows deleted and rows added in one epoch offset each other), and status: unchanged, late (CALL ldp.close_epoch(name, epoch, true) takes them in), deleted (a refresh is refused unless accept_fewer) or closed early (by a clock that ran ahead; close_due_epochs closes it again once it has ended). Needs the read privilege.';

CREATE FUNCTION @extschema@._collection_status(caller regrole, name text)
  RETURNS TABLE(closed pg_catalog.int8multirange, stored_epochs bigint, last_due bigint, due boolean,
                closed_early bigint, reports_before_start bigint, last_close_at timestamptz)
  LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  c @extschema@.collections := @extschema@.collection_for(caller, name, 'SELECT');
  at timestamptz := @extschema@.collection_clock();
  now_closed pg_catalog.int8multirange := @extschema@.collection_closed_now(c);
  w record := @extschema@.collection_due_work(c, now_closed);
BEGIN
  RETURN QUERY
    SELECT d.closed,
           (SELECT pg_catalog.count(*) FROM @extschema@.collection_epochs ce WHERE ce.collection = c.name),
           @extschema@.collection_epoch_of(c, at) - 1,
           w.a IS NOT NULL AND NOT (w.newest IS NULL AND w.bottom),
           -- epochs stored with a later closed_at, and closed epochs that have not ended, once each
           (SELECT pg_catalog.count(*) FILTER (WHERE NOT (ce.epoch >= @extschema@.collection_epoch_of(c, at) AND d.closed @> ce.epoch))
            FROM @extschema@.collection_epochs ce WHERE ce.collection = c.name AND ce.closed_at > at)
             + (SELECT coalesce(pg_catalog.sum(pg_catalog.upper(r) - pg_catalog.lower(r)), 0)::bigint
                FROM pg_catalog.unnest(d.closed * pg_catalog.int8multirange(pg_catalog.int8range(@extschema@.collection_epoch_of(c, at), NULL))) AS r),
           (SELECT r.n FROM @extschema@._as_role(c.owner, pg_catalog.format('SELECT pg_catalog.count(*) FROM %s WHERE %I < $1',
                                                                           @extschema@.collection_source(c), c.time_column),
                                                 c.starts_at, NULL) AS r(n bigint)),
           d.last_close_at
    FROM @extschema@.collection_catalog d WHERE d.name = c.name;
END $$;
REVOKE ALL ON FUNCTION @extschema@._collection_status(regrole, text) FROM PUBLIC;
COMMENT ON FUNCTION @extschema@._collection_status(regrole, text) IS 'Internal: ldp.collection_status run as the catalog''s owner for the calling role.';
CREATE FUNCTION @extschema@.collection_status(name text)
  RETURNS TABLE(closed pg_catalog.int8multirange, stored_epochs bigint, last_due bigint, due boolean,
                closed_early bigint, reports_before_start bigint, last_close_at timestamptz)
  AS 'MODULE_PATHNAME', 'ldp_privileged' LANGUAGE C VOLATILE;
COMMENT ON FUNCTION @extschema@.collection_status(text) IS 'A collection''s closing state: its closed epochs (one range when none is missing), how many have a stored summary, the last ended epoch, whether close_due_epochs has work (due), the epochs a clock that ran ahead closed before they ended (closed_early: close_due_epochs opens them again and closes them once ended), the source''s reports before starts_at (in no epoch close_due_epochs closes: a device clock that was reset, say), and the time of the last close. Needs the read privilege.';
