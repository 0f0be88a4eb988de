import { describe, expect, it } from 'vitest';
import { SessionStore } from '../../../src/console/auth/sessions';

describe('SessionStore', () => {
  it('forgets a session once it expires or is deleted', () => {
    let now = 1_000;
    const store = new SessionStore(100, () => now);
    const session = store.create('alice', 'http://127.0.0.1:4280');
    expect(store.get(session.id)?.user).toBe('alice');
    expect(session.csrfToken).not.toBe(session.id);
    now += 100;
    expect(store.get(session.id)).toBeUndefined();
    const again = store.create('alice', 'http://127.0.0.1:4280');
    store.delete(again.id);
    expect(store.get(again.id)).toBeUndefined();
    expect(store.get(undefined)).toBeUndefined();
  });
});
