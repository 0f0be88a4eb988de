// The packed tarball at the floor of the Temporal peer range: the same fresh project as
// tarball.test.ts (which has the top of the range), its own install, the Temporal SDK pinned to the
// range's lowest version. If this fails, fix it or raise the floor (package.json, CHANGELOG.md, docs).
// The tarball is the suite run's one (support/tarball-project.ts).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic';
import { approveInProject, createProject, packedTarball, strictCompile, temporalInstalled, temporalPeerRange } from './support/tarball-project';

describe('the packed tarball, installed into a fresh TypeScript project', () => {
  let work: string;
  let fake: FakeAnthropic;
  let tarball: string;
  let temporal: Awaited<ReturnType<typeof temporalPeerRange>>;

  beforeAll(async () => {
    fake = await startFakeAnthropic();
    work = await mkdtemp(path.join(tmpdir(), 'durable-agent-pack-lowest-'));
    temporal = await temporalPeerRange();
    tarball = await packedTarball(work);
  }, 600_000);

  afterAll(async () => {
    await fake?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  describe('at the floor of the Temporal peer range', () => {
    let lowest: string;
    let lowestBuildErrors: string[];

    beforeAll(async () => {
      lowest = path.join(work, 'app-lowest');
      const started = Date.now();
      ({ buildErrors: lowestBuildErrors } = await createProject(lowest, tarball, { names: temporal.names, version: temporal.lowest }, []));
      console.info(`tarball: npm install and build with Temporal ${temporal.lowest} took ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }, 900_000);

    it('has the lowest Temporal SDK of the range, and no copy of its own', async () => {
      const { versions, nested } = await temporalInstalled(lowest, temporal.names);
      expect(Object.values(versions)).toEqual(temporal.names.map(() => temporal.lowest));
      expect(nested).toEqual([]);
    });

    it('compiles a fresh ESM and a fresh CommonJS project strictly without skipLibCheck (with @types/ms)', { timeout: 300_000 }, async () => {
      // ESM: the project's own build (its README example, docs snippets and programs); CommonJS here.
      expect(lowestBuildErrors).toEqual([]);
      expect(await strictCompile(lowest, ['cjs'])).toEqual([{ kind: 'cjs', files: [], errors: [] }]);
    });

    it("runs a worker from the library with its audit log on, approves a call through the user's own Temporal client, and sees a typed result (lowest Temporal)", { timeout: 300_000 }, async () => {
      const { approved, proof } = await approveInProject(lowest, fake);
      expect(approved).toMatchObject({ tool: 'refund_order', input: { orderId: 'A-17' }, decision: { applied: true }, status: 'completed', refunded: ['A-17'] });
      expect(proof).toMatchObject({ ok: true, calls: expect.arrayContaining([expect.objectContaining({ tool: 'refund_order', ok: true })]), decisions: [expect.objectContaining({ tool: 'refund_order', approver: 'ops', ok: true })] });
    });
  });
});
