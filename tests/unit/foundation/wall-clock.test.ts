import { describe, expect, it } from 'vitest';
import { atWallClock } from '#tests/support/wall-clock';

describe('a test moving the wall clock', () => {
  it('moves it for the run and back after, even when the run fails', async () => {
    const later = new Date(Date.now() + 3_600_000);
    const seen = await atWallClock(later, async () => Date.now());
    expect(seen).toBeGreaterThanOrEqual(later.getTime());
    expect(Date.now()).toBeLessThan(later.getTime() - 60_000);
    await expect(atWallClock(later, async () => { throw new Error('the run failed'); })).rejects.toThrow('the run failed');
    expect(Date.now()).toBeLessThan(later.getTime() - 60_000);
  });

  it('refuses a second move while one is going on (its end would undo the other)', async () => {
    const later = new Date(Date.now() + 3_600_000);
    let release!: () => void;
    const first = atWallClock(later, () => new Promise<void>((resolve) => { release = resolve; }));
    await expect(atWallClock(later, async () => 'second')).rejects.toThrow('already moved');
    release();
    await first;
    expect(await atWallClock(later, async () => 'after the first ended')).toBe('after the first ended');
  });
});
