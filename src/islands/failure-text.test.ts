import { describe, expect, it } from 'vitest';
import { failureText } from './failure-text.ts';

const COPY = { networkError: 'could not reach', invalidResponse: 'could not read' };

describe('failureText', () => {
  it.each([
    ["the API's own message", { kind: 'api', status: 400, code: 'invalid_ip', message: 'Not an address.' } as const, 'Not an address.'],
    ['the copy for the network', { kind: 'network' } as const, 'could not reach'],
    ['the copy for an unreadable answer', { kind: 'invalid' } as const, 'could not read'],
  ])('words a failure as %s', (_, failure, text) => {
    expect(failureText(failure, COPY)).toBe(text);
  });
});
