// Logged-in sessions, kept in the console's memory: the console keeps no database of its own, so a
// restart logs everyone out (they log in again; nothing else is lost, since all state is in Temporal).
import { randomBytes } from 'node:crypto';

export interface Session {
  id: string;
  user: string;
  /**
   * The session's key: handed to the page once, in the fragment of the URL it lands on after logging
   * in (never in a cookie), kept in the page origin's storage, and sent back in the `x-csrf-token`
   * header of every API call. Cookies ignore ports, so a server on another loopback port can read and
   * set the console's cookie; it cannot read this key, which the browser keeps per origin (port
   * included). A session cookie without its key is refused, and a cross-site page cannot set the header.
   */
  csrfToken: string;
  /** The console origin (`http://host:port`) the session was created for; other origins are refused. */
  origin: string;
  expiresAt: number;
  /**
   * The one-time login nonce the login page made and kept in its tab's storage (issue 32, must-have 5).
   * The page takes the key from the fragment only after the console confirms the nonce it holds is this
   * session's, and only once: a session made by someone else's login, tossed in with a cookie from
   * another loopback port and a `#session-key=` link, is refused because its nonce is not in the page.
   */
  loginNonce?: string;
  /** Whether a page has taken the key with the nonce; it can be taken once. */
  claimed: boolean;
}

/** A working day: long enough not to interrupt a person deciding all day, short enough to expire overnight. */
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;

const randomId = () => randomBytes(32).toString('base64url');

export class SessionStore {
  private readonly sessions = new Map<string, Session>();
  constructor(private readonly ttlMs = SESSION_TTL_MS, private readonly now: () => number = Date.now) {}

  create(user: string, origin: string, loginNonce?: string): Session {
    this.sweep();
    const session: Session = { id: randomId(), user, csrfToken: randomId(), origin, expiresAt: this.now() + this.ttlMs, loginNonce, claimed: false };
    this.sessions.set(session.id, session);
    return session;
  }

  get(id: string | undefined): Session | undefined {
    if (!id) return undefined;
    const session = this.sessions.get(id);
    if (session && session.expiresAt <= this.now()) {
      this.sessions.delete(id);
      return undefined;
    }
    return session;
  }

  delete(id: string | undefined): void {
    if (id) this.sessions.delete(id);
  }

  private sweep(): void {
    const now = this.now();
    for (const [id, s] of this.sessions) if (s.expiresAt <= now) this.sessions.delete(id);
  }
}
