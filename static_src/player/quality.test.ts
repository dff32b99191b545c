import { AUTO_QUALITY, qualityOptions, type LevelInfo } from './quality';

const level = (index: number, height: number, bitrate: number): LevelInfo => ({ index, height, bitrate });

describe('qualityOptions', () => {
  it('has no menu without levels', () => {
    expect(qualityOptions([])).toEqual([]);
  });

  it("starts with 'Auto' (value -1) even for a single level", () => {
    expect(AUTO_QUALITY).toBe(-1);
    expect(qualityOptions([level(0, 720, 2_500_000)])).toEqual([
      { value: -1, label: 'Auto' },
      { value: 0, label: '720p' },
    ]);
  });

  it('sorts by height descending and shows heights only when they are all different', () => {
    const options = qualityOptions([level(0, 360, 800_000), level(1, 1080, 5_000_000), level(2, 720, 2_800_000)]);

    expect(options).toEqual([
      { value: -1, label: 'Auto' },
      { value: 1, label: '1080p' },
      { value: 2, label: '720p' },
      { value: 0, label: '360p' },
    ]);
  });

  it('keeps the level index as the value, whatever the position', () => {
    const options = qualityOptions([level(7, 480, 1_000_000), level(3, 1080, 4_000_000)]);
    expect(options.map((o) => o.value)).toEqual([-1, 3, 7]);
  });

  it('adds the bitrate, in Mbps to two decimals, to every level of a repeated height only', () => {
    const options = qualityOptions([
      level(0, 720, 1_500_000),
      level(1, 1080, 6_000_000),
      level(2, 720, 3_456_789),
      level(3, 480, 900_000),
    ]);

    expect(options).toEqual([
      { value: -1, label: 'Auto' },
      { value: 1, label: '1080p' },
      { value: 2, label: '720p 3.46 Mbps' },
      { value: 0, label: '720p 1.50 Mbps' },
      { value: 3, label: '480p' },
    ]);
  });

  it('sorts a repeated height by bitrate descending', () => {
    const options = qualityOptions([level(0, 720, 1_000_000), level(1, 720, 3_000_000), level(2, 720, 2_000_000)]);
    expect(options.slice(1).map((o) => o.value)).toEqual([1, 2, 0]);
  });

  it('shows a level without a height (audio-only) by bitrate alone, last', () => {
    const options = qualityOptions([
      level(0, 0, 128_000),
      level(1, 720, 2_000_000),
      { index: 2, bitrate: 64_000 } as LevelInfo,
    ]);

    expect(options).toEqual([
      { value: -1, label: 'Auto' },
      { value: 1, label: '720p' },
      { value: 0, label: '0.13 Mbps' },
      { value: 2, label: '0.06 Mbps' },
    ]);
  });

  it('lists identical (height, bitrate) levels once, keeping the first', () => {
    const options = qualityOptions([
      level(0, 720, 2_000_000),
      level(1, 720, 2_000_000),
      level(2, 1080, 5_000_000),
      level(3, 1080, 5_000_000),
    ]);

    expect(options).toEqual([
      { value: -1, label: 'Auto' },
      { value: 2, label: '1080p' },
      { value: 0, label: '720p' }, // the duplicate does not make the height "repeated"
    ]);
  });

  it('does not mutate the input', () => {
    const levels = [level(0, 360, 1), level(1, 1080, 2)];
    const copy = levels.map((l) => ({ ...l }));
    qualityOptions(levels);
    expect(levels).toEqual(copy);
  });
});
