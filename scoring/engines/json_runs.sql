-- DuckDB only: the relation `runs` of statistics.sql read from a JSON Lines log, each
-- line a MAP of its keys to their JSON values (every key the line writes, a null one and
-- a repeated one included; a line that is not an object, malformed JSON, invalid UTF-8 or
-- a lone surrogate make DuckDB fail, and the log goes to the Python reader). DuckDB's
-- JSON reader coerces ("true" into a BOOLEAN, 3.5 into a BIGINT): every value is read
-- here as its JSON text and `typed` says whether each is of the type RunRecord wants
-- (strict, as the model is); checks.sql then checks the rules over the typed columns. A
-- string without a backslash is written as its characters between two quotes, which is
-- how DuckDB writes a JSON string back: its value is that text without the quotes; one
-- with an escape is decoded (only a log the Python reader's validation has proven clean
-- holds one: see scoring.engines.proof).
-- The lines in the order of the file: read on one thread, the rows of the table are in
-- the scan's order, so that a row's rowid is its line's position (the input order, see
-- the view `runs` below). (Numbering the lines with row_number() in the scan took a third
-- of its time.)
CREATE TEMP TABLE json_runs AS
SELECT * FROM (
  SELECT
    CASE WHEN NOT starts_with(run_id, '"') THEN NULL
      WHEN contains(run_id, '\') THEN run_id->>'$' ELSE run_id[2:-2] END AS run_id,
    CASE WHEN NOT starts_with(agent_id, '"') THEN NULL
      WHEN contains(agent_id, '\') THEN agent_id->>'$' ELSE agent_id[2:-2] END AS agent_id,
    CASE WHEN NOT starts_with(task_id, '"') THEN NULL
      WHEN contains(task_id, '\') THEN task_id->>'$' ELSE task_id[2:-2] END AS task_id,
    CASE WHEN NOT starts_with(status, '"') THEN NULL
      WHEN contains(status, '\') THEN status->>'$' ELSE status[2:-2] END AS status,
    CASE success WHEN 'true' THEN TRUE WHEN 'false' THEN FALSE END AS success,
    TRY_CAST(CAST(latency_ms AS VARCHAR) AS DOUBLE) AS latency_ms,
    TRY_CAST(CAST(cost_usd AS VARCHAR) AS DOUBLE) AS cost_usd,
    TRY_CAST(CAST(steps AS VARCHAR) AS BIGINT) AS steps,
    CASE WHEN NOT starts_with(finished_at, '"') THEN NULL
      WHEN contains(finished_at, '\') THEN finished_at->>'$' ELSE finished_at[2:-2] END AS finished_at,
    keys,
    COALESCE(
      -- Only the run's keys, each once.
      known_keys
      -- A string where RunRecord wants one (an absent key and a null are both NULL here).
      AND (run_id IS NULL OR starts_with(run_id, '"'))
      AND (agent_id IS NULL OR starts_with(agent_id, '"'))
      AND (task_id IS NULL OR starts_with(task_id, '"'))
      AND (status IS NULL OR starts_with(status, '"'))
      AND (finished_at IS NULL OR starts_with(finished_at, '"'))
      -- A boolean, never "true" or 1.
      AND (success IS NULL OR success IN ('true', 'false'))
      -- A number, never a string or a boolean; any other JSON (a list, an object) does not
      -- read as a double. Whether it is finite and not negative is checks.sql's.
      AND (latency_ms IS NULL OR NOT starts_with(latency_ms, '"')
        AND latency_ms NOT IN ('true', 'false')
        AND TRY_CAST(CAST(latency_ms AS VARCHAR) AS DOUBLE) IS NOT NULL)
      AND (cost_usd IS NULL OR NOT starts_with(cost_usd, '"')
        AND cost_usd NOT IN ('true', 'false')
        AND TRY_CAST(CAST(cost_usd AS VARCHAR) AS DOUBLE) IS NOT NULL)
      -- An integer written as one: DuckDB casts '3.5' and '1e2' to a BIGINT, so the
      -- integer must write back as the text itself.
      AND (steps IS NULL
        OR CAST(TRY_CAST(CAST(steps AS VARCHAR) AS BIGINT) AS VARCHAR) = CAST(steps AS VARCHAR)),
      FALSE) AS typed
  FROM (
    -- Most writers write every key in one order: the values are then read by position.
    SELECT keys, known_keys,
      CASE WHEN canonical THEN v[1] ELSE m['run_id'] END AS run_id,
      CASE WHEN canonical THEN v[2] ELSE m['agent_id'] END AS agent_id,
      CASE WHEN canonical THEN v[3] ELSE m['task_id'] END AS task_id,
      CASE WHEN canonical THEN v[4] ELSE m['status'] END AS status,
      CASE WHEN canonical THEN v[5] ELSE m['success'] END AS success,
      CASE WHEN canonical THEN v[6] ELSE m['latency_ms'] END AS latency_ms,
      CASE WHEN canonical THEN v[7] ELSE m['cost_usd'] END AS cost_usd,
      CASE WHEN canonical THEN v[8] ELSE m['steps'] END AS steps,
      CASE WHEN canonical THEN v[9] ELSE m['finished_at'] END AS finished_at
    FROM (
      SELECT m, map_values(m) AS v, cardinality(m) AS keys,
        map_keys(m) = {keys} AS canonical,
        -- (DuckDB checks a MAP's keys for repeats only when it hands one out.) A CASE, so
        -- that only the lines whose keys are not the usual ones are looked at further.
        CASE WHEN map_keys(m) = {keys} THEN TRUE
          ELSE list_has_all({keys}, map_keys(m))
            AND len(list_distinct(map_keys(m))) = cardinality(m) END AS known_keys
      FROM {reader} AS lines
    ) AS keyed
  ) AS valued
) AS read_runs;

CREATE TEMP VIEW runs AS SELECT rowid + 1 AS input_order, * FROM json_runs;
