// Every call the page makes goes through here, with the session's key: in the `x-csrf-token` header,
// or as `?key=` on an event stream (EventSource sends no headers). The key arrives once, in the URL
// fragment the login redirects to, is taken only with that login's nonce (claim), and is kept in this origin's localStorage, which a server on
// another port cannot read (cookies ignore ports; storage does not). A cross-site page can neither
// read the key nor set the header. Outcomes are announced as `console-notice` events.
const KEY_ITEM = 'console-session-key';
const FRAGMENT = /^#session-key=([A-Za-z0-9_-]+)$/;

const NONCE_ITEM = 'console-login-nonce';

/**
 * Takes a key from the fragment only with the login that produced it: the console must confirm that
 * the one-time nonce this tab's login page made (login.js) is that session's. A link with someone
 * else's key (their cookie planted from another loopback port) has no nonce of ours, so it is refused.
 */
async function claim(key) {
  const nonce = window.sessionStorage.getItem(NONCE_ITEM) ?? '';
  window.sessionStorage.removeItem(NONCE_ITEM);
  const response = await fetch('/api/session/claim', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-csrf-token': key },
    body: JSON.stringify({ nonce }),
    credentials: 'same-origin',
  }).catch(() => undefined);
  // A refused key is never stored; a key this tab had before stays (its own session, if still valid).
  if (response?.ok) window.localStorage.setItem(KEY_ITEM, key);
}

const arrived = FRAGMENT.exec(window.location.hash);
if (arrived) {
  // Off the address bar and out of history, so the key is not copied along with a link.
  window.history.replaceState(null, '', window.location.pathname + window.location.search);
  // Every module that imports this one waits for the answer, so nothing runs with an unchecked key.
  await claim(arrived[1]);
}
/** Read at each call: a login in another tab replaces the session, and its key, for every tab. */
const sessionKey = () => window.localStorage.getItem(KEY_ITEM) ?? '';

function toLogin(usedKey) {
  // Only the key that failed: another tab may have stored a newer one meanwhile.
  if (sessionKey() === usedKey) window.localStorage.removeItem(KEY_ITEM);
  window.location.assign('/login');
}

/** An event stream of the console, carrying the session key. */
export function eventStream(url) {
  return new EventSource(`${url}${url.includes('?') ? '&' : '?'}key=${encodeURIComponent(sessionKey())}`);
}

/** A GET of the console's API with the session key; a lost session sends the page to the login. */
export async function getJson(url) {
  const key = sessionKey();
  const response = await fetch(url, { headers: { 'x-csrf-token': key }, credentials: 'same-origin' }).catch(() => undefined);
  if (response?.status === 401) toLogin(key);
  return response?.ok ? response.json() : undefined;
}

export function notify(kind, text) {
  window.dispatchEvent(new CustomEvent('console-notice', { detail: { kind, text } }));
}

export async function post(url, body) {
  const key = sessionKey();
  let response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-csrf-token': key },
      body: JSON.stringify(body ?? {}),
      credentials: 'same-origin',
    });
  } catch (error) {
    return { ok: false, status: 0, data: { error: `The console did not answer (${error.message}).` } };
  }
  if (response.status === 401) toLogin(key);
  const data = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
  return { ok: response.ok, status: response.status, data };
}

/** What a decision or reply came to, as the person should read it. */
function announce(result) {
  const { outcome, message, error } = result.data;
  if (outcome === 'applied') notify('ok', message);
  else if (outcome === 'already_decided') notify('info', message);
  else notify('error', message ?? error ?? 'Refused.');
  return result;
}

export async function decide(item, decision, options = {}) {
  return announce(
    await post('/api/decisions', {
      workflowId: item.workflowId,
      callId: item.callId,
      decision,
      wholeTool: options.wholeTool === true,
      reason: options.reason || undefined,
      arguments: options.arguments,
      // The arguments this card showed: a call edited since is refused, never decided unseen.
      argumentsHash: item.argumentsHash,
    }),
  );
}

export async function answer(item, text) {
  return announce(await post('/api/replies', { workflowId: item.workflowId, callId: item.callId, text }));
}

/** Raises a run's spend budget (issue 34): sent to the top-level run, which forwards it to a sub-agent's that waits. */
export async function raise(item, limits) {
  return announce(await post('/api/budget-raises', { workflowId: item.rootWorkflowId ?? item.workflowId, ...limits }));
}

/** Start, cancel, resume: the answer's message or error is announced; the data is returned. */
export async function act(url, body, success) {
  const result = await post(url, body);
  if (result.ok) notify('ok', result.data.message ?? success(result.data));
  else notify('error', result.data.error ?? result.data.message ?? `HTTP ${result.status}`);
  return result;
}
