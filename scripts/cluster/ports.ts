import net from 'node:net';
import { freePort } from '../temporal-dev-server';

export function isPortFree(ip: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, ip, () => probe.close(() => resolve(true)));
  });
}

/** The usual port when it is free on `ip`, so addresses look as documented; any free one when not. */
export async function preferredPort(ip: string, usual: number): Promise<number> {
  return (await isPortFree(ip, usual)) ? usual : freePort(ip);
}
