import { describe, expect, it } from 'vitest';
import type * as z from 'zod/mini';
import { describeIssue, firstAnswer, invalidIpMessage, mapAnswer, methodNotAllowed, serverTiming, timingHeaders, type AppRequest, type AppResponse, type Handler } from './handler.ts';

const req = { method: 'GET', path: '/x' } as AppRequest;
const answer = (body: string): AppResponse => ({ status: 200, body });

describe('firstAnswer', () => {
  const asked: string[] = [];
  const handler = (name: string, result: AppResponse | undefined, later = false): Handler => () => {
    asked.push(name);
    return later ? Promise.resolve(result) : result;
  };

  it.each<[string, Handler[], string | undefined, string[]]>([
    ['the first handler that answers', [handler('a', undefined), handler('b', answer('b')), handler('c', answer('c'))], 'b', ['a', 'b']],
    ['the next handler after one that answers nothing later', [handler('a', undefined, true), handler('b', answer('b'))], 'b', ['a', 'b']],
    ['a later answer, asking no one after it', [handler('a', answer('a'), true), handler('b', answer('b'))], 'a', ['a']],
    ['nothing when no handler answers', [handler('a', undefined, true), handler('b', undefined)], undefined, ['a', 'b']],
  ])('gives %s', async (_, handlers, body, order) => {
    asked.length = 0;
    expect((await firstAnswer(handlers, req))?.body).toBe(body);
    expect(asked).toEqual(order);
  });
});

describe('mapAnswer', () => {
  const mark = (found: AppResponse): AppResponse => ({ ...found, status: 201 });
  it.each<[string, ReturnType<Handler>, number | undefined]>([
    ['an answer', answer('a'), 201],
    ['a later answer', Promise.resolve(answer('a')), 201],
    ['no answer', undefined, undefined],
    ['no answer later', Promise.resolve(undefined), undefined],
  ])('changes %s', async (_, found, status) => {
    expect((await mapAnswer(found, mark))?.status).toBe(status);
  });
});

describe('answers', () => {
  it.each([
    [63, '"' + 'x'.repeat(63) + '"'], [64, '"' + 'x'.repeat(64) + '"'], [65, '"' + 'x'.repeat(64) + '"'],
  ])('quotes an input of %i characters as %s', (length, quoted) => {
    expect(invalidIpMessage('x'.repeat(length))).toBe(`${quoted} is not a valid IPv4 or IPv6 address.`);
  });

  it.each([
    ['GET, HEAD', 'Use GET here.'], ['POST', 'Use POST here.'], ['GET, HEAD, POST', 'Use GET, POST here.'],
  ])('answers 405 with Allow: %s', (allow, message) => {
    expect(methodNotAllowed(allow)).toMatchObject({ status: 405, headers: { allow }, body: `{"error":{"code":"method_not_allowed","message":"${message}"}}\n` });
  });
});

describe('Server-Timing', () => {
  it('writes one entry as name, duration to the microsecond, and description', () => {
    expect(serverTiming('page', 1.23456, 'Lookup and page')).toBe('page;dur=1.235;desc="Lookup and page"');
  });

  it.each([['lookup', 'IP lookup'], ['memo', 'IP lookup (memo)']] as const)('says a %s answered, readable cross-origin', (by, desc) => {
    expect(timingHeaders(0.5, by)).toEqual({
      'access-control-expose-headers': 'Server-Timing, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After',
      'timing-allow-origin': '*',
      'server-timing': `lookup;dur=0.500;desc="${desc}"`,
    });
  });
});

describe('describeIssue', () => {
  const error = (issues: Array<{ path: PropertyKey[]; message: string }>) => ({ issues }) as unknown as z.core.$ZodError;
  it.each<[string, Array<{ path: PropertyKey[]; message: string }>, string]>([
    ['the first issue with its path', [{ path: ['items', 0], message: 'Too big' }, { path: ['x'], message: 'Other' }], 'items.0: Too big'],
    ['an issue at the top as the body', [{ path: [], message: 'Expected object' }], 'body: Expected object'],
    ['a general sentence when there is no issue', [], 'The request body does not have the expected shape.'],
  ])('words %s', (_, issues, message) => {
    expect(describeIssue(error(issues))).toBe(message);
  });
});
