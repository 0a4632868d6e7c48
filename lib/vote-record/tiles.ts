/**
 * The vote log stored as tiles, after the transparency logs of Go's checksum database and C2SP's
 * tlog-tiles: the tree is cut into tiles of TILE_WIDTH (256) hashes, so a proof for a log of millions of
 * entries reads a few small items instead of the whole log, and the sequencer appends by rewriting
 * only the rightmost tile of each level.
 *
 * - Level 0 holds **data tiles**: the leaves' data (each entry's receipt, 32 bytes) in log order; a
 *   leaf hash is computed from it. Tile k holds leaves [256k, 256k + width).
 * - Tile level L >= 1 holds the hashes of the complete subtrees at tree level 8L (256^L leaves each);
 *   tile k of that level holds subtrees [256k, 256k + width).
 * A tile is full at 256 entries and never changes after that; the rightmost tile of a level grows as
 * the log does (its width says how far). A node at tree level ℓ = 8L + r (r < 8) is computed from the
 * 2^r entries of one tile of level L below it. Pure; lib/store keeps the tiles as items.
 */
import { appendLeaves, type Frontier, type Hash, leafHash, nodeHash, type NodeSource } from '#lib/vote-record/merkle';

/** Tree levels per tile: the log's tiles hold 2^8 = 256 entries, as tlog-tiles has them. */
const TILE_HEIGHT = 8;
export const TILE_WIDTH = 1 << TILE_HEIGHT;
export const HASH_BYTES = 32;

interface TileId {
  level: number;
  index: number;
}

export interface Tile extends TileId {
  /** Concatenated 32-byte entries (receipts at level 0, subtree hashes above); at most 256 of them. */
  data: Buffer;
}

const tileWidth = (tile: Pick<Tile, 'data'>): number => tile.data.length / HASH_BYTES;
export const tileKey = (id: TileId): string => `${id.level}/${id.index}`;

const entryAt = (tile: Tile, i: number): Buffer => tile.data.subarray(i * HASH_BYTES, (i + 1) * HASH_BYTES);

/** The tile operations for tiles of `height` tree levels (2^height entries); the log uses TILE_HEIGHT. */
interface TileLayout {
  /** A NodeSource over tiles already read (throws on one that was not: fetch `neededNodes` first). */
  tileSource(tiles: ReadonlyMap<string, Tile>): NodeSource;
  /** The tiles that hold the given nodes. */
  tilesFor(nodes: readonly { level: number; index: number }[]): TileId[];
  /** The partial rightmost tile of each level of a log of `size` leaves: what the next append extends. */
  edgeTiles(size: number): TileId[];
  /**
   * Appends `receipts` (32 bytes each) to a log of `frontier.size` leaves: the new frontier, and every
   * tile that changes (its whole new content). `edge` are the current edge tiles (`edgeTiles(size)`),
   * read before; a level whose edge tile is absent starts empty.
   */
  appendToTiles(frontier: Frontier, edge: ReadonlyMap<string, Tile>, receipts: readonly Buffer[]): { frontier: Frontier; tiles: Tile[] };
}

/**
 * Tiles of any height, as Go's tlog takes its tile height as a parameter: the rules do not depend on
 * it, and a small height lets a test cross several tile levels with a few hundred leaves instead of
 * the 65,536 that a second level of 256-wide tiles needs.
 */
export function tileLayout(height: number): TileLayout {
  const width = 1 << height;

  /** Which tile holds what a node at tree `level`, `index` is computed from. */
  function tileOfNode(level: number, index: number): TileId & { first: number; count: number } {
    const tileLevel = Math.floor(level / height);
    const r = level - tileLevel * height;
    const first = index * 2 ** r;
    return { level: tileLevel, index: Math.floor(first / width), first: first % width, count: 2 ** r };
  }

  function tileSource(tiles: ReadonlyMap<string, Tile>): NodeSource {
    const memo = new Map<string, Hash>();
    return (level, index) => {
      const key = `${level}/${index}`;
      const known = memo.get(key);
      if (known) return known;
      const at = tileOfNode(level, index);
      const tile = tiles.get(tileKey(at));
      if (!tile || tileWidth(tile) < at.first + at.count) throw new RangeError(`Tile ${tileKey(at)} does not hold node ${key}`);
      let hashes: Hash[] = [];
      for (let i = 0; i < at.count; i += 1) {
        const entry = entryAt(tile, at.first + i);
        hashes.push(at.level === 0 ? leafHash(entry) : Buffer.from(entry));
      }
      while (hashes.length > 1) {
        const next: Hash[] = [];
        for (let i = 0; i < hashes.length; i += 2) next.push(nodeHash(hashes[i]!, hashes[i + 1]!));
        hashes = next;
      }
      memo.set(key, hashes[0]!);
      return hashes[0]!;
    };
  }

  function tilesFor(nodes: readonly { level: number; index: number }[]): TileId[] {
    const ids = new Map<string, TileId>();
    for (const node of nodes) {
      const { level, index } = tileOfNode(node.level, node.index);
      ids.set(tileKey({ level, index }), { level, index });
    }
    return [...ids.values()];
  }

  function edgeTiles(size: number): TileId[] {
    const ids: TileId[] = [];
    for (let level = 0, span = 1; span <= size; level += 1, span *= width) {
      const entries = Math.floor(size / span);
      if (entries % width !== 0) ids.push({ level, index: Math.floor(entries / width) });
    }
    return ids;
  }

  function appendToTiles(frontier: Frontier, edge: ReadonlyMap<string, Tile>, receipts: readonly Buffer[]): { frontier: Frontier; tiles: Tile[] } {
    const changed = new Map<string, TileId & { parts: Buffer[]; width: number }>();
    const put = (level: number, position: number, entry: Buffer) => {
      const id = { level, index: Math.floor(position / width) };
      const key = tileKey(id);
      let tile = changed.get(key);
      if (!tile) {
        const stored = edge.get(key);
        tile = { ...id, parts: stored ? [stored.data] : [], width: stored ? tileWidth(stored) : 0 };
        changed.set(key, tile);
      }
      const offset = position % width;
      if (tile.width !== offset) throw new RangeError(`Tile ${key} holds ${tile.width} entries, expected ${offset} before appending`);
      tile.parts.push(entry);
      tile.width += 1;
    };
    const next = appendLeaves(
      frontier,
      receipts.map((receipt, i) => {
        if (receipt.length !== HASH_BYTES) throw new RangeError('A receipt is 32 bytes');
        put(0, frontier.size + i, receipt);
        return leafHash(receipt);
      }),
      (level, index, hash) => {
        if (level > 0 && level % height === 0) put(level / height, index, hash);
      },
    );
    const tiles = [...changed.values()].map(({ level, index, parts }) => ({ level, index, data: Buffer.concat(parts) }));
    return { frontier: next, tiles };
  }

  return { tileSource, tilesFor, edgeTiles, appendToTiles };
}

/** The log's tiles: 256 entries each. */
export const { tileSource, tilesFor, edgeTiles, appendToTiles } = tileLayout(TILE_HEIGHT);
