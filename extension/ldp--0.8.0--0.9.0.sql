-- 0.8.0 -> 0.9.0: (the statements of extension/sql/*.sql that 0.9.0 adds or changes,
-- appended as each change lands; see CONTRIBUTING.md "Releasing a version")
\echo Use "ALTER EXTENSION ldp UPDATE TO '0.9.0'" to load this file. \quit
