-- Analytics of the "what is my IP" site (src/server/storage/postgres-store.ts applies this
-- at start when it is missing; the Supabase CLI applies it with `supabase db push`).
-- No address is ever stored: a lookup keeps its network prefix (IPv4 /24, IPv6 /48),
-- coarse place and verdicts. Times are epoch milliseconds (at_ms); hour and day are
-- whole hours and UTC days since 1970. Written idempotently: running it twice is harmless.

CREATE TABLE IF NOT EXISTS analytics_lookups (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  at_ms bigint NOT NULL,
  -- Time of the previous lookup from the same network: makes "unique networks" a count
  -- (see src/server/storage/plan.ts).
  prev_at_ms bigint,
  -- The prefix as a number: IPv4 /24 = its 24 bits, IPv6 /48 = 2^48 + its 48 bits.
  network bigint NOT NULL,
  ip_prefix text NOT NULL,
  ip_version text NOT NULL,
  country_code text NOT NULL,
  country_name text NOT NULL,
  region text NOT NULL,
  city text NOT NULL,
  asn text NOT NULL,
  network_type text NOT NULL,
  vpn_detected boolean NOT NULL,
  risk_level text NOT NULL,
  location_source text NOT NULL,
  accuracy_tier text NOT NULL
);
CREATE INDEX IF NOT EXISTS analytics_lookups_at ON analytics_lookups (at_ms, id);
CREATE INDEX IF NOT EXISTS analytics_lookups_network ON analytics_lookups (network, at_ms, id);

-- Rollups: lookups and VPN lookups per hour and per UTC day and country.
CREATE TABLE IF NOT EXISTS analytics_lookup_hours (
  hour integer NOT NULL, country_code text NOT NULL, country_name text NOT NULL,
  lookups integer NOT NULL, vpn integer NOT NULL, PRIMARY KEY (hour, country_code)
);
CREATE TABLE IF NOT EXISTS analytics_lookup_days (
  day integer NOT NULL, country_code text NOT NULL, country_name text NOT NULL,
  lookups integer NOT NULL, vpn integer NOT NULL, PRIMARY KEY (day, country_code)
);
-- Rollups for unique networks: lookups per hour (day) by the hour and day of the same
-- network's previous lookup (-1: none, or too long ago to matter).
CREATE TABLE IF NOT EXISTS analytics_network_hours (
  hour integer NOT NULL, prev_hour integer NOT NULL, prev_day integer NOT NULL, n integer NOT NULL,
  PRIMARY KEY (hour, prev_hour, prev_day)
);
CREATE TABLE IF NOT EXISTS analytics_network_days (
  day integer NOT NULL, prev_day integer NOT NULL, n integer NOT NULL, PRIMARY KEY (day, prev_day)
);

-- Location corrections from the verification tab: a distance, never a place or address.
CREATE TABLE IF NOT EXISTS analytics_corrections (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  at_ms bigint NOT NULL,
  distance_km double precision NOT NULL,
  country_code text NOT NULL,
  network_type text NOT NULL,
  nearer_source text NOT NULL
);
CREATE INDEX IF NOT EXISTS analytics_corrections_at ON analytics_corrections (at_ms);

-- Ids of written batches, so a retried batch is never written twice.
CREATE TABLE IF NOT EXISTS analytics_batches (id text PRIMARY KEY, at_ms bigint NOT NULL);

-- Supabase publishes the public schema through its REST API to anyone with the anon key:
-- row level security with no policy closes that door. The server connects as the tables'
-- owner, which RLS does not restrict.
ALTER TABLE analytics_lookups ENABLE ROW LEVEL SECURITY;
ALTER TABLE analytics_lookup_hours ENABLE ROW LEVEL SECURITY;
ALTER TABLE analytics_lookup_days ENABLE ROW LEVEL SECURITY;
ALTER TABLE analytics_network_hours ENABLE ROW LEVEL SECURITY;
ALTER TABLE analytics_network_days ENABLE ROW LEVEL SECURITY;
ALTER TABLE analytics_corrections ENABLE ROW LEVEL SECURITY;
ALTER TABLE analytics_batches ENABLE ROW LEVEL SECURITY;
