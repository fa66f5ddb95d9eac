/**
 * The analytics retention job after a failure (src/server/storage/analytics.ts): it runs
 * again within minutes, not the next day, so that a passing shortage (descriptors, EMFILE; a
 * database away) does not leave a day's rows past their retention.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAnalytics } from '../src/server/storage/analytics.ts';

afterEach(() => { vi.useRealTimers(); vi.restoreAllMocks(); });

describe('the retention job', () => {
  it('runs again 5 minutes after it failed, and again while it fails', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'whatismyip-retention-'));
    // DATA_DIR is a file: the store cannot open, so every run of the job fails.
    const notADir = path.join(dir, 'file');
    writeFileSync(notADir, '');
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const failures = () => error.mock.calls.filter((call) => String(call[0]).includes('the retention job failed')).length;
    vi.useFakeTimers({ toFake: ['setTimeout', 'setInterval', 'clearTimeout', 'clearInterval', 'Date'] });
    const analytics = createAnalytics({ enabled: true, dataDir: notADir, databaseUrl: undefined, retentionDays: 90, queueLimit: 10 });
    try {
      // Its first run, a minute after start.
      await vi.advanceTimersByTimeAsync(60_000);
      await vi.waitFor(() => expect(failures()).toBe(1));
      expect(error.mock.calls.find((call) => String(call[0]).includes('the retention job failed'))![0]).toMatch(/it runs again in 5 minutes$/);
      await vi.advanceTimersByTimeAsync(5 * 60_000);
      await vi.waitFor(() => expect(failures()).toBe(2));
      await vi.advanceTimersByTimeAsync(5 * 60_000);
      await vi.waitFor(() => expect(failures()).toBe(3));
    } finally {
      await analytics.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
