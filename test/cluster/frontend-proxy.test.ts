// The frontend proxy of the cluster: one address for the server's nodes. It must hand connections
// out in turn, skip a node that refuses, cut a client off when its node dies (so the client
// reconnects, and lands on a node that is alive), and never leave a client hanging on no node.
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startFrontendProxy, type FrontendProxy } from '../../scripts/cluster/frontend-proxy';
import { freePort } from '../../scripts/temporal-dev-server';

/** A stand-in frontend: answers each line with its name and the line, and can die with its connections. */
async function echoNode(name: string) {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('data', (data) => socket.write(`${name}:${data.toString()}`));
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    address: `127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** What SIGKILL does to a process's sockets: every connection is reset, new ones are refused. */
    kill: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.resetAndDestroy();
        server.close(() => resolve());
      }),
  };
}

/** One connection through the proxy: send a line, read the answer (or learn that the connection ended). */
function exchange(address: string, line: string): Promise<{ answer?: string; socket: net.Socket }> {
  const [host, port] = address.split(':');
  return new Promise((resolve) => {
    const socket = net.connect({ host, port: Number(port) }, () => socket.write(line));
    socket.once('data', (data) => resolve({ answer: data.toString(), socket }));
    socket.once('close', () => resolve({ socket }));
    socket.once('error', () => undefined);
  });
}

const closed = (socket: net.Socket) => new Promise<void>((resolve) => (socket.closed ? resolve() : socket.once('close', () => resolve())));

describe('startFrontendProxy', () => {
  let proxy: FrontendProxy | undefined;
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    await proxy?.close();
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  it('hands new connections to the frontends in turn', async () => {
    const [a, b] = [await echoNode('a'), await echoNode('b')];
    cleanups.push(a.kill, b.kill);
    proxy = await startFrontendProxy({ host: '127.0.0.1', port: await freePort('127.0.0.1'), frontends: [a.address, b.address] });
    const answers = [];
    for (const line of ['1', '2', '3', '4']) {
      const { answer, socket } = await exchange(proxy.address, line);
      answers.push(answer);
      socket.destroy();
    }
    expect(answers).toEqual(['a:1', 'b:2', 'a:3', 'b:4']);
    expect(proxy.stats()).toMatchObject({ connections: { [a.address]: 2, [b.address]: 2 }, failovers: 0, unserved: 0 });
  });

  it('cuts the clients of a frontend that dies, and sends their reconnections to one that is alive', async () => {
    const [a, b] = [await echoNode('a'), await echoNode('b')];
    cleanups.push(b.kill);
    proxy = await startFrontendProxy({ host: '127.0.0.1', port: await freePort('127.0.0.1'), frontends: [a.address, b.address] });
    const onA = await exchange(proxy.address, 'before');
    expect(onA.answer).toBe('a:before');
    await a.kill();
    // The client learns at once, instead of waiting on a connection to nothing.
    await closed(onA.socket);
    const answers = [];
    for (const line of ['x', 'y', 'z']) {
      const { answer, socket } = await exchange(proxy.address, line);
      answers.push(answer);
      socket.destroy();
    }
    expect(answers).toEqual(['b:x', 'b:y', 'b:z']);
    expect(proxy.stats().failovers).toBeGreaterThanOrEqual(1);
  });

  it('disconnects a client when no frontend is alive, and counts it', async () => {
    const dead = [`127.0.0.1:${await freePort('127.0.0.1')}`, `127.0.0.1:${await freePort('127.0.0.1')}`];
    proxy = await startFrontendProxy({ host: '127.0.0.1', port: await freePort('127.0.0.1'), frontends: dead });
    const { answer, socket } = await exchange(proxy.address, 'anyone?');
    expect(answer).toBeUndefined();
    expect(socket.closed).toBe(true);
    expect(proxy.stats()).toMatchObject({ failovers: 2, unserved: 1 });
  });
});
