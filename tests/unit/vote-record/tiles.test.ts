/** The log stored as tiles: appends in batches, proofs served from tiles equal those from the whole tree. */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  appendLeaves,
  consistencyProof,
  EMPTY_FRONTIER,
  frontierRoot,
  type Hash,
  inclusionProof,
  leafHash,
  neededNodes,
  type NodeSource,
  treeRoot,
  verifyConsistency,
  verifyInclusion,
} from '#lib/vote-record/merkle';
import { appendToTiles, edgeTiles, type Tile, tileKey, tilesFor, tileSource, TILE_WIDTH } from '#lib/vote-record/tiles';

const receipt = (i: number) => createHash('sha256').update(`entry ${i}`).digest();

describe('tiles', () => {
  it('a log appended in uneven batches past 65,536 leaves (two tile levels) serves roots and proofs equal to the whole tree', () => {
    const stored = new Map<string, Tile>();
    const nodes = new Map<string, Hash>();
    const whole: NodeSource = (level, index) => nodes.get(`${level}/${index}`)!;
    let frontier = EMPTY_FRONTIER;
    let reference = EMPTY_FRONTIER;
    const batches = [1, 2, 253, 1, 255, 256, 513, 3000, 61000, 300, 700];
    let written = 0;
    for (const size of batches) {
      const receipts = Array.from({ length: size }, (_, i) => receipt(written + i));
      // What the sequencer reads before an append: the partial edge tiles only.
      const edge = new Map(edgeTiles(frontier.size).map((id) => [tileKey(id), stored.get(tileKey(id))!]));
      for (const tile of edge.values()) expect(tile).toBeDefined();
      const out = appendToTiles(frontier, edge, receipts);
      for (const tile of out.tiles) {
        expect(tile.data.length).toBeLessThanOrEqual(TILE_WIDTH * 32);
        stored.set(tileKey(tile), tile);
      }
      frontier = out.frontier;
      reference = appendLeaves(reference, receipts.map(leafHash), (level, index, hash) => nodes.set(`${level}/${index}`, hash));
      written += size;
      expect(frontier).toEqual(reference);

      const n = frontier.size;
      const fromTiles = tileSource(stored);
      expect(treeRoot(fromTiles, n).equals(frontierRoot(frontier))).toBe(true);
      for (const i of [0, Math.floor(n / 3), n - 1]) {
        // Only the tiles the proof needs are read.
        const needed = tilesFor(neededNodes((source) => inclusionProof(source, i, n)));
        const proof = inclusionProof(tileSource(new Map(needed.map((id) => [tileKey(id), stored.get(tileKey(id))!]))), i, n);
        expect(proof).toEqual(inclusionProof(whole, i, n));
        expect(verifyInclusion(leafHash(receipt(i)), i, n, proof, frontierRoot(frontier))).toBe(true);
        expect(needed.length).toBeLessThanOrEqual(6);
      }
      const m = Math.max(1, n - size);
      const proof = consistencyProof(fromTiles, m, n);
      expect(verifyConsistency(m, n, treeRoot(whole, m), frontierRoot(frontier), proof)).toBe(true);
    }
    expect(written).toBeGreaterThan(TILE_WIDTH ** 2);
    expect(stored.has('2/0')).toBe(true); // a level-2 tile: subtrees of 65,536 leaves
    // Hashing ~140,000 leaves twice: seconds on a busy machine, so a bound far above the work.
  }, 180_000);

  it('edge tiles are the partial rightmost tile of each level', () => {
    expect(edgeTiles(0)).toEqual([]);
    expect(edgeTiles(1)).toEqual([{ level: 0, index: 0 }]);
    expect(edgeTiles(256)).toEqual([{ level: 1, index: 0 }]);
    expect(edgeTiles(257)).toEqual([{ level: 0, index: 1 }, { level: 1, index: 0 }]);
    expect(edgeTiles(65536)).toEqual([{ level: 2, index: 0 }]);
  });

  it('refuses an append onto a tile that was not read (the sequencer must read the edge first)', () => {
    const first = appendToTiles(EMPTY_FRONTIER, new Map(), [receipt(0), receipt(1)]);
    expect(() => appendToTiles(first.frontier, new Map(), [receipt(2)])).toThrow(/expected 2/);
    expect(() => appendToTiles(EMPTY_FRONTIER, new Map(), [Buffer.alloc(31)])).toThrow(/32 bytes/);
  });
});
