/** `$portCheck` against a stand-in fetch: what it asks, its answer or failure, and two checks answered out of order. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiError, stubFetch, type HeldRequest } from '../../tests/support/fetch-stub.ts';

afterEach(() => { vi.unstubAllGlobals(); });

async function fresh() {
  const fetch = stubFetch();
  vi.resetModules();
  return { fetch, ...(await import('./port-check.ts')) };
}

const reachable = (port: number, yes = true) => Response.json({ ip: '203.0.113.7', port, reachable: yes });

describe('checkPort', () => {
  it('asks /port/{n} for the trimmed port, escaped, past the browser cache, and shows the answer', async () => {
    const { fetch, $portCheck, checkPort } = await fresh();
    const check = checkPort(' 22 ');
    expect($portCheck.get()).toEqual({ status: 'checking', port: '22' });
    fetch.requests[0]!.answer(reachable(22, false));
    await check;
    expect($portCheck.get()).toEqual({ status: 'done', result: { ip: '203.0.113.7', port: 22, reachable: false } });
    void checkPort('8080/x');
    expect(fetch.requests.map((r) => [r.url, r.init?.cache])).toEqual([['/port/22', 'no-store'], ['/port/8080%2Fx', 'no-store']]);
  });

  it.each<[string, (r: HeldRequest) => void, object]>([
    ['the API refuses it', (r) => r.answer(apiError(429, 'too_many_checks', 'Wait for a check to end.')),
      { kind: 'api', status: 429, code: 'too_many_checks', message: 'Wait for a check to end.' }],
    ['the network fails', (r) => r.fail(), { kind: 'network' }],
    ['the answer is not a port check', (r) => r.answer(Response.json({ reachable: 'yes' })), { kind: 'invalid' }],
  ])('shows the failure, with the port asked, when %s', async (_, end, failure) => {
    const { fetch, $portCheck, checkPort } = await fresh();
    const check = checkPort('443');
    end(fetch.requests[0]!);
    await check;
    expect($portCheck.get()).toEqual({ status: 'failed', port: '443', failure });
  });

  it.each([
    { name: 'the newer check is answered first', order: [1, 0] },
    { name: 'the newer check is answered last', order: [0, 1] },
  ])('shows the port asked last when $name', async ({ order }) => {
    const { fetch, $portCheck, checkPort } = await fresh();
    const checks = [checkPort('22'), checkPort('443')];
    for (const i of order) {
      fetch.requests[i]!.answer(reachable(i === 0 ? 22 : 443));
      await checks[i];
    }
    expect($portCheck.get()).toEqual({ status: 'done', result: { ip: '203.0.113.7', port: 443, reachable: true } });
  });
});
