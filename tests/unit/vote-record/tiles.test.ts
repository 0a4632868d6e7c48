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
import { appendToTiles, edgeTiles, type Tile, tileKey, tileLayout, tilesFor, tileSource, TILE_WIDTH } from '#lib/vote-record/tiles';

const receipt = (i: number) => createHash('sha256').update(`entry ${i}`).digest();

/** How many tile levels a log of `size` leaves has for tiles of `width` entries. */
function tileLevels(size: number, width: number): number {
  let levels = 0;
  for (let span = 1; span <= size; span *= width) levels += 1;
  return levels;
}

/**
 * Appends `batches` of receipts through `layout`, storing the tiles it returns, and after each batch
 * compares the frontier, the root, inclusion proofs (read from only the tiles they need) and a
 * consistency proof with the same log kept as a whole tree. Returns the stored tiles.
 */
function appendAndProve(layout: ReturnType<typeof tileLayout>, width: number, batches: readonly number[]): Map<string, Tile> {
  const stored = new Map<string, Tile>();
  const nodes = new Map<string, Hash>();
  const whole: NodeSource = (level, index) => nodes.get(`${level}/${index}`)!;
  let frontier = EMPTY_FRONTIER;
  let reference = EMPTY_FRONTIER;
  let written = 0;
  for (const size of batches) {
    const receipts = Array.from({ length: size }, (_, i) => receipt(written + i));
    // What the sequencer reads before an append: the partial edge tiles only.
    const edge = new Map(layout.edgeTiles(frontier.size).map((id) => [tileKey(id), stored.get(tileKey(id))!]));
    for (const tile of edge.values()) expect(tile).toBeDefined();
    const out = layout.appendToTiles(frontier, edge, receipts);
    for (const tile of out.tiles) {
      expect(tile.data.length).toBeLessThanOrEqual(width * 32);
      stored.set(tileKey(tile), tile);
    }
    frontier = out.frontier;
    reference = appendLeaves(reference, receipts.map(leafHash), (level, index, hash) => nodes.set(`${level}/${index}`, hash));
    written += size;
    expect(frontier).toEqual(reference);

    const n = frontier.size;
    const fromTiles = layout.tileSource(stored);
    expect(treeRoot(fromTiles, n).equals(frontierRoot(frontier))).toBe(true);
    for (const i of [0, Math.floor(n / 3), n - 1]) {
      // Only the tiles the proof needs are read: at most two per tile level.
      const needed = layout.tilesFor(neededNodes((source) => inclusionProof(source, i, n)));
      const proof = inclusionProof(layout.tileSource(new Map(needed.map((id) => [tileKey(id), stored.get(tileKey(id))!]))), i, n);
      expect(proof).toEqual(inclusionProof(whole, i, n));
      expect(verifyInclusion(leafHash(receipt(i)), i, n, proof, frontierRoot(frontier))).toBe(true);
      expect(needed.length).toBeLessThanOrEqual(2 * tileLevels(n, width));
    }
    const m = Math.max(1, n - size);
    const proof = consistencyProof(fromTiles, m, n);
    expect(verifyConsistency(m, n, treeRoot(whole, m), frontierRoot(frontier), proof)).toBe(true);
  }
  return stored;
}

describe('tiles', () => {
  it('a log of 4-wide tiles appended in uneven batches past 256 leaves (five tile levels) serves roots and proofs equal to the whole tree', () => {
    const stored = appendAndProve(tileLayout(2), 4, [1, 2, 1, 3, 4, 9, 13, 31, 1, 64, 150, 20]);
    expect(stored.get('0/0')!.data.length).toBe(4 * 32);
    expect(stored.has('4/0')).toBe(true); // a level-4 tile: subtrees of 4^4 = 256 leaves
    expect(stored.has('5/0')).toBe(false);
  });

  it('the log\'s 256-wide tiles appended in uneven batches past 256 leaves serve roots and proofs equal to the whole tree', () => {
    const stored = appendAndProve({ appendToTiles, edgeTiles, tileSource, tilesFor }, TILE_WIDTH, [1, 2, 253, 1, 255, 256, 513, 300]);
    expect(stored.get('0/0')!.data.length).toBe(TILE_WIDTH * 32); // full data tiles, and the partial last one
    expect(stored.get('0/6')!.data.length).toBe((1581 - 6 * TILE_WIDTH) * 32);
    expect(stored.get('1/0')!.data.length).toBe(6 * 32); // a level-1 tile: the 6 complete subtrees of 256 leaves
  });

  it('edge tiles are the partial rightmost tile of each level', () => {
    expect(edgeTiles(0)).toEqual([]);
    expect(edgeTiles(1)).toEqual([{ level: 0, index: 0 }]);
    expect(edgeTiles(256)).toEqual([{ level: 1, index: 0 }]);
    expect(edgeTiles(257)).toEqual([{ level: 0, index: 1 }, { level: 1, index: 0 }]);
    expect(edgeTiles(65536)).toEqual([{ level: 2, index: 0 }]);
  });

  it('a proof that needs a tile not read, or more of a tile than was read, throws instead of guessing', () => {
    const { frontier, tiles } = appendToTiles(EMPTY_FRONTIER, new Map(), [0, 1, 2, 3].map(receipt));
    const stored = new Map(tiles.map((tile) => [tileKey(tile), tile]));
    expect(() => inclusionProof(tileSource(new Map()), 0, 4)).toThrow('Tile 0/0 does not hold node 0/1');
    const short = new Map([['0/0', { ...stored.get('0/0')!, data: stored.get('0/0')!.data.subarray(0, 3 * 32) }]]);
    expect(() => treeRoot(tileSource(short), 4)).toThrow(RangeError);
    expect(treeRoot(tileSource(stored), 4).equals(frontierRoot(frontier))).toBe(true);
  });

  it('refuses an append onto a tile that was not read (the sequencer must read the edge first)', () => {
    const first = appendToTiles(EMPTY_FRONTIER, new Map(), [receipt(0), receipt(1)]);
    expect(() => appendToTiles(first.frontier, new Map(), [receipt(2)])).toThrow(/expected 2/);
    expect(() => appendToTiles(EMPTY_FRONTIER, new Map(), [Buffer.alloc(31)])).toThrow(/32 bytes/);
  });
});
