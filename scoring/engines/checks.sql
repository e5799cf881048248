-- The input rules of scoring.models.RunRecord, over the typed relation `runs` (see
-- statistics.sql): one row of counts, every one zero on an input the rules accept. Any
-- other count and the input is read by the Python reader, which names each problem.
SELECT
  COUNT(*) AS runs,
  COUNT(*) - COUNT(DISTINCT run_id) AS repeated_run_ids,
  COUNT(*) - COUNT(DISTINCT input_order) AS repeated_orders,
  SUM(CASE WHEN (
    run_id IS NOT NULL AND LENGTH(run_id) > 0
    AND agent_id IS NOT NULL AND LENGTH(agent_id) > 0
    AND task_id IS NOT NULL AND LENGTH(task_id) > 0
    AND input_order IS NOT NULL
    AND status IN ('queued', 'running', 'completed', 'failed', 'timeout')
    AND (latency_ms IS NULL OR latency_ms BETWEEN 0 AND {largest_double})
    AND (cost_usd IS NULL OR cost_usd BETWEEN 0 AND {largest_double})
    AND (steps IS NULL OR steps >= 0)
    AND (finished_at IS NULL OR REGEXP_MATCHES(finished_at, '{calendar}'))
    AND (status NOT IN ('completed', 'failed', 'timeout') OR finished_at IS NOT NULL)
  ) THEN 0 ELSE 1 END) AS broken_runs
FROM runs
