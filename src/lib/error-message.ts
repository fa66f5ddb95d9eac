/**
 * What a caught value says, for a log line or a state field: an Error's message, or anything
 * else thrown as text (`throw 'x'`, a rejected promise's reason). For the server's log with
 * the error's name and where it was thrown, see server/utils/log.ts `oneLine`.
 */
export const errorMessage = (error: unknown): string => (error instanceof Error ? error.message : String(error));
