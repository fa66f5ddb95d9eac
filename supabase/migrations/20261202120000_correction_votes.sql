-- A correction's ASN and the range of analytics_lookups.network its voting unit covers
-- (an IPv4 /24, or an IPv6 /32: src/server/storage/event.ts, correctionUnit). The published
-- accuracy counts a correction only when a lookup inside that range was recorded shortly
-- before it, and gives each ASN one vote (src/server/storage/queries.ts). Rows written
-- before keep NULLs and no longer count. Written idempotently: running it twice is harmless.

ALTER TABLE analytics_corrections ADD COLUMN IF NOT EXISTS asn text;
ALTER TABLE analytics_corrections ADD COLUMN IF NOT EXISTS network_min bigint;
ALTER TABLE analytics_corrections ADD COLUMN IF NOT EXISTS network_max bigint;
