// docs/guides/approvals.md#from-typescript: the package entry point exports the definitions a TypeScript
// client needs to steer a run, and they are the ones the workflow itself listens on.
import { describe, expect, it } from 'vitest';
import * as entry from '../src/index';
import * as definitions from '../src/workflows/definitions';

describe('src/index.ts', () => {
  it('exports approvalSignal, decideApprovalUpdate, statusQuery and userReplySignal, the workflow\'s own definitions', () => {
    expect(entry.approvalSignal).toBe(definitions.approvalSignal);
    expect(entry.decideApprovalUpdate).toBe(definitions.decideApprovalUpdate);
    expect(entry.statusQuery).toBe(definitions.statusQuery);
    expect(entry.userReplySignal).toBe(definitions.userReplySignal);
    expect([entry.approvalSignal.name, entry.decideApprovalUpdate.name, entry.statusQuery.name, entry.userReplySignal.name]).toEqual([
      'approval',
      'decideApproval',
      'status',
      'userReply',
    ]);
  });
});
