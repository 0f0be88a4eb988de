import type { Client } from '@temporalio/client';
import type { Authenticator } from '../auth/authenticator';
import type { LoginThrottle } from '../auth/login-throttle';
import type { Session, SessionStore } from '../auth/sessions';
import type { FollowUpChannel } from '../actions/follow-up';
import type { RunPricing } from '../runs/run-detail';
import type { RunsWatcher } from '../runs/runs-watcher';

/**
 * The session cookie. Off loopback, where the console must be served over HTTPS, it is
 * `__Host-agent_console_session` with `Secure`: only that origin's secure pages can set it. On
 * loopback over plain HTTP neither is available (and cookies ignore ports anyway), so the name carries
 * the console's port, which keeps two consoles apart; what keeps a server on another port from
 * swapping or stealing the session is the session key that must come with it (see Session.csrfToken).
 */
export interface SessionCookie {
  name: string;
  /** The login form's double-submit cookie, named the same way. */
  loginName: string;
  secure: boolean;
}

/** What the routes share. Built once by `createConsoleApp`; tests build it with a real client. */
export interface ConsoleDeps {
  client: Client;
  sessions: SessionStore;
  /** The session cookie's name and whether it is `Secure` (see `sessionCookieFor`). */
  cookie: SessionCookie;
  throttle: LoginThrottle;
  authenticator: Authenticator;
  watcher: RunsWatcher;
  /** Where runs started from the page go. */
  taskQueue: string;
  /** The Temporal Web UI's base URL (e.g. http://localhost:8233), for links to a run. */
  uiBaseUrl?: string;
  followUp: FollowUpChannel;
  /** Host headers the console answers to (DNS-rebinding guard). */
  allowedHosts: ReadonlySet<string>;
  /** Prices and tier → model ids for the run view's cost estimate; without it the view shows no cost. */
  pricing?: RunPricing;
  /** How often a run view polls its run. */
  runPollMs: number;
  /** Aborted when the console shuts down, so open event streams end. */
  shutdown: AbortSignal;
  /** Run views' reads still under way: the console's stop waits for them before the caller closes the client. */
  reads: Set<Promise<unknown>>;
}

/** Hono's typed context: `session` is set by `requireSession` on every route behind the login. */
export interface ConsoleEnv {
  Variables: { session: Session };
}
