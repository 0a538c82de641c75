-- The catalog of the installed ldp extension, as text that does not depend on how it
-- was installed: one line per property, objects named (never by OID), sorted.
-- test/upgrade_catalog.sh runs it in a database made by CREATE EXTENSION ldp and in one
-- made by CREATE EXTENSION ldp VERSION '0.1.0' + ALTER EXTENSION ldp UPDATE, and diffs.
--
-- pg_dump leaves out the definitions of an extension's member objects, so this reads
-- the catalogs: the extension (version, schema, configuration tables), every member
-- and every object of its schema, functions and procedures (signature with names and
-- defaults, result, language, body or C symbol, volatility, strictness, parallel
-- safety, security definer, leakproof, cost, rows, support, SET options, owner, ACL),
-- aggregates, types, tables, sequences and indexes (kind, owner, ACL, row-level
-- security, options), columns (position, type, NOT NULL, default, identity, generated,
-- collation, storage, ACL), constraints (definition, validated), indexes, policies,
-- triggers, rules and views, casts, operators, operator classes and families,
-- comments on all of these (columns, constraints and policies included), the
-- dependencies among them (pg_depend) and the initial privileges (pg_init_privs).
--
-- Left out, on purpose: OIDs and anything derived from them (the names of toast
-- tables and of internal foreign-key triggers are normalized), dropped columns (a
-- column's position is its place among the columns that are left, what SELECT * shows),
-- relnatts, a column's atthasmissing/attmissingval (ALTER TABLE ... ADD COLUMN ...
-- DEFAULT on an updated install records the default as the value of the rows that
-- existed before: a storage detail; the column's definition and default are compared),
-- pg_attver=... entries of attoptions (the PostgreSQL build of the test machines
-- stamps every column with one, a number that differs from install to install), and the
-- names of NOT NULL constraints (PostgreSQL 18 records them in pg_constraint, named
-- after the table the column had when it got the constraint, so a table renamed by an
-- update keeps the old name; what they constrain and their dependencies are compared).
\set ON_ERROR_STOP 1
\pset format unaligned
\pset tuples_only on
\pset footer off
SET search_path = pg_catalog, pg_temp;
SET extra_float_digits = 3;
SET DateStyle = 'ISO, YMD';
SET IntervalStyle = 'postgres';
SET TimeZone = 'UTC';
SELECT e.oid AS ext, e.extnamespace AS nsp FROM pg_extension e WHERE e.extname = 'ldp' \gset

-- Multi-line text (function bodies, view definitions) as indented lines.
CREATE FUNCTION pg_temp.ml(t text) RETURNS text LANGUAGE sql IMMUTABLE
  AS $$ SELECT CASE WHEN t IS NULL THEN '<null>' ELSE replace(t, E'\n', E'\n    | ') END $$;
-- Object descriptions with OID-derived names normalized.
-- A NOT NULL constraint (PostgreSQL 18 records them, contype n) by what it constrains.
CREATE FUNCTION pg_temp.obj(classid oid, objid oid, objsubid int) RETURNS text LANGUAGE sql STABLE
  AS $$ SELECT CASE WHEN classid = 'pg_constraint'::regclass
                     AND (SELECT k.contype FROM pg_constraint k WHERE k.oid = objid) = 'n'
                    THEN regexp_replace(d, '^constraint \S+ on ', 'not-null constraint on ') ELSE d END
        FROM (SELECT regexp_replace(regexp_replace(pg_describe_object(classid, objid, objsubid),
                                    'pg_toast_[0-9]+', 'pg_toast_<oid>', 'g'),
                                    'RI_ConstraintTrigger_([ac])_[0-9]+', 'RI_ConstraintTrigger_\1_<oid>', 'g') AS d) x $$;
CREATE FUNCTION pg_temp.role(r oid) RETURNS text LANGUAGE sql STABLE
  AS $$ SELECT CASE WHEN r = 0 THEN 'public' ELSE coalesce(pg_get_userbyid(r), '<no role>') END $$;

-- Every object of the schema, and what hangs off its relations, and every member.
CREATE TEMP TABLE objs AS
  SELECT 'pg_proc'::regclass AS classid, oid AS objid FROM pg_proc WHERE pronamespace = :nsp
  UNION SELECT 'pg_type'::regclass, oid FROM pg_type WHERE typnamespace = :nsp
  UNION SELECT 'pg_class'::regclass, oid FROM pg_class WHERE relnamespace = :nsp
  UNION SELECT 'pg_constraint'::regclass, oid FROM pg_constraint WHERE connamespace = :nsp
  UNION SELECT 'pg_operator'::regclass, oid FROM pg_operator WHERE oprnamespace = :nsp
  UNION SELECT 'pg_opclass'::regclass, oid FROM pg_opclass WHERE opcnamespace = :nsp
  UNION SELECT 'pg_opfamily'::regclass, oid FROM pg_opfamily WHERE opfnamespace = :nsp
  UNION SELECT 'pg_collation'::regclass, oid FROM pg_collation WHERE collnamespace = :nsp
  UNION SELECT 'pg_conversion'::regclass, oid FROM pg_conversion WHERE connamespace = :nsp
  UNION SELECT 'pg_ts_config'::regclass, oid FROM pg_ts_config WHERE cfgnamespace = :nsp
  UNION SELECT 'pg_ts_dict'::regclass, oid FROM pg_ts_dict WHERE dictnamespace = :nsp
  UNION SELECT 'pg_statistic_ext'::regclass, oid FROM pg_statistic_ext WHERE stxnamespace = :nsp
  UNION SELECT 'pg_policy'::regclass, p.oid FROM pg_policy p JOIN pg_class c ON c.oid = p.polrelid WHERE c.relnamespace = :nsp
  UNION SELECT 'pg_trigger'::regclass, t.oid FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid WHERE c.relnamespace = :nsp
  UNION SELECT 'pg_rewrite'::regclass, r.oid FROM pg_rewrite r JOIN pg_class c ON c.oid = r.ev_class WHERE c.relnamespace = :nsp
  UNION SELECT 'pg_attrdef'::regclass, ad.oid FROM pg_attrdef ad JOIN pg_class c ON c.oid = ad.adrelid WHERE c.relnamespace = :nsp
  UNION SELECT d.classid, d.objid FROM pg_depend d
        WHERE d.refclassid = 'pg_extension'::regclass AND d.refobjid = :ext AND d.deptype = 'e';

\echo '== extension'
SELECT format('extension %s: version=%s schema=%s owner=%s relocatable=%s', e.extname, e.extversion,
              e.extnamespace::regnamespace, pg_temp.role(e.extowner), e.extrelocatable)
FROM pg_extension e WHERE e.oid = :ext;
SELECT format('extension ldp: config[%s] = %s condition=%L', c.i, c.t::regclass, e.extcondition[c.i])
FROM pg_extension e, unnest(e.extconfig) WITH ORDINALITY AS c(t, i) WHERE e.oid = :ext ORDER BY c.i;
SELECT format('schema %s: owner=%s acl=%s', n.nspname, pg_temp.role(n.nspowner), n.nspacl)
FROM pg_namespace n WHERE n.oid = :nsp;

\echo '== members of the extension (pg_depend deptype e) and objects of its schema that are not'
SELECT format('member %s', pg_temp.obj(d.classid, d.objid, d.objsubid))
FROM pg_depend d WHERE d.refclassid = 'pg_extension'::regclass AND d.refobjid = :ext AND d.deptype = 'e'
ORDER BY 1;
SELECT format('not a member: %s', pg_temp.obj(s.classid, s.objid, 0))
FROM objs s
WHERE s.classid NOT IN ('pg_constraint'::regclass, 'pg_policy'::regclass, 'pg_trigger'::regclass,
                        'pg_rewrite'::regclass, 'pg_attrdef'::regclass)
  AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = s.classid AND d.objid = s.objid
                    AND d.refclassid = 'pg_extension'::regclass AND d.refobjid = :ext AND d.deptype = 'e')
  -- implicit objects belong to the extension through their owner
  AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = s.classid AND d.objid = s.objid
                    AND d.deptype IN ('i', 'a'))
  AND NOT EXISTS (SELECT 1 FROM pg_type t WHERE s.classid = 'pg_type'::regclass AND t.oid = s.objid
                    AND (t.typrelid <> 0 OR t.typelem <> 0 AND t.typcategory = 'A'))
ORDER BY 1;

\echo '== functions, procedures and aggregates'
SELECT format(E'%s %s\n  arguments: %s\n  result: %s\n  language=%s volatility=%s strict=%s parallel=%s security_definer=%s leakproof=%s returns_set=%s cost=%s rows=%s support=%s variadic=%s\n  config: %s\n  owner=%s acl=%s\n  bin: %s\n  src: %s',
              CASE p.prokind WHEN 'f' THEN 'function' WHEN 'p' THEN 'procedure' WHEN 'a' THEN 'aggregate'
                             WHEN 'w' THEN 'window function' END,
              p.oid::regprocedure, pg_get_function_arguments(p.oid), pg_get_function_result(p.oid),
              l.lanname, p.provolatile, p.proisstrict, p.proparallel, p.prosecdef, p.proleakproof,
              p.proretset, p.procost, p.prorows, p.prosupport, p.provariadic::regtype,
              coalesce(p.proconfig::text, '<none>'), pg_temp.role(p.proowner), p.proacl,
              coalesce(p.probin, '<null>'), pg_temp.ml(p.prosrc))
FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
WHERE p.pronamespace = :nsp
ORDER BY p.oid::regprocedure::text;
SELECT format(E'aggregate %s: kind=%s direct_args=%s\n  transfn=%s finalfn=%s combinefn=%s serialfn=%s deserialfn=%s\n  mtransfn=%s minvtransfn=%s mfinalfn=%s finalextra=%s mfinalextra=%s finalmodify=%s mfinalmodify=%s\n  sortop=%s transtype=%s transspace=%s mtranstype=%s mtransspace=%s initval=%s minitval=%s',
              a.aggfnoid::regprocedure, a.aggkind, a.aggnumdirectargs,
              a.aggtransfn::oid::regprocedure, a.aggfinalfn::oid::regprocedure, a.aggcombinefn::oid::regprocedure,
              a.aggserialfn::oid::regprocedure, a.aggdeserialfn::oid::regprocedure,
              a.aggmtransfn::oid::regprocedure, a.aggminvtransfn::oid::regprocedure, a.aggmfinalfn::oid::regprocedure,
              a.aggfinalextra, a.aggmfinalextra, a.aggfinalmodify, a.aggmfinalmodify,
              a.aggsortop::regoperator, a.aggtranstype::regtype, a.aggtransspace,
              a.aggmtranstype::regtype, a.aggmtransspace, coalesce(a.agginitval, '<null>'),
              coalesce(a.aggminitval, '<null>'))
FROM pg_aggregate a JOIN pg_proc p ON p.oid = a.aggfnoid
WHERE p.pronamespace = :nsp
ORDER BY a.aggfnoid::regprocedure::text;

\echo '== types'
SELECT format(E'type %s: kind=%s len=%s byval=%s category=%s preferred=%s delim=%s relation=%s element=%s array=%s\n  input=%s output=%s receive=%s send=%s typmodin=%s typmodout=%s analyze=%s subscript=%s\n  align=%s storage=%s notnull=%s basetype=%s typmod=%s ndims=%s collation=%s default=%s owner=%s acl=%s',
              t.oid::regtype, t.typtype, t.typlen, t.typbyval, t.typcategory, t.typispreferred, t.typdelim,
              t.typrelid::regclass, t.typelem::regtype, t.typarray::regtype,
              t.typinput::oid::regprocedure, t.typoutput::oid::regprocedure, t.typreceive::oid::regprocedure,
              t.typsend::oid::regprocedure, t.typmodin::oid::regprocedure, t.typmodout::oid::regprocedure,
              t.typanalyze::oid::regprocedure, t.typsubscript::oid::regprocedure,
              t.typalign, t.typstorage, t.typnotnull, t.typbasetype::regtype, t.typtypmod, t.typndims,
              t.typcollation, coalesce(t.typdefault, '<null>'), pg_temp.role(t.typowner), t.typacl)
FROM pg_type t WHERE t.typnamespace = :nsp
ORDER BY t.oid::regtype::text;

\echo '== relations (tables, sequences, indexes, views)'
SELECT format(E'relation %s: kind=%s persistence=%s owner=%s acl=%s\n  rowsecurity=%s forcerowsecurity=%s hasindex=%s hasrules=%s hastriggers=%s hassubclass=%s ispartition=%s replident=%s access_method=%s options=%s of_type=%s has_toast=%s',
              c.oid::regclass, c.relkind, c.relpersistence, pg_temp.role(c.relowner), c.relacl,
              c.relrowsecurity, c.relforcerowsecurity, c.relhasindex, c.relhasrules, c.relhastriggers,
              c.relhassubclass, c.relispartition, c.relreplident, am.amname, c.reloptions,
              c.reloftype::regtype, c.reltoastrelid <> 0)
FROM pg_class c LEFT JOIN pg_am am ON am.oid = c.relam
WHERE c.relnamespace = :nsp
ORDER BY c.oid::regclass::text;
SELECT format('column %s.%s: position=%s type=%s notnull=%s default=%s identity=%L generated=%L collation=%s storage=%s compression=%L stattarget=%s acl=%s options=%s',
              c.oid::regclass, quote_ident(a.attname),
              row_number() OVER (PARTITION BY a.attrelid ORDER BY a.attnum), format_type(a.atttypid, a.atttypmod),
              a.attnotnull, coalesce(pg_get_expr(ad.adbin, ad.adrelid), '<none>'), a.attidentity,
              a.attgenerated, a.attcollation, a.attstorage, a.attcompression, a.attstattarget, a.attacl,
              (SELECT array_agg(o ORDER BY o) FROM unnest(a.attoptions) o WHERE o NOT LIKE 'pg\_attver=%'))
FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid
LEFT JOIN pg_attrdef ad ON ad.adrelid = a.attrelid AND ad.adnum = a.attnum
WHERE c.relnamespace = :nsp AND a.attnum > 0 AND NOT a.attisdropped
ORDER BY c.oid::regclass::text, a.attnum;
SELECT format('sequence %s: type=%s start=%s increment=%s min=%s max=%s cache=%s cycle=%s',
              s.seqrelid::regclass, s.seqtypid::regtype, s.seqstart, s.seqincrement, s.seqmin, s.seqmax,
              s.seqcache, s.seqcycle)
FROM pg_sequence s JOIN pg_class c ON c.oid = s.seqrelid
WHERE c.relnamespace = :nsp ORDER BY 1;
SELECT format('index %s: %s primary=%s unique=%s immediate=%s clustered=%s valid=%s replident=%s',
              i.indexrelid::regclass, pg_get_indexdef(i.indexrelid), i.indisprimary, i.indisunique,
              i.indimmediate, i.indisclustered, i.indisvalid, i.indisreplident)
FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid
WHERE c.relnamespace = :nsp ORDER BY 1;
SELECT format(E'view %s:\n    | %s', c.oid::regclass, pg_temp.ml(pg_get_viewdef(c.oid)))
FROM pg_class c WHERE c.relnamespace = :nsp AND c.relkind IN ('v', 'm') ORDER BY 1;

\echo '== constraints, policies, triggers, rules'
SELECT format('constraint %s on %s: type=%s %s validated=%s deferrable=%s deferred=%s local=%s inherited=%s noinherit=%s',
              CASE WHEN k.contype = 'n' THEN '<not null>' ELSE quote_ident(k.conname) END,
              coalesce(k.conrelid::regclass::text, k.contypid::regtype::text),
              k.contype, pg_get_constraintdef(k.oid), k.convalidated, k.condeferrable, k.condeferred,
              k.conislocal, k.coninhcount, k.connoinherit)
FROM pg_constraint k WHERE k.connamespace = :nsp
ORDER BY 1;
SELECT format('policy %s on %s: command=%s permissive=%s roles=%s using=%s with_check=%s',
              quote_ident(p.polname), p.polrelid::regclass, p.polcmd, p.polpermissive,
              (SELECT string_agg(pg_temp.role(r), ',' ORDER BY 1) FROM unnest(p.polroles) r),
              coalesce(pg_get_expr(p.polqual, p.polrelid), '<none>'),
              coalesce(pg_get_expr(p.polwithcheck, p.polrelid), '<none>'))
FROM pg_policy p JOIN pg_class c ON c.oid = p.polrelid
WHERE c.relnamespace = :nsp ORDER BY 1;
SELECT format('trigger %s on %s: function=%s type=%s enabled=%s internal=%s constraint=%s deferrable=%s deferred=%s',
              regexp_replace(t.tgname, '^RI_ConstraintTrigger_([ac])_[0-9]+$', 'RI_ConstraintTrigger_\1_<oid>'),
              t.tgrelid::regclass, t.tgfoid::regprocedure, t.tgtype, t.tgenabled, t.tgisinternal,
              (SELECT k.conname FROM pg_constraint k WHERE k.oid = t.tgconstraint),
              t.tgdeferrable, t.tginitdeferred)
FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
WHERE c.relnamespace = :nsp ORDER BY 1;
SELECT format('rule %s on %s: %s', quote_ident(r.rulename), r.ev_class::regclass, pg_get_ruledef(r.oid))
FROM pg_rewrite r JOIN pg_class c ON c.oid = r.ev_class
WHERE c.relnamespace = :nsp AND r.rulename <> '_RETURN' ORDER BY 1;

\echo '== casts, operators, operator classes and families'
SELECT format('cast (%s AS %s): function=%s context=%s method=%s', k.castsource::regtype, k.casttarget::regtype,
              k.castfunc::regprocedure, k.castcontext, k.castmethod)
FROM pg_cast k
WHERE k.castsource IN (SELECT oid FROM pg_type WHERE typnamespace = :nsp)
   OR k.casttarget IN (SELECT oid FROM pg_type WHERE typnamespace = :nsp)
   OR k.castfunc IN (SELECT oid FROM pg_proc WHERE pronamespace = :nsp)
ORDER BY 1;
SELECT format('operator %s: function=%s commutator=%s negator=%s restrict=%s join=%s merges=%s hashes=%s',
              o.oid::regoperator, o.oprcode::oid::regprocedure, o.oprcom::regoperator, o.oprnegate::regoperator,
              o.oprrest::oid::regprocedure, o.oprjoin::oid::regprocedure, o.oprcanmerge, o.oprcanhash)
FROM pg_operator o WHERE o.oprnamespace = :nsp ORDER BY 1;
SELECT format('operator class %s using %s: type=%s default=%s family=%s', quote_ident(o.opcname), am.amname,
              o.opcintype::regtype, o.opcdefault, f.opfname)
FROM pg_opclass o JOIN pg_am am ON am.oid = o.opcmethod JOIN pg_opfamily f ON f.oid = o.opcfamily
WHERE o.opcnamespace = :nsp ORDER BY 1;
SELECT format('operator family %s using %s', quote_ident(f.opfname), am.amname)
FROM pg_opfamily f JOIN pg_am am ON am.oid = f.opfmethod WHERE f.opfnamespace = :nsp ORDER BY 1;

\echo '== comments (every object of the schema, its columns, constraints and policies, the schema, the extension)'
SELECT format('comment on %s: %s', pg_temp.obj(d.classoid, d.objoid, d.objsubid), pg_temp.ml(d.description))
FROM pg_description d
WHERE (d.classoid, d.objoid) IN (SELECT classid, objid FROM objs)
   OR (d.classoid = 'pg_namespace'::regclass AND d.objoid = :nsp)
   OR (d.classoid = 'pg_extension'::regclass AND d.objoid = :ext)
ORDER BY 1;

\echo '== dependencies of the schema''s objects and the extension''s members (pg_depend)'
SELECT format('depend %s -> %s: %s%s', pg_temp.obj(d.classid, d.objid, d.objsubid),
              pg_temp.obj(d.refclassid, d.refobjid, d.refobjsubid), d.deptype,
              CASE WHEN count(*) > 1 THEN format(' (%s times)', count(*)) ELSE '' END)
FROM pg_depend d JOIN objs o ON o.classid = d.classid AND o.objid = d.objid
GROUP BY d.classid, d.objid, d.objsubid, d.refclassid, d.refobjid, d.refobjsubid, d.deptype
ORDER BY 1;

\echo '== initial privileges (pg_init_privs: what pg_dump treats as the extension''s own grants)'
SELECT format('init privileges %s: type=%s %s', pg_temp.obj(i.classoid, i.objoid, i.objsubid), i.privtype, i.initprivs)
FROM pg_init_privs i
WHERE (i.classoid = 'pg_namespace'::regclass AND i.objoid = :nsp)
   OR (i.classoid, i.objoid) IN (SELECT classid, objid FROM objs)
ORDER BY 1;
