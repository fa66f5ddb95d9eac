/**
 * A stand-in `fetch` for the browser stores' tests: every request waits until the test
 * answers it, so a test can answer two overlapping requests in the order it chooses.
 * Install it with `stubFetch()` (vi.stubGlobal; undo with vi.unstubAllGlobals()).
 */
import { vi } from 'vitest';

/** One request the store made, waiting for its answer. */
export interface HeldRequest {
  url: string;
  init: RequestInit | undefined;
  /** Ends the request with `response`. */
  answer(response: Response): void;
  /** Ends the request as fetch does when the network fails. */
  fail(): void;
}

/** Replaces `fetch`; returns every request made, in order, and a way to wait for the next. */
export function stubFetch(): { requests: HeldRequest[]; request(match: (url: string) => boolean): Promise<HeldRequest> } {
  const requests: HeldRequest[] = [];
  vi.stubGlobal('fetch', (input: string | URL, init?: RequestInit) => new Promise<Response>((resolve, reject) => {
    requests.push({ url: String(input), init, answer: resolve, fail: () => reject(new TypeError('Failed to fetch')) });
  }));
  return {
    requests,
    /** The newest request whose URL matches, once it is made. */
    request: (match) => vi.waitFor(() => {
      const found = requests.findLast((r) => match(r.url));
      if (!found) throw new Error('no such request yet');
      return found;
    }),
  };
}

/** The API's error answer, `{ error: { code, message } }`. */
export const apiError = (status: number, code: string, message: string): Response =>
  Response.json({ error: { code, message } }, { status });

/**
 * Answers `request` with `response` and resolves once the store has read its body: after
 * that, what the store does with it takes only promise callbacks (`settle()` runs them),
 * so a test can say "the late answer was read and changed nothing".
 */
export function answered(request: HeldRequest, response: Response): Promise<void> {
  return new Promise((resolve) => {
    const read = <T>(body: Promise<T>) => body.finally(resolve);
    const json = response.json.bind(response);
    const text = response.text.bind(response);
    request.answer(Object.assign(response, { json: () => read(json()), text: () => read(text()) }));
  });
}
