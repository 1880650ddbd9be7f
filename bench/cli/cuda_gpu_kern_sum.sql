-- SPDX-License-Identifier: MIT
-- What `nsys stats --report cuda_gpu_kern_sum` computes, in plain SQLite for the sqlite3 shell:
-- per demangled kernel name the share of all kernel time, total, instances, mean, median, min,
-- max and sample standard deviation, ordered by total time. NVIDIA's report script computes the
-- median and the standard deviation with aggregate functions its Python registers (median(),
-- stdev()), which the shell lacks; here the median comes from a window function (the middle row,
-- or the mean of the two middle rows, of each name's durations in order) and the deviation from
-- the sums of the durations and of their squares. Our own text, not NVIDIA's.
WITH
    durations AS (
        SELECT demangledName AS nameId, "end" - start AS duration
        FROM CUPTI_ACTIVITY_KIND_KERNEL
    ),
    ranked AS (
        SELECT
            nameId,
            duration,
            row_number() OVER (PARTITION BY nameId ORDER BY duration) AS position,
            count(*) OVER (PARTITION BY nameId) AS instances
        FROM durations
    ),
    medians AS (
        SELECT nameId, avg(duration) AS med
        FROM ranked
        WHERE position IN ((instances + 1) / 2, (instances + 2) / 2)
        GROUP BY nameId
    ),
    summary AS (
        SELECT
            nameId,
            sum(duration) AS total,
            count(*) AS num,
            avg(duration) AS avg,
            min(duration) AS min,
            max(duration) AS max,
            CASE WHEN count(*) > 1 THEN
                sqrt(max(0.0, (sum(duration * 1.0 * duration)
                               - sum(duration) * 1.0 * sum(duration) / count(*)) / (count(*) - 1)))
            ELSE 0.0 END AS stddev
        FROM durations
        GROUP BY nameId
    ),
    totals AS (
        SELECT sum(total) AS total FROM summary
    )
SELECT
    round(summary.total * 100.0 / (SELECT total FROM totals), 1) AS "Time (%)",
    summary.total AS "Total Time (ns)",
    summary.num AS "Instances",
    round(summary.avg, 1) AS "Avg (ns)",
    round(medians.med, 1) AS "Med (ns)",
    summary.min AS "Min (ns)",
    summary.max AS "Max (ns)",
    round(summary.stddev, 1) AS "StdDev (ns)",
    ids.value AS "Name"
FROM summary
JOIN medians USING (nameId)
LEFT JOIN StringIds AS ids ON ids.id = summary.nameId
ORDER BY 2 DESC, 3, "Name";
