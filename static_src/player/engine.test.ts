import { HLS_CONFIG } from '../core/defaults';
import { bufferBound } from './engine';

describe('bufferBound', () => {
  it("bounds both of hls.js's forward-buffer settings, so its byte budget cannot reach past the bound", () => {
    expect(bufferBound(8)).toEqual({ maxBufferLength: 8, maxMaxBufferLength: 8 });
  });

  it('never raises the policy, and null is the policy itself', () => {
    const policy = { maxBufferLength: HLS_CONFIG.maxBufferLength, maxMaxBufferLength: HLS_CONFIG.maxMaxBufferLength };
    expect(bufferBound(600)).toEqual(policy);
    expect(bufferBound(null)).toEqual(policy);
    expect(policy).toEqual({ maxBufferLength: 30, maxMaxBufferLength: 30 });
  });
});
