// The console page: the inbox on the left, the run list (or one run) on the right, notices on top.
// Everything comes from the console's event stream, which reads it from Temporal.
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { eventStream, getJson, post } from './api.js';
import { html } from './html.js';
import { Inbox } from './inbox.js';
import { RunList } from './run-list.js';
import { RunView } from './run-view.js';
import { ScheduleList } from './schedule-list.js';
import { StartForm } from './start-form.js';

function useSnapshot() {
  const [snapshot, setSnapshot] = useState(undefined);
  const [connected, setConnected] = useState(false);
  useEffect(() => {
    const source = eventStream('/api/events');
    source.addEventListener('snapshot', (e) => {
      setSnapshot(JSON.parse(e.data));
      setConnected(true);
    });
    source.onerror = async () => {
      setConnected(false);
      // EventSource retries by itself; a lost session needs the login page instead.
      await getJson('/api/session');
    };
    return () => source.close();
  }, []);
  return { snapshot, connected };
}

function useRoute() {
  const read = () => {
    const match = /^#\/runs\/(.+)$/.exec(window.location.hash);
    return match ? { run: decodeURIComponent(match[1]) } : {};
  };
  const [route, setRoute] = useState(read());
  useEffect(() => {
    const onChange = () => setRoute(read());
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return route;
}

function Notices() {
  const [notices, setNotices] = useState([]);
  useEffect(() => {
    let next = 0;
    const onNotice = (e) => {
      const id = ++next;
      setNotices((list) => [...list.slice(-3), { id, ...e.detail }]);
      setTimeout(() => setNotices((list) => list.filter((n) => n.id !== id)), e.detail.kind === 'error' ? 15_000 : 6_000);
    };
    window.addEventListener('console-notice', onNotice);
    return () => window.removeEventListener('console-notice', onNotice);
  }, []);
  return html`<div class="notices" role="status" aria-live="polite">${notices.map((n) => html`<p key=${n.id} class=${`notice ${n.kind}`}>${n.text}</p>`)}</div>`;
}

async function logout() {
  await post('/api/logout', {});
  window.localStorage.removeItem('console-session-key');
  window.location.assign('/login');
}

/** Who the console says this session is: asked with the key, so a cookie from elsewhere shows no one. */
function useUser() {
  const [user, setUser] = useState('');
  useEffect(() => {
    void getJson('/api/session').then((s) => setUser(s?.user ?? ''));
  }, []);
  return user;
}

function App() {
  const { snapshot, connected } = useSnapshot();
  const route = useRoute();
  const user = useUser();
  return html`<header class="top">
      <h1><a href="#/">durable-agent console</a></h1>
      <span class=${`live-dot${connected ? ' on' : ''}`} title=${connected ? 'live' : 'reconnecting'}></span>
      <span class="who">Logged in as <strong>${user}</strong></span>
      <button class="link" onClick=${logout}>Log out</button>
    </header>
    <${Notices} />
    <div class="layout">
      <${Inbox} items=${snapshot?.inbox ?? []} />
      <main>
        ${route.run
          ? html`<${RunView} workflowId=${route.run} />`
          : html`<${StartForm} /><section aria-label="Runs"><h2>Runs</h2>${snapshot ? html`<${RunList} runs=${snapshot.runs} />` : html`<p class="loading">Loading…</p>`}</section>
              <section aria-label="Schedules"><h2>Schedules</h2><${ScheduleList} /></section>`}
      </main>
    </div>`;
}

render(html`<${App} />`, document.getElementById('app'));
