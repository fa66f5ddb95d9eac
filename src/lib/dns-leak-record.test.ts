/**
 * The DNS leak token's form, as the page checks what POST /api/dns-leak handed out: 32
 * lowercase hex digits, nothing before or after. Read from a fresh copy of the module, as
 * the store tests load it (the pattern is made when the module loads).
 */
import { describe, expect, it, vi } from 'vitest';

const HEX = '0123456789abcdef0123456789abcdef';

describe('DNS_LEAK_TOKEN', () => {
  it.each([
    [HEX, true],
    ['f'.repeat(32), true],
    [HEX.slice(1), false],
    [`${HEX}0`, false],
    [`x${HEX}`, false],
    [`${HEX}x`, false],
    [HEX.toUpperCase(), false],
    ['g'.repeat(32), false],
    ['0', false],
    ['', false],
  ])('%j: %s', async (token, valid) => {
    vi.resetModules();
    const { DNS_LEAK_TOKEN } = await import('./dns-leak-record.ts');
    expect(DNS_LEAK_TOKEN.test(token)).toBe(valid);
  });
});
