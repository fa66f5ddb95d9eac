/** Words for a failed request to our API, shared by the /ip-3 islands. */
import type { ApiFailure } from '../stores/api-fetch.ts';

/** The API's own message when it sent one; otherwise the copy for a network or unreadable answer. */
export function failureText(failure: ApiFailure, copy: { networkError: string; invalidResponse: string }): string {
  if (failure.kind === 'api') return failure.message;
  return failure.kind === 'network' ? copy.networkError : copy.invalidResponse;
}
