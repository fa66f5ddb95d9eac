/**
 * The route handlers the server mounts before static files, and the locals of `/`.
 * Later capabilities (lookup API, plain-text endpoints) register here.
 */
import type { AppRequest, Handler } from './app.ts';
import type { Config } from './config.ts';

export interface Routes {
  handlers: Handler[];
  pageLocals: (req: AppRequest) => App.Locals | Promise<App.Locals>;
}

/** Creates the handlers for a configuration. */
export async function createRoutes(_config: Config): Promise<Routes> {
  return {
    handlers: [],
    // Until the lookup engine lands, '/' gets only the address (see issue 3).
    pageLocals: (req) => ({ clientIp: req.clientIp }) as App.Locals,
  };
}
