/**
 * The PostgreSQL driver survives a connection that dies under a transaction. postgres.js
 * 3.4.9 writes the transaction's ROLLBACK to a socket it has already let go of, from a
 * setImmediate callback, and the whole process exits (upstream porsager/postgres#1154,
 * #1208; seen in CI during tests/analytics-outage.test.ts). patches/postgres+3.4.9.patch
 * guards that write; this test runs the upstream repro in a child process, so a crash
 * shows as this test's failure instead of an error that takes the test runner down.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { testDatabase } from './support/postgres.ts';

const database = testDatabase();

// The analytics store writes each batch in sql.begin() (src/server/storage/postgres-store.ts).
const REPRO = `
import postgres from 'postgres';
const url = process.env.URL;
const sql = postgres(url, { max: 2, onnotice: () => {} });
const killer = postgres(url, { max: 1, onnotice: () => {} });
let pid = null;
const tx = sql.begin(async (t) => {
  [{ pid }] = await t\`SELECT pg_backend_pid() AS pid\`;
  await t\`SELECT pg_sleep(2)\`;
});
while (pid === null) await new Promise((r) => setTimeout(r, 20));
await killer\`SELECT pg_terminate_backend(\${pid})\`;
const error = await tx.then(() => 'none', (e) => e.code ?? e.message);
await new Promise((r) => setTimeout(r, 200));
const [{ ok }] = await sql\`SELECT 1 AS ok\`;
console.log(JSON.stringify({ error, ok }));
// The dead connection keeps the ROLLBACK it could not send: close with a timeout, as the store does.
await Promise.all([sql.end({ timeout: 1 }), killer.end()]);
`;

describe.skipIf(database.skip)('postgres.js with its connection killed mid-transaction', () => {
  it('rejects the transaction, keeps the process alive and connects again', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', REPRO], {
      env: { ...process.env, URL: database.get() },
      timeout: 30_000,
    });
    const result = JSON.parse(stdout.trim().split('\n').at(-1)!) as { error: string; ok: number };
    expect(result.error).not.toBe('none');
    expect(result.ok).toBe(1);
  }, 40_000);
});
