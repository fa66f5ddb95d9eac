/**
 * The Redis that tests use: TEST_REDIS_URL (CI starts one, see .ci/run). Each test counts
 * under its own key prefix, so tests never see each other's keys and nothing is flushed.
 * Under CI=true a missing server fails the test; locally the Redis cases are skipped with
 * a message.
 */
import { randomUUID } from 'node:crypto';

/** TEST_REDIS_URL, or undefined locally without one; throws under CI=true without one. */
export function testRedisUrl(): string | undefined {
  const url = process.env.TEST_REDIS_URL;
  if (!url && process.env.CI === 'true') throw new Error('TEST_REDIS_URL is required under CI=true (Redis tests must not be skipped)');
  if (!url) console.warn('TEST_REDIS_URL is not set: skipping the Redis cases');
  return url || undefined;
}

/** A key prefix no other test uses. */
export const uniquePrefix = (label: string): string => `whatismyip-test:${label}:${randomUUID()}`;
