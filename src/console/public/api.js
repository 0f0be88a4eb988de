// Every change the page makes goes through here: JSON to the console's routes with the session's
// CSRF token in a header (a cross-site page can neither read the token nor set the header). The
// outcome is also announced as a `console-notice` event, which the page shows.
const csrfToken = document.querySelector('meta[name="csrf-token"]')?.getAttribute('content') ?? '';

export function notify(kind, text) {
  window.dispatchEvent(new CustomEvent('console-notice', { detail: { kind, text } }));
}

export async function post(url, body) {
  let response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-csrf-token': csrfToken },
      body: JSON.stringify(body ?? {}),
      credentials: 'same-origin',
    });
  } catch (error) {
    return { ok: false, status: 0, data: { error: `The console did not answer (${error.message}).` } };
  }
  if (response.status === 401) window.location.assign('/login');
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
    await post('/api/decisions', { workflowId: item.workflowId, callId: item.callId, decision, wholeTool: options.wholeTool === true, reason: options.reason || undefined }),
  );
}

export async function answer(item, text) {
  return announce(await post('/api/replies', { workflowId: item.workflowId, callId: item.callId, text }));
}

/** Start, cancel, resume: the answer's message or error is announced; the data is returned. */
export async function act(url, body, success) {
  const result = await post(url, body);
  if (result.ok) notify('ok', result.data.message ?? success(result.data));
  else notify('error', result.data.error ?? result.data.message ?? `HTTP ${result.status}`);
  return result;
}
