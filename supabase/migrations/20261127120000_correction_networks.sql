-- One correction per network and UTC day: a later correction from the same network that
-- day replaces the earlier one (src/server/storage/postgres-store.ts upserts on this key),
-- so one client rotating addresses inside its network counts once. A correction now keeps
-- its network prefix (IPv4 /24, IPv6 /48, as analytics_lookups.ip_prefix), never the
-- address; rows written before keep a NULL prefix, which the unique index lets repeat.
-- day is whole UTC days since 1970. Written idempotently: running it twice is harmless.

ALTER TABLE analytics_corrections ADD COLUMN IF NOT EXISTS day integer;
ALTER TABLE analytics_corrections ADD COLUMN IF NOT EXISTS ip_prefix text;
UPDATE analytics_corrections SET day = at_ms / 86400000 WHERE day IS NULL;
CREATE UNIQUE INDEX IF NOT EXISTS analytics_corrections_network_day ON analytics_corrections (day, ip_prefix);
