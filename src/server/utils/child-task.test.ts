/**
 * Work in a child process (child-task.ts): a finished child leaves its file whole, and a
 * child that fails, crashes or hangs is an error saying why, never a wait without end.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ChildTaskError, runChildTask } from './child-task.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'child-task-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let scripts = 0;
const helper = pathToFileURL(path.resolve('src/server/utils/child-task.ts')).href;

/** A child script of its own: `body` runs inside childTask, with writeBeside in scope. */
function script(name: string, body: string): URL {
  const file = path.join(dir, `${name}.ts`);
  writeFileSync(file, `import { childTask, writeBeside } from '${helper}';\nawait childTask(async () => { ${body} });\n`);
  return pathToFileURL(file);
}

describe('runChildTask', () => {
  it.each([
    ['writes its file beside the target and resolves', `writeBeside(process.argv[2], new TextEncoder().encode('done'))`, undefined],
    ['rejects with the message of what the child threw', `throw new Error('ASN CSV: malformed line')`, /child-\d\.ts exited with code 1: ASN CSV: malformed line$/],
    ['rejects when the child crashes outside the task', `process.exit(3)`, /child-\d\.ts exited with code 3$/],
    ['kills a child that runs past its time and rejects', `await new Promise(() => setInterval(() => undefined, 1000))`, /child-\d\.ts was stopped \(SIGKILL\)$/],
  ])('%s', { timeout: 20_000 }, async (_, body, error) => {
    const target = path.join(dir, 'out', `${scripts}.bin`);
    const run = runChildTask(script(`child-${++scripts}`, body), [target], 3000);
    if (error) return expect(run).rejects.toThrow(error);
    expect(await run).toEqual([]);
    expect(readFileSync(target, 'utf8')).toBe('done');
  });

  it('resolves with the lines the child wrote to stdout, blank ones left out', { timeout: 20_000 }, async () => {
    const body = `process.stdout.write('first note\\n\\n  \\nsecond note')`;
    expect(await runChildTask(script(`child-${++scripts}`, body), [], 3000)).toEqual(['first note', 'second note']);
  });

  it('keeps what the failed child said apart from how it ended', { timeout: 20_000 }, async () => {
    const said = await runChildTask(script(`child-${++scripts}`, `throw new Error('no places')`), [], 3000).catch((e: unknown) => e);
    expect(said).toBeInstanceOf(ChildTaskError);
    expect(said).toMatchObject({ reason: 'no places', message: expect.stringMatching(/^child-\d+\.ts exited with code 1: no places$/) });
    const silent = await runChildTask(script(`child-${++scripts}`, `process.exit(4)`), [], 3000).catch((e: unknown) => e);
    expect(silent).toMatchObject({ reason: undefined, message: expect.stringMatching(/^child-\d+\.ts exited with code 4$/) });
  });
});
