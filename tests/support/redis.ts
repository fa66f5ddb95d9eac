/**
 * The Redis that tests use: TEST_REDIS_URL (CI starts one, see .ci/run). Each test counts
 * under its own key prefix, so tests never see each other's keys and nothing is flushed.
 * Without one the Redis cases skip locally and fail under CI, and the file's other cases
 * run either way (support/required-service.ts).
 */
import { randomUUID } from 'node:crypto';
import { requiredService, underCi, type RequiredService } from './required-service.ts';

/** The gate of the Redis cases: `skip` them, or `get()` TEST_REDIS_URL inside a case. */
export const testRedis = (): RequiredService<string> =>
  requiredService(process.env.TEST_REDIS_URL || undefined, 'TEST_REDIS_URL is not set');

/**
 * TEST_REDIS_URL, or undefined locally without one; throws under CI without one, which
 * fails the calling file whole: prefer `testRedis()`, whose gate is per case.
 */
export function testRedisUrl(): string | undefined {
  const url = process.env.TEST_REDIS_URL;
  if (!url && underCi()) throw new Error('TEST_REDIS_URL is required under CI (Redis tests must not be skipped)');
  if (!url) console.warn('TEST_REDIS_URL is not set: skipping the Redis cases');
  return url || undefined;
}

/** A key prefix no other test uses. */
export const uniquePrefix = (label: string): string => `whatismyip-test:${label}:${randomUUID()}`;
