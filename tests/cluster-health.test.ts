/**
 * With several workers, /healthz from any of them lists every worker's state
 * (src/server/http/cluster-health.ts), so a probe that reaches one worker sees the machine.
 */
import { describe, expect, it, vi } from 'vitest';
import { startServer } from './support/browser-harness.ts';

describe('/healthz with two workers', () => {
  it('lists both workers, whichever answers, each ok, the answering one marked', { timeout: 60_000 }, async () => {
    const server = await startServer({ WEB_CONCURRENCY: '2', ANALYTICS: 'off', RATE_LIMIT: '0' });
    try {
      const answers = new Set<string>();
      await vi.waitFor(async () => {
        const text = await (await fetch(`${server.url}/healthz`)).text();
        const lines = text.split('\n').filter((l) => l.startsWith('worker '));
        expect(lines).toHaveLength(2);
        answers.add(lines.find((l) => l.includes('(this one)'))!);
        // The cluster spreads requests: both workers answered at least once.
        expect(answers.size).toBe(2);
      }, { timeout: 30_000, interval: 100 });
      const text = await (await fetch(`${server.url}/healthz`)).text();
      expect(text.split('\n')[0]).toBe('ok');
      expect(text).toMatch(/^worker \d+( \(this one\))?: ok, \d+ s ago\nworker \d+( \(this one\))?: ok, \d+ s ago\n/m);
      expect(text.match(/\(this one\)/g)).toHaveLength(1);
    } finally {
      await server.stop();
    }
  });
});
