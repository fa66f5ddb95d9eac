import { afterEach, describe, expect, it, vi } from 'vitest';
import { EngineHolder, type FullEngine } from './engine-holder.ts';

/** An engine with only what the holder reads for its generation. */
const fakeEngine = () => ({ dataGeneration: 0, sources: [] }) as unknown as FullEngine & { dataGeneration: number };
const T0 = Date.parse('2026-11-27T12:00:30.000Z');

afterEach(() => vi.restoreAllMocks());

describe('EngineHolder.dataGeneration', () => {
  it.each<[string, (holder: EngineHolder, engine: ReturnType<typeof fakeEngine>) => void, boolean]>([
    ['nothing changed', () => {}, false],
    ['the same minute, 29.999 s on', () => vi.spyOn(Date, 'now').mockReturnValue(T0 + 29_999), false],
    ['the next minute', () => vi.spyOn(Date, 'now').mockReturnValue(T0 + 30_000), true],
    ['a list changed', (_h, engine) => { engine.dataGeneration++; }, true],
    ['the engine was swapped', (holder) => holder.swap(fakeEngine()), true],
  ])('after %s, changes: %s', (_what, change, changes) => {
    vi.spyOn(Date, 'now').mockReturnValue(T0);
    const engine = fakeEngine();
    const holder = new EngineHolder(engine, () => {});
    const before = holder.dataGeneration;
    expect(holder.dataGeneration).toBe(before);
    change(holder, engine);
    expect(holder.dataGeneration !== before).toBe(changes);
  });
});
