-- The statistics of scoring.report.stats.AgentStats, per agent and task, from a relation `runs`:
-- input_order BIGINT (unique; later is newer among equal instants), run_id, agent_id,
-- task_id, status VARCHAR, success BOOLEAN, latency_ms DOUBLE, cost_usd DOUBLE,
-- steps BIGINT, finished_at VARCHAR (RFC 3339). Every value is exact: sums of the values
-- as written in 10^-9 units (HUGEINT); a value that is not exactly such a decimal of at
-- most 15 significant digits is left out of the sum and listed, to be added exactly by the
-- caller; a median is its two middle values, never an average.
WITH terminal AS MATERIALIZED (
  SELECT
    input_order, agent_id, task_id, status, success, latency_ms, cost_usd, steps,
    CASE WHEN success THEN 1 ELSE 0 END AS passed,
    -- The instant to the microsecond (offsets applied; DuckDB and Spark cut the digits
    -- beyond it), then those digits.
    EPOCH_US(CAST(stamp AS TIMESTAMPTZ)) AS instant_us,
    CASE WHEN fraction_digits > 6
      THEN RTRIM(SUBSTRING(stamp, 27, fraction_digits - 6), '0')
      ELSE '' END AS finer_digits
  FROM (
    SELECT *,
      CASE WHEN SUBSTRING(stamp, 20, 1) = '.'
        THEN LENGTH(stamp) - 20 - CASE WHEN SUBSTRING(stamp, LENGTH(stamp), 1) = 'Z' THEN 1 ELSE 6 END
        ELSE 0 END AS fraction_digits
    FROM (SELECT *, UPPER(finished_at) AS stamp FROM runs) AS stamped
    WHERE status IN ('completed', 'failed', 'timeout')
  ) AS measured
),
completed AS (
  -- A value is summed in 10^-9 units when it is exactly the double nearest to a decimal
  -- of at most 9 fraction digits and 15 significant digits: then that decimal is the
  -- shortest one of the double, the value as written. The test divides two doubles that
  -- are exact integers (units below 2^53), so IEEE division rounds it correctly.
  SELECT agent_id, task_id, passed, latency_ms, cost_usd,
    COALESCE(latency_units < {exact_units_limit}
      AND (latency_units < {fifteen_digits} OR latency_units % 10 = 0)
      AND CAST(latency_units AS DOUBLE) / CAST({units_per_one} AS DOUBLE) = latency_ms, FALSE)
      AS latency_exact,
    latency_units,
    COALESCE(cost_units < {exact_units_limit}
      AND (cost_units < {fifteen_digits} OR cost_units % 10 = 0)
      AND CAST(cost_units AS DOUBLE) / CAST({units_per_one} AS DOUBLE) = cost_usd, FALSE)
      AS cost_exact,
    cost_units
  FROM (
    SELECT *,
      CASE WHEN latency_ms < {candidate_limit}
        THEN CAST(ROUND(latency_ms * {units_per_one}) AS BIGINT) END AS latency_units,
      CASE WHEN cost_usd < {candidate_limit}
        THEN CAST(ROUND(cost_usd * {units_per_one}) AS BIGINT) END AS cost_units
    FROM terminal WHERE status = 'completed'
  ) AS candidates
),
cohort AS (
  SELECT agent_id, task_id,
    COUNT(*) AS cohort_runs,
    SUM(passed) AS cohort_successes,
    SUM(CASE WHEN latency_exact THEN CAST(latency_units AS HUGEINT) END) AS latency_units_sum,
    ARRAY_AGG(latency_ms) FILTER (WHERE NOT latency_exact AND latency_ms IS NOT NULL)
      AS latency_ms_rest,
    SUM(CASE WHEN cost_exact THEN CAST(cost_units AS HUGEINT) END) AS cost_units_sum,
    ARRAY_AGG(cost_usd) FILTER (WHERE NOT cost_exact AND cost_usd IS NOT NULL) AS cost_usd_rest,
    -- Completed runs that left a value unrecorded (null): the composite then has none.
    COUNT(*) - COUNT(latency_ms) AS latency_unrecorded,
    COUNT(*) - COUNT(cost_usd) AS cost_unrecorded
  FROM completed GROUP BY agent_id, task_id
),
outcomes AS (
  SELECT agent_id, task_id, COUNT(*) AS outcome_n, SUM(passed) AS outcome_c
  FROM terminal WHERE success IS NOT NULL GROUP BY agent_id, task_id
),
spans AS (
  -- The radar window: each agent's latest runs. Sorting every terminal run by recency would
  -- take most of the query, so the runs are first cut to those that can be in the window:
  -- each agent's span of instants is split into equal parts, and an older part than the
  -- newest ones that hold a window's worth of runs holds none of the window's. (The part of
  -- a run is a non-decreasing function of its instant, so equal instants share a part, and
  -- an older part's runs are all older than the window's.)
  SELECT agent_id, MIN(instant_us) AS first_us, MAX(instant_us) AS last_us
  FROM terminal GROUP BY agent_id
),
parted AS MATERIALIZED (
  SELECT terminal.*,
    CASE WHEN spans.last_us = spans.first_us THEN 0
      ELSE CAST(FLOOR(CAST(terminal.instant_us - spans.first_us AS DOUBLE) * {window_parts}
        / CAST(spans.last_us - spans.first_us AS DOUBLE)) AS BIGINT) END AS span_part
  FROM terminal JOIN spans ON spans.agent_id = terminal.agent_id
),
reach AS (
  SELECT agent_id, MAX(CASE WHEN newer_runs >= {window_runs} THEN span_part END) AS oldest_part
  FROM (
    SELECT agent_id, span_part, SUM(runs) OVER (
      PARTITION BY agent_id ORDER BY span_part DESC
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS newer_runs
    FROM (
      SELECT agent_id, span_part, COUNT(*) AS runs FROM parted GROUP BY agent_id, span_part
    ) AS parts
  ) AS counted GROUP BY agent_id
),
latest AS MATERIALIZED (
  SELECT * FROM (
    SELECT parted.*, ROW_NUMBER() OVER (
      PARTITION BY parted.agent_id ORDER BY instant_us DESC, finer_digits DESC, input_order DESC
    ) AS recency
    FROM parted JOIN reach ON reach.agent_id = parted.agent_id
    WHERE reach.oldest_part IS NULL OR parted.span_part IS NULL
      OR parted.span_part >= reach.oldest_part
  ) AS ranked WHERE recency <= {window_runs}
),
window_tasks AS (
  SELECT agent_id, task_id, COUNT(*) AS window_known, SUM(passed) AS window_passes
  FROM latest WHERE success IS NOT NULL GROUP BY agent_id, task_id
),
window_sizes AS (
  SELECT agent_id, COUNT(*) AS window_runs FROM latest GROUP BY agent_id
),
latency_middle AS (
  SELECT agent_id, COUNT(*) AS latency_count,
    MAX(CASE WHEN 2 * position IN (total, total + 1) THEN latency_ms END) AS latency_low,
    MAX(CASE WHEN 2 * position IN (total + 1, total + 2) THEN latency_ms END) AS latency_high
  FROM (
    SELECT agent_id, latency_ms,
      ROW_NUMBER() OVER (PARTITION BY agent_id ORDER BY latency_ms) AS position,
      COUNT(*) OVER (PARTITION BY agent_id) AS total
    FROM latest WHERE latency_ms IS NOT NULL
  ) AS ordered GROUP BY agent_id
),
cost_middle AS (
  SELECT agent_id, COUNT(*) AS cost_count,
    MAX(CASE WHEN 2 * position IN (total, total + 1) THEN cost_usd END) AS cost_low,
    MAX(CASE WHEN 2 * position IN (total + 1, total + 2) THEN cost_usd END) AS cost_high
  FROM (
    SELECT agent_id, cost_usd,
      ROW_NUMBER() OVER (PARTITION BY agent_id ORDER BY cost_usd) AS position,
      COUNT(*) OVER (PARTITION BY agent_id) AS total
    FROM latest WHERE cost_usd IS NOT NULL
  ) AS ordered GROUP BY agent_id
),
steps_middle AS (
  SELECT agent_id, COUNT(*) AS steps_count,
    MAX(CASE WHEN 2 * position IN (total, total + 1) THEN steps END) AS steps_low,
    MAX(CASE WHEN 2 * position IN (total + 1, total + 2) THEN steps END) AS steps_high
  FROM (
    SELECT agent_id, steps,
      ROW_NUMBER() OVER (PARTITION BY agent_id ORDER BY steps) AS position,
      COUNT(*) OVER (PARTITION BY agent_id) AS total
    FROM latest WHERE steps IS NOT NULL
  ) AS ordered GROUP BY agent_id
),
agents AS (
  SELECT agent_id, MIN(input_order) AS first_order FROM runs GROUP BY agent_id
),
tasks AS (
  SELECT agent_id, task_id FROM cohort
  UNION SELECT agent_id, task_id FROM outcomes
  UNION SELECT agent_id, task_id FROM window_tasks
)
SELECT
  agents.agent_id, agents.first_order,
  window_sizes.window_runs,
  latency_middle.latency_count, latency_middle.latency_low, latency_middle.latency_high,
  cost_middle.cost_count, cost_middle.cost_low, cost_middle.cost_high,
  steps_middle.steps_count, steps_middle.steps_low, steps_middle.steps_high,
  tasks.task_id,
  cohort.cohort_runs, cohort.cohort_successes,
  cohort.latency_units_sum, cohort.latency_ms_rest, cohort.cost_units_sum, cohort.cost_usd_rest,
  cohort.latency_unrecorded, cohort.cost_unrecorded,
  outcomes.outcome_n, outcomes.outcome_c,
  window_tasks.window_known, window_tasks.window_passes
FROM agents
LEFT JOIN window_sizes ON window_sizes.agent_id = agents.agent_id
LEFT JOIN latency_middle ON latency_middle.agent_id = agents.agent_id
LEFT JOIN cost_middle ON cost_middle.agent_id = agents.agent_id
LEFT JOIN steps_middle ON steps_middle.agent_id = agents.agent_id
LEFT JOIN tasks ON tasks.agent_id = agents.agent_id
LEFT JOIN cohort ON cohort.agent_id = tasks.agent_id AND cohort.task_id = tasks.task_id
LEFT JOIN outcomes ON outcomes.agent_id = tasks.agent_id AND outcomes.task_id = tasks.task_id
LEFT JOIN window_tasks
  ON window_tasks.agent_id = tasks.agent_id AND window_tasks.task_id = tasks.task_id
ORDER BY agents.first_order, tasks.task_id
