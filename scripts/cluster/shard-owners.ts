// Which Temporal node owns each history shard, as the database records it. A node that acquires a
// shard raises the shard's range id and writes itself as the owner (ShardInfo.owner: its history
// service's address, the shard id and a random id), so this shows the shards split between the
// nodes and, after a node dies, moving to the survivors. Read-only, and from the database alone: it
// works whichever node is up.
//
// Which node a shard goes to is consistent hashing (ringpop's ring, 100 points per node, keyed by
// the history service's address) of the shard id. With compose's 4 shards, some pairs of addresses
// give one node all 4: on 10.213.0.0/24 and 10.214.0.0/24 (`npm run cluster`, the drill), nodes at
// .21 and .22 get 1 and 3; on 10.215.0.0/24 .22 gets all 4.
import { Client } from 'pg';
import { Reader } from 'protobufjs';
import { waitUntilReady, type ManagedProcess } from './processes';

export interface ShardOwnership {
  shardId: number;
  /** Raised each time a node acquires the shard. */
  rangeId: number;
  /** The owner's history service address (`ip:port`), or '' if none is recorded. */
  owner: string;
}

/**
 * The address in ShardInfo's `owner` (field 3, a string: `<ip:port>-<shard id>-<uuid>`), read from
 * its proto3 encoding without the server's proto files.
 */
export function ownerOf(data: Uint8Array): string {
  const reader = Reader.create(data);
  while (reader.pos < reader.len) {
    const tag = reader.uint32();
    if (tag >>> 3 === 3 && (tag & 7) === 2) return reader.string().split('-')[0]!;
    reader.skipType(tag & 7);
  }
  return '';
}

/** Every shard's owner, from the `temporal` database at `url`. */
export async function readShardOwners(url: string): Promise<ShardOwnership[]> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    const { rows } = await client.query<{ shard_id: number; range_id: string; data: Buffer; data_encoding: string }>(
      'SELECT shard_id, range_id, data, data_encoding FROM shards ORDER BY shard_id',
    );
    return rows.map((row) => {
      if (row.data_encoding.toLowerCase() !== 'proto3') throw new Error(`shard ${row.shard_id} is stored as ${row.data_encoding}, not Proto3`);
      return { shardId: row.shard_id, rangeId: Number(row.range_id), owner: ownerOf(row.data) };
    });
  } finally {
    await client.end();
  }
}

/** Shard ids by owner. */
export function shardsByOwner(shards: readonly ShardOwnership[]): Map<string, number[]> {
  const byOwner = new Map<string, number[]>();
  for (const shard of shards) byOwner.set(shard.owner, [...(byOwner.get(shard.owner) ?? []), shard.shardId]);
  return byOwner;
}

/** True when every shard is owned by one of `owners` and each of them owns at least one. */
export function isSplitBetween(shards: readonly ShardOwnership[], owners: readonly string[]): boolean {
  const byOwner = shardsByOwner(shards);
  return shards.length > 0 && [...byOwner.keys()].every((owner) => owners.includes(owner)) && owners.every((owner) => byOwner.has(owner));
}

/** `owner: shards` for each owner, for logs and messages. */
export function describeShards(shards: readonly ShardOwnership[], nameOf: (owner: string) => string = (owner) => owner || '(none)'): string {
  return [...shardsByOwner(shards)].map(([owner, ids]) => `${nameOf(owner)}: ${ids.join(', ')}`).join('; ') || 'no shards';
}

/**
 * Waits until the shards are split between `owners` (the nodes have found each other and handed
 * shards over), for up to `timeoutMs`, and returns the shards as they are then: split or not, since
 * the ring may give one node all of them (see above). Fails early if a node's process exits.
 */
export async function settleShards(url: string, owners: readonly string[], processes: ManagedProcess[], timeoutMs = 20_000): Promise<ShardOwnership[]> {
  let shards: ShardOwnership[] = [];
  const deadline = Date.now() + timeoutMs;
  await waitUntilReady(processes, `the history shards to be owned by ${owners.join(' and ')}`, async () => {
    shards = await readShardOwners(url);
    return isSplitBetween(shards, owners) || (Date.now() >= deadline && shards.every((shard) => owners.includes(shard.owner)));
  }, timeoutMs + 30_000);
  return shards;
}
