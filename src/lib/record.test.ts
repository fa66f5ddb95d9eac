/**
 * The record's schemas: what the API and the islands accept and what they refuse. Each test
 * loads a fresh copy of the module: the schemas are built when it loads, and mutation testing
 * counts a schema as tested only by the tests that load it.
 */
import { describe, expect, it, vi } from 'vitest';

async function freshRecord() {
  vi.resetModules();
  return import('./record.ts');
}

describe('UNKNOWN', () => {
  it('is the spec\'s word for text nothing knows', async () => {
    const { UNKNOWN } = await freshRecord();
    expect(UNKNOWN).toBe('Unknown');
  });
});

describe('DeviceInfoSchema', () => {
  const device = { browser: 'Chrome', os: 'Windows', device: 'Desktop', userAgent: 'UA', bot: false };
  it.each([
    ['a known browser and OS', {}, true],
    ['a browser nobody recognised', { browser: 'Unknown' }, true],
    ['an OS nobody recognised', { os: 'Unknown' }, true],
    ['both unrecognised', { browser: 'Unknown', os: 'Unknown' }, true],
    ['an empty browser name', { browser: '' }, false],
    ['an empty OS name', { os: '' }, false],
  ])('for %s: accepted %s', async (_, change, accepted) => {
    const { DeviceInfoSchema } = await freshRecord();
    expect(DeviceInfoSchema.safeParse({ ...device, ...change }).success).toBe(accepted);
  });
});

describe('GpsLocationSchema', () => {
  it.each([
    ['the south pole on the antimeridian', -90, -180, 0, true],
    ['the north pole on the antimeridian', 90, 180, 12, true],
    ['the equator and prime meridian', 0, 0, 5, true],
    ['a latitude past the south pole', -90.001, 0, 5, false],
    ['a latitude past the north pole', 90.001, 0, 5, false],
    ['a longitude past -180', 0, -180.001, 5, false],
    ['a longitude past 180', 0, 180.001, 5, false],
    ['a negative accuracy', 0, 0, -1, false],
  ])('for %s (%d, %d ± %d m): accepted %s', async (_, lat, lng, accuracy, accepted) => {
    const { GpsLocationSchema } = await freshRecord();
    const result = GpsLocationSchema.safeParse({ lat, lng, accuracy });
    expect(result.success).toBe(accepted);
    if (accepted) expect(result.data).toEqual({ lat, lng, accuracy });
  });

  it('refuses a fix without coordinates', async () => {
    const { GpsLocationSchema } = await freshRecord();
    expect(GpsLocationSchema.safeParse({ accuracy: 5 }).success).toBe(false);
  });
});

describe('LookupRequestSchema', () => {
  it('keeps the browser\'s timezone, language and User-Agent', async () => {
    const { LookupRequestSchema } = await freshRecord();
    const clientInfo = { timezone: 'Europe/Berlin', language: 'de-DE', userAgent: 'Mozilla/5.0' };
    expect(LookupRequestSchema.parse({ clientInfo }).clientInfo).toEqual(clientInfo);
  });

  it.each([
    ['an empty body', {}, true],
    ['client hints without any field', { clientInfo: {} }, true],
    ['only a timezone', { clientInfo: { timezone: 'UTC' } }, true],
    ['a timezone that is not text', { clientInfo: { timezone: 60 } }, false],
    ['a language that is not text', { clientInfo: { language: ['de'] } }, false],
    ['a User-Agent that is not text', { clientInfo: { userAgent: null } }, false],
  ])('for %s: accepted %s', async (_, body, accepted) => {
    const { LookupRequestSchema } = await freshRecord();
    expect(LookupRequestSchema.safeParse(body).success).toBe(accepted);
  });
});

describe('ApiErrorSchema', () => {
  it.each([
    ['a code and a message', { error: { code: 'RATE_LIMITED', message: 'Too many requests' } }, true],
    ['no code', { error: { message: 'Too many requests' } }, false],
    ['no message', { error: { code: 'RATE_LIMITED' } }, false],
    ['an empty error', { error: {} }, false],
  ])('for an error with %s: accepted %s', async (_, body, accepted) => {
    const { ApiErrorSchema } = await freshRecord();
    expect(ApiErrorSchema.safeParse(body).success).toBe(accepted);
  });
});

describe('PortCheckSchema (what the port-check store reads from /port/{n})', () => {
  const answer = { ip: '203.0.113.9', port: 22, reachable: true };
  it.each<[string, Record<string, unknown>, boolean]>([
    ['the whole answer', answer, true],
    ['no address', { port: 22, reachable: true }, false],
    ['the port as text', { ...answer, port: '22' }, false],
    ['no verdict', { ip: '203.0.113.9', port: 22 }, false],
    ['the verdict as text', { ...answer, reachable: 'yes' }, false],
  ])('for %s: accepted %s', async (_, body, accepted) => {
    const { PortCheckSchema } = await freshRecord();
    expect(PortCheckSchema.safeParse(body).success).toBe(accepted);
  });
  it('keeps every field it reads', async () => {
    const { PortCheckSchema } = await freshRecord();
    expect(PortCheckSchema.parse(answer)).toEqual(answer);
  });
});
