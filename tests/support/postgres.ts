/**
 * The PostgreSQL that tests use: TEST_DATABASE_URL (CI starts one, see .ci/run). Each test
 * file works in its own schema, so files running in parallel never see each other's rows.
 * Without one the PostgreSQL cases skip locally and fail under CI, and the file's other
 * cases run either way (support/required-service.ts).
 */
import postgres from 'postgres';
import { requiredService, underCi, type RequiredService } from './required-service.ts';

/** The gate of the PostgreSQL cases: `skip` them, or `get()` TEST_DATABASE_URL inside a case. */
export const testDatabase = (): RequiredService<string> =>
  requiredService(process.env.TEST_DATABASE_URL || undefined, 'TEST_DATABASE_URL is not set');

/**
 * TEST_DATABASE_URL, or undefined locally without one; throws under CI without one, which
 * fails the calling file whole: prefer `testDatabase()`, whose gate is per case.
 */
export function testDatabaseUrl(): string | undefined {
  const url = process.env.TEST_DATABASE_URL;
  if (!url && underCi()) throw new Error('TEST_DATABASE_URL is required under CI (PostgreSQL tests must not be skipped)');
  if (!url) console.warn('TEST_DATABASE_URL is not set: skipping the PostgreSQL cases');
  return url || undefined;
}

/** A URL whose connections work in `schema` (created on first use by the store), and a way to drop it. */
export function schemaUrl(base: string, schema: string): { url: string; drop: () => Promise<void> } {
  const url = new URL(base);
  url.searchParams.set('search_path', schema);
  return {
    url: url.toString(),
    drop: async () => {
      const sql = postgres(base, { max: 1, onnotice: () => undefined });
      try {
        await sql`DROP SCHEMA IF EXISTS ${sql(schema)} CASCADE`;
      } finally {
        await sql.end();
      }
    },
  };
}

/** A schema name unique to this process and label. */
export const uniqueSchema = (label: string): string => `test_${label}_${process.pid}_${Math.floor(Math.random() * 1e6)}`;
